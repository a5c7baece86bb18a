/* m_offset.c: offset.* - tensor data offsets shuffled (swap, overlap, hole,
 * off-by-one, reorder, share).  GGUF through the tensor infos' offset knob,
 * safetensors through data_offsets (offsets pinned first so that an edit of
 * one entry leaves the others where they were). */
#include "mut.h"

/* two distinct tensor indices i < j (the model has >= 2 tensors) */
static void two(mut_ctx *c, size_t n, size_t *i, size_t *j) {
    *i = (size_t)tfs__mut_below(&c->rng, n - 1);
    *j = *i + 1 + (size_t)tfs__mut_below(&c->rng, n - 1 - *i);
}

/* pin every GGUF tensor's offset to the computed one; returns them */
static uint64_t *gg_pin(mut_ctx *c) {
    uint64_t *o = tfs__mut_gg_offsets(c);
    if (!o) return NULL;
    for (size_t i = 0; i < c->n_gt; i++) {
        c->gt[i].offset_set = 1;
        c->gt[i].offset = o[i];
    }
    return o;
}

static int swap_m(mut_ctx *c) {
    size_t i, j;
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 2) < 2 || !gg_pin(c)) return 0;
        two(c, c->n_gt, &i, &j);
        uint64_t t = c->gt[i].offset;
        c->gt[i].offset = c->gt[j].offset;
        c->gt[j].offset = t;
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 2) < 2) return 0;
    tfs__mut_st_pin_offsets(c);
    two(c, c->n_se, &i, &j);
    tfs_st_wentry *a = &c->se[i], *b = &c->se[j];
    uint64_t tb = a->begin, te = a->end;
    a->begin = b->begin;
    a->end = b->end;
    b->begin = tb;
    b->end = te;
    return 1;
}

static int overlap_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 2) < 2 || !gg_pin(c)) return 0;
        size_t i = 1 + (size_t)tfs__mut_below(&c->rng, c->n_gt - 1);
        uint64_t a = tfs__mut_gg_align(c), prev = c->gt[i - 1].offset, cur = c->gt[i].offset;
        /* start inside the previous tensor: one alignment unit, or one byte, back */
        if (cur > prev)
            c->gt[i].offset = cur - ((cur - prev > a) ? a : 1);
        else
            c->gt[i].offset = cur ? cur - 1 : cur + 1;
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 2) < 2) return 0;
    tfs__mut_st_pin_offsets(c);
    size_t i = 1 + (size_t)tfs__mut_below(&c->rng, c->n_se - 1);
    tfs_st_wentry *e = &c->se[i];
    uint64_t back = 1 + tfs__mut_below(&c->rng, 4);
    if (back > e->begin) back = e->begin;
    if (back == 0) {
        e->begin += 1; /* nothing before it: a gap instead keeps the edit visible */
        e->end += 1;
        return 1;
    }
    e->begin -= back;
    e->end -= back;
    return 1;
}

static int hole_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 1) < 1 || !gg_pin(c)) return 0;
        size_t i = (size_t)tfs__mut_below(&c->rng, c->n_gt);
        uint64_t gap = tfs__mut_gg_align(c) * (1 + tfs__mut_below(&c->rng, 3));
        for (size_t k = i; k < c->n_gt; k++) c->gt[k].offset += gap;
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs__mut_st_pin_offsets(c);
    size_t i = (size_t)tfs__mut_below(&c->rng, c->n_se);
    uint64_t gap = 1 + tfs__mut_below(&c->rng, 16);
    for (size_t k = i; k < c->n_se; k++) {
        c->se[k].begin += gap;
        c->se[k].end += gap;
    }
    return 1;
}

/* GGUF: bytes phase on one offset field; safetensors: begin or end +-1 */
static int off1_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) return tfs__mut_gg_need_tensors(c, 1) >= 1;
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs__mut_st_pin_offsets(c);
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    int up = (int)(tfs__mut_next(&c->rng) & 1);
    uint64_t *f = (tfs__mut_next(&c->rng) & 1) ? &e->begin : &e->end;
    if (!up && *f == 0) up = 1;
    *f = up ? *f + 1 : *f - 1;
    return 1;
}

static int off1_b(mut_ctx *c) {
    if (c->format != TFS_FORMAT_GGUF) return 0;
    const tfs_field *f = tfs__mut_field(c, TFS_FIELD_OFFSET);
    uint64_t v;
    if (tfs__mut_get_uint(c, f, &v) != 0) return 0;
    v = (tfs__mut_next(&c->rng) & 1) || v == 0 ? v + 1 : v - 1;
    return tfs__mut_set_uint(c, f, v) == 0;
}

/* Tensor records in another order, each keeping its data offset. */
static int reorder_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 2) < 2 || !gg_pin(c)) return 0;
        size_t i, j;
        two(c, c->n_gt, &i, &j);
        tfs_gg_wtensor t = c->gt[i];
        c->gt[i] = c->gt[j];
        c->gt[j] = t;
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 2) < 2) return 0;
    tfs__mut_st_pin_offsets(c);
    /* Fisher-Yates over the entries; the first two swapped when it gives the
     * same order */
    int moved = 0;
    for (size_t k = c->n_se - 1; k > 0; k--) {
        size_t r = (size_t)tfs__mut_below(&c->rng, k + 1);
        tfs_st_wentry t = c->se[k];
        c->se[k] = c->se[r];
        c->se[r] = t;
        moved |= r != k;
    }
    if (!moved) {
        tfs_st_wentry t = c->se[0];
        c->se[0] = c->se[1];
        c->se[1] = t;
    }
    return 1;
}

/* Two tensors (or all: G15) at one offset. */
static int share_m(mut_ctx *c) {
    int all = tfs__mut_below(&c->rng, 3) == 0;
    size_t i, j;
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 2) < 2 || !gg_pin(c)) return 0;
        two(c, c->n_gt, &i, &j);
        if (all)
            for (size_t k = 0; k < c->n_gt; k++) c->gt[k].offset = 0;
        else
            c->gt[j].offset = c->gt[i].offset;
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 2) < 2) return 0;
    tfs__mut_st_pin_offsets(c);
    two(c, c->n_se, &i, &j);
    for (size_t k = 0; k < c->n_se; k++) {
        if (all || k == j) {
            tfs_st_wentry *src = &c->se[all ? 0 : i];
            c->se[k].begin = src->begin;
            c->se[k].end = src->end;
        }
    }
    return 1;
}

const mut_def tfs__mut_offset[] = {
    {"offset.swap", MUT_BOTH, swap_m, NULL, "two tensors exchange their data offsets"},
    {"offset.overlap", MUT_BOTH, overlap_m, NULL, "a tensor starts inside the one before it"},
    {"offset.hole", MUT_BOTH, hole_m, NULL, "a gap before a tensor (it and the later ones move up)"},
    {"offset.off_by_one", MUT_BOTH, off1_m, off1_b, "one offset (GGUF offset field; safetensors begin or end) +-1"},
    {"offset.reorder", MUT_BOTH, reorder_m, NULL, "tensor records in another order, each keeping its data offset"},
    {"offset.share", MUT_BOTH, share_m, NULL, "two tensors, or all of them, at one offset (G15, S2)"},
};
const size_t tfs__mut_offset_n = sizeof tfs__mut_offset / sizeof tfs__mut_offset[0];
