/* lint_gguf.c: GGUF conventions beyond the container (LT1xx), as llama.cpp's
 * loader (llama-model-loader.cpp get_key / get_arr, llama-vocab.cpp) reads
 * them.  Metadata rules look at the first header (a split's first part
 * carries the model's metadata); tensor rules at every part. */
#include "lint_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LAYERS 512u /* llama.cpp LLAMA_MAX_LAYERS */
#define KEY_MAX 256u

typedef struct ftype_row {
    uint32_t value;
    const char *name;
    uint32_t type;
} ftype_row;
static const ftype_row ftypes[] = {
#define TFS_GG_FTYPE(value, name, type) {value, name, type},
#include "tfs/gg_ftypes.def"
#undef TFS_GG_FTYPE
};

static int64_t kv_index(const tfs_header *h, const tfs_kv *kv) { return kv ? (int64_t)(kv - h->kv) : -1; }

static int is_int_type(uint32_t t) {
    return t == TFS_GG_U8 || t == TFS_GG_I8 || t == TFS_GG_U16 || t == TFS_GG_I16 || t == TFS_GG_U32 ||
           t == TFS_GG_I32 || t == TFS_GG_U64 || t == TFS_GG_I64;
}

static const char *vt(uint32_t t) {
    const char *s = tfs_gg_vtype_name(t);
    return s ? s : "?";
}

/* The type of a KV as text: "u32", "array of f32". */
static void type_text(const tfs_kv *kv, char *buf, size_t cap) {
    if (kv->type == TFS_GG_ARRAY)
        snprintf(buf, cap, "array of %s", vt(kv->elem_type));
    else
        snprintf(buf, cap, "%s", vt(kv->type));
}

/* Tokenizer arrays: llama-vocab.cpp reads tokens as strings, scores through
 * gguf_get_arr_data as float *, token_type as int32_t *, each indexed up to
 * the number of tokens. */
typedef struct tok_array {
    const char *key;
    uint32_t elem;
    int same_length; /* must have as many elements as tokenizer.ggml.tokens */
} tok_array;
static const tok_array tok_arrays[] = {
    {"tokenizer.ggml.tokens", TFS_GG_STRING, 1},
    {"tokenizer.ggml.scores", TFS_GG_F32, 1},
    {"tokenizer.ggml.token_type", TFS_GG_I32, 1},
    {"tokenizer.ggml.merges", TFS_GG_STRING, 0},
};

static const char *const special_ids[] = {
    "tokenizer.ggml.bos_token_id",     "tokenizer.ggml.eos_token_id",     "tokenizer.ggml.eot_token_id",
    "tokenizer.ggml.eom_token_id",     "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.seperator_token_id",
    "tokenizer.ggml.padding_token_id", "tokenizer.ggml.cls_token_id",     "tokenizer.ggml.mask_token_id",
    "tokenizer.ggml.prefix_token_id",  "tokenizer.ggml.suffix_token_id",  "tokenizer.ggml.middle_token_id",
};

/* Hyper-parameters read as u32 by llama.cpp (LLM_KV_*); `arr`: get_key_or_arr
 * also takes a per-layer array of u32 / i32. */
typedef struct hparam {
    const char *suffix;
    int arr;
} hparam;
static const hparam hparams[] = {
    {"block_count", 0},         {"context_length", 0},       {"embedding_length", 0},
    {"feed_forward_length", 1}, {"attention.head_count", 1}, {"attention.head_count_kv", 1},
    {"expert_count", 0},        {"expert_used_count", 0},    {"vocab_size", 0},
};

static tfs_status tokenizer(const tfs_header *h, tfs_lint_report *r) {
    tfs_status st = TFS_OK;
    const tfs_kv *tokens = tfs_find_kv(h, "tokenizer.ggml.tokens");
    uint64_t n_tokens = 0;
    int have_n = 0;
    for (size_t i = 0; i < sizeof tok_arrays / sizeof tok_arrays[0]; i++) {
        const tfs_kv *kv = tfs_find_kv(h, tok_arrays[i].key);
        if (!kv) continue;
        if (kv->type != TFS_GG_ARRAY || kv->elem_type != tok_arrays[i].elem) {
            char t[64];
            type_text(kv, t, sizeof t);
            st |= tfs__lint_add(r, TFS_LT104, 0, -1, kv_index(h, kv), "%s: %s, expected array of %s", tok_arrays[i].key,
                                t, vt(tok_arrays[i].elem));
            continue;
        }
        if (kv == tokens) {
            n_tokens = kv->count;
            have_n = 1;
        }
    }
    if (have_n) {
        for (size_t i = 1; i < sizeof tok_arrays / sizeof tok_arrays[0]; i++) {
            const tfs_kv *kv = tfs_find_kv(h, tok_arrays[i].key);
            if (!kv || !tok_arrays[i].same_length || kv->type != TFS_GG_ARRAY) continue;
            if (kv->count != n_tokens)
                st |= tfs__lint_add(r, TFS_LT105, 0, -1, kv_index(h, kv),
                                    "%s: %llu elements, tokenizer.ggml.tokens has %llu", tok_arrays[i].key,
                                    (unsigned long long)kv->count, (unsigned long long)n_tokens);
        }
    }
    for (size_t i = 0; i < sizeof special_ids / sizeof special_ids[0]; i++) {
        const tfs_kv *kv = tfs_find_kv(h, special_ids[i]);
        if (!kv) continue;
        uint32_t id;
        if (kv->type != TFS_GG_U32 || tfs_kv_get_u32(h, kv, 0, &id) != TFS_OK) {
            char t[64];
            type_text(kv, t, sizeof t);
            st |= tfs__lint_add(r, TFS_LT107, 0, -1, kv_index(h, kv), "%s: %s, expected u32", special_ids[i], t);
            continue;
        }
        if (have_n && id >= n_tokens)
            st |= tfs__lint_add(r, TFS_LT106, 0, -1, kv_index(h, kv), "%s = %u, but the vocabulary has %llu tokens",
                                special_ids[i], id, (unsigned long long)n_tokens);
    }
    return st;
}

/* blk.N. with N of 1 to 18 decimal digits (below 10^18: no wrap): N, else -1. */
static int64_t block_of(const tfs_str *name) {
    if (name->len < 6 || memcmp(name->ptr, "blk.", 4) != 0) return -1;
    uint64_t n = 0;
    size_t i = 4;
    while (i < name->len && name->ptr[i] >= '0' && name->ptr[i] <= '9' && i < 22)
        n = n * 10u + (uint64_t)(name->ptr[i++] - '0');
    if (i == 4 || i >= name->len || name->ptr[i] != '.') return -1;
    return (int64_t)n;
}

tfs_status tfs__lint_gguf(const tfs_header *const *hs, size_t n, tfs_lint_report *r) {
    const tfs_header *h = hs[0];
    tfs_status st = TFS_OK;
    char key[KEY_MAX];

    /* general.architecture */
    const tfs_kv *arch = tfs_find_kv(h, "general.architecture");
    tfs_str arch_s = {0};
    char arch_buf[KEY_MAX];
    if (!arch) {
        st |= tfs__lint_add(r, TFS_LT101, 0, -1, -1, "general.architecture is missing (llama.cpp refuses such a file)");
    } else if (arch->type != TFS_GG_STRING ||
               tfs_kv_get_string(h, arch, 0, &arch_s, arch_buf, sizeof arch_buf - 1) != TFS_OK) {
        char t[64];
        type_text(arch, t, sizeof t);
        st |= tfs__lint_add(r, TFS_LT102, 0, -1, kv_index(h, arch), "general.architecture: %s, expected string", t);
        arch_s.len = 0;
    }

    /* general.alignment: type and power of two are format rules (GG140, GG141) */
    const tfs_kv *al = tfs_find_kv(h, "general.alignment");
    uint32_t align;
    if (al && al->type == TFS_GG_U32 && tfs_kv_get_u32(h, al, 0, &align) == TFS_OK && align % 8u != 0)
        st |= tfs__lint_add(r, TFS_LT103, 0, -1, kv_index(h, al),
                            "general.alignment = %u: tensor data of 8-byte types may be misaligned", align);

    st |= tokenizer(h, r);

    /* <arch>.hyper-parameters, looked up for an architecture name of 1..127 bytes without a NUL (every
     * llama.cpp architecture is far shorter; docs/lint.md): "<arch>.<suffix>" then fits key[], and arch_buf
     * holds the whole name when it is not in memory.  For another name nothing is looked up (no LT107-LT110). */
    uint64_t block_count = 0;
    int have_blocks = 0, blocks_key = 0;
    const int arch_ok = arch_s.len > 0 && arch_s.len < 128 && memchr(arch_s.ptr, '\0', arch_s.len) == NULL;
    if (arch_ok) {
        for (size_t i = 0; i < sizeof hparams / sizeof hparams[0]; i++) {
            snprintf(key, sizeof key, "%.*s.%s", (int)arch_s.len, arch_s.ptr, hparams[i].suffix);
            const tfs_kv *kv = tfs_find_kv(h, key);
            if (!kv) continue;
            if (i == 0) blocks_key = 1;
            int ok = kv->type == TFS_GG_U32 || (hparams[i].arr && kv->type == TFS_GG_ARRAY &&
                                                (kv->elem_type == TFS_GG_U32 || kv->elem_type == TFS_GG_I32));
            if (!ok) {
                char t[64];
                type_text(kv, t, sizeof t);
                st |= tfs__lint_add(r, TFS_LT107, 0, -1, kv_index(h, kv), "%s: %s, expected u32%s%s", key, t,
                                    hparams[i].arr ? " or an array of u32/i32" : "",
                                    is_int_type(kv->type) ? " (llama.cpp refuses another integer type)" : "");
                continue;
            }
            if (i == 0) { /* block_count */
                uint32_t v;
                if (tfs_kv_get_u32(h, kv, 0, &v) != TFS_OK) continue;
                block_count = v;
                have_blocks = 1;
                if (v == 0 || v > MAX_LAYERS)
                    st |= tfs__lint_add(
                        r, TFS_LT108, 0, -1, kv_index(h, kv),
                        "%s = %u: llama.cpp needs 1..%u (LLAMA_MAX_LAYERS; per-layer arrays overflow above)", key, v,
                        MAX_LAYERS);
            }
        }
    }

    /* blk.N. tensors against block_count, over every part */
    int64_t max_blk = -1;
    int max_part = 0;
    int64_t max_index = -1;
    for (size_t p = 0; p < n; p++) {
        if (!hs[p]) continue;
        for (size_t i = 0; i < hs[p]->n_tensors; i++) {
            int64_t b = block_of(&hs[p]->tensors[i].name);
            if (b < 0) continue;
            if (have_blocks && (uint64_t)b >= block_count)
                st |=
                    tfs__lint_add(r, TFS_LT109, (int)p, (int64_t)i, -1, "%.*s: block %lld, but %.*s.block_count = %llu",
                                  (int)hs[p]->tensors[i].name.len, hs[p]->tensors[i].name.ptr, (long long)b,
                                  (int)arch_s.len, arch_s.ptr, (unsigned long long)block_count);
            if (b > max_blk) {
                max_blk = b;
                max_part = (int)p;
                max_index = (int64_t)i;
            }
        }
    }
    if (max_blk >= 0 && !blocks_key && arch_ok)
        st |= tfs__lint_add(r, TFS_LT110, max_part, max_index, -1,
                            "tensors up to blk.%lld. but no %.*s.block_count (u32)", (long long)max_blk,
                            (int)arch_s.len, arch_s.ptr);

    /* general.file_type against the tensors' types */
    const tfs_kv *ft = tfs_find_kv(h, "general.file_type");
    uint32_t ftv;
    if (ft) {
        if (ft->type != TFS_GG_U32 || tfs_kv_get_u32(h, ft, 0, &ftv) != TFS_OK) {
            char t[64];
            type_text(ft, t, sizeof t);
            st |= tfs__lint_add(r, TFS_LT111, 0, -1, kv_index(h, ft), "general.file_type: %s, expected u32", t);
        } else {
            const ftype_row *row = NULL;
            for (size_t i = 0; i < sizeof ftypes / sizeof ftypes[0]; i++)
                if (ftypes[i].value == (ftv & ~1024u)) row = &ftypes[i];
            size_t n_total = 0, n_match = 0, n_other_f32 = 0;
            for (size_t p = 0; p < n; p++) {
                if (!hs[p]) continue;
                for (size_t i = 0; i < hs[p]->n_tensors; i++) {
                    n_total++;
                    if (row && hs[p]->tensors[i].type == row->type)
                        n_match++;
                    else if (hs[p]->tensors[i].type != 0)
                        n_other_f32++;
                }
            }
            if (!row)
                st |= tfs__lint_add(r, TFS_LT111, 0, -1, kv_index(h, ft),
                                    "general.file_type = %u: no llama_ftype has this value", ftv);
            else if (n_total > 0 && row->value == 0 && n_other_f32 > 0)
                st |= tfs__lint_add(r, TFS_LT112, 0, -1, kv_index(h, ft),
                                    "general.file_type = %u (%s): %zu of %zu tensors are not f32", ftv, row->name,
                                    n_other_f32, n_total);
            else if (n_total > 0 && row->value != 0 && n_match == 0)
                st |=
                    tfs__lint_add(r, TFS_LT112, 0, -1, kv_index(h, ft),
                                  "general.file_type = %u (%s), but none of the %zu tensors has type %s", ftv,
                                  row->name, n_total, tfs_gg_type_name(row->type) ? tfs_gg_type_name(row->type) : "?");
        }
    }
    return st;
}
