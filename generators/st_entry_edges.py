"""st_entry_edges.py: safetensors headers at edges of st_entries.c that no other fixture pins
(issue 16, item 4; found by st_entries.c mutants):
- escaped field names, an escaped dtype name and an escaped "__metadata__" key past byte 64 of the
  header (short_str decodes escaped tokens into a 128-byte buffer: a bound computed from the
  token's position instead of its length gave up on every escaped name far enough in); an escaped
  tensor name of 150 decoded bytes (more than that buffer holds: short_str must not decode it);
- an array-form entry with a bad separator between its elements, and one closed by a brace:
  JSON syntax errors (ST110) that the array-form reader must report, not step over; data_offsets
  with a space or a ';' where the comma between its two numbers belongs (ST110, not ST221);
- a held entry violation (an unknown dtype, ST210) in an entry whose ignored field nests to depth
  127, the deepest serde_json accepts: the held entry is scanned again from its start at its own
  depth (2), so the nesting stays legal and ST210 is reported; one level more is ST113;
- a header that ends where a __metadata__ value is due, followed by data starting with "{" or "[":
  the end of the text (ST111), whatever byte lies past it;
- canonical entries (the fast entry path's layout) with an empty list element: [,1], [1,], [0,];
  and one whose dtype is U8 followed by the bad escape \\, and the rest of the layout;
- a map-form dtype with the cut literal nul as its value, and one closed by ']';
- a __metadata__ key and value with no colon between them;
- a map-form dtype whose variant name has a bad escape, one with
  no colon after its name, one cut after its '{' with a '}' as the first data byte, and one whose
  value nests to depth 127 (legal: the value is not null, ST211) and 128 (ST113, also when a syntax
  error follows the value): the map sits at
  depth 3, inside the entry; entry fields with no comma between them, after the first and after the
  second field;
- the fast entry path's layout with ,"shape": left out before the shape's list ({"dtype":"U8"[1],...}):
  ST110 at the '[', in entry 0 and in entry 1 (whose dtype the fast path takes from the entry before).
Called by st_fixtures.py with its add(); every expectation is checked against the crate's recorded
verdict (corpus/CRATE_VERDICTS.tsv).
"""
from tfsgen.safetensors import st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'
FIRST = '"layer.0.attention.weight":{%s}' % E  # pushes the second entry past byte 64


def nested(k):
    return "[" * k + "]" * k


def build(add):
    add("valid-escaped-name-150-bytes", st_file('{"\\u0062%s":{%s}}' % ("a" * 149, E), 1),
        "a tensor name of 150 decoded bytes spelt with one escape (\\u0062 then 149 'a'): longer than "
        "the 128-byte buffer short_str decodes short escaped tokens into")
    add("valid-escaped-fields-past-64",
        st_file('{%s,"t1":{"d\\u0074ype":"U\\u0038","sh\\u0061pe":[1],"data_\\u006fffsets":[1,2]}}' % FIRST, 2),
        "the second entry, past byte 64 of the header, spells its three field names and its dtype with "
        "\\u escapes")
    add("valid-escaped-metadata-key-past-64",
        st_file('{%s,"\\u005f_metadata__":{"k":"v"}}' % FIRST, 1),
        "the key __metadata__ spelled with a \\u escape, past byte 64 of the header")
    # data_offsets' two numbers without the comma between them: a syntax error at the second, not
    # a one-number list (ST221) and not a valid entry read past a stray byte
    add("ST110-offsets-space-not-comma", st_file('{"a":{"dtype":"U8","shape":[1],"data_offsets":[0 1]}}', 1),
        "data_offsets [0 1]: a space where the comma belongs (ST110 at the '1')", "ST110")
    add("ST110-offsets-semicolon-not-comma", st_file('{"a":{"dtype":"U8","shape":[1],"data_offsets":[0;1]}}', 1),
        "data_offsets [0;1]: a semicolon where the comma belongs (ST110 at the ';')", "ST110")
    add("ST110-array-entry-bad-separator", st_file('{"a":["U8";[1],[0,1]]}', 1),
        "array-form entry whose first two elements are separated by ';'", "ST110")
    add("ST110-array-entry-closed-by-brace", st_file('{"a":["U8",[1],[0,1]}}', 1),
        "array-form entry of three elements closed by '}'", "ST110")
    # top-level object depth 1, the entry 2, the ignored field's arrays 3..127
    add("ST210-held-entry-depth-127",
        st_file('{"a":{"dtype":"X9","shape":[1],"data_offsets":[0,1],"x":%s}}' % nested(125), 1),
        "unknown dtype (held until the object closes) in an entry whose ignored field nests to depth 127, "
        "the deepest serde_json accepts", "ST210")
    add("ST113-held-entry-depth-128",
        st_file('{"a":{"dtype":"X9","shape":[1],"data_offsets":[0,1],"x":%s}}' % nested(126), 1),
        "unknown dtype in an entry whose ignored field nests to depth 128: the nesting error comes first",
        "ST113")
    # the header ends where a value is due; the data's first byte would open a container
    add("ST111-metadata-cut-before-value-data-brace", st_file('{"__metadata__":', b"{}"),
        "the header ends right after \"__metadata__\": (its value due); the data starts with '{'", "ST111")
    add("ST111-metadata-value-cut-data-bracket", st_file('{"__metadata__":{"k":', b"[]"),
        "the header ends right after a __metadata__ key's colon (its value due); the data starts with '['",
        "ST111")
    # canonical layout (the fast entry path's) with an empty list element: JSON syntax errors
    add("ST110-shape-leading-comma", st_file('{"a":{"dtype":"U8","shape":[,1],"data_offsets":[0,1]}}', 1),
        "canonical entry whose shape is [,1]", "ST110")
    add("ST110-shape-trailing-comma", st_file('{"a":{"dtype":"U8","shape":[1,],"data_offsets":[0,1]}}', 1),
        "canonical entry whose shape is [1,]", "ST110")
    add("ST110-offsets-trailing-comma", st_file('{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,]}}', 1),
        "canonical entry whose data_offsets is [0,]", "ST110")
    add("ST110-offsets-no-open-bracket", st_file('{"a":{"dtype":"U8","shape":[1],"data_offsets":0,1]}}', 1),
        "canonical entry whose data_offsets is 0,1] (no '['): the fast path must not read it as a list; the 0 is "
        "read as a value, then the 1 stands where the next key is due", "ST110", offset=8 + 48)
    add("ST115-dtype-backslash-then-shape", st_file('{"a":{"dtype":"U8\\,"shape":[1],"data_offsets":[0,1]}}', 1),
        "canonical entry whose dtype string is U8 then the bad escape \\, (the rest reads as the canonical layout)",
        "ST115")
    # the map form of a dtype ({"U8": null}) with a JSON error in or after its value
    add("ST110-map-dtype-value-nul", st_file('{"a":{"dtype":{"U8":nul},"shape":[1],"data_offsets":[0,1]}}', 1),
        "map-form dtype whose value is the cut literal nul", "ST110")
    add("ST110-map-dtype-closed-by-bracket",
        st_file('{"a":{"dtype":{"U8":null],"shape":[1],"data_offsets":[0,1]}}', 1),
        "map-form dtype {\"U8\":null closed by ']'", "ST110")
    add("ST110-metadata-missing-colon", st_file('{"__metadata__":{"k" "v"},"a":{%s}}' % E, 1),
        "a __metadata__ key and its string value with no colon between them", "ST110")
    # the map form of a dtype: each step of dtype_map (the variant name, its colon, the end of the
    # text after '{', the nesting of its value) with its own error
    add("ST115-map-dtype-name-bad-escape",
        st_file('{"a":{"dtype":{"U\\x":null},"shape":[1],"data_offsets":[0,1]}}', 1),
        "map-form dtype whose variant name holds the bad escape \\x", "ST115")
    add("ST110-map-dtype-no-colon", st_file('{"a":{"dtype":{"U8" null},"shape":[1],"data_offsets":[0,1]}}', 1),
        "map-form dtype {\"U8\" null}: no colon between the variant name and its value", "ST110")
    add("ST111-map-dtype-open-data-brace", st_file('{"a":{"dtype":{', b"}"),
        "the header ends right after a map-form dtype's '{' (a variant name due); the data's first byte is '}'",
        "ST111")
    # top-level object depth 1, the entry 2, the dtype map 3, its value's arrays 4..127 / 4..128
    add("ST211-map-dtype-value-depth-127",
        st_file('{"a":{"dtype":{"U8":%s},"shape":[1],"data_offsets":[0,1]}}' % nested(124), 1),
        "map-form dtype whose value (not null) nests to depth 127, the deepest serde_json accepts", "ST211")
    add("ST113-map-dtype-value-depth-128",
        st_file('{"a":{"dtype":{"U8":%s},"shape":[1],"data_offsets":[0,1]}}' % nested(125), 1),
        "map-form dtype whose value nests to depth 128: the nesting error", "ST113")
    add("ST113-map-dtype-value-depth-128-then-bracket",
        st_file('{"a":{"dtype":{"U8":%s]},"shape":[1],"data_offsets":[0,1]}}' % nested(125), 1),
        "map-form dtype whose value nests to depth 128 and is followed by ']': the nesting error comes "
        "first (a value scanned one level too shallow would reach the ']', ST110)", "ST113")
    # the generic entry reader after a field's value: a ',' or the '}' is due
    add("ST110-entry-fields-no-comma-first",
        st_file('{"a":{"dtype":"U8" "shape":[1],"data_offsets":[0,1]}}', 1),
        "entry whose dtype and shape have no comma between them (a space instead)", "ST110")
    add("ST110-entry-fields-no-comma-second",
        st_file('{"a":{"dtype":"U8","shape":[1]"data_offsets":[0,1]}}', 1),
        "entry whose shape and data_offsets have no comma between them", "ST110")
    # the canonical layout with the ,"shape": between dtype and the shape's list left out: the fast
    # entry path must give up at the missing key (the generic reader: ST110 at the '[' where ',' or
    # '}' is due), not read the list as the shape; in entry 0 and in entry 1 (whose dtype the fast
    # path takes from the entry before)
    for k, head in enumerate(["", '"a":{%s},' % E]):
        h = '{%s"%s":{"dtype":"U8"[1],"data_offsets":[%d,%d]}}' % (head, "ab"[k], k, k + 1)
        add("ST110-entry-%d-shape-key-missing" % k, st_file(h, k + 1),
            'entry %d of %d: {"dtype":"U8"[1],"data_offsets":[%d,%d]}, the list without its "shape" key'
            % (k, k + 1, k, k + 1), "ST110", offset=8 + h.index('"U8"[') + 4)
