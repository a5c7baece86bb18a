/* nomem.c: the --wrap allocation functions and one parse with the N-th
 * allocation failing (nomem.h). */
#include "common/nomem.h"

#include <string.h>

#include "common/sources.h"

static long fail_at = -1; /* the allocation number that fails; -1: none */
static long n_allocs;     /* allocations since counting started */

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
void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { return fails() ? NULL : __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t a, size_t n) { return fails() ? NULL : __real_aligned_alloc(a, n); }

typedef struct mem_src {
    const uint8_t *p;
    size_t n;
} mem_src;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    const mem_src *m = ctx;
    size_t k = off >= m->n ? 0 : m->n - (size_t)off < len ? m->n - (size_t)off : len;
    if (k) memcpy(buf, m->p + off, k);
    *got = k;
    return 0;
}

tfs_status tfs_test_nomem_parse(int how, const uint8_t *p, size_t n, tfs_format format, unsigned flags, long fail,
                                long *allocs, tfs_header **h, tfs_error *e) {
    static mem_src m; /* the header reads through it later (values) */
    static tfs_test_stream st;
    m = (mem_src){p, n};
    tfs_source src = {.read = mem_read, .ctx = &m, .size = n};
    if (how == TFS_TEST_STREAM) tfs_test_stream_source(&src, &st, p, n);
    *h = NULL;
    n_allocs = 0;
    fail_at = fail;
    tfs_status s = how == TFS_TEST_BUFFER ? tfs_parse_buffer(p, n, format, flags, h, e)
                                          : tfs_parse_source(&src, NULL, format, flags, h, e);
    fail_at = -1;
    if (allocs) *allocs = n_allocs;
    return s;
}
