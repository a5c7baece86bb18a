"""gg_operands.py: GGUF fixtures at the boundary of each operand of a size, count, sum or
product check (issue 16, item 3; the table per rule is in docs/fixtures.md, "Boundaries per
operand").  Called by gg_fixtures.py with its add(); every expectation is confirmed by ggml
(ctest test_adapter_ggml_meta / test_adapter_ggml_data run every corpus fixture through it).

- strings of every kind (key, string value, string array element, tensor name; the first record
  and a later one) whose body ends 0, 1, 7, 8 and 9 bytes past the end of the file;
- array bodies: count x element size equal to the bytes left (valid) and one byte more (GG130),
  per element size, for the first KV and a later one;
- tensor shapes: a negative dimension, an element count >= INT64_MAX and a byte size >= 2^64 at
  each dimension position, and in a later tensor as well as the first;
- offsets: a later tensor at the unpadded running sum, one byte either side of the padded one.
"""
from tfsgen.gguf import INT64_MAX, enc_header as header, enc_kv as kv, enc_kv_array as kv_arr
from tfsgen.gguf import enc_tensor_info as ti, gg206_offset, gstr, i64, kv_u32, layout as model, pad, ti_fields, u32, u64

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
I8_T, F32_T, Q4_0_T = 24, 0, 2  # ggml types


def strings(add):
    """String bodies of length 16 ending d bytes past the end of the file."""
    L = 16
    body = lambda d: b"s" * (L - d)
    kinds = [
        # kind, prefix before the length field, what d = 0 gives (rule or "-"), first or later
        ("key-first", header(0, 1), "GG103", "the first key"),
        ("key-later", header(0, 2) + kv_u32("a", 1), "GG103", "the second key"),
        ("value-first", header(0, 1) + gstr("k") + u32(STR), "-", "the first KV's string value"),
        ("value-later", header(0, 2) + kv_u32("a", 1) + gstr("k") + u32(STR), "-", "the second KV's string value"),
        ("element-first", header(0, 1) + gstr("k") + u32(ARR) + u32(STR) + u64(1), "-",
         "the only element of a string array"),
        ("element-later", header(0, 1) + gstr("k") + u32(ARR) + u32(STR) + u64(3) + gstr("a") + gstr("b"), "-",
         "the third element of a string array"),
        ("name-first", header(1, 0), "GG201", "the first tensor name"),
        ("name-later", header(2, 0) + ti("a", [8], F32_T, 0), "GG201", "the second tensor name"),
    ]
    for kind, prefix, at_end, what in kinds:
        for d in (0, 1, 7, 8, 9):
            data = prefix + u64(L) + body(d)
            if d == 0:
                rule = at_end
                fid = ("valid-string-%s-ends-at-eof" % kind) if rule == "-" else \
                      ("%s-string-%s-ends-at-eof" % (rule, kind))
                desc = "%s (16 bytes) ends exactly at the end of the file" % what
                desc += "" if rule == "-" else ": the next field is cut"
            else:
                rule = "GG102"
                fid = "GG102-string-%s-past-eof-by-%d" % (kind, d)
                desc = "%s declares 16 bytes, %d are left (ends %d bytes past the end)" % (what, L - d, d)
            add(fid, data, desc, rule)


def arrays(add):
    """count x element size against the bytes left."""
    for et, name, size in ((U8, "u8", 1), (U16, "u16", 2), (U64, "u64", 8), (BOOL, "bool", 1)):
        for later in (False, True):
            pre = header(0, 2) + kv_u32("a", 1) if later else header(0, 1)
            where = "second KV" if later else "first KV"
            tag = "-later" if later else ""
            add("valid-array-%s%s-ends-at-eof" % (name, tag), pre + kv_arr("k", et, 3, b"\1" * (3 * size)),
                "%s array of 3 in the %s: its %d bytes end exactly at the end of the file" % (name, where, 3 * size))
            add("GG130-array-%s%s-one-byte-short" % (name, tag), pre + kv_arr("k", et, 3, b"\1" * (3 * size - 1)),
                "%s array of 3 in the %s: %d bytes left for %d" % (name, where, 3 * size - 1, 3 * size), "GG130")
    add("valid-string-array-lengths-end-at-eof", header(0, 1) + kv_arr("k", STR, 2, u64(0) + u64(0)),
        "string array of 2 empty strings: the 2 x 8 length bytes end exactly at the end of the file")


def shapes(add):
    """Each dimension position of the element count and byte size products; a later tensor."""
    ne4 = [2, 2, 2, 2]
    for pos in (0, 1, 3):  # ne[2] = -1: GG205-negative-dim
        ne = list(ne4)
        ne[pos] = -1
        add("GG205-negative-ne%d" % pos, header(1, 0) + gstr("t") + u32(4) + b"".join(i64(x) for x in ne) +
            u32(F32_T) + u64(0), "ne[%d] = -1 of 4 dimensions" % pos, "GG205")
    add("GG205-negative-dim-later-tensor", header(2, 0) + ti("a", [8], F32_T, 0) + gstr("b") + u32(2) + i64(4) +
        i64(-1) + u32(F32_T) + u64(32), "second tensor's ne[1] = -1", "GG205")
    for pos in (1, 2, 3):
        ne = [1] * (pos + 1)
        ne[pos] = INT64_MAX
        add("GG206-ne%d-int64-max" % pos, header(1, 0) + ti("t", ne, I8_T, 0),
            "i8 shape %s: element count INT64_MAX, reached at ne[%d]" % (ne, pos), "GG206",
            offset=gg206_offset(len(header(1, 0)), "t", ne), index=0)
    # ggml's test at ne[1] is INT64_MAX / ne[1] <= ne[0]: with ne[0] = 1 the edge is 2^62
    add("GG206-ne1-2pow62", header(1, 0) + ti("t", [1, 2**62], I8_T, 0),
        "i8 shape [1, 2^62]: INT64_MAX / 2^62 = 1 <= ne[0] = 1", "GG206",
        offset=gg206_offset(len(header(1, 0)), "t", [1, 2**62]), index=0)
    add("GG304-i8-ne1-2pow62-minus-1", pad(header(1, 0) + ti("t", [1, 2**62 - 1], I8_T, 0)),
        "i8 shape [1, 2^62 - 1]: INT64_MAX / ne[1] = 2 > ne[0], passes GG206; data missing", "GG304",
        extra=[("GG304-i8-ne1-2pow62-minus-1-header-only", "valid", "-", "header-only")])
    # ggml's test at ne[3] is INT64_MAX / ne[3] <= ne[0] * ne[1] * ne[2]: each operand of that product holds the
    # large factor in turn, ne[3] = 3 (the count stays below 2^63, so ggml's count > 0 guard lets the test run);
    # the tests at ne[1] and ne[2] never fire; one below the edge passes
    edge = INT64_MAX // 3
    for big in (0, 1, 2):
        for f, what in ((edge, "INT64_MAX / 3"), (edge - 1, "INT64_MAX / 3 - 1")):
            ne = [1, 1, 1, 3]
            ne[big] = f
            shape = ", ".join(what if x == f else str(x) for x in ne)
            if f == edge:
                add("GG206-ne%d-int64-max-div-3-ne3-3" % big, header(1, 0) + ti("t", ne, I8_T, 0),
                    "i8 shape [%s]: INT64_MAX / ne[3] <= ne[0] * ne[1] * ne[2], the factor at ne[%d]; the count "
                    "%d < INT64_MAX" % (shape, big, 3 * f), "GG206", offset=gg206_offset(len(header(1, 0)), "t", ne), index=0)
            else:
                fid = "GG304-i8-ne%d-int64-max-div-3-minus-1-ne3-3" % big
                add(fid, pad(header(1, 0) + ti("t", ne, I8_T, 0)),
                    "i8 shape [%s]: INT64_MAX / ne[3] > ne[0] * ne[1] * ne[2], passes GG206; data missing" % shape,
                    "GG304", extra=[(fid + "-header-only", "valid", "-", "header-only")])
    add("GG206-later-tensor", header(2, 0) + ti("a", [8], F32_T, 0) + ti("b", [2, 2**62 - 1], I8_T, 32),
        "second tensor i8 [2, 2^62 - 1]: INT64_MAX / ne[1] = 2 <= ne[0] = 2", "GG206",
        offset=gg206_offset(len(header(2, 0) + ti("a", [8], F32_T, 0)), "b", [2, 2**62 - 1]), index=1)
    for ne in ([2, 2**61], [1, 2, 2**61]):  # 2^62 elements pass GG206; x 4 bytes = 2^64
        add("GG211-f32-%d-dims-2pow61-last" % len(ne), header(1, 0) + ti("t", ne, F32_T, 0),
            "f32 shape %s: 2^62 elements, 2^64 bytes, the large factor at ne[%d]" % (ne, len(ne) - 1), "GG211",
            offset=ti_fields(len(header(1, 0)), "t", len(ne))["type"], index=0)
    add("GG211-later-tensor", header(2, 0) + ti("a", [8], F32_T, 0) + ti("b", [2**61, 2], F32_T, 32),
        "second tensor f32 [2^61, 2]: 2^64 bytes", "GG211",
        offset=ti_fields(len(header(2, 0) + ti("a", [8], F32_T, 0)), "b", 2)["type"], index=1)
    add("GG210-later-tensor", header(2, 0) + ti("a", [32], Q4_0_T, 0) + ti("b", [31, 2], Q4_0_T, 32),
        "second tensor q4_0 with ne[0] = 31 (block 32)", "GG210")
    add("valid-q4_0-ne1-not-multiple", model([("t", [32, 33], Q4_0_T)]),
        "q4_0 [32, 33]: only ne[0] must be a multiple of the block size")
    add("GG202-name-64-bytes-later-tensor", model([("a", [8], F32_T), ("n" * 64, [8], F32_T)]),
        "second tensor's name of 64 bytes", "GG202")


def offsets(add):
    """A later tensor's offset against the running sum of padded sizes (a: 12 bytes -> 32,
    b: 20 bytes -> 32; c expected at 64)."""
    for off, what in ((52, "the unpadded running sum (32 + 20)"), (63, "the padded sum - 1"),
                      (65, "the padded sum + 1"), (44, "the sum of unpadded sizes (12 + 20 + 12)")):
        data = pad(header(3, 0) + ti("a", [3], F32_T, 0) + ti("b", [5], F32_T, 32) + ti("c", [3], F32_T, off))
        add("GG302-third-offset-%d" % off, data + b"\0" * 128,
            "third tensor at %d, %s; ggml expects 64" % (off, what), "GG302")


def build(add):
    strings(add)
    arrays(add)
    shapes(add)
    offsets(add)
