"""st_low_surrogate_hex.py: a high surrogate escape followed by a \\u escape with a non-hex digit (issue 38,
item 2; found by an st_json.c mutant that the corpus left alive). serde_json reads the second escape's
four digits before it asks whether they make a low surrogate, so a bad digit is an invalid escape (ST115,
at the second escape's backslash), not a lone surrogate (ST116, at the first one): a scanner that goes on
to the low-surrogate range test after a bad digit reports ST116.
The bad digit 'G' at each of the four positions of \\uDC00 after \\uD800 in a tensor name, and at the
last position in a __metadata__ value (every other byte of the file valid: one U8 [1] tensor, its byte).
Called by st_fixtures.py with its add(); the offset column is computed here from the text written.
The crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import st_file

E = '{"dtype":"U8","shape":[1],"data_offsets":[0,1]}'


def low(pos):
    """\\uDC00 with digit pos (0-3) replaced by G."""
    digits = list("DC00")
    digits[pos] = "G"
    return "\\u" + "".join(digits)


def build(add):
    for pos in range(4):
        h = '{"a\\uD800%s":%s}' % (low(pos), E)
        add("ST115-high-surrogate-then-bad-hex-digit%d" % pos, st_file(h, 1),
            "tensor name a\\uD800%s: a high surrogate, then a \\u escape whose digit %d is not hex "
            "(ST115 at the second escape, not ST116)" % (low(pos), pos),
            "ST115", offset=8 + h.rindex("\\u"))
    h = '{"__metadata__":{"k":"\\uD800%s"},"a":%s}' % (low(3), E)
    add("ST115-metadata-value-high-surrogate-then-bad-hex", st_file(h, 1),
        "__metadata__ value \\uD800%s: a high surrogate, then a \\u escape whose last digit is not hex "
        "(ST115 at the second escape, not ST116)" % low(3), "ST115", offset=8 + h.rindex("\\u"))
