/* test_st_rules.c: every ST rule of rules.def triggered at least once, with
 * its rule id, file offset and index asserted (buffer and file API). */
#include "st_test_util.h"

/* A valid 1-byte U8 tensor body; files below add 1 data byte for it. */
#define E "\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]"

/* ------------------------------------------------------------ framing */

static void test_ST001_short_file(void **state) {
    (void)state;
    uint8_t seven[7] = {2, 0, 0, 0, 0, 0, 0};
    stt_buf b = {seven, sizeof seven};
    stt_expect_rule(&b, 0, TFS_ST001, 0, -1);
    stt_buf empty = {seven, 0};
    stt_expect_rule(&empty, 0, TFS_ST001, 0, -1);
}

static void test_ST002_header_too_large(void **state) {
    (void)state;
    /* 100,000,001 (buglog S3): too large, reported before the length check */
    stt_buf b = stt_make("{}", 2, 100000001u, 0);
    stt_expect_rule(&b, 0, TFS_ST002, 0, -1);
    stt_free(&b);
    b = stt_make("", 0, UINT64_MAX, 0);
    stt_expect_rule(&b, 0, TFS_ST002, 0, -1);
    stt_free(&b);
}

static void test_ST003_header_past_eof(void **state) {
    (void)state;
    /* exactly 100,000,000 is allowed by ST002, so the length check fires */
    stt_buf b = stt_make("{}", 2, 100000000u, 0);
    stt_expect_rule(&b, 0, TFS_ST003, 0, -1);
    stt_free(&b);
    b = stt_make("{}  ", 4, 5, 0); /* one byte short */
    stt_expect_rule(&b, 0, TFS_ST003, 0, -1);
    stt_free(&b);
}

/* ------------------------------------------------------------ UTF-8, JSON */

static void test_ST101_overlong_utf8(void **state) {
    (void)state;
    const char *json = "{\"a\xC0\xAF\":{" E "}}";
    stt_json_rule(json, 1, 0, TFS_ST101, stt_at(json, "\xC0", 0), -1);
    /* UTF-8 is checked before JSON: an invalid byte after a JSON error wins */
    const char *json2 = "{\"a\" x \xFF}";
    stt_json_rule(json2, 0, 0, TFS_ST101, stt_at(json2, "\xFF", 0), -1);
}

static void test_ST110_unexpected_byte(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "},}"; /* trailing comma */
    stt_json_rule(json, 1, 0, TFS_ST110, stt_at(json, ",}", 0) + 1, -1);
    const char *json2 = "{\"a\" {" E "}}"; /* missing colon */
    stt_json_rule(json2, 1, 0, TFS_ST110, stt_at(json2, "{\"d", 0), -1);
}

static void test_ST111_unexpected_end(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "}";
    stt_json_rule(json, 1, 0, TFS_ST111, 8 + strlen(json), -1);
    stt_json_rule("", 0, 0, TFS_ST111, 8, -1); /* N = 0 */
    stt_json_rule("  ", 0, 0, TFS_ST111, 10, -1);
}

static void test_ST112_trailing_characters(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "}} {}";
    stt_json_rule(json, 1, 0, TFS_ST112, stt_at(json, "} {", 0) + 2, -1);
    /* NUL padding (buglog: C writers) */
    static const char nul[] = "{}\0\0";
    stt_buf b = stt_make(nul, 4, 4, 0);
    stt_expect_rule(&b, 0, TFS_ST112, 10, -1);
    stt_free(&b);
}

static char *nested(int depth_total) {
    /* {"a":{E,"x": [ ... ] }} with total depth depth_total: outer object 1,
     * entry 2, so depth_total - 2 arrays. */
    int arrays = depth_total - 2;
    size_t cap = strlen(E) + 2 * (size_t)arrays + 64;
    char *s = malloc(cap);
    assert_non_null(s);
    int n = snprintf(s, cap, "{\"a\":{" E ",\"x\":");
    for (int i = 0; i < arrays; i++) s[n++] = '[';
    for (int i = 0; i < arrays; i++) s[n++] = ']';
    memcpy(s + n, "}}", 3);
    return s;
}

static void test_ST113_nesting_depth(void **state) {
    (void)state;
    /* depth 128 (serde_json remaining_depth reaches 0) fails at the 128th
     * container: the 126th array */
    char *s = nested(128);
    stt_json_rule(s, 1, 0, TFS_ST113, stt_at(s, "\"x\":", 0) + 4 + 125, 0);
    free(s);
    s = nested(100000); /* buglog S7 */
    stt_json_rule(s, 1, 0, TFS_ST113, stt_at(s, "\"x\":", 0) + 4 + 125, 0);
    free(s);
    s = nested(127);
    stt_json_ok(s, 1, 0);
    free(s);
}

static void test_ST114_control_character(void **state) {
    (void)state;
    const char *json = "{\"a\tb\":{" E "}}";
    stt_json_rule(json, 1, 0, TFS_ST114, stt_at(json, "\t", 0), -1);
}

static void test_ST115_invalid_escape(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E ",\"x\":\"\\q\"}}";
    stt_json_rule(json, 1, 0, TFS_ST115, stt_at(json, "\\q", 0), 0);
    const char *json2 = "{\"a\":{" E ",\"x\":\"\\u12G4\"}}";
    stt_json_rule(json2, 1, 0, TFS_ST115, stt_at(json2, "\\u", 0), 0);
}

static void test_ST116_lone_surrogate(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E ",\"x\":\"\\ud800\"}}";
    stt_json_rule(json, 1, 0, TFS_ST116, stt_at(json, "\\ud800", 0), 0);
    const char *json2 = "{\"\\udc00\":{" E "}}";
    stt_json_rule(json2, 1, 0, TFS_ST116, stt_at(json2, "\\udc00", 0), -1);
    const char *json3 = "{\"\\ud800\\u0041\":{" E "}}";
    stt_json_rule(json3, 1, 0, TFS_ST116, stt_at(json3, "\\ud800", 0), -1);
}

static void test_ST117_number_out_of_range(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E ",\"x\":1e400}}";
    stt_json_rule(json, 1, 0, TFS_ST117, stt_at(json, "1e400", 0), 0);
}

static void test_ST118_not_an_object(void **state) {
    (void)state;
    stt_json_rule("[]", 0, 0, TFS_ST118, 8, -1);
    stt_json_rule(" null", 0, 0, TFS_ST118, 9, -1);
}

/* ------------------------------------------------------------ entries */

static void test_ST201_entry_wrong_type(void **state) {
    (void)state;
    const char *json = "{\"a\":null}";
    stt_json_rule(json, 0, 0, TFS_ST201, stt_at(json, "null", 0), 0);
    const char *json2 = "{\"a\":{" E "},\"b\":\"U8\"}";
    stt_json_rule(json2, 1, 0, TFS_ST201, stt_at(json2, "\"U8\"}", 0), 1);
}

static void test_ST202_missing_field(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST202, stt_at(json, "{\"shape", 0), 0);
    const char *json2 = "{\"a\":{}}";
    stt_json_rule(json2, 0, 0, TFS_ST202, stt_at(json2, "{}", 0), 0);
}

static void test_ST203_repeated_field(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E ",\"dtype\":\"U8\"}}";
    stt_json_rule(json, 1, 0, TFS_ST203, stt_at(json, "\"dtype\"", 1), 0);
}

static void test_ST204_array_entry_length(void **state) {
    (void)state;
    const char *json = "{\"a\":[\"U8\",[1],[0,1],1]}";
    stt_json_rule(json, 1, 0, TFS_ST204, stt_at(json, ",1]}", 0), 0);
    const char *json2 = "{\"a\":[\"U8\",[1]]}";
    stt_json_rule(json2, 1, 0, TFS_ST204, stt_at(json2, "]]", 0) + 1, 0);
}

static void test_ST210_unknown_dtype(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"F8_E4M3FN\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST210, stt_at(json, "\"F8_", 0), 0);
    const char *json2 = "{\"a\":{\"dtype\":\"u8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json2, 1, 0, TFS_ST210, stt_at(json2, "\"u8\"", 0), 0);
}

static void test_ST211_dtype_wrong_type(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":8,\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST211, stt_at(json, "8,", 0), 0);
    const char *json2 = "{\"a\":{\"dtype\":{\"U8\":1},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(json2, 1, 0, TFS_ST211, stt_at(json2, "1}", 0), 0);
}

static void test_ST220_shape_not_int_array(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":1,\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST220, stt_at(json, "1,", 0), 0);
    const char *json2 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[\"1\"],\"data_offsets\":[0,1]}}";
    stt_json_rule(json2, 1, 0, TFS_ST220, stt_at(json2, "\"1\"", 0), 0);
}

static void test_ST221_offsets_not_pair(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":{\"0\":0,\"1\":1}}}";
    stt_json_rule(json, 1, 0, TFS_ST221, stt_at(json, "{\"0\"", 0), 0);
    const char *json2 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1,2]}}";
    stt_json_rule(json2, 1, 0, TFS_ST221, stt_at(json2, ",2]", 0), 0);
    const char *json3 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0]}}";
    stt_json_rule(json3, 1, 0, TFS_ST221, stt_at(json3, "0]", 0) + 1, 0);
}

static void test_ST222_not_a_usize(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1e0],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST222, stt_at(json, "1e0", 0), 0);
    const char *json2 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551616],\"data_offsets\":[0,1]}}";
    stt_json_rule(json2, 1, 0, TFS_ST222, stt_at(json2, "18446", 0), 0);
    const char *json3 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[-0,1]}}";
    stt_json_rule(json3, 1, 0, TFS_ST222, stt_at(json3, "-0", 0), 0);
}

/* ------------------------------------------------------------ offsets, sizes */

static void test_ST301_gap(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}";
    stt_json_rule(json, 2, 0, TFS_ST301, stt_at(json, "[1,2]", 0), 0);
    /* overlap: b starts inside a (buglog S6) */
    const char *json2 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
                        "\"b\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[1,3]}}";
    stt_json_rule(json2, 3, 0, TFS_ST301, stt_at(json2, "[1,3]", 0), 1);
}

static void test_ST302_end_before_start(void **state) {
    (void)state;
    /* buglog S5: begin > end */
    const char *json = "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                       "\"b\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,2]}}";
    stt_json_rule(json, 4, 0, TFS_ST302, stt_at(json, "[4,2]", 0), 1);
}

static void test_ST303_shape_overflow(void **state) {
    (void)state;
    /* buglog S8: [2^32, 2^32, 4] wraps to 0 in 64 bits */
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4294967296,4294967296,4],\"data_offsets\":[0,0]}}";
    stt_json_rule(json, 0, 0, TFS_ST303, stt_at(json, "[4294967296", 0), 0);
}

static void test_ST304_bits_overflow(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551615],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST304, stt_at(json, "{\"dtype", 0), 0);
}

static void test_ST305_misaligned_bits(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}";
    stt_json_rule(json, 2, 0, TFS_ST305, stt_at(json, "{\"dtype", 0), 0);
    const char *json2 = "{\"a\":[\"F6_E2M3\",[2],[0,2]]}";
    stt_json_rule(json2, 2, 0, TFS_ST305, stt_at(json2, "[\"F6", 0), 0);
}

static void test_ST306_size_mismatch(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,1]}}";
    stt_json_rule(json, 1, 0, TFS_ST306, stt_at(json, "[0,1]", 0), 0);
}

static void test_ST307_trailing_bytes(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "}}";
    stt_json_rule(json, 3, 0, TFS_ST307, 8 + strlen(json) + 1, -1);
    stt_json_rule("{}", 1, 0, TFS_ST307, 10, -1);
}

static void test_ST308_truncated_data(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "},\"b\":{\"dtype\":\"U16\",\"shape\":[2],\"data_offsets\":[1,5]}}";
    stt_json_rule(json, 3, 0, TFS_ST308, stt_at(json, "[1,5]", 0), 1);
    /* a bad tensor is reported before the truncation */
    const char *json2 = "{\"a\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[0,2]}}";
    stt_json_rule(json2, 0, 0, TFS_ST306, stt_at(json2, "[0,2]", 0), 0);
}

/* ------------------------------------------------------------ __metadata__ */

static void test_ST401_metadata_wrong_type(void **state) {
    (void)state;
    const char *json = "{\"__metadata__\":[],\"a\":{" E "}}";
    stt_json_rule(json, 1, 0, TFS_ST401, stt_at(json, "[]", 0), -1);
}

static void test_ST402_metadata_value_not_string(void **state) {
    (void)state;
    const char *json = "{\"__metadata__\":{\"k\":\"v\",\"n\":1},\"a\":{" E "}}";
    stt_json_rule(json, 1, 0, TFS_ST402, stt_at(json, "1}", 0), 1);
}

/* A repeated key's value overwrites the first pair's and keeps its position:
 * an error in it reports that pair's index, 0 for the first key (a check of
 * dup > 0 instead of dup >= 0 would report 2), 1 for the second. */
static void test_ST402_repeated_key_reports_first_index(void **state) {
    (void)state;
    const char *json = "{\"__metadata__\":{\"k\":\"v\",\"m\":\"w\",\"k\":1},\"a\":{" E "}}";
    stt_json_rule(json, 1, 0, TFS_ST402, stt_at(json, "1}", 0), 0);
    const char *json2 = "{\"__metadata__\":{\"k\":\"v\",\"m\":\"w\",\"m\":[]},\"a\":{" E "}}";
    stt_json_rule(json2, 1, 0, TFS_ST402, stt_at(json2, "[]}", 0), 1);
}

static void test_ST403_metadata_twice(void **state) {
    (void)state;
    const char *json = "{\"__metadata__\":null,\"a\":{" E "},\"__metadata__\":{}}";
    stt_json_rule(json, 1, 0, TFS_ST403, stt_at(json, "\"__metadata__\"", 1), -1);
}

/* ------------------------------------------------------------ strict profile */

static void test_ST501_duplicate_name(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "},\"a\":{" E "}}";
    stt_json_ok(json, 1, 0); /* crate: last wins */
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST501, stt_at(json, "\"a\"", 1), 0);
}

static void test_ST502_header_start(void **state) {
    (void)state;
    const char *json = "\n{\"a\":{" E "}}";
    stt_json_ok(json, 1, 0);
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST502, 8, -1);
}

static void test_ST503_metadata_duplicate_key(void **state) {
    (void)state;
    const char *json = "{\"__metadata__\":{\"k\":\"a\",\"k\":\"b\"},\"a\":{" E "}}";
    stt_json_ok(json, 1, 0);
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST503, stt_at(json, "\"k\"", 1), 0);
}

static void test_ST504_unknown_field(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E ",\"x\":true}}";
    stt_json_ok(json, 1, 0);
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST504, stt_at(json, "\"x\"", 0), 0);
}

static void test_ST505_array_form(void **state) {
    (void)state;
    const char *json = "{\"a\":[\"U8\",[1],[0,1]]}";
    stt_json_ok(json, 1, 0);
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST505, stt_at(json, "[\"U8", 0), 0);
}

static void test_ST506_map_form_dtype(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":{\"U8\":null},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_ok(json, 1, 0);
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST506, stt_at(json, "{\"U8", 0), 0);
}

static void test_ST507_padding_not_spaces(void **state) {
    (void)state;
    const char *json = "{\"a\":{" E "}}  \t\n";
    stt_json_ok(json, 1, 0);
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST507, stt_at(json, "\t", 0), -1);
    stt_json_ok("{\"a\":{" E "}}      ", 1, TFS_STRICT); /* spaces are fine */
}

static void test_strict_reports_canonical_first(void **state) {
    (void)state;
    /* strict violations (leading space, array form) never hide a canonical
     * error: the default-profile rule is also the strict-profile rule */
    const char *json = " {\"a\":[\"U8\",[2],[0,1]]}";
    stt_json_rule(json, 1, TFS_STRICT, TFS_ST306, stt_at(json, "[0,1]", 0), 0);
}

static void test_every_st_rule_has_a_test(void **state) {
    (void)state;
    /* the ST rows of rules.def this file covers; a new row must get a test */
    static const char *const covered[] = {
        "ST001", "ST002", "ST003", "ST101", "ST110", "ST111", "ST112", "ST113", "ST114", "ST115",
        "ST116", "ST117", "ST118", "ST201", "ST202", "ST203", "ST204", "ST210", "ST211", "ST220",
        "ST221", "ST222", "ST301", "ST302", "ST303", "ST304", "ST305", "ST306", "ST307", "ST308",
        "ST401", "ST402", "ST403", "ST501", "ST502", "ST503", "ST504", "ST505", "ST506", "ST507",
    };
    size_t n_st = 0;
    for (size_t i = 0; i < tfs_rule_count(); i++) {
        const char *id = tfs_rule_id(tfs_rule_at(i));
        if (id[0] != 'S') continue;
        if (tfs_rule_profile_of(tfs_rule_at(i)) == TFS_PROFILE_RETIRED) continue;
        n_st++;
        int found = 0;
        for (size_t k = 0; k < sizeof covered / sizeof *covered; k++) found |= strcmp(covered[k], id) == 0;
        if (!found) fail_msg("rule %s has no test in test_st_rules.c", id);
    }
    assert_int_equal(n_st, sizeof covered / sizeof *covered);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ST001_short_file),
        cmocka_unit_test(test_ST002_header_too_large),
        cmocka_unit_test(test_ST003_header_past_eof),
        cmocka_unit_test(test_ST101_overlong_utf8),
        cmocka_unit_test(test_ST110_unexpected_byte),
        cmocka_unit_test(test_ST111_unexpected_end),
        cmocka_unit_test(test_ST112_trailing_characters),
        cmocka_unit_test(test_ST113_nesting_depth),
        cmocka_unit_test(test_ST114_control_character),
        cmocka_unit_test(test_ST115_invalid_escape),
        cmocka_unit_test(test_ST116_lone_surrogate),
        cmocka_unit_test(test_ST117_number_out_of_range),
        cmocka_unit_test(test_ST118_not_an_object),
        cmocka_unit_test(test_ST201_entry_wrong_type),
        cmocka_unit_test(test_ST202_missing_field),
        cmocka_unit_test(test_ST203_repeated_field),
        cmocka_unit_test(test_ST204_array_entry_length),
        cmocka_unit_test(test_ST210_unknown_dtype),
        cmocka_unit_test(test_ST211_dtype_wrong_type),
        cmocka_unit_test(test_ST220_shape_not_int_array),
        cmocka_unit_test(test_ST221_offsets_not_pair),
        cmocka_unit_test(test_ST222_not_a_usize),
        cmocka_unit_test(test_ST301_gap),
        cmocka_unit_test(test_ST302_end_before_start),
        cmocka_unit_test(test_ST303_shape_overflow),
        cmocka_unit_test(test_ST304_bits_overflow),
        cmocka_unit_test(test_ST305_misaligned_bits),
        cmocka_unit_test(test_ST306_size_mismatch),
        cmocka_unit_test(test_ST307_trailing_bytes),
        cmocka_unit_test(test_ST308_truncated_data),
        cmocka_unit_test(test_ST401_metadata_wrong_type),
        cmocka_unit_test(test_ST402_metadata_value_not_string),
        cmocka_unit_test(test_ST402_repeated_key_reports_first_index),
        cmocka_unit_test(test_ST403_metadata_twice),
        cmocka_unit_test(test_ST501_duplicate_name),
        cmocka_unit_test(test_ST502_header_start),
        cmocka_unit_test(test_ST503_metadata_duplicate_key),
        cmocka_unit_test(test_ST504_unknown_field),
        cmocka_unit_test(test_ST505_array_form),
        cmocka_unit_test(test_ST506_map_form_dtype),
        cmocka_unit_test(test_ST507_padding_not_spaces),
        cmocka_unit_test(test_strict_reports_canonical_first),
        cmocka_unit_test(test_every_st_rule_has_a_test),
    };
    return cmocka_run_group_tests_name("safetensors rules", tests, NULL, NULL);
}
