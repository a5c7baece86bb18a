"""st_shape_positions.py: safetensors shapes whose bad dimension is not the first (ST222; issue 38,
held-back slip a3 of maint/slips/2026-12-07: only the first dimension checked for a non-negative
integer, later ones taken as 0).  Called by st_fixtures.py with its add().

The bad number (-1, 1.5, 2.0, 1e0: negative, fractional, integral but written as a float, an
exponent) at dimension 1 of 2, dimension 1 of 3 and the last of 3, the other dimensions 2 and 3;
the entry U8 with data_offsets [s, s] (no bytes: a reader that took the bad number as 0 accepts),
on the reader's fast path (the canonical field order dtype, shape, data_offsets) and its generic
path (shape first), as entry 0 of 1 and as entry 1 after a valid U8 [1] entry.  ST222 at the bad
number (the offset of its first byte in the file).  The crate's verdicts:
corpus/CRATE_VERDICTS.tsv.
"""

from tfsgen.safetensors import st_file

BAD = [("-1", "negative"), ("1.5", "fraction"), ("2.0", "float-integral"), ("1e0", "exponent")]
SHAPES = [("dim1-of-2", ["2", None]), ("dim1-of-3", ["2", None, "3"]), ("dim2-last-of-3", ["2", "3", None])]
ORDERS = [("fast", '"dtype":"U8","shape":%s,"data_offsets":[%d,%d]'),
          ("generic", '"shape":%s,"dtype":"U8","data_offsets":[%d,%d]')]
FIRST = '"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}'


def build(add):
    for bad, btag in BAD:
        for stag, dims in SHAPES:
            shape = "[" + ",".join(bad if d is None else d for d in dims) + "]"
            for otag, body in ORDERS:
                for index in (0, 1):
                    start = index  # entry 1 follows a U8 [1] entry over byte 0
                    ent = '"t":{' + body % (shape, start, start) + "}"
                    header = "{" + (FIRST + "," if index else "") + ent + "}"
                    # the bad number: the shape text's position plus the dimensions before it
                    at = header.index(shape) + 1 + sum(len(d) + 1 for d in dims[:dims.index(None)])
                    assert header[at:at + len(bad)] == bad
                    add("ST222-shape-%s-%s-%s-entry%d" % (btag, stag, otag, index), st_file(header, index),
                        "shape %s (%s path) in entry %d of %d" % (shape, otag, index, index + 1), "ST222",
                        offset=8 + at)
