"""gg_string_length_extremes.py: string lengths at the extremes where a reader's "does the string fit?"
sum wraps, for the string kinds the positional fixtures leave out (issue 38, item 3; found by the
held-back slip gg-str-fast-end-wraps: a string array's in-place fast path that tests
`off + 8 + len <= end` with the 2^30 cap left to the general path; with len = 2^64 - 8 the sum is the
length field's own offset and the element reads as present and empty).

ggml reads each length and rejects it above 2^30 before anything else (GG101, at the length field),
so every length here is GG101 whatever follows; 8 bytes follow each length, so a wrapped sum lands
on bytes that are there.  Lengths 2^30 + 1 (the cap), 2^63 (the sign bit), 2^64 - 8 (off + 8 + len
wraps to off exactly) and 2^64 - 1 (wraps to off + 7):
- a KV's string value (KV 0; the positional fixtures have 2^63 only);
- a string array's element 0, 1 and 64 (the 65th: past the first 64, where a reader that keeps a
  mark every 64 elements sets its second).
Called by gg_fixtures.py with its add(); the offset is the length field's.
"""
from tfsgen.gguf import enc_header as header, enc_kv_array as kv_arr, gstr, u32, u64
from tfsgen.tables import VT

STR = VT["STRING"]
LENGTHS = ((2**30 + 1, "2-30-plus-1"), (2**63, "2-63"), (2**64 - 8, "2-64-minus-8"), (2**64 - 1, "2-64-minus-1"))


def build(add):
    value_head = header(0, 1) + gstr("k") + u32(STR)
    for n, tag in LENGTHS:
        add("GG101-value-string-length-%s" % tag, value_head + u64(n) + b"x" * 8,
            "KV 0 k, a string value of length %d, 8 bytes after the length" % n, "GG101", offset=len(value_head),
            index=0)
        for index in (0, 1, 64):
            head = header(0, 1) + kv_arr("tok", STR, index + 2, gstr("a") * index)
            add("GG101-array-element-%d-string-length-%s" % (index, tag), head + u64(n) + b"x" * 8,
                "KV 0 tok, a string array of %d elements: %d strings \"a\", then element %d of length %d with "
                "8 bytes after the length" % (index + 2, index, index, n), "GG101", offset=len(head), index=0)
