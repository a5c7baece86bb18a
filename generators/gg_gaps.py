"""gg_gaps.py: GGUF fixtures for the gaps found by hand while running third-party readers
(issue 17, item 8; the table is in docs/fixtures.md, "Gaps found by hand").  Called by
gg_fixtures.py with its add(); every verdict is confirmed by ggml (ctest test_adapter_ggml_meta /
test_adapter_ggml_data run every corpus fixture through it), every expected content by
tests/corpus/indep_decode.py (test_expected_independent).

- keys and tensor names that collide with JavaScript object properties (`__proto__`,
  `constructor`, `toString`, `hasOwnProperty`, `"1"`, and `version`, `tensor_count`, `kv_count`,
  the fields @huggingface/gguf puts beside the KVs), valid, and as a duplicate key (GG111);
- keys and string values of 4 KiB, 64 KiB and 1 MiB;
- strings, keys and tensor names led by U+FEFF (EF BB BF), which a TextDecoder strips;
- truncations where the missing bytes are zeros, so that a reader which reads past the end of
  the file as zeros sees a valid file: ggml rejects each one.
"""

from tfsgen.gguf import enc_header as header, enc_kv as kv, enc_kv_array as kv_arr
from tfsgen.gguf import enc_tensor_info as ti, gstr, kv_str, kv_u32, layout as model, pad, u32, u64, u8
from tfsgen.tables import GG_TYPE_ID, VT, VT_ARRAY, VT_STRING
from tfsgen.data import f32s  # noqa: E402

# value types and ggml types from include/tfs/gg_types.def (tfsgen.tables)
U8, U64, BOOL, STR, ARR = VT["U8"], VT["U64"], VT["BOOL"], VT_STRING, VT_ARRAY
F32_T, I8_T = GG_TYPE_ID["f32"], GG_TYPE_ID["i8"]
BOM = "\ufeff"
KIB = 1024



def js_names(add):
    snake = [kv_arr("__proto__", STR, 2, gstr("a") + gstr("b")), kv_str("constructor", "c"),
             kv_str("prototype", "p"), kv_u32("version", 7), kv("tensor_count", U64, u64(5)),
             kv("kv_count", U64, u64(9)), kv("1", U8, u8(1)), kv_u32("length", 3)]
    add("valid-key-js-properties", header(0, len(snake)) + b"".join(snake),
        "keys __proto__ (string array), constructor, prototype, version, tensor_count, kv_count, 1, length: "
        "JavaScript object properties and @huggingface/gguf's own fields",
        extra=[("valid-key-js-properties-strict", "valid", "-", "strict")])
    methods = [kv_str("toString", "t"), kv_u32("hasOwnProperty", 1), kv_str("valueOf", "v"),
               kv_str("__defineGetter__", "g"), kv("isPrototypeOf", BOOL, u8(1))]
    add("valid-key-js-methods", header(0, len(methods)) + b"".join(methods),
        "keys toString, hasOwnProperty, valueOf, __defineGetter__, isPrototypeOf: names of Object.prototype methods "
        "(--strict: capitals are not lower_snake_case, GG506)",
        extra=[("GG506-key-js-methods-strict", "parser_error", "GG506", "strict")])
    add("valid-tensor-js-properties", model([("__proto__", [8], F32_T), ("constructor", [8], F32_T),
                                             ("toString", [8], F32_T), ("1", [8], F32_T)]),
        "tensors named __proto__, constructor, toString and 1")
    add("GG111-duplicate-key-proto", header(0, 3) + kv_str("__proto__", "a") + kv_u32("x", 1) +
        kv_str("__proto__", "b"), "key __proto__ twice (a plain JavaScript object cannot hold it)", "GG111")
    add("GG111-duplicate-key-constructor", header(0, 3) + kv_str("constructor", "a") + kv_u32("x", 1) +
        kv_str("constructor", "b"), "key constructor twice (always 'in' a JavaScript object)", "GG111")


def long_strings(add):
    k4 = "long." + "k" * (4 * KIB - 5)
    assert len(k4) == 4 * KIB
    add("valid-kv-4-kib", header(0, 2) + kv_str(k4, "v" * (4 * KIB)) +
        kv_arr("long.tokens", STR, 2, gstr("a" * (4 * KIB)) + gstr("b" * (4 * KIB))),
        "key of 4,096 bytes with a 4,096-byte string value; a string array of two 4,096-byte strings")
    n = 64 * KIB + 1
    add("valid-kv-64-kib", header(0, 2) + kv_str("general.description", "d" * n) +
        kv_arr("tokenizer.ggml.tokens", STR, 3, gstr("a") + gstr("t" * n) + gstr("b")),
        "string value of 65,537 bytes; a string array whose second element is 65,537 bytes")
    n = 1024 * KIB + 1
    add("valid-string-1-mib", header(0, 2) + kv_str("general.description", "m" * n) + kv_u32("general.x", 5),
        "string value of 1,048,577 bytes, then a u32 KV")


def bom(add):
    add("valid-string-bom-led", header(0, 3) + kv_str("general.name", BOM + "name") +
        kv_arr("tokenizer.ggml.tokens", STR, 3, gstr(BOM) + gstr(BOM + "a") + gstr("b")) + kv_u32("general.x", 5),
        "string value and string array elements starting with U+FEFF (EF BB BF), one exactly U+FEFF "
        "(a TextDecoder strips it)")
    add("valid-key-bom-led", header(0, 2) + kv_str("general.name", "a") + kv_str(BOM + "general.name", "b"),
        "keys general.name and U+FEFF general.name: distinct, the same once U+FEFF is stripped "
        "(--strict: not ASCII, GG506)",
        extra=[("GG506-key-bom-led-strict", "parser_error", "GG506", "strict")])
    add("valid-tensor-name-bom-led", model([("w", [8], F32_T), (BOM + "w", [8], F32_T)]),
        "tensors w and U+FEFF w: distinct, the same once U+FEFF is stripped")


def zero_tail_cuts(add):
    """Files cut where every missing byte would be a zero: read past the end as zeros, each is valid."""
    zero = "; the missing bytes are zeros (a reader that reads past EOF as zeros sees a valid file)"
    add("GG103-cut-in-empty-string-length", header(0, 2) + kv_u32("a", 1) + gstr("general.name") + u32(STR) +
        u64(0)[:1], "last KV: an empty string value whose u64 length is cut after 1 byte" + zero, "GG103")
    add("GG103-cut-in-empty-array-count", header(0, 2) + kv_u32("a", 1) + gstr("k") + u32(ARR) + u32(U8) +
        u64(0)[:1], "last KV: an empty u8 array whose u64 count is cut after 1 byte" + zero, "GG103")
    add("GG103-cut-in-u64-value", header(0, 2) + kv_u32("a", 1) + kv("b", U64, u64(1)[:1]),
        "last KV: u64 value 1 cut after its low byte" + zero, "GG103")
    two = header(2, 0) + ti("a", [8], F32_T, 0) + ti("b", [8], F32_T, 32)
    add("GG201-cut-in-last-offset", two[:-7], "second tensor's offset 32 cut after its low byte" + zero, "GG201")
    nd = header(1, 0) + gstr("t") + u32(1)
    add("GG201-cut-after-n-dims-low-byte", nd[:-3],
        "tensor info cut after the low byte of n_dims 1 (zeros: ne[0] 0, f32, offset 0)" + zero, "GG201")
    infos = header(1, 0) + ti("embedding", [8], F32_T, 0)  # 65 bytes: 31 of padding
    padded = pad(infos)
    assert len(padded) - len(infos) >= 8
    add("GG301-cut-in-padding", padded[:len(infos) + 4],
        "f32 [8]: the file ends 4 bytes into the 31 bytes of padding before the data section" + zero, "GG301")
    body = f32s([1, 2, 3, 4, 5, 6, 0, 0])
    short = model([("t", [8], F32_T)], data=body[:-4])
    add("GG304-data-short-zero-tail", short, "f32 [8] whose last element 0.0 is missing" + zero, "GG304",
        extra=[("GG304-data-short-zero-tail-header-only", "valid", "-", "header-only")])
    i8 = bytes(range(1, 32)) + b"\0"
    add("GG304-data-short-one-zero-byte", model([("a", [4], F32_T), ("b", [32], I8_T)],
                                                data=pad(f32s([1, 2, 3, 4])) + i8[:-1]),
        "second tensor, i8 [32], is 1 byte short and that byte is 0" + zero, "GG304",
        extra=[("GG304-data-short-one-zero-byte-header-only", "valid", "-", "header-only")])
    add("GG304-data-missing-zero-last-tensor", model([("a", [8], F32_T), ("z", [8], F32_T)],
                                                     data=f32s([1, 2, 3, 4, 5, 6, 7, 8])),
        "second tensor, f32 [8] of zeros, entirely missing: the file ends after the first" + zero, "GG304",
        extra=[("GG304-data-missing-zero-last-tensor-header-only", "valid", "-", "header-only")])


def build(add):
    js_names(add)
    long_strings(add)
    bom(add)
    zero_tail_cuts(add)
