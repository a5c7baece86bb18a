/*
 * gen_web_files.c: the GGUF files of the inspector's browser test
 * (tests/web/test_browser.js), written by the library's writer (tfs/write.h):
 *
 *   gen_web_files vocab N OUT  GGUF v3 of a tokenizer with N tokens:
 *                              tokenizer.ggml.tokens (N strings),
 *                              tokenizer.ggml.scores (N f32),
 *                              tokenizer.ggml.token_type (N i32), one f32
 *                              tensor token_embd.weight [64, 4]
 *   gen_web_files floats OUT   GGUF v3 whose f32 / f64 KV pairs (scalars
 *                              and one array of each) hold values that are
 *                              awkward to print: 0.1, the smallest
 *                              subnormal, the largest finite, -0.0, NaN,
 *                              +-infinity, 1/3
 *
 * Prints the path and its size in bytes.  Exit 0, 1 (cannot write), 2 (usage).
 */
#include "tfs/write.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VOCAB_MAX (1u << 24) /* tokens at most (16,777,216) */
#define TOKEN_MAX 24u        /* bytes per token name at most */

static int gen_vocab(tfs_wbuf *w, size_t n) {
    tfs_wstr *tok = malloc(n * sizeof *tok);
    char *text = malloc(n * TOKEN_MAX);
    uint8_t *scores = malloc(n * 4u), *types = malloc(n * 4u);
    int st = TFS_ENOMEM;
    if (!tok || !text || !scores || !types) goto out;
    static const char *special[3] = {"<unk>", "<s>", "</s>"};
    for (size_t i = 0; i < n; i++) {
        char *t = text + i * TOKEN_MAX;
        int len = i < 3 ? snprintf(t, TOKEN_MAX, "%s", special[i]) : snprintf(t, TOKEN_MAX, "tok_%zu", i);
        tok[i] = tfs_wstr_n(t, (size_t)len);
        float score = -(float)i / 4.0f; /* SentencePiece-like: decreasing */
        uint32_t bits, type = i < 3 ? 3u : 1u;
        memcpy(&bits, &score, 4);
        for (unsigned b = 0; b < 4; b++) {
            scores[i * 4 + b] = (uint8_t)(bits >> (8 * b));
            types[i * 4 + b] = (uint8_t)(type >> (8 * b));
        }
    }
    tfs_wstr arch = tfs_wstr_c("llama"), name = tfs_wstr_c("vocab test"), model = tfs_wstr_c("llama");
    tfs_gg_wkv kv[6] = {
        {tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&arch)},
        {tfs_wstr_c("general.name"), tfs_gg_wval_str(&name)},
        {tfs_wstr_c("tokenizer.ggml.model"), tfs_gg_wval_str(&model)},
        {tfs_wstr_c("tokenizer.ggml.tokens"), tfs_gg_wval_str_array(tok, n)},
        {tfs_wstr_c("tokenizer.ggml.scores"), tfs_gg_wval_array(TFS_GG_F32, n, scores, n * 4u)},
        {tfs_wstr_c("tokenizer.ggml.token_type"), tfs_gg_wval_array(TFS_GG_I32, n, types, n * 4u)},
    };
    tfs_gg_wtensor t = {.name = tfs_wstr_c("token_embd.weight"), .n_dims = 2, .ne = {64, 4}, .type = 0};
    tfs_gg_model m = {.version = 3, .n_kv = 6, .kv = kv, .n_tensors = 1, .tensors = &t};
    st = tfs_gg_write(&m, w);
out:
    free(tok);
    free(text);
    free(scores);
    free(types);
    return st;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes) {
    for (unsigned b = 0; b < bytes; b++) p[b] = (uint8_t)(v >> (8 * b));
}

static int gen_floats(tfs_wbuf *w) {
    enum { N = 8 };
    static const char *keys32[N] = {"test.f32.tenth", "test.f32.subnormal", "test.f32.max",  "test.f32.neg_zero",
                                    "test.f32.nan",   "test.f32.inf",       "test.f32.ninf", "test.f32.third"};
    static const char *keys64[N] = {"test.f64.tenth", "test.f64.subnormal", "test.f64.max",  "test.f64.neg_zero",
                                    "test.f64.nan",   "test.f64.inf",       "test.f64.ninf", "test.f64.third"};
    float f[N] = {0.1f, 1e-45f, 3.4028235e38f, -0.0f, NAN, INFINITY, -INFINITY, 1.0f / 3.0f};
    double d[N] = {0.1, 5e-324, 1.7976931348623157e308, -0.0, NAN, INFINITY, -INFINITY, 1.0 / 3.0};
    uint8_t raw32[N * 4], raw64[N * 8];
    tfs_gg_wkv kv[2 * N + 3];
    size_t k = 0;
    tfs_wstr arch = tfs_wstr_c("llama");
    kv[k++] = (tfs_gg_wkv){tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&arch)};
    for (unsigned i = 0; i < N; i++) {
        uint32_t b32;
        uint64_t b64;
        memcpy(&b32, &f[i], 4);
        memcpy(&b64, &d[i], 8);
        put_le(raw32 + 4 * i, b32, 4);
        put_le(raw64 + 8 * i, b64, 8);
        kv[k++] = (tfs_gg_wkv){tfs_wstr_c(keys32[i]), tfs_gg_wval_f32(f[i])};
        kv[k++] = (tfs_gg_wkv){tfs_wstr_c(keys64[i]), tfs_gg_wval_f64(d[i])};
    }
    kv[k++] = (tfs_gg_wkv){tfs_wstr_c("test.f32.array"), tfs_gg_wval_array(TFS_GG_F32, N, raw32, sizeof raw32)};
    kv[k++] = (tfs_gg_wkv){tfs_wstr_c("test.f64.array"), tfs_gg_wval_array(TFS_GG_F64, N, raw64, sizeof raw64)};
    tfs_gg_wtensor t = {.name = tfs_wstr_c("weight"), .n_dims = 1, .ne = {8}, .type = 0};
    tfs_gg_model m = {.version = 3, .n_kv = k, .kv = kv, .n_tensors = 1, .tensors = &t};
    return tfs_gg_write(&m, w);
}

static int usage(void) {
    fprintf(stderr, "usage: gen_web_files vocab N OUT | gen_web_files floats OUT\n");
    return 2;
}

int main(int argc, char **argv) {
    tfs_wbuf w = {0};
    const char *out;
    int st;
    if (argc == 4 && strcmp(argv[1], "vocab") == 0) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(argv[2], &end, 10);
        if (errno || *end || !*argv[2] || n < 3 || n > VOCAB_MAX) return usage();
        out = argv[3];
        st = gen_vocab(&w, (size_t)n);
    } else if (argc == 3 && strcmp(argv[1], "floats") == 0) {
        out = argv[2];
        st = gen_floats(&w);
    } else {
        return usage();
    }
    int err = 0;
    if (st == TFS_OK) st = tfs_wbuf_write_file(&w, out, &err);
    if (st != TFS_OK) {
        fprintf(stderr, "gen_web_files: %s: %s%s%s\n", out, tfs_status_name((tfs_status)st), err ? ": " : "",
                err ? strerror(err) : "");
        tfs_wbuf_free(&w);
        return 1;
    }
    printf("%s: %llu bytes\n", out, (unsigned long long)w.size);
    tfs_wbuf_free(&w);
    return 0;
}
