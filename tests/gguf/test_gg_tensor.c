/* test_gg_tensor.c: tensor info rules GG201-GG212 (gguf.cpp
 * gguf_init_from_reader, "read the tensor info" loop) and valid tensors of
 * every ggml type. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"

#include <stdio.h>
#include <string.h>

#define I64(x) ((int64_t)(x))
#define P2(n) ((int64_t)1 << (n))

/* A file with one tensor info; `at` receives the offsets of its fields; the
 * file ends after the infos, padded, plus `data` zero bytes. */
static gb one_tensor(gb_ti_at *at, const char *name, uint32_t n_dims, const int64_t *ne, int32_t type, size_t data) {
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    *at = gb_ti(&b, name, n_dims, ne, type, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, data);
    return b;
}

/* ---- truncation ---- */

static void test_GG201_truncated_everywhere(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[2] = {4, 2};
    gb_ti_at at = gb_ti(&b, "w", 2, ne, 0, 0);
    /* cut in each field: name length, n_dims, ne[0], ne[1], offset */
    gg_expect_invalid_bytes(b.p, at.start + 3u, 0, TFS_GG201, at.start, 0);
    gg_expect_invalid_bytes(b.p, at.n_dims + 2u, 0, TFS_GG201, at.n_dims, 0);
    gg_expect_invalid_bytes(b.p, at.ne[0] + 7u, 0, TFS_GG201, at.ne[0], 0);
    gg_expect_invalid_bytes(b.p, at.ne[1], 0, TFS_GG201, at.ne[1], 0);
    gg_expect_invalid_bytes(b.p, at.type + 1u, 0, TFS_GG201, at.type, 0);
    gg_expect_invalid_bytes(b.p, at.offset + 7u, 0, TFS_GG201, at.offset, 0);
    gg_expect_invalid_bytes(b.p, at.start, TFS_HEADER_ONLY, TFS_GG201, at.start, 0);
    gb_free(&b);
}

static void test_GG201_fewer_infos_than_declared(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 3, 0);
    const int64_t ne[1] = {8};
    gb_ti(&b, "a", 1, ne, 0, 0);
    gb_ti(&b, "b", 1, ne, 0, 32);
    size_t end = b.len;
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    /* the zero padding reads as an empty name, then n_dims 0 ... */
    gg_expect_invalid_bytes(b.p, end, 0, TFS_GG201, end, 2);
    gb_free(&b);
}

static void test_GG101_GG102_tensor_name_lengths(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    gb_u64(&b, (UINT64_C(1) << 30) + 1u);
    gb_zeros(&b, 40);
    gg_expect_invalid(&b, 0, TFS_GG101, 24, 0);
    gb_free(&b);
    gb_header(&b, 3, 1, 0);
    gb_u64(&b, 41);
    gb_zeros(&b, 40);
    gg_expect_invalid(&b, 0, TFS_GG102, 24, 0);
    gb_free(&b);
}

/* ---- names ---- */

static void test_GG202_name_64_bytes(void **state) {
    (void)state;
    char name[65];
    memset(name, 'n', 64);
    name[64] = 0;
    const int64_t ne[1] = {8};
    gb_ti_at at;
    gb b = one_tensor(&at, name, 1, ne, 0, 32);
    gg_expect_invalid(&b, 0, TFS_GG202, at.start, 0);
    gb_free(&b);
    name[63] = 0; /* 63 bytes: the longest allowed */
    b = one_tensor(&at, name, 1, ne, 0, 32);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->tensors[0].name.len, 63);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG202_name_length_counts_bytes_after_nul(void **state) {
    (void)state;
    uint8_t name[70] = {'a'};
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[1] = {8};
    gb_ti_at at = gb_tin(&b, name, sizeof name, 1, ne, 0, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 32);
    gg_expect_invalid(&b, 0, TFS_GG202, at.start, 0);
    gb_free(&b);
}

static void test_GG203_duplicate_name(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 3, 0);
    const int64_t ne[1] = {8};
    gb_ti(&b, "a", 1, ne, 0, 0);
    gb_ti(&b, "b", 1, ne, 0, 32);
    gb_ti_at at = gb_ti(&b, "a", 1, ne, 0, 64);
    gb_pad(&b, 32);
    gb_zeros(&b, 96);
    gg_expect_invalid(&b, 0, TFS_GG203, at.start, 2);
    /* judged right after the name: nothing after it is read */
    gg_expect_invalid_bytes(b.p, at.n_dims, 0, TFS_GG203, at.start, 2);
    gb_free(&b);
}

static void test_GG203_names_equal_up_to_nul(void **state) {
    (void)state; /* ggml_set_name + strcmp: "a\0x" and "a\0y" are the same name */
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t ne[1] = {8};
    gb_tin(&b, "a\0x", 3, 1, ne, 0, 0);
    gb_ti_at at = gb_tin(&b, "a\0y", 3, 1, ne, 0, 32);
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG203, at.start, 1);
    gb_free(&b);
    gb_header(&b, 3, 2, 0);
    gb_tin(&b, "a", 1, 1, ne, 0, 0);
    at = gb_tin(&b, "a\0", 2, 1, ne, 0, 32);
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG203, at.start, 1);
    gb_free(&b);
}

static void test_GG203_two_empty_names(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t ne[1] = {8};
    gb_ti(&b, "", 1, ne, 0, 0);
    gb_ti_at at = gb_ti(&b, "", 1, ne, 0, 32);
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG203, at.start, 1);
    gb_free(&b);
}

/* ---- shape ---- */

static void test_GG204_n_dims_5(void **state) {
    (void)state; /* buglog G1 (5..8), G13 (1,000,000 and 0xFFFFFFFF) */
    const uint32_t bad[] = {5u, 6u, 8u, 1000000u, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 1, 0);
        gb_str(&b, "t");
        size_t at = b.len;
        gb_u32(&b, bad[i]);
        for (int j = 0; j < 8; j++) gb_u64(&b, 1);
        gg_expect_invalid(&b, 0, TFS_GG204, at, 0);
        gg_expect_invalid_bytes(b.p, at + 4u, 0, TFS_GG204, at, 0); /* before any ne is read */
        gb_free(&b);
    }
}

static void test_GG205_negative_dim(void **state) {
    (void)state;
    const int64_t ne[3] = {4, 2, -1};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 3, ne, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG205, at.ne[2], 0);
    gb_free(&b);
}

static void test_GG205_G12_dim_2_64_minus_1(void **state) {
    (void)state; /* buglog G12: f32 [2^64-1, 2, 1, 1] reads as ne[0] = -1 */
    const int64_t ne[4] = {-1, 2, 1, 1};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 4, ne, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG205, at.ne[0], 0);
    gb_free(&b);
}

static void test_GG206_ne_int64_max(void **state) {
    (void)state;
    const int64_t ne[1] = {INT64_MAX};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 1, ne, 24, 0);
    /* the test fires on the implicit ne[1] = 1: reported at the last stored ne */
    gg_expect_invalid(&b, 0, TFS_GG206, at.ne[0], 0);
    gb_free(&b);
}

static void test_GG206_division_boundary(void **state) {
    (void)state;
    /* 3 x 3074457345618258602 = INT64_MAX - 1, yet INT64_MAX / ne[1] == 3 <= 3 */
    const int64_t ne[2] = {3, I64(3074457345618258602)};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 2, ne, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG206, at.ne[1], 0);
    gb_free(&b);
    /* one less passes the count test (then the data is missing: GG304) */
    const int64_t ok[2] = {2, I64(3074457345618258602)};
    b = one_tensor(&at, "t", 2, ok, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG304, at.offset, 0);
    tfs_header *h = gg_expect_ok(&b, TFS_HEADER_ONLY);
    assert_int_equal(h->tensors[0].n_elements, UINT64_C(6148914691236517204));
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG206_fires_on_ne3(void **state) {
    (void)state;
    const int64_t ne[4] = {1, 1, 1, INT64_MAX};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 4, ne, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG206, at.ne[3], 0);
    gb_free(&b);
    const int64_t ne2[4] = {P2(20), P2(20), P2(20), P2(3)}; /* 2^63 wraps negative: GG207 */
    b = one_tensor(&at, "t", 4, ne2, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG207, at.ne[3], 0);
    gb_free(&b);
    const int64_t ne3[4] = {P2(20), P2(20), P2(20), 17}; /* 17 x 2^60 wraps to 2^60 > 0: GG206 */
    b = one_tensor(&at, "t", 4, ne3, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG206, at.ne[3], 0);
    gb_free(&b);
}

static void test_GG207_wrapped_count_divergence(void **state) {
    (void)state; /* spec/gguf.md known defect: ggml accepts these shapes */
    const struct {
        int64_t ne[2];
        int32_t type;
    } cases[] = {
        {{P2(32), P2(32)}, 0}, /* (2^32, 2^32) f32: wraps to 0 */
        {{P2(62), 2}, 24},     /* (2^62, 2) i8: wraps to INT64_MIN */
        {{P2(32), P2(31)}, 24} /* (2^32, 2^31) i8 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_ti_at at;
        gb b = one_tensor(&at, "t", 2, cases[i].ne, cases[i].type, 0);
        gg_expect_invalid(&b, 0, TFS_GG207, at.ne[1], 0);
        gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG207, at.ne[1], 0);
        gb_free(&b);
    }
}

static void test_GG211_wrapped_count_caught_by_ggml_size_test(void **state) {
    (void)state;
    /* (2^62, 2) f32: the count wraps to INT64_MIN; ggml skips its count test,
     * then its size test sees uint64(INT64_MIN) = 2^63 > SIZE_MAX/4: GG211 */
    const int64_t ne[2] = {P2(62), 2};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 2, ne, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG211, at.type, 0);
    gb_free(&b);
    /* the same shape in i8 passes that test: GG207 (above) */
    b = one_tensor(&at, "t", 2, ne, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG207, at.ne[1], 0);
    gb_free(&b);
}

static void test_GG208_GG210_before_GG207(void **state) {
    (void)state; /* ggml judges the type of a wrapped-count tensor first */
    const int64_t ne[2] = {P2(32), P2(32)};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 2, ne, 43, 0);
    gg_expect_invalid(&b, 0, TFS_GG208, at.type, 0);
    gb_free(&b);
    b = one_tensor(&at, "t", 2, ne, 33, 0);
    gg_expect_invalid(&b, 0, TFS_GG209, at.type, 0);
    gb_free(&b);
    const int64_t odd[2] = {3, P2(62)}; /* 3 x 2^62 wraps negative; 3 % 32 != 0 */
    b = one_tensor(&at, "t", 2, odd, 2, 0);
    gg_expect_invalid(&b, 0, TFS_GG210, at.type, 0);
    gb_free(&b);
}

static void test_valid_G7_zero_dim(void **state) {
    (void)state; /* buglog G7: ne = [1, 0] (old ggml divided by zero) */
    const int64_t ne[2] = {1, 0};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 2, ne, 0, 0);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->tensors[0].n_elements, 0);
    assert_int_equal(h->tensors[0].n_bytes, 0);
    assert_int_equal(h->data_size, 0);
    assert_int_equal(h->data_offset, b.len);
    tfs_header_free(h);
    gb_free(&b);
    /* a zero dim makes any other dim fine, even INT64_MAX in a block type */
    const int64_t big[3] = {I64(INT64_MAX) / 32 * 32, 0, INT64_MAX};
    b = one_tensor(&at, "t", 3, big, 2, 0);
    h = gg_expect_ok(&b, 0);
    assert_int_equal(h->tensors[0].n_bytes, 0);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_valid_n_dims_0_scalar_and_empty_name(void **state) {
    (void)state;
    gb_ti_at at;
    gb b = one_tensor(&at, "", 0, NULL, 0, 32);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->tensors[0].n_dims, 0);
    assert_int_equal(h->tensors[0].name.len, 0);
    assert_int_equal(h->tensors[0].n_elements, 1);
    assert_int_equal(h->tensors[0].n_bytes, 4);
    assert_int_equal(h->data_size, 32);
    tfs_header_free(h);
    gb_free(&b);
}

/* ---- type ---- */

static void test_GG208_type_out_of_range(void **state) {
    (void)state;
    const int32_t bad[] = {43, 44, 1000, -1, INT32_MIN};
    const int64_t ne[1] = {256};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb_ti_at at;
        gb b = one_tensor(&at, "t", 1, ne, bad[i], 1024);
        gg_expect_invalid(&b, 0, TFS_GG208, at.type, 0);
        gb_free(&b);
    }
}

static void test_GG209_removed_types(void **state) {
    (void)state;
    const int32_t removed[] = {4, 5, 31, 32, 33, 36, 37, 38};
    const int64_t ne[1] = {256};
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        gb_ti_at at;
        gb b = one_tensor(&at, "t", 1, ne, removed[i], 1024);
        gg_expect_invalid(&b, 0, TFS_GG209, at.type, 0);
        gb_free(&b);
    }
}

static void test_GG210_ne0_not_multiple_of_block(void **state) {
    (void)state;
    const int64_t ne[2] = {33, 32};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 2, ne, 2 /* q4_0, block 32 */, 1024);
    gg_expect_invalid(&b, 0, TFS_GG210, at.type, 0);
    gb_free(&b);
    /* n_dims 0: ne[0] = 1 is not a multiple of 256 */
    b = one_tensor(&at, "t", 0, NULL, 12 /* q4_K */, 1024);
    gg_expect_invalid(&b, 0, TFS_GG210, at.type, 0);
    gb_free(&b);
    /* only ne[0] matters: (256, 33) q4_K is fine */
    const int64_t ok[2] = {256, 33};
    b = one_tensor(&at, "t", 2, ok, 12, 33 * 144);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->tensors[0].n_bytes, 33 * 144);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG211_nbytes_above_size_max(void **state) {
    (void)state;
    const int64_t ne[1] = {P2(62)}; /* 2^62 f32 = 2^64 bytes */
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 1, ne, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG211, at.type, 0);
    gb_free(&b);
    const int64_t ne2[2] = {P2(61), 2}; /* i64: 2^62 elements x 8 */
    b = one_tensor(&at, "t", 2, ne2, 27, 0);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG211, at.type, 0);
    gb_free(&b);
}

static void test_GG212_block_type_nbytes_wraps_in_ggml(void **state) {
    (void)state;
    /* q8_K (256 / 292 bytes): ne[0] = 2^56 -> ne[0] x 292 wraps in ggml_nbytes */
    const int64_t ne[1] = {P2(56)};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 1, ne, 15, 0);
    gg_expect_invalid(&b, 0, TFS_GG212, at.type, 0);
    gg_expect_invalid(&b, TFS_HEADER_ONLY, TFS_GG212, at.type, 0);
    gb_free(&b);
    /* the largest ne[0] (multiple of 256) whose ne[0] x 292 fits: header-only valid */
    const int64_t top[1] = {(int64_t)(UINT64_MAX / 292u / 256u * 256u)};
    b = one_tensor(&at, "t", 1, top, 15, 0);
    tfs_header *h = gg_expect_ok(&b, TFS_HEADER_ONLY);
    assert_int_equal(h->tensors[0].n_bytes, (uint64_t)top[0] / 256u * 292u);
    tfs_header_free(h);
    gg_expect_invalid(&b, 0, TFS_GG304, at.offset, 0);
    gb_free(&b);
}

/* ---- valid: every ggml type ---- */

static void test_valid_every_ggml_type_one_file_each(void **state) {
    (void)state;
    int n_valid = 0;
    for (int32_t t = 0; t < (int32_t)TFS_GG_TYPE_COUNT; t++) {
        uint32_t blck = tfs_gg_type_block_size((uint32_t)t), ts = tfs_gg_type_size((uint32_t)t);
        if (blck == 0) continue;
        n_valid++;
        const int64_t ne[3] = {2 * (int64_t)blck, 3, 1};
        gb_ti_at at;
        uint64_t nbytes = 6u * ts;
        gb b = one_tensor(&at, tfs_gg_type_name((uint32_t)t), 3, ne, t, (size_t)nbytes);
        tfs_header *h = gg_expect_ok(&b, 0);
        const tfs_tensor *x = &h->tensors[0];
        assert_int_equal(x->type, t);
        assert_int_equal(x->n_dims, 3);
        assert_int_equal(x->shape[0], 2 * blck);
        assert_int_equal(x->shape[1], 3);
        assert_int_equal(x->shape[2], 1);
        assert_int_equal(x->n_elements, 6u * blck);
        assert_int_equal(x->n_bytes, nbytes);
        assert_int_equal(x->offset, 0);
        assert_int_equal(x->file_offset, gg_pad(at.offset + 8u, 32));
        assert_int_equal(x->name.len, strlen(tfs_gg_type_name((uint32_t)t)));
        assert_int_equal(h->data_size, gg_pad(nbytes, 32));
        tfs_header_free(h);
        /* one byte short of the data: default rejects, header-only accepts */
        gg_expect_invalid_bytes(b.p, b.len - 1u, 0, TFS_GG304, at.offset, 0);
        h = gg_expect_ok(&(gb){.p = b.p, .len = b.len - 1u, .size = b.len - 1u}, TFS_HEADER_ONLY);
        tfs_header_free(h);
        gb_free(&b);
    }
    assert_int_equal(n_valid, 43 - 8); /* 35 non-removed types (8 removed ids) */
}

static void test_valid_every_ggml_type_one_file(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 35, 1);
    gb_kv_u32(&b, "general.alignment", 64);
    gb_ti_at at[43];
    uint64_t off = 0, offs[43];
    for (int32_t t = 0; t < 43; t++) {
        uint32_t blck = tfs_gg_type_block_size((uint32_t)t), ts = tfs_gg_type_size((uint32_t)t);
        if (blck == 0) continue;
        char name[32];
        snprintf(name, sizeof name, "blk.%d.%s", t, tfs_gg_type_name((uint32_t)t));
        const int64_t ne[4] = {(int64_t)blck, 1, 2, 1};
        offs[t] = off;
        at[t] = gb_ti(&b, name, 4, ne, t, off);
        off += gg_pad(2u * ts, 64);
    }
    size_t info_end = b.len;
    gb_pad(&b, 64);
    size_t data = b.len;
    gb_zeros(&b, (size_t)off);
    tfs_header *h = gg_expect_ok(&b, TFS_STRICT);
    assert_int_equal(h->n_tensors, 35);
    assert_int_equal(h->alignment, 64);
    assert_int_equal(h->header_size, data);
    assert_int_equal(h->data_offset, gg_pad(info_end, 64));
    assert_int_equal(h->data_size, off);
    size_t i = 0;
    for (int32_t t = 0; t < 43; t++) {
        if (tfs_gg_type_block_size((uint32_t)t) == 0) continue;
        const tfs_tensor *x = &h->tensors[i++];
        char name[32];
        snprintf(name, sizeof name, "blk.%d.%s", t, tfs_gg_type_name((uint32_t)t));
        assert_int_equal(x->name.len, strlen(name));
        assert_memory_equal(x->name.ptr, name, strlen(name));
        assert_int_equal(x->type, t);
        assert_int_equal(x->n_dims, 4);
        assert_int_equal(x->shape[2], 2);
        assert_int_equal(x->n_bytes, 2u * tfs_gg_type_size((uint32_t)t));
        assert_int_equal(x->offset, offs[t]);
        assert_int_equal(x->file_offset, data + offs[t]);
        (void)at;
    }
    tfs_header_free(h);
    gb_free(&b);
}

/* ggml's count test fires at ne[1] and again at ne[2] (prod is not
 * multiplied once it fires): (2^32, 2^32, 2^32) f32 wraps to 0, GG207 at the
 * first field where it fires; and the same at (2^32, 2^32, 1, 2^32) with an
 * implicit-size dimension between (ggml-adapter --meta accepts both) */
static void test_GG207_reported_where_count_test_first_fires(void **state) {
    (void)state;
    const int64_t a[3] = {P2(32), P2(32), P2(32)}, c[4] = {P2(32), P2(32), 1, P2(32)};
    gb_ti_at at;
    gb b = one_tensor(&at, "t", 3, a, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG207, at.ne[1], 0);
    gb_free(&b);
    b = one_tensor(&at, "t", 4, c, 0, 0);
    gg_expect_invalid(&b, 0, TFS_GG207, at.ne[1], 0);
    gb_free(&b);
    /* i8 (3 x 2^61, 3, 4): ne[0] x ne[1] wraps to 2^61, which the test at
     * ne[2] would also flag (INT64_MAX / 4 = 2^61 - 1); the count wraps to
     * 2^63: GG207 at ne[1], where ggml's test fires first */
    const int64_t d[3] = {3 * P2(61), 3, 4};
    b = one_tensor(&at, "t", 3, d, 24, 0);
    gg_expect_invalid(&b, 0, TFS_GG207, at.ne[1], 0);
    gb_free(&b);
}

/* A partial view (TFS_PARTIAL) of a tensor info that failed before its
 * dimensions were read lists the fields read so far, and no dimension
 * field: n_dims = 5 (GG204) and a duplicate name (GG203). */
static void test_GG204_GG203_partial_fields_stop_before_dims(void **state) {
    (void)state;
    for (int dup = 0; dup <= 1; dup++) {
        gb b = {0};
        gb_header(&b, 3, dup ? 2u : 1u, 0);
        int64_t ne[1] = {8};
        if (dup) gb_ti(&b, "t", 1, ne, 0, 0);
        size_t at = b.len;
        gb_str(&b, "t");
        gb_u32(&b, 5);
        gb_zeros(&b, 64);
        tfs_header *h = NULL;
        tfs_error e;
        assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_GGUF, TFS_PARTIAL, &h, &e), TFS_INVALID);
        assert_string_equal(tfs_rule_id(e.rule), dup ? "GG203" : "GG204");
        assert_int_equal(e.offset, dup ? at : at + 9u);
        assert_non_null(h);
        assert_true(h->n_fail_fields > 0);
        for (size_t f = 0; f < h->n_fail_fields; f++) {
            assert_int_not_equal(h->fail_fields[f].kind, TFS_FIELD_DIM);
            assert_true(h->fail_fields[f].offset >= at);
        }
        tfs_header_free(h);
        gb_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG201_truncated_everywhere),
        cmocka_unit_test(test_GG201_fewer_infos_than_declared),
        cmocka_unit_test(test_GG101_GG102_tensor_name_lengths),
        cmocka_unit_test(test_GG202_name_64_bytes),
        cmocka_unit_test(test_GG202_name_length_counts_bytes_after_nul),
        cmocka_unit_test(test_GG203_duplicate_name),
        cmocka_unit_test(test_GG203_names_equal_up_to_nul),
        cmocka_unit_test(test_GG203_two_empty_names),
        cmocka_unit_test(test_GG204_n_dims_5),
        cmocka_unit_test(test_GG205_negative_dim),
        cmocka_unit_test(test_GG205_G12_dim_2_64_minus_1),
        cmocka_unit_test(test_GG206_ne_int64_max),
        cmocka_unit_test(test_GG206_division_boundary),
        cmocka_unit_test(test_GG206_fires_on_ne3),
        cmocka_unit_test(test_GG207_wrapped_count_divergence),
        cmocka_unit_test(test_GG207_reported_where_count_test_first_fires),
        cmocka_unit_test(test_GG204_GG203_partial_fields_stop_before_dims),
        cmocka_unit_test(test_GG211_wrapped_count_caught_by_ggml_size_test),
        cmocka_unit_test(test_GG208_GG210_before_GG207),
        cmocka_unit_test(test_valid_G7_zero_dim),
        cmocka_unit_test(test_valid_n_dims_0_scalar_and_empty_name),
        cmocka_unit_test(test_GG208_type_out_of_range),
        cmocka_unit_test(test_GG209_removed_types),
        cmocka_unit_test(test_GG210_ne0_not_multiple_of_block),
        cmocka_unit_test(test_GG211_nbytes_above_size_max),
        cmocka_unit_test(test_GG212_block_type_nbytes_wraps_in_ggml),
        cmocka_unit_test(test_valid_every_ggml_type_one_file_each),
        cmocka_unit_test(test_valid_every_ggml_type_one_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
