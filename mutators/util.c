/* util.c: the run's random numbers and the field-map helpers every family
 * uses (pick a field, read or write an integer field, cut the file). */
#include "mut.h"

uint64_t tfs__mut_next(mut_rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t tfs__mut_below(mut_rng *r, uint64_t n) { return n ? tfs__mut_next(r) % n : 0; }

size_t tfs__mut_field_count(const mut_ctx *c, uint32_t kind) {
    size_t n = 0;
    for (size_t i = 0; i < c->w.n_fields; i++) n += c->w.fields[i].kind == kind;
    return n;
}

const tfs_field *tfs__mut_field_nth(const mut_ctx *c, uint32_t kind, size_t n) {
    for (size_t i = 0; i < c->w.n_fields; i++)
        if (c->w.fields[i].kind == kind && n-- == 0) return &c->w.fields[i];
    return NULL;
}

const tfs_field *tfs__mut_field(mut_ctx *c, uint32_t kind) {
    size_t n = tfs__mut_field_count(c, kind);
    return n ? tfs__mut_field_nth(c, kind, (size_t)tfs__mut_below(&c->rng, n)) : NULL;
}

int tfs__mut_set_uint(mut_ctx *c, const tfs_field *f, uint64_t v) {
    if (!f || f->width == 0 || f->width > 8) return -1;
    uint8_t *p = tfs_wbuf_at(&c->w, f->offset, (size_t)f->width);
    if (!p) return -1;
    for (size_t i = 0; i < f->width; i++) p[i] = (uint8_t)(v >> (8u * i));
    return 0;
}

int tfs__mut_get_uint(const mut_ctx *c, const tfs_field *f, uint64_t *v) {
    if (!f || f->width == 0 || f->width > 8) return -1;
    const uint8_t *p = tfs_wbuf_at(&c->w, f->offset, (size_t)f->width);
    if (!p) return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < f->width; i++) x |= (uint64_t)p[i] << (8u * i);
    *v = x;
    return 0;
}

int tfs__mut_cut(mut_ctx *c, uint64_t size) {
    if (size >= c->w.size) return 0;
    return tfs_wbuf_truncate(&c->w, size) == TFS_OK;
}

uint64_t tfs__mut_interesting(mut_rng *r, uint64_t cur) {
    static const uint64_t v[] = {
        0,
        1,
        2,
        3,
        4,
        7,
        8,
        31,
        32,
        33,
        63,
        64,
        127,
        128,
        255,
        256,
        4096,
        65535,
        65536,
        0x7fffffffu,
        0x80000000u,
        0xffffffffu,
        0x100000000u,
        (1u << 30),
        (1u << 30) + 1u,
        (uint64_t)1 << 53,
        ((uint64_t)1 << 53) + 1,
        (uint64_t)1 << 56,
        (uint64_t)1 << 62,
        0x7fffffffffffffffu,
        0x8000000000000000u,
        0xfffffffffffffff8u,
        0xfffffffffffffffeu,
        0xffffffffffffffffu,
    };
    uint64_t k = tfs__mut_below(r, sizeof v / sizeof v[0] + 6);
    if (k < sizeof v / sizeof v[0]) return v[k];
    switch (k - sizeof v / sizeof v[0]) {
    case 0: return cur + 1;
    case 1: return cur - 1;
    case 2: return cur * 2;
    case 3: return cur + (tfs__mut_next(r) & 0xffff);
    case 4: return cur ^ ((uint64_t)1 << tfs__mut_below(r, 64));
    default: return ~cur;
    }
}

unsigned tfs__mut_env_percent(const char *value, unsigned dflt) {
    if (!value || value[0] < '0' || value[0] > '9') return dflt;
    unsigned long m = 0;
    for (const char *p = value; *p; p++) {
        if (*p < '0' || *p > '9') return dflt;
        m = m * 10u + (unsigned long)(*p - '0');
        if (m > 100u) return dflt;
    }
    return (unsigned)m;
}
