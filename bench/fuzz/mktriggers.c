/* mktriggers: write the minimal trigger input of every planted bug of
 * bench/fuzz/bugs.tsv, with the C writer (include/tfs/write.h), as
 * OUTDIR/<id>.gguf or OUTDIR/<id>.safetensors.
 *
 *   mktriggers OUTDIR          write them all
 *
 * Each file is the smallest model that reaches the bug's site with the
 * condition its fix rejects (the buglog row's input, cut down); the files
 * are kept in bench/fuzz/triggers/ and the ctest test_bug_triggers_current
 * checks that they are what this program writes.  Exit 0, or 1 with a
 * message on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfs/tfs.h"
#include "tfs/write.h"

/* ggml type ids by name, from the type table (include/tfs/gg_types.def) */
static uint32_t gg_type(const char *name) {
    for (uint32_t t = 0; t < TFS_GG_TYPE_COUNT; t++) {
        const char *n = tfs_gg_type_name(t);
        if (n && strcmp(n, name) == 0) return t;
    }
    fprintf(stderr, "mktriggers: no ggml type %s\n", name);
    exit(1);
}

static tfs_gg_wtensor tensor(const char *name, uint32_t type, uint32_t n_dims, const uint64_t *ne) {
    tfs_gg_wtensor t;
    memset(&t, 0, sizeof t);
    t.name = tfs_wstr_c(name);
    t.type = type;
    t.n_dims = n_dims;
    for (uint32_t j = 0; j < n_dims; j++) t.ne[j] = ne[j];
    return t;
}

static tfs_gg_model gg_model(const tfs_gg_wkv *kv, size_t n_kv, const tfs_gg_wtensor *t, size_t n_t) {
    tfs_gg_model m;
    memset(&m, 0, sizeof m);
    m.version = 3;
    m.kv = kv;
    m.n_kv = n_kv;
    m.tensors = t;
    m.n_tensors = n_t;
    return m;
}

static tfs_st_wentry entry(const char *name, const uint64_t *shape, uint32_t n_dims) {
    tfs_st_wentry e;
    memset(&e, 0, sizeof e);
    e.name = tfs_wstr_c(name);
    e.dtype = TFS_ST_F32;
    e.shape = shape;
    e.n_dims = n_dims;
    return e;
}

static tfs_st_model st_model(const tfs_st_wentry *e, size_t n) {
    tfs_st_model m;
    memset(&m, 0, sizeof m);
    m.entries = e;
    m.n_entries = n;
    return m;
}

static int save(const char *dir, const char *id, const char *ext, tfs_wbuf *w, tfs_status st) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%s", dir, id, ext);
    int err = 0;
    if (st == TFS_OK) st = tfs_wbuf_write_file(w, path, &err);
    tfs_wbuf_free(w);
    if (st != TFS_OK) {
        fprintf(stderr, "mktriggers: %s: %s\n", path, tfs_status_name(st));
        return 1;
    }
    return 0;
}

static int gg(const char *dir, const char *id, const tfs_gg_model *m) {
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    return save(dir, id, "gguf", &w, tfs_gg_write(m, &w));
}

static int st(const char *dir, const char *id, const tfs_st_model *m) {
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    return save(dir, id, "safetensors", &w, tfs_st_write(m, &w));
}

static int write_all(const char *dir) {
    const uint32_t f32 = gg_type("f32");
    int bad = 0;
    tfs_gg_wkv arch = {tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&(tfs_wstr){"llama", 5, 0, 0, 0})};

    { /* G1: n_dims 5 (ggml PR 709) */
        tfs_gg_wtensor t = tensor("t", f32, 5, (const uint64_t[]){1, 1, 1, 1, 1});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        bad |= gg(dir, "G1", &m);
    }
    { /* G2: two tensors of 2^63 bytes each: the padded sizes add to 2^64 (header only) */
        tfs_gg_wtensor t[2] = {tensor("a", f32, 1, (const uint64_t[]){UINT64_C(1) << 61}),
                               tensor("b", f32, 1, (const uint64_t[]){UINT64_C(1) << 61})};
        tfs_gg_model m = gg_model(&arch, 1, t, 2);
        m.flags = TFS_GGW_NO_DATA;
        bad |= gg(dir, "G2", &m);
    }
    { /* G3: f32 ne0 = 2^62 - 1: 2^64 - 4 bytes, padding wraps (header only) */
        tfs_gg_wtensor t = tensor("t", f32, 1, (const uint64_t[]){(UINT64_C(1) << 62) - 1u});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        m.flags = TFS_GGW_NO_DATA;
        bad |= gg(dir, "G3", &m);
    }
    { /* G4: f32 ne0 = 2^62: count x 4 bytes = 2^64 (header only) */
        tfs_gg_wtensor t = tensor("t", f32, 1, (const uint64_t[]){UINT64_C(1) << 62});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        m.flags = TFS_GGW_NO_DATA;
        bad |= gg(dir, "G4", &m);
    }
    { /* G5: the first key's length is 2^56 (llama.cpp issue 19003) */
        tfs_gg_wkv kv = {{"a", 1, 0, 1, UINT64_C(1) << 56}, tfs_gg_wval_scalar(TFS_GG_U32, 1)};
        tfs_gg_model m = gg_model(&kv, 1, NULL, 0);
        bad |= gg(dir, "G5", &m);
    }
    { /* G6: a zero-length key */
        tfs_gg_wkv kv = {tfs_wstr_c(""), tfs_gg_wval_scalar(TFS_GG_U32, 1)};
        tfs_gg_model m = gg_model(&kv, 1, NULL, 0);
        bad |= gg(dir, "G6", &m);
    }
    { /* G7: n_dims 2, ne = [1, 0] */
        tfs_gg_wtensor t = tensor("t", f32, 2, (const uint64_t[]){1, 0});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        bad |= gg(dir, "G7", &m);
    }
    { /* G8: general.alignment stored as i32 */
        tfs_gg_wkv kv = {tfs_wstr_c("general.alignment"), tfs_gg_wval_scalar(TFS_GG_I32, 32)};
        tfs_gg_model m = gg_model(&kv, 1, NULL, 0);
        m.alignment = 32;
        bad |= gg(dir, "G8", &m);
    }
    { /* G8b: general.alignment 12 (not a power of two) */
        tfs_gg_wkv kv = {tfs_wstr_c("general.alignment"), tfs_gg_wval_scalar(TFS_GG_U32, 12)};
        tfs_gg_model m = gg_model(&kv, 1, NULL, 0);
        m.alignment = 32;
        bad |= gg(dir, "G8b", &m);
    }
    { /* G11: a tensor whose data is not in the file */
        tfs_gg_wtensor t = tensor("t", f32, 1, (const uint64_t[]){8});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        m.flags = TFS_GGW_NO_DATA;
        bad |= gg(dir, "G11", &m);
    }
    { /* G12: f32 [2^32, 2^32]: the element count reaches 2^64 */
        tfs_gg_wtensor t = tensor("t", f32, 2, (const uint64_t[]){UINT64_C(1) << 32, UINT64_C(1) << 32});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        m.flags = TFS_GGW_NO_DATA;
        bad |= gg(dir, "G12", &m);
    }
    { /* G13: n_dims field 0xFFFFFFFF */
        tfs_gg_wtensor t = tensor("t", f32, 1, (const uint64_t[]){1});
        t.n_dims_set = 1;
        t.n_dims_field = UINT32_MAX;
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        bad |= gg(dir, "G13", &m);
    }
    { /* G15: three tensors all at offset 0 */
        tfs_gg_wtensor t[3] = {tensor("a", f32, 1, (const uint64_t[]){8}), tensor("b", f32, 1, (const uint64_t[]){8}),
                               tensor("c", f32, 1, (const uint64_t[]){8})};
        for (int k = 0; k < 3; k++) t[k].offset_set = 1; /* offset 0 */
        tfs_gg_model m = gg_model(&arch, 1, t, 3);
        bad |= gg(dir, "G15", &m);
    }
    { /* G16: a string value whose length field says 2^56 (a length shifted by damage) */
        tfs_wstr s = {"llama", 5, 0, 1, UINT64_C(1) << 56};
        tfs_gg_wkv kv = {tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&s)};
        tfs_gg_model m = gg_model(&kv, 1, NULL, 0);
        bad |= gg(dir, "G16", &m);
    }
    { /* X1: a tensor name of exactly 64 bytes */
        char name[65];
        memset(name, 'n', 64);
        name[64] = 0;
        tfs_gg_wtensor t = tensor(name, f32, 1, (const uint64_t[]){1});
        tfs_gg_model m = gg_model(&arch, 1, &t, 1);
        bad |= gg(dir, "X1", &m);
    }

    static const uint64_t one[] = {1};
    { /* S1: the same tensor name twice, both at [0, 4]: the crate keeps the last (valid in
       * the default profile); the strict profile rejects it */
        tfs_st_wentry e[2] = {entry("w", one, 1), entry("w", one, 1)};
        for (int k = 0; k < 2; k++) {
            e[k].offsets_set = 1;
            e[k].begin = 0;
            e[k].end = 4;
        }
        tfs_st_model m = st_model(e, 2);
        bad |= st(dir, "S1", &m);
    }
    { /* S2: two tensors with identical data_offsets [0, 4] */
        tfs_st_wentry e[2] = {entry("a", one, 1), entry("b", one, 1)};
        for (int k = 0; k < 2; k++) {
            e[k].offsets_set = 1;
            e[k].begin = 0;
            e[k].end = 4;
        }
        tfs_st_model m = st_model(e, 2);
        bad |= st(dir, "S2", &m);
    }
    { /* S3: header size 100,000,001 */
        tfs_st_wentry e = entry("a", one, 1);
        tfs_st_model m = st_model(&e, 1);
        m.header_size_set = 1;
        m.header_size = 100000001u;
        bad |= st(dir, "S3", &m);
    }
    { /* S5: data_offsets [4, 0] after a tensor [0, 4] */
        tfs_st_wentry e[2] = {entry("a", one, 1), entry("b", one, 1)};
        e[1].offsets_set = 1;
        e[1].begin = 4;
        e[1].end = 0;
        tfs_st_model m = st_model(e, 2);
        m.data_len_set = 1;
        m.data_len = 4;
        bad |= st(dir, "S5", &m);
    }
    { /* S5b: an F32 [2] tensor [0, 8] over a 4-byte data section */
        static const uint64_t two[] = {2};
        tfs_st_wentry e = entry("a", two, 1);
        tfs_st_model m = st_model(&e, 1);
        m.data_len_set = 1;
        m.data_len = 4;
        bad |= st(dir, "S5b", &m);
    }
    { /* S6: 4 data bytes owned by no tensor */
        tfs_st_wentry e = entry("a", one, 1);
        tfs_st_model m = st_model(&e, 1);
        m.data_len_set = 1;
        m.data_len = 8;
        bad |= st(dir, "S6", &m);
    }
    { /* S7: an ignored member nested 198 arrays deep (the limit is 127 levels) */
        char deep[4 + 2 * 198 + 1];
        memcpy(deep, "\"x\":", 4);
        memset(deep + 4, '[', 198);
        memset(deep + 4 + 198, ']', 198);
        deep[sizeof deep - 1] = 0;
        tfs_st_wentry e = entry("a", one, 1);
        e.members = "dsox";
        e.extra = deep;
        tfs_st_model m = st_model(&e, 1);
        bad |= st(dir, "S7", &m);
    }
    { /* S8: shape [2^32, 2^32, 4]: the product wraps to 0 */
        static const uint64_t wrap[] = {UINT64_C(1) << 32, UINT64_C(1) << 32, 4};
        tfs_st_wentry e = entry("a", wrap, 3);
        e.offsets_set = 1; /* [0, 0] */
        tfs_st_model m = st_model(&e, 1);
        bad |= st(dir, "S8", &m);
    }
    return bad;
}

int main(int argc, char **argv) {
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: mktriggers OUTDIR\n");
        return 2;
    }
    return write_all(argv[1]) ? 1 : 0;
}
