/* st_validate.c: tensor.rs Metadata::validate and the last check of
 * SafeTensors::read_metadata.  Tensors are walked in (start, end) order from
 * a running offset of 0; the first tensor that fails any check wins:
 *   start != running          ST301 InvalidOffset       (offset: data_offsets)
 *   end < start               ST302 InvalidOffset       (offset: data_offsets)
 *   shape product overflows   ST303 ValidationOverflow  (offset: shape)
 *   elements x bits overflows ST304 ValidationOverflow  (offset: entry)
 *   bits % 8 != 0             ST305 MisalignedSlice     (offset: entry)
 *   end - start != bits / 8   ST306 TensorInvalidInfo   (offset: data_offsets)
 * then the data buffer must end exactly at the last tensor:
 *   longer  ST307 (offset: first uncovered data byte, index -1)
 *   shorter ST308 (offset: data_offsets of the tensor that ends last).
 * The crate sorts a HashMap's entries, so ties in (start, end) are walked in
 * an arbitrary order there; here ties keep file order (deterministic). */
#include "st_internal.h"

#include <stdlib.h>

typedef struct st_key {
    uint64_t start, end;
    uint32_t index;
} st_key;

static int cmp_key(const void *a, const void *b) {
    const st_key *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static tfs_status fail_at(st_ctx *c, tfs_rule rule, uint32_t pos, uint32_t index) {
    return tfs_fail(c->err, rule, 8u + (uint64_t)pos, (int64_t)index);
}

static tfs_status check_one(st_ctx *c, uint32_t i, uint64_t *running) {
    st_ent *e = &c->ents[i];
    if (e->start != *running) return fail_at(c, TFS_ST301, e->offs_pos, i);
    if (e->end < e->start) return fail_at(c, TFS_ST302, e->offs_pos, i);
    *running = e->end;
    uint64_t nel = 1;
    const uint64_t *dims = c->shapes + e->shape_idx;
    for (uint32_t d = 0; d < e->n_dims; d++)
        if (tfs_mul_overflow_u64(nel, dims[d], &nel)) return fail_at(c, TFS_ST303, e->shape_pos, i);
    uint64_t nbits;
    if (tfs_mul_overflow_u64(nel, tfs_st_dtype_bits(e->dtype), &nbits)) return fail_at(c, TFS_ST304, e->val_pos, i);
    if (nbits % 8u != 0) return fail_at(c, TFS_ST305, e->val_pos, i);
    if (e->end - e->start != nbits / 8u) return fail_at(c, TFS_ST306, e->offs_pos, i);
    e->n_elements = nel;
    e->n_bytes = nbits / 8u;
    return TFS_OK;
}

tfs_status st_validate(st_ctx *c, uint64_t data_len, uint64_t *buffer_end) {
    size_t n = c->n_ents;
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++) {
        const st_ent *a = &c->ents[i - 1], *b = &c->ents[i];
        sorted = a->start < b->start || (a->start == b->start && a->end <= b->end);
    }
    st_key *keys = NULL;
    if (!sorted) {
        keys = malloc(n * sizeof *keys);
        if (!keys) return tfs_fail_status(c->err, TFS_ENOMEM, 0);
        for (size_t i = 0; i < n; i++) keys[i] = (st_key){c->ents[i].start, c->ents[i].end, (uint32_t)i};
        qsort(keys, n, sizeof *keys, cmp_key);
    }
    uint64_t running = 0;
    uint32_t last = 0;
    tfs_status st = TFS_OK;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = sorted ? (uint32_t)k : keys[k].index;
        if ((st = check_one(c, i, &running)) != TFS_OK) break;
        last = i;
    }
    free(keys);
    if (st != TFS_OK) return st;
    *buffer_end = running;
    if (running < data_len) return tfs_fail(c->err, TFS_ST307, 8u + (uint64_t)c->n + running, -1);
    if (running > data_len) return fail_at(c, TFS_ST308, c->ents[last].offs_pos, last);
    return TFS_OK;
}
