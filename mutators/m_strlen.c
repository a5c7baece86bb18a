/* m_strlen.c: strlen.* - GGUF string length fields that lie (key, string
 * value, string array element, tensor name): +-1, 0, 2^30 + 1 (ggml's
 * maximum), 2^56 (G5), the bytes left + 1, 2^64-1. */
#include "mut.h"

static int lie(mut_ctx *c, const tfs_field *f) {
    uint64_t v;
    if (tfs__mut_get_uint(c, f, &v) != 0) return 0;
    uint64_t left = c->w.size > f->offset + 8 ? c->w.size - f->offset - 8 : 0;
    switch (tfs__mut_below(&c->rng, 8)) {
    case 0: v += 1; break;
    case 1: v = v ? v - 1 : 1; break;
    case 2: v = 0; break;
    case 3: v = (1u << 30) + 1u; break;
    case 4: v = (uint64_t)1 << 56; break;
    case 5: v = left + 1; break;
    case 6: v = UINT64_MAX; break;
    default: v = tfs__mut_interesting(&c->rng, v); break;
    }
    return tfs__mut_set_uint(c, f, v) == 0;
}

static int key_b(mut_ctx *c) { return lie(c, tfs__mut_field(c, TFS_FIELD_KEY_LEN)); }
static int key_m(mut_ctx *c) { return tfs__mut_gg_need_kv(c, 1) >= 1; }
static int name_b(mut_ctx *c) { return lie(c, tfs__mut_field(c, TFS_FIELD_NAME_LEN)); }
static int name_m(mut_ctx *c) { return tfs__mut_gg_need_tensors(c, 1) >= 1; }
static int value_m(mut_ctx *c) { return tfs__mut_gg_string_kv(c) >= 0; }

/* a scalar string value's length (sub 0 of a STRING KV) */
static int value_b(mut_ctx *c) {
    size_t n = tfs__mut_field_count(c, TFS_FIELD_STR_LEN);
    for (int tries = 0; tries < 8 && n; tries++) {
        const tfs_field *f = tfs__mut_field_nth(c, TFS_FIELD_STR_LEN, (size_t)tfs__mut_below(&c->rng, n));
        if (f->record >= 0 && (size_t)f->record < c->n_kv && c->kv[f->record].value.type == TFS_GG_STRING)
            return lie(c, f);
    }
    return lie(c, tfs__mut_field(c, TFS_FIELD_STR_LEN));
}

static int elem_m(mut_ctx *c) {
    for (size_t i = 0; i < c->n_kv; i++)
        if (c->kv[i].value.type == TFS_GG_ARRAY && c->kv[i].value.strs && c->kv[i].value.n_strs >= 2) return 1;
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    tfs_wstr *s = tfs__mut_alloc(c, 3 * sizeof *s);
    if (!kv || !s) return 0;
    s[0] = tfs_wstr_c("x");
    s[1] = tfs_wstr_c("yy");
    s[2] = tfs_wstr_c("zzz");
    kv->key = tfs_wstr_c("mut.strings");
    kv->value = tfs_gg_wval_str_array(s, 3);
    return 1;
}

/* an element of a string array */
static int elem_b(mut_ctx *c) {
    size_t n = tfs__mut_field_count(c, TFS_FIELD_STR_LEN);
    for (int tries = 0; tries < 16 && n; tries++) {
        const tfs_field *f = tfs__mut_field_nth(c, TFS_FIELD_STR_LEN, (size_t)tfs__mut_below(&c->rng, n));
        if (f->record >= 0 && (size_t)f->record < c->n_kv && c->kv[f->record].value.type == TFS_GG_ARRAY)
            return lie(c, f);
    }
    return 0;
}

const mut_def tfs__mut_strlen[] = {
    {"strlen.key", MUT_GG, key_m, key_b, "a key length lies (+-1, 0, 2^30+1, 2^56 (G5), bytes left + 1, 2^64-1)"},
    {"strlen.value", MUT_GG, value_m, value_b, "a string value's length lies"},
    {"strlen.element", MUT_GG, elem_m, elem_b, "a string array element's length lies"},
    {"strlen.name", MUT_GG, name_m, name_b, "a tensor name's length lies"},
};
const size_t tfs__mut_strlen_n = sizeof tfs__mut_strlen / sizeof tfs__mut_strlen[0];
