"""st_last_wins.py: safetensors fixtures, valid in the default profile, where a name occurs twice
and the crate keeps the last one (serde into a HashMap: a later value replaces an earlier one;
issue 38, held-back slips e3 and e4 of maint/slips/2026-12-06).  The strict profile rejects
both (ST501, ST503: the ST501-* and ST503-* fixtures); these lines pin the default profile's
content, so a reader that keeps the first one shows.  Called by st_fixtures.py with its add()
and its STRICT_ALSO list (a strict line on the same file: ST501 or ST503).
The crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import ent, obj, st_file


def build(add, strict_also):
    def both(fid, data, desc, rule):
        add(fid, data, desc)
        strict_also.append((fid, "%s-%s-strict" % (rule, fid[len("valid-"):]), rule, desc + "; --strict: " + rule))

    t = ("a", ent("U8", [1], 0, 1))
    both("valid-metadata-duplicate-key-last-wins",
        st_file('{"__metadata__":{"k":"a","k":"b"},%s}' % obj(t)[1:-1], 1),
        "__metadata__ with the key k twice, values a then b: the last value (b) is the content", "ST503")
    both("valid-metadata-duplicate-key-apart-last-wins",
        st_file('{"__metadata__":{"k":"a","j":"x","l":"y","k":"b"},%s}' % obj(t)[1:-1], 1),
        "__metadata__ with the key k at entries 0 and 3 (j, l between), values a then b: the last value (b) "
        "is the content", "ST503")
    both("valid-duplicate-name-last-wins",
        st_file(obj(("a", ent("I8", [1], 0, 1)), ("a", ent("U8", [1], 0, 1))), 1),
        "the tensor a twice, dtype I8 then U8 over the same byte: the last entry (U8) is the content", "ST501")
    both("valid-duplicate-name-last-wins-apart",
        st_file(obj(("a", ent("U8", [2], 0, 2)), ("b", ent("U8", [1], 0, 1)), ("a", ent("U8", [1], 1, 2))), 2),
        "the tensor a twice with b between: kept first, a [0, 2] and b [0, 1] overlap (ST301); the last "
        "entry, a [1, 2], is the content", "ST501")
