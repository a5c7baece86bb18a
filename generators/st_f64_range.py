"""st_f64_range.py: safetensors headers whose numbers sit on serde_json's f64 range edge (issue 38,
item 3; found by mutants of st_json.c's out_of_range that the corpus let survive).

serde_json (without its float_roundtrip feature, as the crate builds it) reads a number as a u64
significand and a decimal exponent, then computes `significand as f64 * POW10[exponent]`: two
roundings, the significand's to 53 bits (ties to even) and the product's.  The number is out of
range (ST117) when that product is infinite, i.e. reaches the midpoint between f64::MAX and 2^1024,
(2^54 - 1) x 2^970, whose top 54 bits are all ones.  The crate buffers the whole header
(`#[serde(flatten)]`), so every number of the header is read, and range-checked, before any field's
type is: the same literal is ST117 when out of range and the field's own rule (or none) when in
range.  The boundary significand B(e) of each exponent e (the smallest one out of range) is
computed here with Python's floats, which are that arithmetic (float(int) rounds to nearest, ties to
even; one IEEE multiply), and written as literals:

- the tie between the two doubles on each side of B(e) for e = 289 (64-bit significands, the tie's
  even neighbour is the lower, finite one) and 291 (58 bits, the even neighbour is the upper one:
  the tie is out of range), with the significands one below and one above the tie;
- B(292) (54 bits, f64::MAX's significand 17976931348623157 plus one) and B(293), B(293) - 1 (51
  bits, no rounding of the significand: the product itself has its top 54 bits all ones);
- significands of exactly 53 bits, 2^53 - 1 at e292 (in range) and 2^52 at e293 (out of range): no bit
  is dropped, so nothing is rounded (a rounding step taken at 53 bits would shift by 2^32 - 1);
- the same values spelt long: 309-digit integers (serde_json keeps 20 digits and counts the rest
  into the exponent), leading zeros after the decimal point cancelled by e311, and decimals past
  u64 whose dropped digits would round the other way (serde_json truncates);
- the e291 tie and its lower neighbour in every place a number can stand: an ignored entry field,
  a __metadata__ value (ST402 when in range), a shape dimension and a data_offsets value (ST222),
  the dtype (ST211), __metadata__ itself (ST401), the whole header (ST118), and negated.

Called by st_fixtures.py with its add(); every expectation is checked against the crate's recorded
verdict (corpus/CRATE_VERDICTS.tsv).
"""
import math

from tfsgen.safetensors import st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'
PROV = "serde_json f64 range: significand as f64 x 10^e (docs/fixtures.md)"


def out_of_range(sig, e):
    """serde_json's verdict on sig x 10^e (e in the power table 0..308)."""
    return math.isinf(float(sig) * float("1e%d" % e))


def boundary(e):
    """The smallest u64 significand whose product with 10^e is out of range."""
    lo, hi = 0, 2**64 - 1
    assert out_of_range(hi, e) and not out_of_range(lo, e)
    while hi - lo > 1:
        m = (lo + hi) // 2
        if out_of_range(m, e):
            hi = m
        else:
            lo = m
    return hi


def tie(e):
    """The significand halfway between the two doubles on each side of B(e)."""
    b = boundary(e)
    s = b.bit_length() - 53
    assert s >= 1, "no rounding of the significand at 10^%d" % e
    below = int(float(b - 1))
    assert int(float(b)) - below == 2**s
    return below + 2 ** (s - 1)


def put(add, fid, header, lit, desc, rule="-", strict=None):
    """One fixture of header (a %s for the literal lit); the ST117 offset is the number's first byte."""
    text = header % lit
    assert (rule == "ST117") == out_of_range_literal(lit), fid
    off = 8 + len(text[:text.index(lit)].encode()) if rule != "-" else None
    add(fid, st_file(text, 1), desc, rule, prov=PROV, strict=strict, offset=off)


def out_of_range_literal(lit):
    """serde_json's range verdict for a literal, read the way its parser reads it (u64 significand
    of at most 20 digits: later integer digits count into the exponent, later decimals are dropped)."""
    s = lit.lstrip("-")
    mant, _, ex = s.partition("e")
    whole, _, frac = mant.partition(".")
    sig, exp, over = 0, 0, False
    for ch in whole:
        if over or sig * 10 + int(ch) > 2**64 - 1:
            over = True
            exp += 1
        else:
            sig = sig * 10 + int(ch)
    for ch in frac:
        if over or sig * 10 + int(ch) > 2**64 - 1:
            over = True
        else:
            sig = sig * 10 + int(ch)
            exp -= 1
    exp += int(ex or "0")
    if exp > 308:
        return sig != 0
    return exp >= 0 and out_of_range(sig, exp)


def ignored(add, fid, lit, desc, rule="-"):
    put(add, fid, '{"a":{%s,"x":%%s}}' % E, lit, desc + " in an ignored entry field", rule,
        strict="ST504" if rule == "-" else None)


def build(add):
    t289, t291 = tie(289), tie(291)
    b292, b293 = boundary(292), boundary(293)
    assert int(float(t289)) < t289  # the tie rounds down (to even)
    assert int(float(t291)) > t291  # the tie rounds up (to even)
    # the significand's rounding at 10^289: a tie goes to the even (lower, finite) double
    ignored(add, "valid-number-e289-tie-minus-1", "%de289" % (t289 - 1),
            "%de289: one below the tie between the doubles next to the range edge" % (t289 - 1))
    ignored(add, "valid-number-e289-tie-to-even", "%de289" % t289,
            "%de289: the tie between the doubles next to the range edge; the even one is finite" % t289)
    ignored(add, "ST117-number-e289-tie-plus-1", "%de289" % (t289 + 1),
            "%de289: one above the tie, rounds up; the product's top 54 bits all ones" % (t289 + 1), "ST117")
    # at 10^291 the even neighbour is the upper double: the tie is out of range
    ignored(add, "valid-number-e291-tie-minus-1", "%de291" % (t291 - 1),
            "%de291: one below the tie, rounds down (odd significand); the product's top 54 bits "
            "2^54 - 2" % (t291 - 1))
    ignored(add, "ST117-number-e291-tie-to-even", "%de291" % t291,
            "%de291: the tie rounds up to the even double, whose product is 2^1024" % t291, "ST117")
    ignored(add, "ST117-number-e291-tie-plus-1", "%de291" % (t291 + 1), "%de291: one above the tie" % (t291 + 1),
            "ST117")
    # no tie to break: 54 bits (one dropped bit) and 51 bits (none)
    ignored(add, "ST117-number-e292-f64-max-plus-1", "%de292" % b292,
            "%de292: f64::MAX's significand plus one; the product's top 54 bits all ones" % b292, "ST117")
    ignored(add, "valid-number-e293-edge-minus-1", "%de293" % (b293 - 1),
            "%de293: the largest 16-digit significand in range at 10^293" % (b293 - 1))
    ignored(add, "ST117-number-e293-edge", "%de293" % b293,
            "%de293: a 51-bit significand (no rounding); the product's top 54 bits all ones" % b293, "ST117")
    # exactly 53 bits: the significand is already a double (no bit dropped, nothing to round)
    ignored(add, "valid-number-e292-53-bit-significand", "%de292" % (2**53 - 1),
            "%de292: a 53-bit significand (2^53 - 1, no rounding), in range" % (2**53 - 1))
    ignored(add, "ST117-number-e293-53-bit-significand", "%de293" % 2**52,
            "%de293: a 53-bit significand (2^52, no rounding), out of range" % 2**52, "ST117")
    # 10^290's f64 significand is odd, and B(290)'s product passes the midpoint by less than its own
    # significand: a product computed with the power's lowest bit lost falls below the midpoint
    b290 = boundary(290)
    ignored(add, "valid-number-e290-edge-minus-1", "%de290" % (b290 - 1),
            "%de290: the largest significand in range at 10^290 (rounds to the double below)" % (b290 - 1))
    ignored(add, "ST117-number-e290-edge", "%de290" % b290,
            "%de290: the smallest significand out of range at 10^290 (61 bits, rounds to 7022238808055921 x 2^8); "
            "10^290's f64 significand is odd and the product passes the midpoint by less than the rounded "
            "significand" % b290, "ST117")
    # the same values spelt long
    ignored(add, "valid-number-309-digit-integer-e289-tie", "%d%s" % (t289, "0" * 289),
            "the e289 tie as a 309-digit integer (20 digits kept, 289 counted into the exponent)")
    ignored(add, "ST117-number-309-digit-integer-e289-tie-plus-1", "%d%s" % (t289 + 1, "0" * 289),
            "the e289 tie plus 1 as a 309-digit integer", "ST117")
    lead = "0.00%d" % t291
    ignored(add, "valid-number-leading-zeros-e311-tie-minus-1", "0.00%de311" % (t291 - 1),
            "0.00%de311: leading decimal zeros cancelled by e311 (the e291 tie minus 1)" % (t291 - 1))
    ignored(add, "ST117-number-leading-zeros-e311-tie", lead + "e311",
            "%se311: leading decimal zeros cancelled by e311 (the e291 tie)" % lead, "ST117")
    d = str(t289)
    ignored(add, "valid-number-dropped-decimals-e289-tie", "%s.%s%se308" % (d[0], d[1:], "9" * 12),
            "%s.%s then 12 nines e308: the nines are past u64, dropped (not rounded up): the e289 tie"
            % (d[0], d[1:]))
    d = str(t289 + 1)
    ignored(add, "ST117-number-dropped-decimals-e289-tie-plus-1", "%s.%s%se308" % (d[0], d[1:], "0" * 12),
            "%s.%s then 12 zeros e308: the dropped zeros leave the e289 tie plus 1" % (d[0], d[1:]), "ST117")
    # the e291 edge in every place a number can stand: its range before the field's type
    lo, hi = "%de291" % (t291 - 1), "%de291" % t291
    meta = '{"a":{%s},"__metadata__":{"k":%%s}}' % E
    put(add, "ST402-metadata-value-e291-tie-minus-1", meta, lo,
        "__metadata__ value %s: in range, a number where a string is due" % lo, "ST402")
    put(add, "ST117-metadata-value-e291-tie", meta, hi,
        "__metadata__ value %s: out of range before its type (ST402)" % hi, "ST117")
    shape = '{"a":{"dtype":"U8","shape":[%s],"data_offsets":[0,1]}}'
    put(add, "ST222-shape-e291-tie-minus-1", shape, lo, "shape [%s]: in range, not an integer" % lo, "ST222")
    put(add, "ST117-shape-e291-tie", shape, hi, "shape [%s]: out of range before its type (ST222)" % hi, "ST117")
    offs = '{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,%s]}}'
    put(add, "ST222-offsets-e291-tie-minus-1", offs, lo, "data_offsets [0, %s]: in range, not an integer" % lo,
        "ST222")
    put(add, "ST117-offsets-e291-tie", offs, hi, "data_offsets [0, %s]: out of range before its type (ST222)" % hi,
        "ST117")
    dtype = '{"a":{"dtype":%s,"shape":[1],"data_offsets":[0,1]}}'
    put(add, "ST211-dtype-e291-tie-minus-1", dtype, lo, "dtype %s: in range, a number where a string is due" % lo,
        "ST211")
    put(add, "ST117-dtype-e291-tie", dtype, hi, "dtype %s: out of range before its type (ST211)" % hi, "ST117")
    put(add, "ST401-metadata-e291-tie-minus-1", '{"a":{%s},"__metadata__":%%s}' % E, lo,
        "__metadata__ %s: in range, a number where an object is due" % lo, "ST401")
    put(add, "ST117-metadata-e291-tie", '{"a":{%s},"__metadata__":%%s}' % E, hi,
        "__metadata__ %s: out of range before its type (ST401)" % hi, "ST117")
    put(add, "ST118-top-level-e291-tie-minus-1", "%s", lo, "the header is the number %s: in range, no object" % lo,
        "ST118")
    put(add, "ST117-top-level-e291-tie", "%s", hi, "the header is the number %s: out of range before its type "
        "(ST118)" % hi, "ST117")
    ignored(add, "valid-number-negative-e291-tie-minus-1", "-" + lo, "-%s: the sign plays no part" % lo)
    ignored(add, "ST117-number-negative-e291-tie", "-" + hi, "-%s: the sign plays no part" % hi, "ST117")
