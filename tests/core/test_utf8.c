/* test_utf8.c: tfs_utf8_decode and tfs_utf8_valid_up_to (parsers/core/utf8.c)
 * against a reference written from the Unicode standard's table of
 * well-formed byte sequences (Unicode 15, section 3.9, table 3-7) and its
 * encoding form, not from utf8.c: every lead byte with every first and
 * second follower at every length n = 0..3, every four-byte lead with its
 * followers, the decoded code point re-encoded to the input bytes, and the
 * number of valid sequences of each length (128, 1920, 61440 = the code
 * points U+0800..U+FFFF minus the 2048 surrogates). The verdicts were also
 * checked once with Python's strict UTF-8 decoder (bytes.decode, the same
 * rules as Rust's core::str::from_utf8 that ST101 follows); valid_up_to is
 * checked at every position around the 8- and 16-byte ASCII skips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/tfs.h"

/* table 3-7: lead byte range, then the range of the first follower; every
 * later follower is 80..BF */
static const struct {
    uint8_t lead_lo, lead_hi, len, f1_lo, f1_hi;
} WELL_FORMED[] = {
    {0x00, 0x7F, 1, 0, 0},       {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF},
    {0xE1, 0xEC, 3, 0x80, 0xBF}, {0xED, 0xED, 3, 0x80, 0x9F}, {0xEE, 0xEF, 3, 0x80, 0xBF},
    {0xF0, 0xF0, 4, 0x90, 0xBF}, {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
};

/* length of the well-formed sequence at p[0, n), 0 when there is none */
static size_t ref_len(const uint8_t *p, size_t n) {
    if (n == 0) return 0;
    for (size_t r = 0; r < sizeof WELL_FORMED / sizeof WELL_FORMED[0]; r++) {
        if (p[0] < WELL_FORMED[r].lead_lo || p[0] > WELL_FORMED[r].lead_hi) continue;
        size_t len = WELL_FORMED[r].len;
        if (n < len) return 0;
        if (len >= 2 && (p[1] < WELL_FORMED[r].f1_lo || p[1] > WELL_FORMED[r].f1_hi)) return 0;
        for (size_t k = 2; k < len; k++)
            if (p[k] < 0x80 || p[k] > 0xBF) return 0;
        return len;
    }
    return 0;
}

/* the encoding form (section 3.9, table 3-6): code point -> bytes */
static size_t ref_encode(uint32_t cp, uint8_t out[4]) {
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 + cp / 64);
        out[1] = (uint8_t)(0x80 + cp % 64);
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 + cp / 4096);
        out[1] = (uint8_t)(0x80 + cp / 64 % 64);
        out[2] = (uint8_t)(0x80 + cp % 64);
        return 3;
    }
    out[0] = (uint8_t)(0xF0 + cp / 262144);
    out[1] = (uint8_t)(0x80 + cp / 4096 % 64);
    out[2] = (uint8_t)(0x80 + cp / 64 % 64);
    out[3] = (uint8_t)(0x80 + cp % 64);
    return 4;
}

static void check_one(const uint8_t *p, size_t n, size_t *count) {
    uint32_t cp = 0xFFFFFFFFu;
    size_t want = ref_len(p, n);
    size_t got = tfs_utf8_decode(p, n, &cp);
    if (got != want) fail_msg("%02X %02X %02X %02X n=%zu: got %zu, want %zu", p[0], p[1], p[2], p[3], n, got, want);
    assert_int_equal(tfs_utf8_decode(p, n, NULL), want);
    if (want == 0) return;
    uint8_t enc[4];
    assert_int_equal(ref_encode(cp, enc), want);
    assert_memory_equal(enc, p, want);
    count[want]++;
}

/* every lead byte x every first and second follower, at n = 0, 1, 2, 3 */
static void test_decode_three_bytes_exhaustive(void **state) {
    (void)state;
    uint8_t p[4] = {0};
    for (size_t n = 0; n <= 3; n++) {
        size_t count[5] = {0};
        for (unsigned a = 0; a < 256; a++)
            for (unsigned b = 0; b < 256; b++)
                for (unsigned c = 0; c < 256; c++) {
                    p[0] = (uint8_t)a, p[1] = (uint8_t)b, p[2] = (uint8_t)c;
                    check_one(p, n, count);
                    if (n < 2) break; /* p[2] unread */
                }
        /* n = 0: nothing; n = 1: the ASCII bytes (x 256 values of p[1], unread) */
        size_t rest = n >= 2 ? 256u : 1u;
        assert_int_equal(count[1], n == 0 ? 0 : 128u * 256u * rest);
        assert_int_equal(count[2], n >= 2 ? 1920u * rest : 0u);
        assert_int_equal(count[3], n == 3 ? 61440u : 0u);
        assert_int_equal(count[4], 0);
    }
}

/* the four-byte leads (and F5..FF) x every first and second follower x a
 * third follower at each edge of 80..BF, at n = 3 (truncated) and 4 */
static void test_decode_four_bytes(void **state) {
    (void)state;
    static const uint8_t third[] = {0x00, 0x7F, 0x80, 0x81, 0xBE, 0xBF, 0xC0, 0xFF};
    uint8_t p[4];
    size_t count[5] = {0};
    for (unsigned a = 0xF0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++)
            for (unsigned c = 0; c < 256; c++)
                for (size_t d = 0; d < sizeof third; d++) {
                    p[0] = (uint8_t)a, p[1] = (uint8_t)b, p[2] = (uint8_t)c, p[3] = third[d];
                    check_one(p, 3, count);
                    check_one(p, 4, count);
                }
    /* U+10000..U+10FFFF is 16 x 65536 code points; 4 of the 64 third followers */
    assert_int_equal(count[4], 1048576u / 64u * 4u);
    assert_int_equal(count[1] + count[2] + count[3], 0);
}

/* the code points at each edge of each length (Python: chr(cp).encode()) */
static void test_decode_edges(void **state) {
    (void)state;
    static const struct {
        uint8_t b[4];
        size_t len;
        uint32_t cp;
    } E[] = {
        {{0x00}, 1, 0x0},
        {{0x7F}, 1, 0x7F},
        {{0xC2, 0x80}, 2, 0x80},
        {{0xDF, 0xBF}, 2, 0x7FF},
        {{0xE0, 0xA0, 0x80}, 3, 0x800},
        {{0xED, 0x9F, 0xBF}, 3, 0xD7FF},
        {{0xEE, 0x80, 0x80}, 3, 0xE000},
        {{0xEF, 0xBF, 0xBF}, 3, 0xFFFF},
        {{0xF0, 0x90, 0x80, 0x80}, 4, 0x10000},
        {{0xF4, 0x8F, 0xBF, 0xBF}, 4, 0x10FFFF},
    };
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++) {
        uint32_t cp = 0xFFFFFFFFu;
        assert_int_equal(tfs_utf8_decode(E[i].b, E[i].len, &cp), E[i].len);
        assert_int_equal(cp, E[i].cp);
    }
}

/* one odd sequence at every position of buffers of every length up to 40:
 * valid_up_to is its position when it is invalid or cut by the end, the
 * length when it is valid (the 8- and 16-byte ASCII skips around it), among
 * 'a' and among NUL bytes (no bit but the high one set next to it).  The
 * n bytes are checked twice: followed by continuation bytes (a sequence cut
 * by the end must not be completed by them), and ending at a page that
 * cannot be read (nothing past the end is read at all). */
static const struct {
    uint8_t b[4];
    size_t len;
    int valid;
} SEQ[] = {
    {{0x80}, 1, 0},
    {{0xFF}, 1, 0},
    {{0xC3, 0xA9}, 2, 1},
    {{0xE2, 0x82, 0xAC}, 3, 1},
    {{0xF0, 0x9F, 0x98, 0x80}, 4, 1},
    {{0xE0, 0x9F, 0xBF}, 3, 0},
    {{0xED, 0xA0, 0x80}, 3, 0},
    {{0xF4, 0x90, 0x80, 0x80}, 4, 0},
};

static void check_positions(uint8_t *buf, size_t n, uint8_t fill) {
    memset(buf, fill, n);
    assert_int_equal(tfs_utf8_valid_up_to(buf, n), n);
    for (size_t s = 0; s < sizeof SEQ / sizeof SEQ[0]; s++)
        for (size_t at = 0; at < n; at++) {
            memset(buf, fill, n);
            size_t k = SEQ[s].len < n - at ? SEQ[s].len : n - at;
            memcpy(buf + at, SEQ[s].b, k);
            size_t want = SEQ[s].valid && k == SEQ[s].len ? n : at;
            size_t got = tfs_utf8_valid_up_to(buf, n);
            if (got != want) fail_msg("seq %zu at %zu of %zu: got %zu, want %zu", s, at, n, got, want);
        }
}

static void test_valid_up_to_positions(void **state) {
    (void)state;
    uint8_t buf[48];
    for (size_t n = 0; n <= 40; n++) {
        memset(buf, 0x80, sizeof buf);
        check_positions(buf, n, 'a');
        check_positions(buf, n, 0);
    }
}

#if defined(__unix__)
#include <sys/mman.h>
#include <unistd.h>

static void test_valid_up_to_page_end(void **state) {
    (void)state;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(mprotect(m + page, page, PROT_NONE), 0);
    for (size_t n = 0; n <= 40; n++) {
        check_positions(m + page - n, n, 'a');
        check_positions(m + page - n, n, 0);
    }
    munmap(m, 2 * page);
}
#else
static void test_valid_up_to_page_end(void **state) {
    (void)state;
    skip();
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_three_bytes_exhaustive),
        cmocka_unit_test(test_decode_four_bytes),
        cmocka_unit_test(test_decode_edges),
        cmocka_unit_test(test_valid_up_to_positions),
        cmocka_unit_test(test_valid_up_to_page_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
