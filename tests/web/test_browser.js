#!/usr/bin/env node
/* test_browser.js: the inspector page (build/.../inspector, opened from
 * file://) in Debian's Chromium, headless, driven by playwright-core.
 * Drops (a DragEvent with a DataTransfer holding a file-backed File):
 *   - a real file (corpus/real), a damaged real file (corpus/real/gguf-damaged),
 *     the real file cut 100 bytes short (GG304 and its detail line),
 *     a Git LFS pointer saved under a model name, a zip checkpoint;
 *   - a 100 GB sparse safetensors file (truncate), which must be inspected
 *     reading < 1 MB in < 1 s;
 *   - a safetensors file with 100,000 tensors (the table keeps < 200 rows in
 *     the DOM; filter and sort work);
 *   - a GGUF with a 262,144-token vocabulary (tokens, scores, token types:
 *     gen_web_files vocab), which must go from drop to rendered page in
 *     < 2 s; more elements are read on request and print as `tfs dump
 *     --full` prints them;
 *   - a GGUF of awkward floats (gen_web_files floats: 0.1, subnormals, the
 *     largest finite, -0, NaN, infinities): every metadata value shown as
 *     `tfs dump` prints it;
 *   - several files at once: broken sets of corpus/lint/sets (SET004,
 *     SET101) and an MLX set with its config.json (LT205), each folder's
 *     files dropped together, with the findings of `tfs check --json
 *     --lint DIR`; an MLX file with a config.json beside it (LT205 from
 *     the config's group size) and the same file alone (none).
 * Each rendered verdict (verdict, rule id, offset) must be what the native
 * `tfs check --json` says.  No console error, no page error, no request
 * other than file:, blob: and data: (every other one is aborted and fails
 * the test; every request the page made is listed and checked too).
 * Screenshots go to ARTIFACT_DIR (CMake: BUILD_DIR/artifacts/web, kept by
 * CI); the files dropped are made in a temporary folder, removed at the end.
 *
 * usage: node test_browser.js INSPECTOR_DIR TFS_CLI SOURCE_DIR ARTIFACT_DIR NODE_MODULES GEN_WEB_FILES
 * env TFS_CHROMIUM: the browser (default /usr/bin/chromium).
 * exit 0 pass, 1 fail, 77 skip (no page built, no chromium, no playwright-core). */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {spawnSync} = require('child_process');

const [pageDir, cli, srcDir, artDir, nodeModules, gen] = process.argv.slice(2);
if (!gen) {
    console.error('usage: node test_browser.js INSPECTOR_DIR TFS_CLI SOURCE_DIR ARTIFACT_DIR NODE_MODULES GEN_WEB_FILES');
    process.exit(2);
}
const chromium = process.env.TFS_CHROMIUM || '/usr/bin/chromium';
const skip = (why) => { console.log('SKIP: ' + why); process.exit(77); };
if (!fs.existsSync(path.join(pageDir, 'index.html'))) skip(`${pageDir}/index.html not built (no wasm toolchain)`);
if (!fs.existsSync(chromium)) skip(`${chromium} absent (apt-get install chromium)`);
let pw;
try {
    pw = require(path.join(path.resolve(nodeModules), 'playwright-core'));
} catch (e) {
    skip(`playwright-core not found under ${nodeModules} (ci/deps.sh tfs_npm_playwright)`);
}

fs.mkdirSync(artDir, {recursive: true});
/* this run's screenshots only */
for (const f of fs.readdirSync(artDir)) if (f.endsWith('.png')) fs.rmSync(path.join(artDir, f));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tfs-web-browser-'));
process.on('exit', () => fs.rmSync(work, {recursive: true, force: true}));
const started = Date.now();
let failures = 0;
function check(ok, what) {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures++;
}

/* ---- the files */
function stHeader(entries) {
    let off = 0;
    const h = {};
    for (const [name, n] of entries) {
        h[name] = {dtype: 'F32', shape: [n], data_offsets: [off, off + 4 * n]};
        off += 4 * n;
    }
    const json = Buffer.from(JSON.stringify(h));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(json.length));
    return {head: Buffer.concat([len, json]), data: off};
}
const sparse = path.join(work, 'sparse-100GB.safetensors');
{
    /* 1,000 tensors of 26,843,545 F32 = 107,374,180,000 bytes of data */
    const e = [];
    for (let i = 0; i < 1000; i++) e.push([`model.layers.${i}.weight`, 26843545]);
    const {head, data} = stHeader(e);
    fs.writeFileSync(sparse, head);
    fs.truncateSync(sparse, head.length + data); /* sparse: no data block written */
}
const many = path.join(work, 'tensors-100k.safetensors');
{
    const e = [];
    for (let i = 0; i < 100000; i++) e.push([`t${String(i).padStart(6, '0')}`, 1 + (i % 7)]);
    const {head, data} = stHeader(e);
    fs.writeFileSync(many, Buffer.concat([head, Buffer.alloc(data)]));
}
const lfs = path.join(work, 'lfs-pointer.safetensors');
fs.writeFileSync(lfs, 'version https://git-lfs.github.com/spec/v1\noid sha256:' + 'cd'.repeat(32) + '\nsize 4400000\n');
const zip = path.join(work, 'checkpoint.pt');
fs.writeFileSync(zip, Buffer.concat([Buffer.from('PK\x03\x04', 'binary'), Buffer.alloc(26), Buffer.from('archive/data.pkl')]));
const real = path.join(srcDir, 'corpus/real/gguf/ollama-llama-2-tiny-random.gguf');
const damaged = path.join(srcDir, 'corpus/real/gguf-damaged/ushure-ggml-vocab-bert-bge.gguf');
/* the lint corpus's small GGUF with 1 GiB appended (sparse): LT113's 1,073,741,824 unowned bytes */
const tail = path.join(work, 'tail-1GiB.gguf');
fs.copyFileSync(path.join(srcDir, 'corpus/lint/files/gguf-q4_0.gguf'), tail);
fs.truncateSync(tail, fs.statSync(tail).size + 1073741824);
/* a GGUF with one KV and no tensor */
const empty = path.join(work, 'no-tensors.gguf');
{
    const k = Buffer.from('general.name'), v = Buffer.from('x');
    const b = Buffer.alloc(24 + 8 + k.length + 4 + 8 + v.length);
    b.write('GGUF', 0);
    b.writeUInt32LE(3, 4);
    b.writeBigUInt64LE(0n, 8);
    b.writeBigUInt64LE(1n, 16);
    b.writeBigUInt64LE(BigInt(k.length), 24);
    k.copy(b, 32);
    b.writeUInt32LE(8, 32 + k.length);
    b.writeBigUInt64LE(BigInt(v.length), 36 + k.length);
    v.copy(b, 44 + k.length);
    fs.writeFileSync(empty, b);
}
/* the real file cut 100 bytes short: GG304, with the detail line (detail.c) */
const cut = path.join(work, 'cut-short.gguf');
{
    const b = fs.readFileSync(real);
    fs.writeFileSync(cut, b.subarray(0, b.length - 100));
}

/* the files of tests/web/gen_web_files.c (the library's writer) */
function generate(args) {
    const r = spawnSync(gen, args, {encoding: 'utf8'});
    if (r.status !== 0) throw new Error(`${gen} ${args.join(' ')}: ${r.stderr}`);
    return args[args.length - 1];
}
const VOCAB = 262144;
const vocab = generate(['vocab', String(VOCAB), path.join(work, 'vocab-256k.gguf')]);
const floats = generate(['floats', path.join(work, 'floats.gguf')]);

/* `tfs dump FILE` (args before FILE): key -> the value text of its metadata lines */
function dumpValues(file, args) {
    const r = spawnSync(cli, ['dump', ...(args || []), '--', file], {encoding: 'utf8', maxBuffer: 64 << 20});
    const m = new Map();
    for (const line of r.stdout.split('\n')) {
        const x = /^    (\S+) \((\w+)\) = (.*)$/.exec(line);
        if (x) m.set(x[1], x[3]);
    }
    return m;
}

function native(file, opt) {
    const r = spawnSync(cli, ['check', '--json', ...(opt || []), '--', file], {encoding: 'utf8'});
    return JSON.parse(r.stdout);
}

(async () => {
    const browser = await pw.chromium.launch({
        executablePath: chromium,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
               '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
    const context = await browser.newContext({viewport: {width: 1200, height: 900}});
    const requests = [], offsite = [], errors = [];
    await context.route('**/*', (route) => {
        const u = route.request().url();
        if (/^(file|blob|data):/.test(u)) return route.continue();
        offsite.push(u);
        return route.abort();
    });
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
    page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
    page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') errors.push('worker: ' + m.text()); }));
    await page.goto('file://' + path.resolve(pageDir, 'index.html'));
    await page.waitForSelector('body[data-state=ready]', {timeout: 20000});

    /* drop a file: a file-backed File from a test-only <input>, in a DragEvent */
    async function drop(file, shot) {
        await page.evaluate(() => {
            let i = document.getElementById('test-input');
            if (!i) {
                i = document.createElement('input');
                i.type = 'file';
                i.multiple = true;
                i.id = 'test-input';
                i.hidden = true;
                document.body.appendChild(i);
            }
            document.body.dataset.state = 'waiting';
        });
        await page.setInputFiles('#test-input', file);
        const wall = await page.evaluate(async () => {
            const dt = new DataTransfer();
            for (const f of document.getElementById('test-input').files) dt.items.add(f);
            const t0 = performance.now();
            document.getElementById('drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true,
                                                                                 cancelable: true}));
            while (document.body.dataset.state !== 'done' && document.body.dataset.state !== 'error')
                await new Promise((r) => setTimeout(r, 5));
            return performance.now() - t0;
        });
        const r = await page.evaluate(() => ({
            state: document.body.dataset.state,
            verdict: document.getElementById('verdict').className,
            text: document.getElementById('verdict').innerText,
            bytesRead: Number(document.getElementById('bytes').dataset.bytesRead),
            ms: Number(document.getElementById('bytes').dataset.ms),
            notes: document.getElementById('notes').innerText,
            rows: document.querySelectorAll('#tspace .trow').length,
            tcount: document.getElementById('tcount').textContent,
            hex: document.getElementById('hex').innerText,
            focus: document.querySelectorAll('#hex .focus').length,
            fields: document.getElementById('fields').innerText,
            bad: [...document.querySelectorAll('#notes li.bad')].map((e) => e.textContent),
            notensors: !document.getElementById('notensors').hidden,
            sets: [...document.querySelectorAll('#setlist .entry')].map((e) => ({
                entry: e.dataset.entry, verdict: e.dataset.verdict,
                findings: [...e.querySelectorAll('li[data-id]')].map((li) => li.textContent),
            })),
            setsShown: !document.getElementById('sets').hidden,
        }));
        r.wall = wall;
        if (shot) await page.screenshot({path: path.join(artDir, shot), fullPage: false});
        return r;
    }

    function sameVerdict(r, n, name) {
        check(r.state === 'done' && r.verdict === n.verdict, `${name}: verdict ${r.verdict} = native ${n.verdict}`);
        if (n.rule) {
            check(r.text.includes(n.rule) && r.text.includes('byte ' + n.offset.toLocaleString('en-US')),
                  `${name}: rule ${n.rule} at byte ${n.offset} shown`);
            check(r.focus === 1, `${name}: hex view marks the failing byte`);
        }
        if (n.looks_like) check(r.text.includes(n.looks_like), `${name}: looks like "${n.looks_like}"`);
        if (n.detail) check(r.text.includes(n.detail), `${name}: detail "${n.detail}"`);
    }

    let r = await drop(real, 'real-valid.png');
    sameVerdict(r, native(real), 'real file');
    check(r.notes.includes('No code in the format'), 'real file: security note on code');
    /* what the file is, first: general.architecture and general.name head the header table */
    check(/^architecture\tllama\nname\t/.test(r.fields), 'real file: architecture and name first: ' +
          r.fields.split('\n').slice(0, 2).join(' | '));
    check(!r.notensors && r.rows > 0, 'real file: the tensor table, no "no tensors" line');

    r = await drop(tail, 'tail-1GiB.png');
    sameVerdict(r, native(tail), 'GGUF with 1 GiB after its data');
    check(native(tail).unowned_bytes === 1073741824, 'native: unowned_bytes 1,073,741,824');
    check(r.bad.some((t) => t.startsWith('Bytes no tensor owns: 1,073,741,824 bytes after the data section (LT113)')),
          'GGUF with 1 GiB after its data: a red security note with the byte count');

    /* an MLX file whose .scales has the wrong shape: LT205 shown (the lint runs in the browser) */
    const mlx = path.join(srcDir, 'corpus/lint/files/LT205-mlx-scales-shape.safetensors');
    r = await drop(mlx, 'mlx-lt205.png');
    sameVerdict(r, native(mlx), 'MLX file with wrong scales');
    check(r.bad.some((t) => t.startsWith('Lint LT205 (error): model.layers.0.mlp.up_proj.scales: shape [64, 3], ' +
                                         'expected [64, 2]')), 'MLX file with wrong scales: LT205 as a red note');
    check(/lint\s*1 error/.test(r.text), 'MLX file with wrong scales: the verdict says 1 lint error');

    r = await drop(empty, 'no-tensors.png');
    sameVerdict(r, native(empty), 'GGUF without tensors');
    check(r.notensors && r.rows === 0, 'GGUF without tensors: "no tensors" said, no empty table');

    r = await drop(damaged, 'real-damaged.png');
    sameVerdict(r, native(damaged), 'damaged file');

    r = await drop(cut, 'real-cut-short.png');
    sameVerdict(r, native(cut), 'real file cut short');
    check(/^GG304$/.test(native(cut).rule || '') && !!native(cut).detail, 'real file cut short: native GG304 with a detail');

    r = await drop(lfs, 'lfs-pointer.png');
    sameVerdict(r, native(lfs), 'LFS pointer named .safetensors');

    r = await drop(zip, 'zip-checkpoint.png');
    sameVerdict(r, native(zip), 'zip checkpoint');
    check(/pickle/.test(r.notes), 'zip checkpoint: pickle warning');

    r = await drop(sparse, 'sparse-100GB.png');
    sameVerdict(r, native(sparse), '100 GB sparse file');
    check(r.bytesRead > 0 && r.bytesRead < 1000000, `100 GB sparse file: ${r.bytesRead} bytes read (< 1 MB)`);
    check(r.ms < 1000, `100 GB sparse file: ${r.ms.toFixed(1)} ms in the worker (< 1 s); ${r.wall.toFixed(1)} ms drop to render`);
    check(r.tcount === '1,000', `100 GB sparse file: 1,000 tensors listed (${r.tcount})`);
    /* sparse-100GB.png is the picture of docs/inspector.png */

    /* the strict profile on the same file */
    await page.evaluate(() => { document.body.dataset.state = 'waiting'; });
    await page.check('input[name=profile][value="1"]');
    await page.waitForSelector('body[data-state=done]');
    const prof = await page.evaluate(() => document.getElementById('verdict').innerText);
    check(prof.includes('profile strict'), 'profile switch: strict shown');
    await page.evaluate(() => { document.body.dataset.state = 'waiting'; });
    await page.check('input[name=profile][value="0"]');
    await page.waitForSelector('body[data-state=done]');

    /* a 262,144-token vocabulary: the arrays are read lazily (count, first
     * elements), so drop to rendered stays well under 2 s */
    r = await drop(vocab, 'vocab-256k.png');
    sameVerdict(r, native(vocab), '256k-token vocabulary');
    console.log(`256k-token vocabulary: ${r.wall.toFixed(1)} ms drop to rendered, ${r.ms.toFixed(1)} ms in the ` +
                `worker, ${r.bytesRead} bytes read`);
    check(r.wall < 2000, `256k-token vocabulary: drop to rendered ${r.wall.toFixed(1)} ms (< 2,000 ms)`);
    const shownKv = async () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#kv tr')]
        .slice(1).map((tr) => [tr.cells[0].textContent, tr.cells[2].firstChild.textContent])));
    let kvText = await shownKv();
    const vocabDump = dumpValues(vocab);
    check(vocabDump.size === 6 && [...vocabDump].every(([k, v]) => kvText[k] === v),
          `256k-token vocabulary: the ${vocabDump.size} values as tfs dump prints them: ` +
          kvText['tokenizer.ggml.tokens']);
    /* where the tokens lie: 262,144 strings of an 8-byte length and their bytes */
    const tokBytes = ['<unk>', '<s>', '</s>'].concat([...Array(VOCAB - 3).keys()].map((i) => `tok_${i + 3}`))
        .reduce((a, t) => a + 8 + Buffer.byteLength(t), 0);
    const where = await page.evaluate(() => document.querySelector('#kv tr:nth-child(5) .where').textContent);
    check(where.startsWith(`262,144 elements, ${tokBytes.toLocaleString('en-US')} bytes at byte `),
          `256k-token vocabulary: tokens ${where} (${tokBytes} bytes of lengths and strings)`);
    /* more elements on request: 8 .. 107, then 108 .. 207, as tfs dump --full prints them */
    const fullScores = /^\[f32 x 262144\] \[(.*)\]$/.exec(dumpValues(vocab, ['--full']).get('tokenizer.ggml.scores'));
    const scores = fullScores ? fullScores[1].split(', ') : [];
    check(scores.length === VOCAB, `tfs dump --full: ${scores.length} scores`);
    for (const upto of [108, 208]) {
        await page.evaluate(() => { delete document.body.dataset.elems; });
        await page.click('#kv tr:nth-child(6) button.more');
        await page.waitForSelector(`body[data-elems="${upto}"]`, {timeout: 10000});
    }
    const more = await page.evaluate(() => [...document.querySelectorAll('#kv tr:nth-child(6) ol.elems li')]
        .map((li) => li.textContent));
    check(more.length === 200 && more.every((t, i) => t === scores[8 + i]),
          `256k-token vocabulary: scores 8 .. 207 read on request, as tfs dump --full: ${more.slice(0, 3).join(', ')} ...`);
    const label = await page.evaluate(() => document.querySelector('#kv tr:nth-child(6) button.more').textContent);
    check(label === 'show elements 208 to 307 of 262,144', `256k-token vocabulary: next request "${label}"`);

    /* awkward floats: the page shows what tfs dump prints (one formatter, in tfs.wasm) */
    r = await drop(floats, 'floats.png');
    sameVerdict(r, native(floats), 'awkward floats');
    kvText = await shownKv();
    const floatDump = dumpValues(floats);
    const differ = [...floatDump].filter(([k, v]) => kvText[k] !== v).map(([k, v]) => `${k}: page ${kvText[k]} dump ${v}`);
    check(floatDump.size === 19 && differ.length === 0,
          `awkward floats: ${floatDump.size} values as tfs dump prints them` + (differ.length ? ': ' + differ.join('; ') : ''));
    for (const [k, v] of [['test.f32.tenth', '0.100000001'], ['test.f32.subnormal', '1.40129846e-45'],
                          ['test.f32.max', '3.40282347e+38'], ['test.f64.neg_zero', '-0'], ['test.f32.nan', 'nan'],
                          ['test.f64.ninf', '-inf']])
        check(kvText[k] === v, `awkward floats: ${k} shown as ${kvText[k]} (${v})`);

    /* several files dropped at once: checked as `tfs check --json --lint DIR` checks their folder */
    function nativeDir(dir) {
        const out = spawnSync(cli, ['check', '--json', '--lint', '.'], {cwd: dir, encoding: 'utf8'}).stdout;
        return out.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    }
    const setsDir = path.join(srcDir, 'corpus/lint/sets');
    for (const [d, id] of [['SET004-st-wrong-shard', 'SET004'], ['SET101-gg-split-count', 'SET101'],
                           ['LT205-mlx-set-scales-shape', 'LT205']]) {
        const dir = path.join(setsDir, d);
        const files = fs.readdirSync(dir).map((n) => path.join(dir, n));
        r = await drop(files, `set-${d}.png`);
        const n = nativeDir(dir);
        const want = n[0].findings.map((f) => `${f.id} (${f.severity}): ${f.message}`);
        check(r.setsShown && r.sets.length === 1 && r.sets[0].entry === n[0].file && r.sets[0].verdict === n[0].verdict,
              `${d} (${files.length} files dropped): set ${r.sets.length && r.sets[0].entry} ${r.sets.length &&
              r.sets[0].verdict} = native ${n[0].file} ${n[0].verdict}`);
        check(want.some((t) => t.startsWith(id)) && JSON.stringify(r.sets[0].findings) === JSON.stringify(want),
              `${d}: the findings of tfs check --lint shown: ${r.sets[0] && r.sets[0].findings.join(' | ')}`);
    }
    /* a folder chosen with the directory picker (<input webkitdirectory>): its files' paths start with
     * the folder's name, as `tfs check FOLDER` names them */
    {
        const d = 'SET002-st-shard-missing';
        await page.evaluate(() => { document.body.dataset.state = 'waiting'; });
        await page.setInputFiles('#pickdir', path.join(setsDir, d));
        await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null,
                                   {timeout: 20000});
        const got = await page.evaluate(() => [...document.querySelectorAll('#setlist .entry')].map((e) => ({
            entry: e.dataset.entry, verdict: e.dataset.verdict,
            findings: [...e.querySelectorAll('li[data-id]')].map((li) => li.textContent)})));
        const n = spawnSync(cli, ['check', '--json', '--lint', d], {cwd: setsDir, encoding: 'utf8'}).stdout
            .split('\n').filter(Boolean).map((l) => JSON.parse(l));
        const want = n[0].findings.map((f) => `${f.id} (${f.severity}): ${f.message}`);
        check(got.length === 1 && got[0].entry === n[0].file && got[0].verdict === n[0].verdict &&
              JSON.stringify(got[0].findings) === JSON.stringify(want) && want.some((t) => t.startsWith('SET002')),
              `folder ${d} chosen: ${got.length && got[0].entry} ${got.length && got[0].verdict}, ` +
              `${got.length && got[0].findings.join(' | ')}`);
        await page.screenshot({path: path.join(artDir, 'folder-SET002.png')});
    }

    /* a config.json dropped beside an MLX file: its quantization (group size 64) decides the lint, as
     * tfs check --lint reads the config.json beside the file: the scales' shape is then wrong (LT205) */
    const mlxDir = path.join(work, 'mlx-config');
    fs.mkdirSync(mlxDir);
    fs.copyFileSync(path.join(srcDir, 'corpus/lint/files/LT210-mlx-inferred.safetensors'),
                    path.join(mlxDir, 'model.safetensors'));
    fs.writeFileSync(path.join(mlxDir, 'config.json'), JSON.stringify({quantization: {group_size: 64, bits: 4}}));
    r = await drop([path.join(mlxDir, 'model.safetensors'), path.join(mlxDir, 'config.json')], 'mlx-config.png');
    const nm = nativeDir(mlxDir)[0];
    const lt205 = nm.lint.findings.filter((f) => f.id === 'LT205');
    check(lt205.length > 0 && lt205.every((f) => r.bad.includes(`Lint LT205 (error): ${f.message}`)) && !r.setsShown,
          `MLX file + config.json: the file's report with native's ${lt205.length} LT205 finding(s): ` +
          (lt205[0] && lt205[0].message));
    r = await drop(path.join(mlxDir, 'model.safetensors'), null);
    check(!r.bad.some((t) => t.startsWith('Lint LT205')), 'the same MLX file alone: no LT205 (no config.json given)');

    r = await drop(many, null);
    sameVerdict(r, native(many), '100k tensors');
    check(r.tcount === '100,000', `100k tensors: count ${r.tcount}`);
    check(r.rows > 0 && r.rows < 200, `100k tensors: ${r.rows} rows in the DOM (virtualised)`);
    await page.fill('#filter', 't099999');
    const filtered = await page.evaluate(() => [...document.querySelectorAll('#tspace .trow')].map((e) => e.innerText));
    check(filtered.length === 1 && filtered[0].includes('t099999'), 'filter: one row, t099999');
    await page.fill('#filter', '');
    await page.click('#thead span[data-key=size]');
    await page.click('#thead span[data-key=size]'); /* descending */
    const top = await page.evaluate(() => document.querySelector('#tspace .trow span:last-child').textContent);
    check(top === '28', `sort by bytes, descending: first row ${top} bytes (7 F32 = 28)`);
    await page.evaluate(() => { document.getElementById('tview').scrollTop = 22 * 50000; });
    await page.waitForTimeout(100);
    const mid = await page.evaluate(() => document.querySelectorAll('#tspace .trow').length);
    check(mid > 0 && mid < 200, `scrolled to row 50,000: ${mid} rows in the DOM`);
    await page.screenshot({path: path.join(artDir, 'tensors-100k.png')});

    await browser.close();
    check(errors.length === 0, 'no console or page errors' + (errors.length ? ': ' + errors.join(' | ') : ''));
    check(offsite.length === 0, 'no network request' + (offsite.length ? ': ' + offsite.join(' ') : ''));
    const other = requests.filter((u) => !/^(file|blob|data):/.test(u));
    check(requests.length > 0 && other.length === 0,
          `${requests.length} requests seen, all file:/blob:/data:` + (other.length ? ': ' + other.join(' ') : ''));
    const shots = fs.readdirSync(artDir).filter((f) => f.endsWith('.png'));
    console.log(`screenshots (${shots.length}): ${path.resolve(artDir)}`);
    console.log(`browser test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.exit(failures ? 1 : 0);
})().catch((e) => {
    console.log('FAIL ' + (e && e.stack || e));
    process.exit(1);
});
