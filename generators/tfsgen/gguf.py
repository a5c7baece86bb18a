"""gguf.py: the GGUF model, writer and reader of tfsgen.

Layout (shared spec/gguf.md): magic "GGUF" . u32 version . i64 n_tensors .
i64 n_kv . KVs . tensor infos . padding to the alignment . tensor data.

Two levels, one encoder:
  * field encoders (u32, gstr, enc_kv, enc_tensor_info, enc_header, ...) write
    any value into its field, wrapping to the field's width: the knobs for
    malformed output (a negative count, a length past the end, n_dims 5);
  * Model / KV / Tensor and serialize(): a whole file with offsets and padding
    computed and a map of where every field lies (so a mutation can patch one
    field), with knobs to write offsets as given, leave out the final padding
    or the data, use a nonzero padding byte, another alignment or declared
    counts; parse() reads a file back into a Model (for seeds).
Type tables come from include/tfs/*.def (tables.py).
"""
import struct

from .tables import GG_REMOVED, GG_TYPES, GG_VALID, VT, VT_ARRAY, VT_SIZE, VT_STRING, VT_STRUCT

U64 = (1 << 64) - 1
SIZE_MAX = U64
INT64_MAX = (1 << 63) - 1

# ggml types: id -> (block size, bytes per block); removed ids -> (0, 0)
GG_BLOCKS = {t: (b, s) for t, (_, b, s) in GG_TYPES.items()}
REMOVED = list(GG_REMOVED)
VALID_TYPES = list(GG_VALID)

RAW_CAP = 64 * 1024      # raw (unparsed) seeds are cut here
DATA_CAP = (1 << 20) + (1 << 16)  # padding or data above this is not written (file ends early)


# ---------------------------------------------------------------- field encoders

def u8(v): return struct.pack("<B", v & 0xFF)
def u16(v): return struct.pack("<H", v & 0xFFFF)
def u32(v): return struct.pack("<I", v & 0xFFFFFFFF)
def i32(v): return struct.pack("<I", v & 0xFFFFFFFF)
def u64(v): return struct.pack("<Q", v & U64)
def i64(v): return struct.pack("<q", v)


# names kept for the mutators
p_u32, p_i32, p_u64 = u32, i32, u64


def as_bytes(s):
    return s.encode() if isinstance(s, str) else s


def gstr(s):
    """A GGUF string: u64 length + bytes (str is UTF-8 encoded)."""
    b = as_bytes(s)
    return u64(len(b)) + b


def enc_header(n_tensors, n_kv, version=3, magic=b"GGUF"):
    return magic + u32(version) + u64(n_tensors) + u64(n_kv)


def enc_kv(key, vtype, value):
    """A KV with a raw value (bytes already encoded)."""
    return gstr(key) + u32(vtype) + value


def enc_kv_array(key, etype, count, elems):
    """An array KV: element type, declared count (any), element bytes (any)."""
    return gstr(key) + u32(VT_ARRAY) + u32(etype) + u64(count) + elems


def enc_tensor_info(name, ne, gtype, offset):
    """Tensor info: ne innermost first, as in the file; n_dims = len(ne)."""
    b = gstr(name) + u32(len(ne))
    for d in ne:
        b += u64(d)
    return b + u32(gtype) + u64(offset)


def ti_fields(at, name, n_dims):
    """Offsets of the fields of a tensor info that enc_tensor_info(name, ne, ...) writes at byte `at` with
    len(ne) == n_dims: {"name_len", "name", "n_dims", "ne": [ne[0] ...], "type", "offset"}."""
    nd = at + 8 + len(as_bytes(name))
    ne = [nd + 4 + 8 * j for j in range(n_dims)]
    return {"name_len": at, "name": at + 8, "n_dims": nd, "ne": ne, "type": nd + 4 + 8 * n_dims,
            "offset": nd + 8 + 8 * n_dims}


def count_test_fires(ne):
    """The j (1..3) at which ggml's element-count test (gguf.cpp: INT64_MAX/ne[1] <= ne[0] ||
    INT64_MAX/ne[2] <= ne[0]*ne[1] || INT64_MAX/ne[3] <= ne[0]*ne[1]*ne[2], dimensions past n_dims
    being 1) first holds, or None; every ne[j] > 0 (GG205 comes first)."""
    d = list(ne) + [1] * (4 - len(ne))
    for j in (1, 2, 3):
        prod = 1
        for x in d[:j]:
            prod *= x
        if INT64_MAX // d[j] <= prod:
            return j
    return None


def gg206_offset(at, name, ne):
    """Where GG206 points for a tensor info written at `at`: the ne field at which ggml's count test fires,
    or, when it fires at a dimension past n_dims (an implicit 1), the last one written."""
    j = count_test_fires(ne)
    assert j is not None, ne
    return ti_fields(at, name, len(ne))["ne"][min(j, len(ne) - 1)]


def enc_scalar(vtype, v):
    """Little-endian bytes of a number of a fixed-size value type."""
    return struct.pack(VT_STRUCT[vtype], v)


def kv_u32(key, v): return enc_kv(key, VT["U32"], u32(v))
def kv_str(key, s): return enc_kv(key, VT_STRING, gstr(s))


def align_up(x, a):
    return (x + a - 1) // a * a


def pad(b, align=32):
    """Bytes b followed by zeros up to a multiple of align."""
    return b + b"\0" * ((-len(b)) % align)


def nbytes(gtype, dims):
    """ggml's byte size of a tensor, not wrapped (None when the type is
    unusable or ne[0] is not a multiple of its block; 0 for 0 elements)."""
    blk, size = GG_BLOCKS.get(gtype, (0, 0))
    if blk == 0:
        return None
    n = 1
    for d in dims:
        n *= d
    if n <= 0:
        return 0
    if dims and dims[0] % blk:
        return None
    return n // blk * size


# ---------------------------------------------------------------- model

class KV:
    """One metadata pair.  Scalars hold their raw little-endian bytes (strings:
    the string bytes); arrays hold (element type, list of raw items/strings)."""

    def __init__(self, key, vtype, value, etype=None):
        self.key, self.vtype, self.value, self.etype = key, vtype, value, etype

    def copy(self):
        v = list(self.value) if self.vtype == VT_ARRAY else self.value
        return KV(self.key, self.vtype, v, self.etype)


class RawKV:
    """A KV written as the given bytes (any content: the knob for a malformed KV)."""

    def __init__(self, raw):
        self.raw, self.key, self.vtype = raw, None, None

    def copy(self):
        return RawKV(self.raw)


class Tensor:
    def __init__(self, name, dims, gtype, offset=None):
        self.name, self.dims, self.gtype, self.offset = as_bytes(name), list(dims), gtype, offset

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
            if kv.key == b"general.alignment" and kv.vtype == VT["U32"]:
                a = struct.unpack("<I", kv.value)[0]
                if a and a & (a - 1) == 0:
                    return a
        return 32


def kv_scalar(key, vt, v):
    return KV(as_bytes(key), vt, enc_scalar(vt, v))


def kv_string(key, s):
    return KV(as_bytes(key), VT_STRING, as_bytes(s))


def kv_array(key, et, vals):
    if et == VT_STRING:
        return KV(as_bytes(key), VT_ARRAY, [as_bytes(v) for v in vals], et)
    return KV(as_bytes(key), VT_ARRAY, [enc_scalar(et, v) for v in vals], et)


class Writer:
    def __init__(self):
        self.buf = bytearray()
        self.fields = {}   # name -> (offset, size)
        self.order = []

    def put(self, name, b):
        self.fields[name] = (len(self.buf), len(b))
        self.order.append(name)
        self.buf += b


def _pattern(i, s):
    row = bytes(((i * 31 + k) * 7 + 1) & 0xFF for k in range(min(s, 64)))
    return row * (s // 64) + row[:s % 64]


def serialize(m, packed=True, final_pad=True, pad_byte=0, with_data=True, align=None, fill="pattern",
              magic=b"GGUF", n_tensors=None, n_kv=None):
    """Bytes of model `m`, the field map {name: (offset, size)} and an info dict
    (data_start, align, hdr_end, data_size, data_written, last_end, data_end).

    packed=True recomputes every tensor offset as the running padded sum (a
    consistent file); otherwise the offsets stored in the tensors are written
    as they are.  `align` overrides the alignment used for the layout (not the
    KV written).  fill: "pattern" (distinct bytes per tensor) or "zero".
    magic, n_tensors, n_kv: written instead of the real values when given.
    Padding or data above DATA_CAP is not written (the file ends early)."""
    w = Writer()
    w.put("magic", magic)
    w.put("version", u32(m.version))
    w.put("n_tensors", u64(len(m.tensors) if n_tensors is None else n_tensors))
    w.put("n_kv", u64(len(m.kvs) if n_kv is None else n_kv))
    for i, kv in enumerate(m.kvs):
        if isinstance(kv, RawKV):
            w.put(f"kv{i}", kv.raw)
            continue
        w.put(f"kv{i}.keylen", u64(len(kv.key)))
        w.put(f"kv{i}.key", kv.key)
        w.put(f"kv{i}.vtype", i32(kv.vtype))
        if kv.vtype == VT_ARRAY:
            w.put(f"kv{i}.etype", i32(kv.etype))
            w.put(f"kv{i}.count", u64(len(kv.value)))
            if kv.etype == VT_STRING:
                for j, s in enumerate(kv.value):
                    w.put(f"kv{i}.item{j}.len", u64(len(s)))
                    w.put(f"kv{i}.item{j}", s)
            else:
                w.put(f"kv{i}.value", b"".join(kv.value))
        elif kv.vtype == VT_STRING:
            w.put(f"kv{i}.strlen", u64(len(kv.value)))
            w.put(f"kv{i}.value", kv.value)
        else:
            w.put(f"kv{i}.value", kv.value)
    align = align or m.alignment()
    run = 0
    sizes, offs = [], []
    for t in m.tensors:
        nb = nbytes(t.gtype, t.dims) or 0
        off = run if packed or t.offset is None else t.offset
        sizes.append(nb)
        offs.append(off)
        run = align_up(run + nb, align)
    for i, t in enumerate(m.tensors):
        w.put(f"ti{i}.namelen", u64(len(t.name)))
        w.put(f"ti{i}.name", t.name)
        w.put(f"ti{i}.ndims", u32(len(t.dims)))
        for j, d in enumerate(t.dims):
            w.put(f"ti{i}.dim{j}", u64(d))
        w.put(f"ti{i}.gtype", i32(t.gtype))
        w.put(f"ti{i}.offset", u64(offs[i]))
    hdr_end = len(w.buf)
    data_start = align_up(hdr_end, align) if m.tensors else hdr_end
    info = {"data_start": data_start, "align": align, "hdr_end": hdr_end, "data_size": run, "data_written": False}
    if data_start - hdr_end > DATA_CAP:
        return bytes(w.buf), w.fields, info   # file ends inside the padding
    w.put("pad", bytes([pad_byte]) * (data_start - hdr_end))
    if not m.tensors:
        return bytes(w.buf), w.fields, info
    ends = [(o & U64) + s for o, s in zip(offs, sizes)]
    total = max(run, max(ends))
    if not with_data or total > DATA_CAP:
        return bytes(w.buf), w.fields, info
    data = bytearray(total)
    for i, (o, s) in enumerate(zip(offs, sizes)):
        o &= U64
        if fill == "pattern":
            data[o:o + s] = _pattern(i, s)
        w.fields[f"data{i}"] = (data_start + o, s)
    last_end = max(ends)
    info["last_end"] = data_start + last_end
    info["data_end"] = data_start + total
    if not final_pad:
        data = data[:last_end]
    w.buf += data
    info["data_written"] = True
    return bytes(w.buf), w.fields, info


def layout(tensors, kvs=(), align=32, data=None, version=3):
    """A well-formed file from tensors [(name, ne, type)] and encoded KVs
    (bytes from enc_kv & co.): packed offsets, zero data unless `data` (bytes)
    replaces the whole data section."""
    m = Model(version, [RawKV(k) for k in kvs], [Tensor(n, ne, t) for n, ne, t in tensors])
    b, _, info = serialize(m, align=align, with_data=False)
    return b + (b"\0" * info["data_size"] if data is None else data)


def write(m, **knobs):
    """Bytes of model m (serialize() without the field map)."""
    return serialize(m, **knobs)[0]


# ---------------------------------------------------------------- reading (seeds)

class ParseError(Exception):
    pass


class Reader:
    def __init__(self, b):
        self.b, self.pos = b, 0

    def take(self, n):
        if n < 0 or self.pos + n > len(self.b):
            raise ParseError("short")
        r = self.b[self.pos:self.pos + n]
        self.pos += n
        return r

    def u32(self): return struct.unpack("<I", self.take(4))[0]
    def i32(self): return struct.unpack("<i", self.take(4))[0]
    def u64(self): return struct.unpack("<Q", self.take(8))[0]
    def i64(self): return struct.unpack("<q", self.take(8))[0]

    def string(self):
        return self.take(self.u64())

    def value(self, vt):
        if vt == VT_STRING:
            return self.string()
        if vt in VT_SIZE:
            return self.take(VT_SIZE[vt])
        raise ParseError("bad type")


def parse(b):
    """A Model of a (roughly) well-formed GGUF v2/v3 file; ParseError otherwise.
    Lenient: a reader for seeds, not a validator (that is libtfs)."""
    r = Reader(b)
    if r.take(4) != b"GGUF":
        raise ParseError("magic")
    version = r.u32()
    if version not in (2, 3):
        raise ParseError("version")
    nt, nk = r.i64(), r.i64()
    if not (0 <= nt < 100000 and 0 <= nk < 100000):
        raise ParseError("counts")
    m = Model(version)
    for _ in range(nk):
        key = r.string()
        vt = r.i32()
        if vt == VT_ARRAY:
            et, n = r.i32(), r.u64()
            if et == VT_ARRAY or n > len(b):
                raise ParseError("array")
            m.kvs.append(KV(key, vt, [r.value(et) for _ in range(n)], et))
        else:
            m.kvs.append(KV(key, vt, r.value(vt)))
    for _ in range(nt):
        name = r.string()
        nd = r.u32()
        if nd > 4:
            raise ParseError("ndims")
        dims = [r.i64() for _ in range(nd)]
        m.tensors.append(Tensor(name, dims, r.i32(), r.u64()))
    return m


def padded_data_end(b):
    """Where ggml's data mode needs the file to reach: data start (the tensor infos' end padded
    to the alignment) + the sum of every tensor's size padded to the alignment (gguf.cpp reads
    the data section as one blob of that size).  None when b does not parse (parse()) or holds
    no tensor.  Sizes of unusable types count as 0."""
    try:
        m = parse(b)
    except ParseError:
        return None
    if not m.tensors:
        return None
    r = Reader(b)  # the infos' end: parse() again, keeping the position
    r.take(24)
    for _ in m.kvs:
        r.string()
        vt = r.i32()
        if vt == VT_ARRAY:
            et, n = r.i32(), r.u64()
            for _ in range(n):
                r.value(et)
        else:
            r.value(vt)
    for _ in m.tensors:
        r.string()
        r.take(8 * r.u32())
        r.take(12)
    a = m.alignment()
    return align_up(r.pos, a) + sum(align_up(nbytes(t.gtype, t.dims) or 0, a) for t in m.tensors)


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
        blk = GG_BLOCKS.get(t.gtype, (1, 1))[0] or 1
        nd = []
        for j, d in enumerate(t.dims):
            if j == 0:
                nd.append(blk * max(1, min(d // blk, 2 if blk > 1 else 8)) if d > 0 else d)
            else:
                nd.append(min(d, 3))
        t.dims = nd
        t.offset = None
    return s
