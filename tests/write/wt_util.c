/* wt_util.c: see wt_util.h. */
#include "wt_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wt_parse(const tfs_wbuf *w, tfs_format fmt, unsigned flags, wt_file *out) {
    memset(out, 0, sizeof *out);
    if (tfs_wbuf_flatten(w, UINT64_C(256) << 20, &out->p, &out->len) != TFS_OK) return -1;
    out->st = tfs_parse_buffer(out->p, out->len, fmt, flags, &out->h, &out->e);
    return 0;
}

void wt_file_free(wt_file *f) {
    tfs_header_free(f->h);
    free(f->p);
    memset(f, 0, sizeof *f);
}

static char why[256];

#define DIFF(...) do { snprintf(why, sizeof why, __VA_ARGS__); return why; } while (0)

static int str_eq(tfs_str a, tfs_str b) { return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0); }

const char *wt_view_diff(const tfs_header *a, const uint8_t *abuf, const tfs_header *b, const uint8_t *bbuf) {
    if (a->format != b->format) DIFF("format %d != %d", a->format, b->format);
    if (a->version != b->version) DIFF("version %u != %u", a->version, b->version);
    if (a->alignment != b->alignment) DIFF("alignment %u != %u", a->alignment, b->alignment);
    if (a->has_metadata != b->has_metadata) DIFF("has_metadata %d != %d", a->has_metadata, b->has_metadata);
    if (a->data_size != b->data_size)
        DIFF("data_size %llu != %llu", (unsigned long long)a->data_size, (unsigned long long)b->data_size);
    if (a->format == TFS_FORMAT_GGUF && (a->header_size != b->header_size || a->data_offset != b->data_offset))
        DIFF("header_size %llu != %llu", (unsigned long long)a->header_size, (unsigned long long)b->header_size);
    if (a->n_tensors != b->n_tensors) DIFF("n_tensors %zu != %zu", a->n_tensors, b->n_tensors);
    if (a->n_kv != b->n_kv) DIFF("n_kv %zu != %zu", a->n_kv, b->n_kv);
    for (size_t i = 0; i < a->n_tensors; i++) {
        const tfs_tensor *x = &a->tensors[i], *y = &b->tensors[i];
        if (!str_eq(x->name, y->name)) DIFF("tensor %zu: name", i);
        if (x->type != y->type) DIFF("tensor %zu: type %u != %u", i, x->type, y->type);
        if (x->n_dims != y->n_dims) DIFF("tensor %zu: n_dims %u != %u", i, x->n_dims, y->n_dims);
        for (uint32_t j = 0; j < x->n_dims; j++)
            if (x->shape[j] != y->shape[j]) DIFF("tensor %zu: shape[%u]", i, j);
        if (x->n_elements != y->n_elements) DIFF("tensor %zu: n_elements", i);
        if (x->n_bytes != y->n_bytes) DIFF("tensor %zu: n_bytes", i);
        if (x->offset != y->offset)
            DIFF("tensor %zu: offset %llu != %llu", i, (unsigned long long)x->offset, (unsigned long long)y->offset);
    }
    for (size_t i = 0; i < a->n_kv; i++) {
        const tfs_kv *x = &a->kv[i], *y = &b->kv[i];
        if (!str_eq(x->key, y->key)) DIFF("kv %zu: key", i);
        if (x->type != y->type || x->elem_type != y->elem_type || x->count != y->count)
            DIFF("kv %zu: type/elem/count %u/%u/%llu != %u/%u/%llu", i, x->type, x->elem_type,
                 (unsigned long long)x->count, y->type, y->elem_type, (unsigned long long)y->count);
        if (x->value_len != y->value_len) DIFF("kv %zu: value_len %zu != %zu", i, x->value_len, y->value_len);
        const uint8_t *xv, *yv;
        if (a->format == TFS_FORMAT_GGUF) { /* raw stored bytes */
            xv = abuf + x->value_offset;
            yv = bbuf + y->value_offset;
        } else { /* decoded string */
            xv = x->value;
            yv = y->value;
        }
        if (x->value_len && memcmp(xv, yv, x->value_len) != 0) DIFF("kv %zu: value bytes", i);
    }
    return NULL;
}
