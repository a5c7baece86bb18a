"""breakers.py: one hypothesis strategy per rule id that draws a valid model
(tfsgen.strategies) and breaks that rule and only that rule (issue 19).

    BREAKERS[rule_id] = Breaker(fmt, profile, strategy, implies)

strategy draws file bytes; reading them in `profile` must stop at rule_id,
or at one of `implies` (earlier checks the same change trips by
construction, listed per rule).  Used by `tfs mint` as a candidate source
(generators/mint.py --strategies) and checked by generators/test_breakers.py
(ctest test_generator_breakers).  Needs python3-hypothesis.

Every live rule of include/tfs/rules.def has one (84: GG 44, ST 40);
a rule added later without one must be listed in MISSING with the reason
(test_breakers.py fails otherwise).
"""
import json
import struct

from hypothesis import assume
from hypothesis import strategies as st

from . import gguf as G
from . import safetensors as S
from .strategies import gguf_models, safetensors_models
from .tables import GG_REMOVED, GG_TYPE_COUNT, GG_TYPE_ID, GG_TYPES, GG_VALID, ST_DTYPES, VT, VT_ARRAY, VT_STRING

U64 = (1 << 64) - 1


class Breaker:
    __slots__ = ("fmt", "profile", "strategy", "implies")

    def __init__(self, fmt, profile, strategy, implies=()):
        self.fmt, self.profile, self.strategy, self.implies = fmt, profile, strategy, tuple(implies)


BREAKERS = {}


def breaker(rule, fmt, profile="default", implies=()):
    def deco(fn):
        BREAKERS[rule] = Breaker(fmt, profile, st.composite(fn)(), implies)
        return fn
    return deco


def _pos(draw, seq):
    return draw(st.integers(0, len(seq)))


def _fresh(names, base=b"x"):
    n = base
    while n in names:
        n += b"_"
    return n


# ---------------------------------------------------------------- GGUF: fixed header

@breaker("GG001", "gguf")
def gg001(draw):
    return G.write(draw(gguf_models()))[:draw(st.integers(0, 3))]


@breaker("GG002", "gguf")
def gg002(draw):
    magic = draw(st.binary(min_size=4, max_size=4).filter(lambda b: b != b"GGUF"))
    return G.write(draw(gguf_models()), magic=magic)


@breaker("GG003", "gguf")
def gg003(draw):
    return G.write(draw(gguf_models()))[:draw(st.integers(4, 23))]


def _version(draw, v):
    m = draw(gguf_models())
    m.version = v
    return G.write(m)


@breaker("GG010", "gguf")
def gg010(draw):
    return _version(draw, 0)


@breaker("GG011", "gguf")
def gg011(draw):
    return _version(draw, draw(st.integers(1, 0xFFFF)) << 16)


@breaker("GG012", "gguf")
def gg012(draw):
    return _version(draw, 1)


@breaker("GG013", "gguf")
def gg013(draw):
    v = draw(st.integers(4, 0xFFFFFFFF).filter(lambda v: v & 0xFFFF))
    return _version(draw, v)


@breaker("GG020", "gguf")
def gg020(draw):
    n = draw(st.one_of(st.integers((U64 // 344) + 1, U64), st.integers(1 << 63, U64)))
    return G.write(draw(gguf_models()), n_tensors=n)


@breaker("GG021", "gguf")
def gg021(draw):
    n = draw(st.integers((U64 // 88) + 1, U64))
    return G.write(draw(gguf_models()), n_kv=n)


# ---------------------------------------------------------------- GGUF: KV pairs

@breaker("GG110", "gguf")
def gg110(draw):
    m = draw(gguf_models())
    m.kvs.insert(_pos(draw, m.kvs), G.kv_scalar(b"", VT["U8"], 1))
    return G.write(m)


@breaker("GG111", "gguf")
def gg111(draw):
    m = draw(gguf_models())
    assume(m.kvs)
    i = draw(st.integers(0, len(m.kvs) - 1))
    dup = m.kvs[i].copy()
    if dup.key == b"general.alignment":  # keep the layout's alignment
        dup = G.kv_scalar(dup.key, VT["U32"], m.alignment())
    m.kvs.insert(draw(st.integers(i + 1, len(m.kvs))), dup)
    return G.write(m)


@breaker("GG120", "gguf")
def gg120(draw):
    m = draw(gguf_models())
    vt = draw(st.integers(13, (1 << 31) - 1) | st.integers(-(1 << 31), -1))
    key = _fresh({k.key for k in m.kvs}, b"bad_type")
    m.kvs.insert(_pos(draw, m.kvs), G.RawKV(G.gstr(key) + G.i32(vt) + G.u64(0)))
    return G.write(m)


@breaker("GG121", "gguf")
def gg121(draw):
    m = draw(gguf_models())
    et = draw(st.sampled_from([VT_ARRAY]) | st.integers(13, 1000))
    key = _fresh({k.key for k in m.kvs}, b"bad_elem")
    m.kvs.insert(_pos(draw, m.kvs), G.RawKV(G.gstr(key) + G.i32(VT_ARRAY) + G.i32(et) + G.u64(0)))
    return G.write(m)


def _align_kv(m, kv):
    m.kvs = [k for k in m.kvs if k.key != b"general.alignment"]
    m.kvs.append(kv)


@breaker("GG140", "gguf")
def gg140(draw):
    m = draw(gguf_models())
    vt = draw(st.sampled_from([VT["U8"], VT["U16"], VT["I32"], VT["U64"], VT["F32"]]))
    _align_kv(m, G.kv_scalar(b"general.alignment", vt, 32))
    return G.write(m, align=32)


@breaker("GG141", "gguf")
def gg141(draw):
    m = draw(gguf_models())
    a = draw(st.integers(0, 0xFFFFFFFF).filter(lambda a: a == 0 or a & (a - 1)))
    _align_kv(m, G.kv_scalar(b"general.alignment", VT["U32"], a))
    return G.write(m, align=32)


# ---------------------------------------------------------------- GGUF: tensor infos

def _gg_tensor(draw, m, name, dims=None, gtype=None):
    t = G.Tensor(name, dims if dims is not None else [32], gtype if gtype is not None else 0)  # 0: f32
    m.tensors.insert(_pos(draw, m.tensors), t)
    return t


@breaker("GG202", "gguf")
def gg202(draw):
    m = draw(gguf_models())
    n = draw(st.integers(64, 200))
    name = _fresh({t.name for t in m.tensors}, b"n" * n)
    _gg_tensor(draw, m, name)
    return G.write(m)


@breaker("GG203", "gguf")
def gg203(draw):
    m = draw(gguf_models())
    assume(m.tensors)
    i = draw(st.integers(0, len(m.tensors) - 1))
    m.tensors.insert(draw(st.integers(i + 1, len(m.tensors))), m.tensors[i].copy())
    return G.write(m)


@breaker("GG204", "gguf")
def gg204(draw):
    m = draw(gguf_models())
    n = draw(st.integers(5, 16))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"dims"), dims=[1] * n)
    return G.write(m, with_data=False)


@breaker("GG205", "gguf")
def gg205(draw):
    m = draw(gguf_models())
    dims = [1, 1, 1, 1][:draw(st.integers(1, 4))]
    dims[draw(st.integers(0, len(dims) - 1))] = draw(st.integers(1 << 63, U64))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"neg"), dims=dims)
    return G.write(m, with_data=False)


@breaker("GG208", "gguf")
def gg208(draw):
    m = draw(gguf_models())
    gt = draw(st.integers(GG_TYPE_COUNT, (1 << 31) - 1))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"type"), gtype=gt)
    return G.write(m, with_data=False)


@breaker("GG209", "gguf")
def gg209(draw):
    m = draw(gguf_models())
    gt = draw(st.sampled_from(GG_REMOVED))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"removed"), gtype=gt)
    return G.write(m, with_data=False)


@breaker("GG210", "gguf")
def gg210(draw):
    m = draw(gguf_models())
    gt = draw(st.sampled_from([t for t in GG_VALID if GG_TYPES[t][1] > 1]))
    blk = GG_TYPES[gt][1]
    ne0 = draw(st.integers(1, 4 * blk).filter(lambda n: n % blk))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"blk"), dims=[ne0], gtype=gt)
    return G.write(m, with_data=False)


@breaker("GG302", "gguf")
def gg302(draw):
    m = draw(gguf_models())
    assume(m.tensors)
    b, fields, info = G.serialize(m)
    i = draw(st.integers(0, len(m.tensors) - 1))
    off, size = fields["ti%d.offset" % i]
    cur = struct.unpack("<Q", b[off:off + 8])[0]
    new = draw(st.integers(0, 1 << 20).filter(lambda v: v != cur))
    return b[:off] + G.u64(new) + b[off + 8:]


@breaker("GG304", "gguf")
def gg304(draw):
    m = draw(gguf_models())
    b, fields, info = G.serialize(m)
    assume(m.tensors and info.get("data_written") and info["last_end"] > info["data_start"])
    cut = draw(st.integers(info["data_start"], info["last_end"] - 1))
    return b[:max(cut, info["hdr_end"])]


def _cut_in(draw, m, prefixes):
    """The file of m cut strictly inside one of the fields named by prefixes."""
    b, fields, info = G.serialize(m)
    spots = [(o, n) for k, (o, n) in fields.items() if k.split(".")[-1] in prefixes and n > 1]
    assume(spots)
    o, n = draw(st.sampled_from(sorted(spots)))
    return b[:o + draw(st.integers(1, n - 1))]


@breaker("GG101", "gguf")
def gg101(draw):
    m = draw(gguf_models())
    n = draw(st.integers((1 << 30) + 1, U64))
    m.kvs.insert(_pos(draw, m.kvs), G.RawKV(G.u64(n) + b"k"))
    return G.write(m)


@breaker("GG102", "gguf")
def gg102(draw):
    m = draw(gguf_models())
    b = G.write(m, with_data=False)
    n = draw(st.integers(len(b) + 64, 1 << 30))
    m.kvs.insert(_pos(draw, m.kvs), G.RawKV(G.u64(n) + b"k"))
    return G.write(m, with_data=False)


@breaker("GG103", "gguf")
def gg103(draw):
    m = draw(gguf_models())
    assume(m.kvs)
    return _cut_in(draw, m, ("keylen", "vtype", "etype"))


@breaker("GG130", "gguf")
def gg130(draw):
    m = draw(gguf_models())
    n = draw(st.integers((1 << 30) + 1, U64))
    key = _fresh({k.key for k in m.kvs}, b"arr")
    m.kvs.insert(_pos(draw, m.kvs), G.RawKV(G.gstr(key) + G.i32(VT_ARRAY) + G.i32(VT["U8"]) + G.u64(n)))
    return G.write(m)


@breaker("GG201", "gguf")
def gg201(draw):
    m = draw(gguf_models())
    assume(m.tensors)
    return _cut_in(draw, m, ("namelen", "ndims", "gtype", "offset") + tuple("dim%d" % j for j in range(4)))


@breaker("GG206", "gguf")
def gg206(draw):
    m = draw(gguf_models())
    # ggml's count test fires and the product modulo 2^64 lands in
    # (0, INT64_MAX] (else it is GG207/GG211): 5 x b in (2^64, 2^64 + 2^63)
    b = draw(st.integers((1 << 62) - (1 << 58), (1 << 62) + (1 << 59)))
    dims = [5, b] if draw(st.booleans()) else [5, 1, b]
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"big"), dims=dims)
    return G.write(m, with_data=False)


@breaker("GG211", "gguf")
def gg211(draw):
    m = draw(gguf_models())
    ne = draw(st.integers((1 << 61) + 1, (1 << 62)))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"huge"), dims=[ne], gtype=GG_TYPE_ID["f64"])
    return G.write(m, with_data=False)


@breaker("GG301", "gguf")
def gg301(draw):
    m = draw(gguf_models())
    b, fields, info = G.serialize(m)
    assume(m.tensors and info["data_start"] > info["hdr_end"])
    return b[:draw(st.integers(info["hdr_end"], info["data_start"] - 1))]


@breaker("GG303", "gguf")
def gg303(draw):
    m = draw(gguf_models())
    names = {t.name for t in m.tensors}
    a = _fresh(names, b"half_a")
    for name in (a, _fresh(names | {a}, b"half_b")):
        m.tensors.append(G.Tensor(name, [draw(st.integers(1 << 61, (1 << 62) - 1))], 0))
    return G.write(m, with_data=False)


@breaker("GG207", "gguf")
def gg207(draw):
    m = draw(gguf_models())
    k = draw(st.integers(2, 61))
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"wrap"), dims=[1 << k, 1 << (64 - k)])
    return G.write(m, with_data=False)


@breaker("GG212", "gguf")
def gg212(draw):
    m = draw(gguf_models())
    gt = draw(st.sampled_from([t for t in GG_VALID if GG_TYPES[t][1] > 1 and GG_TYPES[t][2] >= 2]))
    blk, ts = GG_TYPES[gt][1], GG_TYPES[gt][2]
    lo = (U64 // ts) // blk + 1
    k = draw(st.integers(lo, lo + 1000))
    assume(k * blk <= (1 << 63) - 1)
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"blkwrap"), dims=[k * blk], gtype=gt)
    return G.write(m, with_data=False)


@breaker("GG305", "gguf", implies=("GG303",))
def gg305(draw):
    m = draw(gguf_models())
    ne = (1 << 62) - draw(st.integers(1, 7))  # f32: 2^64 - 4k bytes, padded to the alignment wraps
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"padwrap"), dims=[ne], gtype=0)
    return G.write(m, with_data=False)


# ---------------------------------------------------------------- GGUF: strict profile

@breaker("GG501", "gguf", "strict")
def gg501(draw):
    m = draw(gguf_models())
    key = _fresh({k.key for k in m.kvs}, b"flag")
    m.kvs.insert(_pos(draw, m.kvs), G.KV(key, VT["BOOL"], bytes([draw(st.integers(2, 255))])))
    return G.write(m)


@breaker("GG502", "gguf", "strict")
def gg502(draw):
    m = draw(gguf_models())
    a = draw(st.sampled_from([1, 2, 4]))
    _align_kv(m, G.kv_scalar(b"general.alignment", VT["U32"], a))
    return G.write(m)


@breaker("GG503", "gguf", "strict")
def gg503(draw):
    m = draw(gguf_models())
    m.kvs, m.tensors = m.kvs[:1], m.tensors[:1]  # small: the padding is the point
    b, fields, info = G.serialize(m, pad_byte=draw(st.integers(1, 255)))
    assume(m.tensors and info["data_start"] > info["hdr_end"])
    return b


def _strict_key(draw, key):
    m = draw(gguf_models())
    m.kvs.insert(_pos(draw, m.kvs), G.kv_scalar(key, VT["U8"], 1))
    return G.write(m)


@breaker("GG504", "gguf", "strict")
def gg504(draw):
    bad = draw(st.sampled_from([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"a\x80"]))
    return _strict_key(draw, b"k" + bad)


@breaker("GG505", "gguf", "strict")
def gg505(draw):
    return _strict_key(draw, b"k" * draw(st.integers(65536, 66000)))


@breaker("GG506", "gguf", "strict")
def gg506(draw):
    key = draw(st.sampled_from([b"Abc", b"a..b", b".a", b"a.", b"a-b", b"a b", b"A.b"]))
    return _strict_key(draw, key)


@breaker("GG507", "gguf", "strict")
def gg507(draw):
    m = draw(gguf_models())
    key = _fresh({k.key for k in m.kvs}, b"text")
    m.kvs.insert(_pos(draw, m.kvs), G.KV(key, VT_STRING, b"a\xff" + draw(st.binary(max_size=4))))
    return G.write(m)


@breaker("GG508", "gguf", "strict")
def gg508(draw):
    m = draw(gguf_models())
    _gg_tensor(draw, m, _fresh({t.name for t in m.tensors}, b"t\xff"))
    return G.write(m)


# ---------------------------------------------------------------- safetensors

def _st_entries(m):
    """[(name, dtype, shape, [begin, end])] packed, and the data size."""
    out, run = [], 0
    for name, dtype, shape in m.tensors:
        n = S.nbytes(dtype, shape)
        out.append([name, dtype, list(shape), [run, run + n]])
        run += n
    return out, run


def _st_text(ents, meta, raw_first=None, raw_entry=None):
    """The header JSON of entries (raw_entry: {name: raw JSON of its value})."""
    parts = []
    if raw_first:
        parts.append(raw_first)
    if meta is not None:
        parts.append('"__metadata__":' + json.dumps(meta, ensure_ascii=False, separators=(",", ":")))
    for name, dtype, shape, offs in ents:
        val = (raw_entry or {}).get(name) or json.dumps({"dtype": dtype, "shape": shape, "data_offsets": offs},
                                                          separators=(",", ":"))
        parts.append(json.dumps(name, ensure_ascii=False) + ":" + val)
    return "{" + ",".join(parts) + "}"


def _st_file(text, data_size, pad=b" "):
    t = text.encode("utf-8") if isinstance(text, str) else text
    t += pad * (-len(t) % 8)
    return struct.pack("<Q", len(t)) + t + bytes(data_size)


def _model(draw, need_tensor=False):
    m = draw(safetensors_models())
    if need_tensor:
        assume(m.tensors)
    ents, run = _st_entries(m)
    return m, ents, run


@breaker("ST001", "safetensors")
def st001(draw):
    m, ents, run = _model(draw)
    return _st_file(_st_text(ents, m.metadata), run)[:draw(st.integers(0, 7))]


@breaker("ST002", "safetensors")
def st002(draw):
    m, ents, run = _model(draw)
    b = _st_file(_st_text(ents, m.metadata), run)
    return struct.pack("<Q", draw(st.integers(100_000_001, U64))) + b[8:]


@breaker("ST003", "safetensors")
def st003(draw):
    m, ents, run = _model(draw)
    b = _st_file(_st_text(ents, m.metadata), run)
    return struct.pack("<Q", len(b) - 8 + draw(st.integers(1, 1000))) + b[8:]


def _st_raw(draw, text_bytes, run):
    return struct.pack("<Q", len(text_bytes)) + text_bytes + bytes(run)


@breaker("ST101", "safetensors")
def st101(draw):
    m, ents, run = _model(draw)
    t = _st_text(ents, m.metadata).encode("utf-8")
    bad = draw(st.sampled_from([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\x80"]))
    return _st_raw(draw, t + bad, run)


@breaker("ST110", "safetensors")
def st110(draw):
    m, ents, run = _model(draw)
    t = _st_text(ents, m.metadata)
    return _st_file("{" + draw(st.sampled_from(["@", "x", "]", "1", ":"])) + t[1:], run)


@breaker("ST111", "safetensors")
def st111(draw):
    m, ents, run = _model(draw)
    t = _st_text(ents, m.metadata)
    return _st_file(t[:draw(st.integers(1, len(t) - 1))].encode("utf-8", "ignore"), run)


@breaker("ST112", "safetensors")
def st112(draw):
    m, ents, run = _model(draw)
    t = _st_text(ents, m.metadata)
    return _st_file(t + draw(st.sampled_from(["x", "{}", "0", ",", "]"])), run)


def _prefix(t, member):
    return "{" + member + ("," + t[1:] if t != "{}" else "}")


@breaker("ST113", "safetensors")
def st113(draw):
    m, ents, run = _model(draw)
    depth = draw(st.integers(127, 200))  # + the outer object: 128 levels or more
    return _st_file(_prefix(_st_text(ents, m.metadata), '"deep":' + "[" * depth + "]" * depth), run)


@breaker("ST114", "safetensors")
def st114(draw):
    m, ents, run = _model(draw)
    c = chr(draw(st.integers(0, 0x1F)))
    return _st_file(_prefix(_st_text(ents, m.metadata), '"a' + c + 'b":0'), run)


@breaker("ST115", "safetensors")
def st115(draw):
    m, ents, run = _model(draw)
    e = draw(st.sampled_from(["\\q", "\\x41", "\\U0041", "\\'", "\\a"]))
    return _st_file(_prefix(_st_text(ents, m.metadata), '"a' + e + '":0'), run)


@breaker("ST116", "safetensors")
def st116(draw):
    m, ents, run = _model(draw)
    u = draw(st.integers(0xD800, 0xDFFF))
    return _st_file(_prefix(_st_text(ents, m.metadata), '"a\\u%04x":0' % u), run)


@breaker("ST117", "safetensors")
def st117(draw):
    m, ents, run = _model(draw)
    v = draw(st.sampled_from(["1e400", "-1e400", "1" + "0" * 400 + ".0", "1E999"]))
    return _st_file(_prefix(_st_text(ents, m.metadata), '"num":' + v), run)


@breaker("ST118", "safetensors")
def st118(draw):
    m, ents, run = _model(draw)
    return _st_file(draw(st.sampled_from(["[]", "1", '"x"', "null", "true"])), run)


def _entry(draw, raw):
    m, ents, run = _model(draw, need_tensor=True)
    i = draw(st.integers(0, len(ents) - 1))
    return _st_file(_st_text(ents, m.metadata, raw_entry={ents[i][0]: raw(ents[i])}), run)


@breaker("ST201", "safetensors")
def st201(draw):
    v = draw(st.sampled_from(["5", '"x"', "null", "true", "-1", "1.5"]))
    return _entry(draw, lambda e: v)


@breaker("ST204", "safetensors")
def st204(draw):
    k = draw(st.sampled_from([0, 1, 2, 4, 5]))
    return _entry(draw, lambda e: json.dumps(([e[1], e[2], e[3]] + [0, 0])[:k], separators=(",", ":")))


@breaker("ST211", "safetensors")
def st211(draw):
    form = draw(st.sampled_from(['5', 'null', '["F32"]', '{}', '{"%s":1}', '{"%s":null,"F16":null}']))
    return _entry(draw, lambda e: '{"dtype":%s,"shape":%s,"data_offsets":%s}' % (
        form.replace("%s", e[1]), json.dumps(e[2]), json.dumps(e[3])))


@breaker("ST222", "safetensors")
def st222(draw):
    bad = draw(st.sampled_from(["-1", "1.5", "1e2", "18446744073709551616", "-0", "2.0"]))
    return _entry(draw, lambda e: '{"dtype":"%s","shape":[%s],"data_offsets":%s}' % (
        e[1], bad, json.dumps(e[3])))


@breaker("ST302", "safetensors")
def st302(draw):
    m, ents, run = _model(draw, need_tensor=True)
    assume(ents[-1][3][1] > 0)
    b = ents[-1][3][0]
    ents[-1][3] = [b, draw(st.integers(0, b - 1))] if b > 0 else [b, b]
    assume(ents[-1][3][1] < ents[-1][3][0])
    return _st_file(_st_text(ents, m.metadata), run)


@breaker("ST202", "safetensors")
def st202(draw):
    drop = draw(st.sampled_from(["dtype", "shape", "data_offsets"]))

    def raw(e):
        d = {"dtype": e[1], "shape": e[2], "data_offsets": e[3]}
        del d[drop]
        return json.dumps(d, separators=(",", ":"))
    return _entry(draw, raw)


@breaker("ST203", "safetensors")
def st203(draw):
    rep = draw(st.sampled_from(["dtype", "shape", "data_offsets"]))

    def raw(e):
        s = json.dumps({"dtype": e[1], "shape": e[2], "data_offsets": e[3]}, separators=(",", ":"))
        return s[:-1] + ',"%s":%s}' % (rep, json.dumps({"dtype": e[1], "shape": e[2], "data_offsets": e[3]}[rep],
                                                       separators=(",", ":")))
    return _entry(draw, raw)


@breaker("ST210", "safetensors")
def st210(draw):
    known = {d for d, _ in ST_DTYPES}
    dt = draw(st.text("ABCDEFGIUX0123456789_", min_size=1, max_size=8).filter(lambda s: s not in known))
    return _entry(draw, lambda e: json.dumps({"dtype": dt, "shape": e[2], "data_offsets": e[3]},
                                             separators=(",", ":")))


@breaker("ST220", "safetensors")
def st220(draw):
    sh = draw(st.sampled_from(['"x"', "{}", "[true]", '["1"]', "null", "[[1]]"]))
    return _entry(draw, lambda e: '{"dtype":"%s","shape":%s,"data_offsets":%s}' % (e[1], sh, json.dumps(e[3])))


@breaker("ST221", "safetensors")
def st221(draw):
    form = draw(st.sampled_from(["[%d]", "[%d,%d,%d]", '"x"', "{}", "null", "[]"]))

    def raw(e):
        b, n = e[3]
        do = form % ((b,) if form == "[%d]" else (b, n, n) if "%d,%d,%d" in form else ())
        return '{"dtype":"%s","shape":%s,"data_offsets":%s}' % (e[1], json.dumps(e[2]), do)
    return _entry(draw, raw)


@breaker("ST301", "safetensors")
def st301(draw):
    m, ents, run = _model(draw, need_tensor=True)
    d = draw(st.integers(1, 64))
    i = draw(st.integers(0, len(ents) - 1))
    for e in ents[i:]:
        e[3] = [e[3][0] + d, e[3][1] + d]
    return _st_file(_st_text(ents, m.metadata), run + d)


@breaker("ST303", "safetensors")
def st303(draw):
    m, ents, run = _model(draw, need_tensor=True)
    i = draw(st.integers(0, len(ents) - 1))
    ents[i][2] = [1 << 32, 1 << 32] + draw(st.lists(st.integers(1, 9), max_size=2))
    return _st_file(_st_text(ents, m.metadata), run)


@breaker("ST304", "safetensors", implies=("ST305",))
def st304(draw):
    m, ents, run = _model(draw, need_tensor=True)
    i = draw(st.integers(0, len(ents) - 1))
    dt, bits = draw(st.sampled_from([(d, b) for d, b in ST_DTYPES if b >= 8]))
    ents[i][1] = dt
    ents[i][2] = [draw(st.integers((U64 // bits) + 1, U64))]
    return _st_file(_st_text(ents, m.metadata), run)


@breaker("ST305", "safetensors")
def st305(draw):
    m, ents, run = _model(draw, need_tensor=True)
    i = draw(st.integers(0, len(ents) - 1))
    dt, bits = draw(st.sampled_from([(d, b) for d, b in ST_DTYPES if b % 8]))
    ents[i][1] = dt
    ents[i][2] = [draw(st.integers(0, 50).map(lambda k: 2 * k + 1))]
    return _st_file(_st_text(ents, m.metadata), run)


@breaker("ST306", "safetensors")
def st306(draw):
    m, ents, run = _model(draw, need_tensor=True)
    d = draw(st.integers(1, 64))
    i = draw(st.integers(0, len(ents) - 1))
    ents[i][3][1] += d
    for e in ents[i + 1:]:
        e[3] = [e[3][0] + d, e[3][1] + d]
    return _st_file(_st_text(ents, m.metadata), run + d)


@breaker("ST307", "safetensors")
def st307(draw):
    m, ents, run = _model(draw)
    return _st_file(_st_text(ents, m.metadata), run) + bytes(draw(st.integers(1, 64)))


@breaker("ST308", "safetensors")
def st308(draw):
    m, ents, run = _model(draw)
    assume(run > 0)
    return _st_file(_st_text(ents, m.metadata), run)[:-draw(st.integers(1, run))]


@breaker("ST401", "safetensors")
def st401(draw):
    m, ents, run = _model(draw)
    v = draw(st.sampled_from(["5", '"x"', "[]", "true", '["a"]']))
    return _st_file(_prefix(_st_text(ents, None), '"__metadata__":' + v), run)


@breaker("ST402", "safetensors")
def st402(draw):
    m, ents, run = _model(draw)
    v = draw(st.sampled_from(["5", "null", "[]", "{}", "true"]))
    return _st_file(_prefix(_st_text(ents, None), '"__metadata__":{"k":%s}' % v), run)


@breaker("ST403", "safetensors")
def st403(draw):
    m, ents, run = _model(draw)
    return _st_file(_prefix(_st_text(ents, m.metadata if m.metadata is not None else {}), '"__metadata__":{}'), run)


# ---------------------------------------------------------------- safetensors: strict profile

@breaker("ST501", "safetensors", "strict")
def st501(draw):
    m, ents, run = _model(draw, need_tensor=True)
    i = draw(st.integers(0, len(ents) - 1))
    e = ents[i]
    dup = [e[0], e[1], e[2], list(e[3])]  # the same entry again: the layout stays packed
    return _st_file(_st_text(ents[:i + 1] + [dup] + ents[i + 1:], m.metadata), run)


@breaker("ST502", "safetensors", "strict")
def st502(draw):
    m, ents, run = _model(draw)
    ws = draw(st.sampled_from([" ", "\n", "\t", "\r", "  "]))
    return _st_file(ws + _st_text(ents, m.metadata), run)


@breaker("ST503", "safetensors", "strict")
def st503(draw):
    m, ents, run = _model(draw)
    k = json.dumps(draw(st.text("abc", min_size=1, max_size=3)))
    return _st_file(_prefix(_st_text(ents, None), '"__metadata__":{%s:"1",%s:"2"}' % (k, k)), run)


@breaker("ST504", "safetensors", "strict")
def st504(draw):
    f = draw(st.sampled_from(["extra", "Dtype", "offsets", "x"]))
    return _entry(draw, lambda e: '{"dtype":"%s","shape":%s,"data_offsets":%s,"%s":1}' % (
        e[1], json.dumps(e[2]), json.dumps(e[3]), f))


@breaker("ST505", "safetensors", "strict")
def st505(draw):
    return _entry(draw, lambda e: json.dumps([e[1], e[2], e[3]], separators=(",", ":")))


@breaker("ST506", "safetensors", "strict")
def st506(draw):
    return _entry(draw, lambda e: '{"dtype":{"%s":null},"shape":%s,"data_offsets":%s}' % (
        e[1], json.dumps(e[2]), json.dumps(e[3])))


@breaker("ST507", "safetensors", "strict")
def st507(draw):
    m, ents, run = _model(draw)
    t = _st_text(ents, m.metadata).encode("utf-8")
    pad = draw(st.sampled_from([b"\n", b"\t", b"\r"]))
    n = 8 - len(t) % 8 if len(t) % 8 else 8
    return _st_raw(draw, t + pad * n, run)


MISSING = {}  # rule id -> why it has no strategy yet
