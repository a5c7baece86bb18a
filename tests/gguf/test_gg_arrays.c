/* test_gg_arrays.c: array bounds as kv.c parse_array judges them, at the
 * boundaries the mutation runs found unpinned (docs/mutation-testing.md):
 * GG130's count bound where count x element size wraps to a size that fits,
 * exactly 2^30 elements, and a stream (size unknown) whose string array
 * outlasts the first window: GG130 judged once the stream ends, an element's
 * own rule when the array fits, an I/O error while finding out; and what a
 * stream keeps of a fixed-size array when little of the 64 MiB is left; a
 * stream learning its size past the header for GG304. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"
#include "common/sources.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TFS_NO_POSIX
#include <sys/mman.h>
#endif

/* count above 2^30 whose count x element size wraps to 0 modulo 2^64: the
 * count bound alone rejects it (ggml-adapter --meta rejects each file) */
static void test_GG130_count_above_2_30_size_wraps(void **state) {
    (void)state;
    static const struct {
        uint32_t type;
        uint64_t count;
    } cases[] = {{TFS_GG_U64, UINT64_C(1) << 61},
                 {TFS_GG_U32, UINT64_C(1) << 62},
                 {TFS_GG_U16, UINT64_C(1) << 63},
                 {TFS_GG_STRING, UINT64_C(1) << 61},
                 {TFS_GG_F64, UINT64_C(1) << 61}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_at at = gb_kv_arr(&b, "k", cases[k].type, cases[k].count);
        gb_kv_u32(&b, "next", 1);
        gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
        gb_free(&b);
    }
}

#ifndef TFS_NO_POSIX
/* exactly 2^30 u8 elements, all in the buffer: valid (the bound is > 2^30);
 * the 1 GiB block is reserved, never touched past its first page */
static void test_valid_array_of_2_30_elements(void **state) {
    (void)state;
    if (sizeof(size_t) < 8) skip();
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "k", TFS_GG_U8, UINT64_C(1) << 30);
    size_t n = b.len + ((size_t)1 << 30);
    uint8_t *p = mmap(NULL, n + 1u, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) skip();
    memcpy(p, b.p, b.len);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(h->kv[0].count, UINT64_C(1) << 30);
    assert_int_equal(h->kv[0].value_len, UINT64_C(1) << 30);
    tfs_header_free(h);
    /* one more element declared, one more byte there: GG130 at the count */
    uint64_t more = (UINT64_C(1) << 30) + 1u;
    for (int j = 0; j < 8; j++) p[b.len - 8u + (size_t)j] = (uint8_t)(more >> (8 * j));
    assert_int_equal(tfs_parse_buffer(p, n + 1u, TFS_FORMAT_GGUF, 0, &h, &e), TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), "GG130");
    assert_int_equal(e.offset, b.len - 8u);
    munmap(p, n + 1u);
    gb_free(&b);
}
#endif

/* A string array of `count` elements: `empties` empty strings, then, when
 * tail_len is not 0, one element of that length with `tail_have` of its
 * bytes, then `pad` zero bytes; the file is longer than a stream's first
 * window (64 KiB), so a stream does not know its size at the array. */
static gb_kv_at stream_array(gb *b, uint64_t count, size_t empties, uint64_t tail_len, size_t tail_have, size_t pad,
                             size_t *tail_at) {
    gb_header(b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(b, "k", TFS_GG_STRING, count);
    for (size_t i = 0; i < empties; i++) gb_u64(b, 0);
    *tail_at = b->len;
    if (tail_len) {
        gb_u64(b, tail_len);
        gb_zeros(b, tail_have);
    }
    gb_zeros(b, pad);
    return at;
}

/* count x 8 above the bytes left, the elements there running out 100,000
 * bytes in: GG130 at the count from every source (a stream judges it when
 * its end shows the array could not fit) */
static void test_GG130_string_array_longer_than_a_window(void **state) {
    (void)state;
    gb b = {0};
    size_t tail;
    gb_kv_at at = stream_array(&b, 20000, 12500, 0, 0, 0, &tail);
    gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
    gb_free(&b);
    /* the same with an element above 2^30 early on: GG130 still (the
     * array cannot fit, which a file knows first) */
    at = stream_array(&b, 20000, 100, (UINT64_C(1) << 30) + 1u, 0, 100000, &tail);
    gg_expect_invalid(&b, 0, TFS_GG130, at.count, 0);
    gb_free(&b);
}

/* count x 8 fits; an element fails on its own: its rule, from every source */
static void test_GG102_GG101_element_in_array_longer_than_a_window(void **state) {
    (void)state;
    gb b = {0};
    size_t tail;
    stream_array(&b, 10000, 9999, 100, 10, 0, &tail); /* 80,010 bytes of elements, body 90 short */
    gg_expect_invalid(&b, 0, TFS_GG102, tail, 0);
    gb_free(&b);
    stream_array(&b, 10000, 100, (UINT64_C(1) << 30) + 1u, 0, 100000, &tail);
    gg_expect_invalid(&b, 0, TFS_GG101, tail, 0);
    gb_free(&b);
}

/* A forward-only reader that fails (EIO) on any read reaching past `fail`. */
typedef struct failing {
    const uint8_t *p;
    size_t n, fail;
    uint64_t next;
} failing;

static int failing_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    failing *f = ctx;
    assert_int_equal(off, f->next);
    if (off + len > f->fail) return EIO;
    size_t k = off >= f->n ? 0 : f->n - (size_t)off < len ? f->n - (size_t)off : len;
    if (k) memcpy(buf, f->p + off, k);
    f->next += k;
    *got = k;
    return 0;
}

/* GG101 on an element while the stream cannot yet tell whether the array
 * fits: finding out (reading on to the array's end) fails: TFS_EIO, not the
 * element's rule */
static void test_stream_error_while_judging_string_array(void **state) {
    (void)state;
    gb b = {0};
    size_t tail;
    stream_array(&b, 10000, 100, (UINT64_C(1) << 30) + 1u, 0, 100000, &tail);
    failing f = {b.p, b.len, 70000, 0};
    tfs_source src = {.read = failing_read, .ctx = &f, .size = TFS_SIZE_UNKNOWN, .forward = 1};
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_EIO);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_null(h);
    /* the same reader failing only past the file's end: GG101 */
    f = (failing){b.p, b.len, b.len + 65536u, 0};
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), "GG101");
    assert_int_equal(e.offset, tail);
    gb_free(&b);
}

/* A stream keeps at most 64 MiB of all arrays together: after string
 * arrays that keep 64 MiB - 10 bytes, a u32 array keeps 2 whole elements
 * (8 of the 10 bytes left), then a u16 array 1 (the last 2). */
static void test_valid_stream_keeps_fixed_elements_in_what_is_left(void **state) {
    (void)state;
    enum { N_ARR = 1024, ELEM = TFS_ARRAY_KEEP - 8u };
    gb b = {0};
    gb_header(&b, 3, 0, N_ARR + 2u);
    char *body = calloc(ELEM, 1);
    assert_non_null(body);
    char key[16];
    for (int a = 0; a < N_ARR; a++) {
        snprintf(key, sizeof key, "a%d", a);
        gb_kv_arr(&b, key, TFS_GG_STRING, 1);
        gb_strn(&b, body, a == N_ARR - 1 ? ELEM - 10u : ELEM);
    }
    gb_kv_arr(&b, "u32", TFS_GG_U32, 100);
    for (uint32_t i = 0; i < 100; i++) gb_u32(&b, 1000u + i);
    gb_kv_arr(&b, "u16", TFS_GG_U16, 3);
    for (uint16_t i = 0; i < 3; i++) gb_u16(&b, (uint16_t)(7u + i));
    tfs_header *g = NULL;
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, b.p, b.len);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
    uint8_t blk[64];
    tfs_kv_cursor c;
    tfs_value v;
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[N_ARR], blk, sizeof blk), TFS_OK);
    while (tfs_kv_next(&c, &v, NULL) == TFS_OK) assert_int_equal(v.u64, 1000u + c.i - 1u);
    assert_int_equal(c.i, 2);
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[N_ARR + 1], blk, sizeof blk), TFS_OK);
    while (tfs_kv_next(&c, &v, NULL) == TFS_OK) assert_int_equal(v.u64, 7u + c.i - 1u);
    assert_int_equal(c.i, 1);
    tfs_header_free(g);
    free(body);
    gb_free(&b);
}

/* Tensor data cut 100,000 bytes into a 200,000-byte tensor: the header ends
 * more than a window (64 KiB) before the end, so a stream learns the size
 * only by reading on (layout.c tfs__gg_check_data): GG304 at the offset
 * field from every source (ggml-adapter --data rejects the file); and
 * TFS_EIO when that reading fails. */
static void test_GG304_stream_learns_size_past_a_window(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    int64_t ne[1] = {50000};
    gb_ti_at at = gb_ti(&b, "t", 1, ne, 0 /* F32 */, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 100000);
    gg_expect_invalid(&b, 0, TFS_GG304, at.offset, 0);
    tfs_header_free(gg_expect_ok(&b, TFS_HEADER_ONLY));
    failing f = {b.p, b.len, 90000, 0};
    tfs_source src = {.read = failing_read, .ctx = &f, .size = TFS_SIZE_UNKNOWN, .forward = 1};
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_EIO);
    assert_null(h);
    gb_free(&b);
}

/* TFS_STRICT reads bool array bodies in 64 KiB pieces (read.c
 * tfs__gg_scan_above): a byte above 1 as the only element, at 69,999 of
 * 70,000 (second piece) and as the last of 65,537 (a 1-byte last piece):
 * GG501 at that byte. */
static void test_GG501_bool_above_1_in_every_piece(void **state) {
    (void)state;
    static const size_t cases[][2] = {{1, 0}, {70000, 69999}, {65537, 65536}};
    for (size_t q = 0; q < 3; q++) {
        size_t n = cases[q][0], bad = cases[q][1];
        uint8_t *v = calloc(n, 1);
        assert_non_null(v);
        v[bad] = 2;
        gb b = {0};
        gb_header(&b, 3, 0, 1);
        gb_kv_at at = gb_kv_arr(&b, "flags", TFS_GG_BOOL, n);
        gb_bytes(&b, v, n);
        gg_expect_invalid(&b, TFS_STRICT, TFS_GG501, at.count + 8u + bad, 0);
        gb_free(&b);
        free(v);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG130_count_above_2_30_size_wraps),
#ifndef TFS_NO_POSIX
        cmocka_unit_test(test_valid_array_of_2_30_elements),
#endif
        cmocka_unit_test(test_GG130_string_array_longer_than_a_window),
        cmocka_unit_test(test_GG102_GG101_element_in_array_longer_than_a_window),
        cmocka_unit_test(test_stream_error_while_judging_string_array),
        cmocka_unit_test(test_GG304_stream_learns_size_past_a_window),
        cmocka_unit_test(test_GG501_bool_above_1_in_every_piece),
        cmocka_unit_test(test_valid_stream_keeps_fixed_elements_in_what_is_left),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
