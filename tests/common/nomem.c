/* nomem.c: the --wrap allocation functions and one parse with the N-th
 * allocation failing (nomem.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/nomem.h"

#include "common/sources.h"

static long fail_at = -1; /* the allocation number that fails; -1: none */
static long n_allocs;     /* allocations since counting started */

static int zero_null; /* tfs_test_nomem_zero_null: 0-byte requests get NULL */

static int fails(void) {
    long k = n_allocs++;
    return fail_at >= 0 && k == fail_at;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
void *__wrap_malloc(size_t n) { return fails() || (zero_null && n == 0) ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) {
    return fails() || (zero_null && (k == 0 || n == 0)) ? NULL : __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t a, size_t n) {
    return fails() || (zero_null && n == 0) ? NULL : __real_aligned_alloc(a, n);
}

void tfs_test_nomem_zero_null(int on) { zero_null = on; }

void tfs_test_nomem_arm(long fail) {
    n_allocs = 0;
    fail_at = fail;
}

long tfs_test_nomem_disarm(void) {
    fail_at = -1;
    return n_allocs;
}

tfs_status tfs_test_nomem_parse(int how, const uint8_t *p, size_t n, tfs_format format, unsigned flags, long fail,
                                long *allocs, tfs_header **h, tfs_error *e) {
    static tfs_test_reader r; /* the header reads through them later (values) */
    static tfs_test_stream st;
    tfs_source src;
    if (how == TFS_TEST_STREAM)
        tfs_test_stream_source(&src, &st, p, n);
    else
        tfs_test_reader_source(&src, &r, p, n, SIZE_MAX);
    *h = NULL;
    n_allocs = 0;
    fail_at = fail;
    tfs_status s = how == TFS_TEST_BUFFER ? tfs_parse_buffer(p, n, format, flags, h, e)
                                          : tfs_parse_source(&src, NULL, format, flags, h, e);
    fail_at = -1;
    if (allocs) *allocs = n_allocs;
    return s;
}

void tfs_test_nomem_every_allocation(const uint8_t *p, size_t n, tfs_format format, unsigned flags,
                                     tfs_test_same_fn same) {
    tfs_header *bref;
    tfs_error be;
    tfs_test_nomem_parse(TFS_TEST_BUFFER, p, n, format, flags, -1, NULL, &bref, &be);
    for (int how = TFS_TEST_BUFFER; how <= TFS_TEST_STREAM; how++) {
        tfs_header *ref, *h;
        tfs_error re, e;
        long total;
        tfs_status want = tfs_test_nomem_parse(how, p, n, format, flags, -1, &total, &ref, &re);
        assert_true(total > 3);
        for (long k = 0; k <= total; k++) {
            tfs_status st = tfs_test_nomem_parse(how, p, n, format, flags, k, NULL, &h, &e);
            if (k == total || st != TFS_ENOMEM) {
                /* past the last allocation (or one whose failure is
                 * recovered from): the verdict of the parse without failures */
                if (st != want) print_error("source %d, allocation %ld failing: %s\n", how, k, tfs_status_name(st));
                assert_int_equal(st, want);
                assert_int_equal(e.rule, re.rule);
                assert_int_equal(e.offset, re.offset);
                assert_int_equal(e.index, re.index);
                if (st == TFS_OK) {
                    if (same)
                        same(how, bref, ref, h);
                    else
                        tfs_test_assert_same_view(ref, h);
                }
                tfs_header_free(h); /* TFS_PARTIAL: an invalid file's partial view, or NULL */
                continue;
            }
            assert_null(h);
            assert_int_equal(e.rule, TFS_RULE_NONE);
            assert_int_equal(e.offset, 0);
            assert_int_equal(e.index, -1);
            assert_int_equal(e.sys_errno, 0);
        }
        tfs_header_free(ref);
    }
    tfs_header_free(bref);
}
