#!/usr/bin/python3
"""mutate_gguf.py: write structure-aware mutants of GGUF files for the ggml differential test.

Usage:
    mutate_gguf.py --out DIR [--count N] [--seed S] [--manifest TSV] [SEED_DIR_OR_FILE ...]
    mutate_gguf.py --examples --out DIR     (the divergence examples, see gguf_seeds.py)

Seeds are the *.gguf files found under the given directories (recursively; real
files such as corpus/real, committed fixtures such as corpus/gguf) plus the
synthetic seeds of gguf_seeds.py (every KV value type, every usable ggml type,
alignment variants, v2, empty files).  Seeds that parse are shrunk when above
64 KiB (arrays capped, strings cut, tensor shapes reduced) so that every
mutant stays small; seeds that do not parse (GGUF v1, big-endian, damaged) are
mutated as raw bytes (cut at 64 KiB).

Every seed gets a fixed catalogue of mutations that know the layout (each
field's byte offset is recorded when the seed is serialised, generators/tfsgen/gguf.py):
truncations at interesting points, header edits (magic, version, counts),
KV edits (key/string lengths, value and element types, array counts, empty,
duplicate and NUL-containing keys, alignment key values and types, bool
values), tensor info edits (name lengths and NULs, n_dims, dims incl. wrapping
products, ggml types, offsets) with and without a consistent re-layout,
data/padding edits, and random byte flips.  The candidates are sampled
deterministically and stratified by kind of mutation (every kind is
represented, truncations weigh more); about a tenth of the files are random
byte flips.

Output: DIR/NNNNN_<seed>_<mutation>.gguf (names are stable for a given --seed
and seed set); --manifest writes one TSV line per file: name, seed, mutation.
Deterministic: same inputs + same --seed = same bytes.
Only the standard library; run with /usr/bin/python3.
"""
import argparse
import functools
import os
import random
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "generators"))
from tfsgen.gguf import (GG_BLOCKS, RAW_CAP, REMOVED, SIZE_MAX, U64, VALID_TYPES, VT_ARRAY, VT_SIZE,  # noqa: E402
                         VT_STRING, KV, ParseError, Tensor, align_up, kv_array, kv_scalar, nbytes, p_i32, p_u32,
                         p_u64, parse, serialize, shrink)
from gguf_seeds import examples, synthetic_seeds  # noqa: E402


INT_EDGE = [0, 1, (1 << 30), (1 << 30) + 1, 1 << 32, 1 << 56, (1 << 63) - 1, 1 << 63, U64, U64 - 7]


def patch(b, off, new):
    return b[:off] + new + b[off + len(new):]


class Gen:
    """Collects (seed, mutation, thunk) candidates for one seed."""

    def __init__(self, out, seed_name):
        self.out, self.seed = out, seed_name

    def add(self, name, fn):
        self.out.append((self.seed, name, fn))


def structural(g, m, name, edit, **kw):
    def fn():
        mm = m.copy()
        edit(mm)
        return serialize(mm, **kw)[0]
    g.add(name, fn)


def mutations_for_model(g, m, rng):
    base, F, info = serialize(m)
    g.add('identity', lambda: base)
    g.add('final-unpadded', lambda: serialize(m, final_pad=False)[0])
    g.add('pad-nonzero', lambda: serialize(m, pad_byte=0xA5)[0])
    g.add('tail-junk', lambda: base + b'trailing junk!')
    g.add('tail-zero7', lambda: base + bytes(7))

    # truncations at interesting points
    cuts = {0, 1, 3, 4, 6, 8, 12, 16, 20, 23, 24}
    for name, (off, size) in F.items():
        if name.startswith('data'):
            cuts.update({off, off + size // 2, off + size - 1} if size else {off})
            continue
        if rng.random() < 0.35 or name.startswith(('pad', 'ti0', 'kv0')):
            cuts.add(off)
            if size > 1:
                cuts.add(off + size // 2)
                cuts.add(off + size - 1)
    if m.tensors:
        ds = info['data_start']
        cuts.update({info['hdr_end'], ds - 1, ds, ds + 1})
        if info.get('data_written'):
            le, de = info['last_end'], info['data_end']
            cuts.update({le - 1, le, le + 1, de - 1, (le + de) // 2})
    for c in sorted(x for x in cuts if 0 <= x < len(base)):
        g.add(f'trunc-{c}', lambda c=c: base[:c])

    # header
    for mg in (b'GGUG', b'gguf', b'\0GGU', b'FUGG'):
        g.add(f'magic-{mg.hex()}', lambda mg=mg: patch(base, 0, mg))
    for v in (0, 1, 2, 3, 4, 0x00030000, 0x03000000, 0x10003, 0xFFFFFFFF):
        g.add(f'version-{v:x}', lambda v=v: patch(base, 4, p_u32(v)))
    nt, nk = len(m.tensors), len(m.kvs)
    for v in {nt - 1, nt + 1, 0, -1, (1 << 30) + 1, 1 << 56, (1 << 63) - 1, -(1 << 63),
              SIZE_MAX // 344, SIZE_MAX // 344 + 1, SIZE_MAX // 400}:
        g.add(f'n_tensors-{v & U64:x}', lambda v=v: patch(base, 8, p_u64(v)))
    for v in {nk - 1, nk + 1, 0, -1, (1 << 30) + 1, 1 << 56, (1 << 63) - 1, SIZE_MAX // 88, SIZE_MAX // 88 + 1,
              SIZE_MAX // 100}:
        g.add(f'n_kv-{v & U64:x}', lambda v=v: patch(base, 16, p_u64(v)))

    # KV pairs (byte patches keep the rest of the file as it is)
    for i, kv in enumerate(m.kvs):
        if i > 2 and rng.random() < 0.5:
            continue
        off, _ = F[f'kv{i}.keylen']
        rem = len(base) - off - 8
        for v in [0, len(kv.key) - 1, len(kv.key) + 1, rem, rem + 1] + INT_EDGE:
            g.add(f'kv{i}-keylen-{v & U64:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
        off, _ = F[f'kv{i}.vtype']
        for v in list(range(14)) + [255, -1, 0x7FFFFFFF]:
            if v != kv.vtype:
                g.add(f'kv{i}-vtype-{v & 0xFFFFFFFF:x}', lambda off=off, v=v: patch(base, off, p_i32(v)))
        if kv.vtype == VT_ARRAY:
            off, _ = F[f'kv{i}.etype']
            for v in list(range(14)) + [-1]:
                if v != kv.etype:
                    g.add(f'kv{i}-etype-{v & 0xFFFFFFFF:x}', lambda off=off, v=v: patch(base, off, p_i32(v)))
            off, _ = F[f'kv{i}.count']
            esz = VT_SIZE.get(kv.etype, 8)
            rem = len(base) - off - 8
            for v in {0, len(kv.value) - 1, len(kv.value) + 1, rem // esz, rem // esz + 1,
                      (1 << 30), (1 << 30) + 1, 1 << 56, U64, U64 // esz + 1}:
                g.add(f'kv{i}-count-{v & U64:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
            if kv.etype == VT_STRING and kv.value:
                j = rng.randrange(len(kv.value))
                off, _ = F[f'kv{i}.item{j}.len']
                for v in (len(kv.value[j]) + 1, 1 << 30, (1 << 30) + 1, 1 << 56, U64):
                    g.add(f'kv{i}-item{j}-len-{v:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
        elif kv.vtype == VT_STRING:
            off, _ = F[f'kv{i}.strlen']
            rem = len(base) - off - 8
            for v in {0, len(kv.value) - 1, len(kv.value) + 1, rem, rem + 1, 1 << 30, (1 << 30) + 1, 1 << 56, U64}:
                g.add(f'kv{i}-strlen-{v & U64:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
        elif kv.vtype == 7:
            off, _ = F[f'kv{i}.value']
            for v in (2, 255):
                g.add(f'kv{i}-bool-{v}', lambda off=off, v=v: patch(base, off, bytes([v])))
    # KV structure
    if m.kvs:
        def empty_key(mm): mm.kvs[0].key = b''
        structural(g, m, 'kv-empty-key', empty_key)
        def dup_key(mm): mm.kvs.append(mm.kvs[0].copy())
        structural(g, m, 'kv-dup-key', dup_key)
        def nested(mm): mm.kvs.append(KV(b'test.nested', VT_ARRAY, [], VT_ARRAY))
        structural(g, m, 'kv-nested-empty', nested)
        def long_key(mm): mm.kvs[-1].key = b'k' * 70000
        structural(g, m, 'kv-key-70000', long_key)
    # alignment key: consistent re-layout ('-ok'), and value patched in place ('-stale')
    has_align = any(kv.key == b'general.alignment' for kv in m.kvs)
    for a in (0, 1, 2, 3, 8, 16, 64, 4096, 1 << 20, 1 << 21, 1 << 31, 0xFFFFFFFF):
        def set_align(mm, a=a):
            mm.kvs = [kv for kv in mm.kvs if kv.key != b'general.alignment']
            mm.kvs.insert(0, kv_scalar(b'general.alignment', 4, a))
        structural(g, m, f'align-{a}', set_align)
        if has_align:
            i = next(i for i, kv in enumerate(m.kvs) if kv.key == b'general.alignment')
            if m.kvs[i].vtype == 4:
                off, _ = F[f'kv{i}.value']
                g.add(f'align-{a}-stale', lambda off=off, a=a: patch(base, off, p_u32(a)))
    for name, kv in (('i32', kv_scalar(b'general.alignment', 5, 32)), ('u64', kv_scalar(b'general.alignment', 10, 32)),
                     ('u8', kv_scalar(b'general.alignment', 0, 32)), ('u16', kv_scalar(b'general.alignment', 2, 32)),
                     ('f32', kv_scalar(b'general.alignment', 6, 32.0)), ('bool', kv_scalar(b'general.alignment', 7, 1)),
                     ('string', KV(b'general.alignment', VT_STRING, b'32')),
                     ('array', kv_array(b'general.alignment', 4, [32]))):
        def wrong(mm, kv=kv):
            mm.kvs = [k for k in mm.kvs if k.key != b'general.alignment'] + [kv.copy()]
        structural(g, m, f'align-type-{name}', wrong)
    def dup_align(mm):
        mm.kvs = [k for k in mm.kvs if k.key != b'general.alignment']
        mm.kvs += [kv_scalar(b'general.alignment', 4, 32), kv_scalar(b'general.alignment', 4, 64)]
    structural(g, m, 'align-dup', dup_align)
    # keys with an embedded NUL: ggml compares keys as byte strings for
    # duplicates, but looks general.alignment up with strcmp
    for nm, key, kv_make, lay in (
            ('nul-align-u32-64-lay64', b'general.alignment\0', lambda k: kv_scalar(k, 4, 64), 64),
            ('nul-align-u32-64-lay32', b'general.alignment\0', lambda k: kv_scalar(k, 4, 64), 32),
            ('nul-align-x-u32-64-lay64', b'general.alignment\0x', lambda k: kv_scalar(k, 4, 64), 64),
            ('nul-align-i32', b'general.alignment\0', lambda k: kv_scalar(k, 5, 32), 32),
            ('nul-align-u32-3', b'general.alignment\0', lambda k: kv_scalar(k, 4, 3), 32),
            ('nul-only-key', b'\0', lambda k: kv_scalar(k, 4, 1), 32),
            ('nul-key-pair', b'a\0b', lambda k: kv_scalar(k, 4, 1), 32)):
        def add_nul(mm, key=key, kv_make=kv_make, nm=nm):
            mm.kvs = [k for k in mm.kvs if k.key != b'general.alignment']
            mm.kvs.append(kv_make(key))
            if nm == 'nul-key-pair':
                mm.kvs.append(kv_make(b'a\0c'))
        structural(g, m, f'kv-key-{nm}', add_nul, align=lay)

    # tensor infos
    for i, t in enumerate(m.tensors):
        if i > 1 and rng.random() < 0.6:
            continue
        off, _ = F[f'ti{i}.namelen']
        rem = len(base) - off - 8
        for v in (0, len(t.name) + 1, 63, 64, rem, rem + 1, (1 << 30) + 1, 1 << 56, U64):
            g.add(f'ti{i}-namelen-{v:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
        off, _ = F[f'ti{i}.ndims']
        for v in list(range(9)) + [0xFFFFFFFF, 1 << 31]:
            if v != len(t.dims):
                g.add(f'ti{i}-ndims-{v:x}', lambda off=off, v=v: patch(base, off, p_u32(v)))
        for j in range(len(t.dims)):
            off, _ = F[f'ti{i}.dim{j}']
            for v in (0, -1, t.dims[j] + 1, 1 << 32, 1 << 62, (1 << 63) - 1, -(1 << 63)):
                g.add(f'ti{i}-dim{j}-{v & U64:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
        off, _ = F[f'ti{i}.gtype']
        choices = REMOVED + [43, 44, -1, 0x7FFFFFFF, 39, 40, 41, 42] + rng.sample(VALID_TYPES, 4)
        for v in choices:
            if v != t.gtype:
                g.add(f'ti{i}-gtype-{v & 0xFFFFFFFF:x}', lambda off=off, v=v: patch(base, off, p_i32(v)))
        off, _ = F[f'ti{i}.offset']
        cur = struct.unpack('<Q', base[off:off + 8])[0]
        align = info['align']
        for v in {cur + 1, cur - 1, 0, cur + align, cur + 2 * align, 1 << 63, U64, U64 - align + 1}:
            g.add(f'ti{i}-offset-{v & U64:x}', lambda off=off, v=v: patch(base, off, p_u64(v)))
        # structural: consistent layout with an edited shape or type
        for nm, dims, gt in (('wrap32x32', [1 << 32, 1 << 32], 0), ('wrap62x2', [1 << 62, 2], 24),
                             ('wrap32x31', [1 << 32, 1 << 31], 24), ('int64max', [(1 << 63) - 1], 24),
                             ('nbytes-pad-wrap', [(U64 // 4) & ~31], 0), ('q8-g4', [1152, (1 << 42) + 1], 8),
                             ('huge-f32', [1 << 40], 0), ('big-f32', [1 << 28], 0), ('zero-dim', [1, 0], 0),
                             ('zero-first', [0, 4], 0), ('4d-zero', [4, 1, 0, 2], 0), ('scalar', [], 0),
                             ('sizemax-i8', [U64 >> 1], 24), ('div-edge', [3074457345618258602, 3], 24)):
            def setshape(mm, i=i, dims=dims, gt=gt):
                mm.tensors[i].dims, mm.tensors[i].gtype = list(dims), gt
            structural(g, m, f'ti{i}-shape-{nm}', setshape)
        for nd in (0, 1, 3, 4, 5):
            def setnd(mm, i=i, nd=nd):
                t = mm.tensors[i]
                t.dims = (t.dims + [1] * 8)[:nd]
            structural(g, m, f'ti{i}-ndims-relayout-{nd}', setnd)
        for gt in rng.sample(VALID_TYPES, 3) + [0, 24]:
            def settype(mm, i=i, gt=gt):
                t = mm.tensors[i]
                t.gtype = gt
                blk = GG_BLOCKS[gt][0]
                if t.dims and t.dims[0] % blk:
                    t.dims[0] = blk
            structural(g, m, f'ti{i}-type-relayout-{gt}', settype)
    if m.tensors:
        def name63(mm): mm.tensors[0].name = b'n' * 63
        structural(g, m, 'ti-name-63', name63)
        def name64(mm): mm.tensors[0].name = b'n' * 64
        structural(g, m, 'ti-name-64', name64)
        def noname(mm): mm.tensors[0].name = b''
        structural(g, m, 'ti-name-empty', noname)
        def dupname(mm): mm.tensors.append(Tensor(mm.tensors[0].name, [4], 0))
        structural(g, m, 'ti-name-dup', dupname)
        # names with an embedded NUL: ggml stores them with ggml_set_name (a C
        # string) and finds duplicates with strcmp; the length check counts all bytes
        def nul_dup(mm): mm.tensors += [Tensor(b'nul\0a', [4], 0), Tensor(b'nul\0b', [4], 0)]
        structural(g, m, 'ti-name-nul-dup', nul_dup)
        def nul_prefix(mm): mm.tensors += [Tensor(b'nul', [4], 0), Tensor(b'nul\0zz', [4], 0)]
        structural(g, m, 'ti-name-nul-prefix-dup', nul_prefix)
        def nul_63(mm): mm.tensors[0].name = b'n\0' + b'x' * 61
        structural(g, m, 'ti-name-nul-63', nul_63)
        def nul_64(mm): mm.tensors[0].name = b'n\0' + b'x' * 62
        structural(g, m, 'ti-name-nul-64', nul_64)
        def nul_empty(mm): mm.tensors += [Tensor(b'\0a', [4], 0), Tensor(b'', [4], 0)]
        structural(g, m, 'ti-name-nul-vs-empty', nul_empty)
        def zero_offsets(mm):
            for t in mm.tensors:
                t.offset = 0
        structural(g, m, 'ti-offsets-all-zero', zero_offsets, packed=False)
        def added_after_huge(mm):
            mm.tensors.insert(0, Tensor(b'huge', [(U64 // 4) & ~31], 0))
        structural(g, m, 'ti-insert-pad-wrap', added_after_huge)
        def g2(mm):
            mm.tensors.insert(0, Tensor(b'big0', [1 << 62], 24))
            mm.tensors.insert(1, Tensor(b'big1', [1 << 62], 24))
            mm.tensors.insert(2, Tensor(b'big2', [1 << 62], 24))
            mm.tensors.insert(3, Tensor(b'big3', [1 << 62], 24))
        structural(g, m, 'ti-sum-wrap', g2)
        if len(m.tensors) > 1:
            def swap(mm):
                a, b = mm.tensors[0], mm.tensors[1]
                run = 0
                al = mm.alignment()
                offs = []
                for t in mm.tensors:
                    offs.append(run)
                    run = align_up(run + (nbytes(t.gtype, t.dims) or 0), al)
                for t, o in zip(mm.tensors, offs):
                    t.offset = o
                a.offset, b.offset = b.offset, a.offset
            structural(g, m, 'ti-offsets-swap', swap, packed=False)
            def share(mm):
                run, al = 0, mm.alignment()
                for t in mm.tensors:
                    t.offset = run
                    run = align_up(run + (nbytes(t.gtype, t.dims) or 0), al)
                mm.tensors[1].offset = mm.tensors[0].offset
            structural(g, m, 'ti-offsets-shared', share, packed=False)
            def reorder(mm):
                mm.tensors.reverse()
            structural(g, m, 'ti-reverse', reorder)
    def add_tensor(mm):
        mm.tensors.append(Tensor(b'extra.weight', [32, 3], 8))
    structural(g, m, 'ti-append-q8', add_tensor)
    structural(g, m, 'ti-append-q8-unpadded', add_tensor, final_pad=False)


def mutations_for_raw(g, raw, rng):
    b = raw[:RAW_CAP]
    g.add('raw-cut', lambda: b)
    for c in sorted({0, 3, 4, 7, 8, 16, 23, 24, 25, 40, 100} | {rng.randrange(len(b)) for _ in range(6 if b else 0)}):
        if c < len(b):
            g.add(f'raw-trunc-{c}', lambda c=c: b[:c])
    for v in (2, 3, 0x03000000):
        g.add(f'raw-version-{v:x}', lambda v=v: patch(b, 4, p_u32(v)))


def flip(b, rng, k, header_end):
    bb = bytearray(b)
    for _ in range(k):
        lim = header_end if (rng.random() < 0.8 and header_end > 0) else len(bb)
        if lim == 0:
            break
        p = rng.randrange(lim)
        bb[p] = rng.choice((bb[p] ^ (1 << rng.randrange(8)), rng.randrange(256), 0, 0xFF))
    return bytes(bb)


# kinds drawn several times per round of the stratified sample
KIND_WEIGHT = {'trunc': 4, 'raw-trunc': 2, 'tiN-offset': 2, 'kvN-count': 2}


_KIND_RECORD = re.compile(r'^(kv|ti)[0-9]+')
_KIND_ITEM = re.compile(r'item[0-9]+')
_KIND_TAIL = re.compile(r'-[0-9a-f]+$')


@functools.lru_cache(maxsize=None)
def kind_of(mutation):
    """Mutation name without its seed-specific numbers (the sampling stratum;
    ~500,000 candidates share a few thousand names: cached)."""
    k = _KIND_RECORD.sub(r'\1N', mutation)
    k = _KIND_ITEM.sub('itemN', k)
    return _KIND_TAIL.sub('', k)


def sanitize(s):
    return re.sub(r'[^A-Za-z0-9._-]+', '-', s)[:80]


def load_seeds(paths):
    """(name, bytes) of every *.gguf under the given folders (recursively) or files."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                files += [os.path.join(root, f) for f in sorted(names) if f.endswith('.gguf')]
        elif os.path.isfile(p):
            files.append(p)
    real = []
    for f in files:
        with open(f, 'rb') as fh:
            real.append((os.path.basename(f)[:-5] if f.endswith('.gguf') else os.path.basename(f), fh.read()))
    return real


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--count', type=int, default=6000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--manifest')
    ap.add_argument('--shard', default='1/1', metavar='K/N',
                    help='write only the mutants i (0-based) with i %% N == K - 1 (the same files, names and '
                         'manifest lines as a whole run has for them)')
    ap.add_argument('--examples', action='store_true',
                    help='write the divergence examples (docs/divergences.md) into --out instead')
    ap.add_argument('seeds', nargs='*')
    a = ap.parse_args()
    try:
        shard_k, shard_n = (int(x) for x in a.shard.split('/'))
        if not 1 <= shard_k <= shard_n:
            raise ValueError
    except ValueError:
        ap.error('--shard wants K/N with 1 <= K <= N, not %r' % a.shard)
    if a.examples:
        os.makedirs(a.out, exist_ok=True)
        for name, data in sorted(examples().items()):
            with open(os.path.join(a.out, name + '.gguf'), 'wb') as fh:
                fh.write(data)
        return 0
    rng = random.Random(a.seed)

    cands = []
    models = {}   # seed name -> (model or None, base bytes)
    seen = set()
    for name, raw in load_seeds(a.seeds):
        name = sanitize('real-' + name)
        if name in seen:
            continue
        seen.add(name)
        g = Gen(cands, name)
        try:
            m = parse(raw)
        except ParseError:
            m = None
        mutations_for_raw(g, raw, rng)
        if m is not None:
            if len(raw) > RAW_CAP:
                m = shrink(m)
            mutations_for_model(g, m, rng)
            models[name] = (m, serialize(m)[0])
        else:
            models[name] = (None, raw[:RAW_CAP])
    for name, m in synthetic_seeds().items():
        mutations_for_model(Gen(cands, name), m, rng)
        models[name] = (m, serialize(m)[0])

    # deterministic, stratified sample: every kind of mutation is represented,
    # about a tenth of the files are random byte flips
    target = a.count - a.count // 10
    if len(cands) > target:
        groups = {}
        for c in cands:
            groups.setdefault(kind_of(c[1]), []).append(c)
        for k in sorted(groups):
            rng.shuffle(groups[k])
        picked, keys, r = [], sorted(groups), 0
        while len(picked) < target:
            for k in keys:
                w = KIND_WEIGHT.get(k, 1)
                for x in groups[k][r * w:(r + 1) * w]:
                    if len(picked) < target:
                        picked.append(x)
            r += 1
        cands = sorted(picked, key=lambda c: (c[0], c[1]))
    names = sorted(models)
    fill = 0
    while len(cands) < a.count:
        sname = names[fill % len(names)]
        fill += 1
        m, b = models[sname]
        hdr = len(b) if m is None else serialize(m)[2]['hdr_end']
        if not b:
            continue
        k = 1 + rng.randrange(8)
        s = rng.randrange(1 << 30)
        cands.append((sname, f'flip{k}-{s:x}', lambda b=b, k=k, s=s, hdr=hdr: flip(b, random.Random(s), k, hdr)))

    os.makedirs(a.out, exist_ok=True)
    man = open(a.manifest, 'w') if a.manifest else None
    total = 0
    for idx, (sname, mname, fn) in enumerate(cands):
        if idx % shard_n != shard_k - 1:
            continue
        data = fn()
        fname = f'{idx:05d}_{sname}_{sanitize(mname)}.gguf'
        with open(os.path.join(a.out, fname), 'wb') as fh:
            fh.write(data)
        total += len(data)
        if man:
            man.write(f'{fname}\t{sname}\t{mname}\n')
    if man:
        man.close()
    n_out = sum(1 for i in range(len(cands)) if i % shard_n == shard_k - 1)
    print(f'mutate_gguf: wrote {n_out} files, {total} bytes, into {a.out}', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
