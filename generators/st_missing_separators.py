"""st_missing_separators.py: safetensors headers with one ',' or ':' missing where the text after it would
read as a valid file if the separator were not checked (issue 38, item 2; found by st_entries.c mutants
that the corpus left alive):
- a top-level member followed by the next name without a ',' (after a tensor entry, after
  __metadata__): JSON syntax error at the next name's '"' (ST110). A reader that goes on to the next
  member when neither ',' nor '}' follows a value reads two valid U8 [1] tensors;
- an entry field name followed by its value without a ':' (dtype, shape, data_offsets and an unknown
  field, each in turn; the entry leaves the canonical layout, so the reader's generic entry parser has
  it): ST110 at the value's first byte. A reader that parses the value anyway reads a valid tensor;
- an entry whose data_offsets list follows its shape list directly ("shape":[1][0,1]}, no
  ,"data_offsets": between them; shape [1] in entry 0, shape [] in entry 1): ST110 at the second '['.
  A fast path that does not match the data_offsets key reads a valid tensor.
- an object inside an unknown field's value with no `:` after its first or second key: ST110 at the
  value. A reader whose value skipper does not check the object grammar reads a valid tensor.
Every file's data is what the entries would claim (one byte per U8 [1] tensor), so the separator is the
only fault. Called by st_fixtures.py with its add(); the offset column is computed here from the text
written. The crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import st_file

E = '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}'


def build(add):
    # a top-level ',' missing: after a tensor entry, after __metadata__
    h = '{"a":%s"b":%s}' % (E % (0, 1), E % (1, 2))
    add("ST110-top-level-no-comma-after-entry", st_file(h, 2),
        'two U8 [1] entries with no comma between them ({"a":{...}"b":{...}}): the next name where "," or "}" '
        "is due", "ST110", offset=8 + h.index('"b"'))
    h = '{"__metadata__":{"k":"v"}"a":%s}' % (E % (0, 1))
    add("ST110-top-level-no-comma-after-metadata", st_file(h, 1),
        '__metadata__ {"k":"v"} then a U8 [1] entry with no comma between them: the name where "," or "}" is due',
        "ST110", offset=8 + h.index('"a"'))
    # an entry field's ':' missing, each field in turn (and an unknown one)
    fields = [("dtype", '"U8"'), ("shape", "[1]"), ("data_offsets", "[0,1]")]
    for k, (name, _) in enumerate(fields + [("x", "1")]):
        parts = ['"%s":%s' % f for f in fields]
        if name == "x":
            parts.insert(0, '"x"1')
        else:
            parts[k] = '"%s"%s' % fields[k]
        h = '{"a":{%s}}' % ",".join(parts)
        add("ST110-entry-no-colon-after-%s" % name.replace("_", "-"), st_file(h, 1),
            "U8 [1] entry whose %s key is followed by its value %s with no colon between them"
            % ("unknown field \"x\"" if name == "x" else '"%s"' % name, "1" if name == "x" else fields[k][1]),
            "ST110", offset=8 + h.index('"%s"' % name) + len(name) + 2)
    # an object inside an ignored field's value with a ':' missing (the value skipper's own object
    # grammar), for its first and a later key
    for k, inner, at in ((0, '{"k" 1}', ' 1}'), (1, '{"k":1,"m" 2}', ' 2}')):
        h = '{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":%s}}' % inner
        add("ST110-ignored-object-no-colon-after-key-%d" % k, st_file(h, 1),
            'U8 [1] entry with an unknown field "x" whose object value %s lacks the colon after key %d' % (inner, k),
            "ST110", offset=8 + h.index(at) + 1)
    # data_offsets' key missing between the shape list and the data_offsets list
    for index, shape in ((0, "[1]"), (1, "[]")):
        head = '"a":%s,' % (E % (0, 1)) if index else ""
        h = '{%s"t":{"dtype":"U8","shape":%s[%d,%d]}}' % (head, shape, index, index + 1)  # 1 element either way
        add("ST110-entry-%d-offsets-list-after-shape-without-key" % index, st_file(h, index + 1),
            'entry %d of %d: {"dtype":"U8","shape":%s[%d,%d]}, the data_offsets list right after the shape list '
            '(no ,"data_offsets": between them)' % (index, index + 1, shape, index, index + 1),
            "ST110", offset=8 + h.rindex("["))
