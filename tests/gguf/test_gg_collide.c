/* test_gg_collide.c: duplicate detection when hashes collide.  Keys and
 * tensor names go into a hash set keyed per parse (tfs__hash_seed); only
 * the low 32 bits of a hash sit in a slot, and the comparison (kv.c key_eq
 * and rest_eq, tensor_info.c name_eq) decides.  Distinct keys almost never
 * collide with a random seed, so that comparison is tested here with a
 * fixed one: the program is linked with --wrap=tfs__hash_seed
 * (tests/gguf/tests.cmake) and searches for distinct keys whose hashes
 * share their low 32 bits (a birthday search, ~10^5 candidates).  Such
 * files are valid (ggml compares the strings), and two equal long keys
 * with varied bytes are GG111 from every source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"
#include "common/sources.h"
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED UINT64_C(0x5EED5EED12345678)

uint64_t __wrap_tfs__hash_seed(void);
uint64_t __wrap_tfs__hash_seed(void) { return SEED; }

/* a long key: PREFIX shared bytes, 8 that differ.  The shared bytes run one
 * 4 KiB piece past TFS_KEY_KEEP, so a reader that compares the rest again
 * (kv.c rest_eq, 4 KiB at a time) finds the difference in its second piece */
enum { PREFIX = TFS_KEY_KEEP + 4096u + 1u, LONG = PREFIX + 8u };

static uint8_t prefix[PREFIX];
static tfs_hash_state prefix_state;

/* Candidate i of a family: its bytes into k (cap >= LONG), its length. */
typedef size_t (*family)(uint32_t i, uint8_t *k);

static size_t short_same(uint32_t i, uint8_t *k) { return (size_t)sprintf((char *)k, "key.%08x", i); }
/* even i: 12 bytes, odd i: 13 bytes */
static size_t short_mixed(uint32_t i, uint8_t *k) {
    return (size_t)sprintf((char *)k, i % 2u ? "key.%09x" : "key.%08x", i / 2u);
}
static size_t name_same(uint32_t i, uint8_t *k) { return (size_t)sprintf((char *)k, "blk.%08x.w", i); }
static size_t name_mixed(uint32_t i, uint8_t *k) {
    return (size_t)sprintf((char *)k, i % 2u ? "blk.%09x.w" : "blk.%08x.w", i / 2u);
}
static size_t long_key(uint32_t i, uint8_t *k) {
    memcpy(k, prefix, PREFIX);
    sprintf((char *)k + PREFIX, "%08x", i);
    return LONG;
}

static uint64_t hash_of(family f, uint32_t i, uint8_t *k) {
    size_t n = f(i, k);
    if (f != long_key) return tfs__hash_bytes(SEED, k, n);
    tfs_hash_state s = prefix_state; /* the shared prefix hashed once */
    tfs__hash_update(&s, k + PREFIX, 8);
    return tfs__hash_final(&s);
}

/* Two candidates whose hashes have equal low 32 bits (and differ in the
 * full 64); `mixed`: one of even index, one of odd (different lengths). */
static void find_pair(family f, int mixed, uint32_t *a, uint32_t *b) {
    enum { CAP = 1u << 21 };
    uint32_t *hs = calloc(CAP, sizeof *hs), *ix = calloc(CAP, sizeof *ix);
    uint64_t *full = calloc(CAP, sizeof *full);
    uint8_t *k = malloc(LONG + 16u);
    assert_true(hs && ix && full && k);
    for (uint32_t i = 0; i < 8000000u; i++) {
        uint64_t h64 = hash_of(f, i, k);
        uint32_t h = (uint32_t)h64;
        size_t j = h & (CAP - 1u);
        for (; ix[j]; j = (j + 1u) & (CAP - 1u)) {
            if (hs[j] == h && full[j] != h64 && (!mixed || (ix[j] - 1u) % 2u != i % 2u)) {
                *a = ix[j] - 1u;
                *b = i;
                free(hs), free(ix), free(full), free(k);
                return;
            }
        }
        if (!mixed || i % 2u == 0) hs[j] = h, ix[j] = i + 1u, full[j] = h64;
    }
    free(hs), free(ix), free(full), free(k);
    *a = *b = 0; /* cmocka's fail_msg is not declared noreturn: both outputs stay defined */
    fail_msg("no 32-bit collision found");
}

static void setup_prefix(void) {
    for (size_t j = 0; j < PREFIX; j++) prefix[j] = (uint8_t)('a' + (j * 7u + j / 251u) % 26u);
    tfs__hash_init(&prefix_state, SEED, LONG);
    tfs__hash_update(&prefix_state, prefix, PREFIX);
}

/* Two KVs (u32 values) with the keys of candidates a and b of f. */
static void two_keys(gb *b, family f, uint32_t x, uint32_t y, size_t *second) {
    uint8_t *k = malloc(LONG + 16u);
    assert_non_null(k);
    gb_header(b, 3, 0, 2);
    for (int j = 0; j < 2; j++) {
        size_t n = f(j ? y : x, k);
        size_t at = gb_strn(b, k, n);
        if (j) *second = at;
        gb_u32(b, TFS_GG_U32);
        gb_u32(b, 7u + (uint32_t)j);
    }
    free(k);
}

static void test_valid_colliding_keys_same_length(void **state) {
    (void)state;
    uint32_t x, y;
    size_t second;
    find_pair(short_same, 0, &x, &y);
    gb b = {0};
    two_keys(&b, short_same, x, y, &second);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
}

static void test_valid_colliding_keys_different_lengths(void **state) {
    (void)state;
    uint32_t x, y;
    size_t second;
    find_pair(short_mixed, 1, &x, &y);
    gb b = {0};
    two_keys(&b, short_mixed, x, y, &second);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
}

/* Long keys (more than a reader keeps) sharing their first PREFIX bytes
 * (TFS_KEY_KEEP and one 4 KiB piece more), differing in the last 8, hashes colliding in 32 bits: a reader
 * reads the rest again and finds them different; a stream, which cannot,
 * compares the full 64-bit hashes (before that fix: a false GG111). */
static void test_valid_colliding_long_keys(void **state) {
    (void)state;
    setup_prefix();
    uint32_t x, y;
    size_t second;
    find_pair(long_key, 0, &x, &y);
    gb b = {0};
    two_keys(&b, long_key, x, y, &second);
    tfs_header_free(gg_expect_ok(&b, 0)); /* also a stream: its full hashes differ */
    gb_free(&b);
}

/* A long key, then a later key that is its first PLEN + 8 bytes (both longer
 * than TFS_KEY_KEEP), hashes equal in their low 32 bits: valid.  Lengths
 * differ, so the keys differ; a comparison that skipped the length test, or
 * joined it to the kept-length test with && (the kept lengths are equal,
 * TFS_KEY_KEEP each), would find the shorter key's bytes in the longer one
 * and report GG111.  The 8-byte tail was found by maint/gg_prefix_collision.c
 * (about 2^32 tries: too slow for a test), so the collision is checked here. */
static void test_valid_long_key_then_its_prefix(void **state) {
    (void)state;
    setup_prefix();
    enum { PLEN = TFS_KEY_KEEP + 8u };
    uint8_t *k = malloc(PLEN + 16u);
    assert_non_null(k);
    memcpy(k, prefix, PLEN);
    memcpy(k + PLEN, "tail.keyOvTyhCAA", 16);
    uint64_t ha = tfs__hash_bytes(SEED, k, PLEN + 16u), hb = tfs__hash_bytes(SEED, k, PLEN + 8u);
    assert_int_equal((uint32_t)ha, (uint32_t)hb);
    assert_true(ha != hb);
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_strn(&b, k, PLEN + 16u);
    gb_u32(&b, TFS_GG_U32);
    gb_u32(&b, 7u);
    gb_strn(&b, k, PLEN + 8u);
    gb_u32(&b, TFS_GG_U32);
    gb_u32(&b, 8u);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_kv, 2);
    assert_int_equal(h->kv[0].key_size, PLEN + 16u);
    assert_int_equal(h->kv[1].key_size, PLEN + 8u);
    tfs_header_free(h);
    gb_free(&b);
    free(k);
}

/* Two equal long keys with varied bytes: GG111 at the second from every
 * source (a reader compares the rest again, from the right offsets). */
static void test_GG111_equal_long_keys_varied_bytes(void **state) {
    (void)state;
    setup_prefix();
    gb b = {0};
    size_t second;
    two_keys(&b, long_key, 5, 5, &second);
    gg_expect_invalid(&b, 0, TFS_GG111, second, 1);
    gb_free(&b);
}

/* Two tensors whose names' hashes collide: valid (ggml compares names). */
static void two_names(family f, int mixed) {
    uint32_t x, y;
    find_pair(f, mixed, &x, &y);
    uint8_t k[32];
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    int64_t ne[1] = {8};
    for (int j = 0; j < 2; j++) {
        size_t n = f(j ? y : x, k);
        gb_tin(&b, k, n, 1, ne, 0 /* F32 */, (uint64_t)j * 32u);
    }
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_tensors, 2);
    tfs_header_free(h);
    gb_free(&b);
}

static void test_valid_colliding_names_same_length(void **state) {
    (void)state;
    two_names(name_same, 0);
}

static void test_valid_colliding_names_different_lengths(void **state) {
    (void)state;
    two_names(name_mixed, 1);
}

/* A random-access reader over memory that fails (EIO) when it is asked
 * again for bytes it already gave (a read starting below the furthest byte
 * read), for a read starting in [lo, hi). */
typedef struct rereader {
    const uint8_t *p;
    size_t n;
    uint64_t hw, lo, hi;
} rereader;

static int reread_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    rereader *r = ctx;
    if (off < r->hw && off >= r->lo && off < r->hi) return EIO;
    size_t k = off >= r->n ? 0 : r->n - (size_t)off < len ? r->n - (size_t)off : len;
    if (k) memcpy(buf, r->p + off, k);
    if (off + k > r->hw) r->hw = off + k;
    *got = k;
    return 0;
}

/* Two equal long keys: comparing their tails means reading both again;
 * when either read fails the parse fails with TFS_EIO (not GG111, not
 * valid). */
static void test_reread_fails_while_comparing_long_keys(void **state) {
    (void)state;
    setup_prefix();
    gb b = {0};
    size_t second;
    two_keys(&b, long_key, 5, 5, &second);
    for (int which = 0; which < 2; which++) {
        /* the first key's tail is read again first, then the second's */
        rereader r = {b.p, b.len, 0, which ? second : 0, which ? UINT64_MAX : second};
        tfs_source src = {.read = reread_read, .ctx = &r, .size = b.len};
        tfs_header *h = NULL;
        tfs_error e;
        assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_EIO);
        assert_int_equal(e.rule, TFS_RULE_NONE);
        assert_null(h);
    }
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_colliding_keys_same_length),
        cmocka_unit_test(test_valid_colliding_keys_different_lengths),
        cmocka_unit_test(test_valid_colliding_long_keys),
        cmocka_unit_test(test_valid_long_key_then_its_prefix),
        cmocka_unit_test(test_GG111_equal_long_keys_varied_bytes),
        cmocka_unit_test(test_reread_fails_while_comparing_long_keys),
        cmocka_unit_test(test_valid_colliding_names_same_length),
        cmocka_unit_test(test_valid_colliding_names_different_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
