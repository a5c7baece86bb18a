/* cursor.c: the elements of a GGUF array in order, a block at a time
 * (tfs_kv_cursor): one read of the source per block of the caller's buffer
 * instead of one per element (tfs_kv_get), and no walk from the nearest
 * string mark per string element.  The state lives in the caller's cursor,
 * so a header stays readable from several threads. */
#include "internal.h"

tfs_status tfs_kv_cursor_init(tfs_kv_cursor *c, const tfs_header *h, const tfs_kv *kv, void *buf, size_t cap) {
    size_t idx;
    if (!c || !tfs__kv_index(h, kv, &idx) || (!buf && cap)) return TFS_EARG;
    *c = (tfs_kv_cursor){.h = h, .kv = kv, .pos = kv->value_offset, .buf = buf, .cap = cap};
    return TFS_OK;
}

/* A pointer to the n value bytes at file offset off: in the value's memory
 * (buffer mode, kept elements), else in the cursor's block, refilled from
 * off with as much of the value as fits.  NULL with *st set on failure. */
static const uint8_t *bytes_at(tfs_kv_cursor *c, const tfs_kvx *x, uint64_t off, size_t n, tfs_status *st) {
    const tfs_kv *kv = c->kv;
    uint64_t rel = off - kv->value_offset; /* off >= value_offset: the cursor's walk */
    if (x->mem && rel <= x->mem_len && n <= x->mem_len - rel) return x->mem + rel;
    if (off >= c->b_off && off - c->b_off <= c->b_len && n <= c->b_len - (off - c->b_off))
        return c->buf + (off - c->b_off);
    if (n > c->cap) {
        *st = TFS_ERANGE; /* the caller's buffer is too small for it */
        return NULL;
    }
    uint64_t left = kv->value_len - rel; /* rel + n <= value_len: the parser walked it */
    size_t take = left < c->cap ? (size_t)left : c->cap;
    if (take < n) {
        *st = TFS_EIO;
        return NULL;
    }
    *st = tfs__value_read(c->h->priv_, x, kv->value_offset, off, c->buf, take);
    if (*st != TFS_OK) {
        c->b_len = 0;
        return NULL;
    }
    c->b_off = off;
    c->b_len = take;
    return c->buf;
}

tfs_status tfs_kv_next(tfs_kv_cursor *c, tfs_value *v, tfs_str *s) {
    size_t idx;
    if (!c || !v || !tfs__kv_index(c->h, c->kv, &idx)) return TFS_EARG;
    const tfs_kv *kv = c->kv;
    if (c->i >= kv->count) return TFS_ERANGE;
    const tfs_priv *p = c->h->priv_;
    const tfs_kvx *x = &p->kvx[idx];
    tfs_status st = TFS_OK;
    if (kv->type != TFS_GG_ARRAY || x->decoded) { /* a scalar: as the accessors */
        if ((st = tfs_kv_get(c->h, kv, 0, v)) != TFS_OK) return st;
        if (s && v->type == TFS_GG_STRING && (st = tfs_kv_get_string(c->h, kv, 0, s, (char *)c->buf, c->cap)) != TFS_OK)
            return st;
        c->i++;
        return TFS_OK;
    }
    memset(v, 0, sizeof *v);
    v->type = kv->elem_type;
    if (kv->elem_type == TFS_GG_STRING) {
        const uint8_t *le = bytes_at(c, x, c->pos, 8, &st);
        if (!le) return st;
        uint64_t len = 0;
        for (int b = 0; b < 8; b++) len |= (uint64_t)le[b] << (8 * b);
        v->u64 = len;
        v->i64 = (int64_t)len;
        v->offset = c->pos + 8u;
        if (s) { /* the whole string, or its first cap bytes (s->len < length: cut) */
            size_t n = len < c->cap ? (size_t)len : c->cap;
            uint64_t rel = v->offset - kv->value_offset;
            if (x->mem && rel <= x->mem_len && len <= x->mem_len - rel) n = (size_t)len; /* in memory */
            const uint8_t *b = n ? bytes_at(c, x, v->offset, n, &st) : (const uint8_t *)"";
            if (!b) return st;
            *s = (tfs_str){(const char *)b, n};
        }
        c->pos += 8u + len; /* no overflow: the parser walked these strings */
    } else {
        size_t size = tfs_gg_vtype_size(kv->elem_type);
        if (size == 0) return TFS_ETYPE;
        const uint8_t *le = bytes_at(c, x, c->pos, size, &st);
        if (!le) return st;
        uint64_t raw = 0;
        for (size_t b = 0; b < size; b++) raw |= (uint64_t)le[b] << (8u * b);
        v->offset = c->pos;
        tfs__value_decode(kv->elem_type, raw, v);
        c->pos += size;
    }
    c->i++;
    return TFS_OK;
}
