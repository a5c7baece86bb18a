"""gg_positions.py: GGUF fixtures made systematically (issue 38, item 3; docs/fixtures.md,
"Positions and extremes").  Called by gg_fixtures.py with its add().

- every per-record check (KV: GG101 GG110 GG111 GG120 GG121 GG130 GG140 GG141, strict GG501
  GG504 GG507; tensor info: GG202 GG203 GG204 GG205 GG206 GG208 GG209 GG210 GG211, strict GG508;
  layout and data: GG302 GG304) with the offending record at index 0, 1, 8, 16, 32, 33, 64, 65
  and 256 followed by one more valid record, and as the last of 41 records.  Thresholds of the
  code: the duplicate sets start at 64 slots and double when half full (the 33rd and 65th
  record are the first after a growth), record arrays grow by doubling, the strict scans work
  in 8-byte words;
- duplicates (GG111 keys, GG203 names) of the first record and of the record just before;
- sums and products driven to 2^64 - k and 2^63 for each operand: the byte size blocks x type
  size (GG211: wraps to 0 and to a few bytes, on a first and a later tensor), the running sum
  of padded sizes (GG303: each of two operands at 2^64 - k, the other making exactly 2^64),
  the end of a tensor's data (GG304: data start + offset + size wrapping below the file size);
- 64-bit fields at 2^63 and 2^64 - 1: key, string value and tensor name lengths (GG101),
  array counts (GG130), ne (GG205), tensor offsets (GG302).

Every fixture carries the offset of the field the fault was written into (the manifest's
offset column): the generator computes it from the bytes it concatenates, never from tfs.
Verdicts are checked against ggml (ctest test_adapter_ggml_meta / _data).
"""
from tfsgen.gguf import INT64_MAX, U64, enc_header as header, enc_kv as kv, enc_kv_array as kv_arr
from tfsgen.gguf import enc_tensor_info as ti, gstr, i64, kv_u32, pad, u32, u64, u8

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64T, I64, F64 = range(13)
F32_T, Q4_0_T, I8_T, F64_T, I32_T = 0, 2, 24, 28, 26

POSITIONS = (0, 1, 8, 16, 32, 33, 64, 65, 256)
LAST = 40  # "last": the offending record is the 41st and last
HDR = 24   # magic, version, n_tensors, n_kv


def where(p, last):
    return "the last of %d KVs" % (p + 1) if last else "KV %d of %d" % (p, p + 2)


def places():
    """(index, is it the last record) for every position."""
    return [(p, False) for p in POSITIONS] + [(LAST, True)]


# ---------------------------------------------------------------- KVs

def kname(j):
    return "k.%03d" % j


def good_kv(j):
    return kv("k.%03d" % j, U8, u8(j & 0xFF))


# check id -> (rule, what, bad KV bytes for index p, offset of the faulty field in them, mode)
def kv_checks():
    al = b"general.alignment"
    return [
        ("GG101", "key-length-2-30-plus-1", "key length 2^30 + 1",
         lambda p: u64(2**30 + 1) + b"k" * 16, 0, "default"),
        ("GG101", "key-length-2-63", "key length 2^63", lambda p: u64(2**63) + b"k" * 16, 0, "default"),
        ("GG101", "key-length-2-64-minus-1", "key length 2^64 - 1", lambda p: u64(U64) + b"k" * 16, 0, "default"),
        ("GG101", "value-length-2-63", "string value length 2^63",
         lambda p: gstr(kname(p)) + u32(STR) + u64(2**63) + b"v" * 16, 8 + 5 + 4, "default"),
        ("GG110", "empty-key", "empty key", lambda p: kv_u32("", 1), 0, "default"),
        ("GG120", "value-type-13", "value type 13", lambda p: kv(kname(p), 13, b"\0" * 8), 8 + 5, "default"),
        ("GG121", "nested-array", "array of arrays",
         lambda p: kv_arr(kname(p), ARR, 1, u32(U8) + u64(1) + u8(7)), 8 + 5 + 4, "default"),
        ("GG130", "array-count-2-30-plus-1", "u8 array count 2^30 + 1",
         lambda p: kv_arr(kname(p), U8, 2**30 + 1, b"\0" * 16), 8 + 5 + 8, "default"),
        ("GG130", "array-count-2-63", "u8 array count 2^63",
         lambda p: kv_arr(kname(p), U8, 2**63, b"\0" * 16), 8 + 5 + 8, "default"),
        ("GG130", "array-count-2-64-minus-1", "u16 array count 2^64 - 1 (x 2 wraps)",
         lambda p: kv_arr(kname(p), U16, U64, b"\0" * 16), 8 + 5 + 8, "default"),
        ("GG140", "alignment-i32", "general.alignment stored as i32",
         lambda p: kv(al, I32, u32(32)), 8 + len(al), "default"),
        ("GG141", "alignment-3", "general.alignment = 3", lambda p: kv_u32(al, 3), 8 + len(al) + 4, "default"),
        ("GG501", "bool-2", "bool value 2", lambda p: kv(kname(p), BOOL, u8(2)), 8 + 5 + 4, "strict"),
        ("GG504", "key-latin1", "key with the Latin-1 byte E9",
         lambda p: kv(b"k.\xe9%02d" % (p % 100), U8, u8(1)), 8 + 2, "strict"),
        ("GG507", "string-value-not-utf8", "string value with the byte FF",
         lambda p: kv(kname(p), STR, gstr(b"ab\xff")), 8 + 5 + 4 + 8 + 2, "strict"),
    ]


def kv_file(p, last, bad, n_tensors=0):
    """p valid KVs, the bad one, then one more valid KV unless last; the bad KV's offset."""
    before = b"".join(good_kv(j) for j in range(p))
    after = b"" if last else good_kv(p + 1)
    n = p + 1 + (0 if last else 1)
    pre = header(n_tensors, n) + before
    return pre + bad + after, len(pre)


def at_every_place(add, checks, make_file, record, where_, dup_rule, dup_bytes, dup_what):
    """The per-record checks and the duplicates of one record kind, at every place.

    checks: (rule, tag, what, bad record bytes for index p, offset of the faulty field, mode);
    make_file(p, last, bad, mode) -> (file bytes, offset of the bad record); record: "kv" or
    "ti" (the id's word); where_(p, last): the description's place; dup_rule, dup_bytes(of, p),
    dup_what(of): the duplicate of the first record and of the record just before."""
    for rule, tag, what, make, field, mode in checks:
        for p, last in places():
            data, at = make_file(p, last, make(p), mode)
            fid = "%s-pos-%s%d%s-%s" % (rule, record, p, "-last" if last else "", tag)
            desc = "%s in %s" % (what, where_(p, last))
            if mode == "strict":
                add(fid, data, desc + " (--strict)", rule, expect="implementation_defined", mode="strict",
                    offset=at + field, index=p)
            else:
                add(fid, data, desc, rule, offset=at + field, index=p)
    for p, last in places():
        if p == 0:
            continue
        for of, tag in ((0, "first"), (p - 1, "previous")):
            if of == 0 and tag == "previous":
                continue  # p = 1: the previous record is the first
            data, at = make_file(p, last, dup_bytes(of, p), "default")
            add("%s-pos-%s%d%s-duplicate-of-%s" % (dup_rule, record, p, "-last" if last else "", tag), data,
                "%s again in %s (%s)" % (dup_what(of)[0], where_(p, last), dup_what(of)[1]), dup_rule, offset=at,
                index=p)


def kvs(add):
    at_every_place(add, kv_checks(), lambda p, last, bad, mode: kv_file(p, last, bad), "kv", where,
                   "GG111", lambda of, p: good_kv(of),
                   lambda of: ("key %s" % kname(of), "duplicate of KV %d" % of))


# ---------------------------------------------------------------- tensor infos

def tname(j):
    return "t%03d" % j


def good_ti(j, off=None):
    """f32 [8] (32 bytes, padded 32) at its packed offset."""
    return ti(tname(j), [8], F32_T, 32 * j if off is None else off)


NE0 = 8 + 4 + 4          # name "tNNN" (8 + 4), n_dims: offset of ne[0] in an info of a 4-byte name
TYPE1 = NE0 + 8           # type field after one dimension
TYPE2 = NE0 + 16          # after two


def ti_checks():
    """(rule, tag, what, bad info bytes for index p, offset of the faulty field)"""
    return [
        ("GG202", "name-64-bytes", "tensor name of 64 bytes", lambda p: ti("n" * 64, [8], F32_T, 32 * p), 0),
        ("GG204", "n-dims-5", "n_dims = 5",
         lambda p: gstr(tname(p)) + u32(5) + u64(1) * 5 + u32(F32_T) + u64(32 * p), 8 + 4),
        ("GG205", "ne1-minus-1", "ne[1] = -1",
         lambda p: gstr(tname(p)) + u32(2) + i64(8) + i64(-1) + u32(F32_T) + u64(32 * p), NE0 + 8),
        ("GG205", "ne0-2-63", "ne[0] = 2^63", lambda p: ti(tname(p), [2**63], F32_T, 32 * p), NE0),
        ("GG205", "ne0-2-64-minus-1", "ne[0] = 2^64 - 1", lambda p: ti(tname(p), [U64], F32_T, 32 * p), NE0),
        ("GG206", "i8-1-x-2-62", "i8 [1, 2^62]: INT64_MAX / ne[1] = 1 <= ne[0]",
         lambda p: ti(tname(p), [1, 2**62], I8_T, 32 * p), NE0 + 8),
        ("GG208", "type-43", "ggml type 43", lambda p: ti(tname(p), [8], 43, 32 * p), TYPE1),
        ("GG209", "removed-type-4", "removed ggml type 4", lambda p: ti(tname(p), [8], 4, 32 * p), TYPE1),
        ("GG210", "q4_0-ne0-33", "q4_0 with ne[0] = 33", lambda p: ti(tname(p), [33], Q4_0_T, 32 * p), TYPE1),
        ("GG211", "f32-2-62", "f32 [2^62]: 2^64 bytes", lambda p: ti(tname(p), [2**62], F32_T, 32 * p), TYPE1),
        ("GG508", "name-not-utf8", "tensor name with the byte FF",
         lambda p: ti(b"t\xff%02d" % (p % 100), [8], F32_T, 32 * p), 8 + 1),
    ]


def ti_file(p, last, bad, data=False):
    """p valid infos, the bad one, one more valid unless last; with data: padding and 32
    zero bytes per tensor.  The bad info's offset."""
    before = b"".join(good_ti(j) for j in range(p))
    after = b"" if last else good_ti(p + 1)
    n = p + 1 + (0 if last else 1)
    pre = header(n, 0) + before
    b = pre + bad + after
    if data:
        b = pad(b) + b"\0" * (32 * n)
    return b, len(pre)


def infos(add):
    # GG508 (strict) files carry their data: the strict profile reads it
    checks = [(rule, tag, what, make, field, "strict" if rule == "GG508" else "default")
              for rule, tag, what, make, field in ti_checks()]
    at_every_place(add, checks, lambda p, last, bad, mode: ti_file(p, last, bad, data=mode == "strict"), "ti",
                   lambda p, last: where(p, last).replace("KV", "tensor info"),
                   "GG203", lambda of, p: ti(tname(of), [8], F32_T, 32 * p),
                   lambda of: ("tensor name %s" % tname(of), "duplicate of tensor %d" % of))


def layout(add):
    """GG302 (offset off by one alignment unit) and GG304 (the data ends inside the tensor) at
    every position; the other tensors f32 [8] packed (GG304: the ones after it hold 0 bytes)."""
    off_field = 8 + 4 + 4 + 8 + 4  # name "tNNN", n_dims 1, ne[0], type
    for p, last in places():
        n = p + 1 + (0 if last else 1)
        sfx = "-last" if last else ""
        infos_ = [good_ti(j) for j in range(n)]
        infos_[p] = good_ti(p, 32 * p + 32)
        pre = header(n, 0) + b"".join(infos_[:p])
        body = pad(header(n, 0) + b"".join(infos_)) + b"\0" * (32 * n + 32)
        add("GG302-pos-ti%d%s-offset-plus-32" % (p, sfx), body,
            "tensor %d of %d at its packed offset + 32 (the alignment)" % (p, n), "GG302", offset=len(pre) + off_field,
            index=p)
        # data missing: tensor p holds 32 bytes, the file ends 16 bytes into them; later tensors are empty
        infos_ = [good_ti(j) for j in range(p + 1)] + [ti(tname(j), [0], F32_T, 32 * (p + 1)) for j in range(p + 1, n)]
        pre = header(n, 0) + b"".join(infos_[:p])
        body = pad(header(n, 0) + b"".join(infos_)) + b"\0" * (32 * p + 16)
        fid = "GG304-pos-ti%d%s-data-cut" % (p, sfx)
        add(fid, body, "the file ends 16 bytes into tensor %d of %d (later tensors hold 0 bytes)" % (p, n), "GG304",
            offset=len(pre) + off_field, index=p, extra=[(fid + "-header-only", "valid", "-", "header-only")])


# ---------------------------------------------------------------- sums and products

def sums(add):
    """Byte size, running sum and data end at 2^64 - k and 2^63."""
    # blocks x type size (GG211): 8-byte types at 2^61 elements wrap to 0, 2^61 + 1 to 8 bytes;
    # 4-byte types at 2^62 + 1 to 4 bytes.  32 data bytes follow: a reader that wraps sees a
    # small tensor whose data is there
    off1 = 8 + 4 + 4 + 8  # type field of a one-dimension info, name "tNNN"
    cases = [("f64-2-61", F64_T, [2**61], "f64 [2^61]: 2^64 bytes (wraps to 0)"),
             ("f64-2-61-plus-1", F64_T, [2**61 + 1], "f64 [2^61 + 1]: 2^64 + 8 bytes (wraps to 8)"),
             ("i32-2-62-plus-1", I32_T, [2**62 + 1], "i32 [2^62 + 1]: 2^64 + 4 bytes (wraps to 4)"),
             ("f32-2-x-2-61", F32_T, [2, 2**61], "f32 [2, 2^61]: 2^64 bytes, the large factor last"),
             ("f64-2-62-minus-1", F64_T, [2**62 - 1], "f64 [2^62 - 1]: 2^65 - 8 bytes (wraps to 2^64 - 8)")]
    for tag, t, ne, what in cases:
        for p in (0, 1):
            infos_ = [good_ti(j) for j in range(p)] + [ti(tname(p), ne, t, 32 * p)]
            pre = header(p + 1, 0) + b"".join(infos_[:p])
            data = pad(header(p + 1, 0) + b"".join(infos_)) + b"\0" * (32 * p + 32)
            field = off1 + 8 * (len(ne) - 1)
            add("GG211-sum-ti%d-%s" % (p, tag), data, "%s in tensor %d of %d, 32 data bytes after it" %
                (what, p, p + 1), "GG211", offset=len(pre) + field, index=p)
    # running sum of padded sizes (GG303): two tensors whose padded sizes add to exactly 2^64,
    # each operand the large one in turn; then three where only the third addition wraps
    off_of = lambda infos_, i: len(header(len(infos_), 0) + b"".join(infos_[:i])) + 8 + 4 + 4 + 8 + 4
    for tag, sizes in (("2-63-plus-2-63", [2**63, 2**63]), ("2-64-minus-64-plus-64", [2**64 - 64, 64]),
                       ("64-plus-2-64-minus-64", [64, 2**64 - 64]),
                       ("32-32-2-64-minus-64", [32, 32, 2**64 - 64]),
                       ("32-plus-2-64-minus-60", [32, 2**64 - 60])):
        run, infos_ = 0, []
        for j, s in enumerate(sizes):
            infos_.append(ti(tname(j), [s // 4], F32_T, run))
            run = (run + (s + 31) // 32 * 32) % 2**64
        data = pad(header(len(infos_), 0) + b"".join(infos_)) + b"\0" * 64
        add("GG303-sum-%s" % tag, data, "f32 tensors of %s bytes at their packed offsets: the running sum of "
            "padded sizes reaches 2^64 at the last%s" % (" + ".join(str(s) for s in sizes), "" if sizes[-1] % 32 else
                                                         " (2^64 - 60: only the padded size makes it wrap)"),
            "GG303", offset=off_of(infos_, len(sizes) - 1), index=len(sizes) - 1)
    # end of a tensor's data (GG304): tensor p of 2^64 - 32 (p + 1) bytes at offset 32 p: the sum of padded sizes
    # is 2^64 - 32 (no GG303), data start + offset + size wraps to data start - 32, inside the file
    for p in (0, 1, 2):
        s = 2**64 - 32 * (p + 1)
        infos_ = [good_ti(j) for j in range(p)] + [ti(tname(p), [s // 4], F32_T, 32 * p)]
        data = pad(header(p + 1, 0) + b"".join(infos_)) + b"\0" * (32 * p + 64)
        fid = "GG304-sum-ti%d-end-wraps" % p
        add(fid, data, "tensor %d: f32 of 2^64 - %d bytes at offset %d: its end wraps past 2^64 to before the end of "
            "the file" % (p, 32 * (p + 1), 32 * p), "GG304", offset=off_of(infos_, p), index=p,
            extra=[(fid + "-header-only", "valid", "-", "header-only")])
    for p in (0, 1):
        infos_ = [good_ti(j) for j in range(p)] + [ti(tname(p), [2**61], F32_T, 32 * p)]
        data = pad(header(p + 1, 0) + b"".join(infos_)) + b"\0" * (32 * p + 64)
        fid = "GG304-sum-ti%d-2-63-bytes" % p
        add(fid, data, "tensor %d: f32 of 2^63 bytes at offset %d, 64 data bytes" % (p, 32 * p), "GG304",
            offset=off_of(infos_, p), index=p, extra=[(fid + "-header-only", "valid", "-", "header-only")])
    # a tensor whose file offset (data start + offset) passes 2^64: f32 of 2^64 - 64 bytes at offset 0, then one of
    # k elements at offset 2^64 - 64, the running sum short of 2^64 (no GG303); the metadata profile accepts it and
    # a reader's absolute offset of the second tensor must not wrap to a small one (expected file_offset: null)
    for k in (0, 8):
        infos_ = [ti(tname(0), [(2**64 - 64) // 4], F32_T, 0), ti(tname(1), [k], F32_T, 2**64 - 64)]
        data = pad(header(2, 0) + b"".join(infos_)) + b"\0" * 64
        fid = "GG304-file-offset-past-2-64-ti1-%d-elements" % k
        add(fid, data, "tensor 0: f32 of 2^64 - 64 bytes at offset 0; tensor 1: f32 [%d] at offset 2^64 - 64, so data "
            "start + offset passes 2^64" % k, "GG304", offset=off_of(infos_, 0), index=0,
            extra=[(fid + "-header-only", "valid", "-", "header-only")])
    # the same at the boundary: data start + offset of tensor 1 exactly 2^64 (past 2^64 - 1: null) and 2^64 - 32 (the
    # last aligned file offset, a number)
    start = len(pad(header(2, 0) + b"".join([ti(tname(0), [0], F32_T, 0), ti(tname(1), [0], F32_T, 0)])))
    for tag, end, what in (("2-64-exactly", 2**64, "2^64 exactly"), ("2-64-minus-32", 2**64 - 32, "2^64 - 32")):
        at = end - start
        infos_ = [ti(tname(0), [at // 4], F32_T, 0), ti(tname(1), [0], F32_T, at)]
        data = pad(header(2, 0) + b"".join(infos_)) + b"\0" * 64
        fid = "GG304-file-offset-%s-ti1" % tag
        add(fid, data, "tensor 0: f32 of 2^64 - %d bytes at offset 0; tensor 1: f32 [0] at offset 2^64 - %d, so data "
            "start (%d) + offset is %s" % (2**64 - at, 2**64 - at, start, what), "GG304",
            offset=off_of(infos_, 0), index=0, extra=[(fid + "-header-only", "valid", "-", "header-only")])
    # tensor offsets at 2^63 and 2^64 - 1 (GG302), first and second tensor
    for p in (0, 1):
        for tag, v in (("2-63", 2**63), ("2-64-minus-1", U64)):
            infos_ = [good_ti(j) for j in range(p)] + [ti(tname(p), [8], F32_T, v)]
            data = pad(header(p + 1, 0) + b"".join(infos_)) + b"\0" * (32 * p + 32)
            add("GG302-sum-ti%d-offset-%s" % (p, tag), data, "tensor %d at offset %s" % (p, tag.replace("-", " ")
                .replace("2 6", "2^6").replace("minus", "-")), "GG302", offset=off_of(infos_, p), index=p)


def build(add):
    kvs(add)
    infos(add)
    layout(add)
    sums(add)
