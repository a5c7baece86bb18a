/* lint_mlx.c: MLX quantized weights in safetensors (LT2xx).
 *
 * mlx.core.quantize(w, group_size, bits, mode) turns a weight [..., out, in]
 * into (MLX docs, "Quantization modes"):
 *   NAME.weight  U32 [..., out, in * bits / 32]  (the packed values)
 *   NAME.scales      [..., out, in / group_size]
 *   NAME.biases      [..., out, in / group_size]  (mode "affine" only)
 * affine: bits 2, 3, 4, 5, 6, 8; group size 32, 64, 128; scales and biases
 * in the input's float dtype.  mxfp4 (bits 4, group 32), mxfp8 (8, 32),
 * nvfp4 (4, 16): no biases, scales stored as uint8 (E8M0 / E4M3 bits).
 * mlx-lm writes the parameters to config.json ("quantization", also
 * "quantization_config"), with per-module overrides keyed by the module
 * path (NAME), or false for a module left unquantized. */
#include "lint_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum qmode { Q_AFFINE, Q_MXFP4, Q_NVFP4, Q_MXFP8, Q_UNKNOWN } qmode;
static const char *const mode_names[] = {"affine", "mxfp4", "nvfp4", "mxfp8"};

typedef struct qparams {
    int given; /* from a config (else inferred per weight) */
    uint64_t bits, group;
    qmode mode;
    char mode_text[32];
} qparams;

typedef struct mlx_ctx {
    const tfs_header *const *hs;
    size_t n;
    const tfs_header *meta; /* the first header present: its __metadata__ speaks for the set */
    tn_index names;
    const lj_node *q; /* the quantization object, or NULL */
    qparams base;     /* its top-level parameters */
    tfs_lint_report *r;
    tfs_status st;
    int inferred; /* a weight's parameters were inferred (LT210, once) */
    /* what was inferred for the first such weight, and whether others differ (LT210's text) */
    qparams inf;
    const char *inf_name;
    size_t inf_len, n_inferred;
    int inf_mixed;
} mlx_ctx;

static int ends_with(const tfs_str *s, const char *suffix) {
    size_t k = strlen(suffix);
    return s->len >= k && memcmp(s->ptr + s->len - k, suffix, k) == 0;
}

static const tfs_tensor *find(mlx_ctx *c, const char *base, size_t blen, const char *suffix, int *part,
                              int64_t *index) {
    size_t k = strlen(suffix);
    char *name = malloc(blen + k + 1u);
    if (!name) {
        c->st = TFS_ENOMEM;
        return NULL;
    }
    memcpy(name, base, blen);
    memcpy(name + blen, suffix, k + 1u);
    const tn_entry *e = tfs__tn_find(&c->names, name, blen + k, NULL);
    free(name);
    if (!e) return NULL;
    *part = (int)e->part;
    *index = (int64_t)e->index;
    return &c->hs[e->part]->tensors[e->index];
}

static qmode mode_of(const char *s, size_t len) {
    for (int m = 0; m < Q_UNKNOWN; m++)
        if (strlen(mode_names[m]) == len && memcmp(mode_names[m], s, len) == 0) return (qmode)m;
    return Q_UNKNOWN;
}

/* Read group_size / bits / mode of an object into p (keeping what it lacks). */
static void read_params(const lj_node *o, qparams *p) {
    uint64_t v;
    if (tfs__lj_u64(tfs__lj_get(o, "group_size"), &v)) p->group = v, p->given = 1;
    if (tfs__lj_u64(tfs__lj_get(o, "bits"), &v)) p->bits = v, p->given = 1;
    const lj_node *m = tfs__lj_get(o, "mode");
    if (m && m->type == LJ_STR) {
        p->mode = mode_of(m->s, m->len);
        snprintf(p->mode_text, sizeof p->mode_text, "%.*s", (int)(m->len < 24 ? m->len : 24), m->s);
    }
}

/* Parameters that MLX accepts: LT201 text in why, or NULL. */
static const char *params_problem(const qparams *p) {
    static const char *const bad_mode = "mode is not affine, mxfp4, nvfp4 or mxfp8";
    switch (p->mode) {
    case Q_AFFINE:
        if (!(p->bits == 2 || p->bits == 3 || p->bits == 4 || p->bits == 5 || p->bits == 6 || p->bits == 8))
            return "bits is not 2, 3, 4, 5, 6 or 8";
        if (!(p->group == 32 || p->group == 64 || p->group == 128)) return "group size is not 32, 64 or 128";
        return NULL;
    case Q_MXFP4: return p->bits == 4 && p->group == 32 ? NULL : "mxfp4 needs bits 4 and group size 32";
    case Q_NVFP4: return p->bits == 4 && p->group == 16 ? NULL : "nvfp4 needs bits 4 and group size 16";
    case Q_MXFP8: return p->bits == 8 && p->group == 32 ? NULL : "mxfp8 needs bits 8 and group size 32";
    default: return bad_mode;
    }
}

/* The expected .scales shape of a packed weight: 0 and out[] filled, or -1
 * with the LT209 reason. */
static int expected_shape(const tfs_tensor *w, uint64_t bits, uint64_t group, uint64_t *out, uint64_t *in) {
    uint64_t lanes = w->shape[w->n_dims - 1], bitsum;
    if (bits == 0 || group == 0 || __builtin_mul_overflow(lanes, (uint64_t)32, &bitsum) || bitsum % bits != 0)
        return -1;
    *in = bitsum / bits;
    if (*in % group != 0) return -2;
    for (uint32_t i = 0; i + 1 < w->n_dims; i++) out[i] = w->shape[i];
    out[w->n_dims - 1] = *in / group;
    return 0;
}

static int same_shape(const tfs_tensor *t, const uint64_t *shape, uint32_t n) {
    if (t->n_dims != n) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (t->shape[i] != shape[i]) return 0;
    return 1;
}

static int float_dtype(uint32_t d) { return d == TFS_ST_F16 || d == TFS_ST_BF16 || d == TFS_ST_F32; }

static void add(mlx_ctx *c, tfs_lint_rule rule, int part, int64_t tensor, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void add(mlx_ctx *c, tfs_lint_rule rule, int part, int64_t tensor, const char *fmt, ...) {
    char text[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    c->st |= tfs__lint_add(c->r, rule, part, tensor, -1, "%s", text);
}

/* One packed weight NAME.weight (U32) at (wp, wi) with its scales. */
static void check_weight(mlx_ctx *c, const tfs_tensor *w, int wp, int64_t wi, const char *base, size_t blen) {
    int sp = 0, bp = 0;
    int64_t si = -1, bi = -1;
    const tfs_tensor *s = find(c, base, blen, ".scales", &sp, &si);
    const tfs_tensor *b = find(c, base, blen, ".biases", &bp, &bi);
    qparams p = c->base;
    int excluded = 0;
    if (c->q) { /* per-module override: an object, or false */
        char *mod = malloc(blen + 1u);
        if (!mod) {
            c->st = TFS_ENOMEM;
            return;
        }
        memcpy(mod, base, blen);
        mod[blen] = '\0';
        const lj_node *o = tfs__lj_get(c->q, mod);
        free(mod);
        if (o && o->type == LJ_FALSE)
            excluded = 1;
        else if (o && o->type == LJ_OBJ)
            read_params(o, &p), p.given = 1;
    }
    if (!s) {
        if (p.given && !excluded)
            add(c, TFS_LT202, wp, wi, "%.*s.weight: U32 packed weight without %.*s.scales", (int)blen, base, (int)blen,
                base);
        return;
    }
    char got[160], want[160];
    tfs__lint_shape(got, sizeof got, s->shape, s->n_dims);
    if (w->n_dims < 2 || w->n_dims > 16) {
        add(c, TFS_LT209, wp, wi, "%.*s.weight: %u dimensions; a quantized weight has at least 2", (int)blen, base,
            w->n_dims);
        return;
    }
    uint64_t exp[16], in = 0;
    char wshape[160];
    tfs__lint_shape(wshape, sizeof wshape, w->shape, w->n_dims);
    if (!p.given || excluded) {
        /* infer: the first (mode, bits, group) of MLX's table that fits */
        static const struct {
            qmode m;
            uint64_t bits, group;
        } cands[] = {
            {Q_AFFINE, 4, 64},  {Q_AFFINE, 4, 32},  {Q_AFFINE, 4, 128}, {Q_AFFINE, 8, 64},  {Q_AFFINE, 8, 32},
            {Q_AFFINE, 8, 128}, {Q_AFFINE, 2, 64},  {Q_AFFINE, 2, 32},  {Q_AFFINE, 2, 128}, {Q_AFFINE, 3, 64},
            {Q_AFFINE, 3, 32},  {Q_AFFINE, 3, 128}, {Q_AFFINE, 5, 64},  {Q_AFFINE, 5, 32},  {Q_AFFINE, 5, 128},
            {Q_AFFINE, 6, 64},  {Q_AFFINE, 6, 32},  {Q_AFFINE, 6, 128}, {Q_MXFP4, 4, 32},   {Q_NVFP4, 4, 16},
            {Q_MXFP8, 8, 32},
        };
        int found = 0;
        for (size_t k = 0; k < sizeof cands / sizeof cands[0] && !found; k++) {
            if ((cands[k].m == Q_AFFINE) != (b != NULL)) continue; /* biases only with affine */
            if (expected_shape(w, cands[k].bits, cands[k].group, exp, &in) == 0 && same_shape(s, exp, w->n_dims)) {
                p.mode = cands[k].m;
                p.bits = cands[k].bits;
                p.group = cands[k].group;
                found = 1;
            }
        }
        if (!found) {
            add(c, TFS_LT205, sp, si,
                "%.*s.scales: shape %s fits no bits (2-8) and group size (16-128) of MLX for weight %s (U32); "
                "give the quantization (config.json, --config)",
                (int)blen, base, got, wshape);
            return;
        }
        if (!c->inferred) {
            c->inf = p;
            c->inf_name = base;
            c->inf_len = blen;
        } else if (p.bits != c->inf.bits || p.group != c->inf.group || p.mode != c->inf.mode) {
            c->inf_mixed = 1;
        }
        c->n_inferred++;
        c->inferred = 1;
    } else {
        const char *why = params_problem(&p);
        if (why) {
            add(c, TFS_LT201, wp, wi, "%.*s: bits %llu, group size %llu, mode %s: %s", (int)blen, base,
                (unsigned long long)p.bits, (unsigned long long)p.group,
                p.mode == Q_UNKNOWN ? p.mode_text : mode_names[p.mode], why);
            return;
        }
        int e = expected_shape(w, p.bits, p.group, exp, &in);
        if (e == -1) {
            add(c, TFS_LT209, wp, wi,
                "%.*s.weight: shape %s: a row of %llu u32 lanes does not hold a whole number of %llu-bit values",
                (int)blen, base, wshape, (unsigned long long)w->shape[w->n_dims - 1], (unsigned long long)p.bits);
            return;
        }
        if (e == -2) {
            add(c, TFS_LT209, wp, wi,
                "%.*s.weight: shape %s: group size %llu does not divide the unpacked row of %llu values (%llu bits)",
                (int)blen, base, wshape, (unsigned long long)p.group, (unsigned long long)in,
                (unsigned long long)p.bits);
            return;
        }
        tfs__lint_shape(want, sizeof want, exp, w->n_dims);
        if (!same_shape(s, exp, w->n_dims))
            add(c, TFS_LT205, sp, si,
                "%.*s.scales: shape %s, expected %s (weight %s U32 = rows of %llu values at %llu bits, group size "
                "%llu)",
                (int)blen, base, got, want, wshape, (unsigned long long)in, (unsigned long long)p.bits,
                (unsigned long long)p.group);
    }
    tfs__lint_shape(want, sizeof want, exp, w->n_dims);
    /* the values the packed weight holds: a whole number per row (LT209 passed) */
    if (p.bits >= 1 && p.bits <= 32) {
        uint64_t v = w->n_elements / p.bits * 32u + w->n_elements % p.bits * 32u / p.bits;
        c->r->mlx_packed += w->n_elements;
        c->r->mlx_values += v;
    }
    const char *sd = tfs_st_dtype_name(s->type);
    if (p.mode == Q_AFFINE ? !float_dtype(s->type) : s->type != TFS_ST_U8)
        add(c, TFS_LT207, sp, si, "%.*s.scales: dtype %s, expected %s for mode %s", (int)blen, base, sd ? sd : "?",
            p.mode == Q_AFFINE ? "F16, BF16 or F32" : "U8", mode_names[p.mode]);
    if (p.mode == Q_AFFINE) {
        if (!b) {
            add(c, TFS_LT203, wp, wi, "%.*s.weight: affine quantized (bits %llu) without %.*s.biases", (int)blen, base,
                (unsigned long long)p.bits, (int)blen, base);
            return;
        }
        if (!same_shape(b, exp, w->n_dims)) {
            char bs[160];
            tfs__lint_shape(bs, sizeof bs, b->shape, b->n_dims);
            add(c, TFS_LT206, bp, bi, "%.*s.biases: shape %s, expected %s (as .scales)", (int)blen, base, bs, want);
        }
        if (b->type != s->type) {
            const char *bd = tfs_st_dtype_name(b->type);
            add(c, TFS_LT207, bp, bi, "%.*s.biases: dtype %s, .scales has %s", (int)blen, base, bd ? bd : "?",
                sd ? sd : "?");
        }
    } else if (b) {
        add(c, TFS_LT204, bp, bi, "%.*s.biases: mode %s has no biases (MLX would not load it)", (int)blen, base,
            mode_names[p.mode]);
    }
}

/* The quantization object: config.json's "quantization" (or
 * "quantization_config"), else __metadata__. */
static lj_node *config_of(mlx_ctx *c, const char *config, size_t len, const lj_node **q) {
    *q = NULL;
    lj_node *root = NULL;
    const char *why = NULL;
    int oom = 0;
    if (config) {
        root = tfs__lj_parse(config, len, &why, &oom);
        if (!root) {
            if (oom)
                c->st = TFS_ENOMEM;
            else
                add(c, TFS_LT201, 0, -1, "config.json is not JSON (%s)", why);
            return NULL;
        }
        *q = tfs__lj_get(root, "quantization");
        if (!*q) *q = tfs__lj_get(root, "quantization_config");
        if (*q && (*q)->type != LJ_OBJ) *q = NULL;
        if (*q) return root;
        tfs__lj_free(root);
        root = NULL;
    }
    const tfs_header *h = c->meta;
    const tfs_kv *kv = tfs_find_kv(h, "quantization");
    tfs_str v;
    if (kv && tfs_kv_get_string(h, kv, 0, &v, NULL, 0) == TFS_OK) {
        root = tfs__lj_parse(v.ptr, v.len, &why, &oom);
        if (!root) {
            if (oom)
                c->st = TFS_ENOMEM;
            else
                add(c, TFS_LT201, 0, -1, "__metadata__ quantization is not a JSON object (%s)", why);
            return NULL;
        }
        if (root->type == LJ_OBJ) *q = root;
        return root;
    }
    return NULL;
}

/* __metadata__ keys quantization.group_size / .bits / .mode (strings). */
static void metadata_params(const tfs_header *h, qparams *p) {
    static const char *const keys[] = {"quantization.group_size", "quantization.bits"};
    for (int k = 0; k < 2; k++) {
        const tfs_kv *kv = tfs_find_kv(h, keys[k]);
        tfs_str v;
        if (!kv || tfs_kv_get_string(h, kv, 0, &v, NULL, 0) != TFS_OK) continue;
        uint64_t x = 0;
        size_t i = 0;
        for (; i < v.len && i < 19 && v.ptr[i] >= '0' && v.ptr[i] <= '9'; i++) x = x * 10u + (uint64_t)(v.ptr[i] - '0');
        if (i == 0 || i != v.len) continue;
        if (k == 0)
            p->group = x;
        else
            p->bits = x;
        p->given = 1;
    }
    const tfs_kv *kv = tfs_find_kv(h, "quantization.mode");
    tfs_str v;
    if (kv && tfs_kv_get_string(h, kv, 0, &v, NULL, 0) == TFS_OK) {
        p->mode = mode_of(v.ptr, v.len);
        snprintf(p->mode_text, sizeof p->mode_text, "%.*s", (int)(v.len < 24 ? v.len : 24), v.ptr);
    }
}

static int is_mlx(const tfs_header *h) {
    const tfs_kv *kv = tfs_find_kv(h, "format");
    tfs_str v;
    return kv && tfs_kv_get_string(h, kv, 0, &v, NULL, 0) == TFS_OK && v.len == 3 && memcmp(v.ptr, "mlx", 3) == 0;
}

tfs_status tfs__lint_mlx(const tfs_header *const *hs, size_t n, const char *config, size_t config_len,
                         tfs_lint_report *r) {
    size_t first = 0;
    while (first < n && !hs[first]) first++;
    if (first == n || hs[first]->format != TFS_FORMAT_SAFETENSORS) return TFS_OK;
    mlx_ctx c = {.hs = hs, .n = n, .r = r, .meta = hs[first]};
    c.base.mode = Q_AFFINE;
    lj_node *root = config_of(&c, config, config_len, &c.q);
    if (c.q)
        read_params(c.q, &c.base);
    else
        metadata_params(c.meta, &c.base);
    int any_scales = 0;
    for (size_t p = 0; p < n && !any_scales; p++)
        for (size_t i = 0; hs[p] && i < hs[p]->n_tensors && !any_scales; i++)
            any_scales = ends_with(&hs[p]->tensors[i].name, ".scales");
    if (!any_scales && !c.base.given && !is_mlx(c.meta)) {
        tfs__lj_free(root);
        return c.st;
    }
    if (!tfs__tn_build(&c.names, hs, n)) {
        tfs__lj_free(root);
        return TFS_ENOMEM;
    }
    for (size_t p = 0; p < n; p++) {
        for (size_t i = 0; hs[p] && i < hs[p]->n_tensors; i++) {
            const tfs_tensor *t = &hs[p]->tensors[i];
            if (ends_with(&t->name, ".weight") && t->type == TFS_ST_U32) {
                check_weight(&c, t, (int)p, (int64_t)i, t->name.ptr, t->name.len - 7u);
            } else if (ends_with(&t->name, ".scales") || ends_with(&t->name, ".biases")) {
                int wp;
                int64_t wi;
                const tfs_tensor *w = find(&c, t->name.ptr, t->name.len - 7u, ".weight", &wp, &wi);
                if (!w || w->type != TFS_ST_U32)
                    add(&c, TFS_LT208, (int)p, (int64_t)i, "%.*s: no U32 %.*s.weight beside it%s", (int)t->name.len,
                        t->name.ptr, (int)(t->name.len - 7u), t->name.ptr, w ? " (it is not packed)" : "");
            }
        }
    }
    if (c.inferred)
        add(&c, TFS_LT210, 0, -1,
            "no quantization in config.json or __metadata__; bits and group size inferred from the shapes: "
            "%llu bits, group size %llu, mode %s (%.*s.weight%s)",
            (unsigned long long)c.inf.bits, (unsigned long long)c.inf.group, mode_names[c.inf.mode],
            (int)(c.inf_len > 200 ? 200 : c.inf_len), c.inf_name,
            c.n_inferred == 1 ? ""
            : c.inf_mixed     ? " and others, some inferred differently"
                              : " and every other quantized weight");
    tfs__tn_free(&c.names);
    tfs__lj_free(root);
    return c.st;
}
