/* m_bug.c: bug.* - the field-bug classes of ../shared/buglog.md, one
 * mutation each, named by the row id (G1..G16 GGUF, S1..S8 safetensors). */
#include "mut.h"

#include <stdlib.h>
#include <string.h>

static tfs_gg_wtensor *gg_t(mut_ctx *c, size_t need) {
    if (tfs__mut_gg_need_tensors(c, need) < need) return NULL;
    return &c->gt[tfs__mut_below(&c->rng, c->n_gt)];
}

static int g1(mut_ctx *c) {
    tfs_gg_wtensor *t = gg_t(c, 1);
    if (!t) return 0;
    uint32_t n = 5 + (uint32_t)tfs__mut_below(&c->rng, 4);
    for (uint32_t i = t->n_dims; i < n; i++) t->ne[i] = 1;
    t->n_dims = n;
    return 1;
}

/* two f32 tensors of 2^63 bytes each: padded sizes sum past 2^64 */
static int g2(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 2) < 2) return 0;
    for (size_t i = 0; i < 2; i++) {
        c->gt[i].type = 0;
        c->gt[i].n_dims = 1;
        c->gt[i].ne[0] = (uint64_t)1 << 61;
    }
    return 1;
}

/* f32, ne0 = (2^64-1)/4: the padded byte size wraps to 0; then a normal one */
static int g3(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 2) < 2) return 0;
    c->gt[0].type = 0;
    c->gt[0].n_dims = 1;
    c->gt[0].ne[0] = UINT64_MAX / 4;
    c->gt[1].type = 0;
    c->gt[1].n_dims = 1;
    c->gt[1].ne[0] = 8;
    return 1;
}

static int g4(mut_ctx *c) {
    tfs_gg_wtensor *t = gg_t(c, 1);
    if (!t) return 0;
    t->type = 8; /* q8_0 */
    t->n_dims = 2;
    t->ne[0] = 1152;
    t->ne[1] = ((uint64_t)1 << 42) + 1;
    return 1;
}

static int g5_m(mut_ctx *c) { return tfs__mut_gg_need_kv(c, 1) >= 1; }
static int g5_b(mut_ctx *c) {
    const tfs_field *f = tfs_wbuf_find(&c->w, TFS_FIELD_KEY_LEN, 0, 0);
    if (tfs__mut_set_uint(c, f, (uint64_t)1 << 56) != 0) return 0;
    tfs__mut_cut(c, 50);
    return 1;
}

static int g6(mut_ctx *c) {
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (!kv) return 0;
    kv->key = tfs_wstr_n("", 0);
    kv->value = tfs_gg_wval_scalar(TFS_GG_U32, 1);
    return 1;
}

static int g7(mut_ctx *c) {
    tfs_gg_wtensor *t = gg_t(c, 1);
    if (!t) return 0;
    t->n_dims = 2;
    t->ne[0] = 1;
    t->ne[1] = 0;
    if (tfs_gg_type_block_size(t->type) != 1) t->type = 0;
    return 1;
}

static tfs_gg_wkv *kv_named(mut_ctx *c, const char *key) {
    int i = tfs__mut_gg_find_kv(c, key);
    if (i >= 0) return &c->kv[i];
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (kv) kv->key = tfs_wstr_c(key);
    return kv;
}

static int g8(mut_ctx *c) {
    tfs_gg_wkv *kv = kv_named(c, "general.alignment");
    if (!kv) return 0;
    static const tfs_wstr s = {"32", 2, 0, 0, 0};
    switch (tfs__mut_below(&c->rng, 3)) {
    case 0: kv->value = tfs_gg_wval_scalar(TFS_GG_I32, 32); break;
    case 1: kv->value = tfs_gg_wval_str(&s); break;
    default: kv->value = tfs_gg_wval_scalar(TFS_GG_U64, 32); break;
    }
    c->gm.alignment = 32;
    return 1;
}

static int g9(mut_ctx *c) {
    tfs_gg_wkv *kv = kv_named(c, "tokenizer.ggml.scores");
    if (!kv) return 0;
    static const uint8_t b[3] = {1, 2, 3};
    kv->value = tfs_gg_wval_array(TFS_GG_U8, 3, b, 3);
    return 1;
}

static int g10(mut_ctx *c) {
    tfs_gg_wkv *kv = kv_named(c, "llama.block_count");
    if (!kv) return 0;
    kv->value = tfs_gg_wval_scalar(TFS_GG_U32, 100000);
    return 1;
}

/* the last tensor's offset + size past the end of the file */
static int g11_m(mut_ctx *c) { return gg_t(c, 1) != NULL; }
static int g11_b(mut_ctx *c) {
    size_t n = tfs__mut_field_count(c, TFS_FIELD_DATA);
    const tfs_field *f = n ? tfs__mut_field_nth(c, TFS_FIELD_DATA, n - 1) : NULL;
    if (!f) return 0;
    if (f->width && tfs__mut_below(&c->rng, 2)) return tfs__mut_cut(c, f->offset + f->width / 2);
    const tfs_field *o = tfs_wbuf_find(&c->w, TFS_FIELD_OFFSET, f->record, 0);
    uint64_t v;
    if (tfs__mut_get_uint(c, o, &v) != 0) return 0;
    return tfs__mut_set_uint(c, o, v + tfs__mut_gg_align(c) * 1024) == 0;
}

static int g12(mut_ctx *c) {
    tfs_gg_wtensor *t = gg_t(c, 1);
    if (!t) return 0;
    t->type = 0;
    t->n_dims = 4;
    t->ne[0] = UINT64_MAX;
    t->ne[1] = 2;
    t->ne[2] = 1;
    t->ne[3] = 1;
    return 1;
}

static int g13(mut_ctx *c) {
    tfs_gg_wtensor *t = gg_t(c, 1);
    if (!t) return 0;
    t->n_dims_set = 1;
    t->n_dims_field = tfs__mut_below(&c->rng, 2) ? 1000000u : 0xffffffffu;
    return 1;
}

static int g14(mut_ctx *c) {
    const tfs_field *f = tfs_wbuf_find(&c->w, TFS_FIELD_VERSION, -1, 0);
    return tfs__mut_set_uint(c, f, 1) == 0;
}

static int g15(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 3) < 3) return 0;
    for (size_t i = 0; i < c->n_gt; i++) {
        c->gt[i].offset_set = 1;
        c->gt[i].offset = 0;
    }
    return 1;
}

static int g16_m(mut_ctx *c) {
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (!kv) return 0;
    kv->key = tfs_wstr_c("mut.f32");
    kv->value = tfs_gg_wval_f32(1.5f); /* 00 00 c0 3f: an invalid UTF-8 byte */
    return 1;
}

/* every byte that does not start a valid UTF-8 sequence becomes EF BF BD */
static int g16_b(mut_ctx *c) {
    uint8_t *flat = NULL;
    size_t n = 0;
    uint64_t limit = (uint64_t)c->max_size + 1;
    if (c->w.size > limit) tfs__mut_cut(c, limit);
    if (tfs_wbuf_flatten(&c->w, limit, &flat, &n) != TFS_OK) return 0;
    tfs_wbuf w2;
    tfs_wbuf_init(&w2);
    static const uint8_t rep[3] = {0xef, 0xbf, 0xbd};
    size_t i = 0;
    while (i < n && w2.size <= limit) {
        size_t k = tfs_utf8_decode(flat + i, n - i, NULL);
        if (k) {
            tfs_wbuf_bytes(&w2, flat + i, k);
            i += k;
        } else {
            tfs_wbuf_bytes(&w2, rep, 3);
            i++;
        }
    }
    free(flat);
    if (w2.err != TFS_OK) {
        tfs_wbuf_free(&w2);
        c->nomem = 1;
        return 0;
    }
    tfs_wbuf_free(&c->w);
    c->w = w2;
    return 1;
}

/* ---------------------------------------------------------- safetensors */

static int s1(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs_st_wentry *e = tfs__mut_st_add_entry(c);
    if (!e) return 0;
    tfs__mut_st_pin_offsets(c); /* same name, same range: last wins */
    *e = c->se[tfs__mut_below(&c->rng, c->n_se - 1)];
    return 1;
}

static int s2(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 2) < 2) return 0;
    tfs__mut_st_pin_offsets(c);
    c->se[1].begin = c->se[0].begin;
    c->se[1].end = c->se[0].end;
    c->se[1].dtype = c->se[0].dtype;
    c->se[1].n_dims = c->se[0].n_dims;
    c->se[1].shape = c->se[0].shape;
    return 1;
}

static int s3(mut_ctx *c) {
    const tfs_field *f = tfs_wbuf_find(&c->w, TFS_FIELD_HEADER_SIZE, -1, 0);
    return tfs__mut_set_uint(c, f, tfs__mut_below(&c->rng, 2) ? 100000001u : 100000000u) == 0;
}

/* a header as large as max_size allows (capped at 64 MiB): one long value */
static int s4(mut_ctx *c) {
    size_t n = c->max_size / 2;
    if (n > ((size_t)64 << 20)) n = (size_t)64 << 20;
    if (n < 16) return 0;
    char *v = tfs__mut_alloc(c, n);
    if (!v) return 0;
    memset(v, 'a', n);
    tfs_st_wmeta *m = tfs__mut_st_add_meta(c);
    if (!m) return 0;
    m->key = tfs_wstr_c("mut.big");
    m->value = tfs_wstr_n(v, n);
    c->sm.metadata = TFS_STW_META_OBJECT;
    return 1;
}

static int s5(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs__mut_st_pin_offsets(c);
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    if (tfs__mut_below(&c->rng, 2)) {
        uint64_t b = e->begin; /* begin > end */
        e->begin = e->end + 1;
        e->end = b;
    } else {
        uint64_t top = 0; /* a range past the data section */
        for (size_t i = 0; i < c->n_se; i++)
            if (c->se[i].end > top) top = c->se[i].end;
        c->sm.data_len_set = 1;
        c->sm.data_len = top;
        e->begin = top;
        e->end = top + tfs__mut_st_nbytes(e) + 64;
    }
    return 1;
}

static int s6(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 2) < 2) return 0;
    tfs__mut_st_pin_offsets(c);
    size_t i = 1 + (size_t)tfs__mut_below(&c->rng, c->n_se - 1);
    if (tfs__mut_below(&c->rng, 2)) { /* overlap */
        uint64_t back = c->se[i].begin > 1 ? 1 + tfs__mut_below(&c->rng, c->se[i].begin) : 0;
        c->se[i].begin -= back;
        c->se[i].end -= back;
    } else { /* bytes owned by no tensor */
        for (size_t k = i; k < c->n_se; k++) {
            c->se[k].begin += 4;
            c->se[k].end += 4;
        }
    }
    return 1;
}

static int s7(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    size_t d = 100000;
    /* room for the rest of the header too */
    if (d * 2 + 8192 > c->max_size) d = c->max_size > 8192 + 256 ? (c->max_size - 8192) / 2 : 128;
    char *x = tfs__mut_alloc(c, d * 2 + 8);
    if (!x) return 0;
    memcpy(x, "\"x\":", 4);
    memset(x + 4, '[', d);
    memset(x + 4 + d, ']', d);
    x[4 + 2 * d] = '\0';
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    e->extra = x;
    e->members = "dsox";
    return 1;
}

static int s8(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    tfs_st_wentry *e = &c->se[tfs__mut_below(&c->rng, c->n_se)];
    uint64_t *s = tfs__mut_st_own_shape(c, e, 3);
    if (!s) return 0;
    s[0] = s[1] = (uint64_t)1 << 32;
    s[2] = 4;
    return 1;
}

const mut_def tfs__mut_bug[] = {
    {"bug.G1", MUT_GG, g1, NULL, "buglog G1: n_dims 5..8"},
    {"bug.G2", MUT_GG, g2, NULL, "buglog G2: two tensors whose padded sizes add past 2^64"},
    {"bug.G3", MUT_GG, g3, NULL, "buglog G3: f32 ne0 = (2^64-1)/4 (padded size wraps to 0), then a normal tensor"},
    {"bug.G4", MUT_GG, g4, NULL, "buglog G4: q8_0 tensor [1152, 2^42+1]"},
    {"bug.G5", MUT_GG, g5_m, g5_b, "buglog G5: ~50-byte file whose first key length is 2^56"},
    {"bug.G6", MUT_GG, g6, NULL, "buglog G6: a KV with a zero-length key"},
    {"bug.G7", MUT_GG, g7, NULL, "buglog G7: n_dims 2, ne = [1, 0]"},
    {"bug.G8", MUT_GG, g8, NULL, "buglog G8: general.alignment as i32, string or u64"},
    {"bug.G9", MUT_GG, g9, NULL, "buglog G9: tokenizer.ggml.scores as an array of u8"},
    {"bug.G10", MUT_GG, g10, NULL, "buglog G10: llama.block_count = 100000"},
    {"bug.G11", MUT_GG, g11_m, g11_b, "buglog G11: the last tensor's offset + size past the end of the file"},
    {"bug.G12", MUT_GG, g12, NULL, "buglog G12: f32 dims [2^64-1, 2, 1, 1]"},
    {"bug.G13", MUT_GG, g13, NULL, "buglog G13: n_dims field 1,000,000 or 0xFFFFFFFF"},
    {"bug.G14", MUT_GG, NULL, g14, "buglog G14: version 1"},
    {"bug.G15", MUT_GG, g15, NULL, "buglog G15: three (all) tensors at offset 0"},
    {"bug.G16", MUT_GG, g16_m, g16_b, "buglog G16: every invalid UTF-8 byte replaced by EF BF BD (text-mode transfer)"},
    {"bug.S1", MUT_ST, s1, NULL, "buglog S1: the same tensor name twice"},
    {"bug.S2", MUT_ST, s2, NULL, "buglog S2: two tensors with identical data_offsets"},
    {"bug.S3", MUT_ST, NULL, s3, "buglog S3: header size 100,000,001 or 100,000,000"},
    {"bug.S4", MUT_ST, s4, NULL, "buglog S4: an enormous JSON header (max_size / 2, at most 64 MiB)"},
    {"bug.S5", MUT_ST, s5, NULL, "buglog S5: data_offsets with begin > end, or a range past the data section"},
    {"bug.S6", MUT_ST, s6, NULL, "buglog S6: overlapping ranges, or data bytes owned by no tensor"},
    {"bug.S7", MUT_ST, s7, NULL,
     "buglog S7: JSON nesting 100,000 levels (as far as max_size allows) in an ignored member"},
    {"bug.S8", MUT_ST, s8, NULL, "buglog S8: shape [2^32, 2^32, 4]"},
};
const size_t tfs__mut_bug_n = sizeof tfs__mut_bug / sizeof tfs__mut_bug[0];
