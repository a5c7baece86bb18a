/* m_kv.c: kv.* - GGUF KV pairs: value type confusion (the type field
 * rewritten over the same bytes), type ids out of range, bad or nested array
 * element types, bool bytes other than 0/1, empty, non-UTF-8 and over-long
 * keys. */
#include "mut.h"

#include <string.h>

static int need_kv(mut_ctx *c) { return tfs__mut_gg_need_kv(c, 1) >= 1; }

/* the type field of a KV says another type; its value bytes stay */
static int confuse_b(mut_ctx *c) {
    const tfs_field *f = tfs__mut_field(c, TFS_FIELD_VALUE_TYPE);
    uint64_t old;
    if (tfs__mut_get_uint(c, f, &old) != 0) return 0;
    uint64_t t = tfs__mut_below(&c->rng, TFS_GG_VTYPE_COUNT);
    if (t == old) t = (t + 1) % TFS_GG_VTYPE_COUNT;
    return tfs__mut_set_uint(c, f, t) == 0;
}

static int bad_type_b(mut_ctx *c) {
    static const uint32_t v[] = {TFS_GG_VTYPE_COUNT, TFS_GG_VTYPE_COUNT + 1, 255, 0x80000000u, 0xffffffffu};
    return tfs__mut_set_uint(c, tfs__mut_field(c, TFS_FIELD_VALUE_TYPE), v[tfs__mut_below(&c->rng, 5)]) == 0;
}

static int array_m(mut_ctx *c) { return tfs__mut_gg_array_kv(c) >= 0; }

static int bad_elem_b(mut_ctx *c) {
    static const uint32_t v[] = {TFS_GG_ARRAY, TFS_GG_VTYPE_COUNT, 100, 0xffffffffu};
    return tfs__mut_set_uint(c, tfs__mut_field(c, TFS_FIELD_ELEM_TYPE), v[tfs__mut_below(&c->rng, 4)]) == 0;
}

/* an array of arrays, encoded as a nested reader would expect it */
static int nested_m(mut_ctx *c) {
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    uint8_t *raw = tfs__mut_alloc(c, 64);
    if (!kv || !raw) return 0;
    /* two inner arrays: [u8 x2] and [u32 x1] */
    size_t n = 0;
    uint8_t inner[] = {0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 9, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0};
    memcpy(raw, inner, sizeof inner);
    n = sizeof inner;
    kv->key = tfs_wstr_c("mut.nested");
    kv->value = tfs_gg_wval_array(TFS_GG_ARRAY, 2, raw, n);
    return 1;
}

static int bool_m(mut_ctx *c) {
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (!kv) return 0;
    kv->key = tfs_wstr_c("mut.bool");
    kv->value = tfs_gg_wval_scalar(TFS_GG_BOOL, 2 + tfs__mut_below(&c->rng, 254));
    return 1;
}

static int empty_key_m(mut_ctx *c) {
    if (!need_kv(c)) return 0;
    c->kv[tfs__mut_below(&c->rng, c->n_kv)].key = tfs_wstr_n("", 0); /* G6 */
    return 1;
}

static int key_utf8_m(mut_ctx *c) {
    static const char *const v[] = {"k\xff", "k\xc0\xaf", "k\xed\xa0\x80", "\xf4\x90\x80\x80", "k\x80", "k\xe2\x82"};
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (!kv) return 0;
    kv->key = tfs_wstr_c(v[tfs__mut_below(&c->rng, 6)]);
    kv->value = tfs_gg_wval_scalar(TFS_GG_U8, 0);
    return 1;
}

/* a key at the spec's limit: 65,535 bytes (valid) or 65,536 .. 65,791
 * (GG505 in strict; ggml takes keys up to 2^30), lower_snake_case ASCII so
 * that nothing but the length is wrong.  Needs max_size room for the key:
 * with length control that is the one call in 16 that may use all of it. */
#define KV_KEY_SPEC_MAX 65535u
static int key_long_m(mut_ctx *c) {
    uint64_t r = tfs__mut_below(&c->rng, 4);
    size_t n = KV_KEY_SPEC_MAX + (r == 0 ? 0 : r == 1 ? 1 : 1 + (size_t)tfs__mut_below(&c->rng, 256));
    if (c->max_size < n + 256u) return 0;
    char *k = tfs__mut_alloc(c, n);
    tfs_gg_wkv *kv = k ? tfs__mut_gg_add_kv(c) : NULL;
    if (!kv) return 0;
    memset(k, 'k', n);
    memcpy(k, "mut.long_", 9);
    kv->key = tfs_wstr_n(k, n);
    kv->value = tfs_gg_wval_scalar(TFS_GG_U8, 1);
    return 1;
}

const mut_def tfs__mut_kv[] = {
    {"kv.type_confusion", MUT_GG, need_kv, confuse_b,
     "a KV's value type field says another valid type; the bytes stay"},
    {"kv.bad_type", MUT_GG, need_kv, bad_type_b, "a KV's value type 13 .. 2^32-1"},
    {"kv.bad_elem", MUT_GG, array_m, bad_elem_b, "an array's element type is array (9) or 13 .. 2^32-1"},
    {"kv.nested_array", MUT_GG, nested_m, NULL, "an array of arrays, each inner one encoded with type and count"},
    {"kv.bool", MUT_GG, bool_m, NULL, "a bool value 2..255"},
    {"kv.empty_key", MUT_GG, empty_key_m, NULL, "a zero-length key (G6)"},
    {"kv.key_utf8", MUT_GG, key_utf8_m, NULL, "a key that is not valid UTF-8 (overlong, surrogate, > U+10FFFF, cut)"},
    {"kv.key_long", MUT_GG, key_long_m, NULL, "a key of 65,535 bytes (the spec's limit) or 65,536 .. 65,791 (GG505)"},
};
const size_t tfs__mut_kv_n = sizeof tfs__mut_kv / sizeof tfs__mut_kv[0];
