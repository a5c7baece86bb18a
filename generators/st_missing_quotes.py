"""st_missing_quotes.py: safetensors headers with a member name missing its opening '"' where the
text after it would read as a valid file if the quote were not checked (issue 38, item 2; found by
an st_entries.c mutant the corpus left alive: a __metadata__ key parsed from the byte after its
first character, so `{k":"v"}` read as the key `k"`).

serde_json wants a string where an object's key is due: anything else is a syntax error at that
byte (ST110, the crate's InvalidHeaderDeserialization), in every object: the top level (tensor
names), __metadata__ (its keys), a tensor entry (its field names), each for the first member
and a later one, and a dtype in map form (its variant name).  The data is what the entries would claim, so the quote is the only fault.
Called by st_fixtures.py with its add(); the crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import st_file

E = '{"dtype":"U8","shape":[1],"data_offsets":[%d,%d]}'


def build(add):
    cases = [
        ("metadata-key-0", '{"__metadata__":{k":"v"},"a":%s}' % (E % (0, 1)), 1, 'k"',
         '__metadata__ {k":"v"} (its first key without the opening quote), then a U8 [1] entry'),
        ("metadata-key-1", '{"__metadata__":{"k":"v",m":"w"},"a":%s}' % (E % (0, 1)), 1, 'm"',
         '__metadata__ {"k":"v",m":"w"} (its second key without the opening quote), then a U8 [1] entry'),
        ("tensor-name-0", '{a":%s}' % (E % (0, 1)), 1, 'a"',
         "one U8 [1] entry whose name a lacks its opening quote"),
        ("tensor-name-1", '{"a":%s,b":%s}' % (E % (0, 1), E % (1, 2)), 2, 'b"',
         "two U8 [1] entries, the second one's name b lacking its opening quote"),
        ("entry-field-0", '{"a":{dtype":"U8","shape":[1],"data_offsets":[0,1]}}', 1, 'dtype"',
         "a U8 [1] entry whose first field name dtype lacks its opening quote"),
        ("entry-field-2", '{"a":{"dtype":"U8","shape":[1],data_offsets":[0,1]}}', 1, 'data_offsets"',
         "a U8 [1] entry whose third field name data_offsets lacks its opening quote"),
        ("map-dtype-variant", '{"a":{"dtype":{xU8":null},"shape":[1],"data_offsets":[0,1]}}', 1, 'xU8"',
         "a U8 [1] entry whose dtype is in map form, {xU8\":null}: an x where its variant name's opening quote is "
         "due (read as the quote, the name is U8)"),
    ]
    for name, h, data, at, desc in cases:
        add("ST110-no-opening-quote-%s" % name, st_file(h, data), desc, "ST110", offset=8 + h.index(at))
