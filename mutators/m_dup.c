/* m_dup.c: dup.* - duplicate keys and names: GGUF KV keys (GG111), tensor
 * names (GG203, also equal only up to a NUL), safetensors __metadata__ keys
 * (ST503), tensor names (ST501, S1; also equal only after unescaping), a
 * second __metadata__ member (ST403). */
#include "mut.h"

#include <stdio.h>
#include <string.h>

static int key_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_kv(c, 1) < 1) return 0;
        size_t i = (size_t)tfs__mut_below(&c->rng, c->n_kv);
        tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
        if (!kv) return 0;
        kv->key = c->kv[i].key;
        kv->value = tfs_gg_wval_scalar(TFS_GG_U8, 1);
        return 1;
    }
    if (tfs__mut_st_need_meta(c, 1) < 1) return 0;
    size_t i = (size_t)tfs__mut_below(&c->rng, c->n_meta);
    tfs_st_wmeta *m = tfs__mut_st_add_meta(c);
    if (!m) return 0;
    m->key = c->meta[i].key;
    m->value = tfs_wstr_c("dup");
    return 1;
}

static int name_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 1) < 1) return 0;
        size_t i = (size_t)tfs__mut_below(&c->rng, c->n_gt);
        tfs_gg_wtensor *t = tfs__mut_gg_add_tensor(c);
        if (!t) return 0;
        *t = c->gt[i];
        t->offset_set = 0;
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    size_t i = (size_t)tfs__mut_below(&c->rng, c->n_se);
    tfs_st_wentry *e = tfs__mut_st_add_entry(c);
    if (!e) return 0;
    /* the same range too: the crate keeps the last entry of a name, so the
     * file stays valid by default and strict reports the duplicate (S1) */
    tfs__mut_st_pin_offsets(c);
    *e = c->se[i];
    return 1;
}

/* names equal as the reader compares them, different as bytes */
static int alias_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 1) < 1) return 0;
        size_t i = (size_t)tfs__mut_below(&c->rng, c->n_gt);
        tfs_gg_wtensor *t = tfs__mut_gg_add_tensor(c);
        if (!t) return 0;
        *t = c->gt[i];
        t->offset_set = 0;
        /* the same name, then a NUL and a tail: equal as C strings */
        size_t n = t->name.len;
        char *p = tfs__mut_alloc(c, n + 3);
        if (!p) return 0;
        if (n) memcpy(p, t->name.ptr, n);
        p[n] = '\0';
        p[n + 1] = 'x';
        t->name = tfs_wstr_n(p, n + 2);
        return 1;
    }
    if (tfs__mut_st_need_entries(c, 1) < 1) return 0;
    size_t i = (size_t)tfs__mut_below(&c->rng, c->n_se);
    const tfs_st_wentry *src = &c->se[i];
    if (src->name.len == 0 || src->name.len > 256) return 0;
    tfs_st_wentry *e = tfs__mut_st_add_entry(c);
    if (!e) return 0;
    tfs__mut_st_pin_offsets(c);
    *e = c->se[i];
    /* the name with its first byte written as \u00XX: equal once decoded */
    const uint8_t *s = (const uint8_t *)e->name.ptr;
    if (s[0] < 0x20 || s[0] >= 0x80 || s[0] == '"' || s[0] == '\\') return 1; /* a plain duplicate */
    char *raw = tfs__mut_alloc(c, e->name.len * 6 + 16);
    if (!raw) return 0;
    size_t k = 0;
    k += (size_t)sprintf(raw, "\"\\u%04x", s[0]);
    for (size_t j = 1; j < e->name.len; j++) {
        if (s[j] < 0x20 || s[j] == '"' || s[j] == '\\')
            k += (size_t)sprintf(raw + k, "\\u%04x", s[j]);
        else
            raw[k++] = (char)s[j];
    }
    raw[k++] = '"';
    raw[k] = '\0';
    e->name_raw = raw;
    return 1;
}

/* safetensors: a tensor entry named __metadata__ besides the real one */
static int metadata_m(mut_ctx *c) {
    tfs__mut_st_need_meta(c, 1);
    tfs_st_wentry *e = tfs__mut_st_add_entry(c);
    if (!e) return 0;
    static const uint64_t one[1] = {1};
    e->name = tfs_wstr_c("__metadata__");
    e->dtype = TFS_ST_U8;
    e->n_dims = 1;
    e->shape = one;
    return 1;
}

const mut_def tfs__mut_dup[] = {
    {"dup.key", MUT_BOTH, key_m, NULL, "a KV key (GGUF) or __metadata__ key (safetensors) twice"},
    {"dup.name", MUT_BOTH, name_m, NULL, "a tensor name twice (S1)"},
    {"dup.alias", MUT_BOTH, alias_m, NULL,
     "names equal as compared, not as bytes: GGUF name + NUL + tail; safetensors \\u-escaped first byte"},
    {"dup.metadata", MUT_ST, metadata_m, NULL, "a second __metadata__ member (a tensor entry of that name)"},
};
const size_t tfs__mut_dup_n = sizeof tfs__mut_dup / sizeof tfs__mut_dup[0];
