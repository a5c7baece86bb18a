/* worker.js: the inspector's Web Worker (appended to engine.js by
 * web/bundle.py and started from a Blob).  It owns the wasm instance and
 * reads the dropped File with File.slice() through FileReaderSync, one
 * 64 KiB page at a time: nothing leaves the machine, and only the pages the
 * parser asks for are read.
 *
 * messages in:  {type: 'init', wasm: ArrayBuffer}
 *               {type: 'inspect', file: File, flags: 0 | 1 | 2}
 *               {type: 'elems', kv, start, n}: more elements of an array
 *                 of the file inspected last
 * messages out: {type: 'ready'}
 *               {type: 'result', check, dump, strict, hex, stats}
 *                 (dump: tfs_web_view's JSON: arrays by count and their
 *                 first elements, every value as `tfs dump` prints it)
 *               {type: 'elems', elems: {kv, start, count, items}}
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
        if (m.type !== 'inspect') return;
        var file = m.file;
        var reader = new FileReaderSync();
        engine.open(file.name, file.size, function (off, len) {
            return new Uint8Array(reader.readAsArrayBuffer(file.slice(off, off + len)));
        });
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
