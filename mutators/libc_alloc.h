/* libc_alloc.h: force-included (-include) into the libFuzzer bundle of the
 * mutators (mutators/CMakeLists.txt, coverage-instrumented builds with ASan
 * or UBSan, glibc only).  The bundle's allocations go to glibc's own
 * allocator (__libc_malloc and friends) instead of the sanitizer's
 * interceptors: an ASan malloc unwinds and stores the caller's stack and a
 * free passes through the quarantine, which made allocation a third of a
 * structure-aware execution.  No pointer crosses the bundle's boundary (the
 * mutated input is copied into libFuzzer's buffer), so every block is
 * released by the allocator that made it. */
#ifndef TFS_LIBC_ALLOC_H
#define TFS_LIBC_ALLOC_H
#include <stddef.h>
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t n);
#define malloc(n) __libc_malloc(n)
#define calloc(n, s) __libc_calloc(n, s)
#define realloc(p, n) __libc_realloc(p, n)
#define free(p) __libc_free(p)
#define aligned_alloc(a, n) __libc_memalign(a, n)
#endif
