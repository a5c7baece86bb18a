"""gg_count_wrap.py: GGUF array counts whose count x element size wraps 2^64 (GG130; issue 38,
held-back slip c2 of maint/slips/2026-12-07: the 2^30 element bound applied to count x element
size, computed first, so the product wraps to a few bytes and passes).  Called by gg_fixtures.py
with its add().

For every element type (its size from include/tfs/gg_vtypes.def; a string element counts 8 bytes,
its length field): count = 2^64 / size (the product is exactly 2^64, wraps to 0) and 2^64 / size + 1
(wraps to one element's size), each with that one element's bytes present, so a reader that
wrapped reads a whole body and accepts.  1-byte types never wrap: count 2^64 - 1 for them.  The
array is KV 0, or KV 1 after a u32 KV, or KV 2 (the last) of three.  GG130 at the count field
(ggml: count above 2^30) in every profile.
"""

from tfsgen import tables
from tfsgen.gguf import U64 as U64_MAX, enc_header as header, enc_kv_array as kv_arr, gstr, kv_u32

STR = tables.VT_STRING


def build(add):
    sizes = dict(tables.VT_SIZE)
    sizes[STR] = 8
    for et in sorted(sizes):
        size, name = sizes[et], tables.VT_NAME[et]
        if size == 1:
            counts = [(U64_MAX, "2-64-minus-1", "2^64 - 1 (x 1 never wraps)")]
        else:
            base = 2**64 // size
            counts = [(base, "2-64-over-%d" % size, "2^64 / %d (x %d = 2^64, wraps to 0)" % (size, size)),
                      (base + 1, "2-64-over-%d-plus-1" % size,
                       "2^64 / %d + 1 (x %d = 2^64 + %d, wraps to %d)" % (size, size, size, size))]
        one = gstr("s") if et == STR else b"\1" * size  # one element's bytes: what a wrapped body of `size` reads
        for count, tag, what in counts:
            for pre, where in ((b"", "kv0"), (kv_u32("a", 1), "kv1"), (kv_u32("a", 1) + kv_u32("b", 2), "kv2-last")):
                n_kv = len(pre) // len(kv_u32("a", 1)) + 1
                arr = kv_arr("k", et, count, one)
                count_at = 24 + len(pre) + 8 + 1 + 4 + 4  # header, earlier KVs, key "k", value type, element type
                add("GG130-count-wrap-%s-%s-%s" % (name, tag, where), header(0, n_kv) + pre + arr,
                    "%s array count %s as KV %d of %d, one element's bytes present" % (name, what, n_kv - 1, n_kv),
                    "GG130", offset=count_at)
