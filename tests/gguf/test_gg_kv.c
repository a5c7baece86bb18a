/* test_gg_kv.c: KV pair rules GG101-GG141 (gguf.cpp gguf_init_from_reader
 * "KV pairs" block, gguf_reader::read overloads) and the KV view of every
 * value type, scalar and array. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"
#include "common/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STR (UINT64_C(1) << 30)

/* ---- strings (keys, values, array elements) ---- */

static void test_GG101_key_length_above_2_30(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_u64(&b, MAX_STR + 1u);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG101, 24, 0);
    gb_free(&b);
}

static void test_GG101_G5_key_length_2_56(void **state) {
    (void)state; /* buglog G5: ~50-byte file, first key length 2^56 */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_u64(&b, UINT64_C(1) << 56);
    gb_zeros(&b, 18);
    assert_int_equal(b.len, 50);
    gg_expect_invalid(&b, 0, TFS_GG101, 24, 0);
    gb_free(&b);
}

static void test_GG101_string_value(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 1);
    gb_kv_at at = gb_kv(&b, "b", TFS_GG_STRING);
    gb_u64(&b, UINT64_MAX);
    gg_expect_invalid(&b, 0, TFS_GG101, at.value, 1);
    gb_free(&b);
}

static void test_GG101_string_array_element(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "tokens", TFS_GG_STRING, 3);
    gb_str(&b, "ab");
    gb_str(&b, "cd");
    size_t third = b.len;
    gb_u64(&b, MAX_STR + 1u);
    gb_zeros(&b, 8);
    gg_expect_invalid(&b, 0, TFS_GG101, third, 0);
    gb_free(&b);
}

static void test_GG102_key_past_eof(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_u64(&b, 10);
    gb_bytes(&b, "abcdefghi", 9); /* one byte short */
    gg_expect_invalid(&b, 0, TFS_GG102, 24, 0);
    /* exactly 2^30 is not above the maximum: it is above the bytes left */
    gb_free(&b);
    gb_header(&b, 3, 0, 1);
    gb_u64(&b, MAX_STR);
    gg_expect_invalid(&b, 0, TFS_GG102, 24, 0);
    gb_free(&b);
}

static void test_GG102_string_value_past_eof(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv(&b, "general.name", TFS_GG_STRING);
    gb_u64(&b, 5);
    gb_bytes(&b, "abcd", 4);
    gg_expect_invalid(&b, 0, TFS_GG102, at.value, 0);
    gb_free(&b);
}

/* ---- truncation ---- */

static void test_GG103_truncated_key_length(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_u16(&b, 3);
    gg_expect_invalid(&b, 0, TFS_GG103, 24, 0);
    gb_free(&b);
}

static void test_GG103_truncated_type(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    size_t start = gb_str(&b, "key"); /* key exactly fills the file so far */
    gb_u16(&b, 4);
    gg_expect_invalid(&b, 0, TFS_GG103, start + 11u, 1);
    gg_expect_invalid_bytes(b.p, b.len - 2u, 0, TFS_GG103, start + 11u, 1);
    gb_free(&b);
}

static void test_GG103_truncated_scalar_value(void **state) {
    (void)state;
    const uint32_t types[] = {TFS_GG_U8, TFS_GG_U16, TFS_GG_I32, TFS_GG_F32, TFS_GG_U64, TFS_GG_F64, TFS_GG_BOOL};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 1);
        gb_kv_at at = gb_kv(&b, "k", types[i]);
        gb_zeros(&b, tfs_gg_vtype_size(types[i]) - 1u);
        gg_expect_invalid(&b, 0, TFS_GG103, at.value, 0);
        gb_free(&b);
    }
}

static void test_GG103_truncated_string_value_length(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv(&b, "k", TFS_GG_STRING);
    gb_u32(&b, 0);
    gg_expect_invalid(&b, 0, TFS_GG103, at.value, 0);
    gb_free(&b);
}

static void test_GG103_truncated_array_header(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv(&b, "k", TFS_GG_ARRAY);
    gb_u16(&b, 0);
    gg_expect_invalid(&b, 0, TFS_GG103, at.value, 0); /* element type cut */
    gb_free(&b);
    gb_header(&b, 3, 0, 1);
    at = gb_kv(&b, "k", TFS_GG_ARRAY);
    gb_u32(&b, TFS_GG_U8);
    gb_u32(&b, 1);
    gg_expect_invalid(&b, 0, TFS_GG103, at.value + 4u, 0); /* count cut */
    gb_free(&b);
}

static void test_GG103_string_array_element_length_cut(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "k", TFS_GG_STRING, 2);
    gb_str(&b, "abcd"); /* 12 bytes */
    size_t cut = b.len;
    gb_u32(&b, 1); /* 16 bytes left after the count: passes 2 x 8 */
    gg_expect_invalid(&b, 0, TFS_GG103, cut, 0);
    gb_free(&b);
}

static void test_GG103_fewer_kvs_than_declared(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 0, 0, 3);
    b.p[4] = 3;
    gb_kv_u32(&b, "a", 1);
    gb_kv_u32(&b, "b", 2);
    size_t end = b.len;
    gg_expect_invalid(&b, 0, TFS_GG103, end, 2);
    gb_free(&b);
}

/* ---- keys ---- */

static void test_GG110_G6_empty_key(void **state) {
    (void)state; /* buglog G6 */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_u32(&b, "", 1);
    gg_expect_invalid(&b, 0, TFS_GG110, 24, 0);
    /* judged right after the key: the type is never read */
    gg_expect_invalid_bytes(b.p, 32, 0, TFS_GG110, 24, 0);
    gb_free(&b);
}

static void test_GG110_empty_key_second(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_str(&b, "general.name", "x");
    gb_kv_at at = gb_kv_u32(&b, "", 1);
    gg_expect_invalid(&b, 0, TFS_GG110, at.start, 1);
    gb_free(&b);
}

static void test_GG111_duplicate_key(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv_u32(&b, "a.b", 1);
    gb_kv_str(&b, "a.c", "v");
    gb_kv_at at = gb_kv_str(&b, "a.b", "different type");
    gg_expect_invalid(&b, 0, TFS_GG111, at.start, 2);
    gg_expect_invalid_bytes(b.p, at.start + 11u, 0, TFS_GG111, at.start, 2); /* before the type */
    gb_free(&b);
}

static void test_GG111_keys_differing_after_nul_are_distinct(void **state) {
    (void)state; /* keys compare as byte strings (std::string ==) */
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv(&b, "", TFS_GG_U8); /* replaced below */
    gb_truncate(&b, 24);
    gb_strn(&b, "a\0b", 3);
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 1);
    gb_strn(&b, "a\0c", 3);
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 2);
    gb_strn(&b, "a", 1);
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 3);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_kv, 3);
    assert_int_equal(h->kv[0].key.len, 3);
    assert_memory_equal(h->kv[1].key.ptr, "a\0c", 3);
    tfs_header_free(h);
    size_t dup = b.len;
    b.p[20] = 4;
    gb_strn(&b, "a\0c", 3);
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 4);
    gg_expect_invalid(&b, 0, TFS_GG111, dup, 3);
    gb_free(&b);
}

/* Arrays longer than a stream keeps (TFS_ARRAY_KEEP bytes), a string scalar
 * above 256 bytes: gg_expect_ok reads every element with tfs_kv_cursor from
 * each source (16-byte blocks) and compares them with the buffer's; a
 * stream's cursor stops exactly past the kept bytes (issue 18, 2.2 / 2.3). */
static void test_valid_arrays_past_the_stream_bound(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 4);
    gb_kv_arr(&b, "u32s", TFS_GG_U32, 20000); /* 80,000 bytes: 16,384 kept */
    for (uint32_t i = 0; i < 20000; i++) gb_u32(&b, i * 2654435761u);
    gb_kv_arr(&b, "strs", TFS_GG_STRING, 5000); /* ~100 KB: the first whole ones kept */
    char s[40];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(s, sizeof s, "token-%d-%.*s", i, i % 17, "abcdefghijklmnopq");
        gb_strn(&b, s, (size_t)n);
    }
    char long_s[300];
    memset(long_s, 'x', sizeof long_s - 1);
    long_s[sizeof long_s - 1] = 0;
    gb_kv_str(&b, "long", long_s);
    gb_kv_arr(&b, "few", TFS_GG_I16, 3);
    gb_u16(&b, 1), gb_u16(&b, 0xFFFF), gb_u16(&b, 3);
    tfs_header *h = gg_expect_ok(&b, 0);
    /* a stream keeps 16,384 u32 and the first strings; not the long string */
    tfs_header *g = NULL;
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, b.p, b.len);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
    uint8_t blk[4096];
    tfs_kv_cursor c;
    tfs_value v;
    tfs_str t;
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[0], blk, sizeof blk), TFS_OK);
    while (tfs_kv_next(&c, &v, NULL) == TFS_OK) assert_int_equal(v.u64, (uint32_t)((uint32_t)c.i - 1u) * 2654435761u);
    assert_int_equal(c.i, TFS_ARRAY_KEEP / 4u);
    uint64_t used = 0, want = 0;
    for (int i = 0; i < 5000; i++) {
        uint64_t n = 8u + (uint64_t)snprintf(s, sizeof s, "token-%d-%.*s", i, i % 17, "abcdefghijklmnopq");
        if (used + n > TFS_ARRAY_KEEP) break;
        used += n, want++;
    }
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[1], blk, sizeof blk), TFS_OK);
    while (tfs_kv_next(&c, &v, &t) == TFS_OK) {
        int n = snprintf(s, sizeof s, "token-%d-%.*s", (int)c.i - 1, ((int)c.i - 1) % 17, "abcdefghijklmnopq");
        assert_int_equal(t.len, (size_t)n);
        assert_memory_equal(t.ptr, s, (size_t)n);
    }
    assert_int_equal(c.i, want);
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[2], blk, sizeof blk), TFS_OK);
    assert_int_equal(tfs_kv_next(&c, &v, &t), TFS_EIO);
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[3], NULL, 0), TFS_OK); /* kept: no block needed */
    assert_int_equal(tfs_kv_next(&c, &v, NULL), TFS_OK);
    assert_int_equal(tfs_kv_next(&c, &v, NULL), TFS_OK);
    assert_int_equal(v.i64, -1);
    tfs_header_free(g);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG111_many_keys_last_duplicates_first(void **state) {
    (void)state; /* the hash set grows past several rehashes */
    gb b = {0};
    gb_header(&b, 3, 0, 1001);
    char key[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "k.%d", i);
        gb_kv_u32(&b, key, (uint32_t)i);
    }
    gb_kv_at at = gb_kv_u32(&b, "k.0", 0);
    gg_expect_invalid(&b, 0, TFS_GG111, at.start, 1000);
    gb_truncate(&b, at.start);
    b.p[16] = 1000 & 0xFF, b.p[17] = 1000 >> 8;
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_kv, 1000);
    assert_int_equal(h->kv[999].key.len, 5);
    assert_memory_equal(h->kv[999].key.ptr, "k.999", 5);
    tfs_header_free(h);
    gb_free(&b);
}

/* ---- types ---- */

static void test_GG120_type_13(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv(&b, "k", 13);
    gb_zeros(&b, 8);
    gg_expect_invalid(&b, 0, TFS_GG120, at.type, 0);
    gb_free(&b);
}

static void test_GG120_type_negative(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 1);
    gb_kv_at at = gb_kv(&b, "k", 0xFFFFFFFFu);
    gg_expect_invalid(&b, 0, TFS_GG120, at.type, 1);
    gb_free(&b);
}

static void test_GG121_nested_array(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", TFS_GG_ARRAY, 1);
    gb_u32(&b, TFS_GG_U8);
    gb_u64(&b, 1);
    gb_u8(&b, 7);
    gg_expect_invalid(&b, 0, TFS_GG121, at.elem, 0);
    gb_free(&b);
}

static void test_GG121_element_type_13(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", 13, 0);
    gg_expect_invalid(&b, 0, TFS_GG121, at.elem, 0);
    gb_free(&b);
    gb_header(&b, 3, 0, 1);
    at = gb_kv_arr(&b, "k", 0x80000000u, 0);
    gg_expect_invalid(&b, 0, TFS_GG121, at.elem, 0);
    gb_free(&b);
}

static void test_GG121_judged_after_count(void **state) {
    (void)state; /* element type and count are read before the type is judged */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", 13, 0);
    gg_expect_invalid_bytes(b.p, b.len - 1u, 0, TFS_GG103, at.count, 0);
    gb_free(&b);
}

/* ---- array sizes ---- */

static void test_GG130_count_above_2_30(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", TFS_GG_U8, (UINT64_C(1) << 30) + 1u);
    gb_zeros(&b, 16);
    gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
    gb_free(&b);
}

static void test_GG130_count_past_eof(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", TFS_GG_U32, 3);
    gb_zeros(&b, 11);
    gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
    gb_zeros(&b, 1); /* count x size == bytes left: fine */
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->kv[0].count, 3);
    assert_int_equal(h->kv[0].value_len, 12);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_GG130_count_x_size_u64_huge(void **state) {
    (void)state; /* 2^30 x 8 bytes: within the count limit, past the file */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", TFS_GG_F64, UINT64_C(1) << 30);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
    gb_free(&b);
}

static void test_GG130_string_array_8_bytes_per_string(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "k", TFS_GG_STRING, 2);
    gb_u64(&b, 0);
    gb_zeros(&b, 7); /* 15 bytes < 2 x 8 */
    gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
    gb_free(&b);
}

/* ---- general.alignment ---- */

static void test_GG140_alignment_wrong_type(void **state) {
    (void)state; /* buglog G8: i32, string, u64 */
    const uint32_t types[] = {TFS_GG_I32, TFS_GG_STRING, TFS_GG_U64, TFS_GG_U16, TFS_GG_U8};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_u32(&b, "x", 0);
        gb_kv_at at = gb_kv(&b, "general.alignment", types[i]);
        if (types[i] == TFS_GG_STRING)
            gb_str(&b, "32");
        else
            gb_zeros(&b, tfs_gg_vtype_size(types[i]));
        b.p[b.len - (types[i] == TFS_GG_STRING ? 2u : tfs_gg_vtype_size(types[i]))] = 32;
        gg_expect_invalid(&b, 0, TFS_GG140, at.type, 1);
        gb_free(&b);
    }
}

static void test_GG140_alignment_array_of_u32(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "general.alignment", TFS_GG_U32, 1);
    gb_u32(&b, 32);
    gg_expect_invalid(&b, 0, TFS_GG140, at.type, 0);
    gb_free(&b);
}

static void test_GG140_alignment_key_with_nul_suffix(void **state) {
    (void)state; /* gguf_find_key compares C strings: "general.alignment\0z" matches */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_strn(&b, "general.alignment\0z", 19);
    size_t type_at = b.len;
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 7);
    gg_expect_invalid(&b, 0, TFS_GG140, type_at, 0);
    gb_free(&b);
}

static void test_GG140_checked_after_all_kvs(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv(&b, "general.alignment", TFS_GG_I32);
    gb_u32(&b, 32);
    gb_kv_u32(&b, "b", 1);
    gb_kv_at at = gb_kv_u32(&b, "b", 1);
    gg_expect_invalid(&b, 0, TFS_GG111, at.start, 2);
    gb_free(&b);
}

static void test_GG141_alignment_not_power_of_two(void **state) {
    (void)state;
    const uint32_t bad[] = {0u, 3u, 24u, 48u, 0xFFFFFFFFu, 0x80000001u};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_at at = gb_kv_u32(&b, "general.alignment", bad[i]);
        gb_kv_u32(&b, "z", 1);
        gg_expect_invalid(&b, 0, TFS_GG141, at.value, 0);
        gb_free(&b);
    }
}

static void test_valid_alignment_powers_of_two(void **state) {
    (void)state;
    const uint32_t good[] = {1u, 2u, 8u, 32u, 64u, 4096u, 0x80000000u};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 1);
        gb_kv_u32(&b, "general.alignment", good[i]);
        tfs_header *h = gg_expect_ok(&b, 0);
        assert_int_equal(h->alignment, good[i]);
        /* no tensors: the data section starts right after the KVs, unpadded */
        assert_int_equal(h->data_offset, b.len);
        tfs_header_free(h);
        gb_free(&b);
    }
}

/* ---- valid values of every type: views and accessors ---- */

/* The typed getter of kv's element type returns `raw` decoded; every other
 * getter returns TFS_ETYPE. */
static void assert_gg_typed(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint64_t raw) {
    uint32_t t = kv->elem_type;
    uint8_t u8;
    int8_t i8;
    uint16_t u16;
    int16_t i16;
    uint32_t u32;
    int32_t i32;
    uint64_t u64;
    int64_t i64;
    float f32;
    double f64;
    int bo;
    assert_int_equal(tfs_kv_get_u8(h, kv, i, &u8), t == TFS_GG_U8 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_i8(h, kv, i, &i8), t == TFS_GG_I8 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_u16(h, kv, i, &u16), t == TFS_GG_U16 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_i16(h, kv, i, &i16), t == TFS_GG_I16 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_u32(h, kv, i, &u32), t == TFS_GG_U32 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_i32(h, kv, i, &i32), t == TFS_GG_I32 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_u64(h, kv, i, &u64), t == TFS_GG_U64 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_i64(h, kv, i, &i64), t == TFS_GG_I64 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_f32(h, kv, i, &f32), t == TFS_GG_F32 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_f64(h, kv, i, &f64), t == TFS_GG_F64 ? TFS_OK : TFS_ETYPE);
    assert_int_equal(tfs_kv_get_bool(h, kv, i, &bo), t == TFS_GG_BOOL ? TFS_OK : TFS_ETYPE);
    switch (t) {
    case TFS_GG_U8: assert_int_equal(u8, (uint8_t)raw); break;
    case TFS_GG_I8: assert_int_equal(i8, (int8_t)raw); break;
    case TFS_GG_U16: assert_int_equal(u16, (uint16_t)raw); break;
    case TFS_GG_I16: assert_int_equal(i16, (int16_t)raw); break;
    case TFS_GG_U32: assert_int_equal(u32, (uint32_t)raw); break;
    case TFS_GG_I32: assert_int_equal(i32, (int32_t)raw); break;
    case TFS_GG_U64: assert_int_equal(u64, raw); break;
    case TFS_GG_I64: assert_int_equal(i64, (int64_t)raw); break;
    case TFS_GG_F32: {
        uint32_t bits = (uint32_t)raw;
        float w;
        memcpy(&w, &bits, 4);
        assert_memory_equal(&f32, &w, 4);
        break;
    }
    case TFS_GG_F64: {
        double w;
        memcpy(&w, &raw, 8);
        assert_memory_equal(&f64, &w, 8);
        break;
    }
    case TFS_GG_BOOL: assert_int_equal(bo, raw != 0); break;
    default: fail();
    }
}

static void test_valid_every_scalar_type(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 12);
    gb_kv_at at[13];
    char key[16];
    for (uint32_t t = 0; t < 13; t++) {
        if (t == TFS_GG_ARRAY) continue;
        snprintf(key, sizeof key, "scalar.%u", t);
        at[t] = gb_kv(&b, key, t);
        if (t == TFS_GG_STRING)
            gb_str(&b, "h\xC3\xA9llo");
        else
            for (size_t k = 0; k < tfs_gg_vtype_size(t); k++) gb_u8(&b, (uint8_t)(0x10 * t + k + 1));
    }
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_kv, 12);
    size_t i = 0;
    for (uint32_t t = 0; t < 13; t++) {
        if (t == TFS_GG_ARRAY) continue;
        const tfs_kv *kv = &h->kv[i++];
        snprintf(key, sizeof key, "scalar.%u", t);
        assert_int_equal(kv->key.len, strlen(key));
        assert_memory_equal(kv->key.ptr, key, strlen(key));
        assert_int_equal(kv->type, t);
        assert_int_equal(kv->elem_type, t);
        assert_int_equal(kv->count, 1);
        assert_int_equal(kv->value_offset, at[t].value);
        if (t == TFS_GG_STRING) {
            assert_int_equal(kv->value_len, 8 + 6);
            tfs_str v;
            assert_int_equal(tfs_kv_get_string(h, kv, 0, &v, NULL, 0), TFS_OK);
            assert_int_equal(v.len, 6);
            assert_memory_equal(v.ptr, "h\xC3\xA9llo", 6);
            assert_ptr_equal(v.ptr, b.p + at[t].value + 8); /* zero-copy */
        } else {
            size_t size = tfs_gg_vtype_size(t);
            assert_int_equal(kv->value_len, size);
            uint64_t raw = 0;
            for (size_t k = 0; k < size; k++) raw |= (uint64_t)(0x10 * t + k + 1) << (8 * k);
            tfs_value v;
            assert_int_equal(tfs_kv_get(h, kv, 0, &v), TFS_OK);
            assert_int_equal(v.type, t);
            assert_int_equal(v.offset, at[t].value);
            assert_int_equal(v.u64, raw); /* bool: the stored byte (tfs_kv_get_bool: != 0) */
            if (t != TFS_GG_F32 && t != TFS_GG_F64) assert_true(v.f64 == 0.0); /* tfs.h: f64 only for floats */
            assert_gg_typed(h, kv, 0, raw);
        }
        assert_int_equal(tfs_kv_get(h, kv, 1, &(tfs_value){0}), TFS_ERANGE);
    }
    tfs_header_free(h);
    gb_free(&b);
}

static void test_valid_array_of_every_type(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 24);
    char key[16];
    gb_kv_at at[13];
    for (uint32_t t = 0; t < 13; t++) {
        if (t == TFS_GG_ARRAY) continue;
        snprintf(key, sizeof key, "arr.%u", t);
        at[t] = gb_kv_arr(&b, key, t, 3);
        if (t == TFS_GG_STRING) {
            gb_str(&b, "");
            gb_str(&b, "b");
            gb_str(&b, "cc");
        } else {
            for (size_t k = 0; k < 3 * tfs_gg_vtype_size(t); k++) gb_u8(&b, (uint8_t)(t == TFS_GG_BOOL ? k % 2 : k));
        }
        snprintf(key, sizeof key, "empty.%u", t);
        gb_kv_arr(&b, key, t, 0);
    }
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_kv, 24);
    size_t i = 0;
    for (uint32_t t = 0; t < 13; t++) {
        if (t == TFS_GG_ARRAY) continue;
        const tfs_kv *kv = &h->kv[i++], *empty = &h->kv[i++];
        assert_int_equal(kv->type, TFS_GG_ARRAY);
        assert_int_equal(kv->elem_type, t);
        assert_int_equal(kv->count, 3);
        assert_int_equal(kv->value_offset, at[t].value);
        if (t == TFS_GG_STRING) {
            assert_int_equal(kv->value_len, 3 * 8 + 3);
            static const char *want[] = {"", "b", "cc"};
            for (uint64_t e = 0; e < 3; e++) {
                tfs_str v;
                assert_int_equal(tfs_kv_get_string(h, kv, e, &v, NULL, 0), TFS_OK);
                assert_int_equal(v.len, strlen(want[e]));
                if (v.len) assert_memory_equal(v.ptr, want[e], v.len);
            }
            uint32_t u;
            assert_int_equal(tfs_kv_get_u32(h, kv, 0, &u), TFS_ETYPE);
        } else {
            size_t size = tfs_gg_vtype_size(t);
            assert_int_equal(kv->value_len, 3 * size);
            for (uint64_t e = 0; e < 3; e++) {
                uint64_t raw = 0;
                for (size_t k = 0; k < size; k++)
                    raw |= (uint64_t)(t == TFS_GG_BOOL ? (e * size + k) % 2 : e * size + k) << (8 * k);
                tfs_value v;
                v.f64 = 1.0; /* filled by the call */
                assert_int_equal(tfs_kv_get(h, kv, e, &v), TFS_OK);
                assert_int_equal(v.offset, at[t].value + e * size);
                if (t != TFS_GG_F32 && t != TFS_GG_F64) assert_true(v.f64 == 0.0); /* tfs.h: f64 only for floats */
                assert_gg_typed(h, kv, e, raw);
            }
        }
        assert_int_equal(tfs_kv_get(h, kv, 3, &(tfs_value){0}), TFS_ERANGE);
        assert_int_equal(tfs_kv_get(h, empty, 0, &(tfs_value){0}), TFS_ERANGE);
        assert_int_equal(empty->type, TFS_GG_ARRAY);
        assert_int_equal(empty->elem_type, t);
        assert_int_equal(empty->count, 0);
        assert_int_equal(empty->value_len, 0);
    }
    tfs_header_free(h);
    gb_free(&b);
}

static void test_valid_bool_any_nonzero_byte(void **state) {
    (void)state; /* ggml reads bool as byte != 0: 2 and 0xFF are accepted */
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv(&b, "a", TFS_GG_BOOL);
    gb_u8(&b, 2);
    gb_kv_arr(&b, "b", TFS_GG_BOOL, 2);
    gb_u8(&b, 0xFF);
    gb_u8(&b, 0);
    tfs_header *h = gg_expect_ok(&b, 0);
    int v = -1;
    assert_int_equal(tfs_kv_get_bool(h, &h->kv[0], 0, &v), TFS_OK);
    assert_int_equal(v, 1);
    assert_int_equal(tfs_kv_get_bool(h, &h->kv[1], 0, &v), TFS_OK);
    assert_int_equal(v, 1);
    assert_int_equal(tfs_kv_get_bool(h, &h->kv[1], 1, &v), TFS_OK);
    assert_int_equal(v, 0);
    tfs_header_free(h);
    h = gg_expect_ok(&b, TFS_HEADER_ONLY);
    tfs_header_free(h);
    gb_free(&b);
}

/* ---- keys longer than TFS_KEY_KEEP: compared whole, memory kept bounded ---- */

enum { LONG_KEY = 200000 };

/* A KV (u32 value 1) whose key is `n` bytes at k; returns the KV's offset. */
static size_t put_long_kv(gb *b, const uint8_t *k, size_t n) {
    size_t at = gb_strn(b, k, n);
    gb_u32(b, TFS_GG_U32);
    gb_u32(b, 1);
    return at;
}

static uint8_t *long_key(uint8_t fill) {
    uint8_t *k = malloc(LONG_KEY);
    assert_non_null(k);
    memset(k, fill, LONG_KEY);
    return k;
}

static void test_GG111_long_keys_equal(void **state) {
    (void)state; /* equal in their last byte too: read again past TFS_KEY_KEEP */
    uint8_t *k = long_key('a');
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    put_long_kv(&b, k, LONG_KEY);
    size_t second = put_long_kv(&b, k, LONG_KEY);
    gg_expect_invalid(&b, 0, TFS_GG111, second, 1);
    gb_free(&b);
    free(k);
}

static void test_long_keys_differ_in_last_byte(void **state) {
    (void)state;
    uint8_t *k = long_key('a'), *l = long_key('a');
    l[LONG_KEY - 1] = 'b';
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    put_long_kv(&b, k, LONG_KEY);
    put_long_kv(&b, l, LONG_KEY);
    tfs_header *h = gg_expect_ok(&b, 0); /* also through the file and reader sources */
    assert_int_equal(h->kv[1].key_size, LONG_KEY);
    assert_int_equal(h->kv[1].key.len, LONG_KEY); /* a buffer's view holds the whole key */
    tfs_header_free(h);
    /* a file's view keeps TFS_KEY_KEEP bytes of it */
    tfs_error e;
    assert_int_equal(tfs_test_parse_second(b.p, b.len, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(h->kv[1].key_size, LONG_KEY);
    assert_int_equal(h->kv[1].key.len, TFS_KEY_KEEP);
    assert_memory_equal(h->kv[1].key.ptr, l, TFS_KEY_KEEP);
    tfs_header_free(h);
    gb_free(&b);
    free(k);
    free(l);
}

static void test_GG504_long_key(void **state) {
    (void)state;
    uint8_t *k = long_key('a');
    /* a valid 3-byte sequence across the first window boundary of the key */
    memcpy(k + TFS_KEY_KEEP - 1, "\xE2\x82\xAC", 3);
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    size_t at = put_long_kv(&b, k, LONG_KEY);
    /* valid UTF-8 (GG504 passes through every window): then the key is
     * longer than the spec's 65,535 bytes (GG505) */
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG505, at, 0);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
    /* an invalid byte far past TFS_KEY_KEEP */
    k[150000] = 0xFF;
    gb_header(&b, 3, 0, 1);
    at = put_long_kv(&b, k, LONG_KEY);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG504, at + 8u + 150000u, 0);
    gb_free(&b);
    free(k);
}

/* gguf_find_key compares C strings and takes the first match: a later key
 * "general.alignment\0x" (a distinct key) is not the alignment, whatever its
 * type or value (ggml-adapter --meta accepts both files). */
static void test_valid_alignment_first_match_wins(void **state) {
    (void)state;
    for (int second_u32 = 0; second_u32 <= 1; second_u32++) {
        gb b = {0};
        gb_header(&b, 3, 1, 2);
        gb_kv_u32(&b, "general.alignment", 32);
        gb_strn(&b, "general.alignment\0x", 19);
        if (second_u32) {
            gb_u32(&b, TFS_GG_U32);
            gb_u32(&b, 64);
        } else {
            gb_u32(&b, TFS_GG_STRING);
            gb_str(&b, "abc");
        }
        int64_t ne[1] = {8};
        gb_ti(&b, "t", 1, ne, 0 /* F32 */, 0);
        gb_pad(&b, 32);
        size_t data = b.len;
        gb_zeros(&b, 32);
        tfs_header *h = gg_expect_ok(&b, 0);
        assert_int_equal(h->alignment, 32);
        assert_int_equal(h->data_offset, data);
        tfs_header_free(h);
        gb_free(&b);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG111_long_keys_equal),
        cmocka_unit_test(test_long_keys_differ_in_last_byte),
        cmocka_unit_test(test_GG504_long_key),
        cmocka_unit_test(test_GG101_key_length_above_2_30),
        cmocka_unit_test(test_GG101_G5_key_length_2_56),
        cmocka_unit_test(test_GG101_string_value),
        cmocka_unit_test(test_GG101_string_array_element),
        cmocka_unit_test(test_GG102_key_past_eof),
        cmocka_unit_test(test_GG102_string_value_past_eof),
        cmocka_unit_test(test_GG103_truncated_key_length),
        cmocka_unit_test(test_GG103_truncated_type),
        cmocka_unit_test(test_GG103_truncated_scalar_value),
        cmocka_unit_test(test_GG103_truncated_string_value_length),
        cmocka_unit_test(test_GG103_truncated_array_header),
        cmocka_unit_test(test_GG103_string_array_element_length_cut),
        cmocka_unit_test(test_GG103_fewer_kvs_than_declared),
        cmocka_unit_test(test_GG110_G6_empty_key),
        cmocka_unit_test(test_GG110_empty_key_second),
        cmocka_unit_test(test_GG111_duplicate_key),
        cmocka_unit_test(test_GG111_keys_differing_after_nul_are_distinct),
        cmocka_unit_test(test_GG111_many_keys_last_duplicates_first),
        cmocka_unit_test(test_GG120_type_13),
        cmocka_unit_test(test_GG120_type_negative),
        cmocka_unit_test(test_GG121_nested_array),
        cmocka_unit_test(test_GG121_element_type_13),
        cmocka_unit_test(test_GG121_judged_after_count),
        cmocka_unit_test(test_GG130_count_above_2_30),
        cmocka_unit_test(test_GG130_count_past_eof),
        cmocka_unit_test(test_GG130_count_x_size_u64_huge),
        cmocka_unit_test(test_GG130_string_array_8_bytes_per_string),
        cmocka_unit_test(test_GG140_alignment_wrong_type),
        cmocka_unit_test(test_GG140_alignment_array_of_u32),
        cmocka_unit_test(test_GG140_alignment_key_with_nul_suffix),
        cmocka_unit_test(test_GG140_checked_after_all_kvs),
        cmocka_unit_test(test_GG141_alignment_not_power_of_two),
        cmocka_unit_test(test_valid_alignment_powers_of_two),
        cmocka_unit_test(test_valid_alignment_first_match_wins),
        cmocka_unit_test(test_valid_every_scalar_type),
        cmocka_unit_test(test_valid_array_of_every_type),
        cmocka_unit_test(test_valid_arrays_past_the_stream_bound),
        cmocka_unit_test(test_valid_bool_any_nonzero_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
