/* m_trunc.c: trunc.* - the written file cut at a chosen place (inside the
 * fixed prefix, inside the header, at the data start, inside or after the
 * last tensor, inside the header padding). */
#include "mut.h"

/* where the header ends and the data section starts (bytes) */
static uint64_t data_start(const mut_ctx *c) {
    if (c->format == TFS_FORMAT_SAFETENSORS) {
        const tfs_field *j = tfs_wbuf_find(&c->w, TFS_FIELD_JSON, -1, 0);
        return j ? j->offset + j->width : 8;
    }
    const tfs_field *d = tfs__mut_field_nth(c, TFS_FIELD_DATA, 0);
    if (d) return d->offset;
    const tfs_field *p = tfs_wbuf_find(&c->w, TFS_FIELD_PADDING, -1, 0);
    return p ? p->offset + p->width : c->w.size;
}

/* cut at a random point of [lo, hi) (at lo when empty); never at 0 */
static int cut_in(mut_ctx *c, uint64_t lo, uint64_t hi) {
    uint64_t at = hi > lo ? lo + tfs__mut_below(&c->rng, hi - lo) : lo;
    if (at == 0) at = 1;
    return tfs__mut_cut(c, at);
}

static int prefix_b(mut_ctx *c) { return cut_in(c, 1, c->format == TFS_FORMAT_GGUF ? 24 : 8); }

static int header_b(mut_ctx *c) {
    uint64_t lo = c->format == TFS_FORMAT_GGUF ? 24 : 8, hi = data_start(c);
    if (c->format == TFS_FORMAT_SAFETENSORS) {
        const tfs_field *p = tfs_wbuf_find(&c->w, TFS_FIELD_PADDING, -1, 0);
        if (p) hi = p->offset; /* the JSON text itself, not its padding */
    }
    return cut_in(c, lo, hi);
}

static int data_start_b(mut_ctx *c) { return tfs__mut_cut(c, data_start(c)); }

static int need_tensor_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) return tfs__mut_gg_need_tensors(c, 1) >= 1;
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs__mut_st_pin_offsets(c); /* the bytes phase reads where each tensor lies */
    return 1;
}

/* the data field of the tensor whose data ends last */
static const tfs_field *last_data(const mut_ctx *c) {
    const tfs_field *best = NULL;
    if (c->format == TFS_FORMAT_GGUF) {
        size_t n = tfs__mut_field_count(c, TFS_FIELD_DATA);
        for (size_t i = 0; i < n; i++) {
            const tfs_field *f = tfs__mut_field_nth(c, TFS_FIELD_DATA, i);
            if (f->width && (!best || f->offset + f->width >= best->offset + best->width)) best = f;
        }
    }
    return best;
}

static int last_tensor_b(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        const tfs_field *f = last_data(c);
        if (!f) return 0;
        return cut_in(c, f->offset, f->offset + f->width);
    }
    /* safetensors: the data buffer ends inside the last tensor's bytes */
    uint64_t ds = data_start(c), top = 0, bot = 0;
    for (size_t i = 0; i < c->n_se; i++)
        if (c->se[i].end >= top && c->se[i].offsets_set) {
            top = c->se[i].end;
            bot = c->se[i].begin;
        }
    if (top == 0) { /* offsets computed by the writer: the data is the tensors */
        if (c->w.size <= ds) return 0;
        return cut_in(c, ds, c->w.size);
    }
    return cut_in(c, ds + bot, ds + top);
}

static int after_last_m(mut_ctx *c) {
    if (!need_tensor_m(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        /* the last tensor must leave padding to drop: a 3-byte one last */
        uint64_t nb = 0;
        const tfs_gg_wtensor *t = &c->gt[c->n_gt - 1];
        if (tfs_gg_tensor_nbytes(t->type, t->n_dims, t->ne, &nb) != 0 || nb % tfs__mut_gg_align(c) == 0) {
            tfs_gg_wtensor *x = tfs__mut_gg_add_tensor(c);
            if (!x) return 0;
            x->name = tfs_wstr_c("mut.tail");
            x->type = 24; /* i8 */
            x->n_dims = 1;
            x->ne[0] = 3;
        }
    }
    if (c->format == TFS_FORMAT_SAFETENSORS) {
        /* bytes after the last tensor: a data buffer longer than the tensors */
        tfs__mut_st_pin_offsets(c);
        uint64_t top = 0;
        for (size_t i = 0; i < c->n_se; i++)
            if (c->se[i].end > top) top = c->se[i].end;
        c->sm.data_len_set = 1;
        c->sm.data_len = top + 1 + tfs__mut_below(&c->rng, 16);
    }
    return 1;
}

static int after_last_b(mut_ctx *c) {
    if (c->format != TFS_FORMAT_GGUF) return 0;
    const tfs_field *f = last_data(c);
    if (!f) return 0;
    /* the file ends right after the last tensor's bytes: no final padding */
    return tfs__mut_cut(c, f->offset + f->width);
}

static int padding_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_SAFETENSORS)
        c->sm.pad_to = 64; /* make sure there is padding to cut into */
    else
        tfs__mut_gg_need_tensors(c, 1);
    return 1;
}

static int padding_b(mut_ctx *c) {
    const tfs_field *p = tfs_wbuf_find(&c->w, TFS_FIELD_PADDING, -1, 0);
    if (!p || p->width == 0) return header_b(c);
    return cut_in(c, p->offset, p->offset + p->width);
}

const mut_def tfs__mut_trunc[] = {
    {"trunc.prefix", MUT_BOTH, NULL, prefix_b,
     "cut inside the fixed prefix (GGUF 24-byte header, safetensors 8-byte size)"},
    {"trunc.header", MUT_BOTH, NULL, header_b, "cut inside the header (KV pairs and tensor infos, or the JSON text)"},
    {"trunc.data_start", MUT_BOTH, need_tensor_m, data_start_b, "cut exactly where the data section starts"},
    {"trunc.last_tensor", MUT_BOTH, need_tensor_m, last_tensor_b, "cut inside the last tensor's data"},
    {"trunc.after_last", MUT_BOTH, after_last_m, after_last_b,
     "GGUF: end right after the last tensor (no final padding); safetensors: bytes after the last tensor"},
    {"trunc.padding", MUT_BOTH, padding_m, padding_b, "cut inside the header padding"},
};
const size_t tfs__mut_trunc_n = sizeof tfs__mut_trunc / sizeof tfs__mut_trunc[0];
