"""st_order_prefix.py: safetensors fixtures whose JSON order follows data_offsets for the first
entries and breaks later (issue 38, held-back slip a2 of maint/slips/2026-12-06: an "entries
already in offset order?" test that looks at the first few entries only walks the rest in JSON
order).  Called by st_fixtures.py with its add().

Each file has n U8 tensors of one byte laid end to end from offset 0 (names t000 ...), listed in
offset order except that entries b - 1 and b are swapped: the first b entries follow
data_offsets and entry b starts before its predecessor.  The break is at entry 8 (the first
entry after an 8-entry prefix), at entry 32 (the last one the insertion sort takes, 33 tensors:
the radix sort) and at the last entry.  Each valid file has an ST301 twin whose entry b starts
one byte later (a gap before it, and every tensor after it one byte later): walked in
(start, end) order the gap is met at entry b; walked in JSON order it is met at entry b - 1,
whose start is past the running offset.  The crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from st_positions import Header, name, value_at
from tfsgen.safetensors import st_file

# (tensors, entry whose start comes before its predecessor's)
BREAKS = ((9, 8), (33, 8), (33, 32), (40, 8), (40, 32), (40, 39))


def broken_order(n, b, gap):
    """The header of n one-byte U8 tensors listed in offset order but for entries b - 1 and b
    swapped; gap: the tensor listed at b, and all after it in offset order, one byte later.
    Returns (bytes, Header, the name of the entry listed at b)."""
    order = list(range(n))
    order[b - 1], order[b] = order[b], order[b - 1]
    h = Header()
    for j in order:  # tensor j (offset rank j) at [j, j + 1], or one byte later from rank b - 1
        s = j + (1 if gap and j >= b - 1 else 0)
        h.member(name(j), '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (s, s + 1))
    return st_file(h.done(), n + (1 if gap else 0)), h, name(order[b])


def build(add):
    for n, b in BREAKS:
        last = "-last" if b == n - 1 else ""
        data, _, _ = broken_order(n, b, False)
        add("valid-order-break-at-%d%s-of-%d" % (b, last, n), data,
            "%d one-byte U8 tensors, the first %d entries in offset order, entry %d (%s) starting before "
            "its predecessor (%s)" % (n, b, b, "the last" if last else "not the last",
                                      "insertion sort" if n <= 32 else "radix sort"))
        data, h, listed = broken_order(n, b, True)
        add("ST301-order-break-at-%d%s-of-%d-gap" % (b, last, n), data,
            "the file of valid-order-break-at-%d%s-of-%d with a one-byte gap before the tensor listed at %d "
            "(and every later tensor one byte later): in (start, end) order the gap is at entry %d; walked in "
            "JSON order it would be found at entry %d" % (b, last, n, b, b, b - 1),
            "ST301", offset=value_at(h, listed, '"data_offsets":'))
