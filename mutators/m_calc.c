/* m_calc.c: calc.* - values computed from the header being mutated, so
 * that the quantity a reader checks lands exactly on (or one past) an
 * arithmetic boundary: 2^32, 2^63 or 2^64.  Unlike the fixed value lists of
 * shape.* / count.* / bug.* (which mirror known bugs), each of these solves
 * for the tensor's own type, block size, alignment and the sizes of the
 * records around it:
 *   calc.elements   the element count (product of the dims)
 *   calc.nbytes     the byte size (count / block size x type size; dtype bits)
 *   calc.padded     the byte size rounded up to the alignment (GGUF)
 *   calc.sum        the running sum of the padded sizes at the last tensor
 *   calc.count_elem an array's count x its element size, or n_kv / n_tensors
 *                   x a record size a reader may allocate per record
 *   calc.end_wrap   the largest legal tensor replicated until an end offset
 *                   wraps past 2^64
 *   calc.surrogate  a tensor name with a high surrogate followed by each
 *                   kind of escape (safetensors)
 *   calc.len_left   a length or count at a boundary of the bytes left after
 *                   its field (-1, 0, +1; GGUF strings and arrays, the
 *                   safetensors header size)
 * "One past" is the next representable value past the boundary: +1 element
 * or +1 block (a size not divisible by the boundary lands on the first
 * value past it, and the one before).  Dims stay below 2^63 (ggml reads
 * them as int64_t) by splitting a count across dims. */
#include "mut.h"

#include <string.h>

/* the boundaries: 2^32, 2^63, 2^64 (2^64 itself is represented by 0 with
 * `wrap` set: values are computed as T - x modulo 2^64) */
typedef struct target {
    uint64_t lo; /* T mod 2^64 */
    int is_2p64; /* T == 2^64 */
} target;

static target pick_target(mut_rng *r) {
    target t = {0, 0};
    switch (tfs__mut_below(r, 4)) {
    case 0: t.lo = (uint64_t)1 << 32; break;
    case 1: t.lo = (uint64_t)1 << 63; break;
    default: t.is_2p64 = 1; break; /* 2^64 twice as often: where u64 sizes wrap */
    }
    return t;
}

/* smallest k with k * u >= T (u >= 1) */
static uint64_t ceil_div(target t, uint64_t u) {
    if (t.is_2p64) /* ceil(2^64 / u) = floor((2^64 - 1) / u) + 1 for u >= 2 */
        return u == 1 ? UINT64_MAX : UINT64_MAX / u + 1;
    return t.lo / u + (t.lo % u != 0);
}

/* k, k + 1 (one past) or k - 1 (the last one under) */
static uint64_t around(mut_rng *r, uint64_t k) {
    switch (tfs__mut_below(r, 4)) {
    case 0: return k + 1;
    case 1: return k ? k - 1 : 0;
    default: return k;
    }
}

/* spread a count k over dims below 2^63: [a, k / a] when k is large (a = a
 * small factor of k, or the count rounded up to one), else [k].  Returns
 * n_dims written into d (2 slots at least). */
static uint32_t split(uint64_t k, uint64_t *d) {
    if (k < ((uint64_t)1 << 62)) {
        d[0] = k ? k : 1;
        return 1;
    }
    static const uint64_t f[] = {2, 3, 5, 7, 11, 13, 17, 641, 274177, 6700417};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (k % f[i] == 0) {
            d[0] = k / f[i];
            d[1] = f[i];
            if (d[0] < ((uint64_t)1 << 63)) return 2;
        }
    d[0] = k / 4 + 1; /* no small factor: the first multiple of 4 past k */
    d[1] = 4;
    return 2;
}

/* ------------------------------------------------------------- GGUF */

static tfs_gg_wtensor *gg_one(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 1) < 1) return NULL;
    return &c->gt[tfs__mut_below(&c->rng, c->n_gt)];
}

/* a valid type for t: its own when it has a size, else f32 */
static void gg_type_ok(tfs_gg_wtensor *t, uint32_t *bs, uint32_t *ts) {
    *bs = tfs_gg_type_block_size(t->type);
    *ts = tfs_gg_type_size(t->type);
    if (*bs == 0 || *ts == 0) {
        t->type = 0;
        *bs = 1;
        *ts = 4;
    }
}

/* rows of one block each: ne = [bs, k] (or [bs, a, k/a]): k blocks */
static void gg_blocks(tfs_gg_wtensor *t, uint32_t bs, uint64_t k) {
    uint64_t d[2];
    uint32_t n = split(k, d);
    t->ne[0] = bs;
    t->ne[1] = d[0];
    t->ne[2] = n > 1 ? d[1] : 1;
    t->n_dims = n > 1 ? 3 : 2;
    if (bs == 1 && n == 1) {
        t->ne[0] = d[0];
        t->n_dims = 1;
    }
}

/* T - 1, T, T + 1 as products of two factors below 2^63, for T = 2^32,
 * 2^63, 2^64 */
static const uint64_t pairs[3][3][2] = {
    {{65535, 65537}, {65536, 65536}, {641, 6700417}},
    {{7, 1317624576693539401u}, {(uint64_t)1 << 31, (uint64_t)1 << 32}, {3, 3074457345618258603u}},
    {{0xffffffffu, 0x100000001u}, {(uint64_t)1 << 32, (uint64_t)1 << 32}, {274177, 67280421310721u}},
};

/* dims whose product is T, T - 1 or T + 1 */
static int elements_m(mut_ctx *c) {
    size_t b = tfs__mut_below(&c->rng, 4), v = tfs__mut_below(&c->rng, 3);
    if (b == 3) b = 2; /* 2^64 twice as often */
    const uint64_t *p = pairs[b][v];
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        if (!t) return 0;
        if (tfs_gg_type_block_size(t->type) != 1) /* the count is not whole blocks */
            t->type = 0;
        t->n_dims = 2;
        t->ne[0] = p[1];
        t->ne[1] = p[0];
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    uint64_t *sh = tfs__mut_st_own_shape(c, e, 2);
    if (!sh) return 0;
    sh[0] = p[0];
    sh[1] = p[1];
    return 1;
}

static int nbytes_m(mut_ctx *c) {
    target tg = pick_target(&c->rng);
    if (c->format == TFS_FORMAT_GGUF) {
        tfs_gg_wtensor *t = gg_one(c);
        if (!t) return 0;
        uint32_t bs, ts;
        gg_type_ok(t, &bs, &ts);
        gg_blocks(t, bs, around(&c->rng, ceil_div(tg, ts)));
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    unsigned bits = tfs_st_dtype_bits(e->dtype);
    if (bits == 0 || bits % 8) {
        e->dtype = TFS_ST_F32;
        bits = 32;
    }
    uint64_t k = around(&c->rng, ceil_div(tg, bits / 8));
    uint64_t d[2];
    uint32_t n = split(k, d);
    uint64_t *s = tfs__mut_st_own_shape(c, e, n);
    if (!s) return 0;
    memcpy(s, d, n * sizeof *d);
    return 1;
}

/* GGUF: the padded size (byte size rounded up to the alignment) lands on T:
 * a byte size in (T - align, T], so rounding up reaches T exactly */
static int padded_m(mut_ctx *c) {
    tfs_gg_wtensor *t = gg_one(c);
    if (!t) return 0;
    uint64_t a = tfs__mut_gg_align(c);
    if (a == 0) a = 32;
    uint32_t bs, ts;
    gg_type_ok(t, &bs, &ts);
    target tg = pick_target(&c->rng);
    /* the fewest blocks whose bytes pass T - a */
    target low = tg;
    low.lo = tg.lo - a + 1; /* T - a + 1 (mod 2^64) */
    low.is_2p64 = 0;
    uint64_t k = low.lo / ts + (low.lo % ts != 0);
    if (tfs__mut_below(&c->rng, 3) == 0) k = ceil_div(tg, ts) + 1; /* one block past T: rounds up to T + a */
    gg_blocks(t, bs, k);
    return 1;
}

/* padded byte size of tensor t at alignment a (modulo 2^64) */
static uint64_t gg_padded(const tfs_gg_wtensor *t, uint64_t a) {
    uint32_t bs = tfs_gg_type_block_size(t->type), ts = tfs_gg_type_size(t->type);
    if (!bs || !ts) return 0;
    uint64_t n = 1;
    for (uint32_t i = 0; i < t->n_dims && i < TFS_GG_WMAX_DIMS; i++) n *= t->ne[i];
    uint64_t b = n / bs * ts;
    return (b + a - 1) / a * a;
}

/* GGUF: the running sum of padded sizes reaches T at the last tensor's end:
 * the last tensor is solved from the sizes before it */
static int sum_m(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 2) < 2) return 0;
    uint64_t a = tfs__mut_gg_align(c);
    if (a == 0) a = 32;
    /* a large first tensor, so the sum is a few tensors (one in two) */
    if (tfs__mut_below(&c->rng, 2)) {
        tfs_gg_wtensor *t0 = &c->gt[0];
        t0->type = 0;
        t0->n_dims = 1;
        t0->ne[0] = (uint64_t)1 << 61; /* 2^63 bytes */
    }
    uint64_t sum = 0;
    for (size_t i = 0; i + 1 < c->n_gt; i++) sum += gg_padded(&c->gt[i], a);
    tfs_gg_wtensor *t = &c->gt[c->n_gt - 1];
    uint32_t bs, ts;
    gg_type_ok(t, &bs, &ts);
    target tg = pick_target(&c->rng);
    uint64_t left = tg.lo - sum; /* T - sum (mod 2^64) */
    if (left == 0) left = ts;    /* already on T: one block past */
    uint64_t k = left / ts + (left % ts != 0);
    gg_blocks(t, bs, around(&c->rng, k));
    return 1;
}

/* record sizes a reader may multiply a count by: on-disk minimums and
 * in-memory structs of known readers (ggml's tensor info 344 and KV 88 on
 * 64-bit builds) */
static const uint64_t rec_sizes[] = {1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64, 88, 96, 128, 344, 352};

static int count_elem_m(mut_ctx *c) {
    int k = tfs__mut_gg_array_kv(c);
    return k >= 0;
}

static int count_elem_b(mut_ctx *c) {
    target tg = pick_target(&c->rng);
    const tfs_field *f;
    uint64_t size;
    if (tfs__mut_below(&c->rng, 2)) {
        f = tfs__mut_field(c, TFS_FIELD_COUNT);
        if (!f || f->record < 0 || (size_t)f->record >= c->n_kv) return 0;
        size = tfs_gg_vtype_size(c->kv[f->record].value.elem_type);
        if (size == 0) /* strings: 8-byte lengths at least */
            size = 8;
    } else {
        f = tfs__mut_field(c, tfs__mut_below(&c->rng, 2) ? TFS_FIELD_N_KV : TFS_FIELD_N_TENSORS);
        size = rec_sizes[tfs__mut_below(&c->rng, sizeof rec_sizes / sizeof rec_sizes[0])];
    }
    if (!f) return 0;
    return tfs__mut_set_uint(c, f, around(&c->rng, ceil_div(tg, size))) == 0;
}

/* the largest legal tensor, replicated until an end offset wraps */
static int end_wrap_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 3) < 3) return 0;
        uint64_t a = tfs__mut_gg_align(c);
        if (a == 0) a = 32;
        /* f32 with the largest ne0 whose byte size ggml accepts (< 2^63,
         * aligned): (2^63 - a) / 4; three of them end past 2^64 */
        uint64_t ne0 = (((uint64_t)1 << 63) - a) / 4;
        uint64_t pad = (ne0 * 4 + a - 1) / a * a;
        size_t n = 3 + (size_t)tfs__mut_below(&c->rng, 2); /* 3 or 4 copies */
        if (n > c->n_gt) n = c->n_gt;
        /* the copies start where the writer puts the first of them */
        uint64_t *offs = tfs__mut_gg_offsets(c);
        if (!offs) return 0;
        uint64_t off = offs[c->n_gt - n];
        for (size_t i = 0; i < n; i++) {
            tfs_gg_wtensor *t = &c->gt[c->n_gt - n + i];
            t->type = 0;
            t->n_dims = 1;
            t->ne[0] = ne0;
            t->offset_set = 1;
            t->offset = off; /* the running offset, wrapped as a u64 reader computes it */
            off += pad;
        }
        return 1;
    }
    /* U8 entries of S bytes (2^63 - 1 or 2^62 - 1) chained: [0, S], [S, 2S],
     * ... until the end of one passes 2^64 and is written wrapped */
    uint64_t s = ((uint64_t)1 << 63) - 1 - tfs__mut_below(&c->rng, 2) * ((uint64_t)1 << 62), b = 0;
    size_t k = (size_t)(UINT64_MAX / s) + 1;
    if (tfs__mut_st_need_entries(c, k) < k) return 0;
    for (size_t i = 0; i < k; i++) {
        tfs_st_wentry *e = &c->se[i];
        uint64_t *sh = tfs__mut_st_own_shape(c, e, 1);
        if (!sh) return 0;
        e->dtype = TFS_ST_U8;
        sh[0] = s;
        e->offsets_set = 1;
        e->begin = b;
        e->end = b + s; /* wraps for the last */
        b += s;
    }
    return 1;
}

/* safetensors: a high surrogate followed by each kind of escape */
static int surrogate_m(mut_ctx *c) {
    static const char *const next[] = {
        "\\\"",    "\\\\",    "\\/",     "\\b",     "\\f",     "\\n", "\\r",   "\\t", "\\u0041", "\\u0000",  "\\uDC00",
        "\\uDFFF", "\\uD800", "\\uDBFF", "\\uE000", "\\uFFFF", "\\x", "\\u12", "\\",  "A",       "\xc3\xa9", "",
    };
    size_t nn = sizeof next / sizeof next[0];
    size_t k = 1 + (size_t)tfs__mut_below(&c->rng, 4); /* names changed */
    if (tfs__mut_st_need_entries(c, k) < k) return 0;
    for (size_t i = 0; i < k && i < c->n_se; i++) {
        const char *hi = tfs__mut_below(&c->rng, 2) ? "\\uD800" : "\\uDBFF";
        size_t which = (size_t)tfs__mut_below(&c->rng, nn);
        c->se[i].name_raw = tfs__mut_printf(c, "\"t%zu%s%s\"", i, hi, next[which]);
        if (!c->se[i].name_raw) return 0;
    }
    return 1;
}

/* a length or count at a boundary of the bytes left after its field */
static int len_left_b(mut_ctx *c) {
    uint64_t d = tfs__mut_below(&c->rng, 3); /* left - 1, left, left + 1 */
    if (c->format == TFS_FORMAT_SAFETENSORS) {
        const tfs_field *f = tfs__mut_field(c, TFS_FIELD_HEADER_SIZE);
        if (!f) return 0;
        uint64_t left = c->w.size > 8 ? c->w.size - 8 : 0;
        return tfs__mut_set_uint(c, f, left + d - 1) == 0;
    }
    static const uint32_t kinds[] = {TFS_FIELD_KEY_LEN, TFS_FIELD_STR_LEN, TFS_FIELD_NAME_LEN, TFS_FIELD_COUNT};
    const tfs_field *f = tfs__mut_field(c, kinds[tfs__mut_below(&c->rng, 4)]);
    if (!f) f = tfs__mut_field(c, TFS_FIELD_KEY_LEN);
    if (!f) return 0;
    uint64_t end = f->offset + f->width;
    uint64_t left = c->w.size > end ? c->w.size - end : 0;
    uint64_t unit = 1;
    if (f->kind == TFS_FIELD_COUNT && f->record >= 0 && (size_t)f->record < c->n_kv) {
        unit = tfs_gg_vtype_size(c->kv[f->record].value.elem_type);
        if (unit == 0) unit = 8;
    }
    /* elements that fit the bytes left, then -1 / +1 */
    return tfs__mut_set_uint(c, f, left / unit + d - 1) == 0;
}

static int any_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) return tfs__mut_gg_need_kv(c, 1) >= 1;
    return tfs__mut_st_need_entries(c, 1) >= 1;
}

const mut_def tfs__mut_calc[] = {
    {"calc.elements", MUT_BOTH, elements_m, NULL,
     "dims whose product is 2^32, 2^63 or 2^64, or one off (factor pairs; safetensors: one dim)"},
    {"calc.nbytes", MUT_BOTH, nbytes_m, NULL,
     "byte size solved for the tensor's own type: count / block x type size at 2^32, 2^63, 2^64 (or one block off)"},
    {"calc.padded", MUT_GG, padded_m, NULL,
     "GGUF: byte size in (T - alignment, T], so the padded size is exactly T = 2^32, 2^63, 2^64"},
    {"calc.sum", MUT_GG, sum_m, NULL,
     "GGUF: the last tensor solved so the running sum of padded sizes lands on 2^32, 2^63, 2^64 (or one off)"},
    {"calc.count_elem", MUT_GG, count_elem_m, count_elem_b,
     "GGUF: array count x element size, or n_kv / n_tensors x a record size, at 2^32, 2^63, 2^64 (or one off)"},
    {"calc.end_wrap", MUT_BOTH, end_wrap_m, NULL,
     "the largest legal tensor replicated (offsets chained) until an end offset wraps past 2^64"},
    {"calc.surrogate", MUT_ST, surrogate_m, NULL,
     "safetensors: names with a high surrogate escape followed by each kind of escape"},
    {"calc.len_left", MUT_BOTH, any_m, len_left_b,
     "a length or count at the bytes left after its field -1, +0, +1 (GGUF strings, arrays; safetensors header size)"},
};
const size_t tfs__mut_calc_n = sizeof tfs__mut_calc / sizeof tfs__mut_calc[0];
