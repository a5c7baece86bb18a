"""st_tails.py: valid safetensors headers whose last string holds a space (0x20, the lowest byte a
JSON string may hold raw) among the final 7 bytes of the header, where tfs's string scanner has
left its 8-byte blocks for the byte-by-byte tail (issue 16, item 4: st_json.c's `special` bound
0x20 -> 0x21 rejected them as control characters, ST114).  Called by st_fixtures.py with its
add(); each is valid for the crate (corpus/CRATE_VERDICTS.tsv).
"""
from tfsgen.safetensors import st_file

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'


def build(add):
    add("valid-space-in-header-tail-metadata-value", st_file('{"a":{%s},"__metadata__":{"k":"x y"}}' % E, 1),
        "the last string, a __metadata__ value, has a space 4 bytes before the header's end")
    add("valid-space-in-header-tail-ignored-value", st_file('{"a":{%s,"x":" "}}' % E, 1),
        "the last string, an ignored field's value, is one space, 4 bytes before the header's end", strict="ST504")
