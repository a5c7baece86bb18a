/*
 * gen_sparse.c: write the sparse files of bench/sparse.sh with the library's
 * writer (tfs/write.h); large tensor data and string bodies are holes, so a
 * file declaring 100 GiB takes a few KB on disk.
 *
 *   gen_sparse st OUT              safetensors: 100 F16 tensors [8192, 65536]
 *                                  (1 GiB each), packed, __metadata__ format=pt
 *   gen_sparse gguf OUT            GGUF v3: general.architecture = "llama",
 *                                  100 f16 tensors ne = [65536, 8192]
 *   gen_sparse gguf-strings N LEN OUT
 *                                  GGUF v3: an array KV tokenizer.ggml.tokens of
 *                                  N strings of LEN bytes each (holes), one
 *                                  f32 tensor; declares N * LEN bytes of strings
 */
#include "tfs/write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GiB (UINT64_C(1) << 30)
#define N_BIG 100u

static int gen_st(tfs_wbuf *w) {
    static char names[N_BIG][32];
    static const uint64_t shape[2] = {8192, 65536};
    tfs_st_wentry e[N_BIG];
    for (unsigned i = 0; i < N_BIG; i++) {
        int n = snprintf(names[i], sizeof names[i], "model.layers.%u.weight", i);
        e[i] =
            (tfs_st_wentry){.name = tfs_wstr_n(names[i], (size_t)n), .dtype = TFS_ST_F16, .n_dims = 2, .shape = shape};
    }
    tfs_st_wmeta meta = {.key = tfs_wstr_c("format"), .value = tfs_wstr_c("pt")};
    tfs_st_model m = {.n_entries = N_BIG, .entries = e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &meta};
    return tfs_st_write(&m, w);
}

static int gen_gguf(tfs_wbuf *w) {
    static char names[N_BIG][32];
    tfs_gg_wtensor t[N_BIG];
    for (unsigned i = 0; i < N_BIG; i++) {
        int n = snprintf(names[i], sizeof names[i], "blk.%u.weight", i);
        t[i] = (tfs_gg_wtensor){.name = tfs_wstr_n(names[i], (size_t)n), .n_dims = 2, .ne = {65536, 8192}, .type = 1};
    }
    tfs_wstr arch = tfs_wstr_c("llama");
    tfs_gg_wkv kv = {tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&arch)};
    tfs_gg_model m = {.version = 3, .n_kv = 1, .kv = &kv, .n_tensors = N_BIG, .tensors = t};
    return tfs_gg_write(&m, w);
}

static int gen_gguf_strings(tfs_wbuf *w, uint64_t n, uint64_t len) {
    if (n > SIZE_MAX / sizeof(tfs_wstr)) return TFS_EARG;
    tfs_wstr *s = malloc((size_t)(n ? n : 1) * sizeof *s);
    if (!s) return TFS_ENOMEM;
    for (uint64_t i = 0; i < n; i++) s[i] = tfs_wstr_hole(len);
    tfs_wstr arch = tfs_wstr_c("llama");
    tfs_gg_wkv kv[2] = {
        {tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&arch)},
        {tfs_wstr_c("tokenizer.ggml.tokens"), tfs_gg_wval_str_array(s, (size_t)n)},
    };
    tfs_gg_wtensor t = {.name = tfs_wstr_c("token_embd.weight"), .n_dims = 2, .ne = {64, 4}, .type = 0};
    tfs_gg_model m = {.version = 3, .n_kv = 2, .kv = kv, .n_tensors = 1, .tensors = &t};
    int st = tfs_gg_write(&m, w);
    free(s);
    return st;
}

static int usage(void) {
    fprintf(stderr, "usage: gen_sparse st OUT | gen_sparse gguf OUT | gen_sparse gguf-strings N LEN OUT\n");
    return 2;
}

int main(int argc, char **argv) {
    tfs_wbuf w = {0};
    const char *out;
    int st;
    if (argc == 3 && strcmp(argv[1], "st") == 0) {
        out = argv[2];
        st = gen_st(&w);
    } else if (argc == 3 && strcmp(argv[1], "gguf") == 0) {
        out = argv[2];
        st = gen_gguf(&w);
    } else if (argc == 5 && strcmp(argv[1], "gguf-strings") == 0) {
        char *e1, *e2;
        errno = 0;
        uint64_t n = strtoull(argv[2], &e1, 10), len = strtoull(argv[3], &e2, 10);
        if (errno || *e1 || *e2 || !*argv[2] || !*argv[3]) return usage();
        out = argv[4];
        st = gen_gguf_strings(&w, n, len);
    } else {
        return usage();
    }
    int err = 0;
    if (st == TFS_OK) st = tfs_wbuf_write_file(&w, out, &err);
    if (st != TFS_OK) {
        fprintf(stderr, "gen_sparse: %s: %s%s%s\n", out, tfs_status_name((tfs_status)st), err ? ": " : "",
                err ? strerror(err) : "");
        tfs_wbuf_free(&w);
        return 1;
    }
    printf("%s: %llu bytes, %zu materialised\n", out, (unsigned long long)w.size, w.len);
    tfs_wbuf_free(&w);
    return 0;
}
