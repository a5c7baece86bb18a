/* test_rules.c: the rules table (rules.def) is well formed: ids unique and
 * matching their codes, codes sorted (rules.c binary-searches), every field
 * non-empty, categories from the canonical lists of the design. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/tfs.h"

static const char *const k_st_categories[] = {
    "HeaderTooSmall",    "HeaderTooLarge",           "InvalidHeaderLength",
    "InvalidHeader",     "InvalidHeaderStart",       "InvalidHeaderDeserialization",
    "InvalidOffset",     "ValidationOverflow",       "MisalignedSlice",
    "TensorInvalidInfo", "MetadataIncompleteBuffer",
};
static const char *const k_gg_categories[] = {
    "BAD_MAGIC",
    "BAD_VERSION",
    "BAD_N_TENSORS",
    "BAD_N_KV",
    "STRING_TOO_LONG",
    "EMPTY_KEY",
    "DUPLICATE_KEY",
    "BAD_KV_TYPE",
    "BAD_ALIGN_TYPE",
    "BAD_ALIGN",
    "NAME_TOO_LONG",
    "DUPLICATE_NAME",
    "BAD_N_DIMS",
    "NEGATIVE_DIM",
    "NE_TOO_BIG",
    "BAD_TYPE",
    "BLOCK_SIZE",
    "NBYTES_TOO_BIG",
    "DATA_START_PAST_EOF",
    "BAD_OFFSET",
    "SIZE_OVERFLOW",
    "DATA_MISSING",
    "TRUNCATED",
    /* strict rules ggml never checks: categories of their own (issue 18) */
    "BAD_KEY_UTF8",
    "BAD_NAME_UTF8",
};

static int in_list(const char *s, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0) return 1;
    return 0;
}

static void test_ids_match_codes(void **state) {
    (void)state;
    assert_true(tfs_rule_count() > 60);
    int prev = 0;
    for (size_t i = 0; i < tfs_rule_count(); i++) {
        tfs_rule r = tfs_rule_at(i);
        const char *id = tfs_rule_id(r);
        assert_int_equal(strlen(id), 5);
        int n = atoi(id + 2);
        int base = id[0] == 'S' ? 1000 : 2000;
        assert_true((id[0] == 'S' && id[1] == 'T') || (id[0] == 'G' && id[1] == 'G'));
        assert_int_equal((int)r, base + n);
        assert_true((int)r > prev); /* sorted, unique */
        prev = (int)r;
        assert_int_equal(tfs_rule_from_id(id), r);
        assert_true(strlen(tfs_rule_message(r)) > 0);
        assert_true(strlen(tfs_rule_ref(r)) > 0);
        const char *cat = tfs_rule_category(r);
        if (id[0] == 'S')
            assert_true(in_list(cat, k_st_categories, sizeof k_st_categories / sizeof *k_st_categories));
        else
            assert_true(in_list(cat, k_gg_categories, sizeof k_gg_categories / sizeof *k_gg_categories));
    }
}

static void test_lookup_examples(void **state) {
    (void)state;
    assert_int_equal(TFS_ST301, 1301);
    assert_string_equal(tfs_rule_id(TFS_GG204), "GG204");
    assert_string_equal(tfs_rule_category(TFS_GG204), "BAD_N_DIMS");
    assert_string_equal(tfs_rule_category(TFS_ST002), "HeaderTooLarge");
    assert_int_equal(tfs_rule_profile_of(TFS_GG304), TFS_PROFILE_DATA);
    assert_int_equal(tfs_rule_profile_of(TFS_ST501), TFS_PROFILE_STRICT);
    assert_int_equal(tfs_rule_from_id("ST999"), TFS_RULE_NONE);
    assert_int_equal(tfs_rule_from_id(NULL), TFS_RULE_NONE);
    assert_string_equal(tfs_rule_id(TFS_RULE_NONE), "");
    assert_string_equal(tfs_rule_id((tfs_rule)1999), "?");
}

/* Issue 18: a key or tensor name that is not UTF-8 (GG504, GG508) is neither
 * an empty key nor a name too long: each has a category of its own, raised
 * by no other rule. */
static void test_strict_utf8_categories(void **state) {
    (void)state;
    assert_string_equal(tfs_rule_category(TFS_GG504), "BAD_KEY_UTF8");
    assert_string_equal(tfs_rule_category(TFS_GG508), "BAD_NAME_UTF8");
    for (size_t i = 0; i < tfs_rule_count(); i++) {
        tfs_rule r = tfs_rule_at(i);
        if (r == TFS_GG504 || r == TFS_GG508) continue;
        assert_string_not_equal(tfs_rule_category(r), "BAD_KEY_UTF8");
        assert_string_not_equal(tfs_rule_category(r), "BAD_NAME_UTF8");
    }
}

/* tfs.h's spellings: every status (the CLI's verdicts), every format, "?" / "unknown" for other values; the
 * i-th rule is TFS_RULE_NONE from tfs_rule_count() on */
static void test_status_and_format_names(void **state) {
    (void)state;
    static const struct {
        tfs_status st;
        const char *name;
    } s[] = {{TFS_OK, "ok"},
             {TFS_INVALID, "invalid"},
             {TFS_EIO, "io_error"},
             {TFS_ENOMEM, "out_of_memory"},
             {TFS_EARG, "bad_argument"},
             {TFS_ETYPE, "type_mismatch"},
             {TFS_ERANGE, "out_of_range"}};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) assert_string_equal(tfs_status_name(s[i].st), s[i].name);
    assert_string_equal(tfs_status_name((tfs_status)7), "?");
    assert_string_equal(tfs_format_name(TFS_FORMAT_SAFETENSORS), "safetensors");
    assert_string_equal(tfs_format_name(TFS_FORMAT_GGUF), "gguf");
    assert_string_equal(tfs_format_name(TFS_FORMAT_UNKNOWN), "unknown");
    assert_string_equal(tfs_format_name((tfs_format)9), "unknown");
    assert_int_not_equal(tfs_rule_at(tfs_rule_count() - 1u), TFS_RULE_NONE);
    assert_int_equal(tfs_rule_at(tfs_rule_count()), TFS_RULE_NONE);
    assert_int_equal(tfs_rule_at(SIZE_MAX), TFS_RULE_NONE);
}

static void test_type_tables(void **state) {
    (void)state;
    assert_int_equal(TFS_ST_DTYPE_COUNT, 22);
    uint32_t d;
    assert_int_equal(tfs_st_dtype_from_name("F8_E4M3FNUZ", 11, &d), 0);
    assert_string_equal(tfs_st_dtype_name(d), "F8_E4M3FNUZ");
    assert_int_equal(tfs_st_dtype_bits(d), 8);
    assert_int_equal(tfs_st_dtype_from_name("F6_E2M3", 7, &d), 0);
    assert_int_equal(tfs_st_dtype_bits(d), 6);
    assert_int_equal(tfs_st_dtype_from_name("f32", 3, &d), -1);
    assert_int_equal(tfs_st_dtype_from_name("F8_E4M3FN", 9, &d), -1);
    assert_int_equal(tfs_gg_type_block_size(12), 256);
    assert_int_equal(tfs_gg_type_size(12), 144);
    assert_string_equal(tfs_gg_type_name(12), "q4_K");
    assert_null(tfs_gg_type_name(4));
    assert_int_equal(tfs_gg_type_block_size(36), 0);
    assert_int_equal(tfs_gg_type_size(40), 36);
    assert_int_equal(tfs_gg_type_block_size(43), 0);
    assert_int_equal(tfs_gg_vtype_size(TFS_GG_F64), 8);
    assert_int_equal(tfs_gg_vtype_size(TFS_GG_STRING), 0);
    assert_string_equal(tfs_gg_vtype_name(7), "bool");
    assert_null(tfs_gg_vtype_name(13));
}

static void test_detect(void **state) {
    (void)state;
    assert_int_equal(tfs_detect_format((const uint8_t *)"GGUF", 4, NULL), TFS_FORMAT_GGUF);
    assert_int_equal(tfs_detect_format((const uint8_t *)"GGUX", 4, "x.gguf"), TFS_FORMAT_GGUF);
    assert_int_equal(tfs_detect_format((const uint8_t *)"GGUX", 4, "x.safetensors"), TFS_FORMAT_SAFETENSORS);
    assert_int_equal(tfs_detect_format((const uint8_t *)"GG", 2, NULL), TFS_FORMAT_SAFETENSORS);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_match_codes),
        cmocka_unit_test(test_lookup_examples),
        cmocka_unit_test(test_strict_utf8_categories),
        cmocka_unit_test(test_status_and_format_names),
        cmocka_unit_test(test_type_tables),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
