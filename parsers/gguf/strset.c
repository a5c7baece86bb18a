/* strset.c: open-addressing hash set of byte strings that live in the source
 * (kept as offset + length), for duplicate keys and tensor names.  It grows
 * with the entries actually inserted, so its size is bounded by the bytes
 * parsed, never by a count read from the file. */
#include "gg.h"

#include <stdlib.h>

#define GG_STRSET_MIN 16u

static bool grow(gg_strset *s) {
    size_t cap = s->cap ? s->cap * 2u : GG_STRSET_MIN;
    if (cap < s->cap || cap > SIZE_MAX / sizeof *s->slot) return false;
    gg_strset_slot *slot = calloc(cap, sizeof *slot);
    if (!slot) return false;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slot[i].hash) continue;
        size_t j = (size_t)s->slot[i].hash & (cap - 1u);
        while (slot[j].hash) j = (j + 1u) & (cap - 1u);
        slot[j] = s->slot[i];
    }
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return true;
}

int gg_strset_insert(gg_strset *s, const uint8_t *base, uint64_t off, uint64_t len) {
    if ((s->n + 1u) * 2u > s->cap && !grow(s)) return -1;
    const uint8_t *p = base + off;
    uint64_t h = tfs_hash_bytes(s->seed, p, (size_t)len);
    if (!h) h = 1u; /* 0 marks an empty slot */
    size_t j = (size_t)h & (s->cap - 1u);
    while (s->slot[j].hash) {
        const gg_strset_slot *e = &s->slot[j];
        if (e->hash == h && e->len == len && memcmp(base + e->off, p, (size_t)len) == 0) return 1;
        j = (j + 1u) & (s->cap - 1u);
    }
    s->slot[j] = (gg_strset_slot){.off = off, .len = len, .hash = h};
    s->n++;
    return 0;
}

void gg_strset_free(gg_strset *s) {
    free(s->slot);
    s->slot = NULL;
    s->cap = s->n = 0;
}
