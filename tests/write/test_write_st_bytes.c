/* test_write_st_bytes.c: the safetensors writer's bytes (tfs/write.h)
 * against expectations that do not come from it: the escaped string tokens
 * as Python's json.dumps writes them (ensure_ascii False / True: serde_json's
 * escapes, lower-case hex, surrogate pairs), the JSON length and padding
 * counted from the compact text, the data buffer and the offsets from the
 * rules of write.h (running sum of n_elements * bits / 8, 0 on overflow),
 * and the refusals (TFS_EARG before anything is appended, an earlier error
 * kept). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "tfs/write.h"
#include "common/writes.h"
#include "write/wt_util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t one[1] = {1};

static void test_refused(void **state) {
    (void)state;
    tfs_st_wentry e = {.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = one};
    tfs_st_wmeta kv = {.key = tfs_wstr_c("k"), .value = tfs_wstr_c("v")};
    tfs_wbuf w = {0};
    tfs_st_model m = {.n_entries = 1, .entries = &e};
    assert_int_equal(tfs_st_write(&m, NULL), TFS_EARG);
    tfs_test_assert_refused(&w, tfs_st_write(NULL, &w));
    m = (tfs_st_model){.n_entries = 1};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    m = (tfs_st_model){.metadata = TFS_STW_META_OBJECT, .n_meta = 1};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    m = (tfs_st_model){.raw_json_len = 2};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    m = (tfs_st_model){.n_entries = (size_t)INT32_MAX + 1u, .entries = &e};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    m = (tfs_st_model){.metadata = TFS_STW_META_OBJECT, .n_meta = (size_t)INT32_MAX + 1u, .meta = &kv};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    /* an entry or pair with a NULL pointer and a length, the second of two */
    tfs_st_wentry es[2] = {e, e};
    tfs_st_wmeta kvs[2] = {kv, kv};
    m = (tfs_st_model){.n_entries = 2, .entries = es, .metadata = TFS_STW_META_OBJECT, .n_meta = 2, .meta = kvs};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    tfs_wbuf_free(&w);
    es[0].shape = NULL; /* the first entry, then the second */
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    es[0] = e;
    kvs[0].value = (tfs_wstr){.len = 1};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    kvs[0] = kv;
    es[1].shape = NULL;
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    es[1] = e, es[1].name = (tfs_wstr){.len = 1};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    es[1] = e, es[1].dtype = TFS_ST_DTYPE_COUNT; /* unknown, no dtype_raw */
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    es[1].dtype_raw = "\"X\""; /* with it: written */
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    tfs_wbuf_free(&w);
    es[1] = e, kvs[1].key = (tfs_wstr){.len = 1};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    kvs[1] = kv, kvs[1].value = (tfs_wstr){.len = 1};
    tfs_test_assert_refused(&w, tfs_st_write(&m, &w));
    /* an earlier failure is kept and returned */
    w.err = TFS_ENOMEM;
    assert_int_equal(tfs_st_write(NULL, &w), TFS_ENOMEM);
    assert_int_equal(tfs_st_write(&m, &w), TFS_ENOMEM);
    assert_int_equal(w.err, TFS_ENOMEM);
    assert_int_equal(w.size, 0);
    tfs_wbuf_free(&w);
}

/* The 32 control characters, " \ /, then é € U+FFFF U+1F600 U+10FFFF U+1357 U+0100 */
static const char esc_in[] =
    "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a"
    "\x1b\x1c\x1d\x1e\x1f\"\\/\xc3\xa9\xe2\x82\xac\xef\xbf\xbf\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xe1\x8d\x97\xc4\x80";
/* json.dumps(s, ensure_ascii=False) */
static const char esc_utf8[] =
    "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u001"
    "2"
    "\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\\"\\\\/"
    "\xc3\xa9\xe2\x82\xac\xef\xbf\xbf\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xe1\x8d\x97\xc4\x80\"";
/* json.dumps(s, ensure_ascii=True) */
static const char esc_ascii[] =
    "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u001"
    "2"
    "\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\\"\\\\/"
    "\\u00e9\\u20ac\\uffff\\ud83d\\ude00\\udbff\\udfff\\u1357\\u0100\"";

/* The token of field (kind, record 0) equals want (len bytes). */
static void assert_token(const tfs_wbuf *w, uint32_t kind, int32_t record, const char *want, size_t len) {
    const tfs_field *f = tfs_wbuf_find(w, kind, record, 0);
    assert_non_null(f);
    assert_int_equal(f->width, len);
    const uint8_t *p = tfs_wbuf_at(w, f->offset, len);
    assert_non_null(p);
    assert_memory_equal(p, want, len);
}

static void test_escapes(void **state) {
    (void)state;
    for (int ascii = 0; ascii <= 1; ascii++) {
        const char *want = ascii ? esc_ascii : esc_utf8;
        size_t want_len = ascii ? sizeof esc_ascii - 1 : sizeof esc_utf8 - 1;
        /* the string alone, and after / before a verbatim run */
        tfs_st_wentry e = {
            .name = tfs_wstr_n(esc_in, sizeof esc_in - 1), .dtype = TFS_ST_U8, .n_dims = 1, .shape = one};
        tfs_st_wmeta kv = {.key = tfs_wstr_n(esc_in, sizeof esc_in - 1), .value = tfs_wstr_c("plain")};
        tfs_st_model m = {
            .n_entries = 1, .entries = &e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &kv, .ascii = ascii};
        tfs_wbuf w = {0};
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        assert_token(&w, TFS_FIELD_NAME, 0, want, want_len);
        assert_token(&w, TFS_FIELD_META_KEY, 0, want, want_len);
        assert_token(&w, TFS_FIELD_META_VALUE, 0, "\"plain\"", 7);
        wt_file f;
        assert_int_equal(wt_parse(&w, TFS_FORMAT_SAFETENSORS, 0, &f), 0);
        assert_int_equal(f.st, TFS_OK);
        assert_int_equal(f.h->tensors[0].name.len, sizeof esc_in - 1);
        assert_memory_equal(f.h->tensors[0].name.ptr, esc_in, sizeof esc_in - 1);
        wt_file_free(&f);
        tfs_wbuf_free(&w);
        /* "ab<s>cd": verbatim runs on both sides */
        char mixed[sizeof esc_in + 4], mixed_want[sizeof esc_ascii + 4];
        memcpy(mixed, "ab", 2), memcpy(mixed + 2, esc_in, sizeof esc_in - 1),
            memcpy(mixed + 1 + sizeof esc_in, "cd", 2);
        mixed_want[0] = '"', memcpy(mixed_want + 1, "ab", 2), memcpy(mixed_want + 3, want + 1, want_len - 2);
        memcpy(mixed_want + 1 + want_len, "cd\"", 3);
        e.name = tfs_wstr_n(mixed, sizeof esc_in + 3);
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        assert_token(&w, TFS_FIELD_NAME, 0, mixed_want, want_len + 4);
        tfs_wbuf_free(&w);
        /* invalid UTF-8 and DEL are copied as they are in both modes */
        e.name = tfs_wstr_c("\xff\x80x\x7f\xc3");
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        assert_token(&w, TFS_FIELD_NAME, 0, "\"\xff\x80x\x7f\xc3\"", 7);
        tfs_wbuf_free(&w);
        /* an invalid byte after an escape and before one; a lead byte cut by
         * the string's end although its follower is in memory */
        e.name = tfs_wstr_c("\x01\xff\"");
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        assert_token(&w, TFS_FIELD_NAME, 0, "\"\\u0001\xff\\\"\"", 11);
        tfs_wbuf_free(&w);
        /* U+10000, the first code point written as a surrogate pair (json.dumps) */
        e.name = tfs_wstr_c("\xf0\x90\x80\x80");
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        if (ascii)
            assert_token(&w, TFS_FIELD_NAME, 0, "\"\\ud800\\udc00\"", 14);
        else
            assert_token(&w, TFS_FIELD_NAME, 0, "\"\xf0\x90\x80\x80\"", 6);
        tfs_wbuf_free(&w);
        e.name = tfs_wstr_n("a\xc3\xa9", 2);
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        assert_token(&w, TFS_FIELD_NAME, 0, "\"a\xc3\"", 4);
        tfs_wbuf_free(&w);
    }
}

/* Empty strings given as a NULL pointer and length 0 (write.h allows it) in
 * both modes: each token is "", and no byte is read through the pointer. */
static void test_null_empty_strings(void **state) {
    (void)state;
    for (int ascii = 0; ascii <= 1; ascii++) {
        tfs_st_wentry e = {.name = {.ptr = NULL, .len = 0}, .dtype = TFS_ST_U8, .n_dims = 1, .shape = one};
        tfs_st_wmeta kv = {.key = {.ptr = NULL, .len = 0}, .value = {.ptr = NULL, .len = 0}};
        tfs_st_model m = {
            .n_entries = 1, .entries = &e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &kv, .ascii = ascii};
        tfs_wbuf w = {0};
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        assert_token(&w, TFS_FIELD_NAME, 0, "\"\"", 2);
        assert_token(&w, TFS_FIELD_META_KEY, 0, "\"\"", 2);
        assert_token(&w, TFS_FIELD_META_VALUE, 0, "\"\"", 2);
        tfs_wbuf_free(&w);
    }
}

/* One U8 entry named by `len` letters: {"<name>":{"dtype":"U8","shape":[],"data_offsets":[0,1]}}
 * is 51 + len bytes of JSON. */
static void check_padding(size_t len, unsigned pad_to, uint64_t want_pad) {
    char name[32];
    memset(name, 'n', len);
    name[len] = 0;
    tfs_st_wentry e = {.name = tfs_wstr_c(name), .dtype = TFS_ST_U8};
    tfs_st_model m = {.n_entries = 1, .entries = &e, .pad_to = pad_to};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    uint64_t n = 51u + len + want_pad;
    assert_int_equal(w.size, 8u + n + 1u);
    const uint8_t *p = tfs_wbuf_at(&w, 0, 8);
    for (int i = 0; i < 8; i++) assert_int_equal(p[i], (uint8_t)(n >> (8 * i)));
    const tfs_field *pad = tfs_wbuf_find(&w, TFS_FIELD_PADDING, -1, 0);
    if (want_pad == 0) {
        assert_null(pad);
    } else {
        assert_non_null(pad);
        assert_int_equal(pad->offset, 8u + 51u + len);
        assert_int_equal(pad->width, want_pad);
        const uint8_t *s = tfs_wbuf_at(&w, pad->offset, (size_t)want_pad);
        for (uint64_t i = 0; i < want_pad; i++) assert_int_equal(s[i], ' ');
    }
    const tfs_field *json = tfs_wbuf_find(&w, TFS_FIELD_JSON, -1, 0),
                    *hs = tfs_wbuf_find(&w, TFS_FIELD_HEADER_SIZE, -1, 0);
    assert_int_equal(json->offset, 8);
    assert_int_equal(json->width, n);
    assert_non_null(hs);
    assert_int_equal(hs->offset, 0);
    assert_int_equal(hs->width, 8);
    assert_int_equal(tfs_wbuf_at(&w, 8u + 51u + len - 1u, 1)[0], '}');
    tfs_wbuf_free(&w);
}

static void test_padding_at_each_boundary(void **state) {
    (void)state;
    check_padding(5, 0, 0); /* 56: a multiple of 8 */
    check_padding(6, 0, 7); /* 57 */
    check_padding(4, 0, 1); /* 55 */
    check_padding(5, 8, 0);
    check_padding(6, 8, 7);
    check_padding(13, 16, 0); /* 64 */
    check_padding(14, 16, 15);
    check_padding(12, 16, 1);
    check_padding(6, 1, 0);
    check_padding(0, 3, 0); /* 51 */
    check_padding(1, 3, 2); /* 52 */
    check_padding(2, 3, 1); /* 53 */
}

/* Offsets: the running sum of n_elements * bits / 8; 0 bytes when that
 * product overflows; UINT64_MAX once the sum does. */
static void test_offsets_running_sum(void **state) {
    (void)state;
    static const uint64_t two63[2] = {(UINT64_C(1) << 32) + 1u, UINT64_C(1) << 32}, big[1] = {(UINT64_C(1) << 61) + 1u},
                          four[1] = {4}, three[1] = {3}, most[1] = {(UINT64_C(1) << 61) - 1u};
    enum { N = 15 };
    tfs_st_wentry e[N] = {
        {.name = tfs_wstr_c("a"),
         .dtype = TFS_ST_U8,
         .n_dims = 2,
         .shape = two63}, /* elements overflow (2^64 + 2^32): 0 */
        {.name = tfs_wstr_c("b"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = big},   /* 2^64 + 8 bits: 0 */
        {.name = tfs_wstr_c("c"), .dtype = TFS_ST_F4, .n_dims = 1, .shape = four},  /* 16 bits: 2 */
        {.name = tfs_wstr_c("d"), .dtype = TFS_ST_F4, .n_dims = 1, .shape = three}, /* 12 bits: 1 */
        {.name = tfs_wstr_c("g"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = three}, /* offsets as given */
    };
    e[4].offsets_set = 1, e[4].begin = 7, e[4].end = 5; /* not in the sum */
    char names[N][4];
    for (int i = 5; i < N; i++) { /* 9 of 2^61 - 1 bytes, then 1 byte */
        names[i][0] = 'p', names[i][1] = (char)('0' + i - 5), names[i][2] = 0;
        e[i] = (tfs_st_wentry){
            .name = tfs_wstr_c(names[i]), .dtype = TFS_ST_U8, .n_dims = 1, .shape = i < 14 ? most : one};
    }
    tfs_st_model m = {.n_entries = N, .entries = e, .data_len_set = 1, .data_len = 0};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    uint64_t want[N][2] = {{0, 0}, {0, 0}, {0, 2}, {2, 3}, {7, 5}};
    uint64_t run = 3, size = (UINT64_C(1) << 61) - 1u;
    for (int i = 5; i < 13; i++, run += size) want[i][0] = run, want[i][1] = run + size; /* up to 2^64 - 5 */
    want[13][0] = run, want[13][1] = UINT64_MAX;
    want[14][0] = UINT64_MAX, want[14][1] = UINT64_MAX;
    assert_true(want[12][1] == UINT64_MAX - 4u);
    for (int32_t i = 0; i < N; i++)
        for (int k = 0; k < 2; k++) {
            char tok[24];
            snprintf(tok, sizeof tok, "%llu", (unsigned long long)want[i][k]);
            assert_token(&w, k ? TFS_FIELD_END : TFS_FIELD_BEGIN, i, tok, strlen(tok));
        }
    for (int32_t i = 0; i < N; i++) {
        char tok[48];
        snprintf(tok, sizeof tok, "[%llu,%llu]", (unsigned long long)want[i][0], (unsigned long long)want[i][1]);
        assert_token(&w, TFS_FIELD_DATA_OFFSETS, i, tok, strlen(tok));
    }
    tfs_wbuf_free(&w);
}

/* Data: each entry's bytes at its begin, cut at the buffer's end; the rest
 * data_fill; no DATA field for an entry whose end is below its begin. */
static void test_data_buffer(void **state) {
    (void)state;
    static const uint64_t four[1] = {4}, two[1] = {2};
    tfs_st_wentry e[5] = {
        {.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = four, .data = "ABCD"},
        {.name = tfs_wstr_c("b"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .data = "xy"},
        {.name = tfs_wstr_c("c"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .data = "zz"},
        {.name = tfs_wstr_c("d"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .data = "qq"},
        {.name = tfs_wstr_c("e"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .data = "rr"},
    };
    e[1].offsets_set = 1, e[1].begin = 6, e[1].end = 8; /* cut at 7 */
    e[2].offsets_set = 1, e[2].begin = 7, e[2].end = 9; /* starts at the end: nothing */
    e[3].offsets_set = 1, e[3].begin = 3, e[3].end = 3; /* empty: nothing */
    e[4].offsets_set = 1, e[4].begin = 5, e[4].end = 4; /* end below begin: nothing, no field */
    tfs_st_model m = {.n_entries = 5, .entries = e, .data_len_set = 1, .data_len = 7, .data_fill = 0xA5};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    const tfs_field *json = tfs_wbuf_find(&w, TFS_FIELD_JSON, -1, 0);
    uint64_t start = 8u + json->width;
    assert_int_equal(w.size, start + 7u);
    static const uint8_t want[7] = {'A', 'B', 'C', 'D', 0xA5, 0xA5, 'x'};
    assert_memory_equal(tfs_wbuf_at(&w, start, 7), want, 7);
    static const uint64_t at[4][2] = {{0, 4}, {6, 2}, {7, 2}, {3, 0}};
    for (int32_t i = 0; i < 4; i++) {
        const tfs_field *d = tfs_wbuf_find(&w, TFS_FIELD_DATA, i, 0);
        assert_non_null(d);
        assert_int_equal(d->offset, start + at[i][0]);
        assert_int_equal(d->width, at[i][1]);
    }
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_DATA, 4, 0));
    tfs_wbuf_free(&w);
    /* data with fill 0: the zeros between are materialised too */
    m.data_fill = 0;
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    static const uint8_t want0[7] = {'A', 'B', 'C', 'D', 0, 0, 'x'};
    assert_memory_equal(tfs_wbuf_at(&w, start, 7), want0, 7);
    tfs_wbuf_free(&w);
    m.data_fill = 0xA5;
    /* no data and fill 0: the buffer is a hole of the largest end (9) */
    for (int i = 0; i < 5; i++) e[i].data = NULL;
    m.data_len_set = 0, m.data_fill = 0;
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    json = tfs_wbuf_find(&w, TFS_FIELD_JSON, -1, 0);
    assert_int_equal(w.size, 8u + json->width + 9u);
    assert_null(tfs_wbuf_at(&w, 8u + json->width, 1));
    tfs_wbuf_free(&w);
    /* a buffer whose size would pass UINT64_MAX: refused, after the header */
    e[0].data = "ABCD";
    m.data_len_set = 1, m.data_len = UINT64_MAX, m.data_fill = 0xA5;
    assert_int_equal(tfs_st_write(&m, &w), TFS_EARG);
    assert_int_equal(w.err, TFS_EARG);
    tfs_wbuf_free(&w);
    e[0].data = NULL, m.data_len_set = 0;
    /* fill without data: materialised */
    m.data_fill = 0x11;
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    const uint8_t *d = tfs_wbuf_at(&w, w.size - 9u, 9);
    assert_non_null(d);
    for (int i = 0; i < 9; i++) assert_int_equal(d[i], 0x11);
    tfs_wbuf_free(&w);
}

/* view -> model: offsets_set on every entry only when the view is not packed
 * in order. */
static void test_model_from_view_offsets(void **state) {
    (void)state;
    static const uint64_t two[1] = {2};
    for (int gap = 0; gap <= 1; gap++) {
        tfs_st_wentry e[3] = {
            {.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two},
            {.name = tfs_wstr_c("b"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two},
            {.name = tfs_wstr_c("c"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two},
        };
        if (gap) /* c first in the buffer, then a, b: valid, not in model order */
            for (int i = 0; i < 3; i++)
                e[i].offsets_set = 1, e[i].begin = 2u * ((i + 1u) % 3u), e[i].end = e[i].begin + 2u;
        tfs_st_model m = {.n_entries = 3, .entries = e};
        tfs_wbuf w = {0};
        assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
        wt_file f;
        assert_int_equal(wt_parse(&w, TFS_FORMAT_SAFETENSORS, 0, &f), 0);
        assert_int_equal(f.st, TFS_OK);
        tfs_st_model *back = NULL;
        assert_int_equal(tfs_st_model_from_view(f.h, &back), TFS_OK);
        assert_int_equal(back->n_entries, 3);
        for (size_t i = 0; i < 3; i++) {
            const tfs_tensor *t = NULL;
            for (size_t j = 0; j < 3; j++)
                if (f.h->tensors[j].name.ptr == back->entries[i].name.ptr) t = &f.h->tensors[j];
            assert_non_null(t);
            assert_int_equal(back->entries[i].offsets_set, gap);
            assert_int_equal(back->entries[i].begin, t->offset);
            assert_int_equal(back->entries[i].end, t->offset + 2u);
        }
        tfs_st_model_free(back);
        wt_file_free(&f);
        tfs_wbuf_free(&w);
    }
}

/* Raw tokens are written as given, each as its field. */
static void test_raw_tokens(void **state) {
    (void)state;
    static const uint64_t two[1] = {2};
    tfs_st_wentry e[2] = {
        {.name = tfs_wstr_c("a"),
         .dtype = TFS_ST_U8,
         .n_dims = 1,
         .shape = two,
         .name_raw = "\"\\u0061\"",
         .dtype_raw = "\"U\\u0038\"",
         .shape_raw = "[ 2 ]",
         .offsets_raw = "[0 ,2]"},
        {.name = tfs_wstr_c("b"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .begin_raw = "2.0", .end_raw = "4e0"},
    };
    tfs_st_wmeta kv = {.key = tfs_wstr_c("k"), .value = tfs_wstr_c("v"), .key_raw = "\"\\u006b\"", .value_raw = "7"};
    tfs_st_model m = {.n_entries = 2, .entries = e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &kv};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    assert_token(&w, TFS_FIELD_NAME, 0, "\"\\u0061\"", 8);
    assert_token(&w, TFS_FIELD_DTYPE, 0, "\"U\\u0038\"", 9);
    assert_token(&w, TFS_FIELD_SHAPE, 0, "[ 2 ]", 5);
    assert_token(&w, TFS_FIELD_DATA_OFFSETS, 0, "[0 ,2]", 6);
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_BEGIN, 0, 0));
    assert_null(tfs_wbuf_find(&w, TFS_FIELD_DIM, 0, 0));
    assert_token(&w, TFS_FIELD_DATA_OFFSETS, 1, "[2.0,4e0]", 9);
    assert_token(&w, TFS_FIELD_BEGIN, 1, "2.0", 3);
    assert_token(&w, TFS_FIELD_END, 1, "4e0", 3);
    assert_token(&w, TFS_FIELD_SHAPE, 1, "[2]", 3);
    assert_token(&w, TFS_FIELD_DIM, 1, "2", 1);
    assert_token(&w, TFS_FIELD_META_KEY, 0, "\"\\u006b\"", 8);
    assert_token(&w, TFS_FIELD_META_VALUE, 0, "7", 1);
    tfs_wbuf_free(&w);
}

/* indent n: one member per line, n spaces per nesting level, ": " after
 * keys, ", " in arrays (write.h); an empty object stays "{}". */
static void test_indent(void **state) {
    (void)state;
    static const uint64_t two[2] = {2, 3};
    tfs_st_wentry e[2] = {{.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 2, .shape = two},
                          {.name = tfs_wstr_c("b"), .dtype = TFS_ST_U8, .members = ""}};
    tfs_st_wmeta kv[2] = {{.key = tfs_wstr_c("k"), .value = tfs_wstr_c("v")},
                          {.key = tfs_wstr_c("l"), .value = tfs_wstr_c("w")}};
    tfs_st_model m = {.n_entries = 2,
                      .entries = e,
                      .metadata = TFS_STW_META_OBJECT,
                      .n_meta = 2,
                      .meta = kv,
                      .indent = 2,
                      .pad_to = 1};
    static const char want2[] = "{\n"
                                "  \"__metadata__\": {\n"
                                "    \"k\": \"v\",\n"
                                "    \"l\": \"w\"\n"
                                "  },\n"
                                "  \"a\": {\n"
                                "    \"dtype\": \"U8\",\n"
                                "    \"shape\": [2, 3],\n"
                                "    \"data_offsets\": [0, 6]\n"
                                "  },\n"
                                "  \"b\": {}\n"
                                "}";
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    assert_int_equal(w.size, 8u + sizeof want2 - 1u + 7u); /* b: 1 byte at 6 although its offsets are not written */
    assert_memory_equal(tfs_wbuf_at(&w, 8, sizeof want2 - 1u), want2, sizeof want2 - 1u);
    assert_token(&w, TFS_FIELD_ENTRY, 1, "\"b\": {}", 7);
    assert_token(&w, TFS_FIELD_METADATA, -1, want2 + 4, 48); /* "__metadata__": { ... } */
    assert_token(&w, TFS_FIELD_META_KEY, 1, "\"l\"", 3);
    assert_token(&w, TFS_FIELD_META_VALUE, 1, "\"w\"", 3);
    assert_token(&w, TFS_FIELD_DIM, 0, "2", 1);
    const tfs_field *d1 = tfs_wbuf_find(&w, TFS_FIELD_DIM, 0, 1);
    assert_non_null(d1);
    assert_int_equal(d1->width, 1);
    assert_int_equal(*tfs_wbuf_at(&w, d1->offset, 1), '3');
    tfs_wbuf_free(&w);
    m.indent = 3, m.n_meta = 0, m.n_entries = 1, m.meta_pos = 1;
    static const char want3[] = "{\n"
                                "   \"a\": {\n"
                                "      \"dtype\": \"U8\",\n"
                                "      \"shape\": [2, 3],\n"
                                "      \"data_offsets\": [0, 6]\n"
                                "   },\n"
                                "   \"__metadata__\": {}\n"
                                "}";
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    assert_memory_equal(tfs_wbuf_at(&w, 8, sizeof want3 - 1u), want3, sizeof want3 - 1u);
    tfs_wbuf_free(&w);
    m.indent = 0, m.metadata = TFS_STW_META_ABSENT, m.n_entries = 0; /* nothing: {} */
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    assert_int_equal(w.size, 10);
    assert_memory_equal(tfs_wbuf_at(&w, 8, 2), "{}", 2);
    tfs_wbuf_free(&w);
    m.indent = 2; /* indented, still nothing: {} */
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    assert_int_equal(w.size, 10);
    assert_memory_equal(tfs_wbuf_at(&w, 8, 2), "{}", 2);
    tfs_wbuf_free(&w);
}

/* The file is the same after bytes already in the buffer (offsets relative
 * to its start), and N as given is written whole (8 bytes, little-endian). */
static void test_base_and_header_size(void **state) {
    (void)state;
    static const uint64_t two[1] = {2};
    tfs_st_wentry e = {.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .data = "xy"};
    tfs_st_model m = {.n_entries = 1, .entries = &e};
    tfs_wbuf w = {0};
    size_t n_plain;
    uint8_t *plain = tfs_test_write_flat(NULL, NULL, &m, &n_plain);
    tfs_test_assert_shifted(&w, NULL, &m, plain, n_plain);
    assert_int_equal(tfs_wbuf_find(&w, TFS_FIELD_HEADER_SIZE, -1, 0)->offset, 3);
    assert_int_equal(tfs_wbuf_find(&w, TFS_FIELD_DATA, 0, 0)->offset, n_plain + 1u);
    free(plain);
    tfs_wbuf_free(&w);
    m.header_size_set = 1, m.header_size = UINT64_C(0x8877665544332211);
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    static const uint8_t want[8] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    assert_memory_equal(tfs_wbuf_at(&w, 0, 8), want, 8);
    tfs_wbuf_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_null_empty_strings),
        cmocka_unit_test(test_padding_at_each_boundary),
        cmocka_unit_test(test_offsets_running_sum),
        cmocka_unit_test(test_data_buffer),
        cmocka_unit_test(test_model_from_view_offsets),
        cmocka_unit_test(test_raw_tokens),
        cmocka_unit_test(test_indent),
        cmocka_unit_test(test_base_and_header_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
