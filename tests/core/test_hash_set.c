/* test_hash_set.c: the keyed string hash (parsers/core/hash.c) and the hash
 * set of record indexes (parsers/core/set.c) through their internal API.
 * Expectations come from the documented contracts (internal.h), not from
 * recorded outputs:
 * - tfs__hash_final over any split of the bytes equals tfs__hash_bytes of
 *   their concatenation (a key longer than the window is hashed in pieces
 *   and must meet the same key hashed whole: GGUF duplicate keys);
 * - the hash depends on every byte, on the length and on the seed;
 * - the set finds a record equal to the candidate (same 32-bit hash and eq),
 *   inserts otherwise (-1), refuses an index that does not fit its 32-bit
 *   slots (-2), probes past collisions and past the end of the table, keeps
 *   every record through growth, and is sized for at most half full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"

#define SEED UINT64_C(0x0123456789ABCDEF)

static void fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 37u + 11u);
}

/* the bytes hashed in pieces of every split (one, two and three pieces) */
static void test_hash_pieces_equal_whole(void **state) {
    (void)state;
    uint8_t b[41];
    fill(b, sizeof b);
    for (size_t n = 0; n <= sizeof b; n++) {
        uint64_t whole = tfs__hash_bytes(SEED, b, n);
        for (size_t i = 0; i <= n; i++) {
            for (size_t j = i; j <= n; j++) {
                tfs_hash_state s;
                tfs__hash_init(&s, SEED, n);
                tfs__hash_update(&s, b, i);
                tfs__hash_update(&s, b + i, j - i);
                tfs__hash_update(&s, b + j, n - j);
                assert_true(tfs__hash_final(&s) == whole);
            }
        }
        /* byte by byte */
        tfs_hash_state s;
        tfs__hash_init(&s, SEED, n);
        for (size_t i = 0; i < n; i++) tfs__hash_update(&s, b + i, 1);
        assert_true(tfs__hash_final(&s) == whole);
    }
}

/* a one-bit change of any byte, another length, another seed: another hash
 * (a fixed seed and fixed bytes: deterministic; a 64-bit collision among
 * these few hundred values would be a defect of the hash) */
static void test_hash_depends_on_every_byte_length_seed(void **state) {
    (void)state;
    uint8_t b[40];
    for (size_t n = 0; n <= sizeof b; n++) {
        fill(b, sizeof b);
        uint64_t h = tfs__hash_bytes(SEED, b, n);
        assert_true(tfs__hash_bytes(SEED + 1u, b, n) != h);
        assert_true(tfs__hash_bytes(SEED ^ 0x100u, b, n) != h);
        if (n < sizeof b) {
            assert_true(tfs__hash_bytes(SEED, b, n + 1u) != h);
            uint8_t z[sizeof b + 1] = {0};
            /* zero bytes of two lengths: the length itself is hashed */
            assert_true(tfs__hash_bytes(SEED, z, n) != tfs__hash_bytes(SEED, z, n + 1u));
        }
        for (size_t k = 0; k < n; k++) {
            for (unsigned bit = 0; bit < 8; bit += 7) {
                b[k] ^= (uint8_t)(1u << bit);
                assert_true(tfs__hash_bytes(SEED, b, n) != h);
                b[k] ^= (uint8_t)(1u << bit);
            }
        }
        /* bytes past n are not hashed */
        if (n < sizeof b) {
            b[n] ^= 0xFF;
            assert_true(tfs__hash_bytes(SEED, b, n) == h);
        }
    }
}

/* the set: records are strings in an array; ctx is the candidate */
typedef struct cand {
    const char *const *names;
    const char *s;
} cand;

static bool eq_name(const void *ctx, uint64_t index) {
    const cand *c = ctx;
    return strcmp(c->names[index], c->s) == 0;
}

static size_t expect_cap(size_t expect) {
    size_t cap = 64;
    while (cap / 2 < expect) cap *= 2;
    return cap;
}

static void test_set_first_reserve_sizes_for_expect(void **state) {
    (void)state;
    static const size_t expects[] = {0, 1, 31, 32, 33, 63, 64, 65, 1000, 1024, 1025};
    for (size_t e = 0; e < sizeof expects / sizeof expects[0]; e++) {
        tfs_set s = {0};
        assert_true(tfs__set_reserve(&s, expects[e]));
        assert_int_equal(s.cap, expect_cap(expects[e]));
        assert_int_equal(s.used, 0);
        for (size_t i = 0; i < s.cap; i++) assert_int_equal(s.slot[i].index1, 0);
        tfs__set_free(&s);
        assert_null(s.slot);
        assert_int_equal(s.cap, 0);
    }
}

/* hashes chosen to collide in the low bits (the slot) and to sit at the end
 * of the table: probing goes past equal slots and wraps to slot 0 */
static void test_set_collisions_wrap_and_grow(void **state) {
    (void)state;
    enum { N = 300 };
    static char buf[N][8];
    const char *names[N + 1];
    uint64_t hashes[N];
    for (size_t i = 0; i < N; i++) {
        snprintf(buf[i], sizeof buf[i], "k%zu", i);
        names[i] = buf[i];
        /* the first 40 share the low 6 bits 63 (the last slot of a 64-slot
         * table), half of them the whole 32-bit hash; the rest spread */
        hashes[i] = i < 40 ? (i % 2 ? UINT64_C(0xFFFFFFFF) : (UINT64_C(0xABC00000) | ((uint64_t)i << 6) | 63u))
                           : (uint64_t)i * UINT64_C(0x9E3779B97F4A7C15);
    }
    tfs_set s = {0};
    for (size_t i = 0; i < N; i++) {
        assert_true(tfs__set_reserve(&s, 0));
        cand c = {names, names[i]};
        assert_int_equal(tfs__set_find_or_add(&s, hashes[i], i, eq_name, &c), -1);
        assert_int_equal(s.used, i + 1);
        /* never more than half full after a reserve */
        assert_true(s.used * 2 <= s.cap);
        /* every record so far is found again, at its own index */
        for (size_t k = 0; k <= i; k++) {
            cand d = {names, names[k]};
            assert_int_equal(tfs__set_find_or_add(&s, hashes[k], 1000000u + k, eq_name, &d), (int64_t)k);
        }
        assert_int_equal(s.used, i + 1);
    }
    /* the same hash, another string: a new record */
    names[N] = "zz";
    cand z = {names, "zz"};
    assert_true(tfs__set_reserve(&s, 0));
    assert_int_equal(tfs__set_find_or_add(&s, hashes[1], N, eq_name, &z), -1);
    assert_int_equal(tfs__set_find_or_add(&s, hashes[1], N + 1, eq_name, &z), N);
    assert_int_equal(s.used, N + 1);
    tfs__set_free(&s);
    assert_int_equal(s.used, 0);
}

/* the index stored is index + 1 in 32 bits: UINT32_MAX - 1 is the largest */
static void test_set_index_limit(void **state) {
    (void)state;
    static const char *names[] = {"a", "b", "c"};
    tfs_set s = {0};
    assert_true(tfs__set_reserve(&s, 0));
    cand a = {names, "a"};
    assert_int_equal(tfs__set_find_or_add(&s, 5, UINT32_MAX, eq_name, &a), -2);
    assert_int_equal(tfs__set_find_or_add(&s, 5, (uint64_t)UINT32_MAX + 7u, eq_name, &a), -2);
    assert_int_equal(s.used, 0);
    assert_int_equal(tfs__set_find_or_add(&s, 5, UINT32_MAX - 1u, eq_name, &a), -1);
    assert_int_equal(s.used, 1);
    /* found again: eq is asked about index UINT32_MAX - 1 */
    tfs_set_slot *hit = NULL;
    for (size_t i = 0; i < s.cap; i++)
        if (s.slot[i].index1) hit = &s.slot[i];
    assert_non_null(hit);
    assert_int_equal(hit->index1, UINT32_MAX);
    assert_int_equal(hit->hash, 5);
    tfs__set_free(&s);
}

/* the low 32 bits are the slot hash: a record whose 64-bit hash differs only
 * above bit 31 is compared (eq decides) */
static void test_set_uses_low_32_bits(void **state) {
    (void)state;
    static const char *names[] = {"same"};
    tfs_set s = {0};
    assert_true(tfs__set_reserve(&s, 0));
    cand c = {names, "same"};
    assert_int_equal(tfs__set_find_or_add(&s, UINT64_C(0x1234567800000042), 0, eq_name, &c), -1);
    assert_int_equal(tfs__set_find_or_add(&s, UINT64_C(0x8765432100000042), 9, eq_name, &c), 0);
    /* another low hash: not compared, inserted */
    assert_int_equal(tfs__set_find_or_add(&s, UINT64_C(0x43), 9, eq_name, &c), -1);
    tfs__set_free(&s);
}

/* a table for more records than memory can hold: refused (false), the set
 * unchanged and still usable */
static void test_set_reserve_refuses_huge(void **state) {
    (void)state;
    static const size_t expects[] = {SIZE_MAX, SIZE_MAX / 2, SIZE_MAX / 16};
    for (size_t e = 0; e < sizeof expects / sizeof expects[0]; e++) {
        tfs_set s = {0};
        assert_false(tfs__set_reserve(&s, expects[e]));
        assert_int_equal(s.cap, 0);
        assert_null(s.slot);
        assert_true(tfs__set_reserve(&s, 0));
        assert_int_equal(s.cap, 64);
        tfs__set_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_pieces_equal_whole),
        cmocka_unit_test(test_hash_depends_on_every_byte_length_seed),
        cmocka_unit_test(test_set_first_reserve_sizes_for_expect),
        cmocka_unit_test(test_set_collisions_wrap_and_grow),
        cmocka_unit_test(test_set_index_limit),
        cmocka_unit_test(test_set_uses_low_32_bits),
        cmocka_unit_test(test_set_reserve_refuses_huge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
