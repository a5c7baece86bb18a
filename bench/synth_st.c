/* synth_st.c: synthetic safetensors header (see synth_st.h). */
#include "synth_st.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static int put(buf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (b->len + n + 1 > cap) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    return 0;
}

/* One layer of a Llama-like model: name suffix and shape (outermost first). */
static const struct {
    const char *name;
    uint64_t d0, d1; /* d1 == 0: 1-D */
} k_layer[] = {
    {"self_attn.q_proj.weight", 4096, 4096},  {"self_attn.k_proj.weight", 4096, 4096},
    {"self_attn.v_proj.weight", 4096, 4096},  {"self_attn.o_proj.weight", 4096, 4096},
    {"mlp.gate_proj.weight", 11008, 4096},    {"mlp.up_proj.weight", 11008, 4096},
    {"mlp.down_proj.weight", 4096, 11008},    {"input_layernorm.weight", 4096, 0},
    {"post_attention_layernorm.weight", 4096, 0},
};
#define PER_LAYER (sizeof k_layer / sizeof k_layer[0])

int synth_st_header(size_t n_tensors, uint8_t **out, size_t *out_len, uint64_t *data) {
    buf b = {0};
    char item[256];
    uint64_t off = 0;
    if (put(&b, "12345678", 8) != 0) goto nomem; /* size field, filled below */
    const char *meta = "{\"__metadata__\":{\"format\":\"pt\"}";
    if (put(&b, meta, strlen(meta)) != 0) goto nomem;
    for (size_t i = 0; i < n_tensors; i++) {
        size_t layer = i / PER_LAYER, k = i % PER_LAYER;
        const char *dtype = layer % 2 ? "F16" : "BF16";
        uint64_t bytes = k_layer[k].d0 * (k_layer[k].d1 ? k_layer[k].d1 : 1) * 2;
        int n;
        if (k_layer[k].d1)
            n = snprintf(item, sizeof item,
                         ",\"model.layers.%zu.%s\":{\"dtype\":\"%s\",\"shape\":[%llu,%llu],\"data_offsets\":[%llu,%llu]}",
                         layer, k_layer[k].name, dtype, (unsigned long long)k_layer[k].d0,
                         (unsigned long long)k_layer[k].d1, (unsigned long long)off,
                         (unsigned long long)(off + bytes));
        else
            n = snprintf(item, sizeof item,
                         ",\"model.layers.%zu.%s\":{\"dtype\":\"%s\",\"shape\":[%llu],\"data_offsets\":[%llu,%llu]}",
                         layer, k_layer[k].name, dtype, (unsigned long long)k_layer[k].d0,
                         (unsigned long long)off, (unsigned long long)(off + bytes));
        if (n < 0 || (size_t)n >= sizeof item || put(&b, item, (size_t)n) != 0) goto nomem;
        off += bytes;
    }
    if (put(&b, "}", 1) != 0) goto nomem;
    uint64_t n = b.len - 8;
    for (int i = 0; i < 8; i++) b.p[i] = (char)(n >> (8 * i));
    *out = (uint8_t *)b.p;
    *out_len = b.len;
    *data = off;
    return 0;
nomem:
    free(b.p);
    return -1;
}
