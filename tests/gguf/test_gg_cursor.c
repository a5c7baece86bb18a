/* test_gg_cursor.c: tfs_kv_cursor / tfs_kv_next (parsers/core/cursor.c)
 * over arrays and scalars of files read through a counting reader, with
 * expectations from the bytes the test wrote (values, file offsets, string
 * lengths and bytes) and from tfs.h's contract: one read of the source per
 * `cap` bytes of the caller's buffer, TFS_ERANGE for an element larger than
 * cap and after the last element, a string longer than cap cut to its first
 * cap bytes, in-memory values (buffer API) handed out in place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/sources.h"
#include "gguf/gg_build.h"
#include "tfs/tfs.h"

typedef struct counting {
    const uint8_t *p;
    size_t n;
    size_t calls;
    int fail;           /* every read fails (2: and claims len bytes in *got) */
    uint64_t fail_from; /* when not 0: every read that starts at or after this offset fails */
    size_t short_once;  /* when not 0: the next read returns at most this many bytes (then cleared) */
} counting;

static int c_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    counting *c = ctx;
    c->calls++;
    if (c->fail == 2) *got = len; /* a failing reader may leave anything in *got */
    if (c->fail || (c->fail_from && off >= c->fail_from)) return 5;
    size_t k = off >= c->n ? 0 : c->n - (size_t)off;
    if (k > len) k = len;
    if (c->short_once && k > c->short_once) {
        k = c->short_once;
        c->short_once = 0;
    }
    memcpy(buf, c->p + off, k);
    *got = k;
    return 0;
}

static tfs_header *parse_reader(counting *c, const gb *b) {
    c->p = b->p;
    c->n = b->len;
    tfs_source src = {.read = c_read, .ctx = c, .size = b->len};
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    return h;
}

/* b's bytes through a forward-only source of unknown size (a pipe): must parse */
static tfs_header *parse_stream(const gb *b) {
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, b->p, b->len);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    return h;
}

enum { N_U32 = 1000, N_STR = 40 };

/* element i of the string array: i % 23 bytes, then 300 bytes for i = 17 */
static size_t str_len(size_t i) { return i == 17 ? 300 : i % 23; }
static uint8_t str_byte(size_t i, size_t k) { return (uint8_t)('a' + (i * 7 + k) % 26); }

typedef struct layout {
    gb b;
    gb_kv_at u32s, strs, scalar, sscalar, u64s;
    size_t str_off[N_STR]; /* file offset of element i's first byte */
} layout;

static void build(layout *l) {
    memset(l, 0, sizeof *l);
    gb *b = &l->b;
    gb_header(b, 3, 0, 5);
    l->u32s = gb_kv_arr(b, "a.u32", TFS_GG_U32, N_U32);
    for (uint32_t i = 0; i < N_U32; i++) gb_u32(b, i * 2654435761u);
    l->strs = gb_kv_arr(b, "a.str", TFS_GG_STRING, N_STR);
    char s[300];
    for (size_t i = 0; i < N_STR; i++) {
        for (size_t k = 0; k < str_len(i); k++) s[k] = (char)str_byte(i, k);
        l->str_off[i] = gb_strn(b, s, str_len(i)) + 8u;
    }
    l->scalar = gb_kv_u32(b, "a.scalar", 0xA1B2C3D4u);
    l->sscalar = gb_kv_str(b, "a.sscalar", "scalar string");
    l->u64s = gb_kv_arr(b, "a.u64", TFS_GG_U64, 3);
    for (uint64_t i = 0; i < 3; i++) gb_u64(b, UINT64_C(0x0102030405060708) * (i + 1));
}

/* The state of the tests over the layout (cmocka setup / teardown): the
 * layout built and parsed through a counting reader. */
typedef struct fixture {
    layout l;
    counting c;
    tfs_header *h;
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    build(&f->l);
    f->h = parse_reader(&f->c, &f->l.b);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    tfs_header_free(f->h);
    gb_free(&f->l.b);
    free(f);
    return 0;
}

/* the end of a test: its view and its file freed */
static void release(tfs_header *h, gb *b) {
    tfs_header_free(h);
    gb_free(b);
}

/* v, element i of kv from a cursor, is what tfs_kv_get gives, every field
 * (tfs.h: "as tfs_kv_get"), also f64 of an integer or string element */
static void assert_as_get(const tfs_header *h, const tfs_kv *kv, uint64_t i, const tfs_value *v) {
    tfs_value g;
    assert_int_equal(tfs_kv_get(h, kv, i, &g), TFS_OK);
    assert_int_equal(g.type, v->type);
    assert_int_equal(g.u64, v->u64);
    assert_int_equal(g.i64, v->i64);
    assert_memory_equal(&g.f64, &v->f64, sizeof g.f64);
    assert_int_equal(g.offset, v->offset);
}

/* one read per block: cap bytes, or what is left of the array */
static void test_one_read_per_block(void **state) {
    fixture *f = *state;
    tfs_header *h = f->h;
    static const size_t caps[] = {4, 8, 12, 64, 4000, 8192};
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++) {
        uint8_t blk[8192];
        size_t cap = caps[ci];
        tfs_kv_cursor cur;
        assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[0], blk, cap), TFS_OK);
        f->c.calls = 0;
        tfs_value v;
        for (uint32_t i = 0; i < N_U32; i++) {
            assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK);
            assert_int_equal(v.type, TFS_GG_U32);
            assert_int_equal(v.u64, (uint32_t)(i * 2654435761u));
            assert_int_equal(v.offset, f->l.u32s.value + 4u * i);
            assert_int_equal(cur.i, i + 1);
            if (i % 97 == 0) { /* tfs_kv_get reads too: after the count */
                size_t calls = f->c.calls;
                assert_as_get(h, &h->kv[0], i, &v);
                f->c.calls = calls;
            }
        }
        assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_ERANGE);
        assert_int_equal(f->c.calls, (4u * N_U32 + cap - 1) / cap);
    }
}

/* an element larger than the block: TFS_ERANGE, nothing read */
static void test_element_larger_than_block(void **state) {
    fixture *f = *state;
    tfs_header *h = f->h;
    const tfs_kv *kv = &h->kv[4];
    assert_int_equal(kv->elem_type, TFS_GG_U64);
    uint8_t blk[16];
    tfs_kv_cursor cur;
    tfs_value v;
    assert_int_equal(tfs_kv_cursor_init(&cur, h, kv, blk, 7), TFS_OK);
    f->c.calls = 0;
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_ERANGE);
    assert_int_equal(cur.i, 0);
    assert_int_equal(f->c.calls, 0);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, kv, blk, 8), TFS_OK); /* exactly one element */
    for (uint64_t i = 0; i < 3; i++) {
        assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK);
        assert_true(v.u64 == UINT64_C(0x0102030405060708) * (i + 1));
        assert_int_equal(v.offset, f->l.u64s.value + 8u * i);
    }
    assert_int_equal(f->c.calls, 3);
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_ERANGE);
}

static void check_strings(const tfs_header *h, const layout *l, uint8_t *blk, size_t cap, int in_place) {
    tfs_kv_cursor cur;
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[1], blk, cap), TFS_OK);
    for (size_t i = 0; i < N_STR; i++) {
        tfs_value v;
        tfs_str s = {0};
        /* every other element without its bytes */
        int want_s = i % 3 != 1;
        assert_int_equal(tfs_kv_next(&cur, &v, want_s ? &s : NULL), TFS_OK);
        assert_int_equal(v.type, TFS_GG_STRING);
        assert_int_equal(v.u64, str_len(i));
        assert_int_equal(v.i64, (int64_t)str_len(i));
        assert_int_equal(v.offset, l->str_off[i]);
        assert_as_get(h, &h->kv[1], i, &v);
        if (!want_s) continue;
        size_t n = in_place || str_len(i) <= cap ? str_len(i) : cap;
        assert_int_equal(s.len, n);
        for (size_t k = 0; k < n; k++) assert_int_equal((uint8_t)s.ptr[k], str_byte(i, k));
        if (in_place && n) assert_ptr_equal(s.ptr, l->b.p + l->str_off[i]);
    }
    assert_int_equal(tfs_kv_next(&cur, &(tfs_value){0}, NULL), TFS_ERANGE);
}

static void test_strings(void **state) {
    fixture *f = *state;
    tfs_header *h = f->h;
    static const size_t caps[] = {8, 9, 16, 22, 23, 64, 299, 300, 301, 4096};
    uint8_t blk[4096];
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ci++) check_strings(h, &f->l, blk, caps[ci], 0);
    /* a block too small for a length field */
    tfs_kv_cursor cur;
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[1], blk, 7), TFS_OK);
    assert_int_equal(tfs_kv_next(&cur, &(tfs_value){0}, NULL), TFS_ERANGE);
    tfs_header_free(h);
    f->h = NULL;
    /* the buffer API: every string in place, whatever cap, also with no block */
    f->h = h = gg_expect_ok(&f->l.b, 0);
    check_strings(h, &f->l, NULL, 0, 1);
    check_strings(h, &f->l, blk, 8, 1);
}

/* a scalar is one element; a string scalar's bytes go through the block */
static void test_scalars(void **state) {
    fixture *f = *state;
    tfs_header *h = f->h;
    uint8_t blk[64];
    tfs_kv_cursor cur;
    tfs_value v;
    tfs_str s;
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[2], blk, sizeof blk), TFS_OK);
    assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_OK);
    assert_int_equal(v.u64, 0xA1B2C3D4u);
    assert_int_equal(v.offset, f->l.scalar.value);
    assert_int_equal(cur.i, 1);
    assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_ERANGE);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[3], blk, sizeof blk), TFS_OK);
    assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_OK);
    assert_int_equal(v.u64, 13);
    assert_int_equal(v.offset, f->l.sscalar.value + 8u);
    assert_int_equal(s.len, 13);
    assert_memory_equal(s.ptr, "scalar string", 13);
    assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_ERANGE);
    /* without s: only the value */
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[3], blk, sizeof blk), TFS_OK);
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK);
    assert_int_equal(v.u64, 13);
}

static void test_arguments_and_failures(void **state) {
    fixture *f = *state;
    tfs_header *h = f->h;
    uint8_t blk[64];
    tfs_kv_cursor cur;
    tfs_value v;
    assert_int_equal(tfs_kv_cursor_init(NULL, h, &h->kv[0], blk, 64), TFS_EARG);
    assert_int_equal(tfs_kv_cursor_init(&cur, NULL, &h->kv[0], blk, 64), TFS_EARG);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, NULL, blk, 64), TFS_EARG);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[0], NULL, 64), TFS_EARG);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[h->n_kv], blk, 64), TFS_EARG);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, (const tfs_kv *)((const char *)&h->kv[1] + 8), blk, 64), TFS_EARG);
    tfs_kv copy = h->kv[0];
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &copy, blk, 64), TFS_EARG);
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[0], blk, 64), TFS_OK);
    assert_int_equal(cur.i, 0);
    assert_int_equal(cur.pos, f->l.u32s.value);
    assert_int_equal(tfs_kv_next(NULL, &v, NULL), TFS_EARG);
    assert_int_equal(tfs_kv_next(&cur, NULL, NULL), TFS_EARG);
    /* the source fails: TFS_EIO, and the cursor does not move */
    f->c.fail = 1;
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_EIO);
    assert_int_equal(cur.i, 0);
    f->c.fail = 0;
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK); /* read again after the failure */
    assert_int_equal(v.u64, 0);
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK);
    assert_int_equal(v.u64, 2654435761u);
    f->c.fail = 1;
    for (uint32_t i = 2; i < 16; i++) { /* still in the block read before: no read */
        assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK);
        assert_int_equal(v.u64, (uint32_t)(i * 2654435761u));
    }
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_EIO); /* element 16: the next block */
    /* a string array: the source fails before element 0's length is read */
    assert_int_equal(tfs_kv_cursor_init(&cur, h, &h->kv[1], blk, 64), TFS_OK);
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_EIO);
    assert_int_equal(cur.i, 0);
    assert_int_equal(cur.pos, f->l.strs.value);
    f->c.fail = 0;
    assert_int_equal(tfs_kv_next(&cur, &v, NULL), TFS_OK);
    assert_int_equal(v.u64, str_len(0));
    assert_int_equal(v.offset, f->l.str_off[0]);
    /* element 17 (300 bytes): its length is read, then the source fails on its
     * bytes: TFS_EIO, and the cursor stays on element 17 */
    tfs_str s;
    for (size_t i = 1; i < 17; i++) {
        assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_OK);
        assert_int_equal(s.len, str_len(i));
    }
    f->c.fail_from = f->l.str_off[17] - 7; /* reads from the length's second byte on */
    assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_EIO);
    assert_int_equal(cur.i, 17);
    assert_int_equal(cur.pos, f->l.str_off[17] - 8);
    f->c.fail_from = 0;
    assert_int_equal(tfs_kv_next(&cur, &v, &s), TFS_OK);
    assert_int_equal(v.u64, 300);
    assert_int_equal(s.len, 64); /* the block's first 64 bytes of it */
    assert_int_equal((uint8_t)s.ptr[63], str_byte(17, 63));
}

/* tfs_kv_get on the string arrays of a forward-only source: elements kept
 * (whole, within TFS_ARRAY_KEEP bytes) are found, with their lengths and
 * offsets; the first element that was not kept, and every later one, is
 * TFS_EIO (tfs.h), also in an array of which nothing was kept */
static void test_stream_kept_strings(void **state) {
    (void)state;
    static char big[TFS_ARRAY_KEEP + 10];
    memset(big, 'q', sizeof big);
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv_at a0 = gb_kv_arr(&b, "a.none", TFS_GG_STRING, 2);
    gb_strn(&b, big, sizeof big); /* too long to keep: nothing of this array is kept */
    gb_str(&b, "x");
    gb_kv_at a1 = gb_kv_arr(&b, "a.some", TFS_GG_STRING, 4);
    size_t e0 = gb_str(&b, "ab");
    size_t e1 = gb_str(&b, "");           /* the kept bytes end with this empty string */
    gb_strn(&b, big, TFS_ARRAY_KEEP - 8); /* 8 + 2 + 8 + 0 + 8 + this > TFS_ARRAY_KEEP: not kept */
    gb_str(&b, "z");
    /* 70 elements: the walk to element 65 starts from the mark at 64, past the kept bytes */
    gb_kv_arr(&b, "a.many", TFS_GG_STRING, 70);
    gb_str(&b, "s0");
    gb_strn(&b, big, sizeof big);
    for (int k = 2; k < 70; k++) gb_str(&b, "t");
    (void)a0;
    assert_int_equal(e0, a1.value);
    tfs_header *h = parse_stream(&b);
    tfs_value v;
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 0, &v), TFS_EIO);
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 1, &v), TFS_EIO);
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 0, &v), TFS_OK);
    assert_int_equal(v.u64, 2);
    assert_int_equal(v.offset, e0 + 8);
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 1, &v), TFS_OK);
    assert_int_equal(v.u64, 0);
    assert_int_equal(v.offset, e1 + 8);
    tfs_str s;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[1], 0, &s, NULL, 0), TFS_OK);
    assert_int_equal(s.len, 2);
    assert_memory_equal(s.ptr, "ab", 2);
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 2, &v), TFS_EIO);
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 3, &v), TFS_EIO);
    char sbuf[8];
    assert_int_equal(tfs_kv_get_string(h, &h->kv[1], 2, &s, sbuf, sizeof sbuf), TFS_EIO); /* not kept */
    assert_int_equal(tfs_kv_get(h, &h->kv[2], 0, &v), TFS_OK);
    assert_int_equal(v.u64, 2);
    for (uint64_t k = 1; k < 70; k++) assert_int_equal(tfs_kv_get(h, &h->kv[2], k, &v), TFS_EIO);
    release(h, &b);
}

/* tfs_kv_get on string elements read again through a random-access reader:
 * the last element's length field ends the file (the read there returns just
 * those 8 bytes); a failing reader gives TFS_EIO, whatever it put in *got */
static void test_reader_string_elements(void **state) {
    (void)state;
    /* element 3 is longer than find_string's 4096-byte chunk, so the last
     * length field is fetched alone: the read there returns its 8 bytes and
     * the file ends */
    static char el3[4100];
    memset(el3, 'd', sizeof el3);
    const char *el[5] = {"a", "bb", "", el3, ""};
    const size_t len[5] = {1, 2, 0, sizeof el3, 0};
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "a.strs", TFS_GG_STRING, 5);
    size_t off[5];
    for (int k = 0; k < 5; k++) off[k] = gb_strn(&b, el[k], len[k]) + 8u;
    assert_int_equal(off[4], b.len); /* the file ends with the last length field */
    counting c = {0};
    tfs_header *h = parse_reader(&c, &b);
    for (int k = 0; k < 5; k++) {
        tfs_value v;
        assert_int_equal(tfs_kv_get(h, &h->kv[0], (uint64_t)k, &v), TFS_OK);
        assert_int_equal(v.u64, len[k]);
        assert_int_equal(v.offset, off[k]);
        char buf[8];
        tfs_str s;
        assert_int_equal(tfs_kv_get_string(h, &h->kv[0], (uint64_t)k, &s, buf, sizeof buf), TFS_OK);
        assert_int_equal(s.len, len[k] < sizeof buf ? len[k] : sizeof buf);
        assert_memory_equal(s.ptr, el[k], s.len);
    }
    for (int mode = 1; mode <= 2; mode++) {
        c.fail = mode;
        tfs_value v;
        assert_int_equal(tfs_kv_get(h, &h->kv[0], 3, &v), TFS_EIO);
        c.fail = 0;
    }
    /* argument refusals of tfs_kv_get_string */
    char b8[8];
    tfs_str s8;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, NULL, b8, sizeof b8), TFS_EARG);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &s8, NULL, 4), TFS_EARG);
    release(h, &b);
}

/* a reader that fails after the parse: TFS_EIO from tfs_kv_get on an array
 * element and from tfs_kv_get_string on a string scalar longer than the
 * 256 bytes the parser keeps; a type mismatch: TFS_ETYPE */
static void test_reader_fails_after_parse(void **state) {
    (void)state;
    static char long_s[300];
    memset(long_s, 'L', sizeof long_s);
    long_s[sizeof long_s - 1] = 0;
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv_u32(&b, "a.u32", 7);
    gb_kv_arr(&b, "a.arr", TFS_GG_U32, 4);
    for (uint32_t i = 0; i < 4; i++) gb_u32(&b, 10 + i);
    gb_kv_str(&b, "a.long", long_s);
    counting c = {0};
    tfs_header *h = parse_reader(&c, &b);
    tfs_value v;
    char buf[400];
    tfs_str s;
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 2, &v), TFS_OK);
    assert_int_equal(v.u64, 12);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[2], 0, &s, buf, sizeof buf), TFS_OK);
    assert_int_equal(s.len, sizeof long_s - 1);
    assert_memory_equal(s.ptr, long_s, s.len);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &s, buf, sizeof buf), TFS_ETYPE);
    c.fail = 1;
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 2, &v), TFS_EIO);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[2], 0, &s, buf, sizeof buf), TFS_EIO);
    c.fail = 0;
    release(h, &b);
}

/* find_string reads length fields through a 4096-byte chunk: element 1's
 * length field starts at chunk byte 4089 (element 0 is 4081 bytes), 7 bytes
 * inside the chunk and 1 past it, so the chunk must be read again there; and
 * a first read that returns 3 bytes is continued for the rest of the chunk
 * only.  Values from the array as built. */
static void test_reader_length_field_across_chunk(void **state) {
    (void)state;
    static char el0[4081];
    memset(el0, 'a', sizeof el0);
    const char *el[3] = {el0, "yz", "0123456789abcdef"};
    const size_t len[3] = {sizeof el0, 2, 16};
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "a.strs", TFS_GG_STRING, 3);
    size_t off[3];
    for (int k = 0; k < 3; k++) off[k] = gb_strn(&b, el[k], len[k]) + 8u;
    assert_int_equal(off[1] - off[0], 4089u); /* length field 1 at chunk byte 4089 */
    counting c = {0};
    tfs_header *h = parse_reader(&c, &b);
    for (size_t first = 0; first <= 3; first += 3) { /* a whole first read, then one of 3 bytes */
        for (int k = 1; k < 3; k++) {
            tfs_value v;
            c.short_once = first;
            assert_int_equal(tfs_kv_get(h, &h->kv[0], (uint64_t)k, &v), TFS_OK);
            assert_int_equal(v.u64, len[k]);
            assert_int_equal(v.offset, off[k]);
            char buf[16];
            tfs_str s;
            c.short_once = first;
            assert_int_equal(tfs_kv_get_string(h, &h->kv[0], (uint64_t)k, &s, buf, sizeof buf), TFS_OK);
            assert_int_equal(s.len, len[k]);
            assert_memory_equal(s.ptr, el[k], len[k]);
        }
    }
    release(h, &b);
}

/* Fill the stack below the caller's frame with 0xFF, where the next call's
 * frames will lie: a local the library reads before writing it then holds
 * 0xFF bytes instead of whatever zeros happened to be there. */
static void __attribute__((noinline)) stack_ff(void) {
    volatile uint8_t junk[65536];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = 0xFF;
}

/* A forward-only view's kept string elements: each length is taken from all
 * 8 bytes of its field (a stack filled with 0xFF first, so a byte not read
 * from the field shows); lengths and offsets as built. */
static void test_stream_kept_lengths_whole_field(void **state) {
    (void)state;
    const char *el[3] = {"a", "bb", "ccc"};
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "a.strs", TFS_GG_STRING, 3);
    size_t off[3];
    for (int k = 0; k < 3; k++) off[k] = gb_str(&b, el[k]) + 8u;
    tfs_header *h = parse_stream(&b);
    for (int k = 0; k < 3; k++) {
        tfs_value v;
        stack_ff();
        assert_int_equal(tfs_kv_get(h, &h->kv[0], (uint64_t)k, &v), TFS_OK);
        assert_int_equal(v.u64, strlen(el[k]));
        assert_int_equal(v.offset, off[k]);
        tfs_str s;
        stack_ff();
        assert_int_equal(tfs_kv_get_string(h, &h->kv[0], (uint64_t)k, &s, NULL, 0), TFS_OK);
        assert_int_equal(s.len, strlen(el[k]));
        assert_memory_equal(s.ptr, el[k], s.len);
    }
    release(h, &b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_one_read_per_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_element_larger_than_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scalars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arguments_and_failures, setup, teardown),
        cmocka_unit_test(test_stream_kept_strings),
        cmocka_unit_test(test_reader_string_elements),
        cmocka_unit_test(test_reader_length_field_across_chunk),
        cmocka_unit_test(test_stream_kept_lengths_whole_field),
        cmocka_unit_test(test_reader_fails_after_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
