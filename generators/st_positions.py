"""st_positions.py: safetensors fixtures made systematically (issue 38, item 3; docs/fixtures.md,
"Positions and extremes").  Called by st_fixtures.py with its add().

- every per-entry check (ST201 ST202 ST203 ST210 ST211 ST220 ST221 ST222, the walk's ST301
  ST302 ST303 ST304 ST305 ST306, __metadata__ ST402, strict ST501 ST503 ST504) with the offending
  entry at index 0, 1, 8, 16, 32, 33, 64, 65 and 256 followed by one more valid entry, and as the
  last of 41.  Thresholds of the code: the walk's insertion sort takes up to 32 records (33: the
  radix sort), the name sets start at 64 slots and double when half full; the walk's checks
  also with the header listed in reverse offset order (the sorted path instead of the in-place
  one);
- ties of the (start, end) sort in both input orders: equal starts (a zero-size tensor and a
  non-empty one at the same start), equal ends (a zero-size tensor at a non-empty one's end),
  equal (start, end) pairs, below and above the insertion sort's 32 records;
- sums and products at 2^64 - k and 2^63 for each operand: the shape product (ST303), elements x
  bits (ST304, also wrapping to a small size whose data is there), offsets and ends at 2^63 and
  2^64 - 1 (ST301, ST306, ST308).

Every fixture carries the byte offset of the JSON value the fault was written into (the
manifest's offset column), found in the header text the generator built, never asked of tfs.
Verdicts are checked against the crate (corpus/CRATE_VERDICTS.tsv, maint/crate_verdicts.py).
"""
from tfsgen.safetensors import U64_MAX, st_file

POSITIONS = (0, 1, 8, 16, 32, 33, 64, 65, 256)
LAST = 40


def places():
    return [(p, False) for p in POSITIONS] + [(LAST, True)]


def name(j):
    return "t%03d" % j


def good(j, start=None):
    s = j if start is None else start
    return '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (s, s + 1)


class Header:
    """A header object built member by member, remembering where each member's value starts."""

    def __init__(self):
        self.text = "{"
        self.val = {}

    def member(self, key, value):
        if len(self.text) > 1:
            self.text += ","
        self.text += '"%s":' % key
        self.val.setdefault(key, []).append(len(self.text))
        self.text += value

    def done(self):
        return self.text + "}"

    def at(self, key, inner="", k=-1):
        """File offset of member `key`'s value (its k-th occurrence), or of the text `inner`
        inside that value."""
        v = self.val[key][k]
        return 8 + (v if not inner else self.text.index(inner, v))


def entries_file(n, bad_at, bad_body, order=None, meta=None, data=None, shift=0):
    """n entries (name t000...), entry bad_at written as bad_body; order: JSON order of the
    indices (default ascending); meta: __metadata__ text first; shift: the entries after
    bad_at start that many bytes later (no tie with the bad one).  Returns (bytes, Header)."""
    h = Header()
    if meta is not None:
        h.member("__metadata__", meta)
    for j in order or range(n):
        h.member(name(j), bad_body if j == bad_at else good(j, j + shift if j > bad_at else j))
    return st_file(h.done(), n if data is None else data), h


def where(p, last, rev=False):
    s = "the last of %d entries" % (p + 1) if last else "entry %d of %d" % (p, p + 2)
    return s + (" (header listed in reverse offset order)" if rev else "")


def entry_checks():
    """(rule, tag, what, body for index p, the text inside the entry the faulty token follows
    ("": the entry's value itself))"""
    return [
        ("ST201", "entry-null", "tensor entry null", lambda p: "null", lambda p: ""),
        ("ST202", "missing-offsets", "entry without data_offsets", lambda p: '{"dtype":"U8","shape":[1]}', lambda p: ""),
        ("ST203", "dtype-twice", "dtype given twice",
         lambda p: '{"dtype":"U8","dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (p, p + 1),
         lambda p: '{"dtype":"U8",'),
        ("ST210", "dtype-I4", "dtype I4", lambda p: '{"dtype":"I4","shape":[1],"data_offsets":[%d,%d]}' % (p, p + 1),
         lambda p: '"dtype":'),
        ("ST211", "dtype-number", "dtype 7", lambda p: '{"dtype":7,"shape":[1],"data_offsets":[%d,%d]}' % (p, p + 1),
         lambda p: '"dtype":'),
        ("ST220", "shape-true", "shape true",
         lambda p: '{"dtype":"U8","shape":true,"data_offsets":[%d,%d]}' % (p, p + 1), lambda p: '"shape":'),
        ("ST221", "offsets-one", "data_offsets of one number",
         lambda p: '{"dtype":"U8","shape":[1],"data_offsets":[%d]}' % p, lambda p: '"data_offsets":[%d' % p),
        ("ST222", "shape-fraction", "shape [1.5]",
         lambda p: '{"dtype":"U8","shape":[1.5],"data_offsets":[%d,%d]}' % (p, p + 1), lambda p: '"shape":['),
    ]


def walk_checks():
    """The walk (ST3xx): (rule, tag, what, body for index p, the value holding the fault)."""
    return [
        ("ST301", "gap", "data_offsets one byte after the running offset",
         lambda p: '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (p + 1, p + 2), '"data_offsets":'),
        ("ST303", "shape-2-32-x-2-32", "shape [2^32, 2^32]",
         lambda p: '{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[%d,%d]}' % (p, p + 1), '"shape":'),
        ("ST304", "u8-2-61", "U8 [2^61]: 2^64 bits",
         lambda p: '{"dtype":"U8","shape":[2305843009213693952],"data_offsets":[%d,%d]}' % (p, p + 1), ""),
        ("ST305", "f4-one", "F4 [1]: 4 bits",
         lambda p: '{"dtype":"F4","shape":[1],"data_offsets":[%d,%d]}' % (p, p + 1), ""),
        ("ST306", "two-elements-one-byte", "U8 [2] over one byte",
         lambda p: '{"dtype":"U8","shape":[2],"data_offsets":[%d,%d]}' % (p, p + 1), '"data_offsets":'),
    ]


def value_at(h, key, inner):
    if inner == "":
        return h.at(key)
    return h.at(key, inner) + len(inner)


def positions(add):
    for rule, tag, what, body, fault in entry_checks():
        for p, last in places():
            n = p + 1 + (0 if last else 1)
            data, h = entries_file(n, p, body(p))
            off = value_at(h, name(p), fault(p))
            add("%s-pos-e%d%s-%s" % (rule, p, "-last" if last else "", tag), data, "%s in %s" % (what, where(p, last)),
                rule, offset=off, index=p)
    for rule, tag, what, body, inner in walk_checks():
        for p, last in places():
            n = p + 1 + (0 if last else 1)
            for rev in (False, True):
                order = list(reversed(range(n))) if rev else None
                data, h = entries_file(n, p, body(p), order, shift=1 if rule == "ST301" else 0,
                                       data=n + 1 if rule == "ST301" else None)
                add("%s-pos-e%d%s%s-%s" % (rule, p, "-last" if last else "", "-rev" if rev else "", tag), data,
                    "%s in %s" % (what, where(p, last, rev)), rule, offset=value_at(h, name(p), inner),
                    index=n - 1 - p if rev else p)
    # ST302: end before start (p >= 1: start = p, end = p - 1)
    for p, last in places():
        if p == 0:
            continue
        n = p + 1 + (0 if last else 1)
        data, h = entries_file(n, p, '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}' % (p, p - 1))
        add("ST302-pos-e%d%s-end-before-start" % (p, "-last" if last else ""), data,
            "data_offsets [%d, %d] in %s" % (p, p - 1, where(p, last)), "ST302",
            offset=value_at(h, name(p), '"data_offsets":'), index=p)
    # __metadata__: the p-th value a number (ST402); duplicate key (strict ST503)
    for p, last in places():
        m = p + 1 + (0 if last else 1)
        vals = ['"m%03d":"v"' % j for j in range(m)]
        vals[p] = '"m%03d":7' % p
        meta = "{" + ",".join(vals) + "}"
        data, h = entries_file(1, -1, "", meta=meta)
        add("ST402-pos-m%d%s-value-number" % (p, "-last" if last else ""), data,
            "__metadata__ value 7 in entry %d of %d" % (p, m), "ST402",
            offset=h.at("__metadata__", '"m%03d":7' % p) + len('"m%03d":' % p))
        if p == 0:
            # the value of a duplicate key: the record is the first occurrence's (index 0 here)
            data, h = entries_file(1, -1, "", meta='{"m000":"v","m000":7}')
            add("ST402-m1-value-number-duplicate-of-m0", data,
                "__metadata__ {\"m000\":\"v\",\"m000\":7}: the repeated key's value 7 is ST402, in the first "
                "occurrence's record (index 0)", "ST402", offset=h.at("__metadata__", '"m000":7') + len('"m000":'),
                index=0)
            continue
        vals = ['"m%03d":"v"' % j for j in range(m)]
        vals[p] = '"m000":"w"'
        meta = "{" + ",".join(vals) + "}"
        data, h = entries_file(1, -1, "", meta=meta)
        add("ST503-pos-m%d%s-duplicate-of-first" % (p, "-last" if last else ""), data,
            "__metadata__ key m000 again in entry %d of %d (--strict)" % (p, m), "ST503",
            expect="implementation_defined", mode="strict")
    many_metadata_keys(add)
    # duplicate tensor name (strict ST501; the crate keeps the last entry): the same entry again
    for p, last in places():
        if p == 0:
            continue
        n = p + 1 + (0 if last else 1)
        # the last t000 wins and the byte t(p) would have held goes to the next tensor
        h2 = Header()
        k = 0
        for j in range(n):
            if j == p:
                h2.member(name(0), good(0))
                continue
            h2.member(name(j), good(k))
            k += 1
        add("ST501-pos-e%d%s-duplicate-of-first" % (p, "-last" if last else ""), st_file(h2.done(), k),
            "tensor name t000 again, same entry, at %s (--strict)" % where(p, last), "ST501",
            expect="implementation_defined", mode="strict")
    # unknown field (strict ST504)
    for p, last in places():
        n = p + 1 + (0 if last else 1)
        data, h = entries_file(n, p, '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d],"x":1}' % (p, p + 1))
        add("ST504-pos-e%d%s-unknown-field" % (p, "-last" if last else ""), data,
            "unknown field x in %s (--strict)" % where(p, last), "ST504", expect="implementation_defined",
            mode="strict")


def ties(add):
    """Ties of the (start, end) sort, in both input orders, with 3 and with 40 tensors."""
    for n in (4, 32, 33, 40):  # the insertion sort up to 32 records, the radix sort from 33
        k = n - 2  # the two tied tensors come after n - 2 one-byte tensors (listed backwards: the sorted path)
        for tie, z_start in (("start", k), ("end", k + 4)):
            for first, tag in (("z", "zero-size-first"), ("b", "zero-size-second")):
                h = Header()
                for j in reversed(range(k)):
                    h.member(name(j), good(j))
                pair = [("z", '{"dtype":"U8","shape":[0],"data_offsets":[%d,%d]}' % (z_start, z_start)),
                        ("b", '{"dtype":"U8","shape":[4],"data_offsets":[%d,%d]}' % (k, k + 4))]
                if first == "b":
                    pair.reverse()
                for who, body in pair:
                    h.member(who, body)
                add("valid-tie-equal-%s-%d-%s" % (tie, n, tag), st_file(h.done(), k + 4),
                    "%d tensors listed in reverse offset order: a zero-size tensor z at %d and b [%d, %d] (equal "
                    "%ss), z listed %s" % (n, z_start, k, k + 4, tie, "first" if first == "z" else "second"))
        # equal (start, end): two 4-byte tensors at the same range: ST301 at the second in file order
        for first in ("a", "b"):
            h = Header()
            for j in reversed(range(k)):
                h.member(name(j), good(j))
            two = ["a", "b"] if first == "a" else ["b", "a"]
            for who in two:
                h.member(who, '{"dtype":"U8","shape":[4],"data_offsets":[%d,%d]}' % (k, k + 4))
            add("ST301-tie-equal-pair-%d-%s-first" % (n, first), st_file(h.done(), k + 8),
                "%d tensors in reverse offset order; a and b both [%d, %d] (equal start and end), %s listed first: the "
                "second in file order starts before the running offset" % (n, k, k + 4, first), "ST301",
                offset=h.at(two[1], '"data_offsets":') + len('"data_offsets":'))
        # the tensor that ends last (ST308's offset), a tie on the end: a zero-size z at b's end sorts last
        for first in ("z", "b"):
            h = Header()
            for j in reversed(range(k)):
                h.member(name(j), good(j))
            pair = [("z", '{"dtype":"U8","shape":[0],"data_offsets":[%d,%d]}' % (k + 4, k + 4)),
                    ("b", '{"dtype":"U8","shape":[4],"data_offsets":[%d,%d]}' % (k, k + 4))]
            if first == "b":
                pair.reverse()
            for who, body in pair:
                h.member(who, body)
            add("ST308-tie-equal-end-%d-%s-first" % (n, first), st_file(h.done(), k + 3),
                "%d tensors, the last two ending at %d (z zero-size, listed %s), one data byte short: reported at the "
                "one last in (start, end) order, z" % (n, k + 4, "first" if first == "z" else "second"), "ST308",
                offset=h.at("z", '"data_offsets":') + len('"data_offsets":'))


def sums(add):
    def one_or_two(tag, what, body, rule, inner, data=None, later_data=None):
        for p in (0, 1):
            h = Header()
            if p:
                h.member(name(0), good(0))
            h.member(name(p), body(p))
            d = (data if data is not None else 0) + p
            add("%s-sum-e%d-%s" % (rule, p, tag), st_file(h.done(), d), "%s in entry %d of %d" % (what, p, p + 1), rule,
                offset=value_at(h, name(p), inner))
    ent = lambda dt, shape, s, e: '{"dtype":"%s","shape":[%s],"data_offsets":[%d,%d]}' % (
        dt, ",".join(str(x) for x in shape), s, e)
    for shape in ([2**32, 2**31, 2], [2, 2**63], [2**63, 2], [1, 2**63, 1, 2], [U64_MAX, 2], [2, 1, U64_MAX],
                  [3, 6148914691236517206]):
        tag = "shape-" + "-".join("2-64-minus-1" if x == U64_MAX else "2-%d" % (x.bit_length() - 1)
                                  if x > 3 and x & (x - 1) == 0 else str(x) for x in shape)
        one_or_two(tag, "shape %s: the product passes 2^64 at its last factor" % shape,
                   lambda p, s=shape: ent("U8", s, p, p + 1), "ST303", '"shape":')
    for dt, n, note in (("BF16", 2**60, "2^64 bits"), ("I32", 2**59, "2^64 bits"), ("F64", 2**58, "2^64 bits"),
                        ("U8", 2**61 + 1, "2^64 + 8 bits: wraps to one byte, one data byte there"),
                        ("F64", 2**58 + 1, "2^64 + 64 bits: wraps to 8 bytes, 8 data bytes there"),
                        ("U8", 3 * 2**60, "3 x 2^63 bits: wraps to 2^63, more than the element count"),
                        ("I32", 3 * 2**58, "3 x 2^63 bits: wraps to 2^63, more than the element count")):
        size = 8 if dt == "F64" and n & 1 else 1
        one_or_two("%s-%d" % (dt.lower(), n), "%s [%d]: %s" % (dt, n, note),
                   lambda p, dt=dt, n=n, size=size: ent(dt, [n], p, p + size), "ST304", "", data=size)
    # offsets at 2^63 and 2^64 - 1
    for v, tag in ((2**63, "2-63"), (U64_MAX, "2-64-minus-1")):
        one_or_two("start-" + tag, "zero-size U8 [0] at [%d, %d]" % (v, v), lambda p, v=v: ent("U8", [0], v, v),
                   "ST301", '"data_offsets":')
        one_or_two("end-" + tag, "U8 [1] at [start, %d]" % v, lambda p, v=v: ent("U8", [1], p, v), "ST306",
                   '"data_offsets":')
    # the end of the data at 2^63, 2^64 - 1 and at 2^64 - (8 + N) (8 + N + end wraps to 0): tensors of
    # 2^61 - 1 bytes (the largest whose bit count fits 64 bits) tile up to there, 2 data bytes
    big = 2**61 - 1
    for tag, target in (("2-63", 2**63), ("2-64-minus-1", U64_MAX), ("wraps-to-0", None)):
        n_hdr = 0
        for _ in range(4):  # N depends on the numbers' digits: until it stops moving
            end = target if target is not None else 2**64 - 8 - n_hdr
            sizes = [big] * (end // big) + ([end % big] if end % big else [])
            h, run = Header(), 0
            for j, sz in enumerate(sizes):
                h.member(name(j), ent("U8", [sz], run, run + sz))
                run += sz
            text = h.done()
            if len(text) == n_hdr:
                break
            n_hdr = len(text)
        last = name(len(sizes) - 1)
        add("ST308-sum-end-%s" % tag, st_file(text, 2),
            "%d U8 tensors of at most 2^61 - 1 bytes tiling [0, %d], 2 data bytes%s" % (
                len(sizes), end, ": 8 + N + end is 2^64" if target is None else ""), "ST308",
            offset=value_at(h, last, '"data_offsets":'))


def many_metadata_keys(add):
    """ST503 after 131,072 distinct __metadata__ keys of 3 bytes: the key set compares two keys only
    when their 32-bit hashes (seeded per parse) are equal, so about two pairs of distinct keys reach the
    byte comparison in each parse; a comparison that accepts equal lengths alone reports one of them,
    at an earlier offset and index (maint/mutants parsers/safetensors/st_entries.c@82b30324#0:lcr)"""
    alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    n = 2**17
    keys = [alpha[j >> 12] + alpha[(j >> 6) & 63] + alpha[j & 63] for j in range(n)]
    meta = "{" + ",".join('"%s":""' % k for k in keys + [keys[0]]) + "}"
    data, h = entries_file(1, -1, "", meta=meta)
    add("ST503-duplicate-after-131072-metadata-keys-of-3-bytes", data,
        "131,072 distinct __metadata__ keys %s..%s (empty values), then %s again: ST503 at the last key, "
        "index 0 (about two pairs of distinct keys share the key set's 32-bit hash per parse; --strict)"
        % (keys[0], keys[-1], keys[0]),
        "ST503", expect="implementation_defined", mode="strict",
        offset=h.at("__metadata__") + len(meta) - 1 - len('"%s":""' % keys[0]), index=0)


def build(add):
    positions(add)
    ties(add)
    sums(add)
