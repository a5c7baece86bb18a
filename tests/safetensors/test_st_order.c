/* test_st_order.c: which violation is reported when a header has two, in
 * the crate's order (issue 5, item 8).  The crate's HashMetadata collects the
 * tensor entries (#[serde(flatten)]) while serde_json scans the object, and
 * checks each entry as a TensorInfo only after the closing brace; so JSON
 * errors (ST11x) and __metadata__ errors (ST40x) anywhere in the object beat
 * an earlier entry error (ST2xx), the first entry error in document order
 * beats trailing characters (ST112) and every ST3xx rule.  Each case below was
 * checked against st-oracle (the crate's message names the rule); rule, file
 * offset and index are asserted, with the buffer and the file API. */
#include "st_test_util.h"

/* A valid 1-byte U8 tensor body at data offset 0, and one at offset 1. */
#define E "\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]"
#define E2 "\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]"
#define BAD_DTYPE "{\"dtype\":\"F99\",\"shape\":[1],\"data_offsets\":[0,1]}"

/* ------------------------------------------------ entry fault, then a scanning fault */

static void test_entry_then_number_range(void **state) {
    (void)state;
    /* the example: ST201 in "t", ST117 in "u"; the crate reports ST117.
     * "t" keeps index 0, so "u" is index 1. */
    const char *json = "{\"t\":5,\"u\":1e999}";
    stt_json_rule(json, 0, 0, TFS_ST117, stt_at(json, "1e999", 0), 1);
    /* in the same entry, after the unknown dtype */
    const char *json2 = "{\"a\":{\"dtype\":5,\"shape\":[1],\"x\":-1e999,\"data_offsets\":[0,1]}}";
    stt_json_rule(json2, 1, 0, TFS_ST117, stt_at(json2, "-1e999", 0), 0);
}

static void test_entry_then_syntax(void **state) {
    (void)state;
    /* the second example: ST210, then a member without a value */
    const char *json = "{\"t\":{\"dtype\":\"F99\",\"shape\":[],\"data_offsets\":[0,0]},\"u\":}";
    stt_json_rule(json, 0, 0, TFS_ST110, stt_at(json, ":}", 0) + 1, 1);
    /* the same entry: the number 01 after the unknown dtype */
    const char *json2 = "{\"a\":{\"dtype\":\"F99\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":01}}";
    stt_json_rule(json2, 1, 0, TFS_ST110, stt_at(json2, "01}", 0) + 1, 0);
    /* a map-form dtype with two keys (ST211) and a trailing comma in it */
    const char *json3 = "{\"a\":{\"dtype\":{\"U8\":null,\"I8\":null,},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json3, 1, 0, TFS_ST110, stt_at(json3, ",}", 0) + 1, 0);
    /* the header ends inside the next entry */
    const char *json4 = "{\"a\":" BAD_DTYPE ",\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_";
    stt_json_rule(json4, 2, 0, TFS_ST111, 8 + strlen(json4), 1);
}

static void test_entry_then_string_faults(void **state) {
    (void)state;
    const char *json = "{\"a\":" BAD_DTYPE ",\"b\\qc\":{" E2 "}}";
    stt_json_rule(json, 2, 0, TFS_ST115, stt_at(json, "\\q", 0), -1);
    const char *json2 = "{\"a\":{" E ",\"shape\":[1]},\"b\tc\":{" E2 "}}";
    stt_json_rule(json2, 2, 0, TFS_ST114, stt_at(json2, "\t", 0), -1);
    const char *json3 = "{\"a\":[\"U8\",[1]],\"b\":{" E2 ",\"x\":\"\\ud800\"}}";
    stt_json_rule(json3, 2, 0, TFS_ST116, stt_at(json3, "\\ud800", 0), 1);
}

static void test_entry_then_depth(void **state) {
    (void)state;
    char json[512];
    int n = snprintf(json, sizeof json, "{\"a\":{\"shape\":[1],\"data_offsets\":[0,1]},\"b\":{" E2 ",\"x\":");
    for (int k = 0; k < 126; k++) json[n++] = '[';
    for (int k = 0; k < 126; k++) json[n++] = ']';
    json[n++] = '}';
    json[n++] = '}';
    json[n] = 0;
    /* depth 128 is reached by the 126th '[' (object 1, entry 2) */
    stt_json_rule(json, 2, 0, TFS_ST113, stt_at(json, "[[", 0) + 125, 1);
}

static void test_entry_then_metadata(void **state) {
    (void)state;
    const char *json = "{\"a\":null,\"__metadata__\":1}";
    stt_json_rule(json, 0, 0, TFS_ST401, stt_at(json, "1}", 0), -1);
    const char *json2 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]},\"__metadata__\":{\"k\":5}}";
    stt_json_rule(json2, 1, 0, TFS_ST402, stt_at(json2, "5}", 0), 0);
    const char *json3 = "{\"a\":{\"dtype\":\"U8\",\"shape\":\"1\",\"data_offsets\":[0,1]},\"__metadata__\":{},"
                        "\"__metadata__\":{}}";
    stt_json_rule(json3, 1, 0, TFS_ST403, stt_at(json3, "\"__metadata__\"", 1), -1);
}

/* ------------------------------------------------ scanning fault first (as before) */

static void test_scanning_fault_then_entry(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E ",\"x\":1e999},\"b\":5}";
    stt_json_rule(json, 1, 0, TFS_ST117, stt_at(json, "1e999", 0), 0);
    const char *json2 = "{\"__metadata__\":[],\"a\":5}";
    stt_json_rule(json2, 0, 0, TFS_ST401, stt_at(json2, "[]", 0), -1);
    const char *json3 = "{\"__metadata__\":null,\"__metadata__\":null,\"a\":" BAD_DTYPE "}";
    stt_json_rule(json3, 1, 0, TFS_ST403, stt_at(json3, "\"__metadata__\"", 1), -1);
}

/* ------------------------------------------------ entry faults against later rules */

static void test_entry_before_trailing_and_validation(void **state) {
    (void)state;
    const char *json = "{\"a\":5} x";
    stt_json_rule(json, 0, 0, TFS_ST201, stt_at(json, "5", 0), 0);
    /* two entry faults: the first in document order, with its own index */
    const char *json2 = "{\"a\":{" E "},\"b\":" BAD_DTYPE ",\"c\":5}";
    stt_json_rule(json2, 1, 0, TFS_ST210, stt_at(json2, "\"F99\"", 0), 1);
    /* an offsets gap (ST301) in "a", data_offsets [0] (ST221) in "b" */
    const char *json3 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[5,6]},"
                        "\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]}}";
    stt_json_rule(json3, 1, 0, TFS_ST221, stt_at(json3, "]}}", 0), 1);
    /* shape [1.5] and 8 data bytes too many: ST222, not ST307 */
    const char *json4 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1.5],\"data_offsets\":[0,1]}}";
    stt_json_rule(json4, 9, 0, TFS_ST222, stt_at(json4, "1.5", 0), 0);
}

/* ------------------------------------------------ one value, two faults */

static void test_scalar_scanned_before_its_type(void **state) {
    (void)state;
    /* serde_json's peek_invalid_type parses a scalar before it names its type */
    const char *json = "{\"__metadata__\":1e999}";
    stt_json_rule(json, 0, 0, TFS_ST117, stt_at(json, "1e999", 0), -1);
    const char *json2 = "{\"__metadata__\":{\"k\":\"v\",\"j\":\"\\q\"}}";
    stt_json_rule(json2, 0, 0, TFS_ST115, stt_at(json2, "\\q", 0), 1);
    const char *json3 = "{\"__metadata__\":{\"k\":nul}}";
    stt_json_rule(json3, 0, 0, TFS_ST110, stt_at(json3, "}}", 0), 0);
    stt_json_rule("tru", 0, 0, TFS_ST111, 8 + 3, -1);
    stt_json_rule("1e999", 0, 0, TFS_ST117, 8, -1);
    stt_json_rule("\"\\q\"", 0, 0, TFS_ST115, 9, -1);
    /* a container is not entered: its type is the error */
    const char *json4 = "{\"__metadata__\":[1e999]}";
    stt_json_rule(json4, 0, 0, TFS_ST401, stt_at(json4, "[", 0), -1);
    /* ... and a scalar that scans cleanly is a type error as before */
    const char *json5 = "{\"__metadata__\":{\"k\":null}}";
    stt_json_rule(json5, 0, 0, TFS_ST402, stt_at(json5, "null", 0), 0);
}

static void test_duplicate_metadata_before_colon(void **state) {
    (void)state;
    /* serde's derive rejects the second key before serde_json reads the colon */
    const char *json = "{\"__metadata__\":null,\"__metadata__\" x";
    stt_json_rule(json, 0, 0, TFS_ST403, stt_at(json, "\"__metadata__\"", 1), -1);
    const char *json2 = "{\"__metadata__\":null,\"__metadata__\"";
    stt_json_rule(json2, 0, 0, TFS_ST403, stt_at(json2, "\"__metadata__\"", 1), -1);
}

static void test_map_dtype_order(void **state) {
    (void)state;
    /* ContentRefDeserializer::deserialize_enum: exactly one key, then the name,
     * then the unit value */
    const char *json = "{\"a\":{\"dtype\":{\"F99\":null,\"x\":1},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST211, stt_at(json, ",\"x\"", 0), 0);
    const char *json2 = "{\"a\":{\"dtype\":{\"F99\":[1]},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json2, 1, 0, TFS_ST210, stt_at(json2, "\"F99\"", 0), 0);
    const char *json3 = "{\"a\":{\"dtype\":{\"U8\":[1]},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json3, 1, 0, TFS_ST211, stt_at(json3, "[1]}", 0), 0);
    /* a valid map-form dtype is still accepted */
    stt_json_ok("{\"a\":{\"dtype\":{\"U8\":null},\"shape\":[1],\"data_offsets\":[0,1]}}", 1, 0);
}

static void test_held_entry_keeps_later_indices(void **state) {
    (void)state;
    /* a faulty entry keeps its index: a JSON error in the third entry is index 2 */
    const char *json = "{\"a\":5,\"b\":{" E "},\"c\":{" E2 ",\"x\":\"\\q\"}}";
    stt_json_rule(json, 2, 0, TFS_ST115, stt_at(json, "\\q", 0), 2);
    /* a repeated name is merged: "a" again keeps index 0, so "c" is 1 */
    const char *json2 = "{\"a\":5,\"a\":{" E "},\"c\":{" E2 ",\"x\":+1}}";
    stt_json_rule(json2, 2, 0, TFS_ST110, stt_at(json2, "+1", 0), 1);
}

/* ------------------------------------------------ ties in offset order (st_validate.c sorts) */

/* Tensors with equal (start, end) are walked in file order (the crate walks
 * them in HashMap order: InvalidOffset either way, st-oracle `ERR
 * InvalidOffset` on both headers below).  The ST301 offset and index name the
 * later one in file order; an unstable sort (the insertion sort's `>` written
 * `>=`, on start or on end) names the earlier one. */
static void test_ties_keep_file_order_insertion_sort(void **state) {
    (void)state;
    /* out of offset order (so sorted), 4 entries: the insertion sort */
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[8,12]},"
                       "\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},"
                       "\"c\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[4,8]},"
                       "\"d\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[8,12]}}";
    stt_json_rule(json, 12, 0, TFS_ST301, stt_at(json, "[8,12]", 1), 3);
    /* equal starts, ends apart: the end orders them (e [2,4] after its zero-size twin z [2,2]) */
    const char *json2 = "{\"e\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[2,4]},"
                        "\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
                        "\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[2,2]},"
                        "\"f\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[2,4]}}";
    stt_json_rule(json2, 4, 0, TFS_ST301, stt_at(json2, "[2,4]", 1), 3);
}

/* Equal starts listed with the ends decreasing ("p" [0,4] before "q" [0,2]) are not in offset
 * order, whatever comes next: walked sorted, q [0,2], then p starts at 0 != 2 (ST301 on p,
 * index 0); walked in file order it would be q that fails (index 1).  st-oracle: ERR
 * InvalidOffset.  (An "already sorted?" test that looked at the next tensor's end, r [2,2],
 * instead of this one's takes the file order.) */
static void test_equal_starts_ends_decreasing_are_sorted(void **state) {
    (void)state;
    const char *json = "{\"p\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},"
                       "\"q\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
                       "\"r\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[2,2]},"
                       "\"s\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[4,8]}}";
    stt_json_rule(json, 8, 0, TFS_ST301, stt_at(json, "[0,4]", 0), 0);
}

/* The same with 41 entries: the radix sort (more than 32 records). */
static void test_ties_keep_file_order_radix_sort(void **state) {
    (void)state;
    char json[8192];
    size_t n = 0;
    n += (size_t)snprintf(json + n, sizeof json - n, "{");
    for (int i = 0; i < 40; i++) /* t00 [39,40] ... t39 [0,1]: backwards */
        n +=
            (size_t)snprintf(json + n, sizeof json - n,
                             "\"t%02d\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[%d,%d]},", i, 39 - i, 40 - i);
    n += (size_t)snprintf(json + n, sizeof json - n,
                          "\"dup\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[20,21]}}");
    /* t19 [20,21] comes first in file order, so the duplicate (index 40) fails */
    stt_json_rule(json, 40, 0, TFS_ST301, stt_at(json, "[20,21]", 1), 40);
    /* a zero-size tensor written after the tensor that shares its start: sorted on the end's
     * lowest byte (a radix sort that skips byte 0 walks t19 first: ST301 on a valid file);
     * the same header is corpus/safetensors valid-offsets-zero-size-tie-41 (st-oracle: OK 41) */
    n -= strlen("\"dup\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[20,21]}}");
    snprintf(json + n, sizeof json - n, "\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[20,20]}}");
    stt_json_ok(json, 40, 0);
}

/* corpus/safetensors ST308-order-wide-offsets-{32,33,40} (generators/st_sort.py; st-oracle: ERR
 * MetadataIncompleteBuffer): ST308 names the tensor that ends last in (start, end) order, the
 * zero-size t<n-1> at the very end (the tensor before it ends there too), by its position in
 * file order and its data_offsets; both read here from the file's text. */
static void test_ST308_names_last_in_offset_order(void **state) {
    (void)state;
    static const int counts[] = {32, 33, 40};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        char path[512], last[16];
        snprintf(path, sizeof path, TFS_SOURCE_DIR "/corpus/safetensors/ST308-order-wide-offsets-%d.safetensors",
                 counts[k]);
        snprintf(last, sizeof last, "\"t%02d\":", counts[k] - 1);
        stt_buf b = stt_read_file(path);
        char *json = calloc(1, b.len - 8 + 1);
        assert_non_null(json);
        memcpy(json, b.p + 8, b.len - 8);
        const char *at = strstr(json, last);
        assert_non_null(at);
        int64_t index = 0;
        for (const char *q = strstr(json, "\"t"); q && q < at; q = strstr(q + 1, "\"t")) index++;
        const char *offs = strstr(at, "\"data_offsets\":");
        assert_non_null(offs);
        stt_expect_rule(&b, 0, TFS_ST308, 8u + (uint64_t)(offs - json) + strlen("\"data_offsets\":"), index);
        free(json);
        stt_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entry_then_number_range),
        cmocka_unit_test(test_entry_then_syntax),
        cmocka_unit_test(test_entry_then_string_faults),
        cmocka_unit_test(test_entry_then_depth),
        cmocka_unit_test(test_entry_then_metadata),
        cmocka_unit_test(test_scanning_fault_then_entry),
        cmocka_unit_test(test_entry_before_trailing_and_validation),
        cmocka_unit_test(test_scalar_scanned_before_its_type),
        cmocka_unit_test(test_duplicate_metadata_before_colon),
        cmocka_unit_test(test_map_dtype_order),
        cmocka_unit_test(test_held_entry_keeps_later_indices),
        cmocka_unit_test(test_ties_keep_file_order_insertion_sort),
        cmocka_unit_test(test_equal_starts_ends_decreasing_are_sorted),
        cmocka_unit_test(test_ties_keep_file_order_radix_sort),
        cmocka_unit_test(test_ST308_names_last_in_offset_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
