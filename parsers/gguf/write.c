/*
 * write.c: the GGUF writer (tfs/write.h).  Layout as gguf.cpp
 * gguf_write_to_buf / gguf_writer: header, KV pairs, tensor infos, padding to
 * the alignment, each tensor's data padded to the alignment.  Every field is
 * recorded in the buffer's field map as it is written.
 */
#include "internal.h"
#include "tfs/write.h"

#include <stdlib.h>
#include <string.h>

#define GGW_DEFAULT_ALIGNMENT 32u /* gguf.cpp GGUF_DEFAULT_ALIGNMENT */

/* ------------------------------------------------------------ values */

tfs_gg_wvalue tfs_gg_wval_scalar(uint32_t type, uint64_t bits) {
    tfs_gg_wvalue v = {.type = type, .count = 1};
    tfs_put_le64(v.scalar, bits);
    return v;
}

tfs_gg_wvalue tfs_gg_wval_f32(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return tfs_gg_wval_scalar(TFS_GG_F32, bits);
}

tfs_gg_wvalue tfs_gg_wval_f64(double f) {
    uint64_t bits;
    memcpy(&bits, &f, sizeof bits);
    return tfs_gg_wval_scalar(TFS_GG_F64, bits);
}

tfs_gg_wvalue tfs_gg_wval_str(const tfs_wstr *s) {
    return (tfs_gg_wvalue){.type = TFS_GG_STRING, .count = 1, .strs = s, .n_strs = s ? 1 : 0};
}

tfs_gg_wvalue tfs_gg_wval_array(uint32_t elem_type, uint64_t count, const void *raw, size_t raw_len) {
    return (tfs_gg_wvalue){
        .type = TFS_GG_ARRAY, .elem_type = elem_type, .count = count, .raw = raw, .raw_len = raw_len};
}

tfs_gg_wvalue tfs_gg_wval_str_array(const tfs_wstr *strs, size_t n) {
    return (tfs_gg_wvalue){.type = TFS_GG_ARRAY, .elem_type = TFS_GG_STRING, .count = n, .strs = strs, .n_strs = n};
}

/* ------------------------------------------------------------ widths */

static int str_body(const tfs_wstr *s, uint64_t *out) { return tfs_add_overflow_u64(s->len, s->hole, out) ? -1 : 0; }

/* Bytes of a stored string (u64 length + body). */
static int str_width(const tfs_wstr *s, uint64_t *out) {
    uint64_t body;
    return str_body(s, &body) != 0 || tfs_add_overflow_u64(body, 8u, out) ? -1 : 0;
}

static int strs_width(const tfs_wstr *strs, size_t n, uint64_t *out) {
    uint64_t sum = 0, one;
    for (size_t i = 0; i < n; i++)
        if (str_width(&strs[i], &one) != 0 || tfs_add_overflow_u64(sum, one, &sum)) return -1;
    *out = sum;
    return 0;
}

/* Bytes put_value writes; -1 on overflow or a NULL pointer with a length. */
static int value_width(const tfs_gg_wvalue *v, uint64_t *out) {
    if ((v->n_strs && !v->strs) || (v->raw_len && !v->raw)) return -1;
    if (v->type == TFS_GG_STRING && v->n_strs) return str_width(&v->strs[0], out);
    if (v->type == TFS_GG_ARRAY) {
        uint64_t body = v->raw_len;
        if (v->strs && strs_width(v->strs, v->n_strs, &body) != 0) return -1;
        return tfs_add_overflow_u64(body, 12u, out) ? -1 : 0;
    }
    *out = v->raw ? v->raw_len : tfs_gg_vtype_size(v->type);
    return 0;
}

/* ------------------------------------------------------------ parts */

tfs_status tfs_gg_put_header(tfs_wbuf *w, const char *magic, uint32_t version, uint64_t n_tensors, uint64_t n_kv) {
    if (!w) return TFS_EARG;
    uint64_t at = w->size;
    tfs_wbuf_field(w, TFS_FIELD_MAGIC, -1, 0, at, 4);
    tfs_wbuf_field(w, TFS_FIELD_VERSION, -1, 0, at + 4u, 4);
    tfs_wbuf_field(w, TFS_FIELD_N_TENSORS, -1, 0, at + 8u, 8);
    tfs_wbuf_field(w, TFS_FIELD_N_KV, -1, 0, at + 16u, 8);
    tfs_wbuf_bytes(w, magic ? magic : "GGUF", 4);
    tfs_wbuf_u32(w, version);
    tfs_wbuf_u64(w, n_tensors);
    return tfs_wbuf_u64(w, n_kv);
}

tfs_status tfs_gg_put_str(tfs_wbuf *w, const tfs_wstr *s, uint32_t len_kind, uint32_t str_kind, int32_t record,
                          uint32_t sub) {
    uint64_t body;
    if (!w) return TFS_EARG;
    if (!s || (s->len && !s->ptr) || str_body(s, &body) != 0) {
        if (w->err == TFS_OK) w->err = TFS_EARG;
        return w->err;
    }
    uint64_t at = w->size;
    tfs_wbuf_field(w, len_kind, record, sub, at, 8);
    tfs_wbuf_field(w, str_kind, record, sub, at + 8u, body);
    tfs_wbuf_u64(w, s->len_set ? s->len_field : body);
    tfs_wbuf_bytes(w, s->ptr, s->len);
    return tfs_wbuf_hole(w, s->hole);
}

tfs_status tfs_gg_put_key(tfs_wbuf *w, int32_t record, const tfs_wstr *key, uint32_t type) {
    tfs_gg_put_str(w, key, TFS_FIELD_KEY_LEN, TFS_FIELD_KEY, record, 0);
    if (!w) return TFS_EARG;
    tfs_wbuf_field(w, TFS_FIELD_VALUE_TYPE, record, 0, w->size, 4);
    return tfs_wbuf_u32(w, type);
}

tfs_status tfs_gg_put_value(tfs_wbuf *w, int32_t record, const tfs_gg_wvalue *v) {
    uint64_t width;
    if (!w) return TFS_EARG;
    if (!v || value_width(v, &width) != 0) {
        if (w->err == TFS_OK) w->err = TFS_EARG;
        return w->err;
    }
    if (v->type == TFS_GG_STRING && v->n_strs)
        return tfs_gg_put_str(w, &v->strs[0], TFS_FIELD_STR_LEN, TFS_FIELD_STR, record, 0);
    if (v->type == TFS_GG_ARRAY) {
        tfs_wbuf_field(w, TFS_FIELD_ELEM_TYPE, record, 0, w->size, 4);
        tfs_wbuf_u32(w, v->elem_type);
        tfs_wbuf_field(w, TFS_FIELD_COUNT, record, 0, w->size, 8);
        tfs_wbuf_u64(w, v->count);
        tfs_wbuf_field(w, TFS_FIELD_ARRAY_DATA, record, 0, w->size, width - 12u);
        if (v->strs) {
            for (size_t i = 0; i < v->n_strs; i++)
                tfs_gg_put_str(w, &v->strs[i], TFS_FIELD_STR_LEN, TFS_FIELD_STR, record, (uint32_t)i);
            return w->err;
        }
        size_t esz = tfs_gg_vtype_size(v->elem_type);
        if (esz)
            for (size_t i = 0; i < v->raw_len / esz; i++)
                tfs_wbuf_field(w, TFS_FIELD_VALUE, record, (uint32_t)i, w->size + i * esz, esz);
        return tfs_wbuf_bytes(w, v->raw, v->raw_len);
    }
    if (width) tfs_wbuf_field(w, TFS_FIELD_VALUE, record, 0, w->size, width);
    return tfs_wbuf_bytes(w, v->raw ? v->raw : v->scalar, (size_t)width);
}

tfs_status tfs_gg_put_kv(tfs_wbuf *w, int32_t record, const tfs_gg_wkv *kv) {
    uint64_t kw, vw, all;
    if (!w) return TFS_EARG;
    if (!kv || str_width(&kv->key, &kw) != 0 || value_width(&kv->value, &vw) != 0 ||
        tfs_add_overflow_u64(kw, 4u, &all) || tfs_add_overflow_u64(all, vw, &all)) {
        if (w->err == TFS_OK) w->err = TFS_EARG;
        return w->err;
    }
    tfs_wbuf_field(w, TFS_FIELD_KV, record, 0, w->size, all);
    tfs_gg_put_key(w, record, &kv->key, kv->value.type);
    return tfs_gg_put_value(w, record, &kv->value);
}

tfs_status tfs_gg_put_tensor_info(tfs_wbuf *w, int32_t record, const tfs_gg_wtensor *t, uint64_t offset) {
    uint64_t nw, all;
    if (!w) return TFS_EARG;
    if (!t || t->n_dims > TFS_GG_WMAX_DIMS || str_width(&t->name, &nw) != 0 ||
        tfs_add_overflow_u64(nw, 4u + 8u * t->n_dims + 4u + 8u, &all)) {
        if (w->err == TFS_OK) w->err = TFS_EARG;
        return w->err;
    }
    tfs_wbuf_field(w, TFS_FIELD_TENSOR_INFO, record, 0, w->size, all);
    tfs_gg_put_str(w, &t->name, TFS_FIELD_NAME_LEN, TFS_FIELD_NAME, record, 0);
    tfs_wbuf_field(w, TFS_FIELD_N_DIMS, record, 0, w->size, 4);
    tfs_wbuf_u32(w, t->n_dims_set ? t->n_dims_field : t->n_dims);
    for (uint32_t j = 0; j < t->n_dims; j++) {
        tfs_wbuf_field(w, TFS_FIELD_DIM, record, j, w->size, 8);
        tfs_wbuf_u64(w, t->ne[j]);
    }
    tfs_wbuf_field(w, TFS_FIELD_TYPE, record, 0, w->size, 4);
    tfs_wbuf_u32(w, t->type);
    tfs_wbuf_field(w, TFS_FIELD_OFFSET, record, 0, w->size, 8);
    return tfs_wbuf_u64(w, offset);
}

/* ------------------------------------------------------------ layout */

int tfs_gg_tensor_nbytes(uint32_t type, uint32_t n_dims, const uint64_t *ne, uint64_t *out) {
    uint32_t bs = tfs_gg_type_block_size(type), ts = tfs_gg_type_size(type);
    if (bs == 0 || ts == 0 || (n_dims && !ne)) return -1;
    for (uint32_t j = 0; j < n_dims; j++)
        if (ne[j] > (uint64_t)INT64_MAX) return -1;
    uint64_t ne0 = n_dims ? ne[0] : 1u;
    if (ne0 % bs != 0) return -1;
    uint64_t n = ne0 / bs;
    if (tfs_mul_overflow_u64(n, ts, &n)) return -1;
    for (uint32_t j = 1; j < n_dims; j++)
        if (tfs_mul_overflow_u64(n, ne[j], &n)) return -1;
    *out = n;
    return 0;
}

static int pad_to(uint64_t x, uint64_t a, uint64_t *out) {
    uint64_t r = x % a;
    if (r == 0) {
        *out = x;
        return 0;
    }
    return tfs_add_overflow_u64(x, a - r, out) ? -1 : 0;
}

/* The alignment the layout uses (see tfs_gg_model.alignment). */
static uint32_t model_alignment(const tfs_gg_model *m) {
    if (m->alignment) return m->alignment;
    for (size_t i = 0; i < m->n_kv; i++) {
        const tfs_gg_wkv *kv = &m->kv[i];
        if (kv->key.len == 17 && kv->key.hole == 0 && memcmp(kv->key.ptr, "general.alignment", 17) == 0 &&
            kv->value.type == TFS_GG_U32) {
            const uint8_t *p = kv->value.raw ? (kv->value.raw_len >= 4 ? kv->value.raw : NULL) : kv->value.scalar;
            uint32_t a = p ? tfs_le32(p) : 0;
            if (a) return a;
        }
    }
    return GGW_DEFAULT_ALIGNMENT;
}

static uint64_t tensor_size(const tfs_gg_wtensor *t) {
    uint64_t nb;
    if (t->n_dims > TFS_GG_WMAX_DIMS || tfs_gg_tensor_nbytes(t->type, t->n_dims, t->ne, &nb) != 0) return 0;
    return nb;
}

static tfs_status earg(tfs_wbuf *w) {
    if (w->err == TFS_OK) w->err = TFS_EARG;
    return w->err;
}

/* One tensor's data: `len` bytes (from t->data up to its n_bytes, then a hole). */
static tfs_status put_data(tfs_wbuf *w, int32_t record, const tfs_gg_wtensor *t, uint64_t nb, uint64_t len) {
    tfs_wbuf_field(w, TFS_FIELD_DATA, record, 0, w->size, len);
    uint64_t from = t->data ? (len < nb ? len : nb) : 0;
    if (from > SIZE_MAX) return earg(w);
    tfs_wbuf_bytes(w, t->data, (size_t)from);
    return tfs_wbuf_hole(w, len - from);
}

static tfs_status put_pad(tfs_wbuf *w, uint32_t kind, int32_t record, uint64_t base, uint64_t align, uint8_t byte) {
    uint64_t rel = w->size - base, end;
    if (pad_to(rel, align, &end) != 0) return earg(w);
    if (end == rel) return w->err;
    tfs_wbuf_field(w, kind, record, 0, w->size, end - rel);
    return tfs_wbuf_fill(w, byte, (size_t)(end - rel));
}

tfs_status tfs_gg_write(const tfs_gg_model *m, tfs_wbuf *w) {
    if (!w) return TFS_EARG;
    if (!m || (m->n_kv && !m->kv) || (m->n_tensors && !m->tensors) || m->n_kv > INT32_MAX || m->n_tensors > INT32_MAX)
        return earg(w);
    uint64_t align = model_alignment(m);
    uint64_t base = w->size;
    tfs_gg_put_header(w, m->magic, m->version, m->n_tensors_set ? m->n_tensors_field : m->n_tensors,
                      m->n_kv_set ? m->n_kv_field : m->n_kv);
    for (size_t i = 0; i < m->n_kv; i++) tfs_gg_put_kv(w, (int32_t)i, &m->kv[i]);

    uint64_t running = 0;
    for (size_t i = 0; i < m->n_tensors; i++) {
        const tfs_gg_wtensor *t = &m->tensors[i];
        tfs_gg_put_tensor_info(w, (int32_t)i, t, t->offset_set ? t->offset : running);
        /* offsets follow the valid layout even when a knob drops padding */
        uint64_t nb = tensor_size(t), padded = nb;
        if (pad_to(nb, align, &padded) != 0) padded = UINT64_MAX;
        if (tfs_add_overflow_u64(running, padded, &running))
            running = UINT64_MAX; /* later offsets saturate: the parser reports the overflow */
    }
    if (w->err != TFS_OK) return w->err;
    /* ggml seeks to the aligned data start only when there are tensors */
    if (m->n_tensors && !(m->flags & TFS_GGW_NO_HEADER_PAD))
        put_pad(w, TFS_FIELD_PADDING, -1, base, align, m->pad_byte);
    if (m->flags & TFS_GGW_NO_DATA) return w->err;
    uint64_t data_start = w->size;
    for (size_t i = 0; i < m->n_tensors && w->err == TFS_OK; i++) {
        const tfs_gg_wtensor *t = &m->tensors[i];
        uint64_t nb = tensor_size(t);
        put_data(w, (int32_t)i, t, nb, t->data_len_set ? t->data_len : nb);
        if (!(m->flags & TFS_GGW_NO_DATA_PAD))
            put_pad(w, TFS_FIELD_DATA_PADDING, (int32_t)i, data_start, align, m->pad_byte);
    }
    return w->err;
}

/* ------------------------------------------------------- view -> model */

typedef struct gg_model_box {
    tfs_gg_model m; /* first: the public pointer is the box */
    tfs_gg_wkv *kv;
    tfs_gg_wtensor *t;
    tfs_wstr *strs;
    uint8_t *arena; /* string bytes and array elements read through the accessors */
} gg_model_box;

void tfs_gg_model_free(tfs_gg_model *m) {
    gg_model_box *b = (gg_model_box *)m;
    if (!b) return;
    free(b->kv);
    free(b->t);
    free(b->strs);
    free(b->arena);
    free(b);
}

/* Element i of kv (a string) into the arena at *at; the arena was sized
 * from the values' stored sizes, which hold every string byte. */
static tfs_status take_string(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint8_t *arena, size_t *at, size_t cap,
                              tfs_wstr *out) {
    tfs_str v;
    tfs_status st = tfs_kv_get_string(h, kv, i, &v, (char *)arena + *at, cap - *at);
    if (st != TFS_OK) return st;
    if ((const uint8_t *)v.ptr == arena + *at) *at += v.len;
    *out = tfs_wstr_n(v.ptr, v.len);
    return TFS_OK;
}

/* An array value in one piece (tfs__kv_stored: borrowed from the caller's
 * buffer, else read into the arena at *at): fixed-size elements as stored,
 * string elements walked once in order (element by element through the
 * accessors, each string is found from the nearest mark: up to 63 length
 * fields read per element).  Returns false, with *s and *at unchanged, when
 * the value cannot be had that way (a forward-only reader); the caller then
 * reads it element by element. */
static bool take_array(const tfs_header *h, const tfs_kv *kv, gg_model_box *b, size_t *s, size_t *at, size_t cap,
                       tfs_gg_wvalue *o) {
    const uint8_t *raw = NULL;
    if (tfs__kv_stored(h, kv, b->arena ? b->arena + *at : NULL, cap - *at, &raw) != TFS_OK) return false;
    size_t len = (size_t)kv->value_len, k = *s;
    if (kv->elem_type == TFS_GG_STRING) {
        size_t pos = 0;
        for (uint64_t i = 0; i < kv->count; i++) {
            uint64_t n = 0;
            if (len - pos < 8u) return false; /* cannot happen for a parsed array */
            for (int j = 0; j < 8; j++) n |= (uint64_t)raw[pos + (size_t)j] << (8 * j);
            pos += 8u;
            if (n > len - pos) return false;
            b->strs[k++] = tfs_wstr_n(raw + pos, (size_t)n);
            pos += (size_t)n;
        }
        o->strs = kv->count ? &b->strs[*s] : NULL;
        o->n_strs = (size_t)kv->count;
    } else {
        size_t size = tfs_gg_vtype_size(kv->elem_type);
        if (size == 0 || kv->count > len / size || kv->count * size != len) return false;
        o->raw = len ? raw : NULL;
        o->raw_len = len;
    }
    *s = k;
    if (b->arena && raw == b->arena + *at) *at += len;
    return true;
}

tfs_status tfs_gg_model_from_view(const tfs_header *h, tfs_gg_model **out) {
    if (out) *out = NULL;
    if (!h || !out || h->format != TFS_FORMAT_GGUF) return TFS_EARG;
    uint64_t n_strs = 0, bytes = 0;
    for (size_t i = 0; i < h->n_kv; i++) {
        const tfs_kv *kv = &h->kv[i];
        if (tfs_add_overflow_u64(bytes, kv->value_len, &bytes)) return TFS_EARG;
        if (kv->type == TFS_GG_STRING)
            n_strs += 1;
        else if (kv->type == TFS_GG_ARRAY && kv->elem_type == TFS_GG_STRING &&
                 tfs_add_overflow_u64(n_strs, kv->count, &n_strs))
            return TFS_EARG;
    }
    for (size_t i = 0; i < h->n_tensors; i++)
        if (h->tensors[i].n_dims > TFS_GG_WMAX_DIMS) return TFS_EARG;
    for (size_t i = 0; i < h->n_kv; i++)
        if (h->kv[i].key.len < h->kv[i].key_size) /* a view holds TFS_KEY_KEEP bytes of it */
            return TFS_EARG;
    if (n_strs > SIZE_MAX / sizeof(tfs_wstr) || bytes > SIZE_MAX) return TFS_EARG;
    gg_model_box *b = calloc(1, sizeof *b);
    if (!b) return TFS_ENOMEM;
    b->kv = h->n_kv ? calloc(h->n_kv, sizeof *b->kv) : NULL;
    b->t = h->n_tensors ? calloc(h->n_tensors, sizeof *b->t) : NULL;
    b->strs = n_strs ? calloc((size_t)n_strs, sizeof *b->strs) : NULL;
    b->arena = bytes ? malloc((size_t)bytes) : NULL;
    if ((h->n_kv && !b->kv) || (h->n_tensors && !b->t) || (n_strs && !b->strs) || (bytes && !b->arena)) {
        tfs_gg_model_free(&b->m);
        return TFS_ENOMEM;
    }
    size_t s = 0, at = 0, cap = (size_t)bytes;
    tfs_status st = TFS_OK;
    /* values through the accessors: any parse mode (buffer, file, reader) */
    for (size_t i = 0; i < h->n_kv && st == TFS_OK; i++) {
        const tfs_kv *kv = &h->kv[i];
        tfs_gg_wkv *o = &b->kv[i];
        o->key = tfs_wstr_n(kv->key.ptr, kv->key.len);
        o->value.type = kv->type;
        o->value.elem_type = kv->elem_type;
        o->value.count = kv->count;
        if (kv->type == TFS_GG_ARRAY && take_array(h, kv, b, &s, &at, cap, &o->value)) continue;
        if (kv->elem_type == TFS_GG_STRING) {
            o->value.strs = b->strs ? &b->strs[s] : NULL; /* NULL: no string anywhere (count 0) */
            o->value.n_strs = (size_t)kv->count;
            for (uint64_t k = 0; k < kv->count && st == TFS_OK; k++)
                st = take_string(h, kv, k, b->arena, &at, cap, &b->strs[s++]);
        } else if (kv->type == TFS_GG_ARRAY) {
            size_t size = tfs_gg_vtype_size(kv->elem_type);
            o->value.raw = b->arena ? b->arena + at : NULL; /* NULL: no value bytes anywhere (count 0) */
            o->value.raw_len = (size_t)kv->value_len;
            for (uint64_t k = 0; k < kv->count && st == TFS_OK; k++) {
                tfs_value v;
                if ((st = tfs_kv_get(h, kv, k, &v)) != TFS_OK) break;
                for (size_t j = 0; j < size; j++) b->arena[at++] = (uint8_t)(v.u64 >> (8u * j));
            }
        } else {
            tfs_value v;
            if ((st = tfs_kv_get(h, kv, 0, &v)) == TFS_OK) o->value = tfs_gg_wval_scalar(kv->type, v.u64);
        }
    }
    if (st != TFS_OK) {
        tfs_gg_model_free(&b->m);
        return st;
    }
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        tfs_gg_wtensor *o = &b->t[i];
        o->name = tfs_wstr_n(t->name.ptr, t->name.len);
        o->n_dims = t->n_dims;
        for (uint32_t j = 0; j < t->n_dims; j++) o->ne[j] = t->shape[j];
        o->type = t->type;
    }
    b->m.version = h->version;
    b->m.n_kv = h->n_kv;
    b->m.kv = b->kv;
    b->m.n_tensors = h->n_tensors;
    b->m.tensors = b->t;
    b->m.alignment = h->alignment;
    *out = &b->m;
    return TFS_OK;
}
