/* synth_st.c: synthetic safetensors header (see synth_st.h), written by the
 * library's writer (tfs/write.h, tfs_st_write). */
#include "synth_st.h"

#include "tfs/write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One layer of a Llama-like model: name suffix and shape (outermost first). */
static const struct {
    const char *name;
    uint64_t shape[2];
    uint32_t n_dims;
} k_layer[] = {
    {"self_attn.q_proj.weight", {4096, 4096}, 2},      {"self_attn.k_proj.weight", {4096, 4096}, 2},
    {"self_attn.v_proj.weight", {4096, 4096}, 2},      {"self_attn.o_proj.weight", {4096, 4096}, 2},
    {"mlp.gate_proj.weight", {11008, 4096}, 2},        {"mlp.up_proj.weight", {11008, 4096}, 2},
    {"mlp.down_proj.weight", {4096, 11008}, 2},        {"input_layernorm.weight", {4096, 0}, 1},
    {"post_attention_layernorm.weight", {4096, 0}, 1},
};
#define PER_LAYER (sizeof k_layer / sizeof k_layer[0])
#define NAME_MAX_LEN 64u

int synth_st_header(size_t n_tensors, uint8_t **out, size_t *out_len, uint64_t *data) {
    int rc = -1;
    tfs_wbuf w = {0};
    tfs_st_wentry *e = n_tensors <= SIZE_MAX / sizeof *e ? calloc(n_tensors ? n_tensors : 1, sizeof *e) : NULL;
    char *names = n_tensors <= SIZE_MAX / NAME_MAX_LEN ? malloc(n_tensors ? n_tensors * NAME_MAX_LEN : 1) : NULL;
    if (!e || !names) goto done;
    for (size_t i = 0; i < n_tensors; i++) {
        size_t layer = i / PER_LAYER, k = i % PER_LAYER;
        char *name = names + i * NAME_MAX_LEN;
        int n = snprintf(name, NAME_MAX_LEN, "model.layers.%zu.%s", layer, k_layer[k].name);
        if (n < 0 || (size_t)n >= NAME_MAX_LEN) goto done;
        e[i].name = tfs_wstr_n(name, (size_t)n);
        e[i].dtype = layer % 2 ? TFS_ST_F16 : TFS_ST_BF16;
        e[i].n_dims = k_layer[k].n_dims;
        e[i].shape = k_layer[k].shape;
    }
    static const char fmt_key[] = "format", fmt_val[] = "pt";
    tfs_st_wmeta meta = {.key = tfs_wstr_n(fmt_key, 6), .value = tfs_wstr_n(fmt_val, 2)};
    /* compact JSON, metadata first, no padding; data a hole */
    tfs_st_model m = {
        .n_entries = n_tensors, .entries = e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &meta, .pad_to = 1};
    if (tfs_st_write(&m, &w) != TFS_OK) goto done;
    /* the materialised bytes are exactly the size field and the JSON */
    *out = malloc(w.len ? w.len : 1);
    if (!*out) goto done;
    memcpy(*out, w.p, w.len);
    *out_len = w.len;
    *data = w.size - w.len;
    rc = 0;
done:
    tfs_wbuf_free(&w);
    free(e);
    free(names);
    return rc;
}
