/* test_write_gg_limits.c: the GGUF writer's parts (tfs/write.h) at their
 * limits.  Every part refuses what it cannot write (a NULL argument, a NULL
 * pointer with a length, a width past UINT64_MAX) with TFS_EARG before it
 * appends anything, keeps an earlier error (sticky), and writes exactly up
 * to UINT64_MAX bytes.  The expected sizes are the GGUF layout counted here
 * from the spec (u64 string length + body, u32 type, u32 elem type + u64
 * count, ...), not taken from the writer; the field widths likewise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "tfs/write.h"
#include "common/sources.h"
#include "common/writes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX UINT64_MAX

static void test_constructors(void **state) {
    (void)state;
    tfs_gg_wvalue v = tfs_gg_wval_scalar(TFS_GG_U64, UINT64_C(0x0807060504030201));
    assert_int_equal(v.type, TFS_GG_U64);
    for (int i = 0; i < 8; i++) assert_int_equal(v.scalar[i], i + 1); /* little-endian, all 8 bytes */
    assert_null(v.raw);
    assert_null(v.strs);
    assert_int_equal(v.n_strs, 0);
    tfs_wstr s = tfs_wstr_c("ab");
    v = tfs_gg_wval_str(&s);
    assert_int_equal(v.type, TFS_GG_STRING);
    assert_ptr_equal(v.strs, &s);
    assert_int_equal(v.n_strs, 1);
    assert_int_equal(v.count, 1); /* one string: the value's element count is part of the API */
    v = tfs_gg_wval_str(NULL);
    assert_int_equal(v.n_strs, 0);
}

static void test_null_arguments(void **state) {
    (void)state;
    tfs_wstr s = tfs_wstr_c("k");
    tfs_gg_wvalue v = tfs_gg_wval_scalar(TFS_GG_U8, 1);
    tfs_gg_wkv kv = {s, v};
    tfs_gg_wtensor t = {.name = s};
    assert_int_equal(tfs_gg_put_header(NULL, NULL, 3, 0, 0), TFS_EARG);
    assert_int_equal(tfs_gg_put_str(NULL, &s, TFS_FIELD_KEY_LEN, TFS_FIELD_KEY, 0, 0), TFS_EARG);
    assert_int_equal(tfs_gg_put_key(NULL, 0, &s, TFS_GG_U8), TFS_EARG);
    assert_int_equal(tfs_gg_put_value(NULL, 0, &v), TFS_EARG);
    assert_int_equal(tfs_gg_put_kv(NULL, 0, &kv), TFS_EARG);
    assert_int_equal(tfs_gg_put_tensor_info(NULL, 0, &t, 0), TFS_EARG);
    tfs_gg_model m = {.version = 3};
    assert_int_equal(tfs_gg_write(&m, NULL), TFS_EARG);
    tfs_wbuf w = {0};
    tfs_test_assert_refused(&w, tfs_gg_put_str(&w, NULL, TFS_FIELD_KEY_LEN, TFS_FIELD_KEY, 0, 0));
    tfs_test_assert_refused(&w, tfs_gg_put_key(&w, 0, NULL, TFS_GG_U8));
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, NULL));
    tfs_test_assert_refused(&w, tfs_gg_put_kv(&w, 0, NULL));
    tfs_test_assert_refused(&w, tfs_gg_put_tensor_info(&w, 0, NULL, 0));
    tfs_test_assert_refused(&w, tfs_gg_write(NULL, &w));
    /* a pointer NULL with a length */
    tfs_wstr nul = {.ptr = NULL, .len = 1};
    tfs_test_assert_refused(&w, tfs_gg_put_str(&w, &nul, TFS_FIELD_KEY_LEN, TFS_FIELD_KEY, 0, 0));
    tfs_gg_wkv bad = {nul, v};
    assert_int_equal(tfs_gg_put_kv(&w, 0, &bad), TFS_EARG); /* found by put_str: the KV field is in the map */
    assert_int_equal(w.err, TFS_EARG);
    tfs_wbuf_free(&w);
    tfs_gg_wvalue vs = {.type = TFS_GG_STRING, .count = 1, .n_strs = 1}; /* strs NULL */
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &vs));
    vs.type = TFS_GG_ARRAY, vs.elem_type = TFS_GG_STRING;
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &vs));
    tfs_gg_wvalue vr = {.type = TFS_GG_U32, .count = 1, .raw_len = 4}; /* raw NULL */
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &vr));
    vr = tfs_gg_wval_array(TFS_GG_U8, 3, NULL, 3);
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &vr));
    bad = (tfs_gg_wkv){s, vr};
    tfs_test_assert_refused(&w, tfs_gg_put_kv(&w, 0, &bad));
    t.name = nul;
    assert_int_equal(tfs_gg_put_tensor_info(&w, 0, &t, 0), TFS_EARG); /* found by put_str */
    assert_int_equal(w.err, TFS_EARG);
    tfs_wbuf_free(&w);
}

/* A model the writer cannot walk: refused before the header is written. */
static void test_model_refused(void **state) {
    (void)state;
    tfs_gg_wkv kv = {tfs_wstr_c("k"), tfs_gg_wval_scalar(TFS_GG_U8, 1)};
    tfs_gg_wtensor t = {.name = tfs_wstr_c("t"), .n_dims = 1, .ne = {1}, .type = 0};
    tfs_wbuf w = {0};
    tfs_gg_model m = {.version = 3, .n_kv = 1};
    tfs_test_assert_refused(&w, tfs_gg_write(&m, &w));
    m = (tfs_gg_model){.version = 3, .n_tensors = 1};
    tfs_test_assert_refused(&w, tfs_gg_write(&m, &w));
    m = (tfs_gg_model){.version = 3, .n_kv = (size_t)INT32_MAX + 1u, .kv = &kv};
    tfs_test_assert_refused(&w, tfs_gg_write(&m, &w));
    m = (tfs_gg_model){.version = 3, .n_tensors = (size_t)INT32_MAX + 1u, .tensors = &t};
    tfs_test_assert_refused(&w, tfs_gg_write(&m, &w));
    /* the same with one record each: written */
    m = (tfs_gg_model){.version = 3, .n_kv = 1, .kv = &kv, .n_tensors = 1, .tensors = &t};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    /* 24 header + KV (8 + 1 + 4 + 1) + info (8 + 1 + 4 + 8 + 4 + 8) = 71, padded to 96, + 4 data + 28 padding */
    assert_int_equal(w.size, 128);
    tfs_wbuf_free(&w);
}

/* An earlier failure stays the buffer's error and is what a refused part returns. */
static void test_sticky_error(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    w.err = TFS_ENOMEM;
    tfs_wstr nul = {.ptr = NULL, .len = 1};
    assert_int_equal(tfs_gg_put_str(&w, &nul, TFS_FIELD_KEY_LEN, TFS_FIELD_KEY, 0, 0), TFS_ENOMEM);
    assert_int_equal(tfs_gg_put_value(&w, 0, NULL), TFS_ENOMEM);
    assert_int_equal(tfs_gg_put_kv(&w, 0, NULL), TFS_ENOMEM);
    assert_int_equal(tfs_gg_put_tensor_info(&w, 0, NULL, 0), TFS_ENOMEM);
    assert_int_equal(tfs_gg_write(NULL, &w), TFS_ENOMEM);
    tfs_gg_model m = {.version = 3, .n_kv = 1};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_ENOMEM);
    assert_int_equal(w.err, TFS_ENOMEM);
    assert_int_equal(w.size, 0);
    tfs_wbuf_free(&w);
}

/* A width of exactly UINT64_MAX is written (holes: nothing materialised);
 * one byte more is refused before anything is appended. */
static void test_widths_at_uint64_max(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    /* string body: len + hole */
    tfs_wstr s = {.ptr = "a", .len = 1, .hole = MAX};
    tfs_test_assert_refused(&w, tfs_gg_put_str(&w, &s, TFS_FIELD_KEY_LEN, TFS_FIELD_KEY, 0, 0));
    /* a string value: 8 + body */
    tfs_wstr h = tfs_wstr_hole(MAX - 8u);
    tfs_gg_wvalue v = tfs_gg_wval_str(&h);
    assert_int_equal(tfs_gg_put_value(&w, 0, &v), TFS_OK);
    assert_true(w.size == MAX);
    tfs_wbuf_free(&w);
    h = tfs_wstr_hole(MAX - 7u);
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &v));
    /* a string array: 4 + 8 + sum of (8 + body) */
    h = tfs_wstr_hole(MAX - 20u);
    v = tfs_gg_wval_str_array(&h, 1);
    assert_int_equal(tfs_gg_put_value(&w, 0, &v), TFS_OK);
    assert_true(w.size == MAX);
    assert_int_equal(tfs_wbuf_find(&w, TFS_FIELD_ARRAY_DATA, 0, 0)->width, MAX - 12u);
    tfs_wbuf_free(&w);
    h = tfs_wstr_hole(MAX - 19u);
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &v));
    /* the sum of the elements wraps: two of 2^63 bytes each */
    tfs_wstr two[2] = {tfs_wstr_hole((UINT64_C(1) << 63) - 8u), tfs_wstr_hole((UINT64_C(1) << 63) - 8u)};
    v = tfs_gg_wval_str_array(two, 2);
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &v));
    two[1] = tfs_wstr_hole(MAX); /* one element's own width wraps */
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &v));
    two[1] = (tfs_wstr){.ptr = "a", .len = 1, .hole = MAX}; /* its body wraps */
    tfs_test_assert_refused(&w, tfs_gg_put_value(&w, 0, &v));

    /* a KV: key (8 + body) + 4 + value */
    tfs_gg_wkv kv = {tfs_wstr_c(""), tfs_gg_wval_str(&h)};
    h = tfs_wstr_hole(MAX - 20u);
    assert_int_equal(tfs_gg_put_kv(&w, 0, &kv), TFS_OK);
    assert_true(w.size == MAX);
    assert_true(tfs_wbuf_find(&w, TFS_FIELD_KV, 0, 0)->width == MAX);
    tfs_wbuf_free(&w);
    h = tfs_wstr_hole(MAX - 19u);
    tfs_test_assert_refused(&w, tfs_gg_put_kv(&w, 0, &kv));
    /* the key alone: a value of an unknown type id has no bytes */
    kv = (tfs_gg_wkv){tfs_wstr_hole(MAX - 12u), tfs_gg_wval_scalar(99, 0)};
    assert_int_equal(tfs_gg_put_kv(&w, 0, &kv), TFS_OK);
    assert_true(w.size == MAX);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_VALUE, 0, 0)); /* no bytes, no value field */
    tfs_wbuf_free(&w);
    kv.key = tfs_wstr_hole(MAX - 11u);
    tfs_test_assert_refused(&w, tfs_gg_put_kv(&w, 0, &kv));
    kv.key = tfs_wstr_hole(MAX - 7u); /* the key's own width wraps */
    tfs_test_assert_refused(&w, tfs_gg_put_kv(&w, 0, &kv));
    kv.key = tfs_wstr_c("k"), kv.value = tfs_gg_wval_str(&h);
    h = tfs_wstr_hole(MAX - 7u); /* the value's own width wraps */
    tfs_test_assert_refused(&w, tfs_gg_put_kv(&w, 0, &kv));

    /* a tensor info: name (8 + body) + 4 + 8 n_dims + 4 + 8 */
    tfs_gg_wtensor t = {.name = tfs_wstr_hole(MAX - 24u)};
    assert_int_equal(tfs_gg_put_tensor_info(&w, 0, &t, 0), TFS_OK);
    assert_true(w.size == MAX);
    tfs_wbuf_free(&w);
    t.name = tfs_wstr_hole(MAX - 23u);
    tfs_test_assert_refused(&w, tfs_gg_put_tensor_info(&w, 0, &t, 0));
    t = (tfs_gg_wtensor){.name = tfs_wstr_hole(MAX - 88u), .n_dims = TFS_GG_WMAX_DIMS};
    assert_int_equal(tfs_gg_put_tensor_info(&w, 0, &t, 0), TFS_OK);
    assert_true(w.size == MAX);
    tfs_wbuf_free(&w);
    t.name = tfs_wstr_hole(MAX - 87u);
    tfs_test_assert_refused(&w, tfs_gg_put_tensor_info(&w, 0, &t, 0));
    t.name = tfs_wstr_hole(MAX - 7u); /* the name's own width wraps */
    tfs_test_assert_refused(&w, tfs_gg_put_tensor_info(&w, 0, &t, 0));
    t = (tfs_gg_wtensor){.name = tfs_wstr_c("t"), .n_dims = TFS_GG_WMAX_DIMS + 1u};
    tfs_test_assert_refused(&w, tfs_gg_put_tensor_info(&w, 0, &t, 0));
}

/* A field of record `index` the buffer must list, with its offset and width. */
typedef struct want_field {
    uint32_t kind, sub;
    uint64_t offset, width;
} want_field;

static void assert_fields(const tfs_wbuf *w, int32_t index, const want_field *want, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const tfs_field *f = tfs_wbuf_find(w, want[i].kind, index, want[i].sub);
        assert_non_null(f);
        assert_int_equal(f->offset, want[i].offset);
        assert_int_equal(f->width, want[i].width);
    }
}

/* Each field's offset and width, counted from the layout. */
static void test_field_widths(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_put_header(&w, NULL, 3, 1, 2), TFS_OK);
    static const want_field hdr[] = {{TFS_FIELD_MAGIC, 0, 0, 4},
                                     {TFS_FIELD_VERSION, 0, 4, 4},
                                     {TFS_FIELD_N_TENSORS, 0, 8, 8},
                                     {TFS_FIELD_N_KV, 0, 16, 8}};
    assert_int_equal(w.n_fields, 4);
    assert_fields(&w, -1, hdr, 4);
    assert_int_equal(w.size, 24);
    /* a string KV at 24: key "ab", value "xyz" */
    tfs_wstr v = tfs_wstr_c("xyz");
    tfs_gg_wkv kv = {tfs_wstr_c("ab"), tfs_gg_wval_str(&v)};
    assert_int_equal(tfs_gg_put_kv(&w, 5, &kv), TFS_OK);
    static const want_field kvf[] = {
        {TFS_FIELD_KV, 0, 24, 8 + 2 + 4 + 8 + 3}, {TFS_FIELD_KEY_LEN, 0, 24, 8}, {TFS_FIELD_KEY, 0, 32, 2},
        {TFS_FIELD_VALUE_TYPE, 0, 34, 4},         {TFS_FIELD_STR_LEN, 0, 38, 8}, {TFS_FIELD_STR, 0, 46, 3}};
    assert_fields(&w, 5, kvf, sizeof kvf / sizeof kvf[0]);
    assert_int_equal(w.size, 49);
    /* a u16 array of 3 at 49: key "c" */
    static const uint8_t u16s[6] = {1, 0, 2, 0, 3, 0};
    kv = (tfs_gg_wkv){tfs_wstr_c("c"), tfs_gg_wval_array(TFS_GG_U16, 3, u16s, 6)};
    assert_int_equal(tfs_gg_put_kv(&w, 6, &kv), TFS_OK);
    static const want_field arr[] = {{TFS_FIELD_KV, 0, 49, 8 + 1 + 4 + 4 + 8 + 6},
                                     {TFS_FIELD_ELEM_TYPE, 0, 62, 4},
                                     {TFS_FIELD_COUNT, 0, 66, 8},
                                     {TFS_FIELD_ARRAY_DATA, 0, 74, 6},
                                     {TFS_FIELD_VALUE, 0, 74, 2},
                                     {TFS_FIELD_VALUE, 1, 76, 2},
                                     {TFS_FIELD_VALUE, 2, 78, 2}};
    assert_fields(&w, 6, arr, sizeof arr / sizeof arr[0]);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_VALUE, 6, 3));
    /* a string array with raw bytes too: the strings only (write.h) */
    tfs_wbuf w2 = {0};
    tfs_wstr two[2] = {tfs_wstr_c("p"), tfs_wstr_c("qr")};
    tfs_gg_wvalue both = tfs_gg_wval_str_array(two, 2);
    both.raw = u16s, both.raw_len = 6;
    assert_int_equal(tfs_gg_put_value(&w2, 0, &both), TFS_OK);
    assert_int_equal(w2.size, 4 + 8 + 8 + 1 + 8 + 2);
    assert_int_equal(tfs_wbuf_find(&w2, TFS_FIELD_ARRAY_DATA, 0, 0)->width, 8 + 1 + 8 + 2);
    assert_null(tfs_wbuf_find(&w2, TFS_FIELD_VALUE, 0, 0));
    tfs_wbuf_free(&w2);
    assert_int_equal(w.size, 80);
    /* a tensor info at 80: name "t", 2 dims */
    tfs_gg_wtensor t = {.name = tfs_wstr_c("t"), .n_dims = 2, .ne = {4, 5}, .type = 1};
    assert_int_equal(tfs_gg_put_tensor_info(&w, 7, &t, 64), TFS_OK);
    static const want_field ti[] = {{TFS_FIELD_TENSOR_INFO, 0, 80, 8 + 1 + 4 + 16 + 4 + 8},
                                    {TFS_FIELD_NAME_LEN, 0, 80, 8},
                                    {TFS_FIELD_NAME, 0, 88, 1},
                                    {TFS_FIELD_N_DIMS, 0, 89, 4},
                                    {TFS_FIELD_DIM, 0, 93, 8},
                                    {TFS_FIELD_DIM, 1, 101, 8},
                                    {TFS_FIELD_TYPE, 0, 109, 4},
                                    {TFS_FIELD_OFFSET, 0, 113, 8}};
    assert_fields(&w, 7, ti, sizeof ti / sizeof ti[0]);
    assert_int_equal(w.size, 121);
    tfs_wbuf_free(&w);
}

/* tfs_gg_tensor_nbytes: ne[0] / block size * type size * ne[1] * ...; -1
 * for a negative ne (as i64) in any position, ne[0] not a multiple of the
 * block, an unknown or removed type, or overflow (sizes: gg_types.def, which
 * test_ggml_type_table checks against ggml). */
static void test_tensor_nbytes(void **state) {
    (void)state;
    const uint64_t i64max = (uint64_t)INT64_MAX, neg = (uint64_t)INT64_MAX + 1u;
    uint64_t out = 0;
    uint64_t ne[2] = {i64max, 1};
    assert_int_equal(tfs_gg_tensor_nbytes(24 /* i8 */, 1, ne, &out), 0);
    assert_true(out == i64max);
    ne[0] = neg;
    assert_int_equal(tfs_gg_tensor_nbytes(24, 1, ne, &out), -1);
    ne[0] = 1, ne[1] = i64max;
    assert_int_equal(tfs_gg_tensor_nbytes(24, 2, ne, &out), 0);
    assert_true(out == i64max);
    ne[1] = neg;
    assert_int_equal(tfs_gg_tensor_nbytes(24, 2, ne, &out), -1);
    /* q2_K (256 elements in 84 bytes): ne[0] negative although the size would fit */
    ne[0] = UINT64_MAX - 255u, ne[1] = 1;
    assert_int_equal(tfs_gg_tensor_nbytes(10, 1, ne, &out), -1);
    ne[0] = neg - 256u;
    assert_int_equal(tfs_gg_tensor_nbytes(10, 1, ne, &out), 0);
    assert_true(out == ((neg - 256u) / 256u) * 84u);
    ne[0] = 257;
    assert_int_equal(tfs_gg_tensor_nbytes(10, 1, ne, &out), -1);
    /* f32: ne[0] * 4 at the limit, then one past; ne[1] overflowing */
    ne[0] = UINT64_C(1) << 61, ne[1] = 1;
    assert_int_equal(tfs_gg_tensor_nbytes(0, 1, ne, &out), 0);
    assert_true(out == UINT64_C(1) << 63);
    ne[0] = UINT64_C(1) << 62;
    assert_int_equal(tfs_gg_tensor_nbytes(0, 1, ne, &out), -1);
    ne[0] = UINT64_C(1) << 32, ne[1] = UINT64_C(1) << 29;
    assert_int_equal(tfs_gg_tensor_nbytes(0, 2, ne, &out), 0);
    assert_true(out == UINT64_C(1) << 63);
    ne[1] = UINT64_C(1) << 30;
    assert_int_equal(tfs_gg_tensor_nbytes(0, 2, ne, &out), -1);
    /* no dims: one element */
    assert_int_equal(tfs_gg_tensor_nbytes(0, 0, NULL, &out), 0);
    assert_int_equal(out, 4);
    assert_int_equal(tfs_gg_tensor_nbytes(2 /* q4_0 */, 0, NULL, &out), -1);
    assert_int_equal(tfs_gg_tensor_nbytes(0, 1, NULL, &out), -1);
    assert_int_equal(tfs_gg_tensor_nbytes(4 /* removed */, 0, NULL, &out), -1);
    assert_int_equal(tfs_gg_tensor_nbytes(1000, 0, NULL, &out), -1);
}

static uint64_t up(uint64_t x, uint64_t a) { return (x + a - 1u) / a * a; }

/* The file size of a model of `kv` and one f32 tensor "t" of 1 element
 * (info 8 + 1 + 4 + 8 + 4 + 8 = 33 bytes), laid out with alignment a:
 * header padded to a, 4 data bytes padded to a. */
static void check_alignment(const tfs_gg_wkv *kv, size_t n_kv, uint32_t model_alignment, uint64_t kv_bytes,
                            uint64_t a) {
    tfs_gg_wtensor t = {.name = tfs_wstr_c("t"), .n_dims = 1, .ne = {1}, .type = 0};
    tfs_gg_model m = {
        .version = 3, .n_kv = n_kv, .kv = kv, .n_tensors = 1, .tensors = &t, .alignment = model_alignment};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    uint64_t hdr = 24u + kv_bytes + 33u;
    assert_int_equal(w.size, up(hdr, a) + up(4, a));
    const tfs_field *d = tfs_wbuf_find(&w, TFS_FIELD_DATA, 0, 0);
    assert_non_null(d);
    assert_int_equal(d->offset, up(hdr, a));
    tfs_wbuf_free(&w);
}

/* The layout alignment: model.alignment, else a u32 general.alignment KV
 * (the exact key, no hole) that is not 0, else 32 (ggml's rules). */
static void test_alignment_from_kv(void **state) {
    (void)state;
    static const uint8_t le64[4] = {64, 0, 0, 0};
    tfs_wstr exact = tfs_wstr_c("general.alignment");
    tfs_gg_wkv kv[2] = {{exact, tfs_gg_wval_scalar(TFS_GG_U32, 64)}};
    const uint64_t u32kv = 8u + 17u + 4u + 4u;
    check_alignment(kv, 1, 0, u32kv, 64);
    check_alignment(kv, 1, 16, u32kv, 16);
    kv[0].key = tfs_wstr_c("general.alignmenX");
    check_alignment(kv, 1, 0, u32kv, 32);
    kv[0].key = tfs_wstr_n("general.alignment.", 17); /* the 17 bytes, no NUL after them */
    check_alignment(kv, 1, 0, u32kv, 64);
    kv[0].key = tfs_wstr_c("general.alignment.x");
    check_alignment(kv, 1, 0, u32kv + 2u, 32);
    kv[0].key = exact, kv[0].key.hole = 1;
    check_alignment(kv, 1, 0, u32kv + 1u, 32);
    kv[0].key = exact, kv[0].value = tfs_gg_wval_scalar(TFS_GG_U8, 64);
    check_alignment(kv, 1, 0, u32kv - 3u, 32);
    kv[0].value = tfs_gg_wval_scalar(TFS_GG_U32, 0);
    check_alignment(kv, 1, 0, u32kv, 32);
    kv[1] = (tfs_gg_wkv){exact, tfs_gg_wval_scalar(TFS_GG_U32, 64)}; /* a 0 first, then 64 */
    check_alignment(kv, 2, 0, 2u * u32kv, 64);
    kv[0].value = (tfs_gg_wvalue){.type = TFS_GG_U32, .count = 1, .raw = le64, .raw_len = 4};
    check_alignment(kv, 1, 0, u32kv, 64);
    kv[0].value.raw_len = 3; /* too short to hold a u32: not used */
    check_alignment(kv, 1, 0, u32kv - 1u, 32);
}

/* Offsets and padding are relative to where the file starts in the buffer
 * and, for data, to where the data section starts. */
static void test_layout_relative(void **state) {
    (void)state;
    static const uint8_t bytes[4] = {'A', 'B', 'C', 'D'};
    tfs_gg_wtensor t[4] = {
        {.name = tfs_wstr_c("a"), .n_dims = 1, .ne = {5}, .type = 0, .data = NULL},        /* 20 B */
        {.name = tfs_wstr_c("b"), .n_dims = 8, .ne = {1, 1, 1, 1, 1, 1, 1, 2}, .type = 0}, /* 8 B */
        {.name = tfs_wstr_c("c"), .n_dims = 1, .ne = {1}, .type = 4},                      /* removed: 0 B */
        {.name = tfs_wstr_c("d"), .n_dims = 1, .ne = {1}, .type = 0, .data = bytes},       /* 4 B */
    };
    /* infos: 4 x (8 + 1 + 4 + 4 + 8) + 8 * (1 + 8 + 1 + 1) = 100 + 88 */
    const uint64_t hdr = 24u + 188u;
    tfs_gg_model m = {.version = 3, .n_tensors = 4, .tensors = t};
    tfs_wbuf w = {0};
    size_t n_plain;
    uint8_t *plain = tfs_test_write_flat(&w, &m, NULL, &n_plain);
    assert_int_equal(w.size, 224u + 32u + 32u + 0u + 32u);
    static const uint64_t offset[4] = {0, 32, 64, 64}, width[4] = {20, 8, 0, 4};
    for (int32_t i = 0; i < 4; i++) {
        const tfs_field *o = tfs_wbuf_find(&w, TFS_FIELD_OFFSET, i, 0), *d = tfs_wbuf_find(&w, TFS_FIELD_DATA, i, 0);
        const uint8_t *p = tfs_wbuf_at(&w, o->offset, 8);
        uint64_t v = 0;
        for (int k = 0; k < 8; k++) v |= (uint64_t)p[k] << (8 * k);
        assert_int_equal(v, offset[i]);
        assert_int_equal(d->offset, 224u + offset[i]);
        assert_int_equal(d->width, width[i]);
    }
    assert_memory_equal(tfs_wbuf_at(&w, 224u + 64u, 4), bytes, 4);
    tfs_wbuf_free(&w);

    /* after 3 bytes already in the buffer: the same file, 3 bytes later */
    tfs_test_assert_shifted(&w, &m, NULL, plain, n_plain);
    assert_int_equal(tfs_wbuf_find(&w, TFS_FIELD_PADDING, -1, 0)->offset, 3u + hdr);
    tfs_wbuf_free(&w);

    /* no header padding: data padding still counts from the data start */
    m.flags = TFS_GGW_NO_HEADER_PAD;
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_PADDING, -1, 0));
    static const uint64_t pad[4] = {12, 24, 0, 28};
    for (int32_t i = 0; i < 4; i++) {
        const tfs_field *d = tfs_wbuf_find(&w, TFS_FIELD_DATA, i, 0),
                        *p = tfs_wbuf_find(&w, TFS_FIELD_DATA_PADDING, i, 0);
        assert_int_equal(d->offset, hdr + offset[i]);
        if (pad[i]) {
            assert_non_null(p);
            assert_int_equal(p->offset, hdr + offset[i] + width[i]);
            assert_int_equal(p->width, pad[i]);
        } else {
            assert_null(p);
        }
    }
    assert_int_equal(w.size, hdr + 96u);
    tfs_wbuf_free(&w);

    /* data longer than the tensor: its bytes, then zeros; shorter: cut */
    t[3].data_len_set = 1, t[3].data_len = 6;
    m.flags = TFS_GGW_NO_DATA_PAD;
    size_t n;
    uint8_t *p = tfs_test_write_flat(&w, &m, NULL, &n);
    assert_int_equal(w.size, 224u + 20u + 8u + 6u); /* contiguous: d's bytes at 28 */
    assert_memory_equal(p + 224u + 28u, "ABCD\0\0", 6);
    free(p);
    tfs_wbuf_free(&w);
    t[3].data_len = 2;
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_int_equal(w.size, 224u + 28u + 2u);
    assert_memory_equal(tfs_wbuf_at(&w, 224u + 28u, 2), "AB", 2);
    tfs_wbuf_free(&w);
    free(plain);
}

/* Padding that would pass UINT64_MAX: refused, with no padding field; a
 * section that ends aligned needs none.  Sizes as holes (no memory). */
static void test_padding_at_uint64_max(void **state) {
    (void)state;
    /* data padding: header 24 + info 33 = 57 unpadded (NO_HEADER_PAD), alignment 2^31 */
    tfs_gg_wtensor t = {.name = tfs_wstr_c("t"), .n_dims = 1, .ne = {1}, .type = 0, .data_len_set = 1};
    tfs_gg_model m = {
        .version = 3, .n_tensors = 1, .tensors = &t, .alignment = UINT32_C(1) << 31, .flags = TFS_GGW_NO_HEADER_PAD};
    tfs_wbuf w = {0};
    t.data_len = UINT64_MAX - (UINT64_C(1) << 31) + 1u; /* 2^64 - 2^31: aligned */
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_true(w.size == 57u + t.data_len);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_DATA_PADDING, 0, 0));
    tfs_wbuf_free(&w);
    t.data_len = UINT64_MAX - 99u; /* 100 bytes of padding would reach 2^64 */
    assert_int_equal(tfs_gg_write(&m, &w), TFS_EARG);
    assert_true(w.size == 57u + t.data_len);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_DATA_PADDING, 0, 0));
    tfs_wbuf_free(&w);
    /* header padding: a KV string of h hole bytes; header 24 + (8 + 1 + 4 + 8 + h) + 33 */
    tfs_wstr h = tfs_wstr_hole(UINT64_MAX - 31u - 78u);
    tfs_gg_wkv kv = {tfs_wstr_c("k"), tfs_gg_wval_str(&h)};
    t.data_len_set = 0;
    m = (tfs_gg_model){.version = 3, .n_kv = 1, .kv = &kv, .n_tensors = 1, .tensors = &t, .flags = TFS_GGW_NO_DATA};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_true(w.size == UINT64_MAX - 31u); /* 2^64 - 32: aligned */
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_PADDING, -1, 0));
    tfs_wbuf_free(&w);
    h = tfs_wstr_hole(UINT64_MAX - 30u - 78u); /* 31 bytes of padding would reach 2^64 */
    assert_int_equal(tfs_gg_write(&m, &w), TFS_EARG);
    assert_true(w.size == UINT64_MAX - 30u);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_PADDING, -1, 0));
    tfs_wbuf_free(&w);
}

/* The model `back` writes the n bytes at p again. */
static void assert_writes(const tfs_gg_model *back, const uint8_t *p, size_t n) {
    size_t n2;
    uint8_t *p2 = tfs_test_write_flat(NULL, back, NULL, &n2);
    assert_int_equal(n2, n);
    assert_memory_equal(p2, p, n);
    free(p2);
}

/* view -> model over a forward-only source (and the buffer API): values the parser kept (strings
 * of at most 256 bytes, the first TFS_ARRAY_KEEP bytes of an array) give the
 * same file again; one byte more cannot be re-read: TFS_EIO (tfs.h). */
static void check_forward(const tfs_gg_wkv *kv, size_t n_kv, tfs_status want) {
    tfs_gg_model m = {.version = 3, .n_kv = n_kv, .kv = kv};
    size_t n;
    uint8_t *p = tfs_test_write_flat(NULL, &m, NULL, &n);
    tfs_test_stream st;
    tfs_source src;
    tfs_test_stream_source(&src, &st, p, n);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    tfs_gg_model *back = NULL;
    assert_int_equal(tfs_gg_model_from_view(h, &back), want);
    if (want == TFS_OK) {
        assert_writes(back, p, n);
    } else {
        assert_null(back);
    }
    tfs_gg_model_free(back);
    tfs_header_free(h);
    /* a random-access reader: values re-read into the model's arena */
    tfs_test_reader rd;
    tfs_test_reader_source(&src, &rd, p, n, 7);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(tfs_gg_model_from_view(h, &back), TFS_OK);
    assert_writes(back, p, n);
    tfs_gg_model_free(back);
    tfs_header_free(h);
    /* the buffer API: always the same file again */
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(tfs_gg_model_from_view(h, &back), TFS_OK);
    for (size_t i = 0; i < n_kv; i++) /* fixed-size elements stay raw elements */
        if (kv[i].value.type == TFS_GG_ARRAY && kv[i].value.elem_type != TFS_GG_STRING) {
            assert_null(back->kv[i].value.strs);
            assert_int_equal(back->kv[i].value.raw_len, kv[i].value.raw_len);
        } else if (kv[i].value.type != TFS_GG_ARRAY && kv[i].value.type != TFS_GG_STRING) {
            /* other values come through the accessors (write.h): a scalar's bytes, no raw copy */
            assert_null(back->kv[i].value.raw);
            assert_int_equal(back->kv[i].value.count, kv[i].value.count);
            assert_memory_equal(back->kv[i].value.scalar, kv[i].value.scalar, tfs_gg_vtype_size(kv[i].value.type));
        }
    assert_writes(back, p, n);
    tfs_gg_model_free(back);
    tfs_header_free(h);
    free(p);
}

static void test_model_from_forward_only_source(void **state) {
    (void)state;
    static uint8_t bytes[TFS_ARRAY_KEEP + 1];
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)(i * 7u + 1u);
    tfs_wstr s = tfs_wstr_n(bytes, 256);
    tfs_gg_wkv kv[2] = {{tfs_wstr_c("a"), tfs_gg_wval_str(&s)}, {tfs_wstr_c("b"), tfs_gg_wval_scalar(TFS_GG_U16, 9)}};
    check_forward(kv, 2, TFS_OK);
    s.len = 257;
    check_forward(kv, 2, TFS_EIO);
    kv[1] = kv[0], kv[1].key = tfs_wstr_c("b"); /* the second KV fails */
    s.len = 256;
    tfs_wstr s2 = tfs_wstr_n(bytes, 257);
    kv[1].value = tfs_gg_wval_str(&s2);
    check_forward(kv, 2, TFS_EIO);
    /* arrays: 64 KiB of u8 */
    kv[0].value = tfs_gg_wval_array(TFS_GG_U8, TFS_ARRAY_KEEP, bytes, TFS_ARRAY_KEEP);
    check_forward(kv, 1, TFS_OK);
    kv[0].value = tfs_gg_wval_array(TFS_GG_U8, TFS_ARRAY_KEEP + 1u, bytes, TFS_ARRAY_KEEP + 1u);
    check_forward(kv, 1, TFS_EIO);
    /* 16,384 u32: 64 KiB */
    kv[0].value = tfs_gg_wval_array(TFS_GG_U32, TFS_ARRAY_KEEP / 4u, bytes, TFS_ARRAY_KEEP);
    check_forward(kv, 1, TFS_OK);
    /* strings: two of (8 + 32,756) = 65,528 bytes, then one byte past 64 KiB */
    tfs_wstr two[2] = {tfs_wstr_n(bytes, 32756), tfs_wstr_n(bytes + 5, 32756)};
    kv[0].value = tfs_gg_wval_str_array(two, 2);
    check_forward(kv, 1, TFS_OK);
    two[1].len = 32769;
    check_forward(kv, 1, TFS_EIO);
    /* one string of 300 bytes (a length with a second byte); an 8-byte string, then another */
    two[0].len = 300;
    kv[0].value = tfs_gg_wval_str_array(two, 1);
    check_forward(kv, 1, TFS_OK);
    two[0] = tfs_wstr_c("ABCDEFGH"), two[1] = tfs_wstr_c("xyz");
    kv[0].value = tfs_gg_wval_str_array(two, 2);
    check_forward(kv, 1, TFS_OK);
    /* lengths whose misreading (a bit forced, a byte skipped) still walks
     * the array to its end */
    two[0] = tfs_wstr_c("ab"), two[1] = tfs_wstr_n("\0z", 2);
    check_forward(kv, 1, TFS_OK);
    static uint8_t b300[300];
    memset(b300, 'q', sizeof b300);
    b300[248] = 44, memset(b300 + 249, 0, 7); /* 256 read as 512 lands on this "length" 44 */
    two[0] = tfs_wstr_n(bytes, 256), two[1] = tfs_wstr_n(b300, 300);
    check_forward(kv, 1, TFS_OK);
    /* three long strings (not kept by the parser: read into the arena one after another) */
    static uint8_t longs[3][300];
    for (int i = 0; i < 3; i++) memset(longs[i], 'a' + i, 300);
    tfs_wstr l0 = tfs_wstr_n(longs[0], 300), l1 = tfs_wstr_n(longs[1], 300), l2 = tfs_wstr_n(longs[2], 300);
    tfs_gg_wkv three[3] = {{tfs_wstr_c("a"), tfs_gg_wval_str(&l0)},
                           {tfs_wstr_c("b"), tfs_gg_wval_str(&l1)},
                           {tfs_wstr_c("c"), tfs_gg_wval_str(&l2)}};
    check_forward(three, 3, TFS_EIO); /* forward-only: longer than 256 bytes */
    /* u64 zeros (which also read as empty strings): kept as raw elements */
    static const uint8_t zeros[16] = {0};
    kv[0].value = tfs_gg_wval_array(TFS_GG_U64, 2, zeros, 16);
    check_forward(kv, 1, TFS_OK);
}

/* view -> model: NULL arguments, *out cleared; freeing NULL is allowed. */
static void test_model_from_view_arguments(void **state) {
    (void)state;
    tfs_gg_model *g = (tfs_gg_model *)&g;
    assert_int_equal(tfs_gg_model_from_view(NULL, &g), TFS_EARG);
    assert_null(g);
    tfs_st_model *s = (tfs_st_model *)&s;
    assert_int_equal(tfs_st_model_from_view(NULL, &s), TFS_EARG);
    assert_null(s);
    tfs_gg_model m = {.version = 3};
    size_t n;
    uint8_t *p = tfs_test_write_flat(NULL, &m, NULL, &n);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(tfs_gg_model_from_view(h, NULL), TFS_EARG);
    assert_int_equal(tfs_st_model_from_view(h, NULL), TFS_EARG);
    s = (tfs_st_model *)&s;
    assert_int_equal(tfs_st_model_from_view(h, &s), TFS_EARG); /* not safetensors */
    assert_null(s);
    assert_int_equal(tfs_gg_model_from_view(h, &g), TFS_OK); /* no KVs, no tensors */
    assert_int_equal(g->n_kv, 0);
    assert_int_equal(g->n_tensors, 0);
    tfs_gg_model_free(g);
    tfs_header_free(h);
    free(p);
    /* a safetensors view is not GGUF */
    static const uint64_t one[1] = {1};
    tfs_st_wentry se = {.name = tfs_wstr_c("t"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = one};
    tfs_st_model sm = {.n_entries = 1, .entries = &se};
    p = tfs_test_write_flat(NULL, NULL, &sm, &n);
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_SAFETENSORS, 0, &h, &e), TFS_OK);
    g = (tfs_gg_model *)&g;
    assert_int_equal(tfs_gg_model_from_view(h, &g), TFS_EARG);
    assert_null(g);
    tfs_header_free(h);
    free(p);
    /* a key one byte longer than TFS_KEY_KEEP, first of two KVs: a reader's view
     * holds only its first bytes (TFS_EARG); the buffer API's holds it all */
    static char key[TFS_KEY_KEEP + 2];
    memset(key, 'k', TFS_KEY_KEEP + 1u);
    tfs_gg_wkv kv[2] = {{tfs_wstr_c(key), tfs_gg_wval_scalar(TFS_GG_U8, 1)},
                        {tfs_wstr_c("b"), tfs_gg_wval_scalar(TFS_GG_U8, 2)}};
    m = (tfs_gg_model){.version = 3, .n_kv = 2, .kv = kv};
    p = tfs_test_write_flat(NULL, &m, NULL, &n);
    tfs_test_reader rd;
    tfs_source src;
    tfs_test_reader_source(&src, &rd, p, n, 4096);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    g = (tfs_gg_model *)&g;
    assert_int_equal(tfs_gg_model_from_view(h, &g), TFS_EARG);
    assert_null(g);
    tfs_header_free(h);
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(tfs_gg_model_from_view(h, &g), TFS_OK);
    assert_int_equal(g->kv[0].key.len, TFS_KEY_KEEP + 1u);
    tfs_gg_model_free(g);
    tfs_header_free(h);
    free(p);
    tfs_gg_model_free(NULL);
    tfs_st_model_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constructors),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_model_refused),
        cmocka_unit_test(test_sticky_error),
        cmocka_unit_test(test_widths_at_uint64_max),
        cmocka_unit_test(test_field_widths),
        cmocka_unit_test(test_tensor_nbytes),
        cmocka_unit_test(test_alignment_from_kv),
        cmocka_unit_test(test_layout_relative),
        cmocka_unit_test(test_padding_at_uint64_max),
        cmocka_unit_test(test_model_from_forward_only_source),
        cmocka_unit_test(test_model_from_view_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
