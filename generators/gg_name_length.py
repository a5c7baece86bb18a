"""gg_name_length.py: GGUF fixtures whose fault is in a tensor name's 8-byte length field (issue 38;
survivor d2d69882#0:stmt of parsers/gguf/tensor_info.c in a corpus-only mutant sample, seed 41: the
return after a failed name length read removed, so the parse reads on from the length field).
Called by gg_fixtures.py with its add().

- GG101: the name length is above 2^30 (GGUF_MAX_STRING_LENGTH): 2^30 + 1, 2^63 and 2^64 - 1, in
  the first tensor info and in the second of two, 16 name bytes after it.  Reported at the length
  field.  A reader that skips the limit for tensor names takes the length on (GG202: 64 bytes or
  more, or GG102: past the end of the file).
- GG201: the file ends inside the name length, 4 and 7 of its 8 bytes there, in the first tensor
  info and in the second.  Reported at the length field.  With 4 or more bytes there, a reader that
  goes on after the short read takes them as n_dims (the low 4 bytes of the length 16: n_dims 16,
  GG204).
"""
from tfsgen.tables import GG_TYPE_ID
from tfsgen.gguf import U64, enc_header as header, enc_tensor_info as ti, u64

F32_T = GG_TYPE_ID["f32"]
HDR = 24  # magic, version, n_tensors, n_kv
LENGTHS = ((2**30 + 1, "2-30-plus-1", "2^30 + 1"), (2**63, "2-63", "2^63"), (U64, "2-64-minus-1", "2^64 - 1"))
CUTS = (4, 7)  # bytes of the 8-byte name length left in the file


def places():
    """(tag, bytes before the faulty info, n_tensors, which info it is): first of 1 and second of 2."""
    first = ti("t000", [8], F32_T, 0)
    return (("first", b"", 1, "the first tensor info"), ("second", first, 2, "the second tensor info"))


def build(add):
    for where, before, n, what in places():
        at = HDR + len(before)
        for value, tag, text in LENGTHS:
            data = header(n, 0) + before + u64(value) + b"n" * 16
            add("GG101-tensor-name-length-%s-%s" % (tag, where), data,
                "tensor name length %s in %s, 16 name bytes there" % (text, what), "GG101", offset=at)
        for left in CUTS:
            data = header(n, 0) + before + u64(16)[:left]
            add("GG201-cut-in-name-length-%d-of-8-%s" % (left, where), data,
                "file ends after %d of the 8 bytes of the name length (16) of %s" % (left, what), "GG201",
                offset=at)
