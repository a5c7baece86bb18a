/* mem.c: a hint for large buffers (the safetensors header, record arrays,
 * hash tables).  On a fresh anonymous mapping every 4 KiB page faults on
 * first touch, about 10 us each on a shared VM: for a 6 MB header that is
 * most of a whole-process check.  Asking for transparent huge pages on the
 * 2 MiB-aligned interior of the buffer turns 512 faults into one.  Only a
 * hint: without POSIX (TFS_NO_POSIX) or where the kernel refuses, nothing
 * changes but speed. */
#include "internal.h"

#include <stdlib.h>

#if !defined(TFS_NO_POSIX) && defined(__linux__)
#include <sys/mman.h>
#endif

#define TFS_HUGE (2u * 1024u * 1024u)

void tfs__mem_hint(void *p, size_t n) {
#if !defined(TFS_NO_POSIX) && defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || n < TFS_HUGE) return;
    uintptr_t a = ((uintptr_t)p + TFS_HUGE - 1u) & ~(uintptr_t)(TFS_HUGE - 1u);
    uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(TFS_HUGE - 1u);
    if (e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)n;
#endif
}

void *tfs__alloc_big(size_t n, bool zero) {
    if (n < TFS_HUGE / 2u) return zero ? calloc(n ? n : 1u, 1) : malloc(n ? n : 1u);
    /* 2 MiB-aligned and a multiple of it, so every page of it can be huge */
    size_t r = (n + TFS_HUGE - 1u) & ~(size_t)(TFS_HUGE - 1u);
    if (r < n) return NULL;
    void *p = aligned_alloc(TFS_HUGE, r);
    if (!p) return NULL;
    tfs__mem_hint(p, r);
    if (zero) memset(p, 0, n);
    return p;
}
