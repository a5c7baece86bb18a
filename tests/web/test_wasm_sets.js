#!/usr/bin/env node
/* test_wasm_sets.js: the browser inspector's check of several files (a
 * folder chosen, or files dropped together) against `tfs check --json
 * --lint .` run in that folder, for every folder of corpus/lint/sets (broken
 * safetensors sets, broken GGUF splits, MLX sets with a config.json) and a
 * lone MLX file with a config.json beside it.  tfs.wasm runs through
 * web/src/engine.js as the Web Worker runs it: the folder's set entries
 * (tfs_web_entries), each set entry checked (tfs_web_set), each lone file
 * checked alone with its lint (tfs_web_check, config.json read from the
 * files given); every JSON line must be byte for byte the command line's.
 *
 * usage: node test_wasm_sets.js TFS_WASM TFS_CLI SOURCE_DIR
 * exit 0 pass, 1 fail, 2 usage, 77 skip (no tfs.wasm: no wasm toolchain). */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawnSync} = require('child_process');

const [wasmPath, cli, srcDir] = process.argv.slice(2);
if (!srcDir) {
    console.error('usage: node test_wasm_sets.js TFS_WASM TFS_CLI SOURCE_DIR');
    process.exit(2);
}
if (!fs.existsSync(wasmPath)) {
    console.log(`SKIP: ${wasmPath} not built (no wasm toolchain)`);
    process.exit(77);
}
const started = Date.now();
const {tfsEngine, TFS_WEB_LINT} = require(path.join(srcDir, 'web/src/engine.js'));
const eng = tfsEngine(new WebAssembly.Module(fs.readFileSync(wasmPath)), () => [1, 2]);

/* the folder's files as the page gives them (top level: a folder's own files) */
function given(dir) {
    return fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isFile()).map((n) => {
        const b = fs.readFileSync(path.join(dir, n));
        return {path: n, size: b.length, readAt: (o, l) => new Uint8Array(b.buffer, b.byteOffset + o, l)};
    });
}

/* what the page's worker does with them (web/src/worker.js checkSet) */
function wasmLines(list) {
    eng.open('', 0, null);
    eng.files(list);
    const out = [];
    for (const entry of JSON.parse(eng.entries('.'))) {
        const s = eng.set(entry, 0);
        if (JSON.parse(s).set) {
            out.push(s);
            continue;
        }
        const g = list.find((x) => x.path === entry.replace(/^(\.\/)+/, ''));
        eng.use(entry, g.size, g.readAt);
        out.push(eng.check(TFS_WEB_LINT));
    }
    return out.join('');
}

function nativeLines(dir) {
    const r = spawnSync(cli, ['check', '--json', '--lint', '.'], {cwd: dir, encoding: 'utf8'});
    return r.stdout;
}

let failures = 0, compared = 0, sets = 0, findings = 0;
function compare(dir, what) {
    const w = wasmLines(given(dir)), n = nativeLines(dir);
    compared++;
    for (const line of n.split('\n').filter(Boolean)) {
        const j = JSON.parse(line);
        sets += j.set ? 1 : 0;
        findings += (j.findings || (j.lint && j.lint.findings) || []).length;
    }
    if (w === n && n.length > 0) return;
    failures++;
    console.log(`FAIL ${what}\n  wasm:   ${w.trim()}\n  native: ${n.trim()}`);
}

const root = path.join(srcDir, 'corpus/lint/sets');
for (const d of fs.readdirSync(root).sort()) compare(path.join(root, d), `corpus/lint/sets/${d}`);

/* a lone MLX file whose quantization only its config.json gives: the
 * config.json beside it decides the lint (group size 64 makes the scales'
 * shape wrong: LT205), as tfs_lint_path reads it */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tfs-web-sets-'));
process.on('exit', () => fs.rmSync(work, {recursive: true, force: true}));
fs.copyFileSync(path.join(srcDir, 'corpus/lint/files/LT210-mlx-inferred.safetensors'), path.join(work, 'model.safetensors'));
fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify({quantization: {group_size: 64, bits: 4}}));
compare(work, 'MLX file with config.json (group size 64)');
const lone = JSON.parse(nativeLines(work));
const has205 = lone.lint && lone.lint.findings.some((f) => f.id === 'LT205');
if (!has205) {
    failures++;
    console.log(`FAIL MLX file with config.json: native finds no LT205: ${JSON.stringify(lone.lint)}`);
}
/* the same file without it: inferred, no LT205 (so the config.json above made the finding) */
const bare = path.join(work, 'bare');
fs.mkdirSync(bare);
fs.copyFileSync(path.join(work, 'model.safetensors'), path.join(bare, 'model.safetensors'));
compare(bare, 'the same MLX file without config.json');
const alone = JSON.parse(nativeLines(bare));
if (!alone.lint || alone.lint.findings.some((f) => f.id === 'LT205')) {
    failures++;
    console.log(`FAIL MLX file without config.json: LT205 found: ${JSON.stringify(alone.lint)}`);
}

console.log(`${compared} folders compared (${sets} sets, ${findings} findings), ${failures} different; ` +
            `${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures ? 1 : 0);
