/* st_names.c: open-addressing hash set of decoded names, used to merge
 * duplicate tensor names and duplicate __metadata__ keys (the crate's
 * HashMap: the last value wins).  Slots hold the 32-bit hash and the index,
 * so growing never re-reads a name. */
#include "st_internal.h"

#include <stdlib.h>

static bool grow(st_names *set, size_t expect) {
    size_t cap = set->cap ? set->cap * 2 : 64;
    while (cap / 2 < expect) cap *= 2; /* expect <= N / 96: bounded by the header size */
    uint64_t *s = tfs_alloc_big(cap * sizeof *s, true); /* cap <= N / 48: no overflow */
    if (!s) return false;
    for (size_t i = 0; i < set->cap; i++) {
        uint64_t v = set->slots[i];
        if (!v) continue;
        size_t k = (size_t)(v >> 32) & (cap - 1);
        while (s[k]) k = (k + 1) & (cap - 1);
        s[k] = v;
    }
    free(set->slots);
    set->slots = s;
    set->cap = cap;
    return true;
}

static const st_sref *name_at(const st_ctx *c, bool kvs, uint32_t i) {
    return kvs ? &c->kvs[i].key : &c->ents[i].name;
}

bool st_names_reserve(st_names *set, size_t expect) {
    return (set->used + 1) * 2 <= set->cap || grow(set, set->cap ? 0 : expect);
}

int64_t st_names_find_or_add(st_ctx *c, st_names *set, bool kvs, const st_sref *s, uint32_t index) {
    const uint8_t *p = st_sref_ptr(c, s);
    size_t mask = set->cap - 1, k = (size_t)s->hash & mask;
    for (;;) {
        uint64_t v = set->slots[k];
        if (!v) break;
        if ((uint32_t)(v >> 32) == s->hash) {
            uint32_t i = (uint32_t)v - 1u;
            const st_sref *o = name_at(c, kvs, i);
            if (o->len == s->len && memcmp(st_sref_ptr(c, o), p, s->len) == 0) return i;
        }
        k = (k + 1) & mask;
    }
    set->slots[k] = ((uint64_t)s->hash << 32) | ((uint64_t)index + 1u);
    set->used++;
    return -1;
}

void st_names_free(st_names *set) {
    free(set->slots);
    set->slots = NULL;
    set->cap = set->used = 0;
}
