/* kv.c: the KV pairs (GG1xx) and the general.alignment checks, as gguf.cpp
 * gguf_init_from_reader ("KV pairs" block) and gguf_reader::read overloads. */
#include "gg.h"

#include <stdlib.h>

static const char k_align_key[] = "general.alignment";
#define ALIGN_KEY_LEN (sizeof k_align_key - 1u)

/* Append a record; grows geometrically with the KVs actually parsed. */
static gg_kv_rec *push(gg_ctx *c) {
    gg_kv_rec *p = tfs_reserve(c->kv, &c->kv_cap, c->kv_len, sizeof *c->kv);
    if (!p) return NULL;
    c->kv = p;
    return &c->kv[c->kv_len++];
}

/* Array body after element type and count: gguf_reader::read(std::vector<T>&, n):
 * n > 2^30, or n x element size (8 per string: its length field) above the
 * bytes left -> GG130 at the count field; then each element (strings: each
 * checked as a string, GG101/GG102/GG103). */
static tfs_status parse_array(gg_ctx *c, gg_kv_rec *r, uint64_t count_off, int64_t i) {
    bool is_str = r->elem_type == TFS_GG_STRING;
    uint64_t esz = is_str ? 8u : tfs_gg_vtype_size(r->elem_type);
    if (r->count > GG_MAX_ARRAY_ELEMENTS) return tfs_fail(c->err, TFS_GG130, count_off, i);
    if (gg_left(c) < r->count * esz) return tfs_fail(c->err, TFS_GG130, count_off, i); /* count <= 2^30: no overflow */
    r->value_off = c->off;
    if (is_str) {
        for (uint64_t k = 0; k < r->count; k++) {
            uint64_t o, l;
            tfs_status st = gg_read_string(c, TFS_GG103, i, &o, &l);
            if (st != TFS_OK) return st;
        }
    } else if (!gg_take(c, r->count * esz)) {
        return gg_short(c, TFS_GG103, r->value_off, i);
    }
    r->value_len = c->off - r->value_off;
    return TFS_OK;
}

/* Scalar value of type r->type at the cursor (strings keep their length
 * field in the value view). */
static tfs_status parse_scalar(gg_ctx *c, gg_kv_rec *r, int64_t i) {
    r->value_off = c->off;
    if (r->type == TFS_GG_STRING) {
        uint64_t o, l;
        tfs_status st = gg_read_string(c, TFS_GG103, i, &o, &l);
        if (st != TFS_OK) return st;
    } else if (!gg_take(c, tfs_gg_vtype_size(r->type))) {
        return gg_short(c, TFS_GG103, r->value_off, i);
    }
    r->value_len = c->off - r->value_off;
    return TFS_OK;
}

static tfs_status parse_kv(gg_ctx *c, int64_t i) {
    gg_kv_rec *r = push(c);
    if (!r) return tfs_fail_status(c->err, TFS_ENOMEM, 0);
    memset(r, 0, sizeof *r);
    r->field_off = c->off;

    /* key: string checks, then empty, then duplicate (byte compare) */
    tfs_status st = gg_read_string(c, TFS_GG103, i, &r->key_off, &r->key_len);
    if (st != TFS_OK) return st;
    if (r->key_len == 0) return tfs_fail(c->err, TFS_GG110, r->field_off, i);
    int dup = gg_strset_insert(&c->keys, tfs_src_base(c->src), r->key_off, r->key_len);
    if (dup < 0) return tfs_fail_status(c->err, TFS_ENOMEM, 0);
    if (dup) return tfs_fail(c->err, TFS_GG111, r->field_off, i);

    /* type; for an array, element type and count are read before the type
     * is judged (a cut there is a truncation, not a bad type) */
    r->type_off = c->off;
    const uint8_t *p = gg_take(c, 4);
    if (!p) return gg_short(c, TFS_GG103, r->type_off, i);
    r->type = tfs_le32(p); /* i32 in the file: negative values land above 12 */
    r->elem_type = r->type;
    r->count = 1;
    if (r->type == TFS_GG_ARRAY) {
        uint64_t elem_off = c->off;
        if (!(p = gg_take(c, 4))) return gg_short(c, TFS_GG103, elem_off, i);
        r->elem_type = tfs_le32(p);
        uint64_t count_off = c->off;
        if (!(p = gg_take(c, 8))) return gg_short(c, TFS_GG103, count_off, i);
        r->count = tfs_le64(p);
        if (r->elem_type >= TFS_GG_VTYPE_COUNT || r->elem_type == TFS_GG_ARRAY)
            return tfs_fail(c->err, TFS_GG121, elem_off, i);
        return parse_array(c, r, count_off, i);
    }
    if (r->type >= TFS_GG_VTYPE_COUNT) return tfs_fail(c->err, TFS_GG120, r->type_off, i);
    return parse_scalar(c, r, i);
}

tfs_status gg_parse_kvs(gg_ctx *c) {
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

tfs_status gg_check_alignment(gg_ctx *c) {
    const uint8_t *base = tfs_src_base(c->src);
    for (size_t i = 0; i < c->kv_len; i++) {
        const gg_kv_rec *r = &c->kv[i];
        if (!is_align_key(base + r->key_off, r->key_len)) continue;
        if (r->type != TFS_GG_U32) return tfs_fail(c->err, TFS_GG140, r->type_off, (int64_t)i);
        uint32_t a = tfs_le32(base + r->value_off);
        if (a == 0 || (a & (a - 1u)) != 0) return tfs_fail(c->err, TFS_GG141, r->value_off, (int64_t)i);
        c->alignment = a;
        c->align_idx = (int64_t)i;
        break; /* gguf_find_key: the first match */
    }
    return TFS_OK;
}
