/*
 * wbuf.c: the writer's output buffer (tfs/write.h): materialised bytes,
 * holes, segments and the field map.  File I/O lives in wbuf_file.c.
 */
#include "internal.h"
#include "tfs/write.h"

#include <stdlib.h>
#include <string.h>

void tfs_wbuf_init(tfs_wbuf *w) {
    if (w) memset(w, 0, sizeof *w);
}

void tfs_wbuf_free(tfs_wbuf *w) {
    if (!w) return;
    free(w->p);
    free(w->segs);
    free(w->fields);
    tfs_wbuf_init(w);
}

static tfs_status fail(tfs_wbuf *w, tfs_status st) {
    if (w->err == TFS_OK) w->err = st;
    return w->err;
}

/* Extend the last segment when it has the same kind, else add one. */
static tfs_status add_seg(tfs_wbuf *w, uint64_t n, int hole) {
    if (n == 0) return TFS_OK;
    if (w->n_segs && w->segs[w->n_segs - 1].hole == hole) {
        w->segs[w->n_segs - 1].len += n;
        return TFS_OK;
    }
    tfs_wseg *s = tfs__reserve(w->segs, &w->segs_cap, w->n_segs, sizeof *s);
    if (!s) return fail(w, TFS_ENOMEM);
    w->segs = s;
    s[w->n_segs++] = (tfs_wseg){.offset = w->size, .len = n, .pos = w->len, .hole = hole};
    return TFS_OK;
}

/* Grow p to hold `bytes` more materialised bytes and the field map `fields`
 * more fields, in one step each, before a writer appends them piece by piece
 * (no chain of doublings).  Only a hint: on failure nothing changes and the
 * appends grow the buffer as usual. */
void tfs__wbuf_reserve(tfs_wbuf *w, size_t bytes, size_t fields) {
    size_t need;
    if (!w || w->err != TFS_OK) return;
    if (!__builtin_add_overflow(w->len, bytes, &need) && need > w->cap) {
        uint8_t *p = realloc(w->p, need);
        if (p) {
            w->p = p;
            w->cap = need;
        }
    }
    if (!__builtin_add_overflow(w->n_fields, fields, &need) && need > w->fields_cap &&
        need <= SIZE_MAX / sizeof *w->fields) {
        tfs_field *f = realloc(w->fields, need * sizeof *f);
        if (f) {
            w->fields = f;
            w->fields_cap = need;
        }
    }
}

/* Room for n more materialised bytes; returns where they go, or NULL. */
static uint8_t *room(tfs_wbuf *w, size_t n) {
    /* the common case first (a writer appends many small pieces): the bytes
     * fit and extend the last segment, materialised */
    if (w->err == TFS_OK && n <= w->cap - w->len && w->n_segs && !w->segs[w->n_segs - 1].hole &&
        n <= UINT64_MAX - w->size) {
        uint8_t *at = w->p + w->len;
        w->segs[w->n_segs - 1].len += n;
        w->len += n;
        w->size += n;
        return at;
    }
    if (w->err != TFS_OK) return NULL;
    uint64_t size;
    size_t need;
    if (tfs_add_overflow_u64(w->size, n, &size) || __builtin_add_overflow(w->len, n, &need)) {
        fail(w, TFS_EARG);
        return NULL;
    }
    if (need > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
        uint8_t *p = realloc(w->p, cap);
        if (!p) {
            fail(w, TFS_ENOMEM);
            return NULL;
        }
        w->p = p;
        w->cap = cap;
    }
    if (add_seg(w, n, 0) != TFS_OK) return NULL;
    uint8_t *at = w->p + w->len;
    w->len = need;
    w->size = size;
    return at;
}

tfs_status tfs_wbuf_bytes(tfs_wbuf *w, const void *src, size_t n) {
    if (!w) return TFS_EARG;
    if (n && !src) return fail(w, TFS_EARG);
    if (n == 0) return w->err;
    uint8_t *at = room(w, n);
    if (!at) return w->err;
    memcpy(at, src, n);
    return TFS_OK;
}

tfs_status tfs_wbuf_fill(tfs_wbuf *w, uint8_t byte, size_t n) {
    if (!w) return TFS_EARG;
    if (n == 0) return w->err;
    uint8_t *at = room(w, n);
    if (!at) return w->err;
    memset(at, byte, n);
    return TFS_OK;
}

tfs_status tfs_wbuf_hole(tfs_wbuf *w, uint64_t n) {
    if (!w) return TFS_EARG;
    if (w->err != TFS_OK || n == 0) return w->err;
    uint64_t size;
    if (tfs_add_overflow_u64(w->size, n, &size)) return fail(w, TFS_EARG);
    if (add_seg(w, n, 1) != TFS_OK) return w->err;
    w->size = size;
    return TFS_OK;
}

static tfs_status put_le(tfs_wbuf *w, uint64_t v, unsigned n) {
    uint8_t b[8];
    for (unsigned i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
    return tfs_wbuf_bytes(w, b, n);
}

tfs_status tfs_wbuf_u8(tfs_wbuf *w, uint8_t v) {
    if (!w) return TFS_EARG;
    uint8_t *at = room(w, 1);
    if (!at) return w->err;
    *at = v;
    return TFS_OK;
}
tfs_status tfs_wbuf_u16(tfs_wbuf *w, uint16_t v) { return put_le(w, v, 2); }
tfs_status tfs_wbuf_u32(tfs_wbuf *w, uint32_t v) { return put_le(w, v, 4); }
tfs_status tfs_wbuf_u64(tfs_wbuf *w, uint64_t v) { return put_le(w, v, 8); }

tfs_status tfs_wbuf_field(tfs_wbuf *w, uint32_t kind, int32_t record, uint32_t sub, uint64_t offset, uint64_t width) {
    if (!w) return TFS_EARG;
    if (w->err != TFS_OK) return w->err;
    tfs_field *f = tfs__reserve(w->fields, &w->fields_cap, w->n_fields, sizeof *f);
    if (!f) return fail(w, TFS_ENOMEM);
    w->fields = f;
    f[w->n_fields++] = (tfs_field){.kind = kind, .record = record, .sub = sub, .offset = offset, .width = width};
    return TFS_OK;
}

tfs_status tfs_wbuf_truncate(tfs_wbuf *w, uint64_t size) {
    if (!w) return TFS_EARG;
    if (size > w->size) return fail(w, TFS_EARG);
    while (w->n_segs) {
        tfs_wseg *s = &w->segs[w->n_segs - 1];
        if (s->offset >= size) {
            if (!s->hole) w->len = s->pos;
            w->n_segs--;
            continue;
        }
        if (s->offset + s->len > size) {
            s->len = size - s->offset;
            if (!s->hole) w->len = s->pos + (size_t)s->len;
        }
        break;
    }
    w->size = size;
    return w->err;
}

uint8_t *tfs_wbuf_at(const tfs_wbuf *w, uint64_t offset, size_t n) {
    if (!w || offset > w->size || n > w->size - offset) return NULL;
    /* binary search for the segment holding `offset` */
    size_t lo = 0, hi = w->n_segs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->segs[mid].offset + w->segs[mid].len <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == w->n_segs) return n == 0 && w->p ? w->p + w->len : NULL; /* no NULL + 0 (UB) with nothing materialised */
    const tfs_wseg *s = &w->segs[lo];
    if (s->hole || offset - s->offset + n > s->len) return NULL;
    return w->p + s->pos + (size_t)(offset - s->offset);
}

const tfs_field *tfs_wbuf_find(const tfs_wbuf *w, uint32_t kind, int32_t record, uint32_t sub) {
    if (!w) return NULL;
    for (size_t i = 0; i < w->n_fields; i++) {
        const tfs_field *f = &w->fields[i];
        if (f->kind == kind && f->record == record && f->sub == sub) return f;
    }
    return NULL;
}

tfs_status tfs_wbuf_flatten(const tfs_wbuf *w, uint64_t max_bytes, uint8_t **out, size_t *out_len) {
    if (!w || !out || !out_len || w->err != TFS_OK || w->size > max_bytes || w->size > SIZE_MAX - 1) return TFS_EARG;
    uint8_t *p = malloc((size_t)w->size + 1);
    if (!p) return TFS_ENOMEM;
    for (size_t i = 0; i < w->n_segs; i++) {
        const tfs_wseg *s = &w->segs[i];
        if (s->hole)
            memset(p + s->offset, 0, (size_t)s->len);
        else
            memcpy(p + s->offset, w->p + s->pos, (size_t)s->len);
    }
    *out = p;
    *out_len = (size_t)w->size;
    return TFS_OK;
}

tfs_wstr tfs_wstr_c(const char *s) { return (tfs_wstr){.ptr = s, .len = s ? strlen(s) : 0}; }
tfs_wstr tfs_wstr_n(const void *p, size_t len) { return (tfs_wstr){.ptr = p, .len = len}; }
tfs_wstr tfs_wstr_hole(uint64_t len) { return (tfs_wstr){.hole = len}; }
