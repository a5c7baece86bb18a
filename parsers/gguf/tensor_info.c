/* tensor_info.c: the tensor infos (GG2xx), as gguf.cpp gguf_init_from_reader
 * ("read the tensor info" loop), in its order: name, duplicate name, n_dims,
 * dims, element count, type, block size, byte size, offset. */
#include "gg.h"

#include <stdlib.h>

static gg_ti_rec *push(gg_ctx *c) {
    gg_ti_rec *p = tfs__reserve(c->ti, &c->ti_cap, c->ti_len, sizeof *c->ti);
    if (!p) return NULL;
    c->ti = p;
    return &c->ti[c->ti_len++];
}

/* Name: string checks; >= 64 bytes -> GG202; duplicate -> GG203.  ggml copies
 * the name into a C string (ggml_set_name) and compares with strcmp, so two
 * names equal up to their first NUL are duplicates. */
/* Length of a name read as a C string (up to its first NUL). */
static uint64_t cstr_len(const uint8_t *p, uint64_t len) {
    const uint8_t *nul = memchr(p, 0, (size_t)len);
    return nul ? (uint64_t)(nul - p) : len;
}

/* A name being inserted, compared as ggml does: strcmp of the C strings. */
typedef struct name_cand {
    const gg_ctx *c;
    const uint8_t *p;
    uint64_t len; /* C-string length */
} name_cand;

static bool name_eq(const void *ctx, uint64_t idx) {
    const name_cand *n = ctx;
    const gg_ti_rec *r = &n->c->ti[idx];
    const uint8_t *q = gg_kept(n->c) + r->name_ref;
    return cstr_len(q, r->name_len) == n->len && memcmp(q, n->p, (size_t)n->len) == 0;
}

static tfs_status parse_name(gg_ctx *c, gg_ti_rec *r, int64_t i) {
    tfs_status st = tfs__gg_string_len(c, TFS_GG201, i, &r->name_len);
    if (st != TFS_OK) return st;
    if (TFS_RULE_HIT(TFS_GG202, TFS_BUG_CHECK(X1, r->name_len >= GG_MAX_NAME,
                                              r->name_len > GG_MAX_NAME))) { /* not kept: GG102 still comes first */
        if ((st = tfs__gg_string_skip(c, r->field_off, r->name_len, i)) != TFS_OK) return st;
        return tfs__fail(c->err, TFS_GG202, r->field_off, i);
    }
    if ((st = tfs__gg_string_keep(c, r->field_off, r->name_len, i, &r->name_ref)) != TFS_OK) return st;
    const uint8_t *name = gg_kept(c) + r->name_ref;
    name_cand n = {c, name, cstr_len(name, r->name_len)};
    if (!tfs__set_reserve(&c->names, 0)) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    int64_t dup =
        tfs__set_find_or_add(&c->names, tfs__hash_bytes(c->hash_seed, name, (size_t)n.len), (uint64_t)i, name_eq, &n);
    if (dup == -2) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    if (TFS_RULE_HIT(TFS_GG203, dup >= 0)) return tfs__fail(c->err, TFS_GG203, r->field_off, i);
    return TFS_OK;
}

/* A shape whose element count wraps in ggml's int64 product to a value <= 0
 * (all ne > 0): ggml skips its count test and carries on with the wrapped
 * count (known defect).  Judged after the type (see parse_type). */
typedef struct gg_wrap {
    bool on;
    uint64_t count; /* the product modulo 2^64 */
    uint64_t off;   /* ne field where ggml's count test would fire */
} gg_wrap;

/* n_dims (> 4 -> GG204), then each ne (< 0 -> GG205), then ggml's element
 * count test: with all ne > 0, INT64_MAX / ne[j] <= ne[0] * ... * ne[j-1]
 * for some j in 1..3 -> GG206, reported at the ne field where it fires (the
 * last stored one when it fires on an implicit ne = 1).  When the wrapped
 * product is <= 0, ggml skips the test: *wrap records it for parse_type. */
static tfs_status parse_shape(gg_ctx *c, gg_ti_rec *r, int64_t i, gg_wrap *wrap) {
    uint64_t at = c->off, *ne_off = r->ne_off;
    r->ndims_off = at;
    const uint8_t *p = gg_take(c, 4);
    if (!p && !(p = gg_past_end(c, 4, TFS_GG201))) return gg_short(c, TFS_GG201, at, i);
    r->n_dims = tfs_le32(p);
    /* GG204 off (TFS_RULE_OFF): the first 4 dimensions are read, n_dims kept */
    /* planted G1: no bound; G13: the bound as a signed int32 (bench/fuzz/bugs.tsv) */
    if (TFS_RULE_HIT(TFS_GG204, TFS_BUG_CHECK(G13, TFS_BUG_CHECK(G1, r->n_dims > GG_MAX_DIMS, false),
                                              (int32_t)r->n_dims > (int32_t)GG_MAX_DIMS)))
        return tfs__fail(c->err, TFS_GG204, at, i);
    for (uint32_t j = 0; j < GG_MAX_DIMS; j++) {
        r->ne[j] = 1;
        if (j >= r->n_dims) continue;
        ne_off[j] = c->off;
        if (!(p = gg_take(c, 8)) && !(p = gg_past_end(c, 8, TFS_GG201))) return gg_short(c, TFS_GG201, ne_off[j], i);
        uint64_t v = tfs_le64(p);
        if (TFS_RULE_HIT(TFS_GG205, v > (uint64_t)INT64_MAX)) return tfs__fail(c->err, TFS_GG205, ne_off[j], i);
        r->ne[j] = v;
    }
    /* planted G7: the shortcut taken only when ne[0] alone is 0, so INT64_MAX / ne[j] divides by zero */
    if (TFS_BUG_CHECK(G7, r->ne[0] == 0 || r->ne[1] == 0 || r->ne[2] == 0 || r->ne[3] == 0,
                      r->ne[0] == 0 && r->ne[1] != 0 && r->ne[2] != 0 && r->ne[3] != 0)) {
        r->n_elements = 0;
        return TFS_OK;
    }
    uint64_t prod = r->ne[0];
    for (uint32_t j = 1; j < GG_MAX_DIMS; j++) {
        if (TFS_BUG_CHECK(G12, (uint64_t)INT64_MAX / r->ne[j] <= prod, false)) { /* planted G12: unchecked product */
            uint64_t wrapped = r->ne[0] * r->ne[1] * r->ne[2] * r->ne[3];        /* unsigned: wraps */
            uint64_t off = ne_off[j < r->n_dims ? j : r->n_dims - 1u];
            if (TFS_RULE_HIT(TFS_GG206, wrapped != 0 && wrapped <= (uint64_t)INT64_MAX))
                return tfs__fail(c->err, TFS_GG206, off, i);
            *wrap = (gg_wrap){.on = true, .count = wrapped, .off = off};
            return TFS_OK;
        }
        prod *= r->ne[j]; /* exact: prod < INT64_MAX / ne[j] */
    }
    r->n_elements = prod;
    return TFS_OK;
}

/* ggml's byte size test on a wrapped count w (an int64 <= 0):
 * uint64_t(w / blck) > SIZE_MAX / type size, division truncating to zero. */
static bool ggml_size_test_fires(uint64_t w, uint64_t blck, uint64_t ts) {
    uint64_t q = w == 0 ? 0 : (0u - w) / blck; /* |w| / blck */
    uint64_t as_u64 = 0u - q;                  /* uint64_t(-q) */
    return as_u64 > UINT64_MAX / ts;
}

/* Type (GG208 out of range, GG209 removed, GG210 ne[0] % block size), byte
 * size (GG211 > SIZE_MAX), and GG212: ggml_nbytes computes ne[0] x type size
 * first for block types, which wraps (ggml accepts, wrong size: divergence).
 * A wrapped count (see gg_wrap) meets ggml's size test here: GG211 where it
 * fires (as ggml), else GG207 at the ne field (ggml accepts: divergence).
 * All other rules at the type field. */
static tfs_status parse_type(gg_ctx *c, gg_ti_rec *r, int64_t i, const gg_wrap *wrap) {
    uint64_t at = c->off;
    r->type_off = at;
    const uint8_t *p = gg_take(c, 4);
    if (!p && !(p = gg_past_end(c, 4, TFS_GG201))) return gg_short(c, TFS_GG201, at, i);
    r->type = tfs_le32(p); /* i32: negative values land above 42 */
    if (TFS_RULE_HIT(TFS_GG208, r->type >= TFS_GG_TYPE_COUNT)) return tfs__fail(c->err, TFS_GG208, at, i);
    uint64_t blck = tfs_gg_type_block_size(r->type), ts = tfs_gg_type_size(r->type);
    if (TFS_RULE_HIT(TFS_GG209, blck == 0)) return tfs__fail(c->err, TFS_GG209, at, i);
    /* only with GG208 or GG209 off (TFS_RULE_OFF): a type without a block
     * size is taken as 1 element of 1 byte (no division by zero) */
    if (blck == 0) blck = ts = 1;
    if (TFS_RULE_HIT(TFS_GG210, r->ne[0] % blck != 0)) return tfs__fail(c->err, TFS_GG210, at, i);
    if (wrap->on) {
        if (TFS_RULE_HIT(TFS_GG211, ggml_size_test_fires(wrap->count, blck, ts)))
            return tfs__fail(c->err, TFS_GG211, at, i);
        if (TFS_RULE_HIT(TFS_GG207, true)) return tfs__fail(c->err, TFS_GG207, wrap->off, i);
        /* GG207 or GG211 off (TFS_RULE_OFF): the wrapped count is taken as 0 elements */
    }
    uint64_t blocks = r->n_elements / blck;
    if (TFS_RULE_HIT(TFS_GG211, TFS_BUG_CHECK(G4, blocks > UINT64_MAX / ts, false)))
        return tfs__fail(c->err, TFS_GG211, at, i);
    if (TFS_RULE_HIT(TFS_GG212, blck > 1 && r->n_elements > 0 && r->ne[0] > UINT64_MAX / ts))
        return tfs__fail(c->err, TFS_GG212, at, i);
    r->n_bytes = blocks * ts;
    return TFS_OK;
}

static tfs_status parse_info(gg_ctx *c, int64_t i) {
    gg_ti_rec *r = push(c);
    if (!r) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    memset(r, 0, sizeof *r);
    r->field_off = c->off;
    r->name_ref = r->ndims_off = r->type_off = r->offset_off = GG_UNSET;
    for (unsigned j = 0; j < GG_MAX_DIMS; j++) r->ne_off[j] = GG_UNSET;
    tfs_status st;
    gg_wrap wrap = {0};
    if ((st = parse_name(c, r, i)) != TFS_OK) return st;
    if ((st = parse_shape(c, r, i, &wrap)) != TFS_OK) return st;
    if ((st = parse_type(c, r, i, &wrap)) != TFS_OK) return st;
    r->offset_off = c->off;
    const uint8_t *p = gg_take(c, 8);
    if (!p && !(p = gg_past_end(c, 8, TFS_GG201))) return gg_short(c, TFS_GG201, r->offset_off, i);
    r->offset = tfs_le64(p);
    return TFS_OK;
}

tfs_status tfs__gg_parse_tensor_infos(gg_ctx *c) {
    for (int64_t i = 0; i < c->n_tensors; i++) {
        tfs_status st = parse_info(c, i);
        if (st != TFS_OK) return st;
    }
    c->info_end = c->off;
    return TFS_OK;
}
