#!/usr/bin/python3
"""gguf_model.py: a small GGUF model for the mutators: parse a file into KVs and
tensor infos, and serialise it back while recording where every field lies
(so a mutation can patch one field's bytes).  Type tables from shared
spec/gguf.md.  Standard library only; used by mutate_gguf.py and gguf_seeds.py.
"""
import struct

U64 = (1 << 64) - 1
SIZE_MAX = U64

# GGUF value types: fixed sizes (string = 8, array = 9)
VT_SIZE = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
VT_STRING, VT_ARRAY = 8, 9

# ggml types: id -> (block size, bytes per block); removed ids -> (0, 0)
GG_TYPES = {
    0: (1, 4), 1: (1, 2), 2: (32, 18), 3: (32, 20), 4: (0, 0), 5: (0, 0), 6: (32, 22), 7: (32, 24),
    8: (32, 34), 9: (32, 36), 10: (256, 84), 11: (256, 110), 12: (256, 144), 13: (256, 176),
    14: (256, 210), 15: (256, 292), 16: (256, 66), 17: (256, 74), 18: (256, 98), 19: (256, 50),
    20: (32, 18), 21: (256, 110), 22: (256, 82), 23: (256, 136), 24: (1, 1), 25: (1, 2),
    26: (1, 4), 27: (1, 8), 28: (1, 8), 29: (256, 56), 30: (1, 2), 31: (0, 0), 32: (0, 0),
    33: (0, 0), 34: (256, 54), 35: (256, 66), 36: (0, 0), 37: (0, 0), 38: (0, 0), 39: (32, 17),
    40: (64, 36), 41: (128, 18), 42: (64, 18),
}
REMOVED = [t for t, (b, _) in GG_TYPES.items() if b == 0]
VALID_TYPES = [t for t, (b, _) in GG_TYPES.items() if b != 0]

RAW_CAP = 64 * 1024      # raw (unparsed) seeds are cut here
DATA_CAP = (1 << 20) + (1 << 16)  # padding or data above this is not written (file ends early)


def p_u32(v): return struct.pack('<I', v & 0xFFFFFFFF)
def p_i32(v): return struct.pack('<I', v & 0xFFFFFFFF)
def p_u64(v): return struct.pack('<Q', v & U64)


def pad(x, a):
    return (x + a - 1) // a * a


class KV:
    """One metadata pair.  Scalars hold their raw little-endian bytes (strings:
    the string bytes); arrays hold (element type, list of raw items/strings)."""

    def __init__(self, key, vtype, value, etype=None):
        self.key, self.vtype, self.value, self.etype = key, vtype, value, etype

    def copy(self):
        v = list(self.value) if self.vtype == VT_ARRAY else self.value
        return KV(self.key, self.vtype, v, self.etype)


class Tensor:
    def __init__(self, name, dims, gtype, offset=None):
        self.name, self.dims, self.gtype, self.offset = name, list(dims), gtype, offset

    def copy(self):
        return Tensor(self.name, self.dims, self.gtype, self.offset)


class Model:
    def __init__(self, version=3, kvs=None, tensors=None):
        self.version = version
        self.kvs = kvs or []
        self.tensors = tensors or []

    def copy(self):
        return Model(self.version, [k.copy() for k in self.kvs], [t.copy() for t in self.tensors])

    def alignment(self):
        """The alignment ggml would use for the layout (32 when absent or unusable)."""
        for kv in self.kvs:
            if kv.key == b'general.alignment' and kv.vtype == 4:
                a = struct.unpack('<I', kv.value)[0]
                if a and a & (a - 1) == 0:
                    return a
        return 32


def nbytes(t):
    """ggml's byte size of a tensor (None when the type is unusable).  The
    result is not wrapped: callers mask to 64 bits when writing."""
    blk, size = GG_TYPES.get(t.gtype, (0, 0))
    if blk == 0:
        return None
    n = 1
    for d in t.dims:
        n *= d
    if n <= 0:
        return 0
    if t.dims and t.dims[0] % blk:
        return None
    return n // blk * size


class Writer:
    def __init__(self):
        self.buf = bytearray()
        self.fields = {}   # name -> (offset, size)
        self.order = []

    def put(self, name, b):
        self.fields[name] = (len(self.buf), len(b))
        self.order.append(name)
        self.buf += b


def serialize(m, packed=True, final_pad=True, pad_byte=0, with_data=True, align=None):
    """Bytes of model `m` and the field map.  packed=True recomputes every
    tensor offset as the running padded sum (a consistent file); otherwise the
    offsets stored in the tensors are written as they are.  `align` overrides
    the alignment used for the layout (not the KV written)."""
    w = Writer()
    w.put('magic', b'GGUF')
    w.put('version', p_u32(m.version))
    w.put('n_tensors', p_u64(len(m.tensors)))
    w.put('n_kv', p_u64(len(m.kvs)))
    for i, kv in enumerate(m.kvs):
        w.put(f'kv{i}.keylen', p_u64(len(kv.key)))
        w.put(f'kv{i}.key', kv.key)
        w.put(f'kv{i}.vtype', p_i32(kv.vtype))
        if kv.vtype == VT_ARRAY:
            w.put(f'kv{i}.etype', p_i32(kv.etype))
            w.put(f'kv{i}.count', p_u64(len(kv.value)))
            if kv.etype == VT_STRING:
                for j, s in enumerate(kv.value):
                    w.put(f'kv{i}.item{j}.len', p_u64(len(s)))
                    w.put(f'kv{i}.item{j}', s)
            else:
                w.put(f'kv{i}.value', b''.join(kv.value))
        elif kv.vtype == VT_STRING:
            w.put(f'kv{i}.strlen', p_u64(len(kv.value)))
            w.put(f'kv{i}.value', kv.value)
        else:
            w.put(f'kv{i}.value', kv.value)
    align = align or m.alignment()
    run = 0
    sizes, offs = [], []
    for t in m.tensors:
        nb = nbytes(t) or 0
        off = run if packed or t.offset is None else t.offset
        sizes.append(nb)
        offs.append(off)
        run = pad(run + nb, align)
    for i, t in enumerate(m.tensors):
        w.put(f'ti{i}.namelen', p_u64(len(t.name)))
        w.put(f'ti{i}.name', t.name)
        w.put(f'ti{i}.ndims', p_u32(len(t.dims)))
        for j, d in enumerate(t.dims):
            w.put(f'ti{i}.dim{j}', p_u64(d))
        w.put(f'ti{i}.gtype', p_i32(t.gtype))
        w.put(f'ti{i}.offset', p_u64(offs[i]))
    hdr_end = len(w.buf)
    data_start = pad(hdr_end, align) if m.tensors else hdr_end
    info = {'data_start': data_start, 'align': align, 'hdr_end': hdr_end, 'data_written': False}
    if data_start - hdr_end > DATA_CAP:
        return bytes(w.buf), w.fields, info   # file ends inside the padding
    w.put('pad', bytes([pad_byte]) * (data_start - hdr_end))
    if not m.tensors:
        return bytes(w.buf), w.fields, info
    ends = [(o & U64) + s for o, s in zip(offs, sizes)]
    total = max(run, max(ends))
    if not with_data or total > DATA_CAP:
        return bytes(w.buf), w.fields, info
    data = bytearray(total)
    for i, (o, s) in enumerate(zip(offs, sizes)):
        o &= U64
        data[o:o + s] = bytes(((i * 31 + k) * 7 + 1) & 0xFF for k in range(min(s, 64))) * (s // 64) + \
            bytes(((i * 31 + k) * 7 + 1) & 0xFF for k in range(s % 64))
        w.fields[f'data{i}'] = (data_start + o, s)
    last_end = max(ends)
    info['last_end'] = data_start + last_end
    info['data_end'] = data_start + total
    if not final_pad:
        data = data[:last_end]
    w.buf += data
    info['data_written'] = True
    return bytes(w.buf), w.fields, info


# ---------------------------------------------------------------- parsing seeds

class ParseError(Exception):
    pass


class Reader:
    def __init__(self, b):
        self.b, self.pos = b, 0

    def take(self, n):
        if n < 0 or self.pos + n > len(self.b):
            raise ParseError('short')
        r = self.b[self.pos:self.pos + n]
        self.pos += n
        return r

    def u32(self): return struct.unpack('<I', self.take(4))[0]
    def i32(self): return struct.unpack('<i', self.take(4))[0]
    def u64(self): return struct.unpack('<Q', self.take(8))[0]
    def i64(self): return struct.unpack('<q', self.take(8))[0]

    def string(self):
        return self.take(self.u64())

    def value(self, vt):
        if vt == VT_STRING:
            return self.string()
        if vt in VT_SIZE:
            return self.take(VT_SIZE[vt])
        raise ParseError('bad type')


def parse(b):
    r = Reader(b)
    if r.take(4) != b'GGUF':
        raise ParseError('magic')
    version = r.u32()
    if version not in (2, 3):
        raise ParseError('version')
    nt, nk = r.i64(), r.i64()
    if not (0 <= nt < 100000 and 0 <= nk < 100000):
        raise ParseError('counts')
    m = Model(version)
    for _ in range(nk):
        key = r.string()
        vt = r.i32()
        if vt == VT_ARRAY:
            et, n = r.i32(), r.u64()
            if et == VT_ARRAY or n > len(b):
                raise ParseError('array')
            m.kvs.append(KV(key, vt, [r.value(et) for _ in range(n)], et))
        else:
            m.kvs.append(KV(key, vt, r.value(vt)))
    for _ in range(nt):
        name = r.string()
        nd = r.u32()
        if nd > 4:
            raise ParseError('ndims')
        dims = [r.i64() for _ in range(nd)]
        m.tensors.append(Tensor(name, dims, r.i32(), r.u64()))
    return m


def shrink(m):
    """A small copy of a real model: arrays capped at 48 items, strings at 200
    bytes, every tensor reduced to a few blocks (names, types, n_dims kept)."""
    s = m.copy()
    for kv in s.kvs:
        if kv.vtype == VT_ARRAY:
            kv.value = kv.value[:48]
            if kv.etype == VT_STRING:
                kv.value = [x[:200] for x in kv.value]
        elif kv.vtype == VT_STRING:
            kv.value = kv.value[:200]
    for t in s.tensors:
        blk = GG_TYPES.get(t.gtype, (1, 1))[0] or 1
        nd = []
        for j, d in enumerate(t.dims):
            if j == 0:
                nd.append(blk * max(1, min(d // blk, 2 if blk > 1 else 8)) if d > 0 else d)
            else:
                nd.append(min(d, 3))
        t.dims = nd
        t.offset = None
    return s


# ---------------------------------------------------------------- synthetic seeds

def kv_scalar(key, vt, v):
    fmt = {0: '<B', 1: '<b', 2: '<H', 3: '<h', 4: '<I', 5: '<i', 6: '<f', 7: '<B', 10: '<Q', 11: '<q', 12: '<d'}[vt]
    return KV(key, vt, struct.pack(fmt, v))


def kv_array(key, et, vals):
    if et == VT_STRING:
        return KV(key, VT_ARRAY, list(vals), et)
    fmt = {0: '<B', 1: '<b', 2: '<H', 3: '<h', 4: '<I', 5: '<i', 6: '<f', 7: '<B', 10: '<Q', 11: '<q', 12: '<d'}[et]
    return KV(key, VT_ARRAY, [struct.pack(fmt, v) for v in vals], et)
