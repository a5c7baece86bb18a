/*
 * write.c: the safetensors writer (tfs/write.h).  Output as the crate's
 * serializer (tensor.rs prepare / serialize): u64 N, the JSON header padded
 * with spaces to a multiple of 8, the data buffer; JSON compact as
 * serde_json::to_string unless a layout option says otherwise.  Every token
 * is recorded in the buffer's field map as it is written.
 */
#include "internal.h"
#include "tfs/write.h"

#include <stdlib.h>
#include <string.h>

/* The JSON text is staged in `stage` and appended to the buffer a block at
 * a time (tokens are a few bytes each: one append per byte or token was most
 * of a write); pos() is the file offset of the next byte. */
typedef struct stw {
    tfs_wbuf *w;
    const tfs_st_model *m;
    size_t n; /* bytes staged */
    uint8_t stage[512];
} stw;

static void flush(stw *s) {
    if (s->n) tfs_wbuf_bytes(s->w, s->stage, s->n);
    s->n = 0;
}

static void emit(stw *s, const void *p, size_t len) {
    if (len > sizeof s->stage - s->n) {
        flush(s);
        if (len >= sizeof s->stage) {
            tfs_wbuf_bytes(s->w, p, len);
            return;
        }
    }
    memcpy(s->stage + s->n, p, len);
    s->n += len;
}

static void emit1(stw *s, uint8_t c) {
    if (s->n == sizeof s->stage) flush(s);
    s->stage[s->n++] = c;
}

static uint64_t pos(const stw *s) { return s->w->size + s->n; }

static tfs_status earg(tfs_wbuf *w) {
    if (w->err == TFS_OK) w->err = TFS_EARG;
    return w->err;
}

static void text(stw *s, const char *t) { emit(s, t, strlen(t)); }

/* Open a field whose width is known only later; returns its index or
 * SIZE_MAX when the map could not grow (the error is sticky). */
static size_t open_field(stw *s, uint32_t kind, int32_t record, uint32_t sub) {
    if (tfs_wbuf_field(s->w, kind, record, sub, pos(s), 0) != TFS_OK) return SIZE_MAX;
    return s->w->n_fields - 1u;
}

static void close_field(stw *s, size_t idx) {
    if (idx != SIZE_MAX && s->w->err == TFS_OK) s->w->fields[idx].width = pos(s) - s->w->fields[idx].offset;
}

/* Newline and indentation before a member at nesting `level` (indent > 0). */
static void newline(stw *s, unsigned level) {
    if (!s->m->indent) return;
    emit1(s, '\n');
    for (size_t k = (size_t)s->m->indent * level; k > 0; k--) emit1(s, ' ');
}

static void colon(stw *s) { text(s, s->m->indent ? ": " : ":"); }
static void comma_in_array(stw *s) { text(s, s->m->indent ? ", " : ","); }


static void u_escape(stw *s, uint32_t u) {
    static const char hex[] = "0123456789abcdef"; /* lower case, as serde_json */
    char e[6] = {'\\', 'u', hex[(u >> 12) & 15u], hex[(u >> 8) & 15u], hex[(u >> 4) & 15u], hex[u & 15u]};
    emit(s, e, sizeof e); /* callers pass UTF-16 units */
}

/* A JSON string token for `len` bytes at `p`, escaped as serde_json does
 * (", \, and control characters; \uXXXX for the others below 0x20), and
 * with ascii every non-ASCII character as \uXXXX (surrogate pairs above
 * U+FFFF).  Invalid UTF-8 is copied as is (a knob for wrong files). */
static void jstring(stw *s, const tfs_wstr *str) {
    const uint8_t *p = str->ptr;
    size_t n = str->len;
    emit1(s, '"');
    size_t run = 0; /* bytes copied verbatim, pending */
    for (size_t i = 0; i < n;) {
        uint8_t c = p[i];
        if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x80 || !s->m->ascii)) { /* verbatim */
            if (run == 0) run = i + 1;
            i++;
            continue;
        }
        const char *esc = NULL;
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default: break;
        }
        uint32_t cp = 0;
        size_t k = 1;
        int special = esc != NULL || c < 0x20;
        if (!special && c >= 0x80 && s->m->ascii && (k = tfs_utf8_decode(p + i, n - i, &cp)) != 0) special = 1;
        if (k == 0) k = 1;
        if (!special) {
            if (run == 0) run = i + 1; /* store start + 1 */
            i += k;
            continue;
        }
        if (run) {
            emit(s, p + run - 1, i - (run - 1));
            run = 0;
        }
        if (esc) {
            text(s, esc);
        } else if (c < 0x20) {
            u_escape(s, c);
        } else if (cp >= 0x10000) {
            cp -= 0x10000;
            u_escape(s, 0xD800 + (cp >> 10));
            u_escape(s, 0xDC00 + (cp & 0x3FF));
        } else {
            u_escape(s, cp);
        }
        i += k;
    }
    if (run) emit(s, p + run - 1, n - (run - 1));
    emit1(s, '"');
}

/* A token: the raw text when given, else the string `str`, as one field. */
static void token_str(stw *s, uint32_t kind, int32_t record, uint32_t sub, const char *raw, const tfs_wstr *str) {
    size_t f = open_field(s, kind, record, sub);
    if (raw)
        text(s, raw);
    else
        jstring(s, str);
    close_field(s, f);
}

/* v in decimal, no leading zeros (as serde_json's u64); returns the digits'
 * start in buf[24]. */
static const char *decimal(char buf[24], uint64_t v) {
    char *p = buf + 23;
    *p = 0;
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    return p;
}

static void token_u64(stw *s, uint32_t kind, int32_t record, uint32_t sub, const char *raw, uint64_t v) {
    char num[24];
    size_t f = open_field(s, kind, record, sub);
    text(s, raw ? raw : decimal(num, v));
    close_field(s, f);
}

static void member_key(stw *s, int32_t record, uint32_t pos, const char *key) {
    size_t f = open_field(s, TFS_FIELD_MEMBER_KEY, record, pos);
    emit1(s, '"');
    text(s, key);
    emit1(s, '"');
    close_field(s, f);
    colon(s);
}

static void dtype_tok(stw *s, int32_t r, const tfs_st_wentry *e) {
    const char *name = tfs_st_dtype_name(e->dtype);
    tfs_wstr ds = tfs_wstr_c(name ? name : "");
    token_str(s, TFS_FIELD_DTYPE, r, 0, e->dtype_raw, &ds);
}

static void shape_tok(stw *s, int32_t r, const tfs_st_wentry *e) {
    size_t f = open_field(s, TFS_FIELD_SHAPE, r, 0);
    if (e->shape_raw) {
        text(s, e->shape_raw);
    } else {
        emit1(s, '[');
        for (uint32_t j = 0; j < e->n_dims; j++) {
            if (j) comma_in_array(s);
            token_u64(s, TFS_FIELD_DIM, r, j, NULL, e->shape[j]);
        }
        emit1(s, ']');
    }
    close_field(s, f);
}

static void offsets_tok(stw *s, int32_t r, const tfs_st_wentry *e, uint64_t begin, uint64_t end) {
    size_t f = open_field(s, TFS_FIELD_DATA_OFFSETS, r, 0);
    if (e->offsets_raw) {
        text(s, e->offsets_raw);
    } else {
        emit1(s, '[');
        token_u64(s, TFS_FIELD_BEGIN, r, 0, e->begin_raw, begin);
        comma_in_array(s);
        token_u64(s, TFS_FIELD_END, r, 0, e->end_raw, end);
        emit1(s, ']');
    }
    close_field(s, f);
}

/* One member letter of tfs_st_wentry.members: its value token, or the extra
 * text for any other letter; in object form (pos != UINT32_MAX) d, s and o get
 * their key first. */
static void member(stw *s, int32_t r, const tfs_st_wentry *e, char m, uint32_t pos, uint64_t begin, uint64_t end) {
    static const char *const keys[] = {"dtype", "shape", "data_offsets"};
    int k = m == 'd' ? 0 : m == 's' ? 1 : m == 'o' ? 2 : -1;
    if (k >= 0 && pos != UINT32_MAX) member_key(s, r, pos, keys[k]);
    switch (k) {
    case 0: dtype_tok(s, r, e); break;
    case 1: shape_tok(s, r, e); break;
    case 2: offsets_tok(s, r, e, begin, end); break;
    default: text(s, e->extra ? e->extra : ""); break;
    }
}

static void entry(stw *s, int32_t r, const tfs_st_wentry *e, uint64_t begin, uint64_t end) {
    size_t f = open_field(s, TFS_FIELD_ENTRY, r, 0);
    token_str(s, TFS_FIELD_NAME, r, 0, e->name_raw, &e->name);
    colon(s);
    const char *order = e->members ? e->members : "dso";
    if (e->array_form) {
        /* elements in member order: "ds" or "dsox" give the wrong arity (ST204) */
        emit1(s, '[');
        for (const char *c = order; *c; c++) {
            if (c != order) comma_in_array(s);
            member(s, r, e, *c, UINT32_MAX, begin, end);
        }
        emit1(s, ']');
        close_field(s, f);
        return;
    }
    emit1(s, '{');
    uint32_t pos = 0;
    for (const char *c = order; *c; c++, pos++) {
        if (pos) emit1(s, ',');
        newline(s, 2);
        member(s, r, e, *c, pos, begin, end);
    }
    if (pos) newline(s, 1);
    emit1(s, '}');
    close_field(s, f);
}

static void metadata(stw *s) {
    const tfs_st_model *m = s->m;
    size_t f = open_field(s, TFS_FIELD_METADATA, -1, 0);
    text(s, "\"__metadata__\"");
    colon(s);
    if (m->metadata == TFS_STW_META_NULL) {
        text(s, "null");
    } else {
        emit1(s, '{');
        for (size_t i = 0; i < m->n_meta; i++) {
            const tfs_st_wmeta *kv = &m->meta[i];
            if (i) emit1(s, ',');
            newline(s, 2);
            token_str(s, TFS_FIELD_META_KEY, (int32_t)i, 0, kv->key_raw, &kv->key);
            colon(s);
            token_str(s, TFS_FIELD_META_VALUE, (int32_t)i, 0, kv->value_raw, &kv->value);
        }
        if (m->n_meta) newline(s, 1);
        emit1(s, '}');
    }
    close_field(s, f);
}

/* Byte size of an entry (n_elements * bits / 8; 0 on overflow). */
static uint64_t entry_size(const tfs_st_wentry *e) {
    uint64_t n = 1;
    for (uint32_t j = 0; j < e->n_dims; j++)
        if (tfs_mul_overflow_u64(n, e->shape[j], &n)) return 0;
    if (tfs_mul_overflow_u64(n, tfs_st_dtype_bits(e->dtype), &n)) return 0;
    return n / 8u;
}

static void json(stw *s, const uint64_t *begin, const uint64_t *end) {
    const tfs_st_model *m = s->m;
    if (m->leading_ws) text(s, m->leading_ws);
    emit1(s, '{');
    size_t meta_at = m->meta_pos < m->n_entries ? m->meta_pos : m->n_entries;
    int any = 0;
    for (size_t i = 0; i <= m->n_entries; i++) {
        if (i == meta_at && m->metadata != TFS_STW_META_ABSENT) {
            if (any) emit1(s, ',');
            newline(s, 1);
            metadata(s);
            any = 1;
        }
        if (i == m->n_entries) break;
        if (any) emit1(s, ',');
        newline(s, 1);
        entry(s, (int32_t)i, &m->entries[i], begin[i], end[i]);
        any = 1;
    }
    if (any && m->indent) emit1(s, '\n');
    emit1(s, '}');
    if (m->trailing_ws) text(s, m->trailing_ws);
}

static tfs_status data(stw *s, uint64_t size, const uint64_t *begin, const uint64_t *end) {
    const tfs_st_model *m = s->m;
    tfs_wbuf *w = s->w;
    uint64_t start = w->size;
    int any_data = 0;
    for (size_t i = 0; i < m->n_entries; i++) {
        if (m->entries[i].data) any_data = 1;
        if (begin[i] <= end[i]) tfs_wbuf_field(w, TFS_FIELD_DATA, (int32_t)i, 0, start + begin[i], end[i] - begin[i]);
    }
    if (!any_data && m->data_fill == 0) return tfs_wbuf_hole(w, size);
    if (size > SIZE_MAX) return earg(w);
    if (tfs_wbuf_fill(w, m->data_fill, (size_t)size) != TFS_OK) return w->err;
    for (size_t i = 0; i < m->n_entries; i++) {
        const tfs_st_wentry *e = &m->entries[i];
        if (!e->data || begin[i] >= size || begin[i] >= end[i]) continue;
        uint64_t n = (end[i] < size ? end[i] : size) - begin[i];
        memcpy(tfs_wbuf_at(w, start + begin[i], (size_t)n), e->data, (size_t)n);
    }
    return TFS_OK;
}

/* Bytes of the header as written compactly, roughly (a reservation hint;
 * escapes, indentation and raw tokens may need more): 0 when it would
 * overflow. */
static size_t header_estimate(const tfs_st_model *m) {
    size_t n = 64u + m->raw_json_len;
    if (m->raw_json) return n;
    for (size_t i = 0; i < m->n_entries; i++) {
        const tfs_st_wentry *e = &m->entries[i];
        if (__builtin_add_overflow(n, e->name.len + 80u + 21u * (size_t)e->n_dims, &n)) return 0;
    }
    for (size_t i = 0; i < m->n_meta; i++)
        if (__builtin_add_overflow(n, m->meta[i].key.len + m->meta[i].value.len + 8u, &n)) return 0;
    return n;
}

tfs_status tfs_st_write(const tfs_st_model *m, tfs_wbuf *w) {
    if (!w) return TFS_EARG;
    if (!m || (m->n_entries && !m->entries) || (m->n_meta && !m->meta) || (m->raw_json_len && !m->raw_json) ||
        m->n_entries > INT32_MAX || m->n_meta > INT32_MAX)
        return earg(w);
    for (size_t i = 0; i < m->n_entries; i++) {
        const tfs_st_wentry *e = &m->entries[i];
        if ((e->n_dims && !e->shape) || (e->name.len && !e->name.ptr) ||
            (!e->dtype_raw && !tfs_st_dtype_name(e->dtype)))
            return earg(w);
    }
    for (size_t i = 0; i < m->n_meta; i++)
        if ((m->meta[i].key.len && !m->meta[i].key.ptr) || (m->meta[i].value.len && !m->meta[i].value.ptr))
            return earg(w);
    uint64_t *begin = malloc((m->n_entries ? m->n_entries : 1) * 2 * sizeof *begin);
    if (!begin) {
        if (w->err == TFS_OK) w->err = TFS_ENOMEM;
        return w->err;
    }
    uint64_t *end = begin + m->n_entries;
    uint64_t running = 0, max_end = 0;
    for (size_t i = 0; i < m->n_entries; i++) {
        const tfs_st_wentry *e = &m->entries[i];
        if (e->offsets_set) {
            begin[i] = e->begin;
            end[i] = e->end;
        } else {
            begin[i] = running;
            if (tfs_add_overflow_u64(running, entry_size(e), &end[i])) end[i] = UINT64_MAX;
            running = end[i];
        }
        if (end[i] > max_end) max_end = end[i];
    }

    stw s = {.w = w, .m = m};
    tfs__wbuf_reserve(w, header_estimate(m), 8u + 8u * m->n_entries + 4u * m->n_meta);
    uint64_t base = w->size;
    tfs_wbuf_field(w, TFS_FIELD_HEADER_SIZE, -1, 0, base, 8);
    tfs_wbuf_u64(w, 0); /* N, patched below */
    size_t jf = open_field(&s, TFS_FIELD_JSON, -1, 0);
    if (m->raw_json)
        tfs_wbuf_bytes(w, m->raw_json, m->raw_json_len);
    else
        json(&s, begin, end);
    flush(&s);
    uint64_t n = w->size - base - 8u;
    uint64_t pad_to = m->pad_to ? m->pad_to : 8u, pad = (pad_to - n % pad_to) % pad_to;
    if (pad) {
        tfs_wbuf_field(w, TFS_FIELD_PADDING, -1, 0, w->size, pad);
        tfs_wbuf_fill(w, ' ', (size_t)pad);
    }
    close_field(&s, jf);
    if (w->err == TFS_OK) {
        uint64_t nf = m->header_size_set ? m->header_size : n + pad;
        uint8_t *at = tfs_wbuf_at(w, base, 8);
        tfs_put_le64(at, nf);
        data(&s, m->data_len_set ? m->data_len : max_end, begin, end);
    }
    free(begin);
    return w->err;
}

/* ------------------------------------------------------- view -> model */

typedef struct st_model_box {
    tfs_st_model m; /* first: the public pointer is the box */
    tfs_st_wentry *e;
    tfs_st_wmeta *meta;
} st_model_box;

void tfs_st_model_free(tfs_st_model *m) {
    st_model_box *b = (st_model_box *)m;
    if (!b) return;
    free(b->e);
    free(b->meta);
    free(b);
}

tfs_status tfs_st_model_from_view(const tfs_header *h, tfs_st_model **out) {
    if (out) *out = NULL;
    if (!h || !out || h->format != TFS_FORMAT_SAFETENSORS) return TFS_EARG;
    st_model_box *b = calloc(1, sizeof *b);
    if (!b) return TFS_ENOMEM;
    b->e = h->n_tensors ? calloc(h->n_tensors, sizeof *b->e) : NULL;
    b->meta = h->n_kv ? calloc(h->n_kv, sizeof *b->meta) : NULL;
    if ((h->n_tensors && !b->e) || (h->n_kv && !b->meta)) {
        tfs_st_model_free(&b->m);
        return TFS_ENOMEM;
    }
    uint64_t running = 0;
    int packed = 1;
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        tfs_st_wentry *e = &b->e[i];
        e->name = tfs_wstr_n(t->name.ptr, t->name.len);
        e->dtype = t->type;
        e->n_dims = t->n_dims;
        e->shape = t->shape;
        e->begin = t->offset;
        e->end = t->offset + t->n_bytes; /* no overflow: the parser checked it */
        if (t->offset != running) packed = 0;
        running = e->end;
    }
    for (size_t i = 0; i < h->n_tensors && !packed; i++) b->e[i].offsets_set = 1;
    for (size_t i = 0; i < h->n_kv; i++) {
        const tfs_kv *kv = &h->kv[i];
        b->meta[i].key = tfs_wstr_n(kv->key.ptr, kv->key.len);
        tfs_str v; /* the decoded string, always in memory for safetensors */
        tfs_status st = tfs_kv_get_string(h, kv, 0, &v, NULL, 0);
        if (st != TFS_OK) {
            tfs_st_model_free(&b->m);
            return st;
        }
        b->meta[i].value = tfs_wstr_n(v.ptr, v.len);
    }
    b->m.n_entries = h->n_tensors;
    b->m.entries = b->e;
    b->m.metadata = h->has_metadata ? TFS_STW_META_OBJECT : TFS_STW_META_ABSENT;
    b->m.n_meta = h->n_kv;
    b->m.meta = b->meta;
    *out = &b->m;
    return TFS_OK;
}
