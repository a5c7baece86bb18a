"""st_gaps.py: safetensors fixtures for the gaps found by hand while running third-party readers
(issue 17, item 8; the table is in docs/fixtures.md, "Gaps found by hand").  Called by
st_fixtures.py with its add(); every verdict is the crate's (st-oracle, recorded in
corpus/CRATE_VERDICTS.tsv and checked by test_crate_verdicts), every expected content is checked
by tests/corpus/indep_decode.py (test_expected_independent).

- tensor names and __metadata__ keys that collide with JavaScript object properties;
- tensor names and __metadata__ values of 4 KiB, 64 KiB and 1 MiB (the header stays far below
  the crate's 100,000,000-byte cap);
- a tensor name, a __metadata__ key and a value led by U+FEFF (raw EF BB BF inside the header);
- nesting far past the crate's depth limit of 128: 1,000,000 arrays, objects, and both mixed,
  in an ignored entry field (stack overflow in recursive readers);
- data sections short by bytes that are zeros (a reader that reads past EOF as zeros sees a
  valid file): ST308 for the crate.
"""

from tfsgen.safetensors import ent, obj, one, st_file
from tfsgen.data import f32s  # noqa: E402

E = '"dtype":"U8","shape":[1],"data_offsets":[0,1]'
BOM = "\ufeff"
KIB = 1024
DEPTH = 1000000



def u8_tensors(names):
    return obj(*[(n, ent("U8", [1], i, i + 1)) for i, n in enumerate(names)])


def js_names(add):
    names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "1"]
    add("valid-tensor-names-js-properties", st_file(u8_tensors(names), len(names)),
        "tensors named __proto__, constructor, toString, hasOwnProperty, valueOf and 1 (JavaScript object "
        "properties)")
    meta = obj(*[(k, '"%s"' % v) for k, v in (("__proto__", "p"), ("constructor", "c"), ("toString", "t"),
                                              ("hasOwnProperty", "h"), ("1", "one"), ("format", "pt"))])
    add("valid-metadata-keys-js-properties", st_file('{"__metadata__":%s,"a":{%s}}' % (meta, E), 1),
        "__metadata__ keys __proto__, constructor, toString, hasOwnProperty, 1 (JavaScript object properties)")


def long_strings(add):
    for tag, n, what in (("4-kib", 4 * KIB, "4,096"), ("64-kib", 64 * KIB, "65,536"),
                         ("1-mib", 1024 * KIB + 1, "1,048,577")):
        add("valid-name-" + tag, st_file(u8_tensors(["n" * n, "b"]), 2),
            "tensor name of %s bytes, then a second tensor" % what)
        add("valid-metadata-value-" + tag, st_file('{"__metadata__":{"k":"%s","l":"x"},"a":{%s}}' % ("v" * n, E), 1),
            "__metadata__ value of %s bytes, then a second one" % what)


def bom(add):
    h = '{"__metadata__":{"k":"%sv","%sk":"x"},"%sw":{%s},"w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}' % (
        BOM, BOM, BOM, E)
    add("valid-strings-bom-led", st_file(h, 2),
        "tensor name, __metadata__ key and value led by raw U+FEFF (EF BB BF); tensors U+FEFF w and w are distinct")


def deep(add):
    k = DEPTH - 2  # the outer object is level 1, the entry level 2
    add("ST113-depth-1000000-arrays", st_file(one(E + ',"x":' + "[" * k + "]" * k), 1),
        "1,000,000 nested arrays in an ignored entry field", "ST113")
    add("ST113-depth-1000000-objects", st_file(one(E + ',"x":' + '{"":' * k + "0" + "}" * k), 1),
        "1,000,000 nested objects in an ignored entry field", "ST113")
    assert k % 2 == 0
    add("ST113-depth-1000000-mixed", st_file(one(E + ',"x":' + '[{"":' * (k // 2) + "0" + "}]" * (k // 2)), 1),
        "1,000,000 levels of alternating arrays and objects ([{\"\":[{...) in an ignored entry field", "ST113")


def zero_tail_cuts(add):
    zero = "; the missing bytes are zeros (a reader that reads past EOF as zeros sees a valid file)"
    t = obj(("t", ent("F32", [4], 0, 16)))
    add("ST308-data-short-zero-tail", st_file(t, f32s([1, 2, 0, 0])[:8]),
        "F32 [4] = 1, 2, 0, 0: the last two elements are missing" + zero, "ST308")
    add("ST308-data-short-one-zero-byte", st_file(t, f32s([1, 2, 3, 0])[:15]),
        "F32 [4] = 1, 2, 3, 0: its last byte is missing" + zero, "ST308")
    two = obj(("a", ent("U8", [2], 0, 2)), ("z", ent("F32", [2], 2, 10)))
    add("ST308-data-missing-zero-last-tensor", st_file(two, b"\1\2"),
        "second tensor, F32 [2] of zeros, entirely missing" + zero, "ST308")


def build(add):
    js_names(add)
    long_strings(add)
    bom(add)
    deep(add)
    zero_tail_cuts(add)
