/* engine.js: libtfs (tfs.wasm, built from web/wasm/tfs_web.c) behind a
 * page cache.  Shared by the Web Worker (worker.js, reading File.slice
 * through FileReaderSync) and the node tests (tests/web/).  No DOM, no
 * network, plain script (a global in a worker, module.exports in node).
 *
 *   const eng = tfsEngine(wasmModule, random64);
 *   eng.open(name, size, readAt);   // readAt(offset, len) -> Uint8Array
 *   eng.check(flags) / eng.dump(flags) -> the JSON text (a string)
 *   eng.view(flags)                 -> the page's JSON (tfs_web_view: each
 *                                      value as `tfs dump` prints it, arrays
 *                                      by count and first elements)
 *   eng.elems(k, start, n)          -> JSON of elements start.. of the k-th
 *                                      KV of the last view (tfs_web_elems)
 *   eng.bytes(offset, len)          -> Uint8Array (hex view)
 *   eng.stats()                     -> {bytesRead, reads, hostCalls, ms}
 *   eng.files(list)                 // the files the user gave together:
 *                                   // [{path, size, readAt}], path relative
 *                                   // ("config.json", "model/x.gguf")
 *   eng.entries(dir) -> JSON: the set entries and lone model files of a
 *                       folder of those files ("." for files dropped)
 *   eng.set(path, flags) -> JSON: `tfs check --json --lint` of a set entry
 *   eng.use(name, size, readAt)     // as open, the counts going on
 *   (a single file's check also reads the config.json beside it from them)
 *
 * Units: bytes; offsets are JS numbers (exact up to 2^53, 8 PiB).
 * flags: TFS_STRICT = 1, TFS_HEADER_ONLY = 2 (tfs/tfs.h); check also
 * TFS_WEB_LINT = 256 (the lint findings of a valid file, as --lint). */
'use strict';

var TFS_STRICT = 1;
var TFS_HEADER_ONLY = 2;
var TFS_WEB_LINT = 256;

function tfsEngine(wasmModule, random64) {
    var PAGE = 65536;      /* bytes per read from the file */
    var MAX_PAGES = 256;   /* 16 MiB of pages kept (least recently used dropped) */
    var file = null;       /* {name, size, readAt} */
    var pages = new Map(); /* page index -> Uint8Array, in use order */
    var st = {bytesRead: 0, reads: 0, hostCalls: 0, wasiCalls: 0, ms: 0};
    var mem = null;

    function page(i) {
        var p = pages.get(i);
        if (p) {
            pages.delete(i);
            pages.set(i, p);
            return p;
        }
        var off = i * PAGE;
        var len = Math.min(PAGE, file.size - off);
        p = len > 0 ? file.readAt(off, len) : new Uint8Array(0);
        st.bytesRead += p.length;
        st.reads++;
        pages.set(i, p);
        if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value);
        return p;
    }

    /* Copy [off, off + len) of the file into dst (a Uint8Array); returns
     * the bytes copied (fewer at the end of the file). */
    function copy(off, dst, len) {
        var n = 0;
        while (n < len && off + n < file.size) {
            var at = off + n;
            var p = page(Math.floor(at / PAGE));
            var k = at % PAGE;
            var take = Math.min(len - n, p.length - k);
            if (take <= 0) break;
            dst.set(p.subarray(k, k + take), n);
            n += take;
        }
        return n;
    }

    /* A WASI call: the module links none on purpose (no file, clock or
     * console); answering ENOSYS keeps an unexpected one harmless, and the
     * tests assert that none happened. */
    function wasi() {
        st.wasiCalls++;
        return 52; /* ENOSYS */
    }

    var given = [];        /* eng.files: [{path, size, readAt}] */
    var ENOENT = 44;       /* WASI's numbering */

    /* "./a/./b" -> "a/b": the C side joins a folder and a name */
    function norm(p) {
        return p.split('/').filter(function (c) { return c !== '.' && c !== ''; }).join('/');
    }

    function text(ptr, len) { return new TextDecoder().decode(new Uint8Array(mem.buffer, ptr >>> 0, len >>> 0)); }

    /* reads of the given files, through the same page cache (keyed by file) */
    function givenCopy(id, off, dst, len) {
        var g = given[id], n = 0;
        while (n < len && off + n < g.size) {
            var at = off + n, i = Math.floor(at / PAGE), key = 'f' + id + ':' + i;
            var p = pages.get(key);
            if (!p) {
                var o = i * PAGE;
                p = g.readAt(o, Math.min(PAGE, g.size - o));
                st.bytesRead += p.length;
                st.reads++;
                pages.set(key, p);
                if (pages.size > MAX_PAGES) pages.delete(pages.keys().next().value);
            }
            var k = at % PAGE, take = Math.min(len - n, p.length - k);
            if (take <= 0) break;
            dst.set(p.subarray(k, k + take), n);
            n += take;
        }
        return n;
    }

    var imports = {
        env: {
            tfs_web_file_open: function (path, len, sizePtr) {
                st.hostCalls++;
                var p = norm(text(path, len));
                for (var i = 0; i < given.length; i++) {
                    if (norm(given[i].path) !== p) continue;
                    new DataView(mem.buffer).setBigUint64(sizePtr >>> 0, BigInt(given[i].size), true);
                    return i;
                }
                return -ENOENT;
            },
            tfs_web_file_read: function (id, offset, buf, len) {
                st.hostCalls++;
                try {
                    return givenCopy(id, Number(offset), new Uint8Array(mem.buffer, buf >>> 0, len >>> 0), len >>> 0);
                } catch (e) {
                    return -1;
                }
            },
            tfs_web_file_list: function (dir, len, i, buf, cap) {
                var d = norm(text(dir, len)), names = [];
                given.forEach(function (g) {
                    var p = norm(g.path), slash = p.lastIndexOf('/');
                    if ((slash < 0 ? '' : p.slice(0, slash)) === d) names.push(p.slice(slash + 1));
                });
                if (i >= names.length) return -1;
                var b = new TextEncoder().encode(names[i]);
                if (b.length <= cap) new Uint8Array(mem.buffer, buf >>> 0, b.length).set(b);
                return b.length;
            },
            tfs_web_read: function (offset, buf, len) {
                st.hostCalls++;
                try {
                    return copy(Number(offset), new Uint8Array(mem.buffer, buf >>> 0, len >>> 0), len >>> 0);
                } catch (e) {
                    return -1;
                }
            }
        },
        wasi_snapshot_preview1: {fd_close: wasi, fd_fdstat_get: wasi, fd_seek: wasi, fd_write: wasi}
    };
    var inst = new WebAssembly.Instance(wasmModule, imports);
    var x = inst.exports;
    mem = x.memory;
    x._initialize();
    var r = random64();
    x.tfs_web_seed(r[0] >>> 0, r[1] >>> 0);

    function cstring(s) {
        var b = new TextEncoder().encode(s);
        var p = x.tfs_web_alloc(b.length + 1);
        var v = new Uint8Array(mem.buffer, p, b.length + 1);
        v.set(b);
        v[b.length] = 0;
        return p;
    }

    function run(fn, flags) {
        var t0 = Date.now();
        var name = cstring(file.name);
        try {
            var p = fn(name, BigInt(file.size), flags);
            if (!p) throw new Error('tfs.wasm: out of memory');
            return new TextDecoder().decode(new Uint8Array(mem.buffer, p, x.tfs_web_result_len()));
        } finally {
            x.tfs_web_free(name);
            st.ms += Date.now() - t0;
        }
    }

    /* a call with string arguments (C strings, freed after) */
    function call(fn, args) {
        var t0 = Date.now(), ptrs = [];
        try {
            var p = fn.apply(null, args.map(function (a) {
                if (typeof a !== 'string') return a;
                var q = cstring(a);
                ptrs.push(q);
                return q;
            }));
            if (!p) throw new Error('tfs.wasm: out of memory');
            return new TextDecoder().decode(new Uint8Array(mem.buffer, p, x.tfs_web_result_len()));
        } finally {
            ptrs.forEach(function (q) { x.tfs_web_free(q); });
            st.ms += Date.now() - t0;
        }
    }

    function elems(k, start, n) {
        var t0 = Date.now();
        try {
            var p = x.tfs_web_elems(k >>> 0, BigInt(start), n >>> 0);
            if (!p) throw new Error('tfs.wasm: no KV ' + k + ' in the file viewed (or out of memory)');
            return new TextDecoder().decode(new Uint8Array(mem.buffer, p, x.tfs_web_result_len()));
        } finally {
            st.ms += Date.now() - t0;
        }
    }

    return {
        open: function (name, size, readAt) {
            file = {name: name, size: size, readAt: readAt};
            pages.clear();
            st = {bytesRead: 0, reads: 0, hostCalls: 0, wasiCalls: 0, ms: 0};
        },
        check: function (flags) { return run(x.tfs_web_check, flags); },
        dump: function (flags) { return run(x.tfs_web_dump, flags); },
        view: function (flags) { return run(x.tfs_web_view, flags); },
        elems: elems,
        files: function (list) {
            given = list.slice();
            pages.clear();
        },
        /* another file of those given becomes the one checked; the counts go on */
        use: function (name, size, readAt) {
            file = {name: name, size: size, readAt: readAt};
            pages.clear();
        },
        entries: function (dir) { return call(x.tfs_web_entries, [dir]); },
        set: function (path, flags) { return call(x.tfs_web_set, [path, flags >>> 0]); },
        bytes: function (off, len) {
            var n = Math.max(0, Math.min(len, file.size - off));
            var out = new Uint8Array(n);
            copy(off, out, n);
            return out;
        },
        stats: function () {
            return {bytesRead: st.bytesRead, reads: st.reads, hostCalls: st.hostCalls, wasiCalls: st.wasiCalls,
                    ms: st.ms};
        }
    };
}

if (typeof module !== 'undefined') module.exports = {tfsEngine: tfsEngine, TFS_STRICT: TFS_STRICT,
                                                      TFS_HEADER_ONLY: TFS_HEADER_ONLY, TFS_WEB_LINT: TFS_WEB_LINT};
