/* test_gg_layout.c: data section and offsets (GG301-GG305), the default vs
 * header-only profiles, and buffer vs file API agreement. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"

#include <string.h>

#define P2(n) ((int64_t)1 << (n))

static void test_GG301_data_start_past_eof(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[1] = {0};
    gb_ti(&b, "t", 1, ne, 0, 0); /* zero-size tensor: only the padding is missing */
    size_t end = b.len;
    assert_true(end % 32 != 0);
    gg_expect_invalid(&b, 0, TFS_GG301, end, -1);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG301, end, -1);
    gb_pad(&b, 32);
    gg_expect_invalid_bytes(b.p, b.len - 1u, 0, TFS_GG301, end, -1);
    tfs_header *h = gg_expect_ok(&b, 0); /* data start == EOF is fine */
    assert_int_equal(h->data_offset, b.len);
    assert_int_equal(h->header_size, b.len);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_valid_no_tensors_no_padding(void **state) {
    (void)state; /* ggml seeks to the aligned data start only when n_tensors > 0 */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_u32(&b, "k", 1);
    assert_true(b.len % 32 != 0);
    tfs_header *h = gg_expect_ok(&b, TFS_STRICT);
    assert_int_equal(h->data_offset, b.len);
    assert_int_equal(h->header_size, b.len);
    tfs_header_free(h);
    gb_zeros(&b, 100); /* trailing bytes: ignored */
    h = gg_expect_ok(&b, TFS_STRICT);
    assert_int_equal(h->data_offset, b.len - 100u);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG302_first_offset_not_zero(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[1] = {8};
    gb_ti_at at = gb_ti(&b, "t", 1, ne, 0, 32);
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG302, at.offset, 0);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG302, at.offset, 0);
    gb_free(&b);
}

static void test_GG302_G15_three_tensors_at_offset_0(void **state) {
    (void)state; /* buglog G15 */
    gb b = {0};
    gb_header(&b, 3, 3, 0);
    const int64_t ne[1] = {8};
    gb_ti(&b, "a", 1, ne, 0, 0);
    gb_ti_at at = gb_ti(&b, "b", 1, ne, 0, 0);
    gb_ti(&b, "c", 1, ne, 0, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 32);
    gg_expect_invalid(&b, 0, TFS_GG302, at.offset, 1);
    gb_free(&b);
}

static void test_GG302_unpadded_or_gapped_offsets(void **state) {
    (void)state;
    const int64_t ne[1] = {3}; /* 12 bytes, padded to 32 */
    const uint64_t bad[] = {12, 64, 16};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 2, 0);
        gb_ti(&b, "a", 1, ne, 0, 0);
        gb_ti_at at = gb_ti(&b, "b", 1, ne, 0, bad[i]);
        gb_pad(&b, 32);
        gb_zeros(&b, 128);
        gg_expect_invalid(&b, 0, TFS_GG302, at.offset, 1);
        gb_free(&b);
    }
}

static void test_GG302_swapped_order(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t ne[1] = {8};
    gb_ti_at at = gb_ti(&b, "a", 1, ne, 0, 32);
    gb_ti(&b, "b", 1, ne, 0, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG302, at.offset, 0);
    gb_free(&b);
}

static void test_GG303_G2_padded_sizes_sum_past_2_64(void **state) {
    (void)state; /* buglog G2: three i8 tensors of 2^63 - 64 bytes */
    gb b = {0};
    gb_header(&b, 3, 3, 0);
    const int64_t ne[1] = {INT64_MAX - 63};
    const uint64_t sz = (uint64_t)ne[0]; /* a multiple of 32: padding adds nothing */
    gb_ti(&b, "a", 1, ne, 24, 0);
    gb_ti(&b, "b", 1, ne, 24, sz);
    gb_ti_at at = gb_ti(&b, "c", 1, ne, 24, 2u * sz);
    gb_pad(&b, 32);
    gg_expect_invalid(&b, 0, TFS_GG303, at.offset, 2);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG303, at.offset, 2);
    gb_free(&b);
}

static void test_GG304_G11_data_past_eof(void **state) {
    (void)state; /* buglog G11 */
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t ne[2] = {8, 4};
    gb_ti(&b, "a", 2, ne, 0, 0);
    gb_ti_at at = gb_ti(&b, "b", 2, ne, 0, 128);
    gb_pad(&b, 32);
    size_t data = b.len;
    gb_zeros(&b, 128 + 127); /* one byte short */
    gg_expect_invalid(&b, 0, TFS_GG304, at.offset, 1);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG304, at.offset, 1);
    tfs_header *h = gg_expect_ok(&b, TFS_HEADER_ONLY);
    assert_int_equal(h->tensors[1].file_offset, data + 128u);
    assert_int_equal(h->data_size, 256);
    tfs_header_free(h);
    gb_zeros(&b, 1); /* complete, last tensor unpadded at EOF: valid */
    h = gg_expect_ok(&b, 0);
    assert_int_equal(h->data_offset + h->data_size, b.len);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG304_G4_exabyte_tensor(void **state) {
    (void)state; /* buglog G4: q8_0 [1152, 2^42+1], no wrap in 64 bits: data missing */
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[2] = {1152, P2(42) + 1};
    gb_ti_at at = gb_ti(&b, "t", 2, ne, 8, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 1024);
    gg_expect_invalid(&b, 0, TFS_GG304, at.offset, 0);
    tfs_header *h = gg_expect_ok(&b, TFS_HEADER_ONLY);
    assert_int_equal(h->tensors[0].n_bytes, (uint64_t)(P2(42) + 1) * 36u * 34u);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG305_G3_padded_size_wraps(void **state) {
    (void)state; /* buglog G3: f32 ne[0] = (2^64-1)/4: 2^64-4 bytes pads to 0 in ggml */
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t ne[1] = {(int64_t)(UINT64_MAX / 4u)};
    const int64_t ne2[1] = {8};
    gb_ti_at at = gb_ti(&b, "a", 1, ne, 0, 0);
    gb_ti(&b, "b", 1, ne2, 0, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 32);
    gg_expect_invalid(&b, 0, TFS_GG305, at.offset, 0);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG305, at.offset, 0);
    gb_free(&b);
}

static void test_GG305_alignment_1_never_wraps(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 1);
    gb_kv_u32(&b, "general.alignment", 1);
    const int64_t ne[1] = {(int64_t)(UINT64_MAX / 4u)};
    gb_ti_at at = gb_ti(&b, "a", 1, ne, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG304, at.offset, 0);
    tfs_header *h = gg_expect_ok(&b, TFS_HEADER_ONLY);
    assert_int_equal(h->data_size, UINT64_MAX - 3u);
    assert_int_equal(h->alignment, 1);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_valid_custom_alignment_views(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 3, 2);
    gb_kv_str(&b, "general.architecture", "llama");
    gb_kv_at al = gb_kv_u32(&b, "general.alignment", 64);
    const int64_t a[2] = {5, 3}, c[1] = {256}, d[4] = {2, 2, 2, 2};
    gb_ti(&b, "tok_embd.weight", 2, a, 1 /* f16: 30 bytes */, 0);
    gb_ti(&b, "blk.0.attn_q.weight", 1, c, 12 /* q4_K: 144 bytes */, 64);
    gb_ti(&b, "output_norm.weight", 4, d, 0 /* f32: 64 bytes */, 64 + 192);
    size_t info_end = b.len;
    gb_pad(&b, 64);
    size_t data = b.len;
    gb_zeros(&b, 64 + 192 + 64);
    tfs_header *h = gg_expect_ok(&b, TFS_STRICT);
    assert_int_equal(h->alignment, 64);
    assert_int_equal(h->data_offset, data);
    assert_int_equal(h->data_offset, (info_end + 63u) / 64u * 64u);
    assert_int_equal(h->data_size, 64 + 192 + 64);
    assert_int_equal(h->n_tensors, 3);
    const tfs_tensor *t = h->tensors;
    assert_int_equal(t[0].name.len, strlen("tok_embd.weight"));
    assert_memory_equal(t[0].name.ptr, "tok_embd.weight", t[0].name.len);
    assert_int_equal(t[0].shape[0], 5);
    assert_int_equal(t[0].shape[1], 3);
    assert_int_equal(t[0].n_bytes, 30);
    assert_int_equal(t[1].n_bytes, 144);
    assert_int_equal(t[1].file_offset, data + 64u);
    assert_int_equal(t[2].n_dims, 4);
    assert_int_equal(t[2].n_elements, 16);
    assert_int_equal(t[2].offset, 256);
    assert_int_equal(t[2].file_offset, data + 256u);
    assert_int_equal(h->kv[1].value_offset, al.value);
    assert_int_equal(h->kv[1].value_len, 4);
    uint32_t align = 0;
    assert_int_equal(tfs_kv_get_u32(h, tfs_find_kv(h, "general.alignment"), 0, &align), TFS_OK);
    assert_int_equal(align, 64);
    tfs_str arch;
    assert_int_equal(tfs_kv_get_string(h, tfs_find_kv(h, "general.architecture"), 0, &arch, NULL, 0), TFS_OK);
    assert_int_equal(arch.len, 5);
    assert_memory_equal(arch.ptr, "llama", 5);
    assert_null(tfs_find_kv(h, "general.alignmen"));
    tfs_header_free(h);
    gb_free(&b);
}

static void test_header_only_skips_only_GG304(void **state) {
    (void)state;
    /* a file with data missing and a canonical error after it: both profiles
     * report the canonical error (GG304 runs after every canonical check) */
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t big[1] = {1024}, ne[1] = {8};
    gb_ti(&b, "a", 1, big, 0, 0);
    gb_ti_at at = gb_ti(&b, "b", 1, ne, 0, 0);
    gb_pad(&b, 32);
    gg_expect_invalid(&b, 0, TFS_GG302, at.offset, 1);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG302, at.offset, 1);
    gb_free(&b);
}

static void test_file_api_missing_file_is_eio(void **state) {
    (void)state;
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_file("/nonexistent/tfs/x.gguf", TFS_FORMAT_GGUF, 0, &h, &e), TFS_EIO);
    assert_null(h);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_true(e.sys_errno != 0);
}

static void test_format_detected_by_magic(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 0);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    assert_int_equal(h->format, TFS_FORMAT_GGUF);
    tfs_header_free(h);
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG301_data_start_past_eof),
        cmocka_unit_test(test_valid_no_tensors_no_padding),
        cmocka_unit_test(test_GG302_first_offset_not_zero),
        cmocka_unit_test(test_GG302_G15_three_tensors_at_offset_0),
        cmocka_unit_test(test_GG302_unpadded_or_gapped_offsets),
        cmocka_unit_test(test_GG302_swapped_order),
        cmocka_unit_test(test_GG303_G2_padded_sizes_sum_past_2_64),
        cmocka_unit_test(test_GG304_G11_data_past_eof),
        cmocka_unit_test(test_GG304_G4_exabyte_tensor),
        cmocka_unit_test(test_GG305_G3_padded_size_wraps),
        cmocka_unit_test(test_GG305_alignment_1_never_wraps),
        cmocka_unit_test(test_valid_custom_alignment_views),
        cmocka_unit_test(test_header_only_skips_only_GG304),
        cmocka_unit_test(test_file_api_missing_file_is_eio),
        cmocka_unit_test(test_format_detected_by_magic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
