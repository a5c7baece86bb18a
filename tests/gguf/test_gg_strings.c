/* test_gg_strings.c: string-array elements as kv.c walks them: in place
 * while the bytes at hand hold an element (strings_at_hand), else one by
 * one (parse_strings), remembering every stride-th element's offset for the
 * getters (mark).  Each test pins a boundary that a one-token slip in that
 * walk moves (docs/mutation-testing.md): the bytes at hand ending inside a
 * length field, a body in memory but above GG101's bound, and element
 * lookups across mark strides (the stride doubling past 4096 marks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"
#include "common/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TFS_NO_POSIX
#include <sys/mman.h>
#endif

#define MAX_STR (UINT64_C(1) << 30)

/* The last element's length field cut after k = 0..8 bytes, the file ending
 * there.  The bytes after the end are zeros in memory (the buffer API is
 * given n bytes of a larger block): a walk that reads a length field with
 * fewer than 8 bytes at hand would take len = 0 from them and step past the
 * end.  GG103 at the cut field, element 0 of KV 0 (as the whole-file
 * fixture GG103-string-array-element-length-cut; ggml rejects every one of
 * these files: conformance/adapters/ggml-adapter). */
static void test_GG103_element_length_cut_every_byte(void **state) {
    (void)state;
    for (size_t k = 0; k < 8; k++) {
        gb b = {0};
        gb_header(&b, 3, 0, 1);
        gb_kv_arr(&b, "k", TFS_GG_STRING, 2);
        gb_str(&b, "abcdefgh"); /* 16 bytes: 2 x 8 fits for every cut */
        size_t cut = gb_strn(&b, "", 0);
        gb_truncate(&b, cut + k);
        uint8_t *p = calloc(b.len + 16u, 1);
        assert_non_null(p);
        memcpy(p, b.p, b.len);
        gg_expect_invalid_bytes(p, b.len, 0, TFS_GG103, cut, 0);
        free(p);
        gb_free(&b);
    }
}

#ifndef TFS_NO_POSIX
/* A string-array element of 2^30 + 1 bytes whose body is all in the
 * buffer: GG101 (above gguf.cpp's bound) even though the bytes are there.
 * The 1 GiB block is reserved, never touched past its first page. */
static void test_GG101_element_body_in_buffer(void **state) {
    (void)state;
    if (sizeof(size_t) < 8) skip();
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "k", TFS_GG_STRING, 1);
    size_t at = b.len;
    gb_u64(&b, MAX_STR + 1u);
    size_t n = b.len + (size_t)MAX_STR + 1u;
    uint8_t *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) skip();
    memcpy(p, b.p, b.len);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, 0, &h, &e), TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), "GG101");
    assert_int_equal(e.offset, at);
    assert_int_equal(e.index, 0);
    assert_null(h);
    /* the same element of exactly 2^30 bytes is valid */
    memset(p + at, 0, 8);
    p[at + 3] = 0x40; /* 2^30, little-endian */
    assert_int_equal(tfs_parse_buffer(p, n - 1u, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(h->kv[0].count, 1);
    tfs_value v;
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 0, &v), TFS_OK);
    assert_int_equal(v.u64, MAX_STR);
    assert_int_equal(v.offset, at + 8u);
    tfs_header_free(h);
    munmap(p, n);
    gb_free(&b);
}
#endif

/* Element i's text: distinct lengths, so a lookup that starts from a wrong
 * mark lands on a different length or offset. */
static size_t elem(char *s, size_t cap, size_t i) {
    if (i > 300u && i % 997u != 0) return 0; /* long arrays: mostly empty */
    int n = snprintf(s, cap, "e%zu%.*s", i, (int)(i % 7u), "xxxxxxx");
    return (size_t)n;
}

/* element i of h's KV 0, a string array the writer put at `at` (its length
 * field): tfs_kv_get gives its offset and length, tfs_kv_get_string its
 * bytes, elem(i) of them */
static void expect_element(const tfs_header *h, size_t i, size_t at) {
    char s[32];
    size_t len = elem(s, sizeof s, i);
    tfs_value v;
    assert_int_equal(tfs_kv_get(h, &h->kv[0], i, &v), TFS_OK);
    assert_int_equal(v.offset, at + 8u);
    assert_int_equal(v.u64, len);
    char buf[32];
    tfs_str t;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], i, &t, buf, sizeof buf), TFS_OK);
    assert_int_equal(t.len, len);
    if (len) assert_memory_equal(t.ptr, s, len);
}

/* n string elements; every element read back with tfs_kv_get_string and
 * tfs_kv_get from the buffer view and the file view, at the offsets the
 * writer put them (marks every 64th element; 128th past 4096 marks). */
static void check_lookup(size_t n, const size_t *probe, size_t n_probe) {
    gb b = {0};
    char s[32];
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "strs", TFS_GG_STRING, n);
    size_t *at = malloc(n * sizeof *at);
    assert_non_null(at);
    for (size_t i = 0; i < n; i++) at[i] = gb_strn(&b, s, elem(s, sizeof s, i));
    tfs_header *views[2] = {NULL, NULL};
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_GGUF, 0, &views[0], &e), TFS_OK);
    assert_int_equal(tfs_test_parse_second(b.p, b.len, TFS_FORMAT_GGUF, 0, &views[1], &e), TFS_OK);
    for (int w = 0; w < 2; w++) {
        tfs_header *h = views[w];
        assert_int_equal(h->kv[0].count, n);
        for (size_t j = 0; j < (probe ? n_probe : n); j++) {
            size_t i = probe ? probe[j] : j;
            expect_element(h, i, at[i]);
        }
        tfs_header_free(h);
    }
    free(at);
    gb_free(&b);
}

static void test_valid_string_lookup_every_element(void **state) {
    (void)state; /* 200 elements: marks at 0, 64, 128, 192 */
    check_lookup(200, NULL, 0);
}

static void test_valid_string_lookup_past_4096_marks(void **state) {
    (void)state; /* 4097 x 64 + 1 elements: the stride doubles to 128 */
    enum { N = 4097 * 64 + 1 };
    size_t probe[] = {0,   1,   63,        64,      65,      127,     128,    129,    997,    191,   192,
                      255, 256, 997 * 262, N - 130, N - 129, N - 128, N - 65, N - 64, N - 63, N - 2, N - 1};
    check_lookup(N, probe, sizeof probe / sizeof *probe);
}

/* An element's body ending past the end of the file, L = 1, 7, 8, 9, 16
 * bytes long with 0, 1 or L - 1 of its bytes there (the file ending right
 * after the length field, or inside the body), as the first element and as
 * a later one: GG102 at its length field (ggml rejects every one). */
static void test_GG102_element_body_past_end(void **state) {
    (void)state;
    static const size_t lens[] = {1, 7, 8, 9, 16};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        size_t L = lens[li], present[] = {0, 1, L - 1};
        for (size_t pi = 0; pi < 3; pi++) {
            if (present[pi] >= L || (pi == 2 && L - 1 <= 1)) continue;
            for (int later = 0; later <= 1; later++) {
                gb b = {0};
                gb_header(&b, 3, 0, 1);
                gb_kv_arr(&b, "k", TFS_GG_STRING, later ? 2u : 1u);
                if (later) gb_str(&b, "abcdefgh");
                size_t at = b.len;
                gb_u64(&b, L);
                gb_zeros(&b, present[pi]);
                gg_expect_invalid(&b, 0, TFS_GG102, at, 0);
                gb_free(&b);
            }
        }
    }
}

/* A forward-only source keeps the first TFS_ARRAY_KEEP bytes of an array,
 * whole elements (length field and body): an array whose kept elements end
 * exactly at TFS_ARRAY_KEEP bytes keeps them all, one whose next element
 * would end 1 byte past it stops before that element.  Lengths around 128,
 * 256 and 512 first: the kept length fields are re-encoded byte by byte. */
static void stream_keeps(long over) {
    static const size_t first[] = {0, 1, 127, 128, 255, 256, 511, 512, 1000, 4095, 4096};
    size_t lens[64], n = 0, used = 0;
    for (size_t i = 0; i < sizeof first / sizeof *first; i++) lens[n++] = first[i], used += 8u + first[i];
    while (TFS_ARRAY_KEEP - used > 8u + 8000u) lens[n++] = 8000, used += 8u + 8000u;
    lens[n++] = TFS_ARRAY_KEEP - used - 8u + (size_t)over; /* ends at TFS_ARRAY_KEEP + over */
    size_t kept = over > 0 ? n - 1u : n;
    lens[n++] = 3; /* one more: never kept */
    char *body = malloc(8000 + 4096);
    assert_non_null(body);
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "strs", TFS_GG_STRING, n);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < lens[i]; j++) body[j] = (char)('a' + (i + j) % 26u);
        gb_strn(&b, body, lens[i]);
    }
    tfs_header *g = NULL;
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, b.p, b.len);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
    static uint8_t blk[16384];
    tfs_kv_cursor c;
    tfs_value v;
    tfs_str t;
    assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[0], blk, sizeof blk), TFS_OK);
    while (tfs_kv_next(&c, &v, &t) == TFS_OK) {
        size_t i = (size_t)c.i - 1u;
        for (size_t j = 0; j < lens[i]; j++) body[j] = (char)('a' + (i + j) % 26u);
        assert_int_equal(v.u64, lens[i]);
        assert_int_equal(t.len, lens[i]);
        if (lens[i]) assert_memory_equal(t.ptr, body, lens[i]);
    }
    assert_int_equal(c.i, kept);
    tfs_header_free(g);
    free(body);
    gb_free(&b);
}

static void test_valid_stream_keeps_exactly_array_keep(void **state) {
    (void)state;
    stream_keeps(0);
}

static void test_valid_stream_keeps_not_one_byte_more(void **state) {
    (void)state;
    stream_keeps(1);
}

/* All arrays of a stream together keep at most 64 MiB (kv.c
 * GG_ARR_KEEP_TOTAL): 1024 arrays of one string element each, kept bytes
 * summing to 64 MiB - 7 + `last` bytes, then one more array whose empty
 * string (8 bytes) is kept only when the sum is 64 MiB - 8 or less. */
static void stream_keeps_total(size_t first_len, int want_last_kept) {
    enum { N_ARR = 1024, ELEM = TFS_ARRAY_KEEP - 8u };
    gb b = {0};
    gb_header(&b, 3, 0, N_ARR + 1u);
    char *body = calloc(ELEM, 1);
    assert_non_null(body);
    char key[16];
    for (int a = 0; a <= N_ARR; a++) {
        snprintf(key, sizeof key, "a%d", a);
        gb_kv_arr(&b, key, TFS_GG_STRING, 1);
        gb_strn(&b, body, a == N_ARR ? 0u : a == 0 ? first_len : ELEM);
    }
    tfs_header *g = NULL;
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, b.p, b.len);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
    uint8_t blk[64];
    tfs_kv_cursor c;
    tfs_value v;
    for (int a = N_ARR - 1; a <= N_ARR; a++) {
        assert_int_equal(tfs_kv_cursor_init(&c, g, &g->kv[a], blk, sizeof blk), TFS_OK);
        tfs_status want = a < N_ARR || want_last_kept ? TFS_OK : TFS_EIO;
        assert_int_equal(tfs_kv_next(&c, &v, NULL), want);
    }
    tfs_header_free(g);
    free(body);
    gb_free(&b);
}

static void test_valid_stream_keeps_exactly_total(void **state) {
    (void)state; /* 64 MiB - 8 kept before the last array: its 8 bytes fit exactly */
    stream_keeps_total((TFS_ARRAY_KEEP - 16u), 1);
}

static void test_valid_stream_keeps_not_one_byte_past_total(void **state) {
    (void)state; /* 64 MiB - 7 kept before the last array: its 8 bytes would end 1 byte past */
    stream_keeps_total((TFS_ARRAY_KEEP - 16u) + 1u, 0);
}

/* A stream keeps string scalars of up to 256 bytes (tfs.h: longer ones
 * give TFS_EIO, the source cannot be read again): 255 and 256 kept, 257 not. */
static void test_valid_stream_keeps_string_scalars_up_to_256(void **state) {
    (void)state;
    char body[257], buf[300];
    for (size_t i = 0; i < sizeof body; i++) body[i] = (char)('a' + i % 26u);
    for (size_t len = 255; len <= 257; len++) {
        gb b = {0};
        gb_header(&b, 3, 0, 1);
        gb_kv(&b, "s", TFS_GG_STRING);
        gb_strn(&b, body, len);
        tfs_header *g = NULL;
        tfs_source src;
        tfs_test_stream st;
        tfs_test_stream_source(&src, &st, b.p, b.len);
        assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
        tfs_str t;
        tfs_status want = len <= 256u ? TFS_OK : TFS_EIO;
        assert_int_equal(tfs_kv_get_string(g, &g->kv[0], 0, &t, buf, sizeof buf), want);
        if (want == TFS_OK) {
            assert_int_equal(t.len, len);
            assert_memory_equal(t.ptr, body, len);
        }
        tfs_header_free(g);
        gb_free(&b);
    }
}

/* A stream keeps an array's elements whole, an empty one at the end too:
 * its string (0 bytes, just past the last kept byte) is in memory like the
 * others, so every element reads from the view, with no buffer given. */
static void test_valid_stream_kept_empty_last_element(void **state) {
    (void)state;
    static const char *const strs[] = {"ab", "", "cde", ""};
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "strs", TFS_GG_STRING, 4);
    size_t at[4];
    for (size_t i = 0; i < 4; i++) at[i] = gb_str(&b, strs[i]);
    tfs_header *g = NULL;
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, b.p, b.len);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
    for (size_t i = 0; i < 4; i++) {
        tfs_value v;
        assert_int_equal(tfs_kv_get(g, &g->kv[0], i, &v), TFS_OK);
        assert_int_equal(v.offset, at[i] + 8u);
        assert_int_equal(v.u64, strlen(strs[i]));
        tfs_str t = {NULL, 99};
        assert_int_equal(tfs_kv_get_string(g, &g->kv[0], i, &t, NULL, 0), TFS_OK);
        assert_int_equal(t.len, strlen(strs[i]));
        if (t.len) assert_memory_equal(t.ptr, strs[i], t.len);
    }
    tfs_header_free(g);
    gb_free(&b);
}

/* String elements looked up through a random-access reader that gives one
 * byte per read (tfs.h: *got < len is fine): a length field is gathered
 * from 8 reads, every element found at the offset the writer put it. */
static void test_valid_string_lookup_one_byte_reads(void **state) {
    (void)state;
    char s[32];
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_arr(&b, "strs", TFS_GG_STRING, 70); /* marks at 0 and 64 */
    size_t at[70];
    for (size_t i = 0; i < 70; i++) at[i] = gb_strn(&b, s, elem(s, sizeof s, i));
    tfs_header *g = NULL;
    tfs_source src;
    tfs_test_reader r;
    tfs_test_reader_source(&src, &r, b.p, b.len, 1);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &g, NULL), TFS_OK);
    for (size_t i = 0; i < 70; i++) expect_element(g, i, at[i]);
    tfs_header_free(g);
    gb_free(&b);
}

/* A key of 65,530 bytes (kept whole: <= TFS_KEY_KEEP) one byte short of the
 * end, in a file longer than a stream's first window: the stream learns its
 * size only while copying the key (read.c tfs__gg_string_keep's loop):
 * GG102 at the key's length field from every source (ggml rejects). */
static void test_GG102_long_kept_key_past_end_of_stream(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    size_t at = b.len;
    gb_u64(&b, 65530);
    char *k = malloc(65529);
    assert_non_null(k);
    memset(k, 'k', 65529);
    gb_bytes(&b, k, 65529);
    gg_expect_invalid(&b, 0, TFS_GG102, at, 0);
    free(k);
    gb_free(&b);
}

/* TFS_STRICT reads string bodies in 64 KiB pieces (read.c utf8_piece cuts a
 * piece before a sequence that runs past it): a 2-, 3- or 4-byte character
 * ending exactly at, or running 1-3 bytes past, the first piece's end of a
 * 70,000-byte string value is valid (Python's decoder agrees: U+00E9,
 * U+20AC, U+10000, U+07FF, U+FFFF, U+10FFFF (last bytes 0xBF), U+0800, U+0080);
 * each right after a U+00E9; the same 4-byte lead followed by 'A' is GG507
 * at the lead. */
static void test_strict_utf8_across_pieces(void **state) {
    (void)state;
    static const char *seq[] = {"\xC3\xA9",     "\xE2\x82\xAC",     "\xF0\x90\x80\x80", "\xDF\xBF",
                                "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xE0\xA0\x80",     "\xC2\x80"};
    enum { LEN = 70000 };
    char *v = malloc(LEN);
    assert_non_null(v);
    for (size_t q = 0; q < sizeof seq / sizeof *seq; q++) {
        size_t n = strlen(seq[q]);
        for (size_t end = TFS_WINDOW - 1u; end <= TFS_WINDOW + n; end++) { /* the sequence ends at end */
            memset(v, 'a', LEN);
            memcpy(v + end - n, seq[q], n);
            memcpy(v + end - n - 2u, "\xC3\xA9", 2); /* a 2-byte character right before it */
            gb b = {0};
            gb_header(&b, 3, 0, 1);
            gb_kv(&b, "s", TFS_GG_STRING);
            gb_strn(&b, v, LEN);
            tfs_header_free(gg_expect_ok(&b, TFS_STRICT));
            gb_free(&b);
        }
    }
    memset(v, 'a', LEN);
    memcpy(v + TFS_WINDOW - 3u,
           "\xF0\x90\x80"
           "A",
           4);
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv(&b, "s", TFS_GG_STRING);
    gb_strn(&b, v, LEN);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG507, at.value + 8u + TFS_WINDOW - 3u, 0);
    gb_free(&b);
    free(v);
}

/* A key longer than TFS_KEY_KEEP is checked for TFS_STRICT (GG504) as a
 * reader reads it, window by window (read.c tfs__gg_key_long): with two
 * invalid bytes in different windows, GG504 at the first; with the key
 * ending in a cut 4-byte sequence (F0 90), GG504 at that lead (Python's
 * decoder agrees on both offsets). */
static void test_GG504_long_key_first_error_and_cut_end(void **state) {
    (void)state;
    enum { LEN = 150000 };
    char *k = malloc(LEN);
    assert_non_null(k);
    for (int variant = 0; variant < 2; variant++) {
        memset(k, 'k', LEN);
        size_t bad;
        if (variant == 0) {
            k[100] = (char)0xFF;
            k[140000] = (char)0xFF;
            bad = 100;
        } else {
            memcpy(k + LEN - 2u, "\xF0\x90", 2);
            bad = LEN - 2u;
        }
        gb b = {0};
        gb_header(&b, 3, 0, 1);
        size_t at = gb_strn(&b, k, LEN);
        gb_u32(&b, TFS_GG_U32);
        gb_u32(&b, 1);
        gg_expect_invalid(&b, TFS_STRICT, TFS_GG504, at + 8u + bad, 0);
        gb_free(&b);
    }
    free(k);
}

/* TFS_STRICT | TFS_PARTIAL on a file: a 70,000-byte key (GG505: longer
 * than the spec's 65,535) whose first 64 KiB piece is cut before a 3-byte
 * character at TFS_KEY_KEEP - 1; the partial view still holds the earlier
 * key "abc" and the long key's first TFS_KEY_KEEP bytes as in the file
 * (read.c key_long copies the kept prefix piece by piece). */
static void test_GG505_partial_view_keeps_long_key_prefix(void **state) {
    (void)state;
    enum { LEN = 70000 };
    char *k = malloc(LEN);
    assert_non_null(k);
    memset(k, 'k', LEN);
    memcpy(k + TFS_KEY_KEEP - 1u, "\xE2\x82\xAC", 3);
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "abc", 1);
    size_t at = gb_strn(&b, k, LEN);
    gb_u32(&b, TFS_GG_U32);
    gb_u32(&b, 1);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_test_parse_second(b.p, b.len, TFS_FORMAT_GGUF, TFS_STRICT | TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), "GG505");
    assert_int_equal(e.offset, at);
    assert_non_null(h);
    assert_int_equal(h->n_kv, 2);
    assert_int_equal(h->kv[0].key.len, 3);
    assert_memory_equal(h->kv[0].key.ptr, "abc", 3);
    assert_int_equal(h->kv[1].key.len, TFS_KEY_KEEP);
    assert_memory_equal(h->kv[1].key.ptr, k, TFS_KEY_KEEP);
    tfs_header_free(h);
    gb_free(&b);
    free(k);
}

/* A 150,000-byte string value under TFS_STRICT with invalid bytes at 100
 * and 140,000 (different 64 KiB pieces): GG507 at the first (read.c
 * tfs__gg_scan_utf8 stops there). */
static void test_GG507_long_value_first_error(void **state) {
    (void)state;
    enum { LEN = 150000 };
    char *v = malloc(LEN);
    assert_non_null(v);
    memset(v, 'v', LEN);
    v[100] = (char)0xFF;
    v[140000] = (char)0xFF;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv(&b, "s", TFS_GG_STRING);
    gb_strn(&b, v, LEN);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG507, at.value + 8u + 100u, 0);
    gb_free(&b);
    free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG103_element_length_cut_every_byte),
#ifndef TFS_NO_POSIX
        cmocka_unit_test(test_GG101_element_body_in_buffer),
#endif
        cmocka_unit_test(test_GG102_element_body_past_end),
        cmocka_unit_test(test_strict_utf8_across_pieces),
        cmocka_unit_test(test_GG504_long_key_first_error_and_cut_end),
        cmocka_unit_test(test_GG507_long_value_first_error),
        cmocka_unit_test(test_GG505_partial_view_keeps_long_key_prefix),
        cmocka_unit_test(test_GG102_long_kept_key_past_end_of_stream),
        cmocka_unit_test(test_valid_stream_keeps_exactly_array_keep),
        cmocka_unit_test(test_valid_stream_keeps_not_one_byte_more),
        cmocka_unit_test(test_valid_stream_keeps_exactly_total),
        cmocka_unit_test(test_valid_stream_keeps_not_one_byte_past_total),
        cmocka_unit_test(test_valid_stream_keeps_string_scalars_up_to_256),
        cmocka_unit_test(test_valid_stream_kept_empty_last_element),
        cmocka_unit_test(test_valid_string_lookup_one_byte_reads),
        cmocka_unit_test(test_valid_string_lookup_every_element),
        cmocka_unit_test(test_valid_string_lookup_past_4096_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
