"""st_operands.py: safetensors fixtures at the boundary of each operand of a size, count, sum or
product check, and at every follower of an escape or UTF-8 lead byte (issue 16, item 3; the
table per rule is in docs/fixtures.md, "Boundaries per operand").  Called by st_fixtures.py
with its add(); every expectation is checked against the Rust crate's recorded verdict
(corpus/CRATE_VERDICTS.tsv, maint/crate_verdicts.py; ctest test_crate_verdicts).

- strings of every kind (tensor name, field name, dtype, ignored field value, __metadata__ key
  and value) whose closing quote lies 0, 1, 7, 8 or 9 bytes past the end of the header;
- UTF-8: for every lead byte class, the second (and third, fourth) byte one below and one above
  the allowed range, and the lead bytes at the class edges; the allowed edges in one valid file;
- escapes: the bytes next to every valid escape letter, and a non-hex byte next to each hex
  digit range at every position of \\uXXXX; surrogate edges;
- offsets and sizes in a later record as well as the first; the shape product overflowing at
  each dimension position, and exactly 2^64 - 1; elements x bits at 2^64 and one element below.
"""
from tfsgen.safetensors import U64_MAX, ent, obj, one, st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'


def strings(add):
    """The header cut so that a 16-byte string's closing quote is d bytes past its end."""
    s = "s" * 16
    kinds = [
        ("name", '{"%s":{' % s + E + "}}", "a tensor name"),
        ("field-name", '{"a":{"%s":1,' % s + E + "}}", "an entry field name"),
        ("dtype", '{"a":{"dtype":"%s","shape":[1],"data_offsets":[0,1]}}' % s, "a dtype string"),
        ("ignored-value", '{"a":{' + E + ',"x":"%s"}}' % s, "an ignored field's string value"),
        ("metadata-key", '{"__metadata__":{"%s":"v"},"a":{' % s + E + "}}", "a __metadata__ key"),
        ("metadata-value", '{"__metadata__":{"k":"%s"},"a":{' % s + E + "}}", "a __metadata__ value"),
    ]
    for kind, text, what in kinds:
        close = text.index(s) + len(s)  # index of the closing quote
        for d in (0, 1, 7, 8, 9):
            cut = text[:close + 1 - d]
            add("ST111-string-%s-past-end-by-%d" % (kind, d), st_file(cut, 1),
                "%s of 16 bytes whose closing quote is %d bytes past the end of the header" % (what, d)
                if d else "%s of 16 bytes; the header ends right after its closing quote" % what, "ST111")


# (lead, follower bytes): invalid sequences at the edges of each class (Unicode table 3-7)
UTF8_BAD = [
    ("c1-bf", b"\xc1\xbf", "lead C1 (overlong 2-byte form)"),
    ("c2-7f", b"\xc2\x7f", "C2 then 7F (below the continuation range)"),
    ("c2-c0", b"\xc2\xc0", "C2 then C0 (above the continuation range)"),
    ("df-c0", b"\xdf\xc0", "DF then C0"),
    ("e0-9f-bf", b"\xe0\x9f\xbf", "E0 then 9F: overlong (E0 needs A0..BF)"),
    ("e0-c0-80", b"\xe0\xc0\x80", "E0 then C0"),
    ("e0-a0-7f", b"\xe0\xa0\x7f", "E0 A0 then 7F as the third byte"),
    ("e0-a0-c0", b"\xe0\xa0\xc0", "E0 A0 then C0 as the third byte"),
    ("e1-7f-80", b"\xe1\x7f\x80", "E1 then 7F"),
    ("ec-c0-80", b"\xec\xc0\x80", "EC then C0"),
    ("ed-a0-80", b"\xed\xa0\x80", "ED then A0: encoded surrogate (ED needs 80..9F)"),
    ("ed-7f-80", b"\xed\x7f\x80", "ED then 7F"),
    ("ee-7f-80", b"\xee\x7f\x80", "EE then 7F"),
    ("ef-c0-80", b"\xef\xc0\x80", "EF then C0"),
    ("ef-bf-c0", b"\xef\xbf\xc0", "EF BF then C0 as the third byte"),
    ("f0-8f-bf-bf", b"\xf0\x8f\xbf\xbf", "F0 then 8F: overlong (F0 needs 90..BF)"),
    ("f0-c0-80-80", b"\xf0\xc0\x80\x80", "F0 then C0"),
    ("f1-7f-80-80", b"\xf1\x7f\x80\x80", "F1 then 7F"),
    ("f3-c0-80-80", b"\xf3\xc0\x80\x80", "F3 then C0"),
    ("f1-80-7f-80", b"\xf1\x80\x7f\x80", "F1 80 then 7F as the third byte"),
    ("f1-80-80-7f", b"\xf1\x80\x80\x7f", "F1 80 80 then 7F as the fourth byte"),
    ("f1-80-80-c0", b"\xf1\x80\x80\xc0", "F1 80 80 then C0 as the fourth byte"),
    ("f4-90-80-80", b"\xf4\x90\x80\x80", "F4 then 90: above U+10FFFF (F4 needs 80..8F)"),
    ("f4-7f-80-80", b"\xf4\x7f\x80\x80", "F4 then 7F"),
    ("f5-80-80-80", b"\xf5\x80\x80\x80", "lead F5"),
]
UTF8_GOOD = [b"\xc2\x80", b"\xdf\xbf", b"\xe0\xa0\x80", b"\xe0\xbf\xbf", b"\xe1\x80\x80", b"\xec\xbf\xbf",
             b"\xed\x80\x80", b"\xed\x9f\xbf", b"\xee\x80\x80", b"\xef\xbf\xbf", b"\xf0\x90\x80\x80",
             b"\xf0\xbf\xbf\xbf", b"\xf1\x80\x80\x80", b"\xf3\xbf\xbf\xbf", b"\xf4\x80\x80\x80", b"\xf4\x8f\xbf\xbf"]


def utf8(add):
    for name, seq, what in UTF8_BAD:
        add("ST101-follower-%s" % name, st_file(b'{"a' + seq + b'":{' + E.encode() + b"}}", 1),
            "tensor name with %s" % what, "ST101")
    body = b",".join(b'"a' + seq + b'":' + ent("U8", [1], i, i + 1).encode() for i, seq in enumerate(UTF8_GOOD))
    add("valid-utf8-follower-bounds", st_file(b"{" + body + b"}", len(UTF8_GOOD)),
        "16 tensor names, each with a UTF-8 sequence at an edge of its lead byte's allowed followers")


def escapes(add):
    # neighbours of the escape letters " / \ b f n r t u (\q, \x, \', \U: ST115 fixtures before)
    for ch in "!#.0[]acegmosv":
        add("ST115-escape-follower-%02x" % ord(ch), st_file('{"a\\%s":{' % ch + E + "}}", 1),
            "name with the escape \\%s (next to a valid escape letter)" % ch, "ST115")
    for pos in range(4):
        for ch in "/:@G`g":
            digits = ["0"] * 4
            digits[pos] = ch
            add("ST115-unicode-digit%d-%02x" % (pos, ord(ch)), st_file('{"a\\u%s":{' % "".join(digits) + E + "}}", 1),
                "name with \\u%s: %r is not a hex digit (position %d)" % ("".join(digits), ch, pos), "ST115")
    rot = "09AFaf" * 2
    names = ["a\\u" + rot[i:i + 4] for i in range(6)] + ["b\\uD7FF", "b\\uE000", "b\\uDBFF\\uDC00", "b\\uD800\\uDFFF"]
    add("valid-escape-hex-and-surrogate-edges", st_file(obj(*((n, ent("U8", [1], i, i + 1)) for i, n in enumerate(names))),
                                                         len(names)),
        "names with \\u escapes: every hex digit edge (0 9 A F a f) at every position, and the surrogate edges "
        "D7FF, E000, DBFF DC00, D800 DFFF")
    add("ST116-high-then-e000", st_file('{"a\\udbff\\ue000":{' + E + "}}", 1),
        "high surrogate DBFF followed by E000 (just above the low range)", "ST116")
    add("ST116-lone-dfff", st_file('{"a\\udfff":{' + E + "}}", 1), "lone low surrogate DFFF (the top of the range)",
        "ST116")
    add("ST116-d7ff-then-dc00", st_file('{"a\\ud7ff\\udc00":{' + E + "}}", 1),
        "D7FF (not a surrogate) then DC00: a lone low surrogate", "ST116")


def validate(add):
    a, b = ent("U8", [4], 0, 4), ent("U8", [4], 4, 8)
    later = lambda c, n: st_file(obj(("a", a), ("b", b), ("c", c)), n)
    add("ST301-later-overlap-by-1", later(ent("U8", [4], 7, 11), 11),
        "third tensor starts 1 byte before the running end (8)", "ST301")
    add("ST301-later-gap-by-1", later(ent("U8", [4], 9, 13), 13),
        "third tensor starts 1 byte after the running end (8)", "ST301")
    add("ST302-later-end-before-start", later(ent("U8", [0], 8, 7), 8),
        "third tensor's data_offsets [8, 7]", "ST302")
    add("valid-later-zero-size-end-equals-start", later(ent("U8", [0], 8, 8), 8),
        "third tensor's data_offsets [8, 8], zero elements")
    add("ST306-later-one-byte-more", later(ent("F32", [1], 8, 13), 13), "third tensor F32 [1] given 5 bytes", "ST306")
    add("ST306-later-one-byte-less", later(ent("F32", [1], 8, 11), 11), "third tensor F32 [1] given 3 bytes", "ST306")
    add("ST305-later-f4-odd", later(ent("F4", [3], 8, 10), 10), "third tensor F4 [3] (12 bits)", "ST305")
    for shape in ([2**32, 2**32], [1, 2**32, 2**32], [1, 1, 2**32, 2**32], [2, 2**63]):
        add("ST303-shape-%s" % "-".join("2pow%d" % (x.bit_length() - 1) if x > 2 else str(x) for x in shape),
            st_file(one('"dtype":"U8","shape":[%s],"data_offsets":[0,1]' % ",".join(map(str, shape))), 1),
            "U8 shape %s: the product reaches 2^64 at its last dimension" % shape, "ST303")
    for shape in ([4294967295, 4294967297], [3, 5, 17, 257, 641, 65537, 6700417]):
        add("ST304-product-u64-max-%d-dims" % len(shape),
            st_file(one('"dtype":"U8","shape":[%s],"data_offsets":[0,1]' % ",".join(map(str, shape))), 1),
            "U8 shape %s: the product is exactly 2^64 - 1 (no ValidationOverflow there), x 8 bits overflows"
            % shape, "ST304")
    for dtype, n, bits in (("U8", 2**61, 8), ("F16", 2**60, 16)):
        add("ST304-%s-ne1-2pow%d" % (dtype.lower(), n.bit_length() - 1),
            st_file(one('"dtype":"%s","shape":[1,%d],"data_offsets":[0,1]' % (dtype, n)), 1),
            "%s shape [1, 2^%d]: 2^64 bits" % (dtype, n.bit_length() - 1), "ST304")
        add("ST306-%s-ne1-2pow%d-minus-1" % (dtype.lower(), n.bit_length() - 1),
            st_file(one('"dtype":"%s","shape":[1,%d],"data_offsets":[0,1]' % (dtype, n - 1)), 1),
            "%s shape [1, 2^%d - 1]: %d bits below 2^64 fit (no ValidationOverflow), size differs"
            % (dtype, n.bit_length() - 1, bits), "ST306")
    add("ST305-f6-five", st_file(one('"dtype":"F6_E3M2","shape":[5],"data_offsets":[0,4]'), 4),
        "F6_E3M2 with 5 elements (30 bits)", "ST305")
    assert U64_MAX == 2**64 - 1


def build(add):
    strings(add)
    utf8(add)
    escapes(add)
    validate(add)
