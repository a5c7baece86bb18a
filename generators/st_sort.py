"""st_sort.py: safetensors fixtures that pin the order in which tensors are walked (ST3xx), for
both of tfs's sorts (insertion sort up to 32 tensors, LSD radix sort above; issue 16, item 4:
st_validate.c mutants of the sort keys, the sorts and the last tensor's index).  Called by
st_fixtures.py with its add(); every expectation is checked against the Rust crate's recorded
verdict (corpus/CRATE_VERDICTS.tsv).

Each file has n U8 tensors laid end to end from offset 0, listed in a shuffled order, with
sizes whose offsets differ in every byte of both start and end (2^(8k) - 1, 2^(8k), 2^(8k) + 1
for k = 1..7; one of 2^57 bytes at 0, whose end differs from 0 only above bit 56) and zero-size
tensors (a start shared with the next tensor: (s, s) must come
before (s, e), so the end is a sort key too).  With no data bytes at all the crate answers
MetadataIncompleteBuffer (ST308) only if it walks the tensors in (start, end) order; any other
order meets a start that is not the running offset first (ST301).

Small valid files (valid-order-*) list three tensors so that one comparison of the "already in
offset order?" test (which skips the sort) would wrongly say yes: walked unsorted they fail.
"""
from tfsgen.safetensors import ent, obj, st_file

BIG = [(1 << (8 * k)) + d for k in range(1, 8) for d in (-1, 0, 1)]  # 21 sizes


def layout(n):
    """Sizes in offset order: the big ones with a zero-size tensor before every other one,
    then small ones, ending with a zero-size tensor (the one that ends last: ST308's index)."""
    sizes = [0, 1 << 57]  # ends 0 and 2^57 differ only above bit 56
    for i, b in enumerate(BIG):
        if i % 2 == 0:
            sizes.append(0)
        sizes.append(b)
    k = 1
    while len(sizes) < n - 1:
        sizes.append(k)
        k += 1
    sizes = sizes[:n - 1]
    if sizes[-1] == 0:  # one zero-size tensor at the end, after a tensor ending there
        sizes[-1] = 5
    sizes.append(0)
    assert len(sizes) == n and sum(sizes) < 1 << 63
    return sizes


def shuffled(n, mult, last_end_before_start=False):
    """File position i holds the tensor of offset-order position (i * mult + 3) % n, except that
    the zero-size tensor at 0 is listed after the 2^57-byte one sharing its start.
    last_end_before_start: the last tensor [E, E - 1] instead of [E, E] (ST302)."""
    sizes = layout(n)
    offs, at = [], 0
    for s in sizes:
        offs.append((at, at + s))
        at += s
    if last_end_before_start:
        offs[-1] = (at, at - 1)
    order = [(i * mult + 3) % n for i in range(n)]
    a, b = order.index(0), order.index(1)
    if a < b:
        order[a], order[b] = 1, 0
    assert sorted(order) == list(range(n)) and order != sorted(order)
    pos = {j: i for i, j in enumerate(order)}
    # a zero-size tensor listed after the tensor sharing its start: the end decides
    assert any(sizes[j] == 0 and j + 1 < n and offs[j + 1][0] == offs[j][0] and pos[j] > pos[j + 1]
               for j in range(n))
    pairs = [("t%02d" % j, ent("U8", [sizes[j]], *offs[j])) for j in order]
    return obj(*pairs)


# Small files (the insertion sort) whose file order fools one comparison of the "already in
# offset order?" test that decides whether to sort at all; each is valid (st-oracle: OK 3).
SMALL = [
    ("valid-order-reverse-3", [("c", 8, 12), ("b", 4, 8), ("a", 0, 4)],
     "three tensors listed backwards: every pair's start decreasing"),
    ("valid-order-first-two-swapped", [("b", 4, 8), ("a", 0, 4), ("c", 8, 12)],
     "only the first two tensors out of offset order (the rest in order)"),
    ("valid-order-zero-size-after-twin", [("a", 0, 2), ("e", 2, 4), ("z", 2, 2)],
     "a zero-size tensor listed after the tensor sharing its start: equal starts, ends decreasing"),
    ("valid-order-zero-size-first", [("z", 4, 4), ("a", 0, 4), ("b", 4, 8)],
     "a zero-size tensor listed first, ending where the next listed one ends: starts decreasing, "
     "ends equal"),
]


def build(add):
    for fid, tensors, desc in SMALL:
        end = max(e for _, _, e in tensors)
        add(fid, st_file(obj(*[(k, ent("U8", [e - s], s, e)) for k, s, e in tensors]), end), desc)
    for n, path in ((32, "insertion sort, the most tensors it takes"), (33, "radix sort, the fewest"),
                    (40, "radix sort")):
        add("ST308-order-wide-offsets-%d" % n, st_file(shuffled(n, 7), 0),
            "%d U8 tensors end to end, shuffled (%s), offsets differing in all 8 bytes of start and end, "
            "zero-size tensors listed after the tensor sharing their start; no data bytes: only the "
            "(start, end) walk order reaches ST308" % (n, path), "ST308")
    for n, path in ((32, "insertion sort"), (40, "radix sort")):
        add("ST302-order-wide-offsets-%d" % n, st_file(shuffled(n, 7, True), 0),
            "the same %d tensors (%s), the last one [E, E - 1]: walked in (start, end) order it starts "
            "at the running offset and ends before its start (ST302); an order that puts it before the "
            "tensor ending at E (by end first, say) finds ST301" % (n, path), "ST302")
    # an inversion followed by tensors sharing one start: a pairwise "already in offset order?" scan
    # that compares the wrong neighbour on a start tie says yes, and the JSON order reports the first
    # tensor; in (start, end) order [0,1] [0,2] [1,1] the second one overlaps the first (ST301, tensor c)
    h = obj(("a", ent("U8", [0], 1, 1)), ("b", ent("U8", [1], 0, 1)), ("c", ent("U8", [2], 0, 2)))
    add("ST301-inversion-then-start-tie", st_file(h, 2),
        "a U8 [0] at [1,1], b U8 [1] at [0,1], c U8 [2] at [0,2], 2 data bytes: in (start, end) order c "
        "starts at 0 where b ended at 1 (ST301 names c, tensor 2); walked in JSON order a fails first",
        "ST301", offset=8 + h.index('"data_offsets":', h.index('"c"')) + len('"data_offsets":'))
