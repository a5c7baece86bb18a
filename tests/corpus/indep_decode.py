"""indep_decode.py: a decoder of safetensors and GGUF files that shares no code and no tables
with libtfs (nothing from include/tfs/*.def or parsers/), for the tests that check libtfs's
output and the corpus's expected contents against it.

Tables written here, deliberately retyped (house rule: type tables come from the .def files
except in deliberately independent test decoders):
- GGML_TYPES: ggml type id -> (name, block size, bytes per block), from the GGUF spec
  (../shared/spec/gguf.md, "ggml types"); checked against ggml's own ggml_type_size /
  ggml_blck_size by tests/corpus/test_ggml_type_table.py;
- GGUF_VALUE_TYPES: the GGUF value types (spec: "GGUF value types");
- ST_DTYPE_BITS: the Rust safetensors crate's Dtype list and Dtype::bitsize (crate commit
  24b0b28, safetensors/src/tensor.rs).

decode_gguf(data) and decode_st(data) return the file's content in the expected-content form of
../shared/design.md (format, version, alignment, tensors, kv) with docs/conform.md's data_offset (files with tensors) and
tensor file_offset, built only from the bytes.  They
assume a file the canonical readers accept and raise on anything else.
"""
import json
import math
import struct

# id: (name, block size, bytes per block); ids 4, 5, 31-33, 36-38 were removed from ggml.
GGML_TYPES = {
    0: ("f32", 1, 4), 1: ("f16", 1, 2), 2: ("q4_0", 32, 18), 3: ("q4_1", 32, 20),
    6: ("q5_0", 32, 22), 7: ("q5_1", 32, 24), 8: ("q8_0", 32, 34), 9: ("q8_1", 32, 36),
    10: ("q2_K", 256, 84), 11: ("q3_K", 256, 110), 12: ("q4_K", 256, 144), 13: ("q5_K", 256, 176),
    14: ("q6_K", 256, 210), 15: ("q8_K", 256, 292), 16: ("iq2_xxs", 256, 66), 17: ("iq2_xs", 256, 74),
    18: ("iq3_xxs", 256, 98), 19: ("iq1_s", 256, 50), 20: ("iq4_nl", 32, 18), 21: ("iq3_s", 256, 110),
    22: ("iq2_s", 256, 82), 23: ("iq4_xs", 256, 136), 24: ("i8", 1, 1), 25: ("i16", 1, 2),
    26: ("i32", 1, 4), 27: ("i64", 1, 8), 28: ("f64", 1, 8), 29: ("iq1_m", 256, 56), 30: ("bf16", 1, 2),
    34: ("tq1_0", 256, 54), 35: ("tq2_0", 256, 66), 39: ("mxfp4", 32, 17), 40: ("nvfp4", 64, 36),
    41: ("q1_0", 128, 18), 42: ("q2_0", 64, 18),
}
GGML_TYPE_COUNT = 43
GGML_REMOVED = (4, 5, 31, 32, 33, 36, 37, 38)

# value type id: (name, struct format or None for string/array)
GGUF_VALUE_TYPES = {
    0: ("u8", "<B"), 1: ("i8", "<b"), 2: ("u16", "<H"), 3: ("i16", "<h"), 4: ("u32", "<I"),
    5: ("i32", "<i"), 6: ("f32", "<f"), 7: ("bool", "<B"), 8: ("string", None), 9: ("array", None),
    10: ("u64", "<Q"), 11: ("i64", "<q"), 12: ("f64", "<d"),
}

ST_DTYPE_BITS = {
    "BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8,
    "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16,
    "I32": 32, "U32": 32, "F32": 32, "C64": 64, "F64": 64, "I64": 64, "U64": 64,
}


class Undecodable(Exception):
    """The bytes are not a file the decoder can read as valid."""


def text(b):
    """The bytes as text, or None when they are not UTF-8 (not compared exactly)."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _scalar(vt, raw):
    """(value, bits) of one GGUF scalar in the expected-content form."""
    name, fmt = GGUF_VALUE_TYPES[vt]
    v, = struct.unpack(fmt, raw)
    if name in ("u64", "i64"):
        return str(v), None
    if name == "bool":
        return v != 0, None
    if name == "f32":
        return (None if math.isnan(v) or math.isinf(v) else v), "0x%08x" % struct.unpack("<I", raw)[0]
    if name == "f64":
        return (None if math.isnan(v) or math.isinf(v) else v), "0x%016x" % struct.unpack("<Q", raw)[0]
    return v, None


def decode_gguf(data):
    """A GGUF v2/v3 little-endian file's content: {format, version, alignment, data_offset, tensors,
    kv}.
    kv values: scalars as in the expected-content form, strings as text (None if not UTF-8),
    arrays as {"elem_type", "value", "bits"?}; tensor offsets from the spec's type table."""
    return _decode_gguf(data)[0]


def data_offset(fmt, data):
    """File offset of the data section (bytes): GGUF, the end of the tensor infos rounded up
    to the alignment (spec: "padding"); safetensors, 8 + the header size."""
    if fmt == "safetensors":
        return 8 + struct.unpack_from("<Q", data, 0)[0]
    return _decode_gguf(data)[1]


def _decode_gguf(data):
    """(content, data section start: the end of the tensor infos padded to the alignment) of a
    GGUF file (decode_gguf)."""
    off = 0

    def take(fmt):
        nonlocal off
        vals = struct.unpack_from(fmt, data, off)
        off += struct.calcsize(fmt)
        return vals

    def string():
        nonlocal off
        n, = take("<Q")
        if off + n > len(data):
            raise Undecodable("string past the end")
        s = data[off: off + n]
        off += n
        return s

    if data[:4] != b"GGUF":
        raise Undecodable("magic")
    version, = take("<4xI")
    if version not in (2, 3):
        raise Undecodable("version %d" % version)
    n_tensors, n_kv = take("<QQ")
    kv = []
    for _ in range(n_kv):
        key = text(string())
        vt, = take("<I")
        name, fmt = GGUF_VALUE_TYPES[vt]
        item = {"key": key, "type": name}
        if name == "array":
            et, count = take("<IQ")
            ename, efmt = GGUF_VALUE_TYPES[et]
            if ename == "array":
                raise Undecodable("nested array")
            vals, bits = [], []
            for _ in range(count):
                if ename == "string":
                    vals.append(text(string()))
                else:
                    size = struct.calcsize(efmt)
                    v, b = _scalar(et, data[off: off + size])
                    off += size
                    vals.append(v)
                    bits.append(b)
            item["elem_type"] = ename
            item["value"] = vals
            if ename in ("f32", "f64"):
                item["bits"] = bits
        elif name == "string":
            item["value"] = text(string())
        else:
            size = struct.calcsize(fmt)
            item["value"], b = _scalar(vt, data[off: off + size])
            off += size
            if b is not None:
                item["bits"] = b
        kv.append(item)
    # ggml looks the key up as a C string (strcmp: the bytes before a NUL) and takes the first
    # match; a first match that is not u32 makes the file invalid, so a valid file has u32 there.
    alignment = 32
    for item in kv:
        if item["key"] is not None and item["key"].split("\0", 1)[0] == "general.alignment":
            if item["type"] == "u32":
                alignment = item["value"]
            break
    tensors = []
    for _ in range(n_tensors):
        name = text(string())
        n_dims, = take("<I")
        ne = list(take("<%dq" % n_dims))
        gtype, offset = take("<IQ")
        tname, block, size = GGML_TYPES[gtype]
        n_rows = 1
        for d in ne[1:]:
            n_rows *= d
        first = ne[0] if ne else 1
        if first % block:
            raise Undecodable("ne[0] not a multiple of the block size")
        nbytes = first // block * size * n_rows
        tensors.append({"name": name, "type": tname, "shape": ne, "offsets": [offset, offset + nbytes]})
    # the data section starts at the end of the tensor infos rounded up to the alignment (spec:
    # "padding"); a tensor's file offset past 2^64 - 1 is None (header-only files may declare one)
    start = (off + alignment - 1) // alignment * alignment
    for t in tensors:
        t["file_offset"] = start + t["offsets"][0] if start + t["offsets"][0] < 2**64 else None
    content = {"format": "gguf", "version": version, "alignment": alignment, "tensors": tensors, "kv": kv}
    if tensors:  # with none, ggml does not pad (docs/conform.md): no data_offset to compare
        content["data_offset"] = start
    return content, start


def _pairs_last_wins(pairs):
    return dict(pairs)


def decode_st(data):
    """A safetensors file's content: {format, version None, alignment None, data_offset, tensors,
    kv}.
    Tensors in header order; each entry's byte size checked against the crate's dtype sizes."""
    if len(data) < 8:
        raise Undecodable("short")
    n, = struct.unpack_from("<Q", data, 0)
    hdr = json.loads(data[8: 8 + n].decode("utf-8"), object_pairs_hook=_pairs_last_wins)
    meta = hdr.pop("__metadata__", None) or {}
    kv = [{"key": k, "type": "string", "value": v} for k, v in meta.items()]
    tensors = []
    for name, v in hdr.items():
        # serde also reads a struct from a sequence (["F32", [2], [0, 8]]) and a unit enum
        # variant from a one-key map ({"F32": null})
        dtype, shape, offs = (v["dtype"], v["shape"], v["data_offsets"]) if isinstance(v, dict) else v
        if isinstance(dtype, dict):
            dtype, = dtype.keys()
        if dtype not in ST_DTYPE_BITS:
            raise Undecodable("dtype %r" % dtype)
        elems = 1
        for d in shape:
            elems *= d
        bits = elems * ST_DTYPE_BITS[dtype]
        if bits % 8 or offs[1] - offs[0] != bits // 8:
            raise Undecodable("%s: %d bytes for %d bits" % (name, offs[1] - offs[0], bits))
        tensors.append({"name": name, "type": dtype, "shape": list(shape), "offsets": list(offs),
                        "file_offset": 8 + n + offs[0]})
    content = {"format": "safetensors", "version": None, "alignment": None, "tensors": tensors, "kv": kv}
    if tensors:
        content["data_offset"] = 8 + n
    return content


def decode(fmt, data):
    return decode_gguf(data) if fmt == "gguf" else decode_st(data)
