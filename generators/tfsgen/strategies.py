"""strategies.py: hypothesis strategies of valid GGUF and safetensors models
(python3-hypothesis, Debian), and the content `tfs dump --json` must print
for each (the expected-content form of design.md).

    gguf_models()         -> tfsgen.gguf.Model: v2/v3, every value type and
                             array kind, every usable ggml type, alignment a
                             power of two >= 8, zero-element and n_dims 0..4 tensors
    safetensors_models()  -> tfsgen.safetensors.Model: every dtype (shapes whose
                             bit count is whole bytes), scalars, zero-size
                             tensors, __metadata__ absent / {} / string map
    gguf_expected(m), safetensors_expected(m): what the parser must report.

Every model is valid in the default and the strict profile (bools 0/1,
UTF-8 keys, zero padding, alignment a multiple of 8).  Shapes stay small so
that files stay small.
"""
import struct

from hypothesis import strategies as st

from . import gguf as G
from . import safetensors as S
from .tables import GG_TYPES, GG_VALID, ST_DTYPES, VT, VT_ARRAY, VT_NAME, VT_STRING, VT_STRUCT

_INT_RANGE = {"U8": (0, 2**8 - 1), "I8": (-2**7, 2**7 - 1), "U16": (0, 2**16 - 1), "I16": (-2**15, 2**15 - 1),
              "U32": (0, 2**32 - 1), "I32": (-2**31, 2**31 - 1), "U64": (0, 2**64 - 1), "I64": (-2**63, 2**63 - 1)}
_SYM = {i: s for s, i in VT.items()}

_key_text = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFF, blacklist_categories=("Cs",)),
                    min_size=1, max_size=24)


def _scalar(vt):
    """A strategy of the raw bytes of one value of fixed-size type vt."""
    sym = _SYM[vt]
    if sym in _INT_RANGE:
        lo, hi = _INT_RANGE[sym]
        return st.integers(lo, hi).map(lambda v: struct.pack(VT_STRUCT[vt], v))
    if sym == "BOOL":
        return st.sampled_from([b"\0", b"\1"])
    if sym == "F32":
        return st.floats(width=32, allow_nan=False).map(lambda v: struct.pack("<f", v))
    return st.floats(allow_nan=False).map(lambda v: struct.pack("<d", v))


_string = st.text(max_size=40).map(lambda s: s.encode("utf-8"))
_fixed = [t for t in range(len(VT_NAME)) if t not in (VT_STRING, VT_ARRAY)]


@st.composite
def gguf_kv(draw, key):
    vt = draw(st.sampled_from(list(range(len(VT_NAME)))))
    if vt == VT_STRING:
        return G.KV(key, vt, draw(_string))
    if vt == VT_ARRAY:
        et = draw(st.sampled_from(_fixed + [VT_STRING]))
        elem = _string if et == VT_STRING else _scalar(et)
        return G.KV(key, vt, draw(st.lists(elem, max_size=6)), et)
    return G.KV(key, vt, draw(_scalar(vt)))


@st.composite
def gguf_tensor(draw, name):
    gtype = draw(st.sampled_from(GG_VALID))
    blk = GG_TYPES[gtype][1]
    n_dims = draw(st.integers(0, 4))
    if n_dims == 0:
        if blk != 1:
            n_dims = 1  # a scalar has ne[0] = 1: only block size 1 types
        else:
            return G.Tensor(name, [], gtype)
    dims = [blk * draw(st.integers(0, 3))] + [draw(st.integers(0, 3)) for _ in range(n_dims - 1)]
    return G.Tensor(name, dims, gtype)


@st.composite
def gguf_models(draw):
    keys = draw(st.lists(_key_text, max_size=8, unique=True))
    kvs = [draw(gguf_kv(k.encode("utf-8"))) for k in keys if k != "general.alignment"]
    if draw(st.booleans()):
        kvs.insert(draw(st.integers(0, len(kvs))),
                   G.kv_scalar(b"general.alignment", VT["U32"], draw(st.sampled_from([8, 16, 32, 64, 128, 256]))))
    names = draw(st.lists(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=20),
                          max_size=6, unique=True))
    tensors = [draw(gguf_tensor(n.encode())) for n in names]
    return G.Model(draw(st.sampled_from([2, 3])), kvs, tensors)


def _gguf_value(vt, raw):
    sym = _SYM[vt]
    if sym == "STRING":
        return raw.decode("utf-8"), None
    v = struct.unpack(VT_STRUCT[vt], raw)[0]
    if sym == "BOOL":
        return bool(v), None
    if sym in ("U64", "I64"):
        return str(v), None
    if sym == "F32":
        return None, "0x%08x" % struct.unpack("<I", raw)[0]
    if sym == "F64":
        return None, "0x%016x" % struct.unpack("<Q", raw)[0]
    return v, None


def gguf_expected(m):
    """The dump form of model m (floats compared by bits only: value None)."""
    align = m.alignment()
    tensors, run = [], 0
    for t in m.tensors:
        nb = G.nbytes(t.gtype, t.dims)
        tensors.append({"name": t.name.decode(), "type": GG_TYPES[t.gtype][0], "shape": list(t.dims),
                        "offsets": [run, run + nb]})
        run = G.align_up(run + nb, align)
    kvs = []
    for kv in m.kvs:
        e = {"key": kv.key.decode("utf-8"), "type": VT_NAME[kv.vtype]}
        if kv.vtype == VT_ARRAY:
            e["elem_type"] = VT_NAME[kv.etype]
            vals = [_gguf_value(kv.etype, x) for x in kv.value]
            e["value"] = [v for v, _ in vals]
            if any(b is not None for _, b in vals):
                e["bits"] = [b for _, b in vals]
        else:
            e["value"], bits = _gguf_value(kv.vtype, kv.value)
            if bits is not None:
                e["bits"] = bits
        kvs.append(e)
    return {"format": "gguf", "version": m.version, "alignment": align, "tensors": tensors, "kv": kvs}


# ---------------------------------------------------------------- safetensors

@st.composite
def st_tensor(draw, name):
    dtype, bits = draw(st.sampled_from(ST_DTYPES))
    shape = draw(st.lists(st.integers(0, 5), max_size=4))
    n = 1
    for d in shape:
        n *= d
    if (n * bits) % 8:
        shape = shape + [8]  # whole bytes for 4- and 6-bit dtypes
    return (name, dtype, shape)


@st.composite
def safetensors_models(draw):
    names = draw(st.lists(_key_text.filter(lambda s: s != "__metadata__"), max_size=8, unique=True))
    tensors = [draw(st_tensor(n)) for n in names]
    metadata = draw(st.one_of(st.none(), st.dictionaries(_key_text, st.text(max_size=20), max_size=4)))
    return S.Model(tensors, metadata)


def safetensors_expected(m):
    run, tensors = 0, []
    for name, dtype, shape in m.tensors:
        nb = S.nbytes(dtype, shape)
        tensors.append({"name": name, "type": dtype, "shape": list(shape), "offsets": [run, run + nb]})
        run += nb
    kv = [{"key": k, "type": "string", "value": v} for k, v in (m.metadata or {}).items()]
    return {"format": "safetensors", "tensors": tensors, "kv": kv}
