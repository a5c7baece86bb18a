/* test_mem_vec.c: the big-buffer allocation and its huge-page hint
 * (parsers/core/mem.c) and the record arrays' growth (parsers/core/vec.c),
 * through their internal API.  Expectations from the documented contracts
 * (mem.c, internal.h), computed here:
 * - tfs__mem_hint asks for huge pages on exactly the 2 MiB-aligned interior
 *   [round_up(p, 2 MiB), round_down(p + n, 2 MiB)) of a buffer: checked in
 *   /proc/self/smaps (the "hg" VmFlag of the mappings around it), skipped
 *   where the kernel has no MADV_HUGEPAGE;
 * - tfs__alloc_big: a large block is 2 MiB-aligned, zeroed on request;
 *   NULL when the allocation fails (tests/common/nomem.c: the program is
 *   linked with --wrap for the allocation functions), small or large,
 *   zeroed or not;
 * - tfs__reserve: capacity 16, then doubling, contents kept (also across the
 *   1 MiB switch to tfs__alloc_big), NULL on overflow with nothing changed;
 *   tfs__reserve_first: at least 16 records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"

#include "common/nomem.h"

#define HUGE ((uintptr_t)2 * 1024 * 1024)

#if defined(__linux__) && !defined(TFS_NO_POSIX)
#include <sys/mman.h>
#define HAVE_SMAPS 1

/* The VmFlags "hg" of the mapping that holds address a, and its bounds:
 * 1 set, 0 not set, -1 not found. */
static int hg_at(uintptr_t a, uintptr_t *lo, uintptr_t *hi) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return -1;
    char line[512];
    int in = 0, r = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long s, e;
        if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = a >= s && a < e;
            if (in) {
                *lo = s;
                *hi = e;
            }
            continue;
        }
        if (in && strncmp(line, "VmFlags:", 8) == 0) {
            r = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return r;
}

/* an anonymous mapping of 4 huge pages + 1, trimmed so base is 2 MiB-aligned */
static uint8_t *map_aligned(size_t *len) {
    size_t n = 5 * HUGE;
    uint8_t *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uintptr_t a = ((uintptr_t)m + HUGE - 1) & ~(HUGE - 1);
    if (a > (uintptr_t)m) munmap(m, a - (uintptr_t)m);
    uintptr_t end = (uintptr_t)m + n;
    if (end > a + 4 * HUGE) munmap((void *)(a + 4 * HUGE), end - (a + 4 * HUGE));
    *len = 4 * HUGE;
    return (uint8_t *)a;
}

static bool madvise_works(void) {
    size_t len;
    uint8_t *m = map_aligned(&len);
    if (!m) return false;
    bool ok = madvise(m, HUGE, MADV_HUGEPAGE) == 0;
    uintptr_t lo, hi;
    ok = ok && hg_at((uintptr_t)m, &lo, &hi) == 1;
    munmap(m, len);
    return ok;
}

/* hint [base + off, + n); expect hg on exactly [want_lo, want_hi) (empty: none) */
static void check_hint(size_t off, size_t n, uintptr_t want_lo_off, uintptr_t want_hi_off) {
    size_t len;
    uint8_t *m = map_aligned(&len);
    assert_non_null(m);
    uintptr_t b = (uintptr_t)m, lo, hi;
    tfs__mem_hint(m + off, n);
    if (want_hi_off > want_lo_off) {
        assert_int_equal(hg_at(b + want_lo_off, &lo, &hi), 1);
        assert_true(lo == b + want_lo_off);
        assert_true(hi == b + want_hi_off);
        if (want_lo_off > 0) assert_int_equal(hg_at(b + want_lo_off - 1, &lo, &hi), 0);
        if (want_hi_off < len) assert_int_equal(hg_at(b + want_hi_off, &lo, &hi), 0);
    } else {
        for (uintptr_t a = b; a < b + len; a += HUGE / 2) assert_int_equal(hg_at(a, &lo, &hi), 0);
    }
    munmap(m, len);
}

static void test_hint_marks_the_aligned_interior(void **state) {
    (void)state;
    if (!madvise_works()) skip();
    check_hint(0, HUGE, 0, HUGE);                                 /* exactly one huge page */
    check_hint(0, HUGE - 1, 0, 0);                                /* one byte short: nothing */
    check_hint(0, 3 * HUGE, 0, 3 * HUGE);                         /* aligned both ends */
    check_hint(1, 3 * HUGE, HUGE, 3 * HUGE);                      /* start rounded up, end down */
    check_hint(HUGE - 1, 2 * HUGE + 1, HUGE, 3 * HUGE);           /* end exactly aligned */
    check_hint(HUGE / 2, 2 * HUGE, HUGE, 2 * HUGE);               /* one page in the middle */
    check_hint(HUGE / 2, 3 * HUGE / 2, HUGE, 2 * HUGE);           /* ends on a page end */
    check_hint(HUGE / 2, 3 * HUGE / 2 - 1, 0, 0);                 /* one byte short of it */
    check_hint(HUGE + 4096, 3 * HUGE - 4096, 2 * HUGE, 4 * HUGE); /* up to the end */
    tfs__mem_hint(NULL, 4 * HUGE);                                /* ignored */
}

/* a large block: aligned, a multiple of 2 MiB, its whole span marked */
static void test_alloc_big_large_is_aligned_and_hinted(void **state) {
    (void)state;
    static const size_t sizes[] = {HUGE / 2, HUGE / 2 + 1, HUGE - 1, HUGE, HUGE + 1, 3 * HUGE + 5};
    bool hints = madvise_works();
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        uint8_t *p = tfs__alloc_big(n, true);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % HUGE, 0);
        for (size_t k = 0; k < n; k++)
            if (p[k] != 0) fail_msg("byte %zu of %zu not zeroed", k, n);
        memset(p, 0xA5, n); /* all n bytes are writable */
        if (hints) {
            uintptr_t lo, hi;
            size_t r = (n + HUGE - 1) / HUGE * HUGE; /* the rounded size */
            assert_int_equal(hg_at((uintptr_t)p, &lo, &hi), 1);
            assert_int_equal(hg_at((uintptr_t)p + r - 1, &lo, &hi), 1);
        }
        free(p);
    }
    /* too large to round up: NULL */
    assert_null(tfs__alloc_big(SIZE_MAX - 5, false));
}
#else
static void test_hint_marks_the_aligned_interior(void **state) {
    (void)state;
    skip();
}
static void test_alloc_big_large_is_aligned_and_hinted(void **state) {
    (void)state;
    skip();
}
#endif

static void test_alloc_big_small(void **state) {
    (void)state;
    for (size_t n = 0; n < 64; n++) {
        uint8_t *p = tfs__alloc_big(n, true);
        assert_non_null(p);
        for (size_t k = 0; k < n; k++) assert_int_equal(p[k], 0);
        free(p);
        p = tfs__alloc_big(n, false);
        assert_non_null(p);
        if (n) memset(p, 1, n);
        free(p);
    }
    uint8_t *p = tfs__alloc_big(HUGE / 2 - 1, true);
    assert_non_null(p);
    for (size_t k = 0; k < HUGE / 2 - 1; k += 4093) assert_int_equal(p[k], 0);
    assert_int_equal(p[HUGE / 2 - 2], 0);
    free(p);
}

static void test_alloc_big_fails(void **state) {
    (void)state;
    static const size_t sizes[] = {0, 100, HUGE / 2 - 1, HUGE / 2, HUGE, 3 * HUGE + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        for (int zero = 0; zero <= 1; zero++) {
            tfs_test_nomem_arm(0); /* the next allocation fails */
            void *p = tfs__alloc_big(sizes[i], zero);
            assert_int_equal(tfs_test_nomem_disarm(), 1);
            assert_null(p);
        }
    }
}

static void test_reserve_grows_by_doubling_and_keeps(void **state) {
    (void)state;
    uint32_t *a = NULL;
    size_t cap = 0;
    for (uint32_t i = 0; i < 5000; i++) {
        size_t before = cap;
        uint32_t *b = tfs__reserve(a, &cap, i, sizeof *a);
        assert_non_null(b);
        if (i < before) { /* room left: the same array, the same capacity */
            assert_ptr_equal(b, a);
            assert_int_equal(cap, before);
        } else {
            assert_int_equal(cap, before ? before * 2 : 16);
        }
        a = b;
        a[i] = i * 2654435761u;
        if ((i & (i - 1)) == 0)
            for (uint32_t k = 0; k <= i; k++) assert_int_equal(a[k], k * 2654435761u);
    }
    for (uint32_t k = 0; k < 5000; k++) assert_int_equal(a[k], k * 2654435761u);
    free(a);
}

/* records of 64 KiB: the 32-record array is 2 MiB (tfs__alloc_big), the
 * 16 records before it are copied */
static void test_reserve_large_copies(void **state) {
    (void)state;
    enum { ELEM = 65536 };
    size_t cap = 0;
    uint8_t *a = tfs__reserve(NULL, &cap, 0, ELEM);
    assert_non_null(a);
    assert_int_equal(cap, 16);
    for (size_t i = 0; i < 16 * ELEM; i++) a[i] = (uint8_t)(i % 251u);
    for (int round = 0; round < 2; round++) {
        uint8_t *b = tfs__reserve(a, &cap, cap, ELEM);
        assert_non_null(b);
        a = b;
        for (size_t i = 0; i < 16 * ELEM; i++)
            if (a[i] != (uint8_t)(i % 251u)) fail_msg("byte %zu lost", i);
    }
    assert_int_equal(cap, 64);
    free(a);
    /* a first large array: nothing to copy */
    cap = 0;
    a = tfs__reserve(NULL, &cap, 0, 1u << 20);
    assert_non_null(a);
    assert_int_equal(cap, 16);
    a[16u * (1u << 20) - 1u] = 7;
    free(a);
}

/* overflowing products are refused, also those that wrap to a small size
 * (which an allocator would grant) */
static void test_reserve_overflow(void **state) {
    (void)state;
    uint8_t *arr = malloc(64);
    assert_non_null(arr);
    size_t cap = SIZE_MAX / 2 + 1; /* doubling wraps */
    assert_null(tfs__reserve(arr, &cap, cap, 1));
    assert_true(cap == SIZE_MAX / 2 + 1);
    cap = 16;
    assert_null(tfs__reserve(arr, &cap, 16, SIZE_MAX / 31)); /* 32 records overflow */
    assert_int_equal(cap, 16);
    assert_null(tfs__reserve(arr, &cap, 16, ((size_t)1 << (sizeof(size_t) * 8 - 5)) + 1u)); /* 32 x: 2^64 + 32 */
    assert_int_equal(cap, 16);
    free(arr);
    size_t c2 = 0;
    assert_null(tfs__reserve_first(&c2, SIZE_MAX / 2, 3));
    assert_int_equal(c2, 0);
    assert_null(tfs__reserve_first(&c2, ((size_t)1 << (sizeof(size_t) * 8 - 3)) + 2u, 8)); /* 2^64 + 16 */
    assert_int_equal(c2, 0);
}

/* zero = true zeroes even memory the allocator hands out again (a freed
 * block refilled; glibc raises its mmap threshold after the first free, so
 * later blocks of this size come from reused heap memory) */
static void *(*volatile g_memset)(void *, int, size_t) = memset;
static void test_alloc_big_zeroes_reused_memory(void **state) {
    (void)state;
    static const size_t sizes[] = {HUGE / 2, HUGE / 2 - 1, 100, HUGE + 3};
    for (int round = 0; round < 4; round++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t n = sizes[i];
            uint8_t *p = tfs__alloc_big(n, false);
            assert_non_null(p);
            g_memset(p, 0xA5, n); /* not a dead store before free: through a volatile pointer */
            free(p);
            p = tfs__alloc_big(n, true);
            assert_non_null(p);
            for (size_t k = 0; k < n; k++)
                if (p[k] != 0) fail_msg("byte %zu of %zu not zeroed (round %d)", k, n, round);
            memset(p, 0x5A, n);
            free(p);
        }
    }
}

static void test_reserve_first(void **state) {
    (void)state;
    static const size_t ns[] = {0, 1, 15, 16, 17, 1000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        size_t cap = 0;
        uint8_t *p = tfs__reserve_first(&cap, ns[i], 8);
        assert_non_null(p);
        assert_int_equal(cap, ns[i] < 16 ? 16 : ns[i]);
        memset(p, 0x5A, cap * 8);
        free(p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hint_marks_the_aligned_interior),
        cmocka_unit_test(test_alloc_big_large_is_aligned_and_hinted),
        cmocka_unit_test(test_alloc_big_small),
        cmocka_unit_test(test_alloc_big_zeroes_reused_memory),
        cmocka_unit_test(test_alloc_big_fails),
        cmocka_unit_test(test_reserve_grows_by_doubling_and_keeps),
        cmocka_unit_test(test_reserve_large_copies),
        cmocka_unit_test(test_reserve_overflow),
        cmocka_unit_test(test_reserve_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
