/* m_byte.c: byte.* - edits of one field's bytes in place (its width kept, so
 * every other field stays where the map says): through libFuzzer's
 * LLVMFuzzerMutate when the program has it (a weak reference: AFL++ and
 * plain programs run without it), else by own bit flips. */
#include "mut.h"

#include <string.h>

/* libFuzzer's own mutator; NULL unless linked into a libFuzzer binary. */
extern size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

#define MAX_FIELD 4096u

/* a random materialised leaf field (record-level ones left out) */
static const tfs_field *any_field(mut_ctx *c, uint8_t **p) {
    size_t n = c->w.n_fields;
    for (int tries = 0; tries < 16 && n; tries++) {
        const tfs_field *f = &c->w.fields[tfs__mut_below(&c->rng, n)];
        if (f->kind == TFS_FIELD_KV || f->kind == TFS_FIELD_TENSOR_INFO || f->kind == TFS_FIELD_ENTRY ||
            f->kind == TFS_FIELD_JSON || f->kind == TFS_FIELD_METADATA || f->width == 0)
            continue;
        size_t w = f->width > MAX_FIELD ? MAX_FIELD : (size_t)f->width;
        if ((*p = tfs_wbuf_at(&c->w, f->offset, w)) != NULL) return f;
    }
    return NULL;
}

static size_t width_of(const tfs_field *f) { return f->width > MAX_FIELD ? MAX_FIELD : (size_t)f->width; }

static void flips(mut_ctx *c, uint8_t *p, size_t w) {
    uint64_t k = 1 + tfs__mut_below(&c->rng, 4);
    for (uint64_t i = 0; i < k; i++) {
        size_t at = (size_t)tfs__mut_below(&c->rng, w);
        p[at] ^= (uint8_t)(1u << tfs__mut_below(&c->rng, 8));
    }
}

static int field_b(mut_ctx *c) {
    uint8_t *p;
    const tfs_field *f = any_field(c, &p);
    if (!f) return 0;
    size_t w = width_of(f);
    if (LLVMFuzzerMutate) {
        uint8_t keep[MAX_FIELD];
        memcpy(keep, p, w);
        size_t r = LLVMFuzzerMutate(p, w, w);
        if (r > 0 && r <= w && memcmp(keep, p, w) != 0) return 1; /* bytes past r keep their old values */
        memcpy(p, keep, w);
    }
    flips(c, p, w);
    return 1;
}

static int flip_b(mut_ctx *c) {
    uint8_t *p;
    const tfs_field *f = any_field(c, &p);
    if (!f) return 0;
    flips(c, p, width_of(f));
    return 1;
}

/* an integer field (GGUF) or a number token (safetensors) set to an
 * interesting value */
static int interesting_b(mut_ctx *c) {
    if (c->format == TFS_FORMAT_GGUF) {
        for (int tries = 0; tries < 16; tries++) {
            uint8_t *p;
            const tfs_field *f = any_field(c, &p);
            if (!f || f->width > 8 || f->kind == TFS_FIELD_MAGIC) continue;
            uint64_t v = 0;
            tfs__mut_get_uint(c, f, &v);
            return tfs__mut_set_uint(c, f, tfs__mut_interesting(&c->rng, v)) == 0;
        }
        return 0;
    }
    static const uint32_t kinds[] = {TFS_FIELD_DIM, TFS_FIELD_BEGIN, TFS_FIELD_END};
    const tfs_field *f = tfs__mut_field(c, kinds[tfs__mut_below(&c->rng, 3)]);
    if (!f || f->width == 0) return 0;
    uint8_t *p = tfs_wbuf_at(&c->w, f->offset, width_of(f));
    if (!p) return 0;
    /* same width: all 9s, all 0s, a leading '-' or a fraction / exponent mark */
    size_t w = width_of(f);
    switch (tfs__mut_below(&c->rng, 5)) {
    case 0: memset(p, '9', w); break;
    case 1: memset(p, '0', w); break;
    case 2: p[0] = '-'; break;
    case 3: p[w - 1] = w > 1 ? 'e' : '.'; break;
    default: p[tfs__mut_below(&c->rng, w)] = (uint8_t)('0' + tfs__mut_below(&c->rng, 10)); break;
    }
    return 1;
}

const mut_def tfs__mut_byte[] = {
    {"byte.field", MUT_BOTH, NULL, field_b,
     "one field's bytes through LLVMFuzzerMutate (width kept; bit flips without libFuzzer)"},
    {"byte.flip", MUT_BOTH, NULL, flip_b, "1-4 bit flips inside one field"},
    {"byte.interesting", MUT_BOTH, NULL, interesting_b,
     "GGUF: an integer field set to a boundary value; safetensors: a number token rewritten in place"},
};
const size_t tfs__mut_byte_n = sizeof tfs__mut_byte / sizeof tfs__mut_byte[0];
