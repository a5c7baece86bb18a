"""st_end_edges.py: safetensors headers cut where a scanner of st_json.c or st_entries.c tests the end of
the text, with no data after the header (issue 16, item 4; found by memory-only mutants).

Every file is [N][N bytes of JSON] and nothing else, so the buffer path (the file read into an
allocation of exactly its size, conformance/runner/bytepaths.h) has no byte past the text: a scanner
that peeks one byte further reads past the allocation, which the asan-ubsan build reports. The
siblings with data bytes after the header (st_json_edges.py, st_entry_edges.py) pin the verdict
instead. Each header ends:
- after a negative integer and after an exponent that overflows i32 with a negative sign in an ignored
  entry field (serde_json's slow number paths: the integer digits, the skipped exponent digits);
- after a key inside an object in an ignored field (the skipper then wants its colon);
- after the colon of a map-form dtype (where its value, null or not, is due), and after its '{' (where
  its variant name is due);
- inside a shape list after its '[' and inside data_offsets after "0," (an element is due);
- inside a dtype name (the fast entry path's dtype scan looks for its closing quote);
- after '{' and after a member's ',' of an object in an ignored field (a key is due), and inside the
  dropped digits of a 25-digit decimal, inside the kept decimals of 1.5 and after a number's '.'; after a
  number's 'e';
- after the colon where a tensor entry, a dtype, a shape or data_offsets is due, and after the '[' of
  an array-form entry (its dtype due): the entry reader's wrong-type test (a byte that starts some
  JSON value is a held ST2xx, any other a syntax error) must see the end before it looks at a byte.
All are ST111 (EOF while parsing; st-oracle: InvalidHeaderDeserialization, corpus/CRATE_VERDICTS.tsv).
Called by st_fixtures.py with its add().
"""
from tfsgen.safetensors import st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'

CASES = (
    ("negative-integer", '{"a":{%s,"x":-5' % E, "a negative integer -5 in an ignored entry field"),
    ("exponent-overflow-negative", '{"a":{%s,"x":1e-99999999999' % E,
     "1e-99999999999 in an ignored entry field (the exponent overflows i32: its digits are skipped)"),
    ("skipped-object-key", '{"a":{%s,"x":{"k"' % E, "a key of an object inside an ignored entry field"),
    ("map-dtype-colon", '{"a":{"dtype":{"U8":', "the colon after a map-form dtype's variant name"),
    ("map-dtype-open", '{"a":{"dtype":{', "the '{' of a map-form dtype (its variant name is due)"),
    ("shape-open", '{"a":{"dtype":"U8","shape":[', "the '[' of a shape (generic entry path)"),
    ("offsets-second", '{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,',
     "the ',' after data_offsets' first element (generic entry path)"),
    ("dtype-name", '{"a":{"dtype":"U8', "inside a dtype name (fast entry path: no closing quote)"),
    ("skipped-object-open", '{"a":{%s,"x":{' % E, "the '{' of an object in an ignored field (a key is due)"),
    ("skipped-object-after-comma", '{"a":{%s,"x":{"k":1,' % E,
     "a member and ',' of an object in an ignored field (a key is due)"),
    ("exponent-letter", '{"a":{%s,"x":1e' % E, "the 'e' of a number in an ignored field (a sign or digit is due)"),
    ("decimal-overflow-digits", '{"a":{%s,"x":1.%s' % (E, "0" * 25),
     "25 decimals in an ignored field (past u64: the digits serde_json drops)"),
    ("decimal-digits", '{"a":{%s,"x":1.5' % E, "the decimals of 1.5 in an ignored field (more digits may follow)"),
    ("decimal-point", '{"a":{%s,"x":1.' % E, "the '.' of a number in an ignored field (a digit is due)"),
)

# where an entry's value (or a field's) is due
VALUE_DUE = (
    ("entry-value", '{"a":', "the colon after a tensor name (its entry due)"),
    ("dtype-value", '{"a":{"dtype":', "the colon after \"dtype\" (its value due)"),
    ("shape-value", '{"a":{"dtype":"U8","shape":', "the colon after \"shape\" (its list due)"),
    ("offsets-value", '{"a":{"dtype":"U8","shape":[1],"data_offsets":',
     "the colon after \"data_offsets\" (its list due)"),
    ("array-entry-open", '{"a":[', "the '[' of an array-form entry (its dtype due)"),
)


def build(add):
    for fid, text, what in CASES + VALUE_DUE:  # ST111 at the end of the text (8 + N: st_fixtures.add())
        add("ST111-ends-no-data-" + fid, st_file(text, b""),
            "the header ends after %s; no data bytes after it" % what, "ST111")
