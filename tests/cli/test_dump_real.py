#!/usr/bin/python3
"""test_dump_real.py TFS SOURCE_DIR: every KV of every real GGUF file and the
__metadata__ of every real safetensors file, read through libtfs's accessors
(`tfs dump --json`, which prints values only through tfs_kv_get_*), must
match an independent decoding of the file's bytes with Python's struct and
json modules.  Also the tensors (name, type, shape, offsets) and, for GGUF,
version and alignment.  Files: corpus/real, and ../shared/real when present.
Prints one line per mismatch and "N passed, N failed"; exit 1 on any failure.
"""
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


def gguf_kvs(data):
    """Independent decoding of a GGUF header's KV pairs."""
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
    return version, kvs


def same_float(a, b):
    return a == b or (a is not None and b is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b)))


def check_gguf(path, got, fail):
    data = open(path, 'rb').read()
    version, kvs = gguf_kvs(data)
    if got['version'] != version:
        fail('version %r != %r' % (got['version'], version))
    if len(got['kv']) != len(kvs):
        return fail('%d KVs, want %d' % (len(got['kv']), len(kvs)))
    for g, (key, vt, et, val, bits) in zip(got['kv'], kvs):
        k = text(key)
        if k is not None and g['key'] != k:
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


def check_st(path, got, fail):
    data = open(path, 'rb').read()
    n, = struct.unpack_from('<Q', data, 0)
    hdr = json.loads(data[8: 8 + n].decode('utf-8'))
    meta = hdr.pop('__metadata__', None) or {}
    kv = [(k, v) for k, v in meta.items()]
    gk = [(g['key'], g['value']) for g in got['kv']]
    if gk != kv or any(g['type'] != 'string' for g in got['kv']):
        fail('__metadata__ %r, want %r' % (gk[:3], kv[:3]))
    tensors = [(k, v['dtype'], v['shape'], v['data_offsets']) for k, v in hdr.items()]
    gt = [(t['name'], t['type'], t['shape'], t['offsets']) for t in got['tensors']]
    if gt != tensors:
        fail('tensors differ: %r... want %r...' % (gt[:2], tensors[:2]))


def main():
    tfs, src = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(src, 'corpus/real/*/*')))
    shared = os.path.join(src, '..', 'shared', 'real')
    if os.path.isdir(shared):
        files += sorted(glob.glob(os.path.join(shared, 'gguf', '*.gguf')) +
                        glob.glob(os.path.join(shared, 'safetensors', '*.safetensors')))
    passed = failed = skipped = 0
    for path in files:
        if not path.endswith(('.gguf', '.safetensors')):
            continue
        r = subprocess.run([tfs, 'dump', '--json', path], capture_output=True)
        errs = []
        fail = errs.append
        if r.returncode == 1:  # an invalid file (damaged, GGUF v1, big-endian): no content to compare
            skipped += 1
            continue
        if r.returncode != 0:
            fail('tfs dump exit %d: %s' % (r.returncode, r.stderr.decode(errors='replace')[:200]))
        else:
            got = json.loads(r.stdout)
            (check_gguf if path.endswith('.gguf') else check_st)(path, got, fail)
        if errs:
            failed += 1
            for e in errs[:5]:
                print('FAIL %s: %s' % (os.path.relpath(path, src), e))
        else:
            passed += 1
    print('%d passed, %d failed (%d invalid files skipped)' % (passed, failed, skipped))
    return 1 if failed or passed == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
