#!/usr/bin/env node
/* test_wasm_corpus.js: the browser inspector's engine (tfs.wasm through
 * web/src/engine.js, as the Web Worker runs it) against the native command
 * line: for every fixture of corpus/ and every real file (corpus/real, and
 * ../shared/real when present), plus a few files that are not models, in
 * the default, strict and header-only profiles, the JSON of
 * `tfs check --json` and of `tfs dump --json --content-only` must be byte for byte the same.
 * Also: no WASI call made, never more bytes read than the file holds.
 * The page checks the one file dropped on it, so the native side is
 * `tfs check -r --json FILE...`, which checks each FILE alone (without -r,
 * the first split of a GGUF set, model-00001-of-0000N.gguf, is checked with
 * its other parts as a model set: docs/lint.md).  The native dumps run in
 * one shell per profile (a fork of node per file costs more than the test).
 *
 * With --shard K/N only the files i (0-based, in the order above) with
 * i % N == K - 1 (ctest test_web_wasm_KofN: N of them compare every file).
 *
 * usage: node test_wasm_corpus.js TFS_WASM TFS_CLI SOURCE_DIR [WORK_DIR] [--shard K/N]
 * exit 0 pass, 1 fail, 2 usage, 77 skip (no tfs.wasm: no wasm toolchain). */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const {execFileSync, spawnSync} = require('child_process');

const started = Date.now();
const argv = process.argv.slice(2);
let shardK = 1, shardN = 1;
const si = argv.indexOf('--shard');
if (si >= 0) {
    const m = /^(\d+)\/(\d+)$/.exec(argv[si + 1] || '');
    if (!m || +m[1] < 1 || +m[1] > +m[2]) {
        console.error(`test_wasm_corpus.js: --shard wants K/N with 1 <= K <= N, not '${argv[si + 1]}'`);
        process.exit(2);
    }
    [shardK, shardN] = [+m[1], +m[2]];
    argv.splice(si, 2);
}
const [wasmPath, cli, srcDir, workArg] = argv;
if (!wasmPath || !cli || !srcDir) {
    console.error('usage: node test_wasm_corpus.js TFS_WASM TFS_CLI SOURCE_DIR [WORK_DIR] [--shard K/N]');
    process.exit(2);
}
if (!fs.existsSync(wasmPath)) {
    console.log(`SKIP: ${wasmPath} not built (no wasm32-wasi toolchain: wasi-libc, libclang-rt-14-dev-wasm32, lld)`);
    process.exit(77);
}
const {tfsEngine, TFS_STRICT, TFS_HEADER_ONLY} = require(path.resolve(srcDir, 'web/src/engine.js'));

function models(dir) {
    const out = [];
    if (!fs.existsSync(dir)) return out;
    for (const e of fs.readdirSync(dir, {withFileTypes: true}).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) out.push(...models(p));
        else if (/\.(safetensors|gguf)$/.test(e.name)) out.push(p);
    }
    return out;
}

/* files that are not model files, for the not_a_model verdicts and hints */
const work = fs.mkdtempSync(path.join(workArg || os.tmpdir(), 'wasm-corpus-'));
const odd = {
    'lfs-pointer.bin': 'version https://git-lfs.github.com/spec/v1\noid sha256:' + 'ab'.repeat(32) + '\nsize 123\n',
    'page.html': '<!DOCTYPE html><html><body>login</body></html>\n',
    'checkpoint.pt': Buffer.concat([Buffer.from('PK\x03\x04', 'binary'), Buffer.alloc(26), Buffer.from('archive/data.pkl')]),
    'legacy.bin': Buffer.from([0x80, 0x02, 0x7d, 0x71, 0x00]),
    'empty.bin': '',
    'html-named.safetensors': '<html>not weights</html>\n',
    'index.json': '{"metadata": {}, "weight_map": {"a": "model-00001.safetensors"}}\n',
};
for (const [n, c] of Object.entries(odd)) fs.writeFileSync(path.join(work, n), c);

const files = [
    ...models(path.join(srcDir, 'corpus')),
    ...models(path.join(srcDir, '..', 'shared', 'real')),
    ...Object.keys(odd).map((n) => path.join(work, n)),
].filter((p, i) => i % shardN === shardK - 1);
const sharedReal = path.join(srcDir, '..', 'shared', 'real');
if (!fs.existsSync(sharedReal)) console.log(`note: ${sharedReal} absent: corpus/ and corpus/real only`);

const mod = new WebAssembly.Module(fs.readFileSync(wasmPath));
const eng = tfsEngine(mod, () => {
    const b = crypto.randomBytes(8);
    return [b.readUInt32LE(0), b.readUInt32LE(4)];
});

function openFile(p) {
    const fd = fs.openSync(p, 'r');
    const size = fs.fstatSync(fd).size;
    eng.open(p, size, (off, len) => {
        const b = Buffer.alloc(len);
        const n = fs.readSync(fd, b, 0, len, off);
        return new Uint8Array(b.buffer, b.byteOffset, n);
    });
    return fd;
}

const profiles = [['default', 0, []], ['strict', TFS_STRICT, ['--strict']], ['header-only', TFS_HEADER_ONLY, ['--header-only']]];
let failures = 0, compared = 0;
function differ(what, p, want, got) {
    failures++;
    if (failures <= 10) console.log(`FAIL ${what} ${p}\n  native: ${want.trim().slice(0, 400)}\n  wasm:   ${got.trim().slice(0, 400)}`);
}

for (const [pname, flags, opt] of profiles) {
    /* native check: all files in one run, one JSON line each (then the
     * summary record of -r), matched by their "file" */
    const r = spawnSync(cli, ['check', '-r', '--json', ...opt, '--', ...files], {encoding: 'utf8', maxBuffer: 1 << 28});
    const byFile = new Map();
    for (const l of r.stdout.split('\n')) {
        if (!l.length) continue;
        const j = JSON.parse(l);
        if (typeof j.file === 'string') byFile.set(j.file, l);
    }
    if (byFile.size !== files.length) {
        console.log(`FAIL native check ${pname}: ${byFile.size} records for ${files.length} files\n${r.stderr}`);
        process.exit(1);
    }
    /* native dump: one run per file (exit status 0, 1 or 2 all print JSON),
     * from one shell; each followed by a line holding only RS (0x1e), which
     * JSON output cannot contain unescaped; --header-only changes nothing
     * for safetensors (one profile) */
    const dumped = files.filter((p) => flags !== TFS_HEADER_ONLY || p.endsWith('.gguf'));
    const d = spawnSync('/bin/sh', ['-c', 'cli=$1; shift; n=$1; shift; ' +
                                    'for f in "$@"; do "$cli" dump --json --content-only $n -- "$f"; printf "\\036\\n"; done',
                                    'sh', cli, opt.join(' '), ...dumped], {encoding: 'utf8', maxBuffer: 1 << 30});
    const dumps = d.stdout.split('\x1e\n');
    if (dumps.length !== dumped.length + 1) {
        console.log(`FAIL native dump ${pname}: ${dumps.length - 1} outputs for ${dumped.length} files\n${d.stderr}`);
        process.exit(1);
    }
    const dumpOf = new Map(dumped.map((p, i) => [p, dumps[i]]));
    files.forEach((p) => {
        const fd = openFile(p);
        const got = eng.check(flags);
        const dumpGot = eng.dump(flags);
        const s = eng.stats();
        fs.closeSync(fd);
        compared++;
        const want = byFile.get(p);
        if (got !== want + '\n') differ(`check ${pname}`, p, want || '(no record)', got);
        if (s.wasiCalls !== 0) { failures++; console.log(`FAIL ${p}: ${s.wasiCalls} WASI calls`); }
        const size = fs.statSync(p).size;
        if (s.bytesRead > size) { failures++; console.log(`FAIL ${p}: read ${s.bytesRead} bytes of a ${size}-byte file`); }
        if (!dumpOf.has(p)) return;
        compared++;
        if (dumpOf.get(p) !== dumpGot) differ(`dump ${pname}`, p, dumpOf.get(p), dumpGot);
    });
    console.log(`${pname}: ${files.length} files, check and dump compared`);
}
fs.rmSync(work, {recursive: true, force: true});
console.log(`${compared} JSON results compared, ${failures} different (${files.length} files, ` +
            `${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(failures ? 1 : 0);
