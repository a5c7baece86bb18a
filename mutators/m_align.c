/* m_align.c: align.* - GGUF general.alignment broken (odd, zero, huge,
 * wrong value type), the data start unpadded, offsets misaligned, padding
 * bytes non-zero; safetensors: header padding left out or not spaces, data
 * misaligned by a one-byte tensor in front. */
#include "mut.h"

#include <string.h>

/* the general.alignment KV (added when missing) */
static tfs_gg_wkv *align_kv(mut_ctx *c) {
    int i = tfs__mut_gg_find_kv(c, "general.alignment");
    if (i >= 0) return &c->kv[i];
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (kv) kv->key = tfs_wstr_c("general.alignment");
    return kv;
}

static int set_align(mut_ctx *c, uint64_t v) {
    tfs_gg_wkv *kv = align_kv(c);
    if (!kv) return 0;
    kv->value = tfs_gg_wval_scalar(TFS_GG_U32, v);
    tfs__mut_gg_need_tensors(c, 1);
    return 1;
}

static int odd_m(mut_ctx *c) {
    static const uint32_t v[] = {3, 7, 12, 24, 48, 100, 33, 0x80000001u};
    return set_align(c, v[tfs__mut_below(&c->rng, 8)]);
}

static int zero_m(mut_ctx *c) { return set_align(c, 0); }

static int huge_m(mut_ctx *c) {
    static const uint32_t v[] = {1024, 4096, 65536, 1u << 20, 1u << 30, 0x80000000u};
    return set_align(c, v[tfs__mut_below(&c->rng, 6)]);
}

/* G8: general.alignment as i32, u64, string, f32, an array of u32 */
static int type_m(mut_ctx *c) {
    tfs_gg_wkv *kv = align_kv(c);
    if (!kv) return 0;
    static const uint8_t arr[8] = {32, 0, 0, 0, 32, 0, 0, 0};
    static const tfs_wstr s = {"32", 2, 0, 0, 0};
    switch (tfs__mut_below(&c->rng, 6)) {
    case 0: kv->value = tfs_gg_wval_scalar(TFS_GG_I32, 32); break;
    case 1: kv->value = tfs_gg_wval_scalar(TFS_GG_U64, 32); break;
    case 2: kv->value = tfs_gg_wval_str(&s); break;
    case 3: kv->value = tfs_gg_wval_f32(32.0f); break;
    case 4: kv->value = tfs_gg_wval_scalar(TFS_GG_U16, 32); break;
    default: kv->value = tfs_gg_wval_array(TFS_GG_U32, 2, arr, sizeof arr); break;
    }
    c->gm.alignment = 32; /* the layout keeps the default */
    tfs__mut_gg_need_tensors(c, 1);
    return 1;
}

static int unpadded_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        tfs__mut_gg_header_pad(c);
        c->gm.flags |= TFS_GGW_NO_HEADER_PAD;
        if (tfs__mut_below(&c->rng, 2)) c->gm.flags |= TFS_GGW_NO_DATA_PAD;
        return 1;
    }
    c->sm.pad_to = 1; /* the JSON unpadded: the data starts at any byte */
    return 1;
}

static int misaligned_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        if (tfs__mut_gg_need_tensors(c, 1) < 1) return 0;
        uint64_t *o = tfs__mut_gg_offsets(c);
        if (!o) return 0;
        size_t i = (size_t)tfs__mut_below(&c->rng, c->n_gt);
        uint64_t a = tfs__mut_gg_align(c);
        c->gt[i].offset_set = 1;
        c->gt[i].offset = o[i] + (a > 1 ? a / 2 : 1);
        return 1;
    }
    /* a one-byte tensor first: every later tensor starts at an odd offset
     * (a valid file whose data cannot be mapped as aligned arrays) */
    tfs_st_wentry *e = tfs__mut_st_add_entry(c);
    if (!e) return 0;
    static const uint64_t one[1] = {1};
    memmove(&c->se[1], &c->se[0], (c->n_se - 1) * sizeof *c->se);
    e = &c->se[0];
    memset(e, 0, sizeof *e);
    e->name = tfs_wstr_c("mut.odd");
    e->dtype = TFS_ST_U8;
    e->n_dims = 1;
    e->shape = one;
    for (size_t i = 1; i < c->n_se; i++) c->se[i].offsets_set = 0; /* packed after it */
    return 1;
}

static int pad_byte_m(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        tfs__mut_gg_header_pad(c);
        c->gm.pad_byte = (uint8_t)(1 + tfs__mut_below(&c->rng, 255));
    } else {
        c->sm.pad_to = 16; /* padding to edit */
    }
    return 1;
}

static int pad_byte_b(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) return 0;
    const tfs_field *p = tfs_wbuf_find(&c->w, TFS_FIELD_PADDING, -1, 0);
    if (!p || p->width == 0) return 0;
    uint8_t *b = tfs_wbuf_at(&c->w, p->offset, (size_t)p->width);
    if (!b) return 0;
    static const uint8_t v[] = {'\n', '\t', '\r', 0, 0x0b, 0x0c, 'x'};
    uint8_t x = v[tfs__mut_below(&c->rng, sizeof v)];
    if (tfs__mut_below(&c->rng, 2))
        memset(b, x, (size_t)p->width);
    else
        b[tfs__mut_below(&c->rng, p->width)] = x;
    return 1;
}

const mut_def tfs__mut_align[] = {
    {"align.odd", MUT_GG, odd_m, NULL, "general.alignment not a power of two (3, 12, 100, ...); layout follows it"},
    {"align.zero", MUT_GG, zero_m, NULL, "general.alignment = 0"},
    {"align.huge", MUT_GG, huge_m, NULL, "general.alignment 1 KiB .. 2 GiB (layout follows up to 64 KiB)"},
    {"align.type", MUT_GG, type_m, NULL, "general.alignment as i32, u64, u16, f32, string or u32 array (G8)"},
    {"align.unpadded", MUT_BOTH, unpadded_m, NULL,
     "GGUF: no padding before the data (and maybe after tensors); safetensors: JSON not padded to 8"},
    {"align.misaligned", MUT_BOTH, misaligned_m, NULL,
     "GGUF: a tensor offset moved by half the alignment; safetensors: a 1-byte tensor first, the rest at odd offsets"},
    {"align.pad_byte", MUT_BOTH, pad_byte_m, pad_byte_b,
     "padding bytes not zero (GGUF) / not spaces (safetensors: \\n, \\t, NUL, \\v, ...)"},
};
const size_t tfs__mut_align_n = sizeof tfs__mut_align / sizeof tfs__mut_align[0];
