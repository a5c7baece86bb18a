/* cli_mkfiles.c DIR: writes, with the C writer (tfs/write.h), the model files
 * that tests/cli/test_cli_user.sh shows through `tfs check` and `tfs dump`:
 *   c1.gguf           string values with U+0085 (NEL), U+009B (CSI), a raw
 *                     0x9B byte, a backslash, a right-to-left override; a
 *                     string array with the same
 *   c1.safetensors    __metadata__ values with U+0085 and U+009B
 *   cut.gguf          a 100-byte value whose byte 60 is inside "é", a value of
 *                     100 control bytes (each shown as 4 characters), an
 *                     array of 20 u32, a 3 000-byte string
 *   unpadded.gguf     one f32 [4] tensor (16 bytes) without the padding after
 *                     it: valid (its data is inside the file), data_size 32
 * Exit 0, or 1 with a message. */
#include <stdio.h>
#include <string.h>

#include "tfs/tfs.h"
#include "tfs/write.h"

static int save(tfs_wbuf *w, const char *dir, const char *name) {
    char path[4096];
    int e = 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (w->err != TFS_OK || tfs_wbuf_write_file(w, path, &e) != TFS_OK) {
        fprintf(stderr, "cli_mkfiles: cannot write %s (status %d, errno %d)\n", path, (int)w->err, e);
        return 1;
    }
    tfs_wbuf_free(w);
    return 0;
}

static int gguf(const char *dir, const char *name, const tfs_gg_wkv *kv, size_t n_kv, const tfs_gg_wtensor *t,
                size_t n_t, unsigned flags) {
    tfs_gg_model m = {.version = 3, .kv = kv, .n_kv = n_kv, .tensors = t, .n_tensors = n_t, .flags = flags};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    if (tfs_gg_write(&m, &w) != TFS_OK) {
        fprintf(stderr, "cli_mkfiles: tfs_gg_write %s failed\n", name);
        return 1;
    }
    return save(&w, dir, name);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: cli_mkfiles DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    int rc = 0;

    /* ---- c1.gguf */
    static const char nel[] = "a\xc2\x85"
                              "b",
                      csi[] = "x\xc2\x9b"
                              "31mRED",
                      raw[] = "y\x9b"
                              "31mRED",
                      bs[] = "c:\\new",
                      rlo[] = "abc\xe2\x80\xae"
                              "fed";
    tfs_wstr s_nel = tfs_wstr_c(nel), s_csi = tfs_wstr_c(csi), s_raw = tfs_wstr_c(raw), s_bs = tfs_wstr_c(bs),
             s_rlo = tfs_wstr_c(rlo);
    tfs_wstr arr[3] = {s_nel, s_csi, s_raw};
    tfs_gg_wkv c1[] = {
        {tfs_wstr_c("v.nel"), tfs_gg_wval_str(&s_nel)},   {tfs_wstr_c("v.csi"), tfs_gg_wval_str(&s_csi)},
        {tfs_wstr_c("v.raw9b"), tfs_gg_wval_str(&s_raw)}, {tfs_wstr_c("v.backslash"), tfs_gg_wval_str(&s_bs)},
        {tfs_wstr_c("v.rlo"), tfs_gg_wval_str(&s_rlo)},   {tfs_wstr_c("v.array"), tfs_gg_wval_str_array(arr, 3)},
    };
    rc |= gguf(dir, "c1.gguf", c1, sizeof c1 / sizeof c1[0], NULL, 0, 0);

    /* ---- c1.safetensors */
    static const uint64_t shape[1] = {2};
    tfs_st_wentry e = {.name = tfs_wstr_c("t"), .dtype = TFS_ST_F32, .n_dims = 1, .shape = shape};
    tfs_st_wmeta meta[2] = {{.key = tfs_wstr_c("nel"), .value = tfs_wstr_c(nel)},
                            {.key = tfs_wstr_c("csi"), .value = tfs_wstr_c(csi)}};
    tfs_st_model sm = {.n_entries = 1, .entries = &e, .metadata = TFS_STW_META_OBJECT, .n_meta = 2, .meta = meta};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    if (tfs_st_write(&sm, &w) != TFS_OK) {
        fprintf(stderr, "cli_mkfiles: tfs_st_write failed\n");
        return 1;
    }
    rc |= save(&w, dir, "c1.safetensors");

    /* ---- cut.gguf */
    char utf[101], ctl[101], big[3001];
    memset(utf, 'a', 100);
    memcpy(utf + 59, "\xc3\xa9", 2); /* bytes 59..60: "é" straddles the 60-byte cut */
    utf[100] = 0;
    memset(ctl, 0x01, 100);
    ctl[100] = 0;
    for (int i = 0; i < 3000; i++) big[i] = (char)('a' + i % 26);
    big[2999] = 'Z'; /* the last byte, to see that --full shows all */
    big[3000] = 0;
    uint8_t u32s[20 * 4];
    for (int i = 0; i < 20; i++) {
        uint32_t v = 1000u + (uint32_t)i;
        for (int b = 0; b < 4; b++) u32s[i * 4 + b] = (uint8_t)(v >> (8 * b));
    }
    tfs_wstr s_utf = tfs_wstr_c(utf), s_ctl = tfs_wstr_c(ctl), s_big = tfs_wstr_c(big);
    tfs_gg_wkv cut[] = {
        {tfs_wstr_c("v.utf8"), tfs_gg_wval_str(&s_utf)},
        {tfs_wstr_c("v.controls"), tfs_gg_wval_str(&s_ctl)},
        {tfs_wstr_c("v.u32s"), tfs_gg_wval_array(TFS_GG_U32, 20, u32s, sizeof u32s)},
        {tfs_wstr_c("v.big"), tfs_gg_wval_str(&s_big)},
    };
    rc |= gguf(dir, "cut.gguf", cut, sizeof cut / sizeof cut[0], NULL, 0, 0);

    /* ---- unpadded.gguf */
    tfs_gg_wtensor t = {.name = tfs_wstr_c("w"), .n_dims = 1, .ne = {4}, .type = 0 /* f32 */};
    rc |= gguf(dir, "unpadded.gguf", NULL, 0, &t, 1, TFS_GGW_NO_DATA_PAD);
    return rc;
}
