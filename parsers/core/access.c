/* access.c: value accessors (tfs_find_kv, tfs_kv_get_*), the same calls for
 * GGUF KV pairs and safetensors __metadata__ entries.  Values are decoded
 * from what the parser kept (tfs_kvx): scalars by value, the bytes in memory
 * (buffer mode, safetensors), or read again through the header's reader, a
 * few bytes at a time, so no accessor costs memory proportional to a value's
 * declared size. */
#include "internal.h"

#include <errno.h>

const tfs_kv *tfs_find_kvn(const tfs_header *h, const char *key, size_t len) {
    if (!h || (!key && len)) return NULL;
    for (size_t i = 0; i < h->n_kv; i++)
        if (h->kv[i].key.len == len && (len == 0 || memcmp(h->kv[i].key.ptr, key, len) == 0)) return &h->kv[i];
    return NULL;
}

const tfs_kv *tfs_find_kv(const tfs_header *h, const char *key) {
    return key ? tfs_find_kvn(h, key, strlen(key)) : NULL;
}

const tfs_tensor *tfs_find_tensor(const tfs_header *h, const char *name) {
    if (!h || !name) return NULL;
    size_t len = strlen(name);
    for (size_t i = 0; i < h->n_tensors; i++)
        if (h->tensors[i].name.len == len && memcmp(h->tensors[i].name.ptr, name, len) == 0) return &h->tensors[i];
    return NULL;
}

/* Bytes [off, off + n) of the file into dst, from the buffer or the reader. */
static tfs_status read_at(const tfs_priv *p, uint64_t off, uint8_t *dst, size_t n) {
    if (p->buf) {
        memcpy(dst, p->buf + off, n);
        return TFS_OK;
    }
    if (p->forward || !p->rd.read) return TFS_EIO;
    while (n > 0) {
        size_t got = 0;
        if (p->rd.read(p->rd.ctx, off, dst, n, &got) != 0 || got == 0 || got > n) return TFS_EIO;
        dst += got;
        off += got;
        n -= got;
    }
    return TFS_OK;
}

tfs_status tfs__value_read(const tfs_priv *p, const tfs_kvx *x, uint64_t kv_off, uint64_t off, uint8_t *dst, size_t n) {
    if (x->mem && !x->decoded && off >= kv_off && off - kv_off <= x->mem_len && n <= x->mem_len - (off - kv_off)) {
        memcpy(dst, x->mem + (off - kv_off), n);
        return TFS_OK;
    }
    return read_at(p, off, dst, n);
}

/* File offset and length of string element i of a string array, from the
 * nearest mark: at most stride - 1 length fields are read, a chunk at a time. */
static tfs_status find_string(const tfs_priv *p, const tfs_kvx *x, uint64_t kv_off, uint64_t i, uint64_t *off,
                              uint64_t *len) {
    uint64_t m = i / x->stride;
    if (m >= x->n_marks) return TFS_EIO; /* cannot happen for a parsed array */
    uint64_t pos = x->marks[m];
    uint8_t chunk[4096];
    uint64_t c_off = 0, c_len = 0; /* bytes [c_off, c_off + c_len) are in chunk */
    for (uint64_t k = m * x->stride;; k++) {
        uint8_t le[8];
        if (p->buf)
            memcpy(le, p->buf + pos, 8);
        else if (p->forward) { /* only the kept elements (whole ones) */
            if (!x->mem || pos - kv_off > x->mem_len || x->mem_len - (pos - kv_off) < 8u) return TFS_EIO;
            memcpy(le, x->mem + (pos - kv_off), 8);
        } else {
            if (pos < c_off || pos + 8u > c_off + c_len) {
                /* the array was parsed, so its bytes are in the file: a short
                 * read near the file's end is fine as long as 8 bytes came */
                size_t want = sizeof chunk;
                c_off = pos;
                c_len = 0;
                while (c_len < 8u) {
                    size_t got = 0;
                    if (p->forward || !p->rd.read ||
                        p->rd.read(p->rd.ctx, c_off + c_len, chunk + c_len, want - (size_t)c_len, &got) != 0 ||
                        got == 0)
                        return TFS_EIO;
                    c_len += got;
                }
            }
            memcpy(le, chunk + (pos - c_off), 8);
        }
        uint64_t n = 0;
        for (int b = 0; b < 8; b++) n |= (uint64_t)le[b] << (8 * b);
        if (k == i) {
            *off = pos + 8u;
            *len = n;
            return TFS_OK;
        }
        pos += 8u + n; /* no overflow: the parser walked these strings */
    }
}

/* Is kv one of h->kv (an element, not a pointer into one)?  Compared as
 * integers: relational operators on pointers into different objects are
 * undefined. */
bool tfs__kv_index(const tfs_header *h, const tfs_kv *kv, size_t *idx) {
    if (!h || !kv || !h->priv_ || !h->kv || h->n_kv == 0) return false;
    uintptr_t a = (uintptr_t)h->kv, b = (uintptr_t)kv;
    if (b < a || (b - a) % sizeof *kv != 0 || (b - a) / sizeof *kv >= h->n_kv) return false;
    *idx = (b - a) / sizeof *kv;
    return true;
}

/* The value of a GGUF KV as stored (kv->value_len bytes at value_offset):
 * in buffer mode a pointer into the caller's bytes, else read into dst
 * (cap bytes) through the reader.  TFS_EARG: not a GGUF KV of h, or cap too
 * small for a read; TFS_EIO: a forward-only reader, or the read failed. */
tfs_status tfs__kv_stored(const tfs_header *h, const tfs_kv *kv, uint8_t *dst, size_t cap, const uint8_t **out) {
    size_t idx = 0;
    if (!out || !tfs__kv_index(h, kv, &idx) || h->format != TFS_FORMAT_GGUF) return TFS_EARG;
    const tfs_priv *p = h->priv_;
    if (p->buf) {
        *out = p->buf + kv->value_offset;
        return TFS_OK;
    }
    if (kv->value_len > cap || (kv->value_len && !dst)) return TFS_EARG;
    tfs_status st = kv->value_len ? read_at(p, kv->value_offset, dst, (size_t)kv->value_len) : TFS_OK;
    if (st == TFS_OK) *out = dst;
    return st;
}

/* Decode element i of kv (i = 0 for a scalar) into v. */
tfs_status tfs_kv_get(const tfs_header *h, const tfs_kv *kv, uint64_t i, tfs_value *v) {
    size_t idx = 0;
    if (!v || !tfs__kv_index(h, kv, &idx)) return TFS_EARG;
    const tfs_priv *p = h->priv_;
    const tfs_kvx *x = &p->kvx[idx];
    if (i >= kv->count) return TFS_ERANGE;
    memset(v, 0, sizeof *v);
    v->type = kv->elem_type;
    if (kv->elem_type == TFS_GG_STRING) {
        if (x->decoded) { /* safetensors */
            v->u64 = x->scalar;
            v->offset = kv->value_offset + 1u;
        } else if (kv->type != TFS_GG_ARRAY) {
            v->u64 = x->scalar;
            v->offset = kv->value_offset + 8u;
        } else {
            tfs_status st = find_string(p, x, kv->value_offset, i, &v->offset, &v->u64);
            if (st != TFS_OK) return st;
        }
        v->i64 = (int64_t)v->u64;
        return TFS_OK;
    }
    size_t size = tfs_gg_vtype_size(kv->elem_type);
    if (size == 0) return TFS_ETYPE;
    uint64_t raw = 0;
    if (kv->type != TFS_GG_ARRAY) {
        raw = x->scalar;
        v->offset = kv->value_offset;
    } else {
        uint8_t le[8];
        v->offset = kv->value_offset + i * size; /* i < count <= 2^30: no overflow */
        tfs_status st = tfs__value_read(p, x, kv->value_offset, v->offset, le, size);
        if (st != TFS_OK) return st;
        for (size_t b = 0; b < size; b++) raw |= (uint64_t)le[b] << (8u * b);
    }
    tfs__value_decode(kv->elem_type, raw, v);
    return TFS_OK;
}

void tfs__value_decode(uint32_t type, uint64_t raw, tfs_value *v) {
    v->u64 = raw;
    v->i64 = (int64_t)raw;
    switch (type) {
    case TFS_GG_I8: v->i64 = (int8_t)(uint8_t)raw; break;
    case TFS_GG_I16: v->i64 = (int16_t)(uint16_t)raw; break;
    case TFS_GG_I32: v->i64 = (int32_t)(uint32_t)raw; break;
    case TFS_GG_F32: {
        uint32_t b = (uint32_t)raw;
        float f;
        memcpy(&f, &b, 4);
        v->f64 = f;
        break;
    }
    case TFS_GG_F64: memcpy(&v->f64, &raw, 8); break;
    case TFS_GG_BOOL: break; /* the stored byte: 0 false, anything else true */
    default: break;
    }
}

static tfs_status get_typed(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint32_t type, tfs_value *v) {
    size_t idx = 0;
    if (!tfs__kv_index(h, kv, &idx)) return TFS_EARG; /* before anything is read through kv */
    if (kv->elem_type != type) return TFS_ETYPE;
    return tfs_kv_get(h, kv, i, v);
}

#define TFS_GETTER(name, ctype, vtype, expr)                                                      \
    tfs_status tfs_kv_get_##name(const tfs_header *h, const tfs_kv *kv, uint64_t i, ctype *out) { \
        tfs_value v;                                                                              \
        if (!out) return TFS_EARG;                                                                \
        tfs_status st = get_typed(h, kv, i, vtype, &v);                                           \
        if (st == TFS_OK) *out = (ctype)(expr);                                                   \
        return st;                                                                                \
    }
TFS_GETTER(u8, uint8_t, TFS_GG_U8, v.u64)
TFS_GETTER(i8, int8_t, TFS_GG_I8, v.i64)
TFS_GETTER(u16, uint16_t, TFS_GG_U16, v.u64)
TFS_GETTER(i16, int16_t, TFS_GG_I16, v.i64)
TFS_GETTER(u32, uint32_t, TFS_GG_U32, v.u64)
TFS_GETTER(i32, int32_t, TFS_GG_I32, v.i64)
TFS_GETTER(u64, uint64_t, TFS_GG_U64, v.u64)
TFS_GETTER(i64, int64_t, TFS_GG_I64, v.i64)
TFS_GETTER(f32, float, TFS_GG_F32, v.f64)
TFS_GETTER(f64, double, TFS_GG_F64, v.f64)
TFS_GETTER(bool, int, TFS_GG_BOOL, v.u64 != 0)

tfs_status tfs_kv_get_string(const tfs_header *h, const tfs_kv *kv, uint64_t i, tfs_str *out, char *buf, size_t cap) {
    tfs_value v;
    if (!out || (!buf && cap)) return TFS_EARG;
    tfs_status st = get_typed(h, kv, i, TFS_GG_STRING, &v);
    if (st != TFS_OK) return st;
    const tfs_priv *p = h->priv_;
    size_t idx = 0;
    if (!tfs__kv_index(h, kv, &idx)) return TFS_EARG; /* checked by get_typed already */
    const tfs_kvx *x = &p->kvx[idx];
    if (x->decoded || x->str) { /* safetensors; a short GGUF string kept by the parser */
        *out = (tfs_str){(const char *)(x->decoded ? x->mem : x->str), (size_t)v.u64};
        return TFS_OK;
    }
    if (p->buf) {
        *out = (tfs_str){(const char *)p->buf + v.offset, (size_t)v.u64};
        return TFS_OK;
    }
    if (x->mem && v.offset - kv->value_offset <= x->mem_len && v.u64 <= x->mem_len - (v.offset - kv->value_offset)) {
        /* an element a forward-only source kept (GG_ARR_KEEP) */
        *out = (tfs_str){(const char *)x->mem + (v.offset - kv->value_offset), (size_t)v.u64};
        return TFS_OK;
    }
    if (p->forward || !p->rd.read) return TFS_EIO; /* not kept, and cannot be read again */
    size_t n = v.u64 < cap ? (size_t)v.u64 : cap;
    if (n && (st = read_at(p, v.offset, (uint8_t *)buf, n)) != TFS_OK) return st;
    *out = (tfs_str){buf ? buf : "", n};
    return TFS_OK;
}
