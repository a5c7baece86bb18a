/* vec.c: growth of the parsers' record arrays (tfs__reserve, internal.h). */
#include "internal.h"

#include <stdlib.h>

void *tfs__reserve(void *arr, size_t *cap, size_t used, size_t elem) {
    if (used < *cap) return arr;
    size_t ncap = *cap ? *cap * 2u : 16u;
    size_t bytes;
    if (ncap < *cap || __builtin_mul_overflow(ncap, elem, &bytes)) return NULL;
    void *p;
    if (bytes >= (size_t)1 << 20) { /* large: a fresh huge-page block, one copy */
        p = tfs__alloc_big(bytes, false);
        if (p && arr) {
            memcpy(p, arr, used * elem);
            free(arr);
        }
    } else {
        p = realloc(arr, bytes);
    }
    if (p) *cap = ncap;
    return p;
}

void *tfs__reserve_first(size_t *cap, size_t n, size_t elem) {
    size_t bytes;
    if (n < 16u) n = 16u;
    if (__builtin_mul_overflow(n, elem, &bytes)) return NULL;
    void *p = tfs__alloc_big(bytes, false);
    if (p) *cap = n;
    return p;
}
