"""st_strict_and_canonical.py: safetensors files with a strict-profile fault before a canonical one
(issue 38; found by the held-back slip st-strict-before-validate: the first strict violation reported
right after the JSON, before the offsets are validated, so under --strict a file with both gets the
strict rule).

The strict profile adds rules to the crate's, it never replaces one: a file the crate rejects gets
the crate's rule in every profile.  Each file has two U8 [1] tensors a [0,1] and b [1,2] with one
canonical fault in b and, before it in the text, one fault only --strict reports:
- strict faults: a listed twice (ST501), a space before the '{' (ST502), __metadata__ with a key
  twice (ST503), an unknown field in a (ST504), a newline after the closing '}' (ST507);
- canonical faults: b shape [2] over one byte (ST306), b at [2,3] with 3 data bytes (a gap: ST301),
  1 data byte where the tensors need 2 (ST308).
Each line is a default-profile line; `tfs conform --profile strict` runs it too and wants the same
rule, and the index of b (1; left empty where a is listed twice).  Called by st_fixtures.py with its
add(); the crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import st_file

A = '"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}'
A_X = '"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":1}'
STRICT = [
    ("ST501", "duplicate-name", "a listed twice", lambda b: "{%s,%s,%s}" % (A, A, b)),
    ("ST502", "space-before-brace", "a space before the opening brace", lambda b: " {%s,%s}" % (A, b)),
    ("ST503", "duplicate-metadata-key", '__metadata__ {"k":"v","k":"w"} first',
     lambda b: '{"__metadata__":{"k":"v","k":"w"},%s,%s}' % (A, b)),
    ("ST504", "unknown-field", 'an unknown field "x":1 in a', lambda b: "{%s,%s}" % (A_X, b)),
    ("ST507", "newline-after-brace", "a newline after the closing brace", lambda b: "{%s,%s}\n" % (A, b)),
]
CANON = [
    ("ST306", "b-shape-2-over-1-byte", '"b":{"dtype":"U8","shape":[2],"data_offsets":[1,2]}', 2,
     "b U8 [2] over data_offsets [1,2] (one byte for two)"),
    ("ST301", "b-after-a-gap", '"b":{"dtype":"U8","shape":[1],"data_offsets":[2,3]}', 3,
     "b U8 [1] at [2,3] where a ends at 1 (a gap), 3 data bytes"),
    ("ST308", "data-short", '"b":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}', 1,
     "a U8 [1] at [0,1], b U8 [1] at [1,2], 1 data byte"),
]


def build(add):
    for srule, stag, sdesc, make in STRICT:
        for crule, ctag, b, data, cdesc in CANON:
            add("%s-%s-before-%s-%s" % (crule, ctag, srule, stag), st_file(make(b), data),
                "%s; before it %s (%s under --strict only): %s in every profile" % (cdesc, sdesc, srule, crule),
                crule, index=None if srule == "ST501" else 1)
