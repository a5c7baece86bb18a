/* names.c: every tensor name of a set of headers, sorted, so a lookup by
 * name costs O(log n) however many tensors the files declare
 * (tfs_find_tensor is a linear scan). */
#include "lint_internal.h"

#include <stdlib.h>
#include <string.h>

static int cmp_name(const char *a, size_t al, const char *b, size_t bl) {
    int c = memcmp(a, b, al < bl ? al : bl);
    if (c) return c;
    return al < bl ? -1 : al > bl ? 1 : 0;
}

static int cmp_entry(const void *pa, const void *pb) {
    const tn_entry *a = pa, *b = pb;
    int c = cmp_name(a->name, a->len, b->name, b->len);
    if (c) return c;
    if (a->part != b->part) return a->part < b->part ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

bool tfs__tn_build(tn_index *x, const tfs_header *const *hs, size_t n) {
    memset(x, 0, sizeof *x);
    size_t total = 0;
    for (size_t p = 0; p < n; p++)
        if (hs[p]) total += hs[p]->n_tensors; /* tensors are in memory: no overflow */
    if (total == 0) return true;
    if (total > SIZE_MAX / sizeof *x->v) return false;
    x->v = malloc(total * sizeof *x->v);
    if (!x->v) return false;
    for (size_t p = 0; p < n; p++) {
        if (!hs[p]) continue;
        for (size_t i = 0; i < hs[p]->n_tensors; i++) {
            tn_entry *e = &x->v[x->n++];
            e->name = hs[p]->tensors[i].name.ptr;
            e->len = hs[p]->tensors[i].name.len;
            e->part = (uint32_t)p;
            e->index = (uint32_t)i;
        }
    }
    qsort(x->v, x->n, sizeof *x->v, cmp_entry);
    return true;
}

void tfs__tn_free(tn_index *x) {
    free(x->v);
    memset(x, 0, sizeof *x);
}

const tn_entry *tfs__tn_find(const tn_index *x, const char *name, size_t len, size_t *count) {
    size_t lo = 0, hi = x->n;
    while (lo < hi) { /* first entry >= name */
        size_t mid = lo + (hi - lo) / 2u;
        if (cmp_name(x->v[mid].name, x->v[mid].len, name, len) < 0)
            lo = mid + 1u;
        else
            hi = mid;
    }
    size_t k = lo;
    while (k < x->n && cmp_name(x->v[k].name, x->v[k].len, name, len) == 0) k++;
    if (count) *count = k - lo;
    return k > lo ? &x->v[lo] : NULL;
}
