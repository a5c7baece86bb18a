/* m_shape.c: shape.* - tensor dimensions: a zero, products that overflow,
 * products that wrap to 0 or to the tensor's own element count, more than 4
 * dims, an n_dims field that lies, negative dims, a partial block. */
#include "mut.h"

#include <string.h>

static int need(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) return tfs__mut_gg_need_tensors(c, 1) >= 1;
    return tfs__mut_st_need_entries(c, 1) >= 1;
}

static tfs_gg_wtensor *gg_one(mut_ctx *c) { return &c->gt[tfs__mut_below(&c->rng, c->n_gt)]; }
static tfs_st_wentry *st_one(mut_ctx *c) { return &c->se[tfs__mut_below(&c->rng, c->n_se)]; }

/* give a tensor these dims (GGUF: ne order as given; safetensors: shape) */
static int set_dims(mut_ctx *c, const uint64_t *d, uint32_t n) {
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        if (n > TFS_GG_WMAX_DIMS) n = TFS_GG_WMAX_DIMS;
        t->n_dims = n;
        memcpy(t->ne, d, n * sizeof *d);
        return 1;
    }
    tfs_st_wentry *e = st_one(c);
    uint64_t *s = tfs__mut_st_own_shape(c, e, n);
    if (!s) return 0;
    memcpy(s, d, n * sizeof *d);
    return 1;
}

static int zero_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        if (t->n_dims == 0) t->n_dims = 1;
        t->ne[tfs__mut_below(&c->rng, t->n_dims)] = 0;
        return 1;
    }
    tfs_st_wentry *e = st_one(c);
    uint64_t *s = tfs__mut_st_own_shape(c, e, e->n_dims ? e->n_dims : 1);
    if (!s) return 0;
    s[tfs__mut_below(&c->rng, e->n_dims)] = 0;
    return 1;
}

static int overflow_m(mut_ctx *c) {
    if (!need(c)) return 0;
    static const uint64_t a[] = {(uint64_t)1 << 32, (uint64_t)1 << 32, (uint64_t)1 << 32};
    static const uint64_t b[] = {0xffffffffffffffffu, 2, 1, 1}; /* G12 */
    static const uint64_t d[] = {(uint64_t)1 << 62, 4};
    switch (tfs__mut_below(&c->rng, 3)) {
    case 0: return set_dims(c, a, 3);
    case 1: return set_dims(c, b, 4);
    default: return set_dims(c, d, 2);
    }
}

/* element count x type size wraps to 0 (S8, G3) */
static int wrap0_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        t->type = 0; /* f32 */
        t->n_dims = 1;
        t->ne[0] = tfs__mut_below(&c->rng, 2) ? 0xffffffffffffffffu / 4 : (uint64_t)1 << 62;
        return 1;
    }
    static const uint64_t s[] = {(uint64_t)1 << 32, (uint64_t)1 << 32, 4};
    tfs_st_wentry *e = st_one(c);
    if (tfs__mut_below(&c->rng, 2)) {
        uint64_t *sh = tfs__mut_st_own_shape(c, e, 3);
        if (!sh) return 0;
        memcpy(sh, s, sizeof s);
        return 1;
    }
    e->dtype = TFS_ST_F64; /* 2^61 elements x 64 bits = 2^67 */
    uint64_t *sh = tfs__mut_st_own_shape(c, e, 1);
    if (!sh) return 0;
    sh[0] = (uint64_t)1 << 61;
    return 1;
}

/* inverse of an odd a modulo 2^64 (Newton) */
static uint64_t inv(uint64_t a) {
    uint64_t x = a;
    for (int i = 0; i < 6; i++) x *= 2 - a * x;
    return x;
}

/* dims [a, b] whose product overflows and wraps to the tensor's own count */
static int wrap_match_m(mut_ctx *c) {
    if (!need(c)) return 0;
    uint64_t n = 1;
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        for (uint32_t i = 0; i < t->n_dims && i < TFS_GG_WMAX_DIMS; i++) n *= t->ne[i];
        /* an odd a and b = n / a (mod 2^64): a * b wraps to n; b below 2^63
         * so ggml reads both as positive */
        for (uint64_t a = 3; a < 1000; a += 2) {
            uint64_t b = n * inv(a), p;
            if (b < ((uint64_t)1 << 63) && __builtin_mul_overflow(a, b, &p)) {
                uint32_t bs = tfs_gg_type_block_size(t->type);
                t->n_dims = 2;
                if (bs && b % bs == 0) /* ne[0] keeps a whole number of blocks */
                    t->ne[0] = b, t->ne[1] = a;
                else
                    t->ne[0] = a, t->ne[1] = b;
                if (bs != 1 && b % (bs ? bs : 1)) t->type = 0; /* f32 */
                return 1;
            }
        }
        t->n_dims = 2, t->ne[0] = (uint64_t)1 << 32, t->ne[1] = (uint64_t)1 << 32; /* n == 0 */
        return 1;
    }
    tfs_st_wentry *e = st_one(c);
    tfs__mut_st_pin_offsets(c); /* the recorded size stays: only the shape lies */
    for (uint32_t i = 0; i < e->n_dims; i++) n *= e->shape[i];
    uint64_t *s = tfs__mut_st_own_shape(c, e, 2);
    if (!s) return 0;
    static const uint64_t odd[] = {3, 5, 7, 9, 11, 13};
    for (size_t k = 0; k < 6; k++) {
        uint64_t a = odd[k], b = n * inv(a), p;
        if (__builtin_mul_overflow(a, b, &p)) {
            s[0] = a;
            s[1] = b;
            return 1;
        }
    }
    s[0] = s[1] = (uint64_t)1 << 32;
    return 1;
}

static int ndims_m(mut_ctx *c) {
    if (!need(c)) return 0;
    uint32_t n = 5 + (uint32_t)tfs__mut_below(&c->rng, 4); /* 5..8 (G1) */
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        for (uint32_t i = t->n_dims; i < n; i++) t->ne[i] = 1;
        t->n_dims = n;
        return 1;
    }
    tfs_st_wentry *e = st_one(c);
    n += (uint32_t)tfs__mut_below(&c->rng, 60); /* safetensors has no limit */
    return tfs__mut_st_own_shape(c, e, n) != NULL;
}

/* GGUF: the n_dims field differs from the dims written (G13) */
static int ndims_field_m(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 1) < 1) return 0;
    static const uint32_t v[] = {0, 1, 3, 4, 5, 1000000, 0x80000000u, 0xffffffffu};
    tfs_gg_wtensor *t = gg_one(c);
    t->n_dims_set = 1;
    t->n_dims_field = v[tfs__mut_below(&c->rng, 8)];
    if (t->n_dims_field == t->n_dims) t->n_dims_field++;
    return 1;
}

static int negative_m(mut_ctx *c) {
    if (!need(c)) return 0;
    static const uint64_t v[] = {0xffffffffffffffffu, 0x8000000000000000u, 0xfffffffffffffff0u};
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        if (t->n_dims == 0) t->n_dims = 1;
        t->ne[tfs__mut_below(&c->rng, t->n_dims)] = v[tfs__mut_below(&c->rng, 3)];
        return 1;
    }
    static const char *const toks[] = {"[-1]", "[2,-3]", "[1.5]", "[1e3]", "[\"2\"]", "[null]", "[-0]", "2", "{}"};
    st_one(c)->shape_raw = toks[tfs__mut_below(&c->rng, 9)];
    return 1;
}

/* GGUF: ne[0] not a multiple of the block size; safetensors: a sub-byte
 * dtype with a count that is not a whole number of bytes */
static int block_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        static const uint32_t blocky[] = {2, 8, 12, 14, 20, 39, 40, 41};
        tfs_gg_wtensor *t = gg_one(c);
        t->type = blocky[tfs__mut_below(&c->rng, 8)];
        uint32_t b = tfs_gg_type_block_size(t->type);
        if (t->n_dims == 0) t->n_dims = 1;
        t->ne[0] = b * (1 + tfs__mut_below(&c->rng, 2)) + 1 + tfs__mut_below(&c->rng, b - 1);
        return 1;
    }
    tfs_st_wentry *e = st_one(c);
    e->dtype = tfs__mut_below(&c->rng, 2) ? TFS_ST_F4 : TFS_ST_F6_E2M3;
    uint64_t *s = tfs__mut_st_own_shape(c, e, 1);
    if (!s) return 0;
    s[0] = 1 + 2 * tfs__mut_below(&c->rng, 4); /* odd: 4 or 6 bits x odd count */
    return 1;
}

static int scalar_m(mut_ctx *c) {
    if (!need(c)) return 0;
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        t->n_dims = 0;
        if (tfs_gg_type_block_size(t->type) != 1) t->type = 0; /* one element: a type with blocks of one */
        return 1;
    }
    tfs_st_wentry *e = st_one(c);
    e->n_dims = 0;
    if (e->dtype == TFS_ST_F4 || e->dtype == TFS_ST_F6_E2M3 || e->dtype == TFS_ST_F6_E3M2) e->dtype = TFS_ST_F32;
    for (size_t i = 0; i < c->n_se; i++) c->se[i].offsets_set = 0;
    return 1;
}

const mut_def tfs__mut_shape[] = {
    {"shape.zero", MUT_BOTH, zero_m, NULL, "one dimension 0 (G7)"},
    {"shape.overflow", MUT_BOTH, overflow_m, NULL,
     "dims whose product overflows 64 bits ([2^32]x3, [2^64-1,2,1,1] (G12), ...)"},
    {"shape.wrap0", MUT_BOTH, wrap0_m, NULL, "element count x type size wraps to 0 (S8, G3)"},
    {"shape.wrap_match", MUT_BOTH, wrap_match_m, NULL,
     "dims [a, b] whose product wraps to the tensor's own element count"},
    {"shape.ndims", MUT_BOTH, ndims_m, NULL, "GGUF: n_dims 5..8 (G1); safetensors: rank 5..64"},
    {"shape.ndims_field", MUT_GG, ndims_field_m, NULL,
     "GGUF n_dims field differs from the dims written (0, 5, 10^6, 2^32-1: G13)"},
    {"shape.negative", MUT_BOTH, negative_m, NULL,
     "GGUF: a negative ne; safetensors: shape -1, 1.5, 1e3, \"2\", null, not an array"},
    {"shape.block", MUT_BOTH, block_m, NULL,
     "GGUF: ne[0] not a multiple of the block size; safetensors: 4/6-bit dtype, odd count"},
    {"shape.scalar", MUT_BOTH, scalar_m, NULL, "a tensor with no dims (a scalar; valid)"},
};
const size_t tfs__mut_shape_n = sizeof tfs__mut_shape / sizeof tfs__mut_shape[0];
