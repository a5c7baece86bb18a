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

#define DIFF(...)                               \
    do {                                        \
        snprintf(why, sizeof why, __VA_ARGS__); \
        return why;                             \
    } while (0)

static int str_eq(tfs_str a, tfs_str b) { return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0); }

const char *wt_view_diff(const tfs_header *a, const tfs_header *b) {
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
        /* GGUF stores values one way; a safetensors string token may be
         * escaped differently, so there only the decoded values count */
        if (a->format == TFS_FORMAT_GGUF && x->value_len != y->value_len)
            DIFF("kv %zu: value_len %llu != %llu", i, (unsigned long long)x->value_len,
                 (unsigned long long)y->value_len);
        for (uint64_t k = 0; k < x->count; k++) { /* values through the accessors */
            tfs_value u, v;
            if (tfs_kv_get(a, x, k, &u) != TFS_OK || tfs_kv_get(b, y, k, &v) != TFS_OK)
                DIFF("kv %zu[%llu]: not readable", i, (unsigned long long)k);
            if (u.type != v.type || u.u64 != v.u64) DIFF("kv %zu[%llu]: value", i, (unsigned long long)k);
            if (u.type != TFS_GG_STRING || u.u64 == 0) continue;
            char *bu = malloc((size_t)u.u64), *bv = malloc((size_t)u.u64);
            tfs_str su = {0}, sv = {0};
            int same = bu && bv && tfs_kv_get_string(a, x, k, &su, bu, (size_t)u.u64) == TFS_OK &&
                       tfs_kv_get_string(b, y, k, &sv, bv, (size_t)u.u64) == TFS_OK && su.len == sv.len &&
                       memcmp(su.ptr, sv.ptr, su.len) == 0;
            free(bu);
            free(bv);
            if (!same) DIFF("kv %zu[%llu]: string bytes", i, (unsigned long long)k);
        }
    }
    return NULL;
}
