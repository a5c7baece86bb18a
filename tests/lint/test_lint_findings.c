/* test_lint_findings.c: what each finding of the corpus/lint cases names,
 * not only its rule id (test_lint checks the ids): the file of the set, the
 * tensor or key index, and the numbers of the message.  The expectations
 * are written here by hand from what lint_mkfiles.c builds into each case
 * (tensor and key order as it writes them) and from the rules' definitions
 * in docs/lint.md (MLX: scales [out, lanes * 32 / bits / group]; llama.cpp:
 * u32 hyper-parameters, block_count 1..512; the sets' shards and parts),
 * never from tfs's output.  Also the small JSON reader of index.json and
 * config.json (parsers/lint/json.c) through its internal API, against
 * RFC 8259 (each accepted text and its decoded strings checked with
 * Python's json module when written). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/files.h"
#include "common/sources.h"
#include "common/st_model.h"
#include "common/writes.h"
#include "lint_internal.h"
#include "tfs/lint.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

#define C TFS_SOURCE_DIR "/corpus/lint/"

/* libtfs's qsort calls land here (-Wl,--wrap=qsort, tests/lint/tests.cmake).  C11 7.22.5 asks the
 * comparator for a total order of the array (an element compares equal to itself; cmp(a, b) and cmp(b, a)
 * have opposite signs) and leaves the order of elements that compare equal unspecified.  This qsort checks
 * the first on every pair of an array of up to 256 elements, then sorts the array reversed: a caller that
 * relies on the order glibc's merge sort keeps for equal elements (their order before the sort) sees
 * another one here. */
void __real_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
static int sign_of(int v) { return (v > 0) - (v < 0); }
void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    unsigned char *b = base;
    if (n <= 256u)
        for (size_t i = 0; i < n; i++)
            for (size_t j = i; j < n; j++)
                if (sign_of(cmp(b + i * size, b + j * size)) != -sign_of(cmp(b + j * size, b + i * size))) {
                    print_error("qsort: the comparator is no total order (elements %zu and %zu)\n", i, j);
                    fail();
                }
    unsigned char *t = malloc(size ? size : 1u);
    assert_non_null(t);
    for (size_t i = 0, j = n; i + 1u < j; i++, j--) {
        memcpy(t, b + i * size, size);
        memcpy(b + i * size, b + (j - 1u) * size, size);
        memcpy(b + (j - 1u) * size, t, size);
    }
    free(t);
    __real_qsort(base, n, size, cmp);
}

typedef struct want {
    const char *id;
    int part; /* file index in the report (sets), 0 for one file, -1 the set */
    int64_t tensor, kv;
    const char *text; /* a part of the message */
} want;

typedef struct lcase {
    const char *path; /* below corpus/lint */
    int set;
    want w[4];
} lcase;

#define L "model.layers.0.mlp.up_proj"
#define ST3 "model-00003-of-00003.safetensors"
#define ST2 "model-00002-of-00003.safetensors"

static const lcase cases[] = {
    /* ---- GGUF: keys 0 architecture, 1 name, 2 file_type, (alignment), block_count, context, embedding,
     * head_count, tokenizer model, tokens, scores, token_type, bos, eos; tensors token_embd, blk.0, blk.1|5,
     * output_norm */
    {"files/gguf-q4_0.gguf", 0, {{0}}},
    {"files/LT101-gguf-no-arch.gguf", 0, {{"LT101", 0, -1, -1, "general.architecture is missing"}}},
    {"files/LT102-gguf-arch-u32.gguf", 0, {{"LT102", 0, -1, 0, "general.architecture: u32, expected string"}}},
    {"files/LT103-gguf-alignment-4.gguf", 0, {{"LT103", 0, -1, 3, "general.alignment = 4:"}}},
    {"files/LT104-gguf-scores-u8.gguf",
     0,
     {{"LT104", 0, -1, 9, "tokenizer.ggml.scores: array of u8, expected array of f32"}}},
    {"files/LT105-gguf-scores-short.gguf",
     0,
     {{"LT105", 0, -1, 9, "tokenizer.ggml.scores: 4 elements, tokenizer.ggml.tokens has 6"}}},
    {"files/LT106-gguf-bos-99.gguf",
     0,
     {{"LT106", 0, -1, 11, "tokenizer.ggml.bos_token_id = 99, but the vocabulary has 6 tokens"}}},
    {"files/LT107-gguf-block-count-u64.gguf",
     0,
     {{"LT107", 0, -1, 3, "llama.block_count: u64, expected u32 (llama.cpp refuses another integer type)"}}},
    {"files/LT108-gguf-block-count-600.gguf",
     0,
     {{"LT108", 0, -1, 3, "llama.block_count = 600: llama.cpp needs 1..512"}}},
    {"files/LT109-gguf-blk-5.gguf",
     0,
     {{"LT109", 0, 2, -1, "blk.5.attn_q.weight: block 5, but llama.block_count = 2"}}},
    {"files/LT110-gguf-no-block-count.gguf", 0, {{"LT110", 0, 2, -1, "tensors up to blk.1. but no llama.block_count"}}},
    {"files/LT111-gguf-file-type-99.gguf",
     0,
     {{"LT111", 0, -1, 2, "general.file_type = 99: no llama_ftype has this value"}}},
    {"files/LT112-gguf-file-type-q6_k.gguf",
     0,
     {{"LT112", 0, -1, 2, "general.file_type = 18 (MOSTLY_Q6_K), but none of the 4 tensors has type q6_K"}}},
    /* gguf-q4_0's data section: q8_0 [64, 6] 408 bytes padded to 416, q4_0 [64, 64] 2 x 2,304, f32 [64] 256:
     * 5,280 bytes from offset 928 (the tensor infos end at 906), so the file ends at 6,208 */
    {"files/LT113-gguf-trailing-100.gguf",
     0,
     {{"LT113", 0, -1, -1,
       "100 bytes after the data section, from offset 6208 to the end of the file at 6308: no tensor owns them"}}},
    /* 22 bytes before the data section, 8 after token_embd.weight */
    {"files/LT114-gguf-padding-5a.gguf",
     0,
     {{"LT114", 0, -1, -1,
       "padding bytes not zero: 30 of 30; the first at offset 906, between the tensor infos (end at 906) and the "
       "data section (at 928)"}}},
    /* the tail at 1, alignment - 1 and alignment bytes */
    {"files/LT113-gguf-trailing-1.gguf",
     0,
     {{"LT113", 0, -1, -1,
       "1 byte after the data section, from offset 6208 to the end of the file at 6209: no tensor owns them"}}},
    {"files/LT113-gguf-trailing-31.gguf",
     0,
     {{"LT113", 0, -1, -1,
       "31 bytes after the data section, from offset 6208 to the end of the file at 6239: no tensor owns them"}}},
    {"files/LT113-gguf-trailing-32.gguf",
     0,
     {{"LT113", 0, -1, -1,
       "32 bytes after the data section, from offset 6208 to the end of the file at 6240: no tensor owns them"}}},
    /* one byte 0x01 at each end of the 22 bytes 906..928 and of the 8 bytes 1336..1344 (token_embd.weight's data:
     * 928..1336); the data bytes beside them are no padding */
    {"files/LT114-gguf-pad-header-first.gguf",
     0,
     {{"LT114", 0, -1, -1,
       "padding bytes not zero: 1 of 30; the first at offset 906, between the tensor infos (end at 906) and the "
       "data section (at 928)"}}},
    {"files/LT114-gguf-pad-header-last.gguf",
     0,
     {{"LT114", 0, -1, -1,
       "padding bytes not zero: 1 of 30; the first at offset 927, between the tensor infos (end at 906) and the "
       "data section (at 928)"}}},
    {"files/LT114-gguf-pad-data-first.gguf",
     0,
     {{"LT114", 0, 0, -1,
       "padding bytes not zero: 1 of 30; the first at offset 1336, in the padding after tensor token_embd.weight"}}},
    {"files/LT114-gguf-pad-data-last.gguf",
     0,
     {{"LT114", 0, 0, -1,
       "padding bytes not zero: 1 of 30; the first at offset 1343, in the padding after tensor token_embd.weight"}}},
    {"files/gguf-data-first-byte.gguf", 0, {{0}}},
    {"files/gguf-data-last-byte-before-pad.gguf", 0, {{0}}},
    {"files/gguf-data-first-byte-after-pad.gguf", 0, {{0}}},
    /* ---- MLX: tensors weight, scales, biases, model.norm.weight (as many as the case writes) */
    {"files/mlx-q4-g32.safetensors", 0, {{0}}},
    {"files/mlx-mxfp4.safetensors", 0, {{0}}},
    {"files/LT201-mlx-bits-7.safetensors",
     0,
     {{"LT201", 0, 0, -1, L ": bits 7, group size 32, mode affine: bits is not 2, 3, 4, 5, 6 or 8"}}},
    {"files/LT202-mlx-no-scales.safetensors",
     0,
     {{"LT202", 0, 0, -1, L ".weight: U32 packed weight without " L ".scales"}}},
    {"files/LT203-mlx-no-biases.safetensors",
     0,
     {{"LT203", 0, 0, -1, L ".weight: affine quantized (bits 4) without " L ".biases"}}},
    {"files/LT204-mlx-mxfp4-biases.safetensors", 0, {{"LT204", 0, 2, -1, L ".biases: mode mxfp4 has no biases"}}},
    {"files/LT205-mlx-scales-shape.safetensors",
     0,
     {{"LT205", 0, 1, -1,
       L
       ".scales: shape [64, 3], expected [64, 2] (weight [64, 8] U32 = rows of 64 values at 4 bits, group size 32)"}}},
    {"files/LT206-mlx-biases-shape.safetensors",
     0,
     {{"LT206", 0, 2, -1, L ".biases: shape [64, 1], expected [64, 2] (as .scales)"}}},
    {"files/LT207-mlx-scales-u8.safetensors",
     0,
     {{"LT207", 0, 1, -1, L ".scales: dtype U8, expected F16, BF16 or F32 for mode affine"}}},
    {"files/LT208-mlx-orphan-scales.safetensors",
     0,
     {{"LT208", 0, 1, -1, "model.norm.scales: no U32 model.norm.weight beside it (it is not packed)"}}},
    {"files/LT209-mlx-group-128.safetensors",
     0,
     {{"LT209", 0, 0, -1,
       L ".weight: shape [64, 8]: group size 128 does not divide the unpacked row of 64 values (4 bits)"}}},
    /* weight U32 [64, 8] with scales [64, 2]: 4 bits, group 32 is the first pair of MLX's table that fits */
    {"files/LT210-mlx-inferred.safetensors",
     0,
     {{"LT210", 0, -1, -1,
       "bits and group size inferred from the shapes: 4 bits, group size 32, mode affine "
       "(model.layers.0.mlp.up_proj.weight)"}}},
    /* ---- safetensors conventions */
    {"files/st-pt.safetensors", 0, {{0}}},
    {"files/LT301-st-header-unpadded.safetensors", 0, {{"LT301", 0, -1, -1, "the crate's serializer pads it"}}},
    {"files/LT302-st-padding-tab.safetensors", 0, {{"LT302", 0, -1, -1, "byte 0x09 at offset"}}},
    {"files/LT303-st-f32-misaligned.safetensors",
     0,
     {{"LT303", 0, 1, -1, "not a multiple of 4 (1 tensor misaligned)"}}},
    {"files/LT304-st-format-torch.safetensors", 0, {{"LT304", 0, -1, 0, "__metadata__ format \"torch\""}}},
    /* ---- safetensors sets: shards 1..3 are files 0..2 (a b | c d | e f, F16 [4, 4] = 32 bytes each) */
    {"sets/st-set-ok/model.safetensors.index.json", 1, {{0}}},
    {"sets/SET001-st-no-weight-map/model.safetensors.index.json",
     1,
     {{"SET001", -1, -1, -1, "no \"weight_map\" object"}}},
    {"sets/SET002-st-shard-missing/model.safetensors.index.json",
     1,
     {{"SET002", 1, -1, -1, ST2 ": missing (named by the index)"}}},
    {"sets/SET003-st-shard-invalid/model.safetensors.index.json", 1, {{"SET003", 1, -1, -1, ST2}}},
    {"sets/SET004-st-wrong-shard/model.safetensors.index.json", 1, {{"SET004", 2, 2, -1, "c: the index names "}}},
    {"sets/SET005-st-two-shards/model.safetensors.index.json", 1, {{"SET005", 1, 2, -1, "b"}}},
    {"sets/SET006-st-dtype-differs/model.safetensors.index.json",
     1,
     {{"SET005", 1, 2, -1, "b"}, {"SET006", 1, 2, -1, "b"}}},
    {"sets/SET007-st-total-size/model.safetensors.index.json",
     1,
     {{"SET007", -1, -1, -1, "metadata.total_size = 100, the shards' tensors hold 192 bytes"}}},
    {"sets/SET008-st-unlisted-tensor/model.safetensors.index.json", 1, {{"SET008", 2, 2, -1, "z: in "}}},
    {"sets/SET009-st-no-total-size/model.safetensors.index.json", 1, {{"SET009", -1, -1, -1, "metadata.total_size"}}},
    {"sets/SET-st-three-errors/model.safetensors.index.json",
     1,
     {{"SET002", 0, -1, -1, "missing (named by the index)"},
      {"SET004", 2, 2, -1, "c: the index names "},
      {"SET007", -1, -1, -1, "metadata.total_size = 1, less than the 128 bytes of the shards present"}}},
    /* ---- MLX set: weight in shard 1, scales in shard 2, biases in shard 3 (each first in its shard) */
    {"sets/mlx-set-q4/model.safetensors.index.json", 1, {{0}}},
    {"sets/LT205-mlx-set-scales-shape/model.safetensors.index.json",
     1,
     {{"LT205", 1, 0, -1, L ".scales: shape [64, 3], expected [64, 2]"}}},
    /* ---- GGUF splits: parts 1..3 are files 0..2; split.no, split.count, split.tensors.count follow the
     * model's 13 keys in part 1, they are keys 0..2 in the others */
    {"sets/gg-split-ok/model-00001-of-00003.gguf", 1, {{0}}},
    {"sets/SET002-gg-part-missing/model-00001-of-00003.gguf", 1, {{"SET002", 1, -1, -1, "model-00002-of-00003.gguf"}}},
    {"sets/SET101-gg-split-count/model-00001-of-00003.gguf", 1, {{"SET101", 1, -1, 1, "split.count = 4, expected 3"}}},
    {"sets/SET102-gg-split-no/model-00001-of-00003.gguf", 1, {{"SET102", 2, -1, 0, "split.no = 3, expected 2"}}},
    {"sets/SET103-gg-tensors-count/model-00001-of-00003.gguf",
     1,
     /* the same wrong value in every part: one finding, on the first part (the one llama.cpp reads) */
     {{"SET103", 0, -1, 15, "split.tensors.count = 5, the parts hold 4 tensors"}}},
    {"sets/SET104-gg-metadata-in-part-2/model-00001-of-00003.gguf",
     1,
     {{"SET104", 1, -1, 0, "13 metadata keys besides split.* (first: general.architecture)"}}},
    {"sets/SET005-gg-duplicate/model-00001-of-00003.gguf", 1, {{"SET005", 2, 0, -1, "output_norm.weight"}}},
};


/* ---- parsers/lint/json.c through its internal API: RFC 8259 texts; the
 * accepted ones and their decoded strings confirmed with Python's
 * json.loads (encoded as UTF-8), the rejected ones rejected by it too.  Lone
 * surrogates become U+FFFD (json.c's documented choice; Python keeps them). */

static lj_node *ok(const char *text) {
    const char *why = "unset";
    int oom = 7;
    lj_node *n = tfs__lj_parse(text, strlen(text), &why, &oom);
    if (!n) print_message("rejected: %s (%s)\n", text, why);
    assert_non_null(n);
    assert_string_equal(why, "unset"); /* untouched on success */
    assert_int_equal(oom, 7);
    return n;
}

static void bad(const char *text, const char *reason) {
    const char *why = NULL;
    int oom = 7;
    lj_node *n = tfs__lj_parse(text, strlen(text), &why, &oom);
    if (n) print_message("accepted: %s\n", text);
    assert_null(n);
    assert_non_null(why);
    assert_int_equal(oom, 0);
    if (reason) assert_string_equal(why, reason);
}

static void str_is(const char *text, const char *bytes, size_t len) {
    lj_node *n = ok(text);
    assert_int_equal(n->type, LJ_STR);
    assert_int_equal(n->len, len);
    assert_memory_equal(n->s, bytes, len);
    assert_int_equal(n->s[len], '\0');
    tfs__lj_free(n);
}

static void test_json_strings(void **state) {
    (void)state;
    str_is("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\b\f\n\r\t", 8);
    str_is("\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"", "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10);
    /* each UTF-8 length at its first and last code point; the first and the last pair */
    str_is("\"\\u007f\\u0080\\u07ff\\u0800\\uffff\\ud800\\udc00\\udbff\\udfff\"",
           "\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 19);
    /* next to the surrogates; hex digits 0-9, a-f, A-F */
    str_is("\"\\ud7ff\\ue000\\u00Ff\\uABCD\\uabcd\\u0909\"",
           "\xed\x9f\xbf\xee\x80\x80\xc3\xbf\xea\xaf\x8d\xea\xaf\x8d\xe0\xa4\x89", 17);
    /* lone surrogates: high then x, low alone, high then A, high then high (then a pair), high at the end */
    str_is("\"\\ud800x\\udc00\\ud800\\u0041\\udbff\\ud800\\udfff\\ud800\"",
           "\xef\xbf\xbd\x78\xef\xbf\xbd\xef\xbf\xbd\x41\xef\xbf\xbd\xf0\x90\x8f\xbf\xef\xbf\xbd", 21);
    /* the last low surrogate DFFF alone (first, after D7FF, before a byte): U+FFFD, as the whole range
     * D800..DFFF; its neighbours D7FF and E000 stay */
    str_is("\"\\udfff\\ud7ff\\udfffx\\ue000\"", "\xef\xbf\xbd\xed\x9f\xbf\xef\xbf\xbd\x78\xee\x80\x80", 13);
    /* a high surrogate then the last high one DBFF (just below the low range): no pair, two lone ones (Python:
     * '\ud800\udbff', two code points) */
    str_is("\"\\ud800\\udbff\"", "\xef\xbf\xbd\xef\xbf\xbd", 6);
    /* a low surrogate then another: two lone ones (only D800..DBFF opens a pair) */
    str_is("\"\\udc00\\udc00\"", "\xef\xbf\xbd\xef\xbf\xbd", 6);
    /* a high surrogate then U+E000 (just past the low range): no pair */
    str_is("\"\\ud800\\ue000\"", "\xef\xbf\xbd\xee\x80\x80", 6);
    /* raw bytes are kept (0x20 and 0x7f are no control characters), an escaped quote does not end it */
    str_is("\"a\x7f b\\\"c\\\\\"", "a\x7f b\"c\\", 7);
    str_is("\"\"", "", 0);
    bad("\"abc", "unterminated string");
    bad("{\":1}", "unterminated string"); /* a key that never ends, ':' its first byte */
    bad("\"abc\\\"", "unterminated string");
    bad("\"a\x01\"", "control character in a string");
    bad("\"a\x1f\"", "control character in a string");
    bad("\"\\x\"", "bad escape");
    bad("\"\\u12\"", "bad \\u escape");
    bad("\"\\u123\"", "bad \\u escape");
    bad("\"\\u00g0\"", "bad \\u escape");
    bad("\"\\u00G0\"", "bad \\u escape");
    bad("\"\\u00/0\"", "bad \\u escape"); /* '/' is below '0' */
    bad("\"\\u00:0\"", "bad \\u escape"); /* ':' is above '9' */
    bad("\"\\u00@0\"", "bad \\u escape");
    bad("\"\\u00`0\"", "bad \\u escape");
}

static void test_json_values(void **state) {
    (void)state;
    static const struct {
        const char *text;
        lj_type type;
    } v[] = {
        {"true", LJ_TRUE},
        {"false", LJ_FALSE},
        {"null", LJ_NULL},
        {"0", LJ_NUM},
        {"-0", LJ_NUM},
        {"1e0", LJ_NUM},
        {"2E10", LJ_NUM},
        {"12.5e+3", LJ_NUM},
        {"1E-2", LJ_NUM},
        {"1e5", LJ_NUM},
        {"-7.25", LJ_NUM},
        {"19.99e9", LJ_NUM},
        {"9E+9", LJ_NUM},
        {"[]", LJ_ARR},
        {"[ ]", LJ_ARR},
        {"{}", LJ_OBJ},
        {" \t\n\r{}\r\n\t ", LJ_OBJ},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        lj_node *n = ok(v[i].text);
        assert_int_equal(n->type, v[i].type);
        if (n->type == LJ_NUM) { /* the number's text, as written */
            assert_int_equal(n->len, strlen(v[i].text));
            assert_string_equal(n->s, v[i].text);
        }
        tfs__lj_free(n);
    }
    static const char *const rejected[] = {
        "-",  "1.", "1.e3", "1e",   "1e+",   ".5",        "+1",     "tru",        "nul",  "fals", "truex", "",
        "  ", "{",  "[",    "[1,]", "[1 2]", "{\"a\" 1}", "{1: 2}", "{\"a\":1,}", "[1]x", "{}}",  "[1,",   "{\"a\":"};
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) bad(rejected[i], NULL);
    bad("", "value expected");
    bad("[1]x", "text after the JSON value");
    bad("{\"a\" 1}", "':' expected");
    bad("{1: 2}", "object key is not a string");
    bad("[1 2]", "',' or ']' expected");
    bad("{\"a\": 1 \"b\": 2}", "',' or '}' expected");
    /* exactly len bytes are read: a digit or letter after them is not part of the value */
    static const struct {
        const char *buf;
        size_t len;
        const char *num;
    } cut[] = {{"123", 2, "12"}, {"1.55", 3, "1.5"}, {"1e55", 3, "1e5"}, {"-7", 2, "-7"},
               {"1.5", 1, "1"},  {"1e5", 1, "1"},    {"2E5", 1, "2"},    {"7 x", 1, "7"}};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        lj_node *n = tfs__lj_parse(cut[i].buf, cut[i].len, NULL, NULL);
        assert_non_null(n);
        assert_int_equal(n->type, LJ_NUM);
        assert_string_equal(n->s, cut[i].num);
        tfs__lj_free(n);
    }
    assert_null(tfs__lj_parse("true", 3, NULL, NULL));
    /* numbers cut where a sign, a digit or an exponent is due, each text in a
     * heap block of exactly its length: a byte read past it is ASan's */
    static const char *const ends[] = {"-", "1.", "1e", "1e+", "1E-"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t len = strlen(ends[i]);
        char *heap = malloc(len);
        assert_non_null(heap);
        memcpy(heap, ends[i], len);
        const char *w = NULL;
        assert_null(tfs__lj_parse(heap, len, &w, NULL));
        assert_string_equal(w, "bad number");
        free(heap);
    }
    const char *why = NULL;
    assert_null(tfs__lj_parse("{\"", 1, &why, NULL)); /* the quote after the end is not read */
    assert_string_equal(why, "object key is not a string");
    assert_null(tfs__lj_parse("\"ab\"", 3, NULL, NULL));
    /* a container cut before its closing bracket (the bracket is the byte after the len bytes) */
    static const struct {
        const char *buf;
        size_t len;
        const char *why;
    } open_end[] = {
        {"[]", 1, "value expected"},         {"{}", 1, "object key is not a string"}, {"[1]", 2, "',' or ']' expected"},
        {"[1,2]", 2, "',' or ']' expected"}, {"{\"a\":1}", 6, "',' or '}' expected"}, {"{\"a\":1}", 4, "':' expected"}};
    for (size_t i = 0; i < sizeof open_end / sizeof open_end[0]; i++) {
        why = NULL;
        assert_null(tfs__lj_parse(open_end[i].buf, open_end[i].len, &why, NULL));
        assert_string_equal(why, open_end[i].why);
    }
    /* a literal is its whole word */
    bad("trux", "not JSON");
    bad("nukl", "not JSON");
    bad("falsy", "not JSON");
    bad("fals", "not JSON");
    /* a literal cut by len, the rest of its word in the bytes after them: those are not read, the literal is
     * what fails (Python: "Expecting value" at the literal) */
    static const struct {
        const char *buf;
        size_t len;
    } cut_word[] = {{"[true]", 4}, {" false", 5}, {"[null]", 3}, {"{\"a\":true}", 8}};
    for (size_t i = 0; i < sizeof cut_word / sizeof cut_word[0]; i++) {
        why = NULL;
        assert_null(tfs__lj_parse(cut_word[i].buf, cut_word[i].len, &why, NULL));
        assert_string_equal(why, "not JSON");
    }
    /* and in a heap block of exactly its length: a byte read past it is ASan's */
    char *tru = malloc(4);
    assert_non_null(tru);
    memcpy(tru, " tru", 4);
    why = NULL;
    assert_null(tfs__lj_parse(tru, 4, &why, NULL));
    assert_string_equal(why, "not JSON");
    free(tru);
    /* white space after the len bytes is not read either: the value ends the text */
    lj_node *obj = tfs__lj_parse("{} ", 2, NULL, NULL);
    assert_non_null(obj);
    assert_int_equal(obj->type, LJ_OBJ);
    tfs__lj_free(obj);
    why = NULL;
    assert_null(tfs__lj_parse(NULL, 0, &why, NULL));
    assert_non_null(why);
}

static void test_json_containers(void **state) {
    (void)state;
    /* duplicate keys: the last wins (Python's json) */
    lj_node *n = ok("{\"a\": 1, \"b\": [true, false, null], \"a\": \"x\", \"ab\": 2}");
    assert_int_equal(n->type, LJ_OBJ);
    assert_int_equal(n->n, 4);
    const lj_node *a = tfs__lj_get(n, "a");
    assert_non_null(a);
    assert_int_equal(a->type, LJ_STR);
    assert_string_equal(a->s, "x");
    const lj_node *b = tfs__lj_get(n, "b");
    assert_non_null(b);
    assert_int_equal(b->type, LJ_ARR);
    assert_int_equal(b->n, 3);
    assert_int_equal(b->kids[0].type, LJ_TRUE);
    assert_int_equal(b->kids[1].type, LJ_FALSE);
    assert_int_equal(b->kids[2].type, LJ_NULL);
    assert_null(tfs__lj_get(n, "c"));
    assert_null(tfs__lj_get(n, ""));
    assert_null(tfs__lj_get(b, "a")); /* not an object */
    assert_null(tfs__lj_get(NULL, "a"));
    assert_string_equal(tfs__lj_get(n, "ab")->s, "2");
    tfs__lj_free(n);
    /* 100 members: the arrays grow past 8, 16, 32 and 64; every member in place */
    char text[2048];
    size_t o = 0;
    o += (size_t)snprintf(text + o, sizeof text - o, "{");
    for (int i = 0; i < 100; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%s\"k%d\": [%d]", i ? "," : "", i, i);
    snprintf(text + o, sizeof text - o, "}");
    n = ok(text);
    assert_int_equal(n->n, 100);
    for (int i = 0; i < 100; i++) {
        char k[8], num[8];
        snprintf(k, sizeof k, "k%d", i);
        snprintf(num, sizeof num, "%d", i);
        assert_string_equal(n->keys[i].s, k);
        const lj_node *e = tfs__lj_get(n, k);
        assert_ptr_equal(e, &n->kids[i]);
        assert_int_equal(e->type, LJ_ARR);
        assert_int_equal(e->n, 1);
        assert_string_equal(e->kids[0].s, num);
    }
    tfs__lj_free(n);
    /* nesting: 64 levels are read, 65 are not */
    char deep[200];
    for (int d = 64; d <= 65; d++) {
        memset(deep, '[', (size_t)d);
        memset(deep + d, ']', (size_t)d);
        deep[2 * d] = '\0';
        if (d == 64) {
            n = ok(deep);
            const lj_node *x = n;
            for (int i = 1; i < 64; i++) {
                assert_int_equal(x->n, 1);
                x = &x->kids[0];
            }
            assert_int_equal(x->n, 0);
            tfs__lj_free(n);
        } else {
            bad(deep, "nested too deep");
        }
    }
}

static void test_json_u64(void **state) {
    (void)state;
    static const struct {
        const char *text;
        int ok;
        uint64_t v;
    } v[] = {
        {"0", 1, 0},
        {"7", 1, 7},
        {"9", 1, 9},
        {"1844674407370955161", 1, 1844674407370955161u},
        {"18446744073709551609", 1, 18446744073709551609u},
        {"18446744073709551615", 1, UINT64_MAX},
        {"18446744073709551616", 0, 0},
        {"18446744073709551620", 0, 0},
        {"99999999999999999999", 0, 0},
        {"-1", 0, 0},
        {"-0", 0, 0},
        {"1.0", 0, 0},
        {"1e3", 0, 0},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        lj_node *n = ok(v[i].text);
        uint64_t got = 12345;
        assert_int_equal(tfs__lj_u64(n, &got), v[i].ok);
        assert_true(v[i].ok ? got == v[i].v : got == 12345);
        tfs__lj_free(n);
    }
    lj_node *n = ok("\"5\"");
    uint64_t got;
    assert_false(tfs__lj_u64(n, &got)); /* a string */
    tfs__lj_free(n);
    assert_false(tfs__lj_u64(NULL, &got));
}

/* ---- report.c tfs__lint_shape: "[d0, d1, ...]" into cap bytes, cut to cap bytes and always terminated
 * (lint_internal.h), as snprintf does: nothing written at buf[cap] or after, nothing at all for cap 0 */
static void shape_is(size_t cap, const uint64_t *shape, uint32_t n, const char *expect) {
    char buf[64];
    memset(buf, 'x', sizeof buf);
    tfs__lint_shape(buf, cap, shape, n);
    if (expect) assert_memory_equal(buf, expect, strlen(expect) + 1u);
    for (size_t i = expect ? cap : 0; i < sizeof buf; i++) assert_int_equal(buf[i], 'x');
}

static void lint_shape_cases(void) {
    static const uint64_t s3[] = {1, 2, 3}, big[] = {UINT64_MAX, 0};
    shape_is(64, s3, 3, "[1, 2, 3]");
    shape_is(10, s3, 3, "[1, 2, 3]"); /* 9 bytes and the NUL: exactly fits */
    shape_is(9, s3, 3, "[1, 2, 3");   /* no room for the ']' */
    shape_is(8, s3, 3, "[1, 2, ");
    shape_is(5, s3, 3, "[1, ");
    shape_is(4, s3, 3, "[1,");
    shape_is(3, s3, 3, "[1");
    shape_is(2, s3, 3, "[");
    shape_is(1, s3, 3, "");
    shape_is(0, s3, 3, NULL);
    shape_is(64, s3, 0, "[]");
    shape_is(2, s3, 0, "[");
    shape_is(64, big, 2, "[18446744073709551615, 0]");
    shape_is(12, big, 2, "[1844674407");
}

/* ---- MLX rules on files made here with the C writer (tfs_st_write), linted
 * in memory (tfs_lint_header) with a config.json text.  Expectations from
 * MLX's definition (docs/lint.md, lint_mlx.c's header comment): affine bits
 * 2, 3, 4, 5, 6, 8, group sizes 32, 64, 128; mxfp4 (4, 32), nvfp4 (4, 16),
 * mxfp8 (8, 32); scales [..., out, lanes * 32 / bits / group]. */

typedef tfs_test_st_tensor tt; /* name, dtype, rank, shape (tests/common/st_model.h) */

/* The n bytes at p parsed (TFS_OK: the file made here is valid; `about`,
 * when the parse fails, says what was written) and linted with o into r
 * (initialised here); the caller frees r and the header. */
static tfs_header *lint_bytes(const uint8_t *p, size_t n, tfs_format format, const char *about,
                              const tfs_lint_options *o, tfs_lint_report *r) {
    tfs_header *h = NULL;
    tfs_error err;
    tfs_status ps = tfs_parse_buffer(p, n, format, 0, &h, &err);
    if (ps != TFS_OK) print_message("the file made here is invalid: %s (%s)\n", tfs_rule_id(err.rule), about);
    assert_int_equal(ps, TFS_OK);
    tfs_lint_report_init(r);
    assert_int_equal(tfs_lint_header(h, o, r), TFS_OK);
    return h;
}

/* A safetensors file of the header text `json` verbatim (the writer's raw_json
 * knob: escapes and whitespace the generated JSON never has), padded with
 * spaces to a multiple of 8, then data_len zero bytes.  The caller frees it. */
static uint8_t *st_raw(const char *json, size_t data_len, size_t *len) {
    tfs_st_model m = {.raw_json = json, .raw_json_len = strlen(json), .data_len_set = 1, .data_len = data_len};
    return tfs_test_write_flat(NULL, NULL, &m, len);
}

/* The MLX findings (scope MLX) as "ID@tensor ID@tensor ..." in the order found;
 * the text of the first one in first (may be NULL). */
static void mlx_lint_bytes(const uint8_t *buf, size_t len, const char *config, char *got, size_t cap, char *first,
                           size_t first_cap) {
    tfs_lint_options o = {.config_json = config, .config_len = config ? strlen(config) : 0};
    tfs_lint_report r;
    tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, "MLX safetensors", &o, &r);
    size_t used = 0;
    got[0] = '\0';
    if (first) first[0] = '\0';
    for (size_t i = 0; i < r.n_findings; i++) {
        if (strcmp(tfs_lint_scope(r.findings[i].rule), "MLX") != 0) continue;
        if (first && used == 0) snprintf(first, first_cap, "%s", r.findings[i].text);
        used += (size_t)snprintf(got + used, cap - used, "%s%s@%lld", used ? " " : "", tfs_lint_id(r.findings[i].rule),
                                 (long long)r.findings[i].tensor);
        assert_int_equal(r.findings[i].part, 0);
        assert_int_equal(r.findings[i].kv, -1); /* MLX findings name a tensor or nothing */
    }
    tfs_lint_report_free(&r);
    tfs_header_free(h);
}

static void mlx_lint(const tt *ts, size_t n, const char *const *meta, const char *config, char *got, size_t cap,
                     char *first, size_t first_cap) {
    tfs_st_wentry e[8];
    tfs_st_wmeta m[8];
    assert_true(n <= 8);
    tfs_st_model model = tfs_test_st_model(ts, n, meta, e, m);
    size_t len = 0;
    uint8_t *buf = tfs_test_write_flat(NULL, NULL, &model, &len);
    mlx_lint_bytes(buf, len, config, got, cap, first, first_cap);
    free(buf);
}

static void expect_mlx(const tt *ts, size_t n, const char *const *meta, const char *config, const char *ids,
                       const char *text) {
    char got[512], first[1024];
    mlx_lint(ts, n, meta, config, got, sizeof got, first, sizeof first);
    if (strcmp(got, ids) != 0 || (text && !strstr(first, text)))
        print_message("config %s: got \"%s\" (%s), ids \"%s\" (%s)\n", config ? config : "-", got, first, ids,
                      text ? text : "-");
    assert_string_equal(got, ids);
    if (text) assert_non_null(strstr(first, text));
}

#define QW(lanes)                               \
    {                                           \
        "q.weight", TFS_ST_U32, 2, { 4, lanes } \
    }
static const char *const mlx_meta[] = {"format", "mlx", NULL};

/* bits, group size and mode from config.json: LT201 exactly for what MLX refuses */
static void test_mlx_params(void **state) {
    (void)state;
    const tt layer[] = {QW(8), {"q.scales", TFS_ST_F16, 2, {4, 2}}, {"q.biases", TFS_ST_F16, 2, {4, 2}}};
    char cfg[256], got[512];
    for (unsigned bits = 0; bits <= 9; bits++) {
        snprintf(cfg, sizeof cfg, "{\"quantization\": {\"group_size\": 32, \"bits\": %u}}", bits);
        mlx_lint(layer, 3, NULL, cfg, got, sizeof got, NULL, 0);
        int refused = !(bits == 2 || bits == 3 || bits == 4 || bits == 5 || bits == 6 || bits == 8);
        if (refused != (strstr(got, "LT201") != NULL)) print_message("bits %u: %s\n", bits, got);
        assert_int_equal(refused, strstr(got, "LT201") != NULL);
    }
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4}}", "", NULL);
    /* affine group sizes: MLX's table allows 32, 64, 128 only (mx.quantize refuses any other), through config.json,
     * __metadata__ keys and a __metadata__ quantization entry; a weight of 16 lanes (128 values at 4 bits) with
     * scales 128 / group per row, 4 when the group is refused */
    static const uint64_t groups[] = {16, 31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129, 256, 1, 0, 4294967328u};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++) {
        uint64_t g = groups[i];
        int allowed = g == 32 || g == 64 || g == 128;
        const tt lg[] = {QW(16),
                         {"q.scales", TFS_ST_F16, 2, {4, allowed ? 128 / g : 4}},
                         {"q.biases", TFS_ST_F16, 2, {4, allowed ? 128 / g : 4}}};
        char why[128], gs[24], js[96];
        snprintf(why, sizeof why, "q: bits 4, group size %llu, mode affine: group size is not 32, 64 or 128",
                 (unsigned long long)g);
        snprintf(gs, sizeof gs, "%llu", (unsigned long long)g);
        snprintf(js, sizeof js, "{\"group_size\": %llu, \"bits\": 4}", (unsigned long long)g);
        snprintf(cfg, sizeof cfg, "{\"quantization\": %s}", js);
        const char *const kg[] = {"quantization.group_size", gs, "quantization.bits", "4", NULL};
        const char *const kq[] = {"quantization", js, NULL};
        expect_mlx(lg, 3, NULL, cfg, allowed ? "" : "LT201@0", allowed ? NULL : why);
        expect_mlx(lg, 3, kg, NULL, allowed ? "" : "LT201@0", allowed ? NULL : why);
        expect_mlx(lg, 3, kq, NULL, allowed ? "" : "LT201@0", allowed ? NULL : why);
    }
    /* group size without bits: mlx-lm reads quantization["bits"] (a KeyError), so MLX refuses it: LT201, not inferred */
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 32}}", "LT201@0",
               "group size 32, mode affine: bits is not 2, 3, 4, 5, 6 or 8");
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"mode\": \"affine\"}}", "", NULL);
    /* the fp modes: no biases, U8 scales; exactly their (bits, group) */
    const tt fp[] = {QW(8), {"q.scales", TFS_ST_U8, 2, {4, 2}}};
    static const struct {
        const char *mode;
        unsigned bits, group;
        int ok;
    } m[] = {
        {"mxfp4", 4, 32, 1}, {"mxfp4", 4, 16, 0}, {"mxfp4", 4, 64, 0}, {"mxfp4", 3, 32, 0}, {"mxfp4", 8, 32, 0},
        {"nvfp4", 4, 16, 1}, {"nvfp4", 4, 15, 0}, {"nvfp4", 4, 17, 0}, {"nvfp4", 4, 32, 0}, {"nvfp4", 5, 16, 0},
        {"nvfp4", 3, 16, 0}, {"mxfp8", 8, 32, 1}, {"mxfp8", 8, 31, 0}, {"mxfp8", 8, 33, 0}, {"mxfp8", 7, 32, 0},
        {"mxfp8", 9, 32, 0}, {"mxfp8", 4, 32, 0}, {"mxfp8", 8, 16, 0}, {"mxfp4", 4, 31, 0}, {"mxfp4", 5, 32, 0},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        snprintf(cfg, sizeof cfg, "{\"quantization\": {\"group_size\": %u, \"bits\": %u, \"mode\": \"%s\"}}",
                 m[i].group, m[i].bits, m[i].mode);
        mlx_lint(fp, 2, NULL, cfg, got, sizeof got, NULL, 0);
        if (m[i].ok == (strstr(got, "LT201") != NULL)) print_message("%s: %s\n", cfg, got);
        assert_int_equal(m[i].ok, strstr(got, "LT201") == NULL);
    }
    /* an unknown mode is named, cut at 24 bytes */
    expect_mlx(fp, 2, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"mode\": \"mxfp\"}}", "LT201@0",
               "mode mxfp: mode is not affine, mxfp4, nvfp4 or mxfp8");
    expect_mlx(fp, 2, NULL,
               "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"mode\": \"abcdefghijklmnopqrstuvwx\"}}",
               "LT201@0", "mode abcdefghijklmnopqrstuvwx: mode is");
    expect_mlx(fp, 2, NULL,
               "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"mode\": \"abcdefghijklmnopqrstuvwxy\"}}",
               "LT201@0", "mode abcdefghijklmnopqrstuvwx: mode is");
    /* the same from __metadata__ keys (strings of digits) */
    static const char *const k1[] = {"quantization.group_size",   "32", "quantization.bits", "4", "quantization.mode",
                                     "abcdefghijklmnopqrstuvwxy", NULL};
    expect_mlx(fp, 2, k1, NULL, "LT201@0", "mode abcdefghijklmnopqrstuvwx: mode is");
    static const char *const k9[] = {"quantization.group_size", "32", "quantization.bits", "9", NULL};
    expect_mlx(layer, 3, k9, NULL, "LT201@0", "q: bits 9, group size 32, mode affine");
    static const char *const k23[] = {"quantization.group_size", "32", "quantization.bits", "4", "quantization.mode",
                                      "abcdefghijklmnopqrstuvw", NULL};
    expect_mlx(fp, 2, k23, NULL, "LT201@0", "mode abcdefghijklmnopqrstuvw: mode is");
    static const char *const k24[] = {"quantization.group_size",  "32", "quantization.bits", "4", "quantization.mode",
                                      "abcdefghijklmnopqrstuvwx", NULL};
    expect_mlx(fp, 2, k24, NULL, "LT201@0", "mode abcdefghijklmnopqrstuvwx: mode is");
    static const char *const k2[] = {"quantization.group_size", "32", "quantization.bits", "0000000000000000004", NULL};
    expect_mlx(layer, 3, k2, NULL, "", NULL); /* 19 digits are read */
    static const char *const k3[] = {"quantization.group_size", "32", "quantization.bits", "00000000000000000004",
                                     NULL};
    expect_mlx(layer, 3, k3, NULL, "LT201@0", "bits 0,"); /* 20 are not: bits stays unset */
    static const char *const k4[] = {"quantization.group_size", "32", "quantization.bits", "4x", NULL};
    expect_mlx(layer, 3, k4, NULL, "LT201@0", "bits 0,");
    static const char *const k5[] = {"quantization.group_size", "", "quantization.bits", "4", NULL};
    expect_mlx(layer, 3, k5, NULL, "LT201@0", "group size 0, mode affine: group size is not 32, 64 or 128");
    static const char *const k6[] = {"quantization.group_size", "64", "quantization.bits", "4", NULL};
    expect_mlx(layer, 3, k6, NULL, "LT205@1 LT206@2", "shape [4, 2], expected [4, 1]");
    static const char *const k7[] = {"quantization", "{\"group_size\": 64, \"bits\": 4}", NULL};
    expect_mlx(layer, 3, k7, NULL, "LT205@1 LT206@2", "shape [4, 2], expected [4, 1]");
    /* a __metadata__ quantization that is JSON but not an object: as none, the keys are read (as config.json's) */
    static const char *const kn[] = {
        "quantization", "4", "quantization.group_size", "64", "quantization.bits", "4", NULL};
    expect_mlx(layer, 3, kn, NULL, "LT205@1 LT206@2", "shape [4, 2], expected [4, 1]");
    {
        /* the keys' strings with escapes (decoded "64" and "4", stored one after the other): each its own digits */
        size_t len = 0;
        uint8_t *buf = st_raw("{\"__metadata__\":{\"quantization.group_size\":\"6\\u0034\",\"quantization.bits\":"
                              "\"\\u0034\"},\"q.weight\":{\"dtype\":\"U32\",\"shape\":[4,8],\"data_offsets\":[0,128]},"
                              "\"q.scales\":{\"dtype\":\"F16\",\"shape\":[4,2],\"data_offsets\":[128,144]},"
                              "\"q.biases\":{\"dtype\":\"F16\",\"shape\":[4,2],\"data_offsets\":[144,160]}}",
                              160, &len);
        char first[1024];
        mlx_lint_bytes(buf, len, NULL, got, sizeof got, first, sizeof first);
        assert_string_equal(got, "LT205@1 LT206@2");
        assert_non_null(strstr(first, "q.scales: shape [4, 2], expected [4, 1]"));
        free(buf);
    }
    static const char *const k8[] = {"quantization", "{\"group_size\": 64,", NULL};
    expect_mlx(layer, 3, k8, NULL, "LT201@-1 LT210@-1", "__metadata__ quantization is not a JSON object");
    /* config.json: quantization_config, per-module overrides, not JSON, not an object */
    expect_mlx(layer, 3, NULL, "{\"quantization_config\": {\"group_size\": 64, \"bits\": 4}}", "LT205@1 LT206@2",
               "expected [4, 1]");
    expect_mlx(layer, 3, NULL,
               "{\"quantization\": {\"group_size\": 64, \"bits\": 4}, \"quantization_config\": {\"group_size\": 32, "
               "\"bits\": 4}}",
               "LT205@1 LT206@2", "expected [4, 1]");
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 64, \"bits\": 4, \"q\": {\"group_size\": 32}}}", "",
               NULL);
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"q\": {\"bits\": 8}}}",
               "LT205@1 LT206@2", "expected [4, 1]");
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"p\": {\"bits\": 8}}}", "", NULL);
    expect_mlx(layer, 3, NULL, "{\"quantization\": 4}", "LT210@-1", NULL); /* not an object: as none (inferred) */
    expect_mlx(layer, 3, k6, "{\"quantization\": 4}", "LT205@1 LT206@2", "expected [4, 1]"); /* then __metadata__ */
    expect_mlx(layer, 3, NULL, "{\"quantization\": ", "LT201@-1 LT210@-1", "config.json is not JSON");
    /* a config.json without a quantization object: the __metadata__ quantization entry is read (group 64) */
    expect_mlx(layer, 3, k7, "{\"quantization\": 4}", "LT205@1 LT206@2", "expected [4, 1]");
    expect_mlx(layer, 3, k7, "{}", "LT205@1 LT206@2", "expected [4, 1]");
    /* a config.json that is not JSON: LT201, and the __metadata__ quantization entry is not read (inferred) */
    expect_mlx(layer, 3, k7, "{\"quantization\": ", "LT201@-1 LT210@-1", "config.json is not JSON");
    const tt lone[] = {QW(8)};
    expect_mlx(lone, 1, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4}}", "LT202@0",
               "q.weight: U32 packed weight without q.scales");
    /* left unquantized (false), or quantized by its own object only */
    expect_mlx(lone, 1, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"q\": false}}", "", NULL);
    expect_mlx(lone, 1, mlx_meta, "{\"quantization\": {\"q\": {\"group_size\": 32, \"bits\": 4}}}", "LT202@0", NULL);
    expect_mlx(lone, 1, mlx_meta, "{\"quantization\": {\"q\": true}}", "", NULL);
    /* excluded by false but stored quantized: inferred from the shapes */
    expect_mlx(layer, 3, NULL, "{\"quantization\": {\"group_size\": 64, \"bits\": 4, \"q\": false}}", "LT210@-1", NULL);
}

/* shapes and dtypes with the quantization given (4 bits, group 32) */
static void test_mlx_shapes(void **state) {
    (void)state;
    const char *q = "{\"quantization\": {\"group_size\": 32, \"bits\": 4}}";
    const tt d3[] = {{"q.weight", TFS_ST_U32, 3, {2, 4, 8}},
                     {"q.scales", TFS_ST_F16, 3, {2, 4, 2}},
                     {"q.biases", TFS_ST_F16, 3, {2, 4, 2}}};
    expect_mlx(d3, 3, NULL, q, "", NULL);
    const tt d3s[] = {{"q.weight", TFS_ST_U32, 3, {2, 4, 8}},
                      {"q.scales", TFS_ST_F16, 3, {3, 4, 2}},
                      {"q.biases", TFS_ST_F16, 3, {2, 4, 2}}};
    expect_mlx(d3s, 3, NULL, q, "LT205@1", "shape [3, 4, 2], expected [2, 4, 2]");
    const tt d3r[] = {{"q.weight", TFS_ST_U32, 3, {2, 4, 8}},
                      {"q.scales", TFS_ST_F16, 3, {2, 5, 2}},
                      {"q.biases", TFS_ST_F16, 3, {2, 4, 2}}};
    expect_mlx(d3r, 3, NULL, q, "LT205@1", "expected [2, 4, 2]");
    const tt d3b[] = {{"q.weight", TFS_ST_U32, 3, {2, 4, 8}},
                      {"q.scales", TFS_ST_F16, 3, {2, 4, 2}},
                      {"q.biases", TFS_ST_F16, 3, {1, 4, 2}}};
    expect_mlx(d3b, 3, NULL, q, "LT206@2", "shape [1, 4, 2], expected [2, 4, 2]");
    const tt rank[] = {QW(8), {"q.scales", TFS_ST_F16, 1, {2}}, {"q.biases", TFS_ST_F16, 2, {4, 2}}};
    expect_mlx(rank, 3, NULL, q, "LT205@1", "shape [2], expected [4, 2]");
    const tt rank3[] = {QW(8), {"q.scales", TFS_ST_F16, 3, {4, 2, 1}}, {"q.biases", TFS_ST_F16, 2, {4, 2}}};
    expect_mlx(rank3, 3, NULL, q, "LT205@1", "shape [4, 2, 1], expected [4, 2]");
    const tt brank3[] = {QW(8), {"q.scales", TFS_ST_F16, 2, {4, 2}}, {"q.biases", TFS_ST_F16, 3, {4, 2, 1}}};
    expect_mlx(brank3, 3, NULL, q, "LT206@2", "shape [4, 2, 1], expected [4, 2]");
    /* NAME.scales and NAME.biases are those names exactly: a longer or shorter name is another tensor */
    const tt longer[] = {QW(8), {"q.scalesx", TFS_ST_F16, 2, {4, 2}}, {"q.biasesx", TFS_ST_F16, 2, {4, 2}}};
    expect_mlx(longer, 3, NULL, q, "LT202@0", "q.weight: U32 packed weight without q.scales");
    const tt shorter[] = {QW(8), {"q.scale", TFS_ST_F16, 2, {4, 2}}, {"q.biase", TFS_ST_F16, 2, {4, 2}}};
    expect_mlx(shorter, 3, NULL, q, "LT202@0", "q.weight: U32 packed weight without q.scales");
    const tt d1[] = {{"q.weight", TFS_ST_U32, 1, {8}}, {"q.scales", TFS_ST_F16, 1, {2}}};
    expect_mlx(d1, 2, NULL, q, "LT209@0", "q.weight: 1 dimensions; a quantized weight has at least 2");
    const tt odd[] = {QW(3), {"q.scales", TFS_ST_F16, 2, {4, 1}}, {"q.biases", TFS_ST_F16, 2, {4, 1}}};
    expect_mlx(odd, 3, NULL, "{\"quantization\": {\"group_size\": 32, \"bits\": 5}}", "LT209@0",
               "a row of 3 u32 lanes does not hold a whole number of 5-bit values");
    /* 16 dimensions are read (MLX's leading dimensions are batch dimensions); 17 are refused as LT209 */
    tt w16[3] = {
        {"q.weight", TFS_ST_U32, 16, {0}}, {"q.scales", TFS_ST_F16, 16, {0}}, {"q.biases", TFS_ST_F16, 16, {0}}};
    for (int d = 0; d < 16; d++) w16[0].shape[d] = w16[1].shape[d] = w16[2].shape[d] = 1;
    w16[0].shape[15] = 8;
    w16[1].shape[15] = w16[2].shape[15] = 2;
    expect_mlx(w16, 3, NULL, q, "", NULL);
    w16[1].shape[14] = 2;
    expect_mlx(w16, 3, NULL, q, "LT205@1", "expected [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]");
    tt w17[2] = {{"q.weight", TFS_ST_U32, 17, {0}}, {"q.scales", TFS_ST_F16, 17, {0}}};
    for (int d = 0; d < 17; d++) w17[0].shape[d] = w17[1].shape[d] = 1;
    w17[0].shape[16] = 8;
    w17[1].shape[16] = 2;
    expect_mlx(w17, 2, NULL, q, "LT209@0", "q.weight: 17 dimensions");
    /* dtypes: affine scales F16, BF16, F32; biases the dtype of the scales */
    static const uint32_t floats[] = {TFS_ST_F16, TFS_ST_BF16, TFS_ST_F32};
    for (size_t i = 0; i < 3; i++) {
        const tt l[] = {QW(8), {"q.scales", floats[i], 2, {4, 2}}, {"q.biases", floats[i], 2, {4, 2}}};
        expect_mlx(l, 3, NULL, q, "", NULL);
    }
    const tt f64[] = {QW(8), {"q.scales", TFS_ST_F64, 2, {4, 2}}, {"q.biases", TFS_ST_F64, 2, {4, 2}}};
    expect_mlx(f64, 3, NULL, q, "LT207@1", "q.scales: dtype F64, expected F16, BF16 or F32 for mode affine");
    const tt mixed[] = {QW(8), {"q.scales", TFS_ST_F16, 2, {4, 2}}, {"q.biases", TFS_ST_BF16, 2, {4, 2}}};
    expect_mlx(mixed, 3, NULL, q, "LT207@2", "q.biases: dtype BF16, .scales has F16");
    /* fp modes: scales U8, no biases */
    const char *mx = "{\"quantization\": {\"group_size\": 32, \"bits\": 4, \"mode\": \"mxfp4\"}}";
    const tt fpf[] = {QW(8), {"q.scales", TFS_ST_F16, 2, {4, 2}}};
    expect_mlx(fpf, 2, NULL, mx, "LT207@1", "q.scales: dtype F16, expected U8 for mode mxfp4");
    const tt fpb[] = {QW(8), {"q.scales", TFS_ST_U8, 2, {4, 2}}, {"q.biases", TFS_ST_U8, 2, {4, 2}}};
    expect_mlx(fpb, 3, NULL, mx, "LT204@2", "q.biases: mode mxfp4 has no biases");
    /* orphans: .scales or .biases without a U32 weight (none, or not packed); a name that is only the suffix */
    const tt orph[] = {{"a.biases", TFS_ST_F16, 1, {2}}, {".scales", TFS_ST_F16, 1, {2}}};
    expect_mlx(orph, 2, NULL, q, "LT208@0 LT208@1", "a.biases: no U32 a.weight beside it");
    const tt orph2[] = {{"a.weight", TFS_ST_F16, 1, {2}}, {"a.biases", TFS_ST_F16, 1, {2}}};
    expect_mlx(orph2, 2, mlx_meta, NULL, "LT208@1", "a.biases: no U32 a.weight beside it (it is not packed)");
    /* an MLX file is one with format mlx, a quantization, or a .scales tensor */
    static const char *const notmlx[] = {"format", "mlxx", NULL};
    static const char *const ml[] = {"format", "ml", NULL};
    static const char *const pt[] = {"format", "pt", NULL};
    expect_mlx(orph2, 2, notmlx, NULL, "", NULL);
    expect_mlx(orph2, 2, ml, NULL, "", NULL);
    static const char *const mlq[] = {"format", "mlq", NULL};
    expect_mlx(orph2, 2, mlq, NULL, "", NULL);
    expect_mlx(orph2, 2, pt, NULL, "", NULL);
    expect_mlx(orph2, 2, NULL, NULL, "", NULL);
    const tt sc[] = {{"a.weight", TFS_ST_F16, 1, {2}}, {"a.scales", TFS_ST_F16, 1, {2}}};
    expect_mlx(sc, 2, pt, NULL, "LT208@1", NULL);
    const tt sc2[] = {
        {"a.weight", TFS_ST_F16, 1, {2}}, {"a.scalesx", TFS_ST_F16, 1, {2}}, {"x.biases", TFS_ST_F16, 1, {2}}};
    expect_mlx(sc2, 3, pt, NULL, "", NULL);
    expect_mlx(sc2, 3, pt, q, "LT208@2", NULL);
    /* a .scales tensor first in the file is enough */
    const tt sc0[] = {{"a.scales", TFS_ST_F16, 1, {2}}, {"a.weight", TFS_ST_F16, 1, {2}}};
    expect_mlx(sc0, 2, NULL, NULL, "LT208@0", "a.scales: no U32 a.weight beside it (it is not packed)");
}

/* bits and group size inferred from the shapes when none is given: a shape
 * fits when some (bits, group) of MLX's table gives it (affine with biases,
 * the fp modes without); rows of `lanes` u32, `count` scales per row.  The
 * cases were chosen so that every (bits, group) of the table, and each of
 * them one off, answers at least one of them differently. */
static void test_mlx_inferred(void **state) {
    (void)state;
    static const struct {
        unsigned lanes, count;
        int fits;
    } a[] = {
        {1, 1, 0},    {2, 1, 1},    {3, 1, 1},    {5, 1, 1},   {7, 1, 0},    {9, 1, 0},    {10, 1, 1},   {14, 1, 0},
        {18, 1, 0},   {20, 1, 1},   {24, 1, 1},   {28, 1, 0},  {31, 4, 0},   {31, 8, 0},   {32, 1, 1},   {33, 4, 0},
        {33, 8, 0},   {63, 4, 0},   {63, 8, 0},   {63, 16, 0}, {65, 4, 0},   {65, 8, 0},   {65, 16, 0},  {93, 16, 0},
        {99, 16, 0},  {127, 8, 0},  {127, 16, 0}, {129, 8, 0}, {129, 16, 0}, {189, 16, 0}, {189, 32, 0}, {195, 16, 0},
        {195, 32, 0}, {381, 32, 0}, {387, 32, 0}, {8, 2, 1},   {8, 1, 1},    {8, 3, 0},
    };
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) {
        const tt l[] = {{"q.weight", TFS_ST_U32, 2, {1, a[i].lanes}},
                        {"q.scales", TFS_ST_F16, 2, {1, a[i].count}},
                        {"q.biases", TFS_ST_F16, 2, {1, a[i].count}}};
        char got[512];
        mlx_lint(l, 3, mlx_meta, NULL, got, sizeof got, NULL, 0);
        const char *ids = a[i].fits ? "LT210@-1" : "LT205@1";
        if (strcmp(got, ids) != 0) print_message("affine lanes %u count %u: %s\n", a[i].lanes, a[i].count, got);
        assert_string_equal(got, ids);
    }
    /* the fp modes (U8 scales, no biases): mxfp4 = 4 bits / 32, nvfp4 4 / 16, mxfp8 8 / 32 */
    static const struct {
        unsigned lanes, count;
        const char *mode; /* NULL: fits none */
    } f[] = {
        {2, 1, "nvfp4"}, {3, 1, NULL},    {4, 1, "mxfp4"}, {7, 1, NULL},
        {8, 1, "mxfp8"}, {8, 2, "mxfp4"}, {8, 4, "nvfp4"}, {8, 3, NULL},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        const tt l[] = {{"q.weight", TFS_ST_U32, 2, {1, f[i].lanes}}, {"q.scales", TFS_ST_U8, 2, {1, f[i].count}}};
        char got[512];
        char said[1024], inferred[128];
        mlx_lint(l, 2, mlx_meta, NULL, got, sizeof got, said, sizeof said);
        const char *ids = f[i].mode ? "LT210@-1" : "LT205@1";
        /* LT210 says what it inferred: mxfp4 4 bits / 32, nvfp4 4 / 16, mxfp8 8 / 32 */
        if (f[i].mode) {
            snprintf(inferred, sizeof inferred, ": %s bits, group size %s, mode %s (q.weight)",
                     f[i].mode[0] == 'n'   ? "4"
                     : f[i].mode[4] == '4' ? "4"
                                           : "8",
                     f[i].mode[0] == 'n' ? "16" : "32", f[i].mode);
            if (!strstr(said, inferred)) print_message("fp lanes %u count %u: %s\n", f[i].lanes, f[i].count, said);
            assert_non_null(strstr(said, inferred));
        }
        if (strcmp(got, ids) != 0) print_message("fp lanes %u count %u: %s\n", f[i].lanes, f[i].count, got);
        assert_string_equal(got, ids);
        if (!f[i].mode) continue;
        /* the mode found is named when the scales are not U8 */
        const tt g[] = {{"q.weight", TFS_ST_U32, 2, {1, f[i].lanes}}, {"q.scales", TFS_ST_F16, 2, {1, f[i].count}}};
        char first[1024], mode[64];
        mlx_lint(g, 2, mlx_meta, NULL, got, sizeof got, first, sizeof first);
        snprintf(mode, sizeof mode, "expected U8 for mode %s", f[i].mode);
        if (!strstr(first, mode)) print_message("fp lanes %u count %u: %s\n", f[i].lanes, f[i].count, first);
        assert_string_equal(got, "LT207@1 LT210@-1");
        assert_non_null(strstr(first, mode));
    }
    const tt none[] = {{"q.weight", TFS_ST_U32, 2, {1, 8}}, {"q.scales", TFS_ST_F16, 2, {1, 3}}};
    expect_mlx(none, 2, mlx_meta, NULL, "LT205@1",
               "q.scales: shape [1, 3] fits no bits (2-8) and group size (16-128) of MLX for weight [1, 8] (U32)");
}

/* ---- GGUF rules on files made here with the C writer (tfs_gg_write),
 * linted in memory.  Expectations from llama.cpp's reading of the keys
 * (docs/lint.md): u32 hyper-parameters (feed_forward_length and the head
 * counts may be per-layer u32/i32 arrays), block_count 1..512, blk.N. below
 * block_count, special token ids below the token count, file_type a
 * llama_ftype (bit 1024: guessed). */

typedef struct gkv {
    const char *key;
    tfs_gg_wvalue v;
} gkv;

typedef struct gt {
    const char *name;
    uint32_t type; /* ggml type */
} gt;

/* The findings as "ID@kN" (a key), "ID@tN" (a tensor) or "ID@-", in order. */
static void gg_lint(const gkv *kv, size_t n_kv, const gt *ts, size_t nt, char *got, size_t cap, char *first,
                    size_t first_cap) {
    tfs_gg_wkv k[32];
    tfs_gg_wtensor t[16];
    memset(t, 0, sizeof t);
    assert_true(n_kv <= 32 && nt <= 16);
    for (size_t i = 0; i < n_kv; i++) k[i] = (tfs_gg_wkv){tfs_wstr_c(kv[i].key), kv[i].v};
    for (size_t i = 0; i < nt; i++) {
        t[i].name = tfs_wstr_c(ts[i].name);
        t[i].n_dims = 1;
        t[i].ne[0] = 32;
        t[i].type = ts[i].type;
    }
    tfs_gg_model m = {.version = 3, .kv = k, .n_kv = n_kv, .tensors = t, .n_tensors = nt};
    size_t len = 0;
    uint8_t *buf = tfs_test_write_flat(NULL, &m, NULL, &len);
    char about[256];
    snprintf(about, sizeof about, "GGUF: %zu keys, last %s, %zu tensors", n_kv, n_kv ? kv[n_kv - 1].key : "-", nt);
    tfs_lint_report r;
    tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_GGUF, about, NULL, &r);
    /* the same bytes through a random-access reader (7 bytes a call): its strings are not in memory, the lint reads
     * them into its own buffers; every finding the same */
    tfs_test_reader rd;
    tfs_source src;
    tfs_test_reader_source(&src, &rd, buf, len, 7);
    tfs_header *h2 = NULL;
    tfs_error err;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h2, &err), TFS_OK);
    tfs_lint_report r2;
    tfs_lint_report_init(&r2);
    assert_int_equal(tfs_lint_header(h2, NULL, &r2), TFS_OK);
    assert_int_equal(r2.n_findings, r.n_findings);
    for (size_t i = 0; i < r.n_findings; i++) {
        assert_int_equal(r2.findings[i].rule, r.findings[i].rule);
        assert_int_equal(r2.findings[i].tensor, r.findings[i].tensor);
        assert_int_equal(r2.findings[i].kv, r.findings[i].kv);
        assert_string_equal(r2.findings[i].text, r.findings[i].text);
    }
    tfs_lint_report_free(&r2);
    tfs_header_free(h2);
    size_t used = 0;
    got[0] = '\0';
    if (first) first[0] = '\0';
    for (size_t i = 0; i < r.n_findings; i++) {
        const tfs_lint_finding *f = &r.findings[i];
        if (first && i == 0) snprintf(first, first_cap, "%s", f->text);
        /* a key or a tensor, never both; "none" is -1 (tfs/lint.h) */
        assert_true(f->kv >= -1 && f->tensor >= -1 && (f->kv == -1 || f->tensor == -1));
        char at[32];
        if (f->kv >= 0)
            snprintf(at, sizeof at, "k%lld", (long long)f->kv);
        else if (f->tensor >= 0)
            snprintf(at, sizeof at, "t%lld", (long long)f->tensor);
        else
            snprintf(at, sizeof at, "-");
        used += (size_t)snprintf(got + used, cap - used, "%s%s@%s", used ? " " : "", tfs_lint_id(f->rule), at);
        assert_int_equal(f->part, 0);
    }
    tfs_lint_report_free(&r);
    tfs_header_free(h);
    free(buf);
}

static void expect_gg(const gkv *kv, size_t n_kv, const gt *ts, size_t nt, const char *ids, const char *text) {
    char got[512], first[1024];
    gg_lint(kv, n_kv, ts, nt, got, sizeof got, first, sizeof first);
    if (strcmp(got, ids) != 0 || (text && !strstr(first, text)))
        print_message("got \"%s\" (%s), want \"%s\" (%s)\n", got, first, ids, text ? text : "-");
    assert_string_equal(got, ids);
    if (text) assert_non_null(strstr(first, text));
}

static tfs_wstr g_llama, g_toks[6];
#define U32(k, v) \
    { k, tfs_gg_wval_scalar(TFS_GG_U32, v) }
#define ARCH \
    { "general.architecture", tfs_gg_wval_str(&g_llama) }

/* general.architecture = n bytes of 'q' (n <= 300), then "<that name>.block_count" as a u64 2: the two KVs, in
 * a's storage */
typedef struct arch_kvs {
    char name[301], key[320];
    tfs_wstr w;
    gkv kv[2];
} arch_kvs;
static const gkv *arch_of(arch_kvs *a, size_t n) {
    assert_true(n < sizeof a->name);
    memset(a->name, 'q', n);
    a->name[n] = '\0';
    snprintf(a->key, sizeof a->key, "%s.block_count", a->name);
    a->w = tfs_wstr_c(a->name);
    a->kv[0] = (gkv){"general.architecture", tfs_gg_wval_str(&a->w)};
    a->kv[1] = (gkv){a->key, tfs_gg_wval_scalar(TFS_GG_U64, 2)};
    return a->kv;
}

static void test_gguf_keys(void **state) {
    (void)state;
    g_llama = tfs_wstr_c("llama");
    static const char *const tk[6] = {"<unk>", "<s>", "</s>", "a", "b", "ab"};
    for (int i = 0; i < 6; i++) g_toks[i] = tfs_wstr_c(tk[i]);
    const gt f32[] = {{"output_norm.weight", 0}};
    /* general.alignment: 8 and 32 fit 8-byte types, 1, 2, 4 do not */
    static const uint32_t aligns[] = {1, 2, 4, 8, 16, 32};
    for (size_t i = 0; i < 6; i++) {
        const gkv kv[] = {ARCH, U32("general.alignment", aligns[i])};
        expect_gg(kv, 2, f32, 1, aligns[i] % 8 ? "LT103@k1" : "", NULL);
    }
    /* tokenizer arrays: element types, lengths */
    float sc[6] = {0};
    int32_t tt6[6] = {1, 1, 1, 1, 1, 1};
    uint8_t u8[6] = {0};
    {
        const gkv kv[] = {ARCH,
                          {"tokenizer.ggml.tokens", tfs_gg_wval_str_array(g_toks, 6)},
                          {"tokenizer.ggml.scores", tfs_gg_wval_array(TFS_GG_F32, 6, sc, 24)},
                          {"tokenizer.ggml.token_type", tfs_gg_wval_array(TFS_GG_I32, 5, tt6, 20)},
                          {"tokenizer.ggml.merges", tfs_gg_wval_str_array(g_toks, 2)},
                          U32("tokenizer.ggml.bos_token_id", 5),
                          U32("tokenizer.ggml.eos_token_id", 6),
                          {"tokenizer.ggml.padding_token_id", tfs_gg_wval_scalar(TFS_GG_I32, 1)}};
        expect_gg(kv, 8, f32, 1, "LT105@k3 LT106@k6 LT107@k7",
                  "tokenizer.ggml.token_type: 5 elements, tokenizer.ggml.tokens has 6");
    }
    {
        const gkv kv[] = {ARCH,
                          {"tokenizer.ggml.tokens", tfs_gg_wval_str(&g_llama)},
                          {"tokenizer.ggml.scores", tfs_gg_wval_array(TFS_GG_F32, 2, sc, 8)},
                          {"tokenizer.ggml.token_type", tfs_gg_wval_array(TFS_GG_U32, 6, tt6, 24)},
                          {"tokenizer.ggml.merges", tfs_gg_wval_array(TFS_GG_U8, 6, u8, 6)},
                          U32("tokenizer.ggml.bos_token_id", 99)};
        /* no token count: lengths and ids are not compared */
        expect_gg(kv, 6, f32, 1, "LT104@k1 LT104@k3 LT104@k4",
                  "tokenizer.ggml.tokens: string, expected array of string");
    }
    {
        const gkv kv[] = {ARCH,
                          {"tokenizer.ggml.tokens", tfs_gg_wval_array(TFS_GG_U8, 6, u8, 6)},
                          U32("tokenizer.ggml.bos_token_id", 99)};
        expect_gg(kv, 3, f32, 1, "LT104@k1", "tokenizer.ggml.tokens: array of u8, expected array of string");
    }
    {
        const gkv kv[] = {ARCH,
                          {"tokenizer.ggml.tokens", tfs_gg_wval_str_array(g_toks, 6)},
                          {"tokenizer.ggml.scores", tfs_gg_wval_array(TFS_GG_F32, 7, sc, 28)}};
        float s7[7] = {0};
        gkv k2[3] = {kv[0], kv[1], {"tokenizer.ggml.scores", tfs_gg_wval_array(TFS_GG_F32, 7, s7, 28)}};
        expect_gg(k2, 3, f32, 1, "LT105@k2", "tokenizer.ggml.scores: 7 elements, tokenizer.ggml.tokens has 6");
    }
    /* hyper-parameters: u32; per-layer arrays only where llama.cpp takes them */
    static const struct {
        const char *key;
        int arr;
    } hp[] = {
        {"llama.block_count", 0},         {"llama.context_length", 0},       {"llama.embedding_length", 0},
        {"llama.feed_forward_length", 1}, {"llama.attention.head_count", 1}, {"llama.attention.head_count_kv", 1},
        {"llama.expert_count", 0},        {"llama.expert_used_count", 0},    {"llama.vocab_size", 0},
    };
    uint32_t two[2] = {4, 4};
    for (size_t i = 0; i < sizeof hp / sizeof hp[0]; i++) {
        const gkv ok[] = {ARCH, U32(hp[i].key, 2)};
        expect_gg(ok, 2, f32, 1, "", NULL);
        const gkv u64[] = {ARCH, {hp[i].key, tfs_gg_wval_scalar(TFS_GG_U64, 2)}};
        expect_gg(u64, 2, f32, 1, "LT107@k1", "u64, expected u32");
        const gkv i32[] = {ARCH, {hp[i].key, tfs_gg_wval_scalar(TFS_GG_I32, 2)}};
        expect_gg(i32, 2, f32, 1, "LT107@k1", "(llama.cpp refuses another integer type)");
        const gkv f[] = {ARCH, {hp[i].key, tfs_gg_wval_f32(2)}};
        char got[512], first[1024];
        gg_lint(f, 2, f32, 1, got, sizeof got, first, sizeof first);
        assert_string_equal(got, "LT107@k1");
        assert_null(strstr(first, "another integer type"));
        assert_int_equal(strstr(first, "or an array of u32/i32") != NULL, hp[i].arr);
        for (int e = 0; e < 3; e++) {
            static const uint32_t et[3] = {TFS_GG_U32, TFS_GG_I32, TFS_GG_F32};
            const gkv a[] = {ARCH, {hp[i].key, tfs_gg_wval_array(et[e], 2, two, 8)}};
            gg_lint(a, 2, f32, 1, got, sizeof got, NULL, 0);
            if (strcmp(got, hp[i].arr && e < 2 ? "" : "LT107@k1") != 0) print_message("%s %d: %s\n", hp[i].key, e, got);
            assert_string_equal(got, hp[i].arr && e < 2 ? "" : "LT107@k1");
        }
    }
    /* block_count 1..512; blk.N. tensors below it */
    static const struct {
        uint32_t n;
        const char *ids;
    } bc[] = {{0, "LT108@k1"}, {1, ""}, {2, ""}, {511, ""}, {512, ""}, {513, "LT108@k1"}, {600, "LT108@k1"}};
    const gt blk0[] = {{"blk.0.attn_q.weight", 0}};
    for (size_t i = 0; i < sizeof bc / sizeof bc[0]; i++) {
        const gkv kv[] = {ARCH, U32("llama.block_count", bc[i].n)};
        expect_gg(kv, 2, blk0, bc[i].n ? 1 : 0, bc[i].ids, NULL);
    }
    const gt blks[] = {{"blk.1.a", 0},  {"blk.2.a", 0}, {"blk.2.", 0},   {"blk.2", 0},   {"blk..a", 0},
                       {"blk.2x.a", 0}, {"blkx2.a", 0}, {"blk.10.a", 0}, {"xblk.3.a", 0}};
    {
        const gkv kv[] = {ARCH, U32("llama.block_count", 2)};
        expect_gg(kv, 2, blks, 9, "LT109@t1 LT109@t2 LT109@t7", "blk.2.a: block 2, but llama.block_count = 2");
        const gkv k10[] = {ARCH, U32("llama.block_count", 10)};
        expect_gg(k10, 2, blks, 9, "LT109@t7", "blk.10.a: block 10, but llama.block_count = 10");
        const gkv k11[] = {ARCH, U32("llama.block_count", 11)};
        expect_gg(k11, 2, blks, 9, "", NULL);
        const gkv k64[] = {ARCH, {"llama.block_count", tfs_gg_wval_scalar(TFS_GG_U64, 2)}};
        expect_gg(k64, 2, blks, 9, "LT107@k1", NULL);
    }
    {
        /* N of 1 to 18 digits (docs/lint.md: no value wraps): 18 digits are a block number, 19 are not */
        const gkv k1[] = {ARCH, U32("llama.block_count", 1)};
        const gt digits[] = {{"blk.000000000000000001.a", 0},
                             {"blk.999999999999999999.b", 0},
                             {"blk.0000000000000000001.c", 0},
                             {"blk.9999999999999999999.d", 0}};
        expect_gg(k1, 2, digits, 4, "LT109@t0 LT109@t1", "blk.000000000000000001.a: block 1, but");
        expect_gg(k1, 2, digits + 1, 1, "LT109@t0", "block 999999999999999999, but");
        expect_gg(k1, 2, digits + 2, 2, "", NULL);
        /* "blk.77" has no '.' after its digits, so it is no block, even when the next name (kept right after it when
         * read through a reader, gg_lint's second pass) starts with one */
        const gt dot_next[] = {{"blk.77", 0}, {".a", 0}};
        expect_gg(k1, 2, dot_next, 2, "", NULL);
    }
    {
        const gkv kv[] = {ARCH};
        const gt t[] = {{"blk.3.a", 0}, {"blk.7.b", 0}, {"blk.5.c", 0}, {"blk.7.d", 0}};
        expect_gg(kv, 1, t, 4, "LT110@t1", "tensors up to blk.7. but no llama.block_count");
        const gt t0[] = {{"blk.0.a", 0}};
        expect_gg(kv, 1, t0, 1, "LT110@t0", "tensors up to blk.0. but");
        const gt nodigit[] = {{"blk..a", 0}, {"blkx0.a", 0}}; /* no block number: no blk.N. tensor */
        expect_gg(kv, 1, nodigit, 2, "", NULL);
        const gt nine[] = {{"blk.9.a", 0}, {"blk.19.b", 0}};
        expect_gg(kv, 1, nine, 2, "LT110@t1", "tensors up to blk.19. but");
        const gkv k9[] = {ARCH, U32("llama.block_count", 9)};
        expect_gg(k9, 2, nine, 2, "LT109@t0 LT109@t1", "blk.9.a: block 9, but llama.block_count = 9");
        const gkv none[] = {U32("general.alignment", 32)};
        expect_gg(none, 1, t, 4, "LT101@-", NULL);
        const gkv u[] = {U32("general.architecture", 1)};
        expect_gg(u, 1, t, 4, "LT102@k0", NULL);
        /* an architecture of 1 byte, and one of 127 bytes: <arch>.block_count as for any other */
        tfs_wstr a1 = tfs_wstr_c("a");
        const gkv one[] = {{"general.architecture", tfs_gg_wval_str(&a1)}};
        expect_gg(one, 1, t, 4, "LT110@t1", "tensors up to blk.7. but no a.block_count (u32)");
        arch_kvs a127, a128, a300;
        const gkv *long_arch = arch_of(&a127, 127);
        expect_gg(long_arch, 2, t, 4, "LT107@k1", "u64, expected u32");
        /* one of 128 bytes, and one with a NUL in it: no hyper-parameter is looked up (docs/lint.md), so neither
         * its u64 block_count (LT107) nor the blk.N. tensors without one (LT110) is reported */
        const gkv *arch128 = arch_of(&a128, 128);
        expect_gg(arch128, 2, t, 4, "", NULL);
        expect_gg(arch128, 1, t, 4, "", NULL);
        expect_gg(long_arch, 1, t, 4, "LT110@t1", "but no qqq"); /* 127 bytes: LT110 as for "a" */
        tfs_wstr nul = {.ptr = "a\0b", .len = 3};
        const gkv arch_nul[] = {{"general.architecture", tfs_gg_wval_str(&nul)}};
        expect_gg(arch_nul, 1, t, 4, "", NULL);
        /* one of 300 bytes, longer than the lint's buffer for a name read through a reader (gg_lint's second
         * pass): cut there, and nothing looked up either */
        expect_gg(arch_of(&a300, 300), 2, t, 4, "", NULL);
    }
    /* general.file_type */
    const gt mixed[] = {{"a", 0}, {"b", 2}, {"c", 0}};
    const gt allf[] = {{"a", 0}, {"b", 0}};
    const gt q40[] = {{"a", 2}};
    const gt f16[] = {{"a", 0}, {"b", 1}};
    const struct {
        uint32_t v;
        const gt *t;
        size_t nt;
        const char *ids, *text;
    } ft[] = {
        {0, allf, 2, "", NULL},
        {0, mixed, 3, "LT112@k1", "general.file_type = 0 (ALL_F32): 1 of 3 tensors are not f32"},
        {0, NULL, 0, "", NULL},
        {0, q40, 1, "LT112@k1", "general.file_type = 0 (ALL_F32): 1 of 1 tensors are not f32"},
        {0, f16, 2, "LT112@k1", "general.file_type = 0 (ALL_F32): 1 of 2 tensors are not f32"},
        {1, allf, 2, "LT112@k1", "general.file_type = 1 (MOSTLY_F16), but none of the 2 tensors has type f16"},
        {2, mixed, 3, "", NULL},
        {2 | 1024, mixed, 3, "", NULL},
        {2, NULL, 0, "", NULL},
        {2, allf, 2, "LT112@k1", "but none of the 2 tensors has type q4_0"},
        {3, q40, 1, "LT112@k1", "(MOSTLY_Q4_1), but none"},
        {4, q40, 1, "LT111@k1", "general.file_type = 4: no llama_ftype has this value"},
        {99, q40, 1, "LT111@k1", NULL},
    };
    for (size_t i = 0; i < sizeof ft / sizeof ft[0]; i++) {
        const gkv kv[] = {ARCH, U32("general.file_type", ft[i].v)};
        expect_gg(kv, 2, ft[i].t, ft[i].nt, ft[i].ids, ft[i].text);
    }
    const gkv ftu8[] = {ARCH, {"general.file_type", tfs_gg_wval_scalar(TFS_GG_U8, 2)}};
    expect_gg(ftu8, 2, q40, 1, "LT111@k1", "general.file_type: u8, expected u32");
    /* a hyper-parameter of any other integer type: llama.cpp refuses it (the message says so); f32 and bool are
     * not integers */
    static const struct {
        uint32_t type;
        int integer;
    } it[] = {{TFS_GG_U8, 1},  {TFS_GG_I8, 1},  {TFS_GG_U16, 1}, {TFS_GG_I16, 1},  {TFS_GG_I32, 1},
              {TFS_GG_U64, 1}, {TFS_GG_I64, 1}, {TFS_GG_F32, 0}, {TFS_GG_BOOL, 0}, {TFS_GG_F64, 0}};
    for (size_t i = 0; i < sizeof it / sizeof it[0]; i++) {
        const gkv kv[] = {ARCH, {"llama.context_length", tfs_gg_wval_scalar(it[i].type, 1)}};
        char got[512], first[1024];
        gg_lint(kv, 2, f32, 1, got, sizeof got, first, sizeof first);
        assert_string_equal(got, "LT107@k1");
        if ((strstr(first, "(llama.cpp refuses another integer type)") != NULL) != it[i].integer)
            print_message("type %u: %s\n", it[i].type, first);
        assert_int_equal(strstr(first, "(llama.cpp refuses another integer type)") != NULL, it[i].integer);
    }
}

/* ---- model sets made here in a temporary folder: the per-rule limit
 * ("first 10 findings, then one counting the rest", docs/lint.md), the
 * index's shard names (SET001: not a string, absolute, a ".." segment),
 * total_size (SET007 / SET009), and what a folder's entries are. */

static char g_tmp[256];

/* g_tmp/name holds the len bytes at data (or the text) */
static void put_text(const char *name, const char *text) {
    tfs_test_put_file(g_tmp, name, text, strlen(text), NULL, 0);
}

/* g_tmp/name holds the file of gg or st (one of them NULL) */
static void put_model(const char *name, const tfs_gg_model *gg, const tfs_st_model *st) {
    tfs_test_put_model(g_tmp, name, gg, st, NULL, 0);
}

/* a shard of n F16 [2] tensors (4 bytes each) named prefix00.. (dtype F32: 8 bytes) */
static void put_shard(const char *name, const char *const *prefixes, const unsigned *counts, const uint32_t *dtypes,
                      size_t groups) {
    tfs_st_wentry e[64];
    char names[64][16];
    static const uint64_t shape[1] = {2};
    size_t n = 0;
    memset(e, 0, sizeof e);
    for (size_t g = 0; g < groups; g++)
        for (unsigned i = 0; i < counts[g]; i++, n++) {
            assert_true(n < 64);
            snprintf(names[n], sizeof names[n], "%s%02u", prefixes[g], i);
            e[n].name = tfs_wstr_c(names[n]);
            e[n].dtype = dtypes[g];
            e[n].n_dims = 1;
            e[n].shape = shape;
        }
    tfs_st_model m = {.n_entries = n, .entries = e, .metadata = TFS_STW_META_ABSENT};
    put_model(name, NULL, &m);
}

/* The set g_tmp/entry checked (no lint) into r: a set of `format` whose
 * findings, in order, are `ids`: "ID@part:tensor" each (safetensors: no
 * finding names a key) or "ID@part:kKEY" (GGUF splits: only SET005 / SET006
 * name a tensor).  A mismatch names the case (what n).  The caller frees r. */
static void expect_set_ids(const char *entry, tfs_format format, const char *ids, const char *what, size_t n,
                           tfs_lint_report *r) {
    char path[512], got[4096];
    const size_t cap = sizeof got;
    snprintf(path, sizeof path, "%s/%s", g_tmp, entry);
    tfs_lint_report_init(r);
    assert_int_equal(tfs_set_check(path, 0, 0, NULL, r), TFS_OK);
    assert_int_equal(r->is_set, 1);
    assert_int_equal(r->format, format);
    int gguf = format == TFS_FORMAT_GGUF;
    size_t used = 0;
    got[0] = '\0';
    for (size_t i = 0; i < r->n_findings; i++) {
        const tfs_lint_finding *f = &r->findings[i];
        if (!gguf)
            assert_int_equal(f->kv, -1);
        else if (f->rule != TFS_SET005 && f->rule != TFS_SET006)
            assert_int_equal(f->tensor, -1);
        used += (size_t)snprintf(got + used, cap - used, "%s%s@%d:%s%lld", used ? " " : "", tfs_lint_id(f->rule),
                                 f->part, gguf ? "k" : "", (long long)(gguf ? f->kv : f->tensor));
    }
    if (strcmp(got, ids) != 0) print_message("%s %zu:\n got %s\nwant %s\n", what, n, got, ids);
    assert_string_equal(got, ids);
}

static void test_set_limits(void **state) {
    (void)state;
    for (int round = 0; round < 2; round++) {
        /* round 0: 11 index tensors in no shard, 10 unlisted, 11 in two files; round 1: 10, 11, 10 */
        unsigned n4 = round ? 10 : 11, n8 = round ? 11 : 10, n5 = round ? 10 : 11;
        static const char *const pa[] = {"u", "d"};
        static const char *const pb[] = {"d", "b"};
        const unsigned ca[] = {n8, n5}, cb[] = {n5, 1};
        static const uint32_t fa[] = {TFS_ST_F16, TFS_ST_F16}, fb[] = {TFS_ST_F32, TFS_ST_F16};
        put_shard("model-00001-of-00002.safetensors", pa, ca, fa, 2);
        put_shard("model-00002-of-00002.safetensors", pb, cb, fb, 2);
        char idx[4096];
        /* total_size counts each tensor the index names once, where it names it: the d's of shard 1 (F16, 4 bytes)
         * and b00; the t's are nowhere, the u's unlisted and the F32 d's of shard 2 duplicates: no SET007 */
        size_t o =
            (size_t)snprintf(idx, sizeof idx, "{\"metadata\": {\"total_size\": %u}, \"weight_map\": {", 4 * n5 + 4);
        for (unsigned i = 0; i < n4; i++)
            o += (size_t)snprintf(idx + o, sizeof idx - o, "\"t%02u\": \"model-00001-of-00002.safetensors\", ", i);
        for (unsigned i = 0; i < n5; i++)
            o += (size_t)snprintf(idx + o, sizeof idx - o, "%s\"d%02u\": \"model-00001-of-00002.safetensors\"",
                                  i ? ", " : "", i);
        snprintf(idx + o, sizeof idx - o, ", \"b00\": \"model-00002-of-00002.safetensors\"}}");
        put_text("model.safetensors.index.json", idx);
        char expect[4096];
        size_t w = 0;
        for (unsigned i = 0; i < 10; i++)
            w += (size_t)snprintf(expect + w, sizeof expect - w, "%sSET004@0:-1", w ? " " : "");
        if (n4 > 10) w += (size_t)snprintf(expect + w, sizeof expect - w, " SET004@-1:-1");
        for (unsigned i = 0; i < 10; i++)
            w += (size_t)snprintf(expect + w, sizeof expect - w, " SET005@1:%u SET006@1:%u", i, i);
        if (n5 > 10) w += (size_t)snprintf(expect + w, sizeof expect - w, " SET005@-1:-1 SET006@-1:-1");
        for (unsigned i = 0; i < 10; i++) w += (size_t)snprintf(expect + w, sizeof expect - w, " SET008@0:%u", i);
        if (n8 > 10) w += (size_t)snprintf(expect + w, sizeof expect - w, " SET008@-1:-1");
        tfs_lint_report r;
        expect_set_ids("model.safetensors.index.json", TFS_FORMAT_SAFETENSORS, expect, "round", (size_t)round, &r);
        assert_non_null(strstr(r.findings[0].text, "t00: the index names "));
        assert_non_null(strstr(r.findings[0].text, "model-00001-of-00002.safetensors, found in no shard"));
        for (size_t i = 0; i < r.n_findings; i++) {
            const char *t = r.findings[i].text;
            if (r.findings[i].part >= 0) continue;
            if (r.findings[i].rule == TFS_SET004)
                assert_string_equal(t, "1 more tensors not in the shard the index names");
            if (r.findings[i].rule == TFS_SET005) assert_string_equal(t, "1 more tensors in two files");
            if (r.findings[i].rule == TFS_SET006)
                assert_string_equal(t, "1 more tensors with different dtype or shape");
            if (r.findings[i].rule == TFS_SET008) assert_string_equal(t, "1 more shard tensors not in the index");
        }
        assert_int_equal(r.n_files, 2);
        assert_int_equal(r.n_tensors, n8 + 2 * n5 + 1);
        assert_int_equal(r.tensor_bytes, 4 * (n8 + n5) + 8 * n5 + 4);
        tfs_lint_report_free(&r);
    }
}

/* GGUF split names (llama.cpp llama_split_path: PREFIX-%05d-of-%05d.gguf; split.count is a u16) */
static void test_split_names(void **state) {
    (void)state;
    static const struct {
        const char *path;
        int ok;
        unsigned no, count;
        size_t prefix;
    } v[] = {
        {"model-00001-of-00003.gguf", 1, 1, 3, 5},
        {"dir/sub/model-00002-of-00003.gguf", 1, 2, 3, 13},
        {"m-00003-of-00003.gguf", 1, 3, 3, 1},
        {"m-00001-of-00001.gguf", 1, 1, 1, 1},
        {"m-00001-of-65535.gguf", 1, 1, 65535, 1},
        {"m-00001-of-65536.gguf", 0, 0, 0, 0},
        {"m-00004-of-00003.gguf", 0, 0, 0, 0},
        {"m-00000-of-00003.gguf", 0, 0, 0, 0},
        {"m-00001-of-00000.gguf", 0, 0, 0, 0},
        {"-00001-of-00003.gguf", 0, 0, 0, 0},
        {"dir/-00001-of-00003.gguf", 0, 0, 0, 0},
        {"m-0001-of-00003.gguf", 0, 0, 0, 0},
        {"m-00001-of-0003.gguf", 0, 0, 0, 0},
        {"m-000001-of-00003.gguf", 0, 0, 0, 0}, /* llama.cpp's "%05d": five digits, no more */
        {"m-00001-of-000003.gguf", 0, 0, 0, 0},
        {"m-000001-of-000003.gguf", 0, 0, 0, 0},
        {"m-0000000001-of-0000000003.gguf", 0, 0, 0, 0},
        {"m-0000000001-of-00003.gguf", 0, 0, 0, 0},
        {"m-00001-of-0000000003.gguf", 0, 0, 0, 0},
        {"m-1-of-3.gguf", 0, 0, 0, 0},
        {"2-00001-of-00003.gguf", 1, 1, 3, 1},  /* a prefix may end in a digit */
        {"m-00009-of-00019.gguf", 1, 9, 19, 1}, /* 9 in both numbers; decimal, not read in another base */
        {"m-00010-of-00099.gguf", 1, 10, 99, 1},
        {"m-00019-of-00090.gguf", 1, 19, 90, 1},
        {"m-00001-of_00003.gguf", 0, 0, 0, 0},
        {"m-0001a-of-00003.gguf", 0, 0, 0, 0}, /* a letter is no digit, in either number */
        {"m-00001-of-0003a.gguf", 0, 0, 0, 0},
        {"of-00003.gguf", 0, 0, 0,
         0}, /* "-of-" would start before the name (heap copy below: ASan sees a read there) */
        {"-of-00003.gguf", 0, 0, 0, 0},
        {"m_00001-of-00003.gguf", 0, 0, 0, 0},
        {"m-00001-xf-00003.gguf", 0, 0, 0, 0},
        {"m-00001of-00003.gguf", 0, 0, 0, 0},
        {"m-00001-of-00003.GGUF", 0, 0, 0, 0},
        {"m-00001-of-00003.ggu", 0, 0, 0, 0},
        {"m-00001-of-00003gguf", 0, 0, 0, 0},
        {".gguf", 0, 0, 0, 0},
        {"gguf", 0, 0, 0, 0},
        {"00001-of-00003.gguf", 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        unsigned no = 77, count = 77;
        size_t pl = 77;
        char *path = strdup(v[i].path); /* exactly its bytes: a read before or past them is ASan's */
        assert_non_null(path);
        bool got = tfs__split_name(path, &no, &count, &pl);
        free(path);
        if (got != (bool)v[i].ok) print_message("%s\n", v[i].path);
        assert_int_equal(got, v[i].ok);
        if (!got) continue;
        assert_int_equal(no, v[i].no);
        assert_int_equal(count, v[i].count);
        assert_int_equal(pl, v[i].prefix);
    }
    assert_int_equal(tfs_set_kind_of("x/model-00001-of-00003.gguf"), TFS_SET_SPLIT);
    assert_int_equal(tfs_set_kind_of("x/model-00001-of-00002.gguf"), TFS_SET_SPLIT);
    assert_int_equal(tfs_set_kind_of("x/model-00002-of-00003.gguf"), TFS_SET_NONE);
    assert_int_equal(tfs_set_kind_of("x/model-00001-of-00001.gguf"), TFS_SET_NONE);
    assert_int_equal(tfs_set_kind_of("x/model.safetensors.index.json"), TFS_SET_INDEX);
    assert_int_equal(tfs_set_kind_of("x/model.safetensors.index.jso"), TFS_SET_NONE);
    assert_int_equal(tfs_set_kind_of(".safetensors.index.json"), TFS_SET_INDEX);
    assert_int_equal(tfs_set_kind_of("x/model.safetensors"), TFS_SET_NONE);
    assert_int_equal(tfs_set_kind_of(NULL), TFS_SET_NONE);
    assert_int_equal(tfs_set_kind_of(TFS_SOURCE_DIR "/corpus/lint"), TFS_SET_DIR);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check("x/model-00002-of-00003.gguf", 0, 0, NULL, &r), TFS_EARG);
    assert_int_equal(tfs_set_check("x/model-00001-of-00001.gguf", 0, 0, NULL, &r), TFS_EARG); /* one part: no set */
    assert_int_equal(tfs_set_check("x/model.safetensors", 0, 0, NULL, &r), TFS_EARG);
    assert_int_equal(tfs_set_check(NULL, 0, 0, NULL, &r), TFS_EARG);
    assert_int_equal(tfs_set_check("x/model.safetensors.index.json", 0, 0, NULL, NULL), TFS_EARG);
    assert_int_equal(r.n_findings, 0);
}

/* a folder's entries: its sets (indexes, first splits, also when the first part is missing), then the model
 * files that belong to no set (.gguf / .safetensors in any case), each sorted by name; hidden files skipped */
static void test_set_entries(void **state) {
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/entries", g_tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    static const char *const files[] = {
        "b.GGUF",
        "a.safetensors",
        "m-00002-of-00003.gguf",
        "m-00003-of-00003.gguf",
        "notes.txt",
        ".hidden.gguf",
        "s-00001-of-00001.gguf",
        "model-00001-of-00002.safetensors",
        "c.Safetensors",
        "x.gguf.txt",
        "other.safetensors",
        "z-00001-of-00002.gguf",
        "z-00002-of-00002.gguf",
        "first.safetensors", /* named only by the index's first weight_map entry */
    };
    char path[600];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "entries/%s", files[i]);
        put_text(path, "");
    }
    put_text("entries/model.safetensors.index.json",
             "{\"weight_map\": {\"q\": \"first.safetensors\", \"a\": \"model-00001-of-00002.safetensors\", \"b\": "
             "\"model-00002-of-00002.safetensors\", "
             "\"c\": 5, \"e\": null, \"f\": [\"x\"], \"d\": \"model-00001-of-00002.safetensors\", "
             "\"g\": \"./first.safetensors\"}}"); /* 8 entries: the JSON parser's first capacity, exactly */
    char **v = NULL;
    size_t n = 0;
    int e = 0;
    assert_int_equal(tfs_set_entries(dir, &v, &n, &e), TFS_OK);
    static const char *const want_names[] = {
        "m-00001-of-00003.gguf",
        "model.safetensors.index.json",
        "z-00001-of-00002.gguf",
        "a.safetensors",
        "b.GGUF",
        "c.Safetensors",
        "other.safetensors",
        "s-00001-of-00001.gguf",
    };
    if (n != sizeof want_names / sizeof want_names[0])
        for (size_t i = 0; i < n; i++) print_message("entry %zu: %s\n", i, v[i]);
    assert_int_equal(n, sizeof want_names / sizeof want_names[0]);
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, want_names[i]);
        assert_string_equal(v[i], path);
        free(v[i]);
    }
    free(v);
    snprintf(path, sizeof path, "%s/nope", dir);
    assert_int_equal(tfs_set_entries(path, &v, &n, &e), TFS_EIO);
    assert_int_equal(e, ENOENT);
    assert_int_equal(tfs_set_entries(NULL, &v, &n, &e), TFS_EARG);
    /* two model files, created in both orders (readdir's order is the file system's): byte order */
    for (int order = 0; order < 2; order++) {
        snprintf(path, sizeof path, "%s/two%d", dir, order);
        assert_int_equal(mkdir(path, 0755), 0);
        char f1[64], f2[64];
        snprintf(f1, sizeof f1, "entries/two%d/%s", order, order ? "b.gguf" : "a.gguf");
        snprintf(f2, sizeof f2, "entries/two%d/%s", order, order ? "a.gguf" : "b.gguf");
        put_text(f1, "");
        put_text(f2, "");
        assert_int_equal(tfs_set_entries(path, &v, &n, &e), TFS_OK);
        assert_int_equal(n, 2);
        char w[700];
        snprintf(w, sizeof w, "%s/a.gguf", path);
        assert_string_equal(v[0], w);
        snprintf(w, sizeof w, "%s/b.gguf", path);
        assert_string_equal(v[1], w);
        free(v[0]);
        free(v[1]);
        free(v);
    }
    /* a shard named by the index's first weight_map entry only is no lone file */
    snprintf(path, sizeof path, "%s/one", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    put_text("entries/one/only.safetensors", "");
    put_text("entries/one/model.safetensors.index.json", "{\"weight_map\": {\"a\": \"only.safetensors\"}}");
    assert_int_equal(tfs_set_entries(path, &v, &n, &e), TFS_OK);
    assert_int_equal(n, 1);
    char want1[700];
    snprintf(want1, sizeof want1, "%s/model.safetensors.index.json", path);
    assert_string_equal(v[0], want1);
    free(v[0]);
    free(v);
    /* an empty folder */
    snprintf(path, sizeof path, "%s/empty", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    assert_int_equal(tfs_set_entries(path, &v, &n, &e), TFS_OK);
    assert_int_equal(n, 0);
    free(v);
    /* NULL for out or n: TFS_EARG; sys_errno may be NULL (tfs/lint.h) */
    assert_int_equal(tfs_set_entries(path, NULL, &n, &e), TFS_EARG);
    assert_int_equal(tfs_set_entries(path, &v, NULL, &e), TFS_EARG);
    snprintf(path, sizeof path, "%s/nope", dir);
    assert_int_equal(tfs_set_entries(path, &v, &n, NULL), TFS_EIO);
    /* indexes that cannot be read (a folder of that name, a dangling link) are entries all the same ("every
     * *.safetensors.index.json", tfs/lint.h: tfs_set_check then says why); they name no shard, so the
     * shard beside them is a lone model file */
    snprintf(path, sizeof path, "%s/unread", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/unread/a.safetensors.index.json", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/unread/b.safetensors.index.json", dir);
    assert_int_equal(symlink("no-such-file", path), 0);
    put_text("entries/unread/s.safetensors", "");
    snprintf(path, sizeof path, "%s/unread", dir);
    assert_int_equal(tfs_set_entries(path, &v, &n, &e), TFS_OK);
    assert_int_equal(n, 3);
    static const char *const unread[] = {"a.safetensors.index.json", "b.safetensors.index.json", "s.safetensors"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(want1, sizeof want1, "%s/%s", path, unread[i]);
        assert_string_equal(v[i], want1);
        free(v[i]);
    }
    free(v);
}

/* tfs__lint_st_head of g_tmp/name holding the n bytes at data */
static tfs_status st_head_of(const char *name, const char *data, size_t n, uint8_t **h, size_t *len) {
    tfs_test_put_file(g_tmp, name, data, n, NULL, 0);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", g_tmp, name);
    return tfs__lint_st_head(path, h, len);
}
#define ST_HEAD(name, lit, h, len) st_head_of(name, lit, sizeof lit - 1u, h, len) /* lit: a string literal */

/* lint.c's file helpers (lint_internal.h contracts) */
static void test_file_helpers(void **state) {
    (void)state;
    static const struct {
        const char *path, *dir;
    } d[] = {{"a/b/c", "a/b"}, {"c", "."}, {"/c", "/"}, {"a/", "a"}, {"/a/b", "/a"}, {"", "."}};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
        char *x = tfs__lint_dirname(d[i].path);
        assert_string_equal(x, d[i].dir);
        free(x);
    }
    static const struct {
        const char *dir, *name, *out;
    } j[] = {{"a", "b", "a/b"}, {"a/", "b", "a/b"}, {"", "b", "b"}, {"/", "b", "/b"}, {"a/b", "", "a/b/"}};
    for (size_t i = 0; i < sizeof j / sizeof j[0]; i++) {
        char *x = tfs__lint_join(j[i].dir, j[i].name);
        assert_string_equal(x, j[i].out);
        free(x);
    }
    /* slurp: the whole file, NUL after it; at most max bytes */
    put_text("ten.txt", "0123456789");
    char path[512], *out = NULL;
    size_t len = 99;
    int e = 0;
    snprintf(path, sizeof path, "%s/ten.txt", g_tmp);
    assert_int_equal(tfs__lint_slurp(path, 10, &out, &len, &e), TFS_OK);
    assert_int_equal(len, 10);
    assert_memory_equal(out, "0123456789", 11);
    free(out);
    assert_int_equal(tfs__lint_slurp(path, 9, &out, &len, &e), TFS_EARG);
    assert_int_equal(e, EFBIG);
    assert_null(out);
    assert_int_equal(len, 0);
    assert_int_equal(tfs__lint_slurp(path, 9, &out, &len, NULL), TFS_EARG); /* e may be NULL here too */
    assert_null(out);
    assert_int_equal(len, 0);
    {
        /* with standard input closed the file is opened as descriptor 0: read like any other */
        int saved = dup(0);
        assert_true(saved > 0);
        assert_int_equal(close(0), 0);
        tfs_status ss = tfs__lint_slurp(path, 10, &out, &len, &e);
        assert_int_equal(dup2(saved, 0), 0);
        assert_int_equal(close(saved), 0);
        assert_int_equal(ss, TFS_OK);
        assert_int_equal(len, 10);
        assert_memory_equal(out, "0123456789", 11);
        free(out);
    }
    assert_int_equal(tfs__lint_slurp(g_tmp, 10, &out, &len, &e), TFS_EIO);
    assert_int_equal(tfs__lint_slurp(g_tmp, 10, &out, &len, NULL), TFS_EIO); /* e may be NULL */
    assert_int_equal(e, EISDIR);
    snprintf(path, sizeof path, "%s/none.txt", g_tmp);
    assert_int_equal(tfs__lint_slurp(path, 10, &out, &len, &e), TFS_EIO);
    assert_int_equal(e, ENOENT);
    put_text("empty.txt", "");
    snprintf(path, sizeof path, "%s/empty.txt", g_tmp);
    assert_int_equal(tfs__lint_slurp(path, 0, &out, &len, NULL), TFS_OK);
    assert_int_equal(len, 0);
    assert_int_equal(out[0], '\0');
    free(out);
    /* st_head: 8 + N bytes of a safetensors file (N little-endian), fewer when the file is shorter */
    uint8_t *h = NULL;
    assert_int_equal(ST_HEAD("head.bin", "\x03\x01\x00\x00\x00\x00\x00\x00{}  ", &h, &len), TFS_OK);
    assert_int_equal(len, 12); /* N = 259: the file ends after 4 */
    assert_memory_equal(h, "\x03\x01\x00\x00\x00\x00\x00\x00{}  ", 12);
    free(h);
    assert_int_equal(ST_HEAD("head2.bin", "\x02\x00\x00\x00\x00\x00\x00\x00{}xyz", &h, &len), TFS_OK);
    assert_int_equal(len, 10);
    assert_memory_equal(h, "\x02\x00\x00\x00\x00\x00\x00\x00{}", 10);
    free(h);
    /* N = 8 and N = 15: all 8 + N bytes, from a longer file and from one exactly that long */
    assert_int_equal(ST_HEAD("head8.bin", "\x08\x00\x00\x00\x00\x00\x00\x00{}      xy", &h, &len), TFS_OK);
    assert_int_equal(len, 16);
    assert_memory_equal(h, "\x08\x00\x00\x00\x00\x00\x00\x00{}      ", 16);
    free(h);
    assert_int_equal(ST_HEAD("head15.bin", "\x0f\x00\x00\x00\x00\x00\x00\x00{\"a\":\"bc\"}     ", &h, &len), TFS_OK);
    assert_int_equal(len, 23);
    assert_memory_equal(h, "\x0f\x00\x00\x00\x00\x00\x00\x00{\"a\":\"bc\"}     ", 23);
    free(h);
    assert_int_equal(ST_HEAD("short.bin", "\x02\x00\x00", &h, &len), TFS_EIO);
    /* one byte of the header present (N = 5) */
    assert_int_equal(ST_HEAD("one.bin", "\x05\x00\x00\x00\x00\x00\x00\x00{", &h, &len), TFS_OK);
    assert_int_equal(len, 9);
    assert_memory_equal(h, "\x05\x00\x00\x00\x00\x00\x00\x00{", 9);
    free(h);
    /* with standard input closed the file is opened as descriptor 0: read like any other */
    {
        int saved = dup(0);
        assert_true(saved > 0);
        assert_int_equal(close(0), 0);
        snprintf(path, sizeof path, "%s/head8.bin", g_tmp);
        tfs_status hs = tfs__lint_st_head(path, &h, &len);
        assert_int_equal(dup2(saved, 0), 0);
        assert_int_equal(close(saved), 0);
        assert_int_equal(hs, TFS_OK);
        assert_int_equal(len, 16);
        assert_memory_equal(h, "\x08\x00\x00\x00\x00\x00\x00\x00{}      ", 16);
        free(h);
    }
    /* 100,000,000 is the largest N (ST002) */
    assert_int_equal(ST_HEAD("big.bin", "\x00\xe1\xf5\x05\x00\x00\x00\x00{}", &h, &len), TFS_OK);
    assert_int_equal(len, 10);
    free(h);
    assert_int_equal(ST_HEAD("big1.bin", "\x01\xe1\xf5\x05\x00\x00\x00\x00{}", &h, &len), TFS_EIO);
    assert_int_equal(ST_HEAD("big2.bin", "\x00\xe1\xf5\x05\x00\x00\x00\x01{}", &h, &len), TFS_EIO);
    snprintf(path, sizeof path, "%s/none.bin", g_tmp);
    assert_int_equal(tfs__lint_st_head(path, &h, &len), TFS_EIO);
    /* entry points: arguments */
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    tfs_header *sth = NULL;
    tfs_error err;
    assert_int_equal(tfs_parse_file(C "files/LT303-st-f32-misaligned.safetensors", TFS_FORMAT_UNKNOWN, 0, &sth, &err),
                     TFS_OK);
    assert_int_equal(tfs_lint_header(sth, NULL, &r), TFS_OK); /* no options: no head, no config */
    assert_int_equal(r.n_findings, 1);
    assert_int_equal(r.findings[0].rule, TFS_LT303);
    tfs_lint_report_free(&r);
    assert_int_equal(tfs_lint_header(sth, NULL, NULL), TFS_EARG); /* no report */
    {
        /* LT302 checks the padding only with 8 + N bytes given (tfs/lint.h): the tab fixture with all its bytes, with
         * its first 8 only, and with no bytes (head NULL, whatever head_len says) */
        tfs_header *th = NULL;
        const char *tab = C "files/LT302-st-padding-tab.safetensors";
        assert_int_equal(tfs_parse_file(tab, TFS_FORMAT_UNKNOWN, 0, &th, &err), TFS_OK);
        static uint8_t bytes[4096];
        FILE *f = fopen(tab, "rb");
        assert_non_null(f);
        size_t got = fread(bytes, 1, sizeof bytes, f);
        assert_int_equal(fclose(f), 0);
        assert_true(got >= th->data_offset);
        static const struct {
            int head;
            size_t len;
            size_t lt302;
        } hv[] = {{1, 0, 1}, {1, 8, 0}, {0, 4096, 0}};
        for (size_t i = 0; i < 3; i++) {
            tfs_lint_options o = {.head = hv[i].head ? bytes : NULL, .head_len = hv[i].len ? hv[i].len : got};
            tfs_lint_report_init(&r);
            assert_int_equal(tfs_lint_header(th, &o, &r), TFS_OK);
            size_t n302 = 0;
            for (size_t k = 0; k < r.n_findings; k++) n302 += r.findings[k].rule == TFS_LT302;
            assert_int_equal(n302, hv[i].lt302);
            tfs_lint_report_free(&r);
        }
        tfs_header_free(th);
    }
    tfs_header_free(sth);
    /* a TFS_PARTIAL header (complete = 0) is refused (tfs_lint_header needs a whole view) */
    tfs_st_model one = {.n_entries = 0, .metadata = TFS_STW_META_ABSENT};
    size_t cut_len = 0;
    uint8_t *cut = tfs_test_write_flat(NULL, NULL, &one, &cut_len);
    assert_true(cut_len > 9);
    /* the written file cut one byte into its header: a TFS_PARTIAL view */
    assert_int_equal(tfs_parse_buffer(cut, 9, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &sth, &err), TFS_INVALID);
    assert_non_null(sth);
    assert_int_equal(sth->complete, 0);
    assert_int_equal(tfs_lint_header(sth, NULL, &r), TFS_EARG);
    /* tfs_lint_path refuses it before reading anything: TFS_EARG, not the TFS_EIO of a path that is not there */
    assert_int_equal(tfs_lint_path(C "files/no-such-file.safetensors", sth, NULL, &r), TFS_EARG);
    assert_int_equal(r.n_findings, 0);
    tfs_header_free(sth);
    free(cut);
    assert_int_equal(tfs_lint_header(NULL, NULL, &r), TFS_EARG);
    assert_int_equal(tfs_lint_path(NULL, NULL, NULL, &r), TFS_EARG);
    {
        /* a NULL path or header alone is refused too, whatever the format (nothing read, no finding) */
        static const char *const files[] = {C "files/gguf-q4_0.gguf", C "files/st-pt.safetensors"};
        for (size_t i = 0; i < 2; i++) {
            tfs_header *fh = NULL;
            assert_int_equal(tfs_parse_file(files[i], TFS_FORMAT_UNKNOWN, 0, &fh, &err), TFS_OK);
            assert_int_equal(tfs_lint_path(NULL, fh, NULL, &r), TFS_EARG);
            assert_int_equal(tfs_lint_path(files[i], NULL, NULL, &r), TFS_EARG);
            assert_int_equal(tfs_lint_path(files[i], fh, NULL, NULL), TFS_EARG);
            tfs_header_free(fh);
        }
    }
    assert_int_equal(r.n_findings, 0);
    tfs_lint_report_free(NULL);
    tfs_lint_report_init(NULL);
}

/* tfs_lint_path reads config.json beside the file, or --config */
static void test_lint_path_config(void **state) {
    (void)state;
    char dir[300], path[600], cfg[600];
    snprintf(dir, sizeof dir, "%s/cfg", g_tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    const tt layer[] = {QW(8), {"q.scales", TFS_ST_F16, 2, {4, 2}}, {"q.biases", TFS_ST_F16, 2, {4, 2}}};
    tfs_st_wentry e[3];
    tfs_st_model m = tfs_test_st_model(layer, 3, NULL, e, NULL);
    put_model("cfg/model.safetensors", NULL, &m);
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    tfs_header *h = NULL;
    tfs_error err;
    assert_int_equal(tfs_parse_file(path, TFS_FORMAT_UNKNOWN, 0, &h, &err), TFS_OK);
    tfs_lint_report r;
    /* no config: inferred */
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_lint_path(path, h, NULL, &r), TFS_OK);
    assert_int_equal(r.n_findings, 1);
    assert_int_equal(r.findings[0].rule, TFS_LT210);
    tfs_lint_report_free(&r);
    /* config.json beside it: group 64 (LT205, LT206) */
    put_text("cfg/config.json", "{\"quantization\": {\"group_size\": 64, \"bits\": 4}}");
    assert_int_equal(tfs_lint_path(path, h, NULL, &r), TFS_OK);
    assert_int_equal(r.n_findings, 2);
    assert_int_equal(r.findings[0].rule, TFS_LT205);
    assert_int_equal(r.findings[1].rule, TFS_LT206);
    tfs_lint_report_free(&r);
    /* --config elsewhere wins: group 32 (nothing) */
    put_text("q32.json", "{\"quantization\": {\"group_size\": 32, \"bits\": 4}}");
    snprintf(cfg, sizeof cfg, "%s/q32.json", g_tmp);
    assert_int_equal(tfs_lint_path(path, h, cfg, &r), TFS_OK);
    assert_int_equal(r.n_findings, 0);
    snprintf(cfg, sizeof cfg, "%s/none.json", g_tmp);
    assert_int_equal(tfs_lint_path(path, h, cfg, &r), TFS_EIO);
    tfs_lint_report_free(&r);
    /* the file itself cannot be read (tfs/lint.h: TFS_EIO), with config.json beside it or --config: nothing linted */
    char gone[700];
    snprintf(gone, sizeof gone, "%s/gone.safetensors", dir);
    snprintf(cfg, sizeof cfg, "%s/q32.json", g_tmp);
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_lint_path(gone, h, NULL, &r), TFS_EIO);
    assert_int_equal(tfs_lint_path(gone, h, cfg, &r), TFS_EIO);
    assert_int_equal(r.n_findings, 0);
    tfs_lint_report_free(&r);
    tfs_header_free(h);
}

/* the index's shard names and total_size */
static void test_set_index(void **state) {
    (void)state;
    static const char *const pa[] = {"a"};
    static const unsigned ca[] = {1};
    static const uint32_t fa[] = {TFS_ST_F16};
    put_shard("s1.safetensors", pa, ca, fa, 1); /* a00: 4 bytes */
    static const struct {
        const char *index, *ids;
    } v[] = {
        /* names outside the folder are not opened: SET001 each; a missing shard: SET002 */
        {"{\"metadata\": {\"total_size\": 4}, \"weight_map\": {\"a00\": \"s1.safetensors\", \"b\": 5, \"c\": "
         "\"/abs.safetensors\", \"d\": \"../x.safetensors\", \"e\": \"sub/../s1.safetensors\", \"f\": \"..\", \"g\": "
         "\"x/..\", \"h\": \"\", \"i\": \"..x/s..1\"}}",
         "SET001@-1:-1 SET001@-1:-1 SET001@-1:-1 SET001@-1:-1 SET001@-1:-1 SET001@-1:-1 SET001@-1:-1 SET002@1:-1"},
        {"{\"metadata\": {\"total_size\": 4}, \"weight_map\": {\"a00\": \"s1.safetensors\", \"x\": "
         "\"s1.safetensors\", "
         "\"y\": \"...\"}}",
         "SET002@1:-1 SET004@0:-1"},
        /* total_size: all shards present, exactly the tensors' bytes */
        {"{\"metadata\": {\"total_size\": 4}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", ""},
        {"{\"metadata\": {\"total_size\": 3}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET007@-1:-1"},
        {"{\"metadata\": {\"total_size\": 5}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET007@-1:-1"},
        /* a shard missing: at least the bytes present */
        {"{\"metadata\": {\"total_size\": 3}, \"weight_map\": {\"a00\": \"s1.safetensors\", \"b\": "
         "\"s2.safetensors\"}}",
         "SET002@1:-1 SET007@-1:-1"},
        {"{\"metadata\": {\"total_size\": 4}, \"weight_map\": {\"a00\": \"s1.safetensors\", \"b\": "
         "\"s2.safetensors\"}}",
         "SET002@1:-1"},
        {"{\"metadata\": {\"total_size\": 99}, \"weight_map\": {\"a00\": \"s1.safetensors\", \"b\": "
         "\"s2.safetensors\"}}",
         "SET002@1:-1"},
        /* total_size not a non-negative integer, or missing */
        {"{\"metadata\": {\"total_size\": -4}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET009@-1:-1"},
        {"{\"metadata\": {\"total_size\": 4.0}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET009@-1:-1"},
        {"{\"metadata\": {\"total_size\": \"4\"}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET009@-1:-1"},
        {"{\"metadata\": {}, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET009@-1:-1"},
        {"{\"metadata\": 4, \"weight_map\": {\"a00\": \"s1.safetensors\"}}", "SET009@-1:-1"},
        /* not JSON; weight_map not an object */
        {"{\"weight_map\": {\"a00\": \"s1.safetensors\"}", "SET001@-1:-1"},
        {"{\"metadata\": {\"total_size\": 4}, \"weight_map\": [\"s1.safetensors\"]}", "SET001@-1:-1"},
        {"{\"metadata\": {\"total_size\": 0}, \"weight_map\": {}}", ""},
        /* the index names a00x, the shard holds a00: neither is the other */
        {"{\"metadata\": {\"total_size\": 4}, \"weight_map\": {\"a00x\": \"s1.safetensors\"}}",
         "SET004@0:-1 SET008@0:0"},
        /* total_size may count the index's tensors (0 bytes here: a00x is nowhere) or the shards' (4): 0 and 4 are
         * no SET007, 5 is */
        {"{\"metadata\": {\"total_size\": 0}, \"weight_map\": {\"a00x\": \"s1.safetensors\"}}",
         "SET004@0:-1 SET008@0:0"},
        {"{\"metadata\": {\"total_size\": 5}, \"weight_map\": {\"a00x\": \"s1.safetensors\"}}",
         "SET004@0:-1 SET008@0:0 SET007@-1:-1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        put_text("model.safetensors.index.json", v[i].index);
        tfs_lint_report r;
        expect_set_ids("model.safetensors.index.json", TFS_FORMAT_SAFETENSORS, v[i].ids, "index case", i, &r);
        if (i == 0) {
            assert_non_null(strstr(r.findings[0].text, "weight_map[\"b\"] is not a string"));
            assert_non_null(strstr(r.findings[1].text, "weight_map[\"c\"] is a path outside the index's folder"));
        }
        if (i == 3)
            assert_string_equal(r.findings[0].text,
                                "metadata.total_size = 3, the shards' tensors hold 4 bytes (each tensor once)");
        if (i == 5)
            assert_string_equal(r.findings[1].text,
                                "metadata.total_size = 3, less than the 4 bytes of the shards present");
        if (i == 8) assert_non_null(strstr(r.findings[0].text, "metadata.total_size is not a non-negative integer"));
        if (i == 11) assert_non_null(strstr(r.findings[0].text, "metadata.total_size is missing"));
        if (i == sizeof v / sizeof v[0] - 1)
            assert_string_equal(r.findings[2].text,
                                "metadata.total_size = 5; the tensors the index names hold 0 bytes, "
                                "the shards' tensors 4 (each tensor once)");
        tfs_lint_report_free(&r);
    }
    /* with lint: the safetensors rules run on every shard, the first included (LT303: F32 after 2 bytes of U8) */
    static const char *const pm[] = {"m", "n"};
    static const unsigned cm[] = {1, 1};
    static const uint32_t fm[] = {TFS_ST_U8, TFS_ST_F32};
    put_shard("s1.safetensors", pm, cm, fm, 2);
    put_shard("s2.safetensors", pm, cm, fm, 2);
    /* total_size 10: m00 (2 bytes) and n00 (8) once each; the copies in the other shard are SET005, not SET007 */
    put_text("model.safetensors.index.json", "{\"metadata\": {\"total_size\": 10}, \"weight_map\": {\"m00\": "
                                             "\"s1.safetensors\", \"n00\": \"s2.safetensors\"}}");
    char path[512];
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", g_tmp);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check(path, 0, 0, NULL, &r), TFS_OK); /* without lint: the set rules only */
    assert_int_equal(r.n_findings, 2);
    assert_int_equal(r.findings[0].rule, TFS_SET005);
    assert_int_equal(r.findings[1].rule, TFS_SET005);
    tfs_lint_report_free(&r);
    assert_int_equal(tfs_set_check(path, 0, 1, NULL, &r), TFS_OK);
    assert_int_equal(r.n_findings, 4); /* m00 and n00 in both shards (SET005 twice), LT303 in each shard */
    size_t lt303 = 0;
    for (size_t i = 0; i < r.n_findings; i++)
        if (r.findings[i].rule == TFS_LT303) {
            assert_int_equal(r.findings[i].part, (int)lt303);
            assert_int_equal(r.findings[i].tensor, 1);
            lt303++;
        }
    assert_int_equal(lt303, 2);
    tfs_lint_report_free(&r);
    /* a --config that cannot be read */
    char cfg[512];
    snprintf(cfg, sizeof cfg, "%s/no-config.json", g_tmp);
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check(path, 0, 1, cfg, &r), TFS_EIO);
    tfs_lint_report_free(&r);
    /* an index that cannot be read is TFS_EIO (tfs/lint.h), one that is not JSON a SET001 saying so */
    snprintf(cfg, sizeof cfg, "%s/none/model.safetensors.index.json", g_tmp);
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check(cfg, 0, 0, NULL, &r), TFS_EIO);
    assert_int_equal(r.n_findings, 0);
    tfs_lint_report_free(&r);
    put_text("model.safetensors.index.json", "{\"weight_map\": {\"a00\": \"s1.safetensors\"}");
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check(path, 0, 0, NULL, &r), TFS_OK);
    assert_int_equal(r.n_findings, 1);
    assert_int_equal(r.findings[0].rule, TFS_SET001);
    assert_non_null(strstr(r.findings[0].text, "model.safetensors.index.json: not JSON ("));
    tfs_lint_report_free(&r);
    /* with lint, the MLX rules run over the shards read: a --config that is not JSON is LT201 for an MLX shard
     * (format mlx); with no shard read (the one named missing, or none named) no file is linted: the set rules'
     * findings only */
    char dir[300], cfgp[600];
    snprintf(dir, sizeof dir, "%s/mlxnone", g_tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    put_text("mlxnone/bad.json", "{\"quantization\": ");
    snprintf(cfgp, sizeof cfgp, "%s/bad.json", dir);
    const tt one[] = {{"a", TFS_ST_F16, 1, {2}}};
    tfs_st_wentry e1[1];
    tfs_st_wmeta m1[1];
    tfs_st_model m = tfs_test_st_model(one, 1, mlx_meta, e1, m1);
    put_model("mlxnone/s1.safetensors", NULL, &m);
    put_text("mlxnone/model.safetensors.index.json",
             "{\"metadata\": {\"total_size\": 4}, \"weight_map\": {\"a\": \"s1.safetensors\"}}");
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check(path, 0, 1, cfgp, &r), TFS_OK);
    assert_int_equal(r.n_findings, 1);
    assert_int_equal(r.findings[0].rule, TFS_LT201);
    assert_int_equal(r.findings[0].part, 0);
    assert_non_null(strstr(r.findings[0].text, "config.json is not JSON"));
    tfs_lint_report_free(&r);
    char shard[600];
    snprintf(shard, sizeof shard, "%s/s1.safetensors", dir);
    /* a config.json is read up to 16 MiB (docs/lint.md): a --config of 16 MiB (the quantization, then spaces)
     * gives what the short one gives, one byte more is TFS_EIO; the shard linted alone (tfs_lint_path) and
     * in its set read the same configs */
    {
        const size_t max = 16u * 1024u * 1024u;
        static const char q[] = "{\"quantization\": {\"group_size\": 64, \"bits\": 4}}";
        char *big = malloc(max + 1u), qp[600], bp[600];
        assert_non_null(big);
        memset(big, ' ', max + 1u);
        memcpy(big, q, sizeof q - 1u);
        tfs_test_put_file(dir, "q.json", q, sizeof q - 1u, qp, sizeof qp);
        tfs_header *hs1 = NULL;
        tfs_error err;
        assert_int_equal(tfs_parse_file(shard, TFS_FORMAT_UNKNOWN, 0, &hs1, &err), TFS_OK);
        tfs_lint_report ref;
        for (int more = 0; more <= 1; more++) {
            tfs_test_put_file(dir, "big.json", big, max + (size_t)more, bp, sizeof bp);
            for (int alone = 0; alone <= 1; alone++) {
                tfs_lint_report_init(&ref);
                tfs_lint_report_init(&r);
                if (alone) {
                    assert_int_equal(tfs_lint_path(shard, hs1, qp, &ref), TFS_OK);
                    assert_int_equal(tfs_lint_path(shard, hs1, bp, &r), more ? TFS_EIO : TFS_OK);
                } else {
                    assert_int_equal(tfs_set_check(path, 0, 1, qp, &ref), TFS_OK);
                    assert_int_equal(tfs_set_check(path, 0, 1, bp, &r), more ? TFS_EIO : TFS_OK);
                }
                if (!more) {
                    assert_int_equal(r.n_findings, ref.n_findings);
                    for (size_t i = 0; i < r.n_findings; i++) {
                        assert_int_equal(r.findings[i].rule, ref.findings[i].rule);
                        assert_string_equal(r.findings[i].text, ref.findings[i].text);
                    }
                }
                tfs_lint_report_free(&ref);
                tfs_lint_report_free(&r);
            }
        }
        tfs_header_free(hs1);
        free(big);
        assert_int_equal(unlink(bp), 0);
    }
    assert_int_equal(unlink(shard), 0);
    assert_int_equal(tfs_set_check(path, 0, 1, cfgp, &r), TFS_OK);
    assert_int_equal(r.n_files, 1);
    assert_int_equal(r.n_findings, 1);
    assert_int_equal(r.findings[0].rule, TFS_SET002);
    assert_int_equal(r.findings[0].part, 0);
    tfs_lint_report_free(&r);
    put_text("mlxnone/model.safetensors.index.json", "{\"metadata\": {\"total_size\": 0}, \"weight_map\": {}}");
    assert_int_equal(tfs_set_check(path, 0, 1, cfgp, &r), TFS_OK);
    assert_int_equal(r.n_files, 0);
    assert_int_equal(r.n_findings, 0);
    tfs_lint_report_free(&r);
}

/* the normal form of a shard name (shard_name.c): the table's outputs are Python's posixpath.normpath of each
 * input, with a "/" kept after a name that ends in "/" or "/." (open() fails there: ENOTDIR), checked by hand
 * with /usr/bin/python3; os.path.samefile(join(d, name), join(d, normpath(name))) holds for every input
 * without a trailing "/" */
static void test_shard_names(void **state) {
    (void)state;
    static const struct {
        const char *in, *out;
    } ok[] = {
        {"s1.safetensors", "s1.safetensors"},
        {"./s1.safetensors", "s1.safetensors"},
        {".//s1.safetensors", "s1.safetensors"},
        {"././s1.safetensors", "s1.safetensors"},
        {"sub//s2.safetensors", "sub/s2.safetensors"},
        {"sub/./s2.safetensors", "sub/s2.safetensors"},
        {"./sub/.//./s2.safetensors", "sub/s2.safetensors"},
        {"sub///", "sub/"},
        {"s1.safetensors/", "s1.safetensors/"},
        {"s1.safetensors/.", "s1.safetensors/"},
        {"..x/s..1", "..x/s..1"},
        {"...", "..."},
        {".s1", ".s1"},
        {"a/.b/c.", "a/.b/c."},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char *o = (char *)1;
        assert_int_equal(tfs__lint_shard_name(ok[i].in, strlen(ok[i].in), &o), SHARD_OK);
        assert_string_equal(o, ok[i].out);
        free(o);
    }
    static const struct {
        const char *in;
        size_t len;
        shard_name_kind k;
    } bad[] = {
        {"", 0, SHARD_NOT_FILE},         {".", 1, SHARD_NOT_FILE},        {"./", 2, SHARD_NOT_FILE},
        {".//./", 5, SHARD_NOT_FILE},    {"a\0b", 3, SHARD_NOT_FILE},     {"/s1", 3, SHARD_OUTSIDE},
        {"//s1", 4, SHARD_OUTSIDE},      {"..", 2, SHARD_OUTSIDE},        {"../s1", 5, SHARD_OUTSIDE},
        {"sub/../s1", 9, SHARD_OUTSIDE}, {"x/..", 4, SHARD_OUTSIDE},      {"./../s1", 7, SHARD_OUTSIDE},
        {"x/../", 5, SHARD_OUTSIDE},     {"s1.safetensors", 2, SHARD_OK}, /* len counts: "s1" */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *o = (char *)1;
        assert_int_equal(tfs__lint_shard_name(bad[i].in, bad[i].len, &o), bad[i].k);
        if (bad[i].k == SHARD_OK) {
            assert_string_equal(o, "s1");
            free(o);
        } else {
            assert_null(o);
        }
    }
}

/* an index that names a shard as "./s1.safetensors" in one place and "s1.safetensors" in another names one file
 * (transformers opens os.path.join(folder, name)): one file of the set, no SET005 / SET007; a folder lists the
 * index alone (its shards are named, whatever the spelling) */
static void test_set_shard_paths(void **state) {
    (void)state;
    char dir[300], sub[320];
    snprintf(dir, sizeof dir, "%s/paths", g_tmp);
    snprintf(sub, sizeof sub, "%s/paths/sub", g_tmp);
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(mkdir(sub, 0755), 0);
    static const char *const pa[] = {"a"}, *const pb[] = {"b"};
    static const unsigned ca[] = {2}, cb[] = {1};
    static const uint32_t f16[] = {TFS_ST_F16};
    put_shard("paths/s1.safetensors", pa, ca, f16, 1);     /* a00, a01: 8 bytes */
    put_shard("paths/sub/s2.safetensors", pb, cb, f16, 1); /* b00: 4 bytes */
    static const struct {
        const char *index, *ids;
    } v[] = {
        {"{\"metadata\": {\"total_size\": 12}, \"weight_map\": {\"a00\": \"./s1.safetensors\", \"a01\": "
         "\"s1.safetensors\", \"b00\": \"sub//s2.safetensors\"}}",
         ""},
        {"{\"metadata\": {\"total_size\": 12}, \"weight_map\": {\"a00\": \".//s1.safetensors\", \"a01\": "
         "\"./././s1.safetensors\", \"b00\": \"./sub/./s2.safetensors\"}}",
         ""},
        /* "s1.safetensors/" names a folder: open fails (ENOTDIR), for the loader too; the other spelling is read */
        {"{\"metadata\": {\"total_size\": 12}, \"weight_map\": {\"a00\": \"s1.safetensors/\", \"a01\": "
         "\"s1.safetensors\", \"b00\": \"sub/s2.safetensors\"}}",
         "SET003@0:-1"},
        /* the folder itself, and a ".." that would come back into the folder: SET001, not opened */
        {"{\"metadata\": {\"total_size\": 12}, \"weight_map\": {\"a00\": \".\", \"x\": \"sub/../s1.safetensors\", "
         "\"a01\": \"s1.safetensors\", \"b00\": \"sub/s2.safetensors\"}}",
         "SET001@-1:-1 SET001@-1:-1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        put_text("paths/model.safetensors.index.json", v[i].index);
        tfs_lint_report r;
        expect_set_ids("paths/model.safetensors.index.json", TFS_FORMAT_SAFETENSORS, v[i].ids, "shard path case", i,
                       &r);
        char wantp[600];
        if (i < 2) {
            assert_int_equal(r.n_files, 2);
            snprintf(wantp, sizeof wantp, "%s/s1.safetensors", dir);
            assert_string_equal(r.files[0].path, wantp);
            snprintf(wantp, sizeof wantp, "%s/sub/s2.safetensors", dir);
            assert_string_equal(r.files[1].path, wantp);
            assert_int_equal(r.tensor_bytes, 12);
        }
        if (i == 2) {
            assert_int_equal(r.n_files, 3);
            snprintf(wantp, sizeof wantp, "%s/s1.safetensors/", dir);
            assert_string_equal(r.files[0].path, wantp);
            assert_int_equal(r.files[0].err.sys_errno, ENOTDIR);
        }
        if (i == 3) {
            assert_non_null(strstr(r.findings[0].text, "weight_map[\"a00\"] is not a file name"));
            assert_non_null(strstr(r.findings[1].text, "weight_map[\"x\"] is a path outside the index's folder"));
        }
        tfs_lint_report_free(&r);
    }
    /* a weight_map key in a SET001 message: whole up to 200 bytes, its first 200 bytes beyond */
    {
        char k200[201], k201[202], idx[1024], msg[300];
        memset(k200, 'k', 200);
        k200[200] = '\0';
        memset(k201, 'm', 201);
        k201[201] = '\0';
        snprintf(idx, sizeof idx,
                 "{\"metadata\": {\"total_size\": 12}, \"weight_map\": {\"%s\": \".\", \"%s\": 5, \"a00\": "
                 "\"s1.safetensors\", \"a01\": \"s1.safetensors\", \"b00\": \"sub/s2.safetensors\"}}",
                 k200, k201);
        put_text("paths/model.safetensors.index.json", idx);
        tfs_lint_report r;
        expect_set_ids("paths/model.safetensors.index.json", TFS_FORMAT_SAFETENSORS, "SET001@-1:-1 SET001@-1:-1",
                       "long weight_map keys", 0, &r);
        snprintf(msg, sizeof msg, "weight_map[\"%s\"] is not a file name", k200);
        assert_non_null(strstr(r.findings[0].text, msg));
        snprintf(msg, sizeof msg, "weight_map[\"%.200s\"] is not a string", k201);
        assert_non_null(strstr(r.findings[1].text, msg));
        tfs_lint_report_free(&r);
    }
    put_text("paths/model.safetensors.index.json", v[0].index);
    char **e = NULL;
    size_t n = 0;
    assert_int_equal(tfs_set_entries(dir, &e, &n, NULL), TFS_OK);
    assert_int_equal(n, 1);
    char wantp[600];
    snprintf(wantp, sizeof wantp, "%s/model.safetensors.index.json", dir);
    assert_string_equal(e[0], wantp);
    free(e[0]);
    free(e);
}

/* GGUF splits: split.count / split.no u16 and right in every part, split.tensors.count an i32 equal to the
 * tensors of all parts (at least those present when a part is missing), model metadata only in part 1 */
static void put_part(const char *name, unsigned no, unsigned count, const gkv *extra, size_t n_extra, int32_t tc,
                     const char *tensor) {
    gkv kv[12];
    size_t n = 0;
    kv[n++] = (gkv){"split.no", tfs_gg_wval_scalar(TFS_GG_U16, no)};
    kv[n++] = (gkv){"split.count", tfs_gg_wval_scalar(TFS_GG_U16, count)};
    kv[n++] = (gkv){"split.tensors.count", tfs_gg_wval_scalar(TFS_GG_I32, (uint64_t)(uint32_t)tc)};
    for (size_t i = 0; i < n_extra; i++) kv[n++] = extra[i];
    /* an extra key with the name of a split key replaces it; "!KEY" leaves KEY out */
    tfs_gg_wkv k[12];
    size_t nk = 0;
    for (size_t i = 0; i < n; i++) {
        int replaced = kv[i].key[0] == '!';
        for (size_t j = i + 1; j < n; j++)
            replaced |=
                strcmp(kv[i].key, kv[j].key) == 0 || (kv[j].key[0] == '!' && strcmp(kv[i].key, kv[j].key + 1) == 0);
        if (!replaced) k[nk++] = (tfs_gg_wkv){tfs_wstr_c(kv[i].key), kv[i].v};
    }
    tfs_gg_wtensor t[1];
    memset(t, 0, sizeof t);
    t[0].name = tfs_wstr_c(tensor ? tensor : "");
    t[0].n_dims = 1;
    t[0].ne[0] = 8;
    t[0].type = 0;
    tfs_gg_model m = {.version = 3, .kv = k, .n_kv = nk, .tensors = t, .n_tensors = tensor ? 1 : 0}; /* NULL: none */
    put_model(name, &m, NULL);
}

static void test_gguf_splits(void **state) {
    (void)state;
    g_llama = tfs_wstr_c("llama");
    tfs_lint_report r;
    const gkv arch[] = {ARCH};
    const gkv align[] = {U32("general.alignment", 32)};
    const gkv name[] = {{"general.name", tfs_gg_wval_str(&g_llama)}, ARCH};
    const gkv splitx[] = {{"split", tfs_gg_wval_str(&g_llama)}};
    tfs_wstr dotval = tfs_wstr_c(".x");
    const gkv splitx_dot[] = {{"split", tfs_gg_wval_str(&dotval)}}; /* "split" then ".x": still no "split." key */
    const gkv align_x[] = {U32("general.alignmenx", 32)};           /* 17 bytes, not general.alignment */
    const gkv splitdot[] = {{"split.extra", tfs_gg_wval_str(&g_llama)}};
    const gkv split6[] = {{"split.", tfs_gg_wval_str(&g_llama)}};
    const gkv count_u32[] = {U32("split.count", 2)};
    const gkv no_u32[] = {U32("split.no", 1)};
    const gkv tc_u32[] = {U32("split.tensors.count", 2)};
    const gkv no_no[] = {{"!split.no", tfs_gg_wval_scalar(TFS_GG_U16, 0)}};
    const gkv no_tc[] = {{"!split.tensors.count", tfs_gg_wval_scalar(TFS_GG_U16, 0)}};
    const gkv splitter[] = {{"splitter.a", tfs_gg_wval_str(&g_llama)}};
    const gkv longkey[] = {{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
                            "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
                            tfs_gg_wval_str(&g_llama)}};
    const struct {
        const gkv *x1, *x2;
        size_t n1, n2;
        unsigned no2, count2;
        int32_t tc1, tc2;
        const char *ids;
        const char *text; /* in the first finding's text (NULL: not checked) */
    } v[] = {
        {arch, align, 1, 1, 1, 2, 2, 2, "", NULL},
        {arch, splitdot, 1, 1, 1, 2, 2, 2, "", NULL},
        {arch, split6, 1, 1, 1, 2, 2, 2, "", NULL}, /* "split." itself is a split.* key */
        {arch, name, 1, 2, 1, 2, 2, 2, "SET104@1:k3", ": 2 metadata keys besides split.* (first: general.name)"},
        {arch, splitx, 1, 1, 1, 2, 2, 2, "SET104@1:k3", ": 1 metadata key besides split.* (first: split);"},
        {arch, splitx_dot, 1, 1, 1, 2, 2, 2, "SET104@1:k3", ": 1 metadata key besides split.* (first: split);"},
        {arch, align_x, 1, 1, 1, 2, 2, 2, "SET104@1:k3",
         ": 1 metadata key besides split.* (first: general.alignmenx);"},
        {arch, NULL, 1, 0, 1, 3, 2, 2, "SET101@1:k1", "split.count = 3, expected 2 (the file names say -of-00002)"},
        {arch, NULL, 1, 0, 2, 2, 2, 2, "SET102@1:k0", NULL},
        {arch, NULL, 1, 0, 0, 2, 2, 2, "SET102@1:k0",
         "split.no = 0, expected 1 (the file name says part 2, 0-based 1)"},
        {arch, NULL, 1, 0, 1, 2, 3, 2, "SET103@0:k2", "split.tensors.count = 3, the parts hold 2 tensors"},
        {arch, NULL, 1, 0, 1, 2, 2, 1, "SET103@1:k2", NULL},
        /* one wrong value in both parts: reported once, on the first; two different values: each */
        {arch, NULL, 1, 0, 1, 2, 3, 3, "SET103@0:k2", NULL},
        {arch, NULL, 1, 0, 1, 2, 3, 4, "SET103@0:k2 SET103@1:k2", NULL},
        {arch, NULL, 1, 0, 1, 2, -1, 2, "SET103@0:k2", NULL},
        {arch, count_u32, 1, 1, 1, 2, 2, 2, "SET101@1:k2", "split.count is a u32, llama.cpp reads a u16"},
        {arch, no_u32, 1, 1, 1, 2, 2, 2, "SET102@1:k2", NULL},
        {arch, tc_u32, 1, 1, 1, 2, 2, 2, "SET103@1:k2", "split.tensors.count is a u32, llama.cpp reads an i32"},
        {arch, no_no, 1, 1, 1, 2, 2, 2, "SET102@1:k-1", NULL},
        {arch, no_tc, 1, 1, 1, 2, 2, 2, "SET103@1:k-1", NULL},
        {arch, splitter, 1, 1, 1, 2, 2, 2, "SET104@1:k3", NULL},
        {arch, longkey, 1, 1, 1, 2, 2, 2, "SET104@1:k3", /* the key cut at 100 bytes */
         "(first: kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
         "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk);"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        put_part("g-00001-of-00002.gguf", 0, 2, v[i].x1, v[i].n1, v[i].tc1, "a");
        put_part("g-00002-of-00002.gguf", v[i].no2, v[i].count2, v[i].x2, v[i].n2, v[i].tc2, "b");
        expect_set_ids("g-00001-of-00002.gguf", TFS_FORMAT_GGUF, v[i].ids, "split case", i, &r);
        if (v[i].text) assert_non_null(strstr(r.findings[0].text, v[i].text));
        assert_int_equal(r.n_files, 2);
        assert_int_equal(r.n_tensors, 2);
        tfs_lint_report_free(&r);
    }
    /* the first extra key named up to 100 bytes: a 100-byte key whole, a 101-byte one without its last byte */
    for (size_t len = 100; len <= 101; len++) {
        char key[102], text[160];
        memset(key, 'k', len - 1);
        key[len - 1] = 'z';
        key[len] = '\0';
        const gkv x[] = {{key, tfs_gg_wval_str(&g_llama)}};
        put_part("g-00001-of-00002.gguf", 0, 2, arch, 1, 2, "a");
        put_part("g-00002-of-00002.gguf", 1, 2, x, 1, 2, "b");
        expect_set_ids("g-00001-of-00002.gguf", TFS_FORMAT_GGUF, "SET104@1:k3", "key of length", len, &r);
        snprintf(text, sizeof text, "(first: %.100s); llama.cpp reads", key);
        if (len == 101) assert_null(strchr(text, 'z'));
        assert_non_null(strstr(r.findings[0].text, text));
        tfs_lint_report_free(&r);
    }
    /* a part missing: split.tensors.count at least the tensors present */
    char path[512];
    snprintf(path, sizeof path, "%s/g-00002-of-00002.gguf", g_tmp);
    static const struct {
        int32_t tc;
        const char *ids;
    } m[] = {{0, "SET002@1:k-1 SET103@0:k2"}, {1, "SET002@1:k-1"}, {2, "SET002@1:k-1"}, {7, "SET002@1:k-1"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        put_part("g-00001-of-00002.gguf", 0, 2, arch, 1, m[i].tc, "a");
        unlink(path);
        expect_set_ids("g-00001-of-00002.gguf", TFS_FORMAT_GGUF, m[i].ids, "missing part, case", i, &r);
        if (i == 0)
            assert_non_null(strstr(r.findings[1].text, "split.tensors.count = 0, the parts present hold 1 tensor"));
        tfs_lint_report_free(&r);
    }
    /* parts without tensors: split.tensors.count 0 is right, 1 is not */
    for (int32_t tc = 0; tc <= 1; tc++) {
        put_part("g-00001-of-00002.gguf", 0, 2, arch, 1, tc, NULL);
        put_part("g-00002-of-00002.gguf", 1, 2, NULL, 0, tc, NULL);
        expect_set_ids("g-00001-of-00002.gguf", TFS_FORMAT_GGUF, tc ? "SET103@0:k2" : "", "no tensors, tc", (size_t)tc,
                       &r);
        assert_int_equal(r.n_tensors, 0);
        tfs_lint_report_free(&r);
    }
    /* with lint the GGUF rules run on the split (metadata from part 1): no general.architecture is LT101; with a
     * part missing, the second or the first, the lint is skipped (docs/lint.md) and SET002 names it (the part
     * still there is checked as with any part missing: split.tensors.count 2 is at least its 1 tensor) */
    char first[512];
    snprintf(first, sizeof first, "%s/g-00001-of-00002.gguf", g_tmp);
    static const struct {
        const char *missing; /* NULL: both parts there */
        tfs_lint_rule rule;  /* the one finding with lint on */
        int part;
    } lv[] = {{NULL, TFS_LT101, 0}, {"g-00002-of-00002.gguf", TFS_SET002, 1}, {"g-00001-of-00002.gguf", TFS_SET002, 0}};
    for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
        put_part("g-00001-of-00002.gguf", 0, 2, NULL, 0, 2, "a");
        put_part("g-00002-of-00002.gguf", 1, 2, NULL, 0, 2, "b");
        if (lv[i].missing) {
            snprintf(path, sizeof path, "%s/%s", g_tmp, lv[i].missing);
            assert_int_equal(unlink(path), 0);
        }
        tfs_lint_report_init(&r);
        assert_int_equal(tfs_set_check(first, 0, 1, NULL, &r), TFS_OK);
        assert_int_equal(r.n_findings, 1);
        assert_int_equal(r.findings[0].rule, lv[i].rule);
        assert_int_equal(r.findings[0].part, lv[i].part);
        assert_int_equal(r.findings[0].tensor, -1);
        assert_int_equal(r.findings[0].kv, -1);
        tfs_lint_report_free(&r);
        if (lv[i].missing) continue;
        tfs_lint_report_init(&r); /* without lint: no finding */
        assert_int_equal(tfs_set_check(first, 0, 0, NULL, &r), TFS_OK);
        assert_int_equal(r.n_findings, 0);
        tfs_lint_report_free(&r);
    }
}

/* the rule table's queries (include/tfs/lint.def, docs/lint.md) */
static void test_rule_table(void **state) {
    (void)state;
    static const struct {
        const char *id;
        tfs_lint_rule rule;
        const char *scope;
        tfs_lint_severity sev;
    } v[] = {
        {"LT101", TFS_LT101, "GG", TFS_LINT_WARNING},    {"LT112", TFS_LT112, "GG", TFS_LINT_WARNING},
        {"LT205", TFS_LT205, "MLX", TFS_LINT_ERROR},     {"LT210", TFS_LT210, "MLX", TFS_LINT_WARNING},
        {"LT304", TFS_LT304, "ST", TFS_LINT_WARNING},    {"SET001", TFS_SET001, "SET", TFS_LINT_ERROR},
        {"SET009", TFS_SET009, "SET", TFS_LINT_WARNING}, {"SET104", TFS_SET104, "SET", TFS_LINT_WARNING},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        assert_string_equal(tfs_lint_id(v[i].rule), v[i].id);
        assert_int_equal(tfs_lint_from_id(v[i].id), v[i].rule);
        assert_string_equal(tfs_lint_scope(v[i].rule), v[i].scope);
        assert_int_equal(tfs_lint_severity_of(v[i].rule), v[i].sev);
        assert_true(strlen(tfs_lint_message(v[i].rule)) > 10);
    }
    assert_string_equal(tfs_lint_message(TFS_LT205), ".scales shape does not match the weight, bits and group size");
    assert_int_equal((int)TFS_LT205, 3205);
    assert_int_equal((int)TFS_SET104, 4104);
    assert_string_equal(tfs_lint_id(TFS_LINT_NONE), "");
    assert_string_equal(tfs_lint_id((tfs_lint_rule)3999), "?");
    assert_string_equal(tfs_lint_message((tfs_lint_rule)3999), "");
    assert_string_equal(tfs_lint_scope((tfs_lint_rule)3999), "");
    assert_int_equal(tfs_lint_severity_of((tfs_lint_rule)3999), 0);
    assert_string_equal(tfs_lint_severity_name(TFS_LINT_ERROR), "error");
    assert_string_equal(tfs_lint_severity_name(TFS_LINT_WARNING), "warning");
    assert_string_equal(tfs_lint_severity_name((tfs_lint_severity)0), "?");
    assert_int_equal(tfs_lint_from_id("LT999"), TFS_LINT_NONE);
    assert_int_equal(tfs_lint_from_id("LT20"), TFS_LINT_NONE);
    assert_int_equal(tfs_lint_from_id(NULL), TFS_LINT_NONE);
    /* 14 GGUF, 10 MLX, 4 safetensors, 9 + 4 set rules, in lint.def's order */
    assert_int_equal(tfs_lint_count(), 41);
    assert_int_equal(tfs_lint_at(0), TFS_LT101);
    assert_int_equal(tfs_lint_at(13), TFS_LT114);
    assert_int_equal(tfs_lint_at(40), TFS_SET104);
    assert_int_equal(tfs_lint_at(41), TFS_LINT_NONE);
    lint_shape_cases(); /* report.c's other helper */
}

/* LT303 on the first tensor: an unpadded header (LT301) leaves an F32 tensor 0 at 8 + N, misaligned when
 * 8 + N is not a multiple of 4 (names of 1..4 bytes move N through every remainder) */
static void test_st_first_misaligned(void **state) {
    (void)state;
    static const char *const names[] = {"a", "ab", "abc", "abcd"};
    int seen[4] = {0};
    for (size_t k = 0; k < 4; k++) {
        const tt f32[1] = {{names[k], TFS_ST_F32, 1, {2}}};
        tfs_st_wentry e[1];
        tfs_st_model m = tfs_test_st_model(f32, 1, NULL, e, NULL);
        m.pad_to = 1;
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_lint_report r;
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, names[k], NULL, &r);
        uint64_t off = h->data_offset; /* tensor 0's data starts there */
        int lt303 = 0;
        for (size_t i = 0; i < r.n_findings; i++)
            if (r.findings[i].rule == TFS_LT303) {
                lt303 = 1;
                assert_int_equal(r.findings[i].tensor, 0);
            }
        assert_int_equal(lt303, off % 4 != 0);
        seen[off % 4] = 1;
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
    assert_true(seen[0] && seen[1] && seen[2] && seen[3]);
    /* two misaligned F32 tensors, tensor 0 the first of them: LT303 names tensor 0 and counts both */
    int two = 0;
    for (size_t k = 0; k < 4; k++) {
        const tt f32[2] = {{names[k], TFS_ST_F32, 1, {2}}, {"z", TFS_ST_F32, 1, {2}}};
        tfs_st_wentry e[2];
        tfs_st_model m = tfs_test_st_model(f32, 2, NULL, e, NULL);
        m.pad_to = 1;
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_lint_report r;
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, names[k], NULL, &r);
        if (h->data_offset % 4 != 0) { /* tensor 1 starts 8 bytes later: misaligned too */
            two++;
            size_t lt303 = 0;
            for (size_t i = 0; i < r.n_findings; i++)
                if (r.findings[i].rule == TFS_LT303) {
                    lt303++;
                    assert_int_equal(r.findings[i].tensor, 0);
                    assert_non_null(strstr(r.findings[i].text, "(2 tensors misaligned)"));
                }
            assert_int_equal(lt303, 1);
        }
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
    assert_true(two > 0);
    /* 16-bit data at an odd offset: an F16 tensor after one U8 byte (the header padded to 8) */
    {
        const tt u8f16[2] = {{"a", TFS_ST_U8, 1, {1}}, {"b", TFS_ST_F16, 1, {2}}};
        tfs_st_wentry e[2];
        tfs_st_model m = tfs_test_st_model(u8f16, 2, NULL, e, NULL);
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_lint_report r;
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, "u8 then f16", NULL, &r);
        assert_int_equal(h->data_offset % 8, 0);
        assert_int_equal(r.n_findings, 1);
        assert_int_equal(r.findings[0].rule, TFS_LT303);
        assert_int_equal(r.findings[0].tensor, 1);
        assert_non_null(strstr(r.findings[0].text, "not a multiple of 2 (1 tensor misaligned)"));
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
    /* LT304 names an unknown format up to 64 bytes: 64 whole, 65 without its last byte */
    for (size_t n = 64; n <= 65; n++) {
        char fmt[66], text[128];
        memset(fmt, 'f', n - 1);
        fmt[n - 1] = 'z';
        fmt[n] = '\0';
        const char *const meta[] = {"format", fmt, NULL};
        const tt one[1] = {{"a", TFS_ST_F16, 1, {2}}};
        tfs_st_wentry e[1];
        tfs_st_wmeta mw[1];
        tfs_st_model m = tfs_test_st_model(one, 1, meta, e, mw);
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_lint_report r;
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, "long format", NULL, &r);
        assert_int_equal(r.n_findings, 1);
        assert_int_equal(r.findings[0].rule, TFS_LT304);
        snprintf(text, sizeof text, "__metadata__ format \"%.64s\": not pt", fmt);
        if (n == 65) assert_null(strchr(text, 'z'));
        assert_non_null(strstr(r.findings[0].text, text));
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
}

/* the padding after the JSON (LT302) and the alignment of 64-bit, empty and sub-16-bit tensors (LT303) */
static void test_st_padding_alignment(void **state) {
    (void)state;
    tfs_lint_report r;
    {
        /* "{}" then a tab, a space, a newline (JSON whitespace, accepted) and spaces: one LT302, for the first */
        size_t len = 0;
        uint8_t *buf = st_raw("{}\t \n   ", 0, &len);
        assert_int_equal(len, 16);
        tfs_lint_options o = {.head = buf, .head_len = len};
        tfs_header *h = NULL;
        tfs_error err;
        assert_int_equal(tfs_parse_buffer(buf, len, TFS_FORMAT_SAFETENSORS, 0, &h, &err), TFS_OK);
        tfs_lint_report_init(&r);
        assert_int_equal(tfs_lint_header(h, &o, &r), TFS_OK);
        assert_int_equal(r.n_findings, 1);
        assert_int_equal(r.findings[0].rule, TFS_LT302);
        assert_non_null(strstr(r.findings[0].text, "byte 0x09 at offset 10 in the padding"));
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
    /* F64 after 8 and 16 U8 bytes (the header padded to 8): aligned to its 8 bytes, no LT303 */
    for (uint64_t k = 1; k <= 2; k++) {
        const tt u8f64[2] = {{"a", TFS_ST_U8, 1, {8 * k}}, {"b", TFS_ST_F64, 1, {1}}};
        tfs_st_wentry e[2];
        tfs_st_model m = tfs_test_st_model(u8f64, 2, NULL, e, NULL);
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, "u8 then f64", NULL, &r);
        assert_int_equal(h->data_offset % 8, 0);
        assert_int_equal(h->tensors[1].file_offset, h->data_offset + 8 * k);
        assert_int_equal(r.n_findings, 0);
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
    /* F64 after one U8 byte: LT303, "not a multiple of 8" */
    {
        const tt u8f64[2] = {{"a", TFS_ST_U8, 1, {1}}, {"b", TFS_ST_F64, 1, {1}}};
        tfs_st_wentry e[2];
        tfs_st_model m = tfs_test_st_model(u8f64, 2, NULL, e, NULL);
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, "u8 then f64, odd", NULL, &r);
        assert_int_equal(r.n_findings, 1);
        assert_int_equal(r.findings[0].rule, TFS_LT303);
        assert_int_equal(r.findings[0].tensor, 1);
        assert_non_null(strstr(r.findings[0].text, "b: F64 data at file offset"));
        assert_non_null(strstr(r.findings[0].text, "not a multiple of 8 (1 tensor misaligned)"));
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
    /* after one U8 byte: an empty F32 (no data to view) and an F4 pair (one byte, no element size to align to) */
    static const uint32_t after[] = {TFS_ST_F32, TFS_ST_F4};
    static const uint64_t count[] = {0, 2};
    for (size_t i = 0; i < 2; i++) {
        const tt u8x[2] = {{"a", TFS_ST_U8, 1, {1}}, {"b", after[i], 1, {count[i]}}};
        tfs_st_wentry e[2];
        tfs_st_model m = tfs_test_st_model(u8x, 2, NULL, e, NULL);
        size_t len = 0;
        uint8_t *buf = tfs_test_write_flat(NULL, NULL, &m, &len);
        tfs_header *h = lint_bytes(buf, len, TFS_FORMAT_SAFETENSORS, "u8 then empty f32 / f4", NULL, &r);
        assert_int_equal(h->tensors[1].file_offset % 2, 1);
        assert_int_equal(r.n_findings, 0);
        tfs_lint_report_free(&r);
        tfs_header_free(h);
        free(buf);
    }
}

static void check_case(const lcase *c) {
    char path[1024];
    snprintf(path, sizeof path, "%s%s", C, c->path);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    tfs_header *h = NULL;
    if (c->set) {
        assert_int_equal(tfs_set_check(path, 0, 1, NULL, &r), TFS_OK);
    } else {
        tfs_error err;
        assert_int_equal(tfs_parse_file(path, TFS_FORMAT_UNKNOWN, 0, &h, &err), TFS_OK);
        assert_int_equal(tfs_lint_path(path, h, NULL, &r), TFS_OK);
    }
    size_t n_want = 0, errors = 0;
    while (n_want < 4 && c->w[n_want].id) n_want++;
    if (r.n_findings != n_want) {
        for (size_t i = 0; i < r.n_findings; i++)
            print_message("%s: %s %s\n", c->path, tfs_lint_id(r.findings[i].rule), r.findings[i].text);
    }
    assert_int_equal(r.n_findings, n_want);
    for (size_t i = 0; i < n_want; i++) {
        const want *w = &c->w[i];
        const tfs_lint_finding *f = &r.findings[i];
        if (strcmp(tfs_lint_id(f->rule), w->id) != 0 || f->part != w->part || f->tensor != w->tensor ||
            f->kv != w->kv || !strstr(f->text, w->text))
            print_message("%s: got %s part %d tensor %lld kv %lld \"%s\"\n", c->path, tfs_lint_id(f->rule), f->part,
                          (long long)f->tensor, (long long)f->kv, f->text);
        assert_string_equal(tfs_lint_id(f->rule), w->id);
        assert_int_equal(f->severity, tfs_lint_severity_of(f->rule));
        assert_int_equal(f->part, w->part);
        assert_int_equal(f->tensor, w->tensor);
        assert_int_equal(f->kv, w->kv);
        assert_non_null(strstr(f->text, w->text));
        if (f->severity == TFS_LINT_ERROR) errors++;
    }
    assert_int_equal(r.n_errors, errors);
    assert_int_equal(r.n_warnings, n_want - errors);
    tfs_lint_report_free(&r);
    tfs_header_free(h);
}

static void test_corpus_findings(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
}

/* frees a string list of tfs_set_members / tfs_set_entries */
static void free_list(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* tfs_set_members: the files a set entry names, opened by none: an index's shards in their normal form (each once,
 * names outside the folder or naming no file left out), every part of a split; other paths are no entry */
static void test_set_members(void **state) {
    (void)state;
    put_text("m.safetensors.index.json", "{\"weight_map\": {\"a\": \"./s1.safetensors\", \"b\": \"s1.safetensors\", "
                                         "\"c\": \"sub//s2.safetensors\", \"d\": \"../x.safetensors\", \"e\": \"\", "
                                         "\"f\": 5}}");
    char path[512], exp[512];
    snprintf(path, sizeof path, "%s/m.safetensors.index.json", g_tmp);
    char **m = NULL;
    size_t n = 99;
    assert_int_equal(tfs_set_members(path, &m, &n), TFS_OK);
    assert_int_equal(n, 2);
    snprintf(exp, sizeof exp, "%s/s1.safetensors", g_tmp);
    assert_string_equal(m[0], exp);
    snprintf(exp, sizeof exp, "%s/sub/s2.safetensors", g_tmp);
    assert_string_equal(m[1], exp);
    free_list(m, n);
    /* a split: every part, none of which exists */
    snprintf(path, sizeof path, "%s/g-00001-of-00003.gguf", g_tmp);
    assert_int_equal(tfs_set_members(path, &m, &n), TFS_OK);
    assert_int_equal(n, 3);
    snprintf(exp, sizeof exp, "%s/g-00003-of-00003.gguf", g_tmp);
    assert_string_equal(m[2], exp);
    free_list(m, n);
    /* an index that cannot be read names nothing; not an entry: TFS_EARG */
    snprintf(path, sizeof path, "%s/none.safetensors.index.json", g_tmp);
    assert_int_equal(tfs_set_members(path, &m, &n), TFS_OK);
    assert_int_equal(n, 0);
    free(m);
    snprintf(path, sizeof path, "%s/g-00002-of-00003.gguf", g_tmp);
    assert_int_equal(tfs_set_members(path, &m, &n), TFS_EARG);
    assert_int_equal(tfs_set_members(NULL, &m, &n), TFS_EARG);
}

int main(void) {
    snprintf(g_tmp, sizeof g_tmp, "%s", "/tmp/tfs_lint_XXXXXX");
    if (!mkdtemp(g_tmp)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_findings),
        cmocka_unit_test(test_json_strings),
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_json_containers),
        cmocka_unit_test(test_json_u64),
        cmocka_unit_test(test_mlx_params),
        cmocka_unit_test(test_mlx_shapes),
        cmocka_unit_test(test_mlx_inferred),
        cmocka_unit_test(test_gguf_keys),
        cmocka_unit_test(test_set_limits),
        cmocka_unit_test(test_set_index),
        cmocka_unit_test(test_set_members),
        cmocka_unit_test(test_set_shard_paths),
        cmocka_unit_test(test_shard_names),
        cmocka_unit_test(test_gguf_splits),
        cmocka_unit_test(test_split_names),
        cmocka_unit_test(test_set_entries),
        cmocka_unit_test(test_rule_table),
        cmocka_unit_test(test_st_first_misaligned),
        cmocka_unit_test(test_file_helpers),
        cmocka_unit_test(test_lint_path_config),
        cmocka_unit_test(test_st_padding_alignment),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_tmp);
    if (system(cmd) != 0) rc = 1;
    return rc;
}
