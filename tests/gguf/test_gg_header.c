/* test_gg_header.c: GGUF fixed header rules GG001-GG003, GG010-GG013,
 * GG020, GG021 (gguf.cpp gguf_init_from_reader, "file magic" and "header"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"

#include <string.h>

static void test_GG001_empty_file(void **state) {
    (void)state;
    gg_expect_invalid_bytes((const uint8_t *)"", 0, 0, TFS_GG001, 0, -1);
}

static void test_GG001_three_bytes(void **state) {
    (void)state;
    gg_expect_invalid_bytes((const uint8_t *)"GGU", 3, 0, TFS_GG001, 0, -1);
    gg_expect_invalid_bytes((const uint8_t *)"GGU", 3, TFS_HEADER_ONLY, TFS_GG001, 0, -1);
}

static void test_GG002_bad_magic(void **state) {
    (void)state;
    gb b = {0};
    gb_bytes(&b, "FUGG", 4);
    gb_u32(&b, 3);
    gb_u64(&b, 0);
    gb_u64(&b, 0);
    gg_expect_invalid(&b, 0, TFS_GG002, 0, -1);
    b.p[0] = 'G', b.p[3] = 'g'; /* case matters */
    gg_expect_invalid(&b, 0, TFS_GG002, 0, -1);
    gg_expect_invalid_bytes((const uint8_t *)"GGUG", 4, 0, TFS_GG002, 0, -1);
    gb_free(&b);
}

static void test_GG003_truncated_version(void **state) {
    (void)state;
    gg_expect_invalid_bytes((const uint8_t *)"GGUF", 4, 0, TFS_GG003, 4, -1);
    gg_expect_invalid_bytes((const uint8_t *)"GGUF\3\0\0", 7, 0, TFS_GG003, 4, -1);
}

static void test_GG003_truncated_n_tensors(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 0);
    gg_expect_invalid_bytes(b.p, 8, 0, TFS_GG003, 8, -1);
    gg_expect_invalid_bytes(b.p, 15, 0, TFS_GG003, 8, -1);
    gb_free(&b);
}

static void test_GG003_truncated_n_kv(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 0);
    gg_expect_invalid_bytes(b.p, 16, 0, TFS_GG003, 16, -1);
    gg_expect_invalid_bytes(b.p, 23, TFS_HEADER_ONLY, TFS_GG003, 16, -1);
    gb_free(&b);
}

static void test_GG010_version_0(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 0, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG010, 4, -1);
    /* the version is judged before n_tensors is read */
    gg_expect_invalid_bytes(b.p, 8, 0, TFS_GG010, 4, -1);
    gb_free(&b);
}

static void test_GG011_big_endian_version(void **state) {
    (void)state;
    const uint32_t versions[] = {0x03000000u, 0x02000000u, 0x00010000u, 0xFFFF0000u};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        gb b = {0};
        gb_header(&b, versions[i], 0, 0);
        gg_expect_invalid(&b, 0, TFS_GG011, 4, -1);
        gb_free(&b);
    }
}

static void test_GG012_version_1(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 1, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG012, 4, -1);
    gb_free(&b);
}

static void test_GG013_version_above_3(void **state) {
    (void)state;
    const uint32_t versions[] = {4u, 0xFFFFu, 0x00010001u, 0xFFFF0003u};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        gb b = {0};
        gb_header(&b, versions[i], 0, 0);
        gg_expect_invalid(&b, 0, TFS_GG013, 4, -1);
        gb_free(&b);
    }
}

static void test_valid_versions_2_and_3(void **state) {
    (void)state;
    for (uint32_t v = 2; v <= 3; v++) {
        gb b = {0};
        gb_header(&b, v, 0, 0);
        tfs_header *h = gg_expect_ok(&b, 0);
        assert_int_equal(h->version, v);
        assert_int_equal(h->file_size, 24);
        assert_int_equal(h->header_size, 24);
        assert_int_equal(h->data_offset, 24);
        assert_int_equal(h->data_size, 0);
        assert_int_equal(h->alignment, 32);
        assert_int_equal(h->n_kv, 0);
        assert_int_equal(h->n_tensors, 0);
        assert_null(h->kv);
        assert_null(h->tensors);
        tfs_header_free(h);
        gb_free(&b);
    }
}

static void test_GG020_n_tensors_negative(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, UINT64_MAX, 0);
    gg_expect_invalid(&b, 0, TFS_GG020, 8, -1);
    gb_free(&b);
    gb_header(&b, 3, UINT64_C(1) << 63, 0);
    gg_expect_invalid(&b, 0, TFS_GG020, 8, -1);
    gb_free(&b);
}

static void test_GG020_n_tensors_above_size_max_344(void **state) {
    (void)state;
    const uint64_t bound = UINT64_MAX / 344u;
    assert_int_equal(bound, UINT64_C(53624256028225440));
    gb b = {0};
    gb_header(&b, 3, bound + 1u, 0);
    gg_expect_invalid(&b, 0, TFS_GG020, 8, -1);
    /* judged before n_kv is read */
    gg_expect_invalid_bytes(b.p, 16, 0, TFS_GG020, 8, -1);
    gb_free(&b);
    /* the bound itself passes: the first tensor info is then missing */
    gb_header(&b, 3, bound, 0);
    gg_expect_invalid(&b, 0, TFS_GG201, 24, 0);
    gb_free(&b);
}

static void test_GG021_n_kv_negative(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, UINT64_MAX);
    gg_expect_invalid(&b, 0, TFS_GG021, 16, -1);
    gb_free(&b);
}

static void test_GG021_n_kv_above_size_max_88(void **state) {
    (void)state;
    const uint64_t bound = UINT64_MAX / 88u;
    assert_int_equal(bound, UINT64_C(209622091746699450));
    gb b = {0};
    gb_header(&b, 3, 0, bound + 1u);
    gg_expect_invalid(&b, 0, TFS_GG021, 16, -1);
    gb_free(&b);
    gb_header(&b, 3, 0, bound);
    gg_expect_invalid(&b, 0, TFS_GG103, 24, 0);
    gb_free(&b);
}

static void test_header_rules_order(void **state) {
    (void)state;
    /* bad version wins over bad counts; bad n_tensors over bad n_kv */
    gb b = {0};
    gb_header(&b, 1, UINT64_MAX, UINT64_MAX);
    gg_expect_invalid(&b, 0, TFS_GG012, 4, -1);
    gb_free(&b);
    gb_header(&b, 3, UINT64_MAX, UINT64_MAX);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG020, 8, -1);
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG001_empty_file),
        cmocka_unit_test(test_GG001_three_bytes),
        cmocka_unit_test(test_GG002_bad_magic),
        cmocka_unit_test(test_GG003_truncated_version),
        cmocka_unit_test(test_GG003_truncated_n_tensors),
        cmocka_unit_test(test_GG003_truncated_n_kv),
        cmocka_unit_test(test_GG010_version_0),
        cmocka_unit_test(test_GG011_big_endian_version),
        cmocka_unit_test(test_GG012_version_1),
        cmocka_unit_test(test_GG013_version_above_3),
        cmocka_unit_test(test_valid_versions_2_and_3),
        cmocka_unit_test(test_GG020_n_tensors_negative),
        cmocka_unit_test(test_GG020_n_tensors_above_size_max_344),
        cmocka_unit_test(test_GG021_n_kv_negative),
        cmocka_unit_test(test_GG021_n_kv_above_size_max_88),
        cmocka_unit_test(test_header_rules_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
