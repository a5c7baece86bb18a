"""gg_reader_edges.py: GGUF fixtures for edges of the KV reader that a corpus-only mutant sample
(maint/mutants/run.py --corpus-only, seed 40; docs/fixtures.md "Edges a corpus-only mutant sample
found missing") showed missing.  Called by gg_fixtures.py with its add().

- GG103: the file ends inside an array's element type field (0 or 2 of its 4 bytes there) or inside
  a value type field (2 bytes): the short read of that field, reported at the field.
- GG130: an array count above 2^30 whose count x element size wraps past 2^64 to a body that is
  there (u64 x (2^61 + 1) = 8 bytes, u32 x 2^62 = 0 bytes, a valid KV after it; string x (2^61 + 1):
  one 8-byte element there, the second's length missing): the count limit alone rejects them; a
  reader without it takes a valid file (or the cut element's GG103).
- GG507: a string value longer than the 64 KiB read window with an invalid byte in its first
  window and another in its second: the first is reported (--strict).
- valid: two string arrays whose second element ends exactly at 64 KiB (TFS_ARRAY_KEEP) of the
  array's elements and one byte past it: a forward-only stream keeps the first array's two
  elements and only the first element of the other (`tfs conform`'s stream path wants io_error
  for an element a stream does not keep).
- valid: string values of 255, 256 and 257 bytes: a stream keeps a string value up to 256 bytes.
- GG130: string arrays of 262,144 (64 x 4096), 262,145 and 2^30 elements, 8,192 one-byte elements
  there (73,728 bytes: past the first 64 KiB window, so a stream does not know the file's size when
  it meets the count): a file is rejected by count x 8 before any element, while a stream reads the
  elements first;
  its reader keeps a mark every 64 elements and doubles that stride until at most 4,097 marks remain,
  so the two larger counts are the first that need the stride doubled (a stride that never grows
  loops there: maint/mutants `parsers/gguf/kv.c@3ef5c45d#3:crp`).
- GG102: a string array whose element 0, 1 or 64 has its length field (1) end exactly at the end of
  the file: the body is missing though nothing of the length field is (an in-place walk that tests
  the room after the length field one byte short takes the element as present).
- GG111: 131,072 distinct keys of 6 bytes, then key 0 again.  The key set compares the low 32 bits
  of each key's 64-bit hash (seeded per parse) before the bytes: about two pairs of distinct keys
  meet there per parse (131,072^2 / 2 / 2^32), and a reader that stops short of comparing their
  bytes reports one of them (an earlier index) instead of the real duplicate.  The chance that a
  parse has no such pair is e^-2 (13.5%), so each of the three lines (default, strict,
  header-only), parsed through three byte paths, leaves such a slip unseen with probability
  0.135^9, about 1.5e-8.
- GG506 (strict): a key whose first byte alone breaks the key syntax (`Ab`, `.ab`, `-ab`) in KV 0 and
  KV 1 of 2, reported at that byte.
- GG206: an element count that passes 2^63 at a dimension before the last (i8 [2^33, 2^31 + 1, 1]
  and [2^33, 1, 2^31 + 1, 1], the product wrapping to 2^33): ggml's test fires at ne[1] / ne[2],
  where the offset is, not at the last dimension.
- GG507 (strict): a string value (2 or 3, and 300 bytes) and a string array's element whose last byte is a
  UTF-8 lead byte (C3, E2 82, F0 9F 98) followed in the file by the bytes that would complete it (the
  next key's length field, 0x80 .. 0xBF): the sequence is cut by the string's end, reported at its
  lead byte; a decoder that tests the bytes left one too loosely reads past the string.
- GG504 (strict): a key longer than the 64 KiB read window (read piece by piece on a file or a
  stream, not kept whole) with an invalid byte in its first window and another in its second: the
  first is reported; such a key ending in a cut sequence (C3, E2 82, F0 9F 98), in its last piece,
  which is checked whole (a reader that holds back its trailing lead as it does for the pieces
  before never checks it).
- GG111: KV 0's 65,600-byte key again at KV 2, after KV 1's key whose 3-byte sequence crosses its
  first 64 KiB piece (under --strict that piece is one byte short and the next is copied at byte
  65,535 of the kept 64 KiB): a copy placed elsewhere changes a kept key and the duplicate is missed.
- GG102: a string value of 100 bytes (kept by a stream) whose body starts 20 bytes before the end of
  a stream's first 64 KiB window, the file ending 50 bytes into it (past that window): a forward-only
  stream, which does not know the file's size until a read comes back short, meets the end while
  copying the body.  GG102 at the length field.
- GG201: the file ends inside a dimension ne[j] of a tensor info (ne[0] of the first, ne[1] of the
  first of 2 dimensions, exactly where ne[1] would start, and ne[1] of the second tensor info): the
  short read of that field, reported at it.
"""
from tfsgen.tables import VT
from tfsgen.gguf import enc_header as header, enc_kv as kv, enc_kv_array as kv_arr, enc_tensor_info as ti
from tfsgen.gguf import gstr, ti_fields, u8, u32, u64

U8, U32, STR, ARR, U64 = (VT[t] for t in ("U8", "U32", "STRING", "ARRAY", "U64"))
HDR = 24  # magic, version, n_tensors, n_kv
WINDOW = 64 * 1024  # TFS_WINDOW and TFS_ARRAY_KEEP (include/tfs/tfs.h)


def good(j):
    return kv("k.%03d" % j, U8, u8(j))


def cuts(add):
    key = "k.arr"
    at = HDR + len(good(0))  # the cut KV is the second of 2
    elem_at = at + 8 + len(key) + 4
    for n in (0, 2):
        data = header(0, 2) + good(0) + gstr(key) + u32(ARR) + u32(U8)[:n]
        add("GG103-cut-in-array-element-type-%d-of-4" % n, data,
            "second KV: an array whose element type field is cut after %d of its 4 bytes" % n, "GG103",
            offset=elem_at)
    data = header(0, 2) + good(0) + gstr(key) + u32(U8)[:2]
    add("GG103-cut-in-value-type-2-of-4", data, "second KV: its value type field cut after 2 of its 4 bytes", "GG103",
        offset=at + 8 + len(key))


def wraps(add):
    key = "k.arr"
    count_at = HDR + 8 + len(key) + 4 + 4
    cases = (  # (tag, element type, count, body, what, bytes after the array)
        ("u64-2-61-plus-1-x8-wraps-to-8", U64, 2**61 + 1, u64(7), "u64 array of 2^61 + 1 (x 8 wraps to 8 bytes, "
         "which are there), the last KV", b""),
        ("u32-2-62-x4-wraps-to-0", U32, 2**62, b"", "u32 array of 2^62 (x 4 wraps to 0 bytes), a valid KV after it",
         good(1)),
        ("string-2-61-plus-1-x8-wraps-to-8", STR, 2**61 + 1, gstr(b""), "string array of 2^61 + 1 (x 8 wraps to 8 "
         "bytes: one empty element there, the second missing), the last KV", b""),
    )
    for tag, et, count, body, what, after in cases:
        data = header(0, 2 if after else 1) + kv_arr(key, et, count, body) + after
        add("GG130-array-count-%s" % tag, data, what + ": GG130 by the count limit (2^30) alone", "GG130",
            offset=count_at)


def long_string_utf8(add):
    key = "k.str"
    n = WINDOW + 4
    body = bytearray(b"u" * n)
    body[1] = 0xFF  # in the first 64 KiB window
    body[WINDOW + 2] = 0xFE  # in the second
    data = header(0, 1) + kv(key, STR, gstr(bytes(body)))
    add("GG507-long-string-bad-bytes-in-two-windows", data,
        "string value of %d bytes with FF at byte 1 and FE at byte %d (the second 64 KiB window): the first is "
        "reported (--strict)" % (n, WINDOW + 2), "GG507", expect="implementation_defined", mode="strict",
        offset=HDR + 8 + len(key) + 4 + 8 + 1)


def stream_keep(add):
    first = gstr(b"abcd")  # 12 bytes
    arrays = b""
    for j, end in enumerate((WINDOW, WINDOW + 1)):
        second = gstr(b"s" * (end - len(first) - 8))
        assert len(first) + len(second) == end
        arrays += kv_arr("k.keep%d" % j, STR, 3, first + second + gstr(b"z"))
    add("valid-string-arrays-keep-limit-exact-and-one-past", header(0, 2) + arrays,
        "two string arrays of 3 whose first two elements (length fields and bodies) end exactly at 65,536 bytes "
        "and at 65,537 (a forward-only stream keeps the first array's two and the other's first only)",
        extra=[("valid-string-arrays-keep-limit-exact-and-one-past-strict", "valid", "-", "strict")])


def string_keep(add):
    # string values of 255, 256 and 257 bytes: a forward-only stream keeps a string value of up to 256
    # bytes (readable afterwards) and skips a longer one's body (io_error when read)
    kvs = b"".join(kv("k.s%d" % n, STR, gstr(b"v" * n)) for n in (255, 256, 257))
    add("valid-string-values-keep-limit-256", header(0, 3) + kvs,
        "three string values of 255, 256 and 257 bytes (a forward-only stream keeps the first two, not the third)",
        extra=[("valid-string-values-keep-limit-256-strict", "valid", "-", "strict")])


def string_marks(add):
    key = "k.tok"
    count_at = HDR + 8 + len(key) + 4 + 4
    for count, tag in ((64 * 4096, "262144"), (64 * 4096 + 1, "262145"), (2**30, "2-30")):
        data = header(0, 1) + kv_arr(key, STR, count, gstr(b"a") * 8192)
        add("GG130-string-array-count-%s-8192-elements-there" % tag, data,
            "string array of %d elements, 8,192 of them (9 bytes each) there: count x 8 past the end (a stream "
            "reads the elements first, keeping a mark every 64, stride doubled above 4,096 marks)" % count, "GG130",
            offset=count_at, index=0)


def string_at_eof(add):
    key = "k.tok"
    for index in (0, 1, 64):
        head = header(0, 1) + kv_arr(key, STR, index + 1, gstr("a") * index)
        add("GG102-array-element-%d-length-field-ends-at-eof" % index, head + u64(1),
            "string array of %d: %d strings \"a\", then element %d of length 1 whose length field ends the file"
            % (index + 1, index, index), "GG102", offset=len(head), index=0)


def many_keys(add):
    n = 2**17
    kvs = [kv("a%05x" % j, U8, u8(j & 0xFF)) for j in range(n)]
    dup = kv("a%05x" % 0, U8, u8(0))
    add("GG111-duplicate-after-131072-keys-of-6-bytes", header(0, n + 1) + b"".join(kvs) + dup,
        "131,072 distinct keys a00000..a1ffff (u8 values), then a00000 again: GG111 at the last KV (about two "
        "pairs of distinct keys share the key set's 32-bit hash per parse)", "GG111",
        offset=HDR + sum(map(len, kvs)), index=n,
        extra=[("GG111-duplicate-after-131072-keys-of-6-bytes-strict", "parser_error", "GG111", "strict"),
               ("GG111-duplicate-after-131072-keys-of-6-bytes-header-only", "parser_error", "GG111",
                "header-only")])


def key_first_byte(add):
    for key, tag in (("Ab", "capital"), (".ab", "dot"), ("-ab", "dash")):
        for index in (0, 1):
            kvs = [kv("k.%d" % j, U8, u8(j)) for j in range(2)]
            kvs[index] = kv(key, U8, u8(index))
            data = header(0, 2) + b"".join(kvs)
            add("GG506-key-first-byte-%s-kv%d" % (tag, index), data,
                "KV %d of 2: key %s, its first byte alone outside [a-z0-9_] (--strict)" % (index, key), "GG506",
                expect="implementation_defined", mode="strict", offset=HDR + sum(map(len, kvs[:index])) + 8,
                index=index)


def count_fires_early(add):
    big = 2**31 + 1
    for ne, j in (([2**33, big, 1], 1), ([2**33, 1, big, 1], 2)):
        data = header(1, 0) + ti("t", ne, 24, 0)
        shape = "[%s]" % ", ".join(str(d) for d in ne)
        add("GG206-count-passes-2-63-at-ne%d-of-%d" % (j, len(ne)), data,
            "i8 tensor %s: the element count passes 2^63 at ne[%d] (wrapping to 2^33), before the last "
            "dimension" % (shape, j), "GG206", offset=HDR + 8 + 1 + 4 + 8 * j, index=0)


def utf8_cut_by_string_end(add):
    nxt = kv("k" * 0x80, U8, u8(0))  # KV 1, a key of 128 bytes: its length field starts with 0x80
    assert nxt[:1] == b"\x80"
    for lead, tag in ((b"\xc3", "c3"), (b"\xe2\x82", "e2-82"), (b"\xf0\x9f\x98", "f0-9f-98")):
        for n, kind in ((max(2, len(lead)), "value"), (300, "long-value")):
            body = b"v" * (n - len(lead)) + lead
            first = kv("k.s", STR, gstr(body))
            data = header(0, 2) + first + nxt
            add("GG507-%s-ends-in-lead-%s-then-continuation" % (kind, tag), data,
                "KV 0: a string value of %d bytes ending in %s (cut), then KV 1 whose key length field starts "
                "with 0x80 (--strict)" % (n, tag.upper().replace("-", " ")), "GG507",
                expect="implementation_defined", mode="strict", offset=len(header(0, 2) + first) - len(lead),
                index=0)
        body = b"v" + lead
        first = kv_arr("k.a", STR, 2, gstr(b"a") + gstr(body))
        data = header(0, 2) + first + nxt
        add("GG507-array-element-1-ends-in-lead-%s-then-continuation" % tag, data,
            "KV 0: a string array of 2 whose element 1 ends in %s (cut), then KV 1 whose key length field "
            "starts with 0x80 (--strict)" % tag.upper().replace("-", " "), "GG507",
            expect="implementation_defined", mode="strict", offset=len(header(0, 2) + first) - len(lead), index=0)


def long_key_utf8(add):
    n = WINDOW + 4
    key = bytearray(b"k" * n)
    key[1] = 0xFF  # in the first 64 KiB window
    key[WINDOW + 2] = 0xFE  # in the second
    data = header(0, 1) + kv(bytes(key), U8, u8(1))
    add("GG504-long-key-bad-bytes-in-two-windows", data,
        "key of %d bytes with FF at byte 1 and FE at byte %d (the second 64 KiB window): the first is reported "
        "(--strict)" % (n, WINDOW + 2), "GG504", expect="implementation_defined", mode="strict",
        offset=HDR + 8 + 1, index=0)
    # a key longer than the window that ends in a cut UTF-8 sequence: its last piece is checked whole
    # (a reader that holds back the last piece's trailing lead, as it does for the pieces before, never
    # checks it)
    for tag, lead in (("c3", b"\xc3"), ("e2-82", b"\xe2\x82"), ("f0-9f-98", b"\xf0\x9f\x98")):
        key = b"k" * (WINDOW + 4 - len(lead)) + lead
        add("GG504-long-key-ends-in-lead-%s" % tag, header(0, 1) + kv(key, U8, u8(1)),
            "key of %d bytes ending in %s (a cut sequence, in the key's second 64 KiB piece) (--strict)"
            % (len(key), tag.upper().replace("-", " ")), "GG504", expect="implementation_defined", mode="strict",
            offset=HDR + 8 + len(key) - len(lead), index=0)
    # KV 1's key has a 3-byte sequence across its first 64 KiB piece, so its first piece is one byte
    # short and the second is copied at byte 65,535 of its kept 64 KiB; KV 2 repeats KV 0's long key: a
    # copy placed anywhere else changes what KV 0 or KV 1 keeps, and the duplicate is missed
    first = b"".join(b"a%05d_" % i for i in range(WINDOW // 7 + 12))[:WINDOW + 64]
    across = ("k" * (WINDOW - 1) + "\u20ac" + "k" * 60).encode()
    data = header(0, 3) + kv(first, U8, u8(1)) + kv(across, U8, u8(2)) + kv(first, U8, u8(3))
    off = len(header(0, 3) + kv(first, U8, u8(1)) + kv(across, U8, u8(2)))
    add("GG111-long-key-again-after-a-key-utf8-across-window", data,
        "KV 0 and KV 2: the same %d-byte key; KV 1: a %d-byte key with a 3-byte sequence across its first "
        "64 KiB piece (--strict reads it in two pieces, the first one byte short)" % (len(first), len(across)),
        "GG111", offset=off, index=2,
        extra=[("GG111-long-key-again-after-a-key-utf8-across-window-strict", "parser_error", "GG111", "strict")])


def stream_cut_past_first_window(add):
    # KV 0: a string value a stream skips (> 256 bytes), sized so that KV 1's string body starts 20
    # bytes before the first window's end; the file ends 50 bytes into that body
    key, n, left = "k.s", 100, 20
    head = header(0, 2)
    tail = kv(key, STR, gstr(b"v" * n))[:-n]  # KV 1 up to its body
    big = WINDOW - left - len(head) - len(tail) - (8 + len("k.big") + 4 + 8)
    first = kv("k.big", STR, gstr(b"b" * big))
    data = head + first + tail + b"v" * 50
    assert len(head + first + tail) == WINDOW - left and len(data) > WINDOW
    add("GG102-kept-string-cut-past-first-window", data,
        "KV 1: a string value of %d bytes whose body starts %d bytes before 64 KiB, the file ending 50 bytes into "
        "it (a stream meets the end while copying the body)" % (n, left), "GG102",
        offset=len(head + first) + 8 + len(key) + 4, index=1)


def shape_cuts(add):
    w = ti("w", [4, 2], 0, 0)
    ne = ti_fields(0, "w", 2)["ne"]  # ne[0], ne[1] within the tensor info
    add("GG201-cut-in-ne0-4-of-8", header(1, 0) + w[:ne[0] + 4],
        "tensor info 0 of 1 (2 dimensions) cut after 4 of the 8 bytes of ne[0]", "GG201", offset=HDR + ne[0],
        index=0)
    add("GG201-cut-at-ne1", header(1, 0) + w[:ne[1]],
        "tensor info 0 of 1 (2 dimensions): the file ends where ne[1] starts", "GG201", offset=HDR + ne[1],
        index=0)
    a = ti("a", [8], 0, 0)
    add("GG201-cut-in-ne1-second-tensor", header(2, 0) + a + w[:ne[1] + 5],
        "tensor info 1 of 2 (2 dimensions) cut after 5 of the 8 bytes of ne[1]", "GG201",
        offset=HDR + len(a) + ne[1], index=1)


def build(add):
    cuts(add)
    wraps(add)
    long_string_utf8(add)
    stream_keep(add)
    string_keep(add)
    string_marks(add)
    string_at_eof(add)
    many_keys(add)
    key_first_byte(add)
    count_fires_early(add)
    utf8_cut_by_string_end(add)
    long_key_utf8(add)
    stream_cut_past_first_window(add)
    shape_cuts(add)
