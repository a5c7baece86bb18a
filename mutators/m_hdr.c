/* m_hdr.c: hdr.* - the fixed header's fields: safetensors header-size lies,
 * GGUF version and magic. */
#include "mut.h"

static int size_b(mut_ctx *c, int how) {
    const tfs_field *f = tfs_wbuf_find(&c->w, TFS_FIELD_HEADER_SIZE, -1, 0);
    uint64_t n;
    if (tfs__mut_get_uint(c, f, &n) != 0) return 0;
    uint64_t d = 1 + tfs__mut_below(&c->rng, 8);
    static const uint64_t huge[] = {100000000u,          100000001u,   0x8000000000000000u,
                                    0xffffffffffffffffu, 50000000000u, 0x100000000u};
    switch (how) {
    case 0: n += d; break;
    case 1: n = n > d ? n - d : 0; break;
    case 2: n = huge[tfs__mut_below(&c->rng, 6)]; break;
    default: n = tfs__mut_below(&c->rng, 2) ? 0 : 1; break;
    }
    return tfs__mut_set_uint(c, f, n) == 0;
}

static int plus_b(mut_ctx *c) { return size_b(c, 0); }
static int minus_b(mut_ctx *c) { return size_b(c, 1); }
static int huge_b(mut_ctx *c) { return size_b(c, 2); }
static int tiny_b(mut_ctx *c) { return size_b(c, 3); }

static int version_b(mut_ctx *c) {
    static const uint32_t v[] = {0, 1, 2, 4, 5, 0x03000000u, 0x00030000u, 0xffffffffu, 0x10003u};
    const tfs_field *f = tfs_wbuf_find(&c->w, TFS_FIELD_VERSION, -1, 0);
    return tfs__mut_set_uint(c, f, v[tfs__mut_below(&c->rng, sizeof v / sizeof v[0])]) == 0;
}

static int magic_m(mut_ctx *c) {
    static const char *const v[] = {"GGUG", "gguf", "FUGG", "GGML", "GGJT", "\0GGU", "GGU\0"};
    c->gm.magic = v[tfs__mut_below(&c->rng, sizeof v / sizeof v[0])];
    return 1;
}

const mut_def tfs__mut_hdr[] = {
    {"hdr.size_plus", MUT_ST, NULL, plus_b, "safetensors header size N + 1..8 (the JSON takes data bytes)"},
    {"hdr.size_minus", MUT_ST, NULL, minus_b, "safetensors header size N - 1..8 (the JSON is cut)"},
    {"hdr.size_huge", MUT_ST, NULL, huge_b,
     "safetensors header size 100,000,000 / 100,000,001 (S3) / 2^63 / 2^64-1 ..."},
    {"hdr.size_tiny", MUT_ST, NULL, tiny_b, "safetensors header size 0 or 1"},
    {"hdr.version", MUT_GG, NULL, version_b, "GGUF version 0, 1 (G14), 2, 4, big-endian 3, 2^32-1 ..."},
    {"hdr.magic", MUT_GG, magic_m, NULL, "GGUF magic replaced (GGUG, gguf, FUGG, GGML, ...)"},
};
const size_t tfs__mut_hdr_n = sizeof tfs__mut_hdr / sizeof tfs__mut_hdr[0];
