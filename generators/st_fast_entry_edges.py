"""st_fast_entry_edges.py: safetensors entries that look like the canonical layout the fast entry path
of st_entries.c matches ({"dtype":"D","shape":[n,...],"data_offsets":[a,b]}, no whitespace) but are not
it, so that a fast path that reads them as canonical shows (issue 38, item 2; found by st_entries.c
mutants that the corpus left alive):
- the three field names in capitals ("DTYPE", "SHAPE", "DATA_OFFSETS"): the same lengths as the
  canonical names, so each literal of the layout is there byte for byte apart from its letters. The
  crate's TensorInfo names are case-sensitive: unknown fields, no dtype (ST202, at the entry's '{').
  A literal test that accepts a mismatch would read a valid U8 tensor;
- a one-dimension shape list left open, the data_offsets key following its first element
  ("shape":[5,"data_offsets":[0,5]}): the list's ',' is followed by a string where a number or ']'
  is due (ST220, held) and the entry scanned again is a JSON syntax error at the ':' after
  "data_offsets" (ST110; the syntax error comes first). A shape loop that leaves the list at its
  ',' would find the canonical ,"data_offsets": right there and read a valid [5] tensor. In entry 0
  and in entry 1 (whose dtype the fast path takes from the entry before);
- one byte more or less around each literal of the layout: a NUL byte right after {"dtype":" (inside
  the dtype string: a control character, ST114), after ,"shape": and after ,"data_offsets": (where a
  list is due: ST110), and the dtype's opening quote left out ({"dtype":U8",...: ST110 at the U). A
  literal test that compares one byte too many (the C string's terminating NUL) or one too few
  reads each as a valid U8 [1] tensor;
- a list bracket missing or out of place: the shape [] then a dimension before a second ']'
  ("shape":[]1], ST110 at the 1), the shape without its '[' ("shape":1], ST110 at the ']' once the
  entry is scanned again: serde_json's syntax error comes before the type error), data_offsets closed
  by ')' ([0,1), ST110 at the ')', the generic entry parser's list end). A reader that tests the
  bracket the wrong way, or not at all, reads a valid U8 [1] tensor;
- each field name's last letter one above the canonical one ("dtypf", "shapf", "data_offsett"):
  unknown fields, no dtype (ST202 at the entry's '{'). A literal test that takes a byte compare's
  sign or magnitude for equality reads a valid U8 [1] tensor.
Called by st_fixtures.py with its add(); the offset column is computed here from the text written.
The crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'


def build(add):
    h = '{"a":{"DTYPE":"U8","SHAPE":[1],"DATA_OFFSETS":[0,1]}}'
    add("ST202-fields-in-capitals", st_file(h, 1),
        'entry {"DTYPE":"U8","SHAPE":[1],"DATA_OFFSETS":[0,1]}: the canonical layout with its field names in '
        "capitals (unknown fields to the crate: dtype missing)", "ST202", offset=8 + h.index('{"DTYPE"'))
    for k, head in enumerate(["", '"a":{%s},' % E]):
        h = '{%s"%s":{"dtype":"U8","shape":[5,"data_offsets":[%d,%d]}}' % (head, "ab"[k], k, k + 5)
        add("ST110-entry-%d-shape-open-before-offsets" % k, st_file(h, k + 5),
            'entry %d of %d: {"dtype":"U8","shape":[5,"data_offsets":[%d,%d]}, the shape list left open '
            "before the data_offsets key (a string where a number or ']' is due, then ':' inside the list)"
            % (k, k + 1, k, k + 5), "ST110", offset=8 + h.rindex('"data_offsets":') + len('"data_offsets"'))

    # a stray ',' in a shape whose other numbers are all "0" (the fast path's own literal, no number
    # parse): a fast path that takes a failed number parse for a number reads a valid empty tensor
    for tag, shape, at in (("leading", "[,0]", "[,"), ("doubled", "[0,,0]", ",,")):
        h = '{"a":{"dtype":"U8","shape":%s,"data_offsets":[0,0]}}' % shape
        add("ST110-shape-%s-comma-zeros" % tag, st_file(h, 0),
            'canonical entry whose shape is %s, data_offsets [0,0], no data: a comma where a number is due, '
            "every number a plain 0" % shape, "ST110", offset=8 + h.index(at) + 1)

    # a byte more or less around each literal: the NUL a one-too-long compare would match, or no quote
    for fid, text, at, desc in [
            ("ST114-fast-layout-nul-before-dtype", '{"dtype":"\0U8","shape":[1],"data_offsets":[0,1]}', '\0',
             'a NUL byte right after {"dtype":" (a control character inside the dtype string)'),
            ("ST110-fast-layout-dtype-without-opening-quote", '{"dtype":U8","shape":[1],"data_offsets":[0,1]}',
             'U8"', "the dtype U8 without its opening quote"),
            ("ST110-fast-layout-nul-before-shape-list", '{"dtype":"U8","shape":\0[1],"data_offsets":[0,1]}',
             '\0', 'a NUL byte right after ,"shape": (where the list is due)'),
            ("ST110-fast-layout-nul-before-offsets-list", '{"dtype":"U8","shape":[1],"data_offsets":\0[0,1]}',
             '\0', 'a NUL byte right after ,"data_offsets": (where the list is due)')]:
        h = '{"a":%s}' % text
        add(fid, st_file(h, 1), "U8 [1] entry in the canonical layout but for %s: %s"
            % (desc, text.replace("\0", "\\0")), fid[:5], offset=8 + h.index(at))

    # a list bracket missing or out of place
    for fid, text, at in [
            ("ST110-fast-layout-shape-empty-then-dimension", '{"dtype":"U8","shape":[]1],"data_offsets":[0,1]}',
             '1],"data'),
            ("ST110-fast-layout-shape-without-open-bracket", '{"dtype":"U8","shape":1],"data_offsets":[0,1]}',
             '],"data'),
            ("ST110-offsets-closed-by-parenthesis", '{"dtype":"U8","shape":[1],"data_offsets":[0,1)}', ")")]:
        h = '{"a":%s}' % text
        add(fid, st_file(h, 1), "U8 [1] entry with a list bracket missing or out of place: %s" % text, "ST110",
            offset=8 + h.index(at))

    # each field name's last letter one above the canonical one
    h = '{"a":{"dtypf":"U8","shapf":[1],"data_offsett":[0,1]}}'
    add("ST202-fields-last-letter-plus-one", st_file(h, 1),
        'entry {"dtypf":"U8","shapf":[1],"data_offsett":[0,1]}: each field name\'s last letter one above the '
        "canonical one (unknown fields to the crate: dtype missing)", "ST202", offset=8 + h.index('{"dtypf"'))

    # the dtype cache (the entry before's dtype name, its length and id): an unknown dtype that is a
    # prefix of the name before ("F3" after "F32"), or that the cache's stale bytes spell ("U86" after
    # "F16" then "U8": the cache holds U86, length 2). A cache that compares the bytes without the
    # lengths takes each for the dtype before it and reads a valid tensor
    for fid, names, desc in [
            ("ST210-dtype-prefix-of-the-one-before", ["F32", "F3"], "F3 after F32: a prefix of the dtype before"),
            ("ST210-dtype-spelt-by-stale-cache-bytes", ["F16", "U8", "U86"],
             "U86 after F16 and U8: the first bytes of the two names before")]:
        size = {"F32": 4, "F3": 4, "F16": 2, "U8": 1, "U86": 1}
        ents, at = [], 0
        for k, d in enumerate(names):
            ents.append('"%s":{"dtype":"%s","shape":[1],"data_offsets":[%d,%d]}' % ("abc"[k], d, at, at + size[d]))
            at += size[d]
        h = "{" + ",".join(ents) + "}"
        last = len(names) - 1
        add(fid, st_file(h, at), "entries in the canonical layout with dtypes %s: %s (unknown dtype at entry %d)"
            % (", ".join(names), desc, last), "ST210", index=last,
            offset=8 + h.index('"dtype":"%s"' % names[last], h.index('"%s":{' % "abc"[last])) + len('"dtype":'))
