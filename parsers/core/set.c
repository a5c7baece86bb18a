/* set.c: the one hash set of libtfs, for duplicate detection in both
 * parsers (safetensors tensor names and __metadata__ keys, GGUF keys and
 * tensor names).  Open addressing over 8-byte (32-bit hash, record index)
 * slots, so the table of a 50,000-name header fits the cache: the set
 * never holds the strings, the caller compares a candidate record on a full
 * hash match.  It grows with the records inserted, never with a declared
 * count, and hashes are keyed per parse (tfs__hash_seed), so a crafted file
 * cannot make lookups quadratic. */
#include "internal.h"

#include <stdlib.h>

#define TFS_SET_MIN 64u

static bool grow(tfs_set *s, size_t expect) {
    size_t cap = s->cap ? s->cap * 2u : TFS_SET_MIN;
    while (cap / 2u < expect && cap <= SIZE_MAX / 4u) cap *= 2u;
    if (cap < s->cap || cap > SIZE_MAX / sizeof *s->slot) return false;
    tfs_set_slot *slot = tfs__alloc_big(cap * sizeof *slot, true);
    if (!slot) return false;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slot[i].index1) continue;
        size_t j = (size_t)s->slot[i].hash & (cap - 1u);
        while (slot[j].index1) j = (j + 1u) & (cap - 1u);
        slot[j] = s->slot[i];
    }
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return true;
}

bool tfs__set_reserve(tfs_set *s, size_t expect) {
    return (s->used + 1u) * 2u <= s->cap || grow(s, s->cap ? 0 : expect);
}

int64_t tfs__set_find_or_add(tfs_set *s, uint64_t hash64, uint64_t index, tfs_set_eq eq, const void *ctx) {
    uint32_t hash = (uint32_t)hash64;
    size_t mask = s->cap - 1u, j = (size_t)hash & mask;
    for (;;) {
        const tfs_set_slot *e = &s->slot[j];
        if (!e->index1) break;
        if (e->hash == hash && eq(ctx, e->index1 - 1u)) return (int64_t)(e->index1 - 1u);
        j = (j + 1u) & mask;
    }
    if (index >= UINT32_MAX) return -2;
    s->slot[j] = (tfs_set_slot){.hash = hash, .index1 = (uint32_t)index + 1u};
    s->used++;
    return -1;
}

void tfs__set_free(tfs_set *s) {
    free(s->slot);
    s->slot = NULL;
    s->cap = s->used = 0;
}
