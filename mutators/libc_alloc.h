/* libc_alloc.h: force-included (-include) into the libFuzzer bundle of the
 * mutators (mutators/CMakeLists.txt, coverage-instrumented builds with ASan
 * or UBSan, glibc only).  The bundle's allocations go to glibc's own
 * allocator (__libc_malloc and friends) instead of the sanitizer's
 * interceptors: an ASan malloc unwinds and stores the caller's stack and a
 * free passes through the quarantine, which made allocation a third of a
 * structure-aware execution.  No pointer crosses the bundle's boundary (the
 * mutated input is copied into libFuzzer's buffer), so every block is
 * released by the allocator that made it.  Of glibc's entry points ASan
 * intercepts __libc_memalign (and not __libc_malloc, _calloc, _realloc,
 * _free): aligned_alloc maps to plain __libc_malloc. */
#ifndef TFS_LIBC_ALLOC_H
#define TFS_LIBC_ALLOC_H
#include <stddef.h>
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
#define malloc(n) __libc_malloc(n)
#define calloc(n, s) __libc_calloc(n, s)
#define realloc(p, n) __libc_realloc(p, n)
#define free(p) __libc_free(p)
/* not __libc_memalign: ASan intercepts that one (ld.so uses it).  The
 * alignment asked for (tfs__alloc_big: 2 MiB) is a huge-page hint only. */
#define aligned_alloc(a, n) __libc_malloc(n)
#endif
