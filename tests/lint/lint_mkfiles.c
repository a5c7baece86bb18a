/* lint_mkfiles.c DIR: writes, with the C writer (tfs/write.h), the lint and
 * model-set fixtures of corpus/lint (docs/lint.md) into DIR, and prints one
 * line per case on stdout:
 *     id <TAB> path <TAB> kind <TAB> expect <TAB> description
 * kind: file (lint one file), set (check the set the path names, with
 * --lint), part (a file of a set: listed for its SHA-256 only, expect -).
 * expect: the rule ids the case must give, sorted, joined by ',' (none: no
 * finding).  The expectations are written here by hand, one per case, from
 * what each file is made to break; maint/gen_lint_corpus.sh adds sha256 and
 * size and writes corpus/lint/LINT.tsv.
 *
 * Every model file is valid for its format (the format verdict is not what
 * these cases test); what breaks is a convention:
 *   - MLX quantized safetensors: a layer quantized at 4 bits with group size
 *     32 (weight U32 [64, 8] = 64 values per row, scales and biases F16
 *     [64, 2]) and one float tensor, the quantization in __metadata__;
 *   - a small quantized GGUF (llama layout: q4_0 / q8_0 / f32 tensors, two
 *     blocks, a 6-token vocabulary);
 *   - 3-shard sets of each: a safetensors index and shards, a GGUF split. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/st_model.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

static const char *g_dir;
static int g_rc;

static void out_case(const char *id, const char *path, const char *kind, const char *expect, const char *desc) {
    printf("%s\t%s\t%s\t%s\t%s\n", id, path, kind, expect, desc);
}

static void save(tfs_wbuf *w, const char *rel) {
    char path[4096];
    int e = 0;
    snprintf(path, sizeof path, "%s/%s", g_dir, rel);
    if (w->err != TFS_OK || tfs_wbuf_write_file(w, path, &e) != TFS_OK) {
        fprintf(stderr, "lint_mkfiles: cannot write %s (status %d, errno %d)\n", path, (int)w->err, e);
        g_rc = 1;
    }
    tfs_wbuf_free(w);
}

static void save_text(const char *rel, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, rel);
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "lint_mkfiles: cannot write %s\n", path);
        g_rc = 1;
    }
}

static void mkdir_rel(const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", g_dir, rel);
    mkdir(path, 0755);
}

/* ------------------------------------------------------------ safetensors */

typedef tfs_test_st_tensor st_t; /* name, dtype, rank, shape (tests/common/st_model.h) */

typedef struct st_opts {
    const char *const *meta; /* key, value, ..., NULL */
    unsigned pad_to;         /* 0: 8 */
    const char *trailing_ws;
    int corrupt;    /* write a wrong header size (an invalid file) */
    int short_data; /* write 16 data bytes fewer than the entries cover (ST308: the header parses) */
} st_opts;

static void write_st(const char *rel, const st_t *ts, size_t n, const st_opts *o) {
    tfs_st_wentry e[16];
    tfs_st_wmeta m[8];
    tfs_st_model model = tfs_test_st_model(ts, n, o ? o->meta : NULL, e, m);
    model.pad_to = o ? o->pad_to : 0;
    model.trailing_ws = o ? o->trailing_ws : NULL;
    model.data_fill = 0x11;
    if (o && o->corrupt) {
        model.header_size_set = 1;
        model.header_size = 1u << 20;
    }
    if (o && o->short_data) { /* a first write gives the data section's size: what follows the JSON field */
        tfs_wbuf w0;
        tfs_wbuf_init(&w0);
        const tfs_field *js = tfs_st_write(&model, &w0) == TFS_OK ? tfs_wbuf_find(&w0, TFS_FIELD_JSON, -1, 0) : NULL;
        uint64_t data_start = js ? js->offset + js->width : w0.size;
        if (w0.size < data_start + 16) {
            fprintf(stderr, "lint_mkfiles: %s: no 16 data bytes to leave out\n", rel);
            g_rc = 1;
        } else {
            model.data_len_set = 1;
            model.data_len = w0.size - data_start - 16;
        }
        tfs_wbuf_free(&w0);
    }
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    if (tfs_st_write(&model, &w) != TFS_OK) {
        fprintf(stderr, "lint_mkfiles: tfs_st_write %s failed\n", rel);
        g_rc = 1;
    }
    save(&w, rel);
}

/* The MLX layer: 64 x 64 at 4 bits, group size 32. */
#define L "model.layers.0.mlp.up_proj"
static const char *const q_meta[] = {"format", "mlx", "quantization", "{\"group_size\": 32, \"bits\": 4}", NULL};

static void mlx_file(const char *id, const char *expect, const char *desc, const st_t *ts, size_t n,
                     const char *const *meta) {
    char rel[256];
    snprintf(rel, sizeof rel, "files/%s.safetensors", id);
    st_opts o = {.meta = meta};
    write_st(rel, ts, n, &o);
    out_case(id, rel, "file", expect, desc);
}

static void mlx_files(void) {
    const st_t ok[] = {
        {L ".weight", TFS_ST_U32, 2, {64, 8}},
        {L ".scales", TFS_ST_F16, 2, {64, 2}},
        {L ".biases", TFS_ST_F16, 2, {64, 2}},
        {"model.norm.weight", TFS_ST_F16, 1, {64}},
    };
    mlx_file("mlx-q4-g32", "none", "MLX 4-bit group 32: weight U32 [64,8], scales/biases F16 [64,2]", ok, 4, q_meta);
    static const char *const bits7[] = {"format", "mlx", "quantization", "{\"group_size\": 32, \"bits\": 7}", NULL};
    mlx_file("LT201-mlx-bits-7", "LT201", "quantization bits 7 (MLX: 2,3,4,5,6,8)", ok, 4, bits7);
    const st_t noscales[] = {{L ".weight", TFS_ST_U32, 2, {64, 8}}, {"model.norm.weight", TFS_ST_F16, 1, {64}}};
    mlx_file("LT202-mlx-no-scales", "LT202", "U32 packed weight without .scales or .biases", noscales, 2, q_meta);
    mlx_file("LT203-mlx-no-biases", "LT203", "affine weight with .scales but no .biases", ok, 2, q_meta);
    static const char *const mx[] = {"format", "mlx", "quantization",
                                     "{\"group_size\": 32, \"bits\": 4, \"mode\": \"mxfp4\"}", NULL};
    const st_t mxb[] = {
        {L ".weight", TFS_ST_U32, 2, {64, 8}},
        {L ".scales", TFS_ST_U8, 2, {64, 2}},
        {L ".biases", TFS_ST_F16, 2, {64, 2}},
    };
    mlx_file("LT204-mlx-mxfp4-biases", "LT204", "mode mxfp4 (no biases) with .biases", mxb, 3, mx);
    mlx_file("mlx-mxfp4", "none", "mode mxfp4: weight U32 [64,8], scales U8 [64,2], no biases", mxb, 2, mx);
    const st_t badscales[] = {
        {L ".weight", TFS_ST_U32, 2, {64, 8}},
        {L ".scales", TFS_ST_F16, 2, {64, 3}},
        {L ".biases", TFS_ST_F16, 2, {64, 2}},
    };
    mlx_file("LT205-mlx-scales-shape", "LT205", ".scales [64,3], expected [64,2] (4 bits, group 32)", badscales, 3,
             q_meta);
    const st_t badbiases[] = {
        {L ".weight", TFS_ST_U32, 2, {64, 8}},
        {L ".scales", TFS_ST_F16, 2, {64, 2}},
        {L ".biases", TFS_ST_F16, 2, {64, 1}},
    };
    mlx_file("LT206-mlx-biases-shape", "LT206", ".biases [64,1], .scales [64,2]", badbiases, 3, q_meta);
    const st_t u8scales[] = {
        {L ".weight", TFS_ST_U32, 2, {64, 8}},
        {L ".scales", TFS_ST_U8, 2, {64, 2}},
        {L ".biases", TFS_ST_U8, 2, {64, 2}},
    };
    mlx_file("LT207-mlx-scales-u8", "LT207", "affine .scales and .biases U8 (not a float dtype)", u8scales, 3, q_meta);
    const st_t orphan[] = {
        {"model.norm.weight", TFS_ST_F16, 1, {64}},
        {"model.norm.scales", TFS_ST_F16, 1, {2}},
    };
    mlx_file("LT208-mlx-orphan-scales", "LT208", ".scales beside an F16 weight (not packed)", orphan, 2, q_meta);
    static const char *const g128[] = {"format", "mlx", "quantization", "{\"group_size\": 128, \"bits\": 4}", NULL};
    mlx_file("LT209-mlx-group-128", "LT209", "group size 128 does not divide the row of 64 values", ok, 3, g128);
    static const char *const bare[] = {"format", "mlx", NULL};
    mlx_file("LT210-mlx-inferred", "LT210", "no quantization given: bits and group size inferred", ok, 4, bare);
}

static void st_files(void) {
    const st_t u8[] = {{"a", TFS_ST_U8, 1, {3}}};
    st_opts o1 = {.pad_to = 1};
    write_st("files/LT301-st-header-unpadded.safetensors", u8, 1, &o1);
    out_case("LT301-st-header-unpadded", "files/LT301-st-header-unpadded.safetensors", "file", "LT301",
             "header of 8 + N bytes not a multiple of 8 (no padding)");
    st_opts o2 = {.trailing_ws = "\t"};
    write_st("files/LT302-st-padding-tab.safetensors", u8, 1, &o2);
    out_case("LT302-st-padding-tab", "files/LT302-st-padding-tab.safetensors", "file", "LT302",
             "a tab after the JSON, then spaces");
    const st_t mis[] = {{"a", TFS_ST_U8, 1, {3}}, {"b", TFS_ST_F32, 1, {2}}};
    write_st("files/LT303-st-f32-misaligned.safetensors", mis, 2, NULL);
    out_case("LT303-st-f32-misaligned", "files/LT303-st-f32-misaligned.safetensors", "file", "LT303",
             "F32 tensor at data offset 3");
    static const char *const torch[] = {"format", "torch", NULL};
    st_opts o4 = {.meta = torch};
    write_st("files/LT304-st-format-torch.safetensors", u8, 1, &o4);
    out_case("LT304-st-format-torch", "files/LT304-st-format-torch.safetensors", "file", "LT304",
             "__metadata__ format \"torch\" (transformers knows pt, tf, flax, mlx)");
    const st_t f32[] = {{"w", TFS_ST_F32, 2, {2, 2}}};
    static const char *const pt[] = {"format", "pt", NULL};
    st_opts o5 = {.meta = pt};
    write_st("files/st-pt.safetensors", f32, 1, &o5);
    out_case("st-pt", "files/st-pt.safetensors", "file", "none", "padded header, aligned F32, format pt");
}

/* ------------------------------------------------------------------- GGUF */

enum {
    GF_NO_ARCH = 1 << 0,
    GF_ARCH_U32 = 1 << 1,
    GF_ALIGN_4 = 1 << 2,
    GF_SCORES_U8 = 1 << 3,
    GF_SCORES_SHORT = 1 << 4,
    GF_BOS_99 = 1 << 5,
    GF_BLOCKS_U64 = 1 << 6,
    GF_BLOCKS_600 = 1 << 7,
    GF_BLK_5 = 1 << 8,
    GF_NO_BLOCKS = 1 << 9,
    GF_FTYPE_99 = 1 << 10,
    GF_FTYPE_Q6K = 1 << 11,
    GF_PAD_5A = 1 << 12, /* every padding byte 0x5a (LT114) */
};

#define N_TOK 6
static const char *const toks[N_TOK] = {"<unk>", "<s>", "</s>", "a", "b", "ab"};

typedef struct split_kv {
    int part;      /* 0-based part, -1: not a split */
    int count_kv;  /* split.count written */
    int no_kv;     /* split.no written */
    int tcount_kv; /* split.tensors.count written */
    int meta;      /* model metadata in this part */
} split_kv;

/* Tensors of the model: token_embd q8_0 [64, 6], blk.0/1 attn_q q4_0 [64, 64],
 * output_norm f32 [64]; `pick` selects a subset (bit i = tensor i). */
/* Bytes no structure owns (LT113, LT114): `trailing` bytes 0x7f after the
 * padded data section; with poke, the first (or last) byte of the writer's
 * field (kind, record) set to 0x01.  embd_second: token_embd (the one tensor
 * whose data is padded) written second, at data offset 2304, after blk.0. */
typedef struct gg_bytes {
    size_t trailing;
    int poke, last, embd_second;
    uint32_t kind;
    int32_t record;
} gg_bytes;

static void write_gguf(const char *rel, unsigned flags, const split_kv *sp, unsigned pick, const gg_bytes *by) {
    tfs_gg_wkv kv[32];
    size_t n = 0;
    tfs_wstr s_arch = tfs_wstr_c("llama"), s_name = tfs_wstr_c("tfs lint fixture"), s_model = tfs_wstr_c("llama");
    tfs_wstr tok[N_TOK];
    for (int i = 0; i < N_TOK; i++) tok[i] = tfs_wstr_c(toks[i]);
    float scores[N_TOK] = {0, 0, 0, -1, -2, -3};
    uint8_t scores_le[4 * N_TOK], scores_u8[N_TOK] = {0, 0, 0, 1, 2, 3};
    int32_t ttype[N_TOK] = {2, 3, 3, 1, 1, 1};
    uint8_t ttype_le[4 * N_TOK];
    for (int i = 0; i < N_TOK; i++) {
        uint32_t b;
        memcpy(&b, &scores[i], 4);
        for (int k = 0; k < 4; k++)
            scores_le[4 * i + k] = (uint8_t)(b >> (8 * k)),
                              ttype_le[4 * i + k] = (uint8_t)((uint32_t)ttype[i] >> (8 * k));
    }
    int meta = !sp || sp->meta;
    if (meta) {
        if (flags & GF_ARCH_U32)
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("general.architecture"), tfs_gg_wval_scalar(TFS_GG_U32, 1)};
        else if (!(flags & GF_NO_ARCH))
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&s_arch)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("general.name"), tfs_gg_wval_str(&s_name)};
        kv[n++] =
            (tfs_gg_wkv){tfs_wstr_c("general.file_type"), tfs_gg_wval_scalar(TFS_GG_U32, flags & GF_FTYPE_99    ? 99
                                                                                         : flags & GF_FTYPE_Q6K ? 18
                                                                                                                : 2)};
        if (flags & GF_ALIGN_4)
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("general.alignment"), tfs_gg_wval_scalar(TFS_GG_U32, 4)};
        if (flags & GF_BLOCKS_U64)
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("llama.block_count"), tfs_gg_wval_scalar(TFS_GG_U64, 2)};
        else if (!(flags & GF_NO_BLOCKS))
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("llama.block_count"),
                                   tfs_gg_wval_scalar(TFS_GG_U32, flags & GF_BLOCKS_600 ? 600 : 2)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("llama.context_length"), tfs_gg_wval_scalar(TFS_GG_U32, 128)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("llama.embedding_length"), tfs_gg_wval_scalar(TFS_GG_U32, 64)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("llama.attention.head_count"), tfs_gg_wval_scalar(TFS_GG_U32, 4)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.model"), tfs_gg_wval_str(&s_model)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.tokens"), tfs_gg_wval_str_array(tok, N_TOK)};
        if (flags & GF_SCORES_U8)
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.scores"),
                                   tfs_gg_wval_array(TFS_GG_U8, N_TOK, scores_u8, N_TOK)};
        else
            kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.scores"),
                                   tfs_gg_wval_array(TFS_GG_F32, flags & GF_SCORES_SHORT ? N_TOK - 2 : N_TOK, scores_le,
                                                     flags & GF_SCORES_SHORT ? 4 * (N_TOK - 2) : 4 * N_TOK)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.token_type"),
                               tfs_gg_wval_array(TFS_GG_I32, N_TOK, ttype_le, 4 * N_TOK)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.bos_token_id"),
                               tfs_gg_wval_scalar(TFS_GG_U32, flags & GF_BOS_99 ? 99 : 1)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.eos_token_id"), tfs_gg_wval_scalar(TFS_GG_U32, 2)};
    }
    if (sp && sp->part >= 0) {
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("split.no"), tfs_gg_wval_scalar(TFS_GG_U16, (uint64_t)sp->no_kv)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("split.count"), tfs_gg_wval_scalar(TFS_GG_U16, (uint64_t)sp->count_kv)};
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c("split.tensors.count"),
                               tfs_gg_wval_scalar(TFS_GG_I32, (uint64_t)(uint32_t)sp->tcount_kv)};
    }
    tfs_gg_wtensor all[4] = {
        {.name = tfs_wstr_c("token_embd.weight"), .n_dims = 2, .ne = {64, N_TOK}, .type = 8},
        {.name = tfs_wstr_c("blk.0.attn_q.weight"), .n_dims = 2, .ne = {64, 64}, .type = 2},
        {.name = tfs_wstr_c(flags & GF_BLK_5 ? "blk.5.attn_q.weight" : "blk.1.attn_q.weight"),
         .n_dims = 2,
         .ne = {64, 64},
         .type = 2},
        {.name = tfs_wstr_c("output_norm.weight"), .n_dims = 1, .ne = {64}, .type = 0},
    };
    tfs_gg_wtensor t[4];
    size_t nt = 0;
    static const uint8_t zeros[4096]; /* poked data must be bytes, not a hole */
    static const int order[4] = {0, 1, 2, 3}, embd_second[4] = {1, 0, 2, 3};
    for (int j = 0; j < 4; j++) {
        int i = by && by->embd_second ? embd_second[j] : order[j];
        if (pick & (1u << i)) {
            t[nt] = all[i];
            if (by && by->poke) t[nt].data = zeros;
            nt++;
        }
    }
    tfs_gg_model m = {
        .version = 3, .kv = kv, .n_kv = n, .tensors = t, .n_tensors = nt, .pad_byte = flags & GF_PAD_5A ? 0x5a : 0};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    if (tfs_gg_write(&m, &w) != TFS_OK || (by && by->trailing && tfs_wbuf_fill(&w, 0x7f, by->trailing) != TFS_OK)) {
        fprintf(stderr, "lint_mkfiles: tfs_gg_write %s failed\n", rel);
        g_rc = 1;
    }
    if (by && by->poke) {
        const tfs_field *f = tfs_wbuf_find(&w, by->kind, by->record, 0);
        uint8_t *b = f && f->width >= 2 ? tfs_wbuf_at(&w, f->offset + (by->last ? f->width - 1 : 0), 1) : NULL;
        if (!b) {
            fprintf(stderr, "lint_mkfiles: %s: field %u of record %d is not 2 or more written bytes\n", rel,
                    (unsigned)by->kind, (int)by->record);
            g_rc = 1;
        } else {
            *b = 0x01;
        }
    }
    save(&w, rel);
}

static void gg_file(const char *id, unsigned flags, const char *expect, const char *desc) {
    char rel[256];
    snprintf(rel, sizeof rel, "files/%s.gguf", id);
    write_gguf(rel, flags, NULL, 0xf, NULL);
    out_case(id, rel, "file", expect, desc);
}

/* gguf-q4_0 (every KV, 4 tensors) with bytes no structure owns */
static void gg_bytes_file(const char *id, gg_bytes by, const char *expect, const char *desc) {
    char rel[256];
    snprintf(rel, sizeof rel, "files/%s.gguf", id);
    write_gguf(rel, 0, NULL, 0xf, &by);
    out_case(id, rel, "file", expect, desc);
}

static void gg_files(void) {
    gg_file("gguf-q4_0", 0, "none", "quantized llama GGUF: q8_0 token_embd, q4_0 blk.0/1, f32 norm, 6 tokens");
    gg_file("LT101-gguf-no-arch", GF_NO_ARCH, "LT101", "no general.architecture");
    gg_file("LT102-gguf-arch-u32", GF_ARCH_U32, "LT102", "general.architecture is a u32");
    gg_file("LT103-gguf-alignment-4", GF_ALIGN_4, "LT103", "general.alignment = 4");
    gg_file("LT104-gguf-scores-u8", GF_SCORES_U8, "LT104", "tokenizer.ggml.scores is an array of u8");
    gg_file("LT105-gguf-scores-short", GF_SCORES_SHORT, "LT105", "4 scores for 6 tokens");
    gg_file("LT106-gguf-bos-99", GF_BOS_99, "LT106", "bos_token_id 99 of 6 tokens");
    gg_file("LT107-gguf-block-count-u64", GF_BLOCKS_U64, "LT107", "llama.block_count is a u64");
    gg_file("LT108-gguf-block-count-600", GF_BLOCKS_600, "LT108", "llama.block_count = 600 (> 512)");
    gg_file("LT109-gguf-blk-5", GF_BLK_5, "LT109", "tensor blk.5.attn_q.weight with block_count 2");
    gg_file("LT110-gguf-no-block-count", GF_NO_BLOCKS, "LT110", "blk.N tensors, no llama.block_count");
    gg_file("LT111-gguf-file-type-99", GF_FTYPE_99, "LT111", "general.file_type = 99");
    gg_file("LT112-gguf-file-type-q6_k", GF_FTYPE_Q6K, "LT112", "general.file_type Q6_K, no q6_K tensor");
    gg_bytes_file("LT113-gguf-trailing-100", (gg_bytes){.trailing = 100}, "LT113",
                  "100 bytes after the padded data section");
    /* the tail at 1, alignment - 1 and the alignment (32) */
    gg_bytes_file("LT113-gguf-trailing-1", (gg_bytes){.trailing = 1}, "LT113", "1 byte after the padded data section");
    gg_bytes_file("LT113-gguf-trailing-31", (gg_bytes){.trailing = 31}, "LT113",
                  "31 bytes after the padded data section");
    gg_bytes_file("LT113-gguf-trailing-32", (gg_bytes){.trailing = 32}, "LT113",
                  "32 bytes after the padded data section");
    gg_file("LT114-gguf-padding-5a", GF_PAD_5A, "LT114", "every padding byte 0x5a (before the data, after a tensor)");
    /* one byte 0x01 at each end of each padding, and the data bytes beside them (not padding) */
    gg_bytes_file("LT114-gguf-pad-header-first", (gg_bytes){.poke = 1, .kind = TFS_FIELD_PADDING, .record = -1},
                  "LT114", "the first byte of the padding before the data section is 0x01");
    gg_bytes_file("LT114-gguf-pad-header-last",
                  (gg_bytes){.poke = 1, .last = 1, .kind = TFS_FIELD_PADDING, .record = -1}, "LT114",
                  "the last byte of the padding before the data section is 0x01");
    gg_bytes_file("LT114-gguf-pad-data-first", (gg_bytes){.poke = 1, .kind = TFS_FIELD_DATA_PADDING, .record = 0},
                  "LT114", "the first padding byte after token_embd.weight's data is 0x01");
    gg_bytes_file("LT114-gguf-pad-data-last",
                  (gg_bytes){.poke = 1, .last = 1, .kind = TFS_FIELD_DATA_PADDING, .record = 0}, "LT114",
                  "the last padding byte after token_embd.weight's data is 0x01");
    gg_bytes_file("gguf-data-first-byte", (gg_bytes){.poke = 1, .kind = TFS_FIELD_DATA, .record = 0}, "none",
                  "the first data byte (after the header padding) is 0x01: data, not padding");
    gg_bytes_file("gguf-data-last-byte-before-pad",
                  (gg_bytes){.poke = 1, .last = 1, .kind = TFS_FIELD_DATA, .record = 0}, "none",
                  "token_embd.weight's last data byte (before its padding) is 0x01");
    gg_bytes_file("gguf-data-first-byte-after-pad", (gg_bytes){.poke = 1, .kind = TFS_FIELD_DATA, .record = 1}, "none",
                  "blk.0.attn_q.weight's first data byte (after token_embd.weight's padding) is 0x01");
    /* the padded tensor at a data offset > 0 (record 1): its padding is found from its own offset */
    gg_bytes_file("gguf-embd-second", (gg_bytes){.embd_second = 1}, "none",
                  "token_embd.weight written second (data offset 2304, 8 padding bytes after it), all padding zero");
    gg_bytes_file("LT114-gguf-pad-data-second-first",
                  (gg_bytes){.embd_second = 1, .poke = 1, .kind = TFS_FIELD_DATA_PADDING, .record = 1}, "LT114",
                  "token_embd.weight written second (data offset 2304): the first padding byte after its data is 0x01");
    gg_bytes_file("LT114-gguf-pad-data-second-last",
                  (gg_bytes){.embd_second = 1, .poke = 1, .last = 1, .kind = TFS_FIELD_DATA_PADDING, .record = 1},
                  "LT114",
                  "token_embd.weight written second (data offset 2304): the last padding byte after its data is 0x01");
    gg_bytes_file(
        "gguf-embd-second-data-after-pad", (gg_bytes){.embd_second = 1, .poke = 1, .kind = TFS_FIELD_DATA, .record = 2},
        "none", "token_embd.weight written second: blk.1.attn_q.weight's first data byte (after that padding) is 0x01");
}

/* ------------------------------------------------------------------ sets */

/* safetensors: 3 shards; shard k holds tensors of `sh[k]` (names), index
 * from `map` (name -> shard number 1..3), total_size given. */
typedef struct st_set {
    const char *id, *expect, *desc;
    int missing;     /* shard number not written (0: none) */
    int corrupt;     /* shard number written invalid */
    int short_data;  /* shard number written with its data 16 bytes short (its header parses) */
    int wrong;       /* tensor "c" written in shard 3, the index says 2 */
    int twice;       /* tensor "b" also in shard 2 */
    int twice_f32;   /* ... as F32 */
    int extra;       /* shard 3 holds "z", not in the index */
    long long total; /* metadata.total_size; -1: no metadata; -2: the right value */
    int no_weight_map;
    int dot_names; /* the index names each shard two ways: "./x" (".//x", "././x") for its first tensor, "x" */
} st_set;

static void st_set_write(const st_set *s) {
    char rel[512], dir[256];
    snprintf(dir, sizeof dir, "sets/%s", s->id);
    mkdir_rel(dir);
    /* a, b: shard 1; c, d: shard 2; e, f: shard 3; F16 [4, 4] = 32 bytes each */
    const char *names[3][3] = {{"a", "b", NULL}, {"c", "d", NULL}, {"e", "f", NULL}};
    for (int k = 0; k < 3; k++) {
        st_t ts[4];
        size_t n = 0;
        for (int i = 0; names[k][i]; i++) {
            if (s->wrong && k == 1 && strcmp(names[k][i], "c") == 0) continue;
            ts[n++] = (st_t){names[k][i], TFS_ST_F16, 2, {4, 4}};
        }
        if (s->wrong && k == 2) ts[n++] = (st_t){"c", TFS_ST_F16, 2, {4, 4}};
        if (s->twice && k == 1) ts[n++] = (st_t){"b", s->twice_f32 ? TFS_ST_F32 : TFS_ST_F16, 2, {4, 4}};
        if (s->extra && k == 2) ts[n++] = (st_t){"z", TFS_ST_F16, 2, {4, 4}};
        snprintf(rel, sizeof rel, "%s/model-%05d-of-00003.safetensors", dir, k + 1);
        if (s->missing == k + 1) continue;
        static const char *const pt[] = {"format", "pt", NULL};
        st_opts o = {.meta = pt, .corrupt = s->corrupt == k + 1, .short_data = s->short_data == k + 1};
        write_st(rel, ts, n, &o);
        char pid[300];
        snprintf(pid, sizeof pid, "%s/%d", s->id, k + 1);
        out_case(pid, rel, "part", "-", "a shard of the set");
    }
    /* the right total_size: each tensor the index names once (a duplicate or a
     * tensor it does not name is not the writer's total) */
    uint64_t named = 6u * 32u;
    char idx[2048];
    size_t o = 0;
    if (s->total == -1)
        o += (size_t)snprintf(idx + o, sizeof idx - o, "{\n");
    else
        o += (size_t)snprintf(idx + o, sizeof idx - o, "{\n  \"metadata\": {\n    \"total_size\": %llu\n  },\n",
                              s->total == -2 ? (unsigned long long)named : (unsigned long long)s->total);
    if (s->no_weight_map) {
        o += (size_t)snprintf(idx + o, sizeof idx - o, "  \"weights\": {}\n}\n");
    } else {
        o += (size_t)snprintf(idx + o, sizeof idx - o, "  \"weight_map\": {\n");
        static const char *const dots[3] = {"./", ".//", "././"};
        for (int k = 0; k < 3; k++)
            for (int i = 0; names[k][i]; i++)
                o += (size_t)snprintf(idx + o, sizeof idx - o, "    \"%s\": \"%smodel-%05d-of-00003.safetensors\"%s\n",
                                      names[k][i], s->dot_names && i == 0 ? dots[k] : "", k + 1,
                                      k == 2 && names[k][i + 1] == NULL ? "" : ",");
        o += (size_t)snprintf(idx + o, sizeof idx - o, "  }\n}\n");
    }
    snprintf(rel, sizeof rel, "%s/model.safetensors.index.json", dir);
    save_text(rel, idx);
    out_case(s->id, rel, "set", s->expect, s->desc);
}

static void st_sets(void) {
    static const st_set sets[] = {
        {"st-set-ok", "none", "3 shards, 6 F16 tensors, index and total_size right", .total = -2},
        {"st-set-dot-names", "none",
         "the index names each shard as ./x, .//x or ././x and as x: one file (os.path.join and open resolve them "
         "alike)",
         .total = -2, .dot_names = 1},
        {"SET001-st-no-weight-map", "SET001", "index without weight_map", .total = -2, .no_weight_map = 1},
        {"SET002-st-shard-missing", "SET002", "shard 2 of 3 missing", .missing = 2, .total = 128},
        {"SET003-st-shard-invalid", "SET003", "shard 2 has a wrong header size (ST rule)", .corrupt = 2, .total = -2},
        {"SET003-st-shard-data-short", "SET003",
         "shard 3 (e, f and z, which the index does not name) parses but its data is 16 bytes short (ST308): none of "
         "its tensors counts, so no SET008 for z",
         .short_data = 3, .extra = 1, .total = -2},
        {"SET004-st-wrong-shard", "SET004", "tensor c in shard 3, the index says shard 2", .wrong = 1, .total = -2},
        {"SET005-st-two-shards", "SET005", "tensor b in shards 1 and 2", .twice = 1, .total = -2},
        {"SET006-st-dtype-differs", "SET005,SET006", "tensor b F16 in shard 1, F32 in shard 2", .twice = 1,
         .twice_f32 = 1, .total = -2},
        {"SET007-st-total-size", "SET007", "metadata.total_size 100, tensors hold 192 bytes", .total = 100},
        {"SET008-st-unlisted-tensor", "SET008", "shard 3 holds z, the index does not", .extra = 1, .total = -2},
        {"SET009-st-no-total-size", "SET009", "index without metadata", .total = -1},
        {"SET-st-three-errors", "SET002,SET004,SET007",
         "shard 1 missing, tensor c in the wrong shard, total_size 1: three set errors", .missing = 1, .wrong = 1,
         .total = 1},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) st_set_write(&sets[i]);
}

/* An MLX quantized model in 3 shards: the weight in shard 1, its scales in
 * shard 2, its biases in shard 3 (mlx-lm cuts shards by size, so a layer's
 * parts may be split), the quantization in config.json beside them. */
static void mlx_set(const char *id, const char *expect, const char *desc, uint64_t scales_cols) {
    char dir[256], rel[512];
    snprintf(dir, sizeof dir, "sets/%s", id);
    mkdir_rel(dir);
    const st_t parts[3][2] = {
        {{L ".weight", TFS_ST_U32, 2, {64, 8}}, {"model.norm.weight", TFS_ST_F16, 1, {64}}},
        {{L ".scales", TFS_ST_F16, 2, {64, scales_cols}}, {"lm_head.weight", TFS_ST_F16, 2, {6, 64}}},
        {{L ".biases", TFS_ST_F16, 2, {64, 2}}, {"model.embed_tokens.weight", TFS_ST_F16, 2, {6, 64}}},
    };
    static const char *const meta[] = {"format", "mlx", NULL};
    uint64_t total = 0;
    char idx[2048];
    size_t o = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 2; i++) {
            uint64_t ne = parts[k][i].nd == 1 ? parts[k][i].shape[0] : parts[k][i].shape[0] * parts[k][i].shape[1];
            total += ne * (tfs_st_dtype_bits(parts[k][i].dtype) / 8u);
        }
    o += (size_t)snprintf(idx + o, sizeof idx - o,
                          "{\n  \"metadata\": {\n    \"total_size\": %llu\n  },\n  \"weight_map\": {\n",
                          (unsigned long long)total);
    for (int k = 0; k < 3; k++) {
        st_opts so = {.meta = meta};
        snprintf(rel, sizeof rel, "%s/model-%05d-of-00003.safetensors", dir, k + 1);
        write_st(rel, parts[k], 2, &so);
        char pid[300];
        snprintf(pid, sizeof pid, "%s/%d", id, k + 1);
        out_case(pid, rel, "part", "-", "a shard of the set");
        for (int i = 0; i < 2; i++)
            o += (size_t)snprintf(idx + o, sizeof idx - o, "    \"%s\": \"model-%05d-of-00003.safetensors\"%s\n",
                                  parts[k][i].name, k + 1, k == 2 && i == 1 ? "" : ",");
    }
    o += (size_t)snprintf(idx + o, sizeof idx - o, "  }\n}\n");
    snprintf(rel, sizeof rel, "%s/model.safetensors.index.json", dir);
    save_text(rel, idx);
    snprintf(rel, sizeof rel, "%s/config.json", dir);
    save_text(
        rel,
        "{\n  \"model_type\": \"llama\",\n  \"quantization\": {\n    \"group_size\": 32,\n    \"bits\": 4\n  }\n}\n");
    char pid[300];
    snprintf(pid, sizeof pid, "%s/config", id);
    out_case(pid, rel, "part", "-", "config.json of the set");
    snprintf(rel, sizeof rel, "%s/model.safetensors.index.json", dir);
    out_case(id, rel, "set", expect, desc);
}

/* GGUF split in 3 parts: part 1 token_embd + metadata, part 2 blk.0 and
 * blk.1, part 3 output_norm. */
typedef struct gg_set {
    const char *id, *expect, *desc;
    int missing;   /* part number not written */
    int bad_count; /* part number with split.count 4 */
    int bad_no;    /* part number with split.no off by one */
    int bad_total; /* split.tensors.count 5 in every part */
    int meta_in;   /* part number (> 1) that also carries the metadata */
    int dup;       /* output_norm also in part 2 */
} gg_set;

static void gg_set_write(const gg_set *s) {
    char dir[256], rel[512];
    snprintf(dir, sizeof dir, "sets/%s", s->id);
    mkdir_rel(dir);
    static const unsigned pick[3] = {0x1, 0x6, 0x8};
    for (int k = 0; k < 3; k++) {
        if (s->missing == k + 1) continue;
        split_kv sp = {.part = k,
                       .count_kv = s->bad_count == k + 1 ? 4 : 3,
                       .no_kv = s->bad_no == k + 1 ? k + 1 : k,
                       .tcount_kv = s->bad_total ? 5 : 4 + (s->dup ? 1 : 0),
                       .meta = k == 0 || s->meta_in == k + 1};
        snprintf(rel, sizeof rel, "%s/model-%05d-of-00003.gguf", dir, k + 1);
        write_gguf(rel, 0, &sp, pick[k] | (s->dup && k == 1 ? 0x8u : 0u), NULL);
        char pid[300];
        snprintf(pid, sizeof pid, "%s/%d", s->id, k + 1);
        out_case(pid, rel, k == 0 ? "part" : "part", "-", "a part of the split");
    }
    snprintf(rel, sizeof rel, "%s/model-00001-of-00003.gguf", dir);
    out_case(s->id, rel, "set", s->expect, s->desc);
}

static void gg_sets(void) {
    static const gg_set sets[] = {
        {"gg-split-ok", "none", "quantized GGUF split in 3 parts, split.* right, metadata in part 1", .missing = 0},
        {"SET002-gg-part-missing", "SET002", "part 2 of 3 missing", .missing = 2},
        {"SET101-gg-split-count", "SET101", "part 2 says split.count 4", .bad_count = 2},
        {"SET102-gg-split-no", "SET102", "part 3 says split.no 3 (expected 2)", .bad_no = 3},
        {"SET103-gg-tensors-count", "SET103", "split.tensors.count 5, the parts hold 4", .bad_total = 1},
        {"SET104-gg-metadata-in-part-2", "SET104", "part 2 carries the model metadata too", .meta_in = 2},
        {"SET005-gg-duplicate", "SET005", "output_norm.weight in parts 2 and 3", .dup = 1},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) gg_set_write(&sets[i]);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: lint_mkfiles DIR\n");
        return 2;
    }
    g_dir = argv[1];
    mkdir_rel("files");
    mkdir_rel("sets");
    mlx_files();
    st_files();
    gg_files();
    st_sets();
    mlx_set("mlx-set-q4", "none", "MLX 4-bit in 3 shards: weight, scales, biases in different shards; config.json", 2);
    mlx_set("LT205-mlx-set-scales-shape", "LT205", "MLX set: .scales [64,3] in shard 2, expected [64,2]", 3);
    gg_sets();
    return g_rc;
}
