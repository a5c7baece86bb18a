/* mut_seeds.c: seed files for the mutator tests, through the C writer. */
#include "mut_seeds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfs/write.h"

static char names[2][3][32];

uint8_t *mut_seed_gguf(const char *tag, size_t *len) {
    int slot = tag[0] == 'b';
    static const tfs_wstr arch = {"llama", 5, 0, 0, 0};
    static const tfs_wstr toks[3] = {{"<s>", 3, 0, 0, 0}, {"a", 1, 0, 0, 0}, {"bb", 2, 0, 0, 0}};
    static const uint8_t scores[12] = {0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
    tfs_gg_wkv kv[4];
    memset(kv, 0, sizeof kv);
    kv[0].key = tfs_wstr_c("general.architecture");
    kv[0].value = tfs_gg_wval_str(&arch);
    kv[1].key = tfs_wstr_c("general.alignment");
    kv[1].value = tfs_gg_wval_scalar(TFS_GG_U32, 32);
    kv[2].key = tfs_wstr_c("tokenizer.ggml.tokens");
    kv[2].value = tfs_gg_wval_str_array(toks, 3);
    kv[3].key = tfs_wstr_c(slot ? "tokenizer.ggml.scores.b" : "tokenizer.ggml.scores");
    kv[3].value = tfs_gg_wval_array(TFS_GG_F32, 3, scores, sizeof scores);
    tfs_gg_wtensor t[3];
    memset(t, 0, sizeof t);
    static const uint32_t types[3] = {0, 8, 1};
    static const uint64_t ne0[3] = {4, 32, 8};
    for (int i = 0; i < 3; i++) {
        snprintf(names[slot][i], sizeof names[slot][i], "%s.%d", tag, i);
        t[i].name = tfs_wstr_c(names[slot][i]);
        t[i].type = types[i];
        t[i].n_dims = 2;
        t[i].ne[0] = ne0[i];
        t[i].ne[1] = 1 + (uint64_t)i;
    }
    tfs_gg_model m;
    memset(&m, 0, sizeof m);
    m.version = 3;
    m.kv = kv;
    m.n_kv = 4;
    m.tensors = t;
    m.n_tensors = 3;
    tfs_wbuf w = {0};
    uint8_t *out = NULL;
    if (tfs_gg_write(&m, &w) != TFS_OK || tfs_wbuf_flatten(&w, 1u << 20, &out, len) != TFS_OK) out = NULL;
    tfs_wbuf_free(&w);
    return out;
}

uint8_t *mut_seed_st(const char *tag, size_t *len) {
    int slot = tag[0] == 'b';
    static const uint64_t s0[2] = {2, 2}, s1[1] = {3}, s2[1] = {4};
    tfs_st_wentry e[3];
    memset(e, 0, sizeof e);
    static const uint32_t dt[3] = {TFS_ST_F32, TFS_ST_I8, TFS_ST_BF16};
    const uint64_t *sh[3] = {s0, s1, s2};
    static const uint32_t nd[3] = {2, 1, 1};
    for (int i = 0; i < 3; i++) {
        snprintf(names[slot][i], sizeof names[slot][i], "%s.%d", tag, i);
        e[i].name = tfs_wstr_c(names[slot][i]);
        e[i].dtype = dt[i];
        e[i].n_dims = nd[i];
        e[i].shape = sh[i];
    }
    tfs_st_wmeta meta[1];
    memset(meta, 0, sizeof meta);
    meta[0].key = tfs_wstr_c(slot ? "format.b" : "format");
    meta[0].value = tfs_wstr_c("pt");
    tfs_st_model m;
    memset(&m, 0, sizeof m);
    m.entries = e;
    m.n_entries = 3;
    m.meta = meta;
    m.n_meta = 1;
    m.metadata = TFS_STW_META_OBJECT;
    tfs_wbuf w = {0};
    uint8_t *out = NULL;
    if (tfs_st_write(&m, &w) != TFS_OK || tfs_wbuf_flatten(&w, 1u << 20, &out, len) != TFS_OK) out = NULL;
    tfs_wbuf_free(&w);
    return out;
}
