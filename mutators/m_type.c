/* m_type.c: type.* - tensor types swapped: another valid type with sizes
 * recomputed, or with the old sizes kept (stale); removed ids and names;
 * ids and tokens out of range. */
#include "mut.h"

#include <string.h>

static const uint32_t gg_removed[] = {4, 5, 31, 32, 33, 36, 37, 38};

static uint32_t gg_valid_type(mut_rng *r) {
    for (;;) {
        uint32_t t = (uint32_t)tfs__mut_below(r, TFS_GG_TYPE_COUNT);
        if (tfs_gg_type_block_size(t)) return t;
    }
}

static int need(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) return tfs__mut_gg_need_tensors(c, 1) >= 1;
    return tfs__mut_st_need_entries(c, 1) >= 1;
}

static int valid_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = &c->gt[tfs__mut_below(&c->rng, c->n_gt)];
        t->type = gg_valid_type(&c->rng);
        uint32_t b = tfs_gg_type_block_size(t->type);
        if (t->n_dims == 0)
            t->n_dims = 1, t->ne[0] = b;
        else if (t->ne[0] % b)
            t->ne[0] = (t->ne[0] / b + 1) * b; /* keep it valid: a whole number of blocks */
        return 1;
    }
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    e->dtype = (uint32_t)tfs__mut_below(&c->rng, TFS_ST_DTYPE_COUNT);
    {
        /* sub-byte dtypes need a whole number of bytes: round the last dim */
        uint64_t *s = tfs__mut_st_own_shape(c, e, e->n_dims ? e->n_dims : 1);
        if (!s) return 0;
        unsigned bits = tfs_st_dtype_bits(e->dtype);
        if (bits % 8) {
            uint64_t n = 1;
            for (uint32_t i = 0; i < e->n_dims; i++) n *= s[i];
            if ((n * bits) % 8) s[e->n_dims - 1] *= 4; /* 4 elements of 4 or 6 bits: whole bytes */
        }
    }
    for (size_t i = 0; i < c->n_se; i++) c->se[i].offsets_set = 0; /* recomputed: still valid */
    return 1;
}

static int stale_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_SAFETENSORS) {
        tfs__mut_st_pin_offsets(c);
        tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
        uint32_t d = (uint32_t)tfs__mut_below(&c->rng, TFS_ST_DTYPE_COUNT);
        if (tfs_st_dtype_bits(d) == tfs_st_dtype_bits(e->dtype))
            d = tfs_st_dtype_bits(e->dtype) == 64 ? TFS_ST_I8 : TFS_ST_F64;
        e->dtype = d;
    }
    return 1;
}

/* GGUF: the type field rewritten after the layout was computed, to a type
 * whose padded size differs for that tensor (or that does not fit its ne[0]),
 * on a tensor other than the last when there are several */
static int stale_b(mut_ctx *c) {
    if (c->format != TFS_FORMAT_GGUF || c->n_gt == 0) return 0;
    size_t r = c->n_gt > 1 ? (size_t)tfs__mut_below(&c->rng, c->n_gt - 1) : 0;
    const tfs_field *f = tfs_wbuf_find(&c->w, TFS_FIELD_TYPE, (int32_t)r, 0);
    const tfs_gg_wtensor *t = &c->gt[r];
    uint64_t a = tfs__mut_gg_align(c), old = 0, nb;
    if (!f || t->n_dims > TFS_GG_WMAX_DIMS) return 0;
    if (tfs_gg_tensor_nbytes(t->type, t->n_dims, t->ne, &old) == 0) old = (old + a - 1) / a;
    uint32_t ty = 0;
    for (int tries = 0; tries < 64; tries++) {
        ty = gg_valid_type(&c->rng);
        if (ty != t->type && (tfs_gg_tensor_nbytes(ty, t->n_dims, t->ne, &nb) != 0 || (nb + a - 1) / a != old)) break;
    }
    return tfs__mut_set_uint(c, f, ty) == 0;
}

static int removed_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        c->gt[tfs__mut_below(&c->rng, c->n_gt)].type = gg_removed[tfs__mut_below(&c->rng, 8)];
        return 1;
    }
    static const char *const names[] = {"\"Q4_0\"", "\"F8\"",   "\"float32\"", "\"f32\"", "\"\"",
                                        "\"F32 \"", "\"C128\"", "\"U128\"",    "\"BF8\"", "\"I4\""};
    c->se[tfs__mut_below(&c->rng, c->n_se)].dtype_raw = names[tfs__mut_below(&c->rng, 10)];
    return 1;
}

static int range_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        static const uint32_t v[] = {TFS_GG_TYPE_COUNT, TFS_GG_TYPE_COUNT + 1, 64, 255, 0x7fffffffu, 0xffffffffu};
        c->gt[tfs__mut_below(&c->rng, c->n_gt)].type = v[tfs__mut_below(&c->rng, 6)];
        return 1;
    }
    static const char *const toks[] = {
        "5", "null", "true", "[\"F32\"]", "{}", "{\"F32\":1}", "{\"F32\":null,\"I8\":null}", "-1"};
    c->se[tfs__mut_below(&c->rng, c->n_se)].dtype_raw = toks[tfs__mut_below(&c->rng, 8)];
    return 1;
}

const mut_def tfs__mut_type[] = {
    {"type.valid", MUT_BOTH, valid_m, NULL,
     "a tensor gets another valid type; sizes and offsets recomputed (stays valid)"},
    {"type.stale", MUT_BOTH, stale_m, stale_b,
     "a tensor gets another valid type of another size; offsets not recomputed"},
    {"type.removed", MUT_BOTH, removed_m, NULL,
     "GGUF: a removed ggml type id (4, 5, 31..33, 36..38); safetensors: an unknown dtype name"},
    {"type.out_of_range", MUT_BOTH, range_m, NULL,
     "GGUF: type id >= 43 .. 2^32-1; safetensors: dtype not a string (5, null, [..], {..})"},
};
const size_t tfs__mut_type_n = sizeof tfs__mut_type / sizeof tfs__mut_type[0];
