/* kv.c: the KV pairs (GG1xx) and the general.alignment checks, as gguf.cpp
 * gguf_init_from_reader ("KV pairs" block) and gguf_reader::read overloads. */
#include "gg.h"

#include <stdlib.h>

static const char k_align_key[] = "general.alignment";
#define ALIGN_KEY_LEN (sizeof k_align_key - 1u)

/* Append a record; grows geometrically with the KVs actually parsed. */
static gg_kv_rec *push(gg_ctx *c) {
    gg_kv_rec *p = tfs__reserve(c->kv, &c->kv_cap, c->kv_len, sizeof *c->kv);
    if (!p) return NULL;
    c->kv = p;
    return &c->kv[c->kv_len++];
}

/* Remember where string element k starts, every r->stride-th element
 * (grows with the elements actually read). */
static bool mark(gg_kv_rec *r, uint64_t k, uint64_t off) {
    if (k % r->stride != 0) return true;
    uint64_t *m = tfs__reserve(r->marks, &r->cap_marks, r->n_marks, sizeof *r->marks);
    if (!m) return false;
    r->marks = m;
    r->marks[r->n_marks++] = off;
    return true;
}

/* A string body of `len` bytes at the cursor (a string value or array
 * element of KV i, its length field at len_off), skipped; under TFS_STRICT
 * first read through the window for GG507 (not UTF-8, recorded, reported
 * later).  A body that does not fit is GG102, as tfs__gg_string_skip. */
static tfs_status skip_string_body(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t i) {
    uint64_t bad;
    if ((c->flags & TFS_STRICT) && c->strict_rule == TFS_RULE_NONE && tfs__gg_scan_utf8(c, c->off, len, &bad) &&
        bad != UINT64_MAX)
        gg_strict(c, TFS_GG507, bad, i);
    return tfs__gg_string_skip(c, len_off, len, i);
}

/* Fast path of parse_strings: the elements whose length field and body are
 * all in the bytes at hand (the buffer, or the reader's window), walked in
 * place; returns the next element's index (the general path goes on from
 * there: a body past the window, a length above GG101's bound), or
 * UINT64_MAX when out of memory. */
static uint64_t strings_at_hand(gg_ctx *c, gg_kv_rec *r, uint64_t k) {
    const tfs_src *s = c->src;
    const uint8_t *base = s->buf ? s->buf : s->win;
    uint64_t b_off = s->buf ? 0 : s->win_off, b_end = s->buf ? s->file_size : s->win_off + s->win_len;
    uint64_t off = c->off;
    if (!base || off < b_off) return k;
    while (k < r->count && off <= b_end && b_end - off >= 8u) {
        uint64_t len = tfs_le64(base + (off - b_off));
        if (len > GG_MAX_STRING_LENGTH || len > b_end - off - 8u) break;
        if (k % r->stride == 0 && !mark(r, k, off)) return UINT64_MAX;
        off += 8u + len;
        k++;
    }
    c->off = off;
    return k;
}

/* The elements of a string array: each a string (GG101/GG102/GG103),
 * bodies skipped (read for GG507 under TFS_STRICT). */
static tfs_status parse_strings(gg_ctx *c, gg_kv_rec *r, int64_t i) {
    r->stride = 64;
    bool keep = r->arr_ref != GG_UNSET;                   /* a forward-only source: the first elements are kept */
    while (r->count / r->stride > 4096u) r->stride *= 2u; /* <= 4097 marks per array */
    for (uint64_t k = 0; k < r->count; k++) {
        if (!keep && !(c->flags & TFS_STRICT)) { /* nothing to keep or scan: the bytes at hand in place */
            k = strings_at_hand(c, r, k);
            if (k == UINT64_MAX) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
            if (k >= r->count) break;
        }
        uint64_t at = c->off, len;
        if (!mark(r, k, at)) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
        tfs_status st = tfs__gg_string_len(c, TFS_GG103, i, &len);
        if (st != TFS_OK) return st;
        /* kept while the element (length field and body) fits the bounds */
        keep = keep && r->arr_kept + 8u + len <= GG_ARR_KEEP && /* len <= 2^30 (GG101): no overflow */
               c->arr_kept_total + 8u + len <= GG_ARR_KEEP_TOTAL;
        if (keep) {
            uint8_t le[8];
            tfs_put_le64(le, len);
            if (!tfs__gg_arena_put(c, le, 8)) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
            int kept = tfs__gg_keep_bytes(c, at + 8u, (size_t)len);
            if (kept < 0) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
            if (kept == 0) c->arena_len -= 8u; /* not all there: skip_string_body reports it */
            keep = kept == 1;
            if (keep) {
                r->arr_kept += 8u + len;
                c->arr_kept_total += 8u + len;
            }
        }
        st = skip_string_body(c, at, len, i);
        if (st != TFS_OK) return st;
    }
    return TFS_OK;
}

/* Array body after element type and count: gguf_reader::read(std::vector<T>&, n):
 * n > 2^30, or n x element size (8 per string: its length field) above the
 * bytes left -> GG130 at the count field; then each element (strings: each
 * checked as a string, GG101/GG102/GG103).  Fixed-size bodies are skipped
 * unread, except bool values under TFS_STRICT (GG501, reported later);
 * string bodies are read under TFS_STRICT (GG507, reported later). */
static tfs_status parse_array(gg_ctx *c, gg_kv_rec *r, int64_t i) {
    bool is_str = r->elem_type == TFS_GG_STRING;
    uint64_t esz = is_str ? 8u : tfs_gg_vtype_size(r->elem_type);
    uint64_t count_off = r->count_off;
    if (TFS_RULE_HIT(TFS_GG130, r->count > GG_MAX_ARRAY_ELEMENTS)) return tfs__fail(c->err, TFS_GG130, count_off, i);
    uint64_t body = r->count * esz; /* count <= 2^30: no overflow (GG130 off: wraps) */
    r->value_off = c->off;
    r->arr_kept = 0;
    r->arr_ref = c->src->forward && !c->src->buf ? c->arena_len : GG_UNSET;
    tfs_status st = TFS_OK;
    if (is_str) {
        /* A stream cannot test n x 8 first without discarding the elements:
         * it reads them, and judges GG130 once its size is known (at a
         * failure): the same verdict as a file. */
        bool size_known = c->src->size_known; /* before the strings: reading them may learn it */
        if (TFS_RULE_HIT(TFS_GG130, size_known && !gg_has(c, body))) return gg_short(c, TFS_GG130, count_off, i);
        st = parse_strings(c, r, i);
        if (st == TFS_INVALID && !size_known) {
            uint64_t end;
            bool past = !tfs_add_overflow_u64(r->value_off, body, &end) && !tfs__src_has(c->src, end) &&
                        !tfs_src_failed(c->src);
            if (TFS_RULE_HIT(TFS_GG130, past)) {
                st = tfs__fail(c->err, TFS_GG130, count_off, i);
                c->off = r->value_off; /* where a file stops: a partial view ends at the count */
            } else if (tfs_src_failed(c->src)) {
                st = tfs__fail_src(c->err, c->src);
            }
        }
    } else {
        if (r->arr_ref != GG_UNSET) { /* a forward-only source: the first whole elements kept */
            uint64_t room = GG_ARR_KEEP_TOTAL - c->arr_kept_total;
            uint64_t n = body < GG_ARR_KEEP ? body : GG_ARR_KEEP;
            if (n > room) n = room;
            n -= n % esz;
            int kept = tfs__gg_keep_bytes(c, c->off, (size_t)n);
            if (kept < 0) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
            if (kept == 1) {
                r->arr_kept = n;
                c->arr_kept_total += n;
            }
        }
        /* under TFS_STRICT, bool values are read (GG501, recorded) after a forward-only
         * source's first elements were kept (the scan may read past its window);
         * the scan stops at the first bad byte, so the body must still be
         * skipped whole: a body past the end is GG130 under every profile */
        uint64_t bad;
        if ((c->flags & TFS_STRICT) && r->elem_type == TFS_GG_BOOL && tfs__gg_scan_above(c, c->off, body, 1, &bad) &&
            bad != UINT64_MAX)
            gg_strict(c, TFS_GG501, bad, i);
        if (!gg_skip(c, body)) {
            /* GG130 off (TFS_RULE_OFF): the body is taken as there, the
             * cursor moves past the end of the file */
            if (TFS_RULE_HIT(TFS_GG130, true) || tfs_src_failed(c->src)) return gg_short(c, TFS_GG130, count_off, i);
            c->off += body;
        }
    }
    if (st != TFS_OK) return st;
    r->value_len = c->off - r->value_off;
    return TFS_OK;
}

/* Scalar value of type r->type at the cursor: fixed-size values are kept by
 * value, strings' bodies skipped (the value as stored keeps the length field). */
static tfs_status parse_scalar(gg_ctx *c, gg_kv_rec *r, int64_t i) {
    r->value_off = c->off;
    if (r->type == TFS_GG_STRING) {
        tfs_status st = tfs__gg_string_len(c, TFS_GG103, i, &r->scalar);
        if (st == TFS_OK) /* short ones kept: readable even from a stream */
            st = r->scalar <= GG_STR_KEEP ? tfs__gg_string_keep(c, r->value_off, r->scalar, i, &r->str_ref)
                                          : skip_string_body(c, r->value_off, r->scalar, i);
        if (st != TFS_OK) return st;
        if (r->str_ref != GG_UNSET && (c->flags & TFS_STRICT)) { /* kept: GG507 on its bytes */
            size_t v = tfs_utf8_valid_up_to(gg_kept(c) + r->str_ref, (size_t)r->scalar);
            if (v < r->scalar) gg_strict(c, TFS_GG507, r->value_off + 8u + v, i);
        }
    } else {
        size_t n = tfs_gg_vtype_size(r->type);
        const uint8_t *p = gg_take(c, n);
        if (!p && !(p = gg_past_end(c, n, TFS_GG103))) return gg_short(c, TFS_GG103, r->value_off, i);
        r->scalar = 0;
        for (size_t k = 0; k < n; k++) r->scalar |= (uint64_t)p[k] << (8u * k);
        if (r->type == TFS_GG_BOOL && p[0] > 1) gg_strict(c, TFS_GG501, r->value_off, i);
    }
    r->value_len = c->off - r->value_off;
    return TFS_OK;
}

/* A key being inserted, compared byte by byte with an earlier one (as
 * gguf.cpp gguf_find_key's std::string compare). */
typedef struct key_cand {
    gg_ctx *c;
    const gg_kv_rec *r;
} key_cand;

/* Bytes [kept, len) of two long keys of equal length, read again (in 4 KiB
 * pieces through the window, so no more memory than that). */
static bool rest_eq(gg_ctx *c, uint64_t a_off, uint64_t b_off, uint64_t from, uint64_t len) {
    uint8_t piece[4096];
    for (uint64_t at = from; at < len;) {
        size_t k = len - at < sizeof piece ? (size_t)(len - at) : sizeof piece;
        if (!tfs__src_copy(c->src, a_off + at, k, piece)) {
            c->eq_failed = true;
            return false;
        }
        const uint8_t *q = tfs__src_get(c->src, b_off + at, k);
        if (!q) {
            c->eq_failed = true;
            return false;
        }
        if (memcmp(piece, q, k) != 0) return false;
        at += k;
    }
    return true;
}

static bool key_eq(const void *ctx, uint64_t idx) {
    const key_cand *k = ctx;
    gg_ctx *c = k->c;
    const gg_kv_rec *o = &c->kv[idx], *r = k->r;
    if (o->key_len != r->key_len || o->key_kept != r->key_kept) return false;
    const uint8_t *kept = gg_kept(c);
    if (memcmp(kept + o->key_ref, kept + r->key_ref, (size_t)r->key_kept) != 0) return false;
    if (r->key_kept == r->key_len) return true;
    /* two long keys with equal first TFS_KEY_KEEP bytes: the rest is read
     * again, or, on a forward-only source, the whole 64-bit hash decides (the
     * set matched only its low 32 bits) */
    if (c->src->forward) return o->key_hash == r->key_hash;
    return rest_eq(c, o->field_off + 8u, r->field_off + 8u, r->key_kept, r->key_len);
}

static tfs_status parse_kv(gg_ctx *c, int64_t i) {
    gg_kv_rec *r = push(c);
    if (!r) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    memset(r, 0, sizeof *r);
    r->field_off = c->off;
    r->key_ref = r->type_off = r->elem_off = r->count_off = r->value_off = r->str_ref = r->arr_ref = GG_UNSET;

    /* key: string checks, then empty, then duplicate (byte compare) */
    r->key_bad = GG_UNSET;
    tfs_status st = tfs__gg_string_len(c, TFS_GG103, i, &r->key_len);
    if (st != TFS_OK) return st;
    if (c->src->buf || r->key_len <= TFS_KEY_KEEP) {
        if ((st = tfs__gg_string_keep(c, r->field_off, r->key_len, i, &r->key_ref)) != TFS_OK) return st;
        r->key_kept = r->key_len;
        r->key_hash = tfs__hash_bytes(c->hash_seed, gg_kept(c) + r->key_ref, (size_t)r->key_len);
    } else { /* memory does not follow a declared key length either */
        st = tfs__gg_key_long(c, r->field_off, r->key_len, i, &r->key_ref, &r->key_hash, &r->key_bad);
        if (st != TFS_OK) return st;
        r->key_kept = TFS_KEY_KEEP;
    }
    if (TFS_RULE_HIT(TFS_GG110, TFS_BUG_CHECK(G6, r->key_len == 0, false)))
        return tfs__fail(c->err, TFS_GG110, r->field_off, i);
    if (!tfs__set_reserve(&c->keys, 0)) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    key_cand k = {c, r};
    int64_t dup = tfs__set_find_or_add(&c->keys, r->key_hash, (uint64_t)i, key_eq, &k);
    if (c->eq_failed) return tfs__fail_src(c->err, c->src);
    if (dup == -2) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    if (TFS_RULE_HIT(TFS_GG111, dup >= 0)) return tfs__fail(c->err, TFS_GG111, r->field_off, i);

    /* type; for an array, element type and count are read before the type
     * is judged (a cut there is a truncation, not a bad type) */
    r->type_off = c->off;
    const uint8_t *p = gg_take(c, 4);
    if (!p && !(p = gg_past_end(c, 4, TFS_GG103))) return gg_short(c, TFS_GG103, r->type_off, i);
    r->type = tfs_le32(p); /* i32 in the file: negative values land above 12 */
    r->elem_type = r->type;
    r->count = 1;
    if (r->type == TFS_GG_ARRAY) {
        r->elem_off = c->off;
        if (!(p = gg_take(c, 4)) && !(p = gg_past_end(c, 4, TFS_GG103))) return gg_short(c, TFS_GG103, r->elem_off, i);
        r->elem_type = tfs_le32(p);
        r->count_off = c->off;
        if (!(p = gg_take(c, 8)) && !(p = gg_past_end(c, 8, TFS_GG103))) return gg_short(c, TFS_GG103, r->count_off, i);
        r->count = tfs_le64(p);
        if (TFS_RULE_HIT(TFS_GG121, r->elem_type >= TFS_GG_VTYPE_COUNT || r->elem_type == TFS_GG_ARRAY))
            return tfs__fail(c->err, TFS_GG121, r->elem_off, i);
        return parse_array(c, r, i);
    }
    if (TFS_RULE_HIT(TFS_GG120, r->type >= TFS_GG_VTYPE_COUNT)) return tfs__fail(c->err, TFS_GG120, r->type_off, i);
    return parse_scalar(c, r, i);
}

tfs_status tfs__gg_parse_kvs(gg_ctx *c) {
    for (int64_t i = 0; i < c->n_kv; i++) {
        tfs_status st = parse_kv(c, i);
        if (st != TFS_OK) return st;
    }
    return TFS_OK;
}

/* Is the key, read as a C string (up to its first NUL, as gguf_find_key's
 * strcmp does), "general.alignment"? */
static bool is_align_key(const uint8_t *key, uint64_t len) {
    return len >= ALIGN_KEY_LEN && memcmp(key, k_align_key, ALIGN_KEY_LEN) == 0 &&
           (len == ALIGN_KEY_LEN || key[ALIGN_KEY_LEN] == 0);
}

tfs_status tfs__gg_check_alignment(gg_ctx *c) {
    const uint8_t *base = gg_kept(c);
    for (size_t i = 0; i < c->kv_len; i++) {
        const gg_kv_rec *r = &c->kv[i];
        if (!is_align_key(base + r->key_ref, r->key_len)) continue;
        if (TFS_RULE_HIT(TFS_GG140, TFS_BUG_CHECK(G8, r->type != TFS_GG_U32, false)))
            return tfs__fail(c->err, TFS_GG140, r->type_off, (int64_t)i);
        uint32_t a = (uint32_t)r->scalar; /* GG140 off: the value's low 32 bits (0 for strings, arrays) */
        if (TFS_RULE_HIT(TFS_GG141, TFS_BUG_CHECK(G8b, a == 0 || (a & (a - 1u)) != 0, false)))
            return tfs__fail(c->err, TFS_GG141, r->value_off, (int64_t)i);
        c->alignment = a;
        c->align_idx = (int64_t)i;
        break; /* gguf_find_key: the first match */
    }
    return TFS_OK;
}
