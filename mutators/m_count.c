/* m_count.c: count.* - GGUF counts that lie: n_tensors, n_kv and array
 * element counts inflated (by one, to the limits ggml checks, to 2^64-1) or
 * deflated (the records then read as garbage). */
#include "mut.h"

#include <stdint.h>

static uint64_t inflate(mut_rng *r, uint64_t cur, uint64_t limit) {
    switch (tfs__mut_below(r, 6)) {
    case 0: return cur + 1;
    case 1: return cur + 2 + tfs__mut_below(r, 1000);
    case 2: return limit + 1; /* just past what ggml allocates */
    case 3: return limit;
    case 4: return 0x8000000000000000u; /* negative as int64 */
    default: return tfs__mut_interesting(r, cur);
    }
}

static int field_inflate(mut_ctx *c, uint32_t kind, uint64_t limit) {
    const tfs_field *f = tfs__mut_field(c, kind);
    uint64_t v;
    if (tfs__mut_get_uint(c, f, &v) != 0) return 0;
    return tfs__mut_set_uint(c, f, inflate(&c->rng, v, limit)) == 0;
}

/* gguf.cpp: n_tensors > SIZE_MAX / sizeof(gguf_tensor_info) (344 on 64-bit) */
static int n_tensors_b(mut_ctx *c) { return field_inflate(c, TFS_FIELD_N_TENSORS, UINT64_MAX / 344u); }
static int n_kv_b(mut_ctx *c) { return field_inflate(c, TFS_FIELD_N_KV, UINT64_MAX / 88u); }

static int array_m(mut_ctx *c) { return tfs__mut_gg_array_kv(c) >= 0; }

/* gguf.cpp: count above 2^30 or count x element size above the bytes left */
static int array_b(mut_ctx *c) { return field_inflate(c, TFS_FIELD_COUNT, 1u << 30); }

static int deflate_b(mut_ctx *c) {
    const tfs_field *f = tfs__mut_field(c, tfs__mut_below(&c->rng, 3) == 0 ? TFS_FIELD_COUNT
                                           : tfs__mut_below(&c->rng, 2)    ? TFS_FIELD_N_KV
                                                                           : TFS_FIELD_N_TENSORS);
    uint64_t v;
    if (tfs__mut_get_uint(c, f, &v) != 0 || v == 0) return 0;
    return tfs__mut_set_uint(c, f, v - 1 - tfs__mut_below(&c->rng, v)) == 0;
}

static int deflate_m(mut_ctx *c) {
    tfs__mut_gg_need_kv(c, 2);
    tfs__mut_gg_need_tensors(c, 2);
    return 1;
}

const mut_def tfs__mut_count[] = {
    {"count.n_tensors", MUT_GG, NULL, n_tensors_b, "n_tensors field inflated (+1, +k, SIZE_MAX/344 + 1, 2^63, ...)"},
    {"count.n_kv", MUT_GG, NULL, n_kv_b, "n_kv field inflated (+1, +k, SIZE_MAX/88 + 1, 2^63, ...)"},
    {"count.array", MUT_GG, array_m, array_b, "an array's element count inflated (+1, 2^30 + 1, 2^63, ...)"},
    {"count.deflate", MUT_GG, deflate_m, deflate_b, "n_kv, n_tensors or an array count made smaller"},
};
const size_t tfs__mut_count_n = sizeof tfs__mut_count / sizeof tfs__mut_count[0];
