/* worker.js: the inspector's Web Worker (appended to engine.js by
 * web/bundle.py and started from a Blob).  It owns the wasm instance and
 * reads the dropped File with File.slice() through FileReaderSync, one
 * 64 KiB page at a time: nothing leaves the machine, and only the pages the
 * parser asks for are read.
 *
 * messages in:  {type: 'init', wasm: ArrayBuffer}
 *               {type: 'inspect', file: File, path, flags: 0 | 1 | 2}
 *                 (path: its name, or its path in a folder chosen)
 *                 (and others: [{path, file}], the files given with it:
 *                 the config.json beside an MLX file is read from them)
 *               {type: 'elems', kv, start, n}: more elements of an array
 *                 of the file inspected last
 *               {type: 'set', files: [{path, file}], flags}: several files
 *                 or a folder (path relative: "x.gguf", "model/x.gguf")
 * messages out: {type: 'ready'}
 *               {type: 'result', check, dump, strict, hex, stats}
 *                 (dump: tfs_web_view's JSON: arrays by count and their
 *                 first elements, every value as `tfs dump` prints it)
 *               {type: 'elems', elems: {kv, start, count, items}}
 *               {type: 'sets', results: [{entry, set} | {entry, check}], stats}
 *                 (set: `tfs check --json --lint` of a set entry; check:
 *                 of a lone model file)
 *               {type: 'error', message} */
'use strict';

var engine = null;

function random64() {
    var a = new Uint32Array(2);
    crypto.getRandomValues(a);
    return [a[0], a[1]];
}

/* Bytes shown by the hex view: 256 around the failing byte (the first
 * failing field when the parser names one), else the first 256. */
function hexWindow(check, dump) {
    var at = 0;
    if (check.verdict === 'parser_error') {
        at = check.offset;
        var f = dump.error && dump.error.fields && dump.error.fields[0];
        if (f && typeof f.offset === 'number') at = f.offset;
    }
    var start = Math.max(0, Math.floor(at / 16) * 16 - 128);
    return {start: start, focus: check.verdict === 'parser_error' ? check.offset : -1,
            bytes: engine.bytes(start, 256)};
}

function readerOf(file) {
    var reader = new FileReaderSync();
    return function (off, len) { return new Uint8Array(reader.readAsArrayBuffer(file.slice(off, off + len))); };
}

function given(g) { return {path: g.path, size: g.file.size, readAt: readerOf(g.file)}; }

function folderOf(p) {
    var s = p.lastIndexOf('/');
    return s < 0 ? '.' : p.slice(0, s);
}

/* Several files or a folder, as `tfs check DIR` checks a folder: per folder
 * its set entries (each checked as a set, tfs_web_set) and lone model files
 * (each checked alone, with the config.json beside it). */
function checkSet(m) {
    var list = m.files.map(given);
    engine.open('', 0, null);
    engine.files(list);
    var t0 = performance.now(), results = [], folders = [];
    list.forEach(function (g) { if (folders.indexOf(folderOf(g.path)) < 0) folders.push(folderOf(g.path)); });
    folders.sort();
    folders.forEach(function (dir) {
        JSON.parse(engine.entries(dir)).forEach(function (entry) {
            var s = JSON.parse(engine.set(entry, m.flags));
            if (s.set) {
                results.push({entry: entry, set: s});
                return;
            }
            var norm = entry.replace(/^(\.\/)+/, '');
            var g = list.filter(function (x) { return x.path === norm; })[0];
            if (!g) return;
            engine.use(entry, g.size, g.readAt);
            results.push({entry: entry, check: JSON.parse(engine.check(m.flags | TFS_WEB_LINT))});
        });
    });
    var stats = engine.stats();
    stats.ms = performance.now() - t0;
    return {type: 'sets', results: results, stats: stats};
}

onmessage = function (ev) {
    var m = ev.data;
    try {
        if (m.type === 'init') {
            engine = tfsEngine(new WebAssembly.Module(m.wasm), random64);
            postMessage({type: 'ready'});
            return;
        }
        if (m.type === 'elems') {
            try {
                postMessage({type: 'elems', elems: JSON.parse(engine.elems(m.kv, m.start, m.n))});
            } catch (e) {
                postMessage({type: 'elems', kv: m.kv, error: String(e && e.message || e)});
            }
            return;
        }
        if (m.type === 'set') {
            postMessage(checkSet(m));
            return;
        }
        if (m.type !== 'inspect') return;
        var file = m.file;
        engine.open(m.path || file.name, file.size, readerOf(file));
        /* the files given with it (a config.json beside an MLX file) */
        engine.files((m.others || []).map(given));
        var t0 = performance.now();
        var check = JSON.parse(engine.check(m.flags | TFS_WEB_LINT)); /* with the lint findings */
        var dump = JSON.parse(engine.view(m.flags));
        /* the strict profile's answer for the security notes (duplicates,
         * padding, key syntax), unless it was the one asked for */
        var strict = m.flags & TFS_STRICT ? check : JSON.parse(engine.check(m.flags | TFS_STRICT));
        var hex = hexWindow(check, dump);
        var stats = engine.stats();
        stats.ms = performance.now() - t0;
        postMessage({type: 'result', check: check, dump: dump, strict: strict, hex: hex, stats: stats});
    } catch (e) {
        postMessage({type: 'error', message: String(e && e.message || e)});
    }
};
