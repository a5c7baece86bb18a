/* inspector.js: the page.  Starts the Web Worker (tfs-engine.js: its source
 * and tfs.wasm), sends it the dropped File, and shows what comes back:
 * verdict, security notes, header fields, hex view, metadata, tensors.
 * Everything from the file (names, keys, values) is put in the page as text
 * (textContent), never as HTML.  No network, no framework. */
'use strict';

var $ = function (id) { return document.getElementById(id); };
var worker = null;
var current = null; /* the File shown */
var ROW = 22;       /* tensor row height, px (inspector.css .trow) */
var tensors = [], shown = [], sortKey = 'i', sortDir = 1;

function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
}

function num(v) {
    if (v === null || v === undefined) return '';
    try { return BigInt(v).toLocaleString('en-US'); } catch (e) { return String(v); }
}

function status(text, cls) {
    var s = $('status');
    s.textContent = text;
    s.className = cls || '';
}

function startWorker() {
    var raw = atob(TFS_WASM_BASE64);
    var wasm = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) wasm[i] = raw.charCodeAt(i);
    worker = new Worker(URL.createObjectURL(new Blob([TFS_WORKER_SRC], {type: 'text/javascript'})));
    worker.onmessage = function (ev) {
        var m = ev.data;
        if (m.type === 'ready') {
            status('Ready: drop a file.');
            document.body.dataset.state = 'ready';
        } else if (m.type === 'result') {
            render(m);
        } else if (m.type === 'sets') {
            renderSets(m);
        } else if (m.type === 'elems') {
            renderElems(m);
        } else if (m.type === 'error') {
            status('Could not read the file: ' + m.message, 'bad');
            document.body.dataset.state = 'error';
        }
    };
    worker.onerror = function (e) { status('Worker error: ' + e.message, 'bad'); };
    worker.postMessage({type: 'init', wasm: wasm.buffer}, [wasm.buffer]);
}

function profile() {
    return Number(document.querySelector('input[name=profile]:checked').value);
}

var currentOthers = []; /* the files given with the one shown: [{path, file}] */
var currentSet = null;  /* the files of the sets shown, or null */

function inspect(file, others) {
    if (!file) return;
    current = file;
    currentOthers = others || [];
    currentSet = null;
    document.body.dataset.state = 'busy';
    status('Reading ' + file.name + ' ...');
    worker.postMessage({type: 'inspect', file: file, path: file.webkitRelativePath || file.name, flags: profile(),
                        others: currentOthers});
}

/* Several files, or a folder: one model file (with a config.json, say) is
 * inspected alone; more, or an index, are checked as `tfs check DIR` does. */
var MODEL_NAME = /\.(safetensors|gguf)$|\.safetensors\.index\.json$/i;

function inspectMany(files) {
    var list = Array.prototype.map.call(files, function (f) {
        return {path: f.webkitRelativePath || f.name, file: f};
    });
    if (list.length === 1) return inspect(list[0].file);
    var models = list.filter(function (g) { return MODEL_NAME.test(g.path); });
    if (models.length === 1) return inspect(models[0].file, list);
    if (models.length === 0) {
        status('None of these ' + list.length + ' files is a .safetensors, .gguf or index file.', 'bad');
        return;
    }
    currentSet = list;
    document.body.dataset.state = 'busy';
    status('Checking ' + list.length + ' files ...');
    worker.postMessage({type: 'set', files: list, flags: profile()});
}

function plural(n, word) { return num(n) + ' ' + word + (n === 1 ? '' : 's'); }

/* ---- sets and lone files (several files given) */
function renderSets(m) {
    $('report').hidden = true;
    $('sets').hidden = false;
    var box = $('setlist');
    box.textContent = '';
    var nsets = 0, bad = 0;
    m.results.forEach(function (x) {
        var div = el('div', null, 'entry');
        var ul = el('ul');
        if (x.set) {
            var s = x.set;
            nsets++;
            div.className = 'entry set ' + s.verdict;
            div.dataset.entry = x.entry;
            div.dataset.verdict = s.verdict;
            if (s.verdict !== 'valid') bad++;
            div.appendChild(el('h3', x.entry + ': ' + (s.verdict === 'valid' ? 'VALID' : s.verdict.toUpperCase()) +
                               (s.format ? ' ' + s.format + ' set' : '')));
            if (s.message) div.appendChild(el('p', s.message));
            if (s.files) {
                div.appendChild(el('p', num(s.n_files) + ' files, ' + num(s.n_tensors) + ' tensors, ' +
                                   num(s.tensor_bytes) + ' bytes of tensor data; ' + plural(s.errors, 'error') + ', ' +
                                   plural(s.warnings, 'warning') + ' (profile ' + s.profile + ')'));
                var fl = el('ul', null, 'files');
                s.files.forEach(function (f) {
                    fl.appendChild(el('li', f.file + ': ' + f.verdict + (f.rule ? ' ' + f.rule : '') +
                                      (f.verdict === 'valid' ? ', ' + num(f.n_tensors) + ' tensors' : ''),
                                      f.verdict === 'valid' ? '' : 'bad'));
                });
                div.appendChild(fl);
            }
            (s.findings || []).forEach(function (f) {
                var li = el('li', f.id + ' (' + f.severity + '): ' + f.message, f.severity === 'error' ? 'bad' : 'warn');
                li.dataset.id = f.id;
                ul.appendChild(li);
            });
        } else {
            var c = x.check;
            div.className = 'entry file ' + c.verdict;
            div.dataset.entry = x.entry;
            div.dataset.verdict = c.verdict;
            if (c.verdict !== 'valid') bad++;
            div.appendChild(el('h3', x.entry + ': ' + c.verdict + (c.rule ? ' ' + c.rule + ' at byte ' +
                               num(c.offset) + ': ' + c.message : '')));
            ((c.lint && c.lint.findings) || []).forEach(function (f) {
                var li = el('li', f.id + ' (' + f.severity + '): ' + f.message, f.severity === 'error' ? 'bad' : 'warn');
                li.dataset.id = f.id;
                ul.appendChild(li);
            });
            var path = x.entry.replace(/^(\.\/)+/, '');
            var g = currentSet.filter(function (y) { return y.path === path; })[0];
            if (g) {
                var b = el('button', 'inspect this file');
                b.addEventListener('click', function () { inspect(g.file, currentSet); });
                div.appendChild(b);
            }
        }
        div.appendChild(ul);
        box.appendChild(div);
    });
    $('setinfo').textContent = nsets + ' set' + (nsets === 1 ? '' : 's') + ', ' + (m.results.length - nsets) +
        ' lone file' + (m.results.length - nsets === 1 ? '' : 's') + (bad ? ', ' + bad + ' not valid' : '');
    var st = m.stats;
    $('setbytes').textContent = 'Read ' + num(st.bytesRead) + ' bytes in ' + st.reads + ' page read' +
        (st.reads === 1 ? '' : 's') + ', ' + st.ms.toFixed(1) + ' ms. Uploaded: 0 bytes.';
    status('Checked ' + currentSet.length + ' files.');
    document.body.dataset.state = 'done';
    document.body.dataset.verdict = 'sets';
}

/* ---- verdict */
function renderVerdict(c) {
    var v = $('verdict');
    v.textContent = '';
    v.className = c.verdict;
    delete v.dataset.lint;
    var word = {valid: 'VALID', parser_error: 'INVALID', not_a_model: 'NOT A MODEL FILE',
                io_error: 'I/O ERROR', internal_error: 'INTERNAL ERROR'}[c.verdict] || c.verdict;
    var h = el('h2', word + ' ');
    h.appendChild(el('small', c.file + ' \u00b7 ' + c.format + ' \u00b7 profile ' + c.profile));
    v.appendChild(h);
    var dl = el('dl');
    function row(k, val) {
        if (val === null || val === undefined) return;
        dl.appendChild(el('dt', k));
        dl.appendChild(el('dd', val));
    }
    row('rule', c.rule);
    row('category', c.category);
    row('offset', c.offset === null ? null : 'byte ' + num(c.offset));
    row('index', c.index);
    row('message', c.message);
    row('detail', c.detail);
    row('looks like', c.looks_like);
    /* the format verdict stays valid; lint errors mean a loader refuses or misreads it (as tfs check --lint) */
    if (c.lint && c.lint.errors) {
        row('lint', num(c.lint.errors) + ' error' + (c.lint.errors === 1 ? '' : 's') + ': a loader refuses or ' +
            'misreads this file (security notes)');
        v.dataset.lint = 'errors';
    }
    v.appendChild(dl);
}

/* ---- security notes for an upload gateway */
var DUPLICATE = {ST203: 1, ST403: 1, ST501: 1, ST503: 1, GG111: 1, GG203: 1};
var OFFSETS = {ST003: 1, ST301: 1, ST302: 1, ST306: 1, ST307: 1, ST308: 1, GG301: 1, GG302: 1, GG303: 1, GG304: 1,
               GG305: 1};
var ST_HEADER_CAP = 100000000; /* rule ST002: the crate's MAX_HEADER_SIZE */

function notes(c, d, s) {
    var out = [];
    function add(cls, text) { out.push([cls, text]); }
    if (c.verdict === 'not_a_model') {
        var k = c.looks_like || '';
        if (/pickle|zip/.test(k))
            add('bad', 'Looks like ' + k + '. A pickle (and a zip checkpoint holding one) can run code when it is ' +
                'loaded (torch.load without weights_only=True): reject it, or convert it to safetensors in a sandbox.');
        else if (/LFS/.test(k))
            add('warn', 'A Git LFS pointer: a few lines of text naming the real file, which was not downloaded ' +
                '(git lfs pull). It holds no weights.');
        else if (/HTML/.test(k))
            add('warn', 'An HTML page saved under a model name: usually a login or error page from the download. ' +
                'It holds no weights.');
        else add('warn', 'Not a safetensors or GGUF file: it looks like ' + k + '.');
        return out;
    }
    if (c.format === 'unknown') return out;
    add('ok', c.format === 'safetensors'
        ? 'No code in the format: an 8-byte length, a JSON header, raw tensor bytes. Nothing in it is executed ' +
          'when loaded (unlike a pickle checkpoint).'
        : 'No code in the format: typed key/value pairs, tensor infos, raw tensor bytes. Nothing in it is ' +
          'executed when loaded (unlike a pickle checkpoint); chat templates in the metadata are text that ' +
          'some runtimes render (Jinja): review them like any template.');
    var hsize = c.header_size !== null ? c.header_size : null;
    if (c.rule === 'ST002')
        add('bad', 'Header size field over the cap of ' + num(ST_HEADER_CAP) + ' bytes (' + c.message +
            '): a reader that allocates it first is asked for that much memory.');
    else if (c.format === 'safetensors' && hsize !== null)
        add('ok', 'Header: ' + num(hsize) + ' bytes of JSON, ' + (100 * hsize / ST_HEADER_CAP).toFixed(4) +
            ' % of the ' + num(ST_HEADER_CAP) + '-byte cap.');
    else if (hsize !== null)
        add('ok', 'Header: ' + num(hsize) + ' bytes before the data section (' + num(c.n_kv) + ' KV pairs, ' +
            num(c.n_tensors) + ' tensor infos). A gateway may cap this.');
    if (c.rule && DUPLICATE[c.rule]) add('bad', 'Duplicates: ' + c.rule + ' ' + c.message + '. Readers disagree ' +
        'on which one wins, so a scanner and a loader may see different content.');
    else if (s.rule && DUPLICATE[s.rule]) add('bad', 'Duplicates (strict profile): ' + s.rule + ' ' + s.message +
        '. The canonical reader accepts it, keeping one of them: a scanner and a loader may disagree.');
    else if (s.verdict === 'valid') add('ok', 'No duplicate tensor names or metadata keys (strict profile).');
    else if (s.verdict === 'parser_error' && s.rule !== c.rule)
        add('warn', 'The strict profile stopped at ' + s.rule + ' (' + s.message + ') before it could rule out ' +
            'duplicates.');
    if (c.rule && OFFSETS[c.rule]) add('bad', 'Tensor data offsets: ' + c.rule + ' ' + c.message + '. Overlapping ' +
        'or out-of-file ranges let two tensors share bytes or point past the end of the file.');
    else if (c.verdict === 'valid') {
        if (c.format === 'gguf' && /header-only/.test(c.profile))
            add('warn', 'Header-only profile: tensor data ranges were not checked against the file size.');
        else add('ok', 'Tensor data offsets: packed in order, no overlap, inside the file (data ends ' +
            num(c.data_extent) + ' bytes after byte ' + num(c.data_offset) + '; the file has ' + num(c.file_size) +
            ' bytes).');
    }
    /* LT113: bytes after the data section (padded) that no tensor owns: ggml and llama.cpp never read them,
     * so a payload can ride there; red from 1 MiB on or above 1 % of the file */
    if (c.verdict === 'valid' && c.unowned_bytes) {
        var u = Number(c.unowned_bytes), large = u >= 1048576 || u * 100 >= Number(c.file_size);
        add(large ? 'bad' : 'warn', 'Bytes no tensor owns: ' + num(c.unowned_bytes) + ' bytes after the data ' +
            'section (LT113). Every reader accepts the file and never reads them, so anything can hide there: ' +
            'strip them (or reject the file) before passing it on.');
    }
    /* lint (docs/lint.md): a valid container that a loader refuses or misreads (error), or that is unusual */
    if (c.lint && c.lint.findings) c.lint.findings.forEach(function (f) {
        if (f.id === 'LT113') return; /* said above, with its byte count */
        add(f.severity === 'error' ? 'bad' : 'warn', 'Lint ' + f.id + ' (' + f.severity + '): ' + f.message);
    });
    if (c.verdict === 'valid' && s.verdict === 'parser_error' && !DUPLICATE[s.rule])
        add('warn', 'The strict profile rejects it: ' + s.rule + ' (' + s.message + '). The canonical readers ' +
            'accept this case; other readers may not.');
    if (c.verdict === 'parser_error' && !DUPLICATE[c.rule] && !OFFSETS[c.rule] && c.rule !== 'ST002')
        add('bad', 'Rejected by the canonical reader\u2019s rules: ' + c.rule + ' (' + c.category + '). A loader ' +
            'that is less strict may still open it: do not pass it on.');
    return out;
}

function renderNotes(c, d, s) {
    var ul = $('notes');
    ul.textContent = '';
    notes(c, d, s).forEach(function (n) { ul.appendChild(el('li', n[1], n[0])); });
}

/* ---- header fields */
function renderFields(c, d) {
    var t = $('fields');
    t.textContent = '';
    function row(k, v) {
        if (v === null || v === undefined) return;
        var tr = el('tr');
        tr.appendChild(el('th', k));
        tr.appendChild(el('td', v));
        t.appendChild(tr);
    }
    /* what the file is, first (as gguf-dump and the Hub's viewer show it) */
    (d.kv || []).forEach(function (kv) {
        if ((kv.key === 'general.architecture' || kv.key === 'general.name') && typeof kv.value === 'string')
            row(kv.key === 'general.architecture' ? 'architecture' : 'name', kv.value);
    });
    row('format', d.format);
    row('version', d.version);
    row('alignment', d.alignment);
    row('complete', d.complete ? 'yes' : 'no: what was read before the violation');
    row('tensors', num(c.n_tensors !== null ? c.n_tensors : d.tensors.length));
    row('metadata entries', num(c.n_kv !== null ? c.n_kv : d.kv.length));
    row('header size', c.header_size === null ? null : num(c.header_size) + ' bytes');
    row('data offset', c.data_offset === null ? null : 'byte ' + num(c.data_offset));
    row('data size', c.data_size === null ? null : num(c.data_size) + ' bytes');
    row('file size', num(current.size) + ' bytes');
    row('parameters', c.params === null ? null : num(c.params));
    if (c.types) row('types', Object.keys(c.types).map(function (k) { return k + ' \u00d7 ' + c.types[k]; }).join(', '));
}

/* ---- hex view around the failing byte */
function renderHex(hex, d) {
    var pre = $('hex');
    pre.textContent = '';
    var fields = (d.error && d.error.fields) || [];
    function inField(off) {
        for (var i = 0; i < fields.length; i++)
            if (off >= fields[i].offset && off < fields[i].offset + fields[i].width) return true;
        return false;
    }
    $('hexinfo').textContent = hex.focus >= 0 ? 'around byte ' + num(hex.focus) + ' (marked)' : 'first bytes';
    for (var line = 0; line < hex.bytes.length; line += 16) {
        var off = hex.start + line;
        pre.appendChild(document.createTextNode(off.toString(16).padStart(10, '0') + '  '));
        var ascii = '';
        for (var i = 0; i < 16; i++) {
            var at = off + i;
            if (line + i >= hex.bytes.length) {
                pre.appendChild(document.createTextNode('   '));
                continue;
            }
            var b = hex.bytes[line + i];
            var cls = at === hex.focus ? 'focus' : inField(at) ? 'field' : '';
            var span = el('span', b.toString(16).padStart(2, '0'), cls);
            pre.appendChild(span);
            pre.appendChild(document.createTextNode(' '));
            ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
        }
        pre.appendChild(document.createTextNode(' ' + ascii + '\n'));
    }
}

/* ---- metadata: each value is the text `tfs dump` prints for it, made by
 * tfs.wasm (the page formats no value itself); an array comes as its count
 * and first elements, and more are read from the file on request */
var FIRST_ELEMS = 8;   /* elements in the text of an array (tfs dump: DUMP_ELEMS_SHORT) */
var MORE_ELEMS = 100;  /* elements asked for per click */
var elemBoxes = {};    /* KV index -> {list, button, next, count} */

function renderKv(d) {
    var t = $('kv');
    t.textContent = '';
    elemBoxes = {};
    $('kvcount').textContent = d.kv.length + (d.complete ? '' : ' read before the violation');
    var tr = el('tr');
    ['key', 'type', 'value'].forEach(function (h) { tr.appendChild(el('th', h)); });
    t.appendChild(tr);
    d.kv.forEach(function (kv, k) {
        var r = el('tr');
        r.appendChild(el('td', kv.key !== undefined ? kv.key
            : kv.key_prefix + '\u2026 (key of ' + kv.key_size + ' bytes)'));
        r.appendChild(el('td', kv.type === 'array' ? 'array of ' + kv.elem_type : kv.type));
        var td = el('td', null, 'value');
        td.appendChild(el('div', kv.text === undefined ? '(not read)' : kv.text));
        if (kv.type === 'array')
            td.appendChild(el('div', num(kv.count) + ' elements, ' + num(kv.bytes) + ' bytes at byte ' +
                              num(kv.offset), 'where'));
        if (kv.type === 'array' && kv.count > FIRST_ELEMS) {
            var box = {list: el('ol', null, 'elems'), button: el('button', null, 'more'), next: FIRST_ELEMS,
                       count: kv.count};
            box.list.start = FIRST_ELEMS;
            box.list.hidden = true;
            box.button.dataset.kv = k;
            moreLabel(box);
            box.button.addEventListener('click', function () { moreElems(k); });
            td.appendChild(box.list);
            td.appendChild(box.button);
            elemBoxes[k] = box;
        }
        r.appendChild(td);
        t.appendChild(r);
    });
}

function moreLabel(box) {
    var last = Math.min(box.count, box.next + MORE_ELEMS) - 1;
    box.button.textContent = 'show elements ' + num(box.next) + ' to ' + num(last) + ' of ' + num(box.count);
    box.button.hidden = box.next >= box.count;
}

function moreElems(k) {
    var box = elemBoxes[k];
    if (!box || box.busy) return;
    box.busy = true;
    box.button.disabled = true;
    worker.postMessage({type: 'elems', kv: k, start: box.next, n: MORE_ELEMS});
}

/* elements from the worker: one <li> each, numbered from their index */
function renderElems(m) {
    var e = m.elems, box = elemBoxes[e ? e.kv : m.kv];
    if (!box) return;
    box.busy = false;
    box.button.disabled = false;
    if (m.error) {
        box.button.textContent = 'could not read more: ' + m.error;
        return;
    }
    if (e.start !== box.next) return; /* a reply to an older request */
    e.items.forEach(function (text) { box.list.appendChild(el('li', text)); });
    box.list.hidden = false;
    box.next += e.items.length;
    if (e.items.length === 0) box.next = box.count;
    moreLabel(box);
    document.body.dataset.elems = String(box.next);
}

/* ---- tensors: sortable, filterable, virtualised (only the rows in view
 * are in the DOM, so 100k+ tensors scroll smoothly) */
function big(v) { return BigInt(v); }

function renderTensors(d) {
    /* a file with no tensors: say so instead of an empty box */
    $('tensors').hidden = d.tensors.length === 0;
    $('notensors').hidden = d.tensors.length !== 0;
    tensors = d.tensors.map(function (t, i) {
        var n = t.shape.reduce(function (a, x) { return a * big(x); }, 1n);
        var begin = big(t.offsets[0]), end = big(t.offsets[1]);
        return {i: i, name: t.name, type: t.type, shape: '[' + t.shape.join(', ') + ']', dims: t.shape.length,
                n: n, begin: begin, size: end - begin};
    });
    $('filter').value = '';
    applyView();
}

function compare(a, b) {
    var x = a[sortKey], y = b[sortKey];
    if (sortKey === 'shape') { x = a.n; y = b.n; }
    var r = x < y ? -1 : x > y ? 1 : a.i - b.i;
    return r * sortDir;
}

function applyView() {
    var f = $('filter').value.toLowerCase();
    shown = f ? tensors.filter(function (t) {
        return t.name.toLowerCase().indexOf(f) >= 0 || t.type.toLowerCase() === f;
    }) : tensors.slice();
    shown.sort(compare);
    $('tcount').textContent = shown.length === tensors.length ? num(tensors.length)
        : num(shown.length) + ' of ' + num(tensors.length);
    document.querySelectorAll('#thead span').forEach(function (s) {
        s.className = s.dataset.key === sortKey ? (sortDir > 0 ? 'up' : 'down') : '';
    });
    $('tspace').style.height = shown.length * ROW + 'px';
    $('tview').scrollTop = 0;
    drawRows();
}

function drawRows() {
    var view = $('tview'), space = $('tspace');
    var first = Math.max(0, Math.floor(view.scrollTop / ROW) - 5);
    var last = Math.min(shown.length, Math.ceil((view.scrollTop + view.clientHeight) / ROW) + 5);
    space.textContent = '';
    for (var k = first; k < last; k++) {
        var t = shown[k];
        var r = el('div', null, 'trow');
        r.style.top = k * ROW + 'px';
        [t.i, t.name, t.type, t.shape, num(t.n), num(t.begin), num(t.size)].forEach(function (v) {
            var c = el('span', v);
            c.title = String(v);
            r.appendChild(c);
        });
        space.appendChild(r);
    }
}

/* ---- one result */
function render(m) {
    var c = m.check, d = m.dump;
    $('sets').hidden = true;
    $('report').hidden = false;
    renderVerdict(c);
    var st = m.stats;
    var b = $('bytes');
    b.textContent = 'Read ' + num(st.bytesRead) + ' of ' + num(current.size) + ' bytes (' +
        (current.size ? (100 * st.bytesRead / current.size).toPrecision(3) : '0') + ' %) in ' + st.reads +
        ' page read' + (st.reads === 1 ? '' : 's') + ', ' + st.ms.toFixed(1) + ' ms. Uploaded: 0 bytes.';
    b.dataset.bytesRead = st.bytesRead;
    b.dataset.ms = st.ms.toFixed(3);
    renderNotes(c, d, m.strict);
    renderFields(c, d);
    renderHex(m.hex, d);
    renderKv(d);
    renderTensors(d);
    status('Inspected ' + current.name + '.');
    document.body.dataset.state = 'done';
    document.body.dataset.verdict = c.verdict;
}

/* ---- wiring */
function wire() {
    var drop = $('drop');
    ['dragenter', 'dragover'].forEach(function (t) {
        document.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add('over'); });
    });
    ['dragleave', 'drop'].forEach(function (t) {
        document.addEventListener(t, function (e) { e.preventDefault(); drop.classList.remove('over'); });
    });
    document.addEventListener('drop', function (e) {
        if (e.dataTransfer && e.dataTransfer.files.length) inspectMany(e.dataTransfer.files);
    });
    $('pick').addEventListener('change', function (e) { if (e.target.files.length) inspectMany(e.target.files); });
    $('pickdir').addEventListener('change', function (e) { if (e.target.files.length) inspectMany(e.target.files); });
    document.querySelectorAll('input[name=profile]').forEach(function (r) {
        r.addEventListener('change', function () {
            if (currentSet) inspectMany(currentSet.map(function (g) { return g.file; }));
            else inspect(current, currentOthers);
        });
    });
    $('filter').addEventListener('input', applyView);
    $('tview').addEventListener('scroll', drawRows);
    document.querySelectorAll('#thead span').forEach(function (s) {
        s.addEventListener('click', function () {
            if (sortKey === s.dataset.key) sortDir = -sortDir;
            else { sortKey = s.dataset.key; sortDir = 1; }
            applyView();
        });
    });
}

wire();
startWorker();
