#!/usr/bin/python3
"""test_dump_real.py TFS SOURCE_DIR [--shard K/N]: `tfs dump --json` round-trips: every KV
of every GGUF file and the __metadata__ of every safetensors file, read
through libtfs's accessors (`tfs dump --json` prints values only through
tfs_kv_get_*), must match an independent decoding of the file's bytes with
Python's struct and json modules (ggml type names and sizes from the
independent table of tests/corpus/indep_decode.py, written from the spec and
checked against ggml by test_ggml_type_table; nothing from include/tfs/*.def).  Also the tensors (name, type, shape, offsets), format, "complete"
and "error", and for GGUF version and alignment.
Files: corpus/real, ../shared/real when present, and every fixture of
corpus/*/MANIFEST.tsv that tfs dump accepts (every fixture a manifest calls
valid must be among them).
--shard K/N: only the files i (0-based, in that order) with i % N == K - 1
(ctest test_dump_real_KofN: one tfs process per file, so the run is split).
Prints one line per mismatch and "N passed, N failed"; exit 1 on any failure.
"""
import csv
import glob
import json
import math
import os
import struct
import subprocess
import sys

VT = {0: ('u8', '<B'), 1: ('i8', '<b'), 2: ('u16', '<H'), 3: ('i16', '<h'), 4: ('u32', '<I'),
      5: ('i32', '<i'), 6: ('f32', '<f'), 7: ('bool', '<B'), 10: ('u64', '<Q'), 11: ('i64', '<q'),
      12: ('f64', '<d')}
NAMES = {**{k: v[0] for k, v in VT.items()}, 8: 'string', 9: 'array'}


def text(b):
    """What a JSON string of the CLI holds for these bytes (valid UTF-8 only:
    invalid bytes are replaced and not compared exactly)."""
    try:
        return b.decode('utf-8')
    except UnicodeDecodeError:
        return None


def scalar(vt, raw):
    fmt = VT[vt][1]
    v = struct.unpack(fmt, raw)[0]
    if vt in (10, 11):
        return str(v), None
    if vt == 7:
        return v != 0, None
    if vt in (6, 12):
        bits = ('0x%08x' % struct.unpack('<I', raw)[0]) if vt == 6 else ('0x%016x' % struct.unpack('<Q', raw)[0])
        return (None if math.isnan(v) or math.isinf(v) else v), bits
    return v, None


def gg_types(src):
    """ggml type id -> (name, block size, type size): the independent table
    of tests/corpus/indep_decode.py (not include/tfs/gg_types.def)."""
    sys.path.insert(0, os.path.join(src, 'tests', 'corpus'))
    import indep_decode
    return dict(indep_decode.GGML_TYPES)


def gguf_kvs(data, types=None):
    """Independent decoding of a GGUF header's KV pairs (and, given the type
    table, its tensor infos: (name, type name, shape, [begin, end]))."""
    off = 4
    version, = struct.unpack_from('<I', data, off)
    off += 4
    n_tensors, n_kv = struct.unpack_from('<QQ', data, off)
    off += 16

    def string():
        nonlocal off
        n, = struct.unpack_from('<Q', data, off)
        s = data[off + 8: off + 8 + n]
        off += 8 + n
        return s

    kvs = []
    for _ in range(n_kv):
        key = string()
        vt, = struct.unpack_from('<I', data, off)
        off += 4
        if vt == 9:
            et, count = struct.unpack_from('<IQ', data, off)
            off += 12
            vals, bits = [], []
            for _ in range(count):
                if et == 8:
                    vals.append(text(string()))
                else:
                    size = struct.calcsize(VT[et][1])
                    v, b = scalar(et, data[off: off + size])
                    off += size
                    vals.append(v)
                    bits.append(b)
            kvs.append((key, 'array', NAMES[et], vals, bits if et in (6, 12) else None))
        elif vt == 8:
            kvs.append((key, 'string', None, text(string()), None))
        else:
            size = struct.calcsize(VT[vt][1])
            v, b = scalar(vt, data[off: off + size])
            off += size
            kvs.append((key, NAMES[vt], None, v, b))
    if types is None:
        return version, kvs
    tensors = []
    for _ in range(n_tensors):
        name = string()
        n_dims, = struct.unpack_from('<I', data, off)
        off += 4
        ne = list(struct.unpack_from('<%dq' % n_dims, data, off))
        off += 8 * n_dims
        gtype, offset = struct.unpack_from('<IQ', data, off)
        off += 12
        tname, block, tsize = types[gtype]
        full = ne or [1]  # n_dims 0: one element
        nbytes = full[0] // block * tsize
        for d in full[1:]:
            nbytes *= d
        tensors.append((text(name), tname, ne, [offset, offset + nbytes]))
    # ggml's lookup: the first key equal to general.alignment as a C string
    # (the bytes before a NUL); a valid file has u32 there
    align = 32
    for key, vt, _, val, _ in kvs:
        if key.split(b'\0', 1)[0] == b'general.alignment':
            if vt == 'u32':
                align = val
            break
    return version, kvs, tensors, align


def big(nums):
    """Shape dims and offsets as dump prints them: JSON numbers up to 2^53 - 1
    (what a double keeps exactly), decimal strings above; as Python ints."""
    out = []
    for x in nums:
        if isinstance(x, str):
            out.append(int(x) if x.isdigit() and int(x) > 2**53 - 1 else ('bad string', x))
        else:
            out.append(x if x <= 2**53 - 1 else ('number above 2^53 - 1', x))
    return out


def same_float(a, b):
    return a == b or (a is not None and b is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b)))


def check_gguf(path, got, fail, types):
    data = open(path, 'rb').read()
    version, kvs, tensors, align = gguf_kvs(data, types)
    if got['version'] != version:
        fail('version %r != %r' % (got['version'], version))
    if got['alignment'] != align:
        fail('alignment %r != %r' % (got['alignment'], align))
    gt = [(t['name'], t['type'], big(t['shape']), big(t['offsets'])) for t in got['tensors']]
    # a name that is not UTF-8 (None here) is not compared
    want = [t if t[0] is not None else (g[0],) + t[1:] for t, g in zip(tensors, gt)]
    if gt != want or len(gt) != len(tensors):
        fail('tensors differ: %r... want %r...' % (gt[:2], tensors[:2]))
    if len(got['kv']) != len(kvs):
        return fail('%d KVs, want %d' % (len(got['kv']), len(kvs)))
    for g, (key, vt, et, val, bits) in zip(got['kv'], kvs):
        k = text(key)
        if 'key' not in g and k is not None:  # a key past TFS_KEY_KEEP: its length and first bytes
            if g.get('key_size') != len(key) or not k.startswith(g.get('key_prefix', '')[:1000]):
                fail('long key: size %r, want %d' % (g.get('key_size'), len(key)))
            k = k[:20] + '...'
        elif k is not None and g['key'] != k:
            fail('key %r != %r' % (g['key'], k))
        if g['type'] != vt or g.get('elem_type') != et:
            fail('%s: type %s/%s, want %s/%s' % (k, g['type'], g.get('elem_type'), vt, et))
            continue
        gv = g['value']
        if vt == 'array':
            if len(gv) != len(val):
                fail('%s: %d elements, want %d' % (k, len(gv), len(val)))
                continue
            if bits is not None:
                ok = g.get('bits') == bits and all(same_float(a, b) for a, b in zip(gv, val))
            else:
                ok = all(b is None or a == b for a, b in zip(gv, val))
            if not ok:
                fail('%s: array values differ' % k)
        elif bits is not None:
            if g.get('bits') != bits or not same_float(gv, val):
                fail('%s: %r/%r, want %r/%r' % (k, gv, g.get('bits'), val, bits))
        elif val is not None and gv != val:
            fail('%s: %r, want %r' % (k, gv, val))


def check_st(path, got, fail, types=None):
    data = open(path, 'rb').read()
    n, = struct.unpack_from('<Q', data, 0)
    hdr = json.loads(data[8: 8 + n].decode('utf-8'))
    meta = hdr.pop('__metadata__', None) or {}
    kv = [(k, v) for k, v in meta.items()]
    gk = [(g['key'], g['value']) for g in got['kv']]
    if gk != kv or any(g['type'] != 'string' for g in got['kv']):
        fail('__metadata__ %r, want %r' % (gk[:3], kv[:3]))
    tensors = []
    for k, v in hdr.items():
        # serde also reads a struct from a sequence (["F32", [2], [0, 8]]) and
        # a unit enum variant from a one-key map ({"F32": null})
        dtype, shape, offs = (v['dtype'], v['shape'], v['data_offsets']) if isinstance(v, dict) else v
        if isinstance(dtype, dict):
            dtype, = dtype.keys()
        tensors.append((k, dtype, shape, offs))
    gt = [(t['name'], t['type'], big(t['shape']), big(t['offsets'])) for t in got['tensors']]
    if gt != tensors:
        fail('tensors differ: %r... want %r...' % (gt[:2], tensors[:2]))


def fixtures(src):
    """Every fixture file of corpus/*/MANIFEST.tsv, and the set of those whose
    default-mode row says valid."""
    files, valid = set(), set()
    for man in glob.glob(os.path.join(src, 'corpus', '*', 'MANIFEST.tsv')):
        if os.path.basename(os.path.dirname(man)) == 'real':
            continue
        with open(man, encoding='utf-8') as f:
            for m in csv.DictReader(f, delimiter='\t'):
                p = os.path.join(os.path.dirname(man), m['path'])
                files.add(p)
                if m['mode'] == 'default' and m['expect'] == 'valid':
                    valid.add(p)
    return sorted(files), valid


def main():
    args = sys.argv[1:]
    k, n = 1, 1
    if '--shard' in args:
        i = args.index('--shard')
        k, n = (int(x) for x in args[i + 1].split('/'))
        del args[i:i + 2]
    tfs, src = args[0], args[1]
    types = gg_types(src)
    files = sorted(glob.glob(os.path.join(src, 'corpus/real/*/*')))
    shared = os.path.join(src, '..', 'shared', 'real')
    if os.path.isdir(shared):
        files += sorted(glob.glob(os.path.join(shared, 'gguf', '*.gguf')) +
                        glob.glob(os.path.join(shared, 'safetensors', '*.safetensors')))
    fix, must_pass = fixtures(src)
    files = [f for i, f in enumerate(files + fix) if i % n == k - 1]
    must_pass &= set(files)
    passed = failed = skipped = 0
    n_fix = 0
    for path in files:
        if not path.endswith(('.gguf', '.safetensors')):
            continue
        r = subprocess.run([tfs, 'dump', '--json', path], capture_output=True)
        errs = []
        fail = errs.append
        if r.returncode == 1 and path not in must_pass:  # an invalid file: no content to compare
            skipped += 1
            continue
        if r.returncode != 0:
            fail('tfs dump exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')[:200]))
        else:
            try:
                got = json.loads(r.stdout)
                if got['complete'] is not True or got['error'] is not None:
                    fail('complete %r, error %r' % (got['complete'], got['error']))
                if got['format'] != ('gguf' if path.endswith('.gguf') else 'safetensors'):
                    fail('format %r' % got['format'])
                (check_gguf if path.endswith('.gguf') else check_st)(path, got, fail, types)
            except Exception as e:  # the independent decoder could not read what tfs accepted
                fail('%s: %s' % (type(e).__name__, e))
            n_fix += path in fix
        if errs:
            failed += 1
            for e in errs[:5]:
                print('FAIL %s: %s' % (os.path.relpath(path, src), e))
        else:
            passed += 1
    print('%d passed (%d of them fixtures), %d failed (%d invalid files skipped)' % (passed, n_fix, failed, skipped))
    return 1 if failed or passed == 0 or n_fix < len(must_pass) else 0


if __name__ == '__main__':
    sys.exit(main())
