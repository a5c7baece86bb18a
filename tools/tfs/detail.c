/* detail.c: the numbers behind a violation (issue 18): the rule's static
 * message says what is wrong, this line says by how much.
 *   GG304  the bytes the tensor data needs against the file's size;
 *   ST307  how many bytes trail the last tensor's data;
 *   GG130  whether the array count or its byte size is the problem.
 * Computed from the partial header (TFS_PARTIAL) and, for GG130, the count
 * and element type fields re-read through the caller's byte source (a file
 * by pread in the command line, File.slice in the browser inspector's
 * tfs.wasm; a stream: no GG130 detail).  No file I/O of its own, so the
 * wasm build links it as is. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Little-endian integer of n <= 8 bytes at file offset off; 0 on success. */
static int read_le(const tfs_source *src, uint64_t off, size_t n, uint64_t *v) {
    uint8_t b[8];
    size_t got = 0;
    if (src->read(src->ctx, off, b, n, &got) != 0 || got != n) return -1;
    *v = 0;
    for (size_t i = n; i > 0; i--) *v = (*v << 8) | b[i - 1];
    return 0;
}

static const tfs_field *field_of(const tfs_header *h, tfs_field_kind kind) {
    for (size_t i = 0; h && i < h->n_fail_fields; i++)
        if (h->fail_fields[i].kind == kind) return &h->fail_fields[i];
    return NULL;
}

static void gg130(const tfs_source *src, const tfs_header *h, char *buf, size_t n) {
    const tfs_field *cf = field_of(h, TFS_FIELD_COUNT), *tf = field_of(h, TFS_FIELD_ELEM_TYPE);
    uint64_t count, type, end;
    if (!cf || !tf || read_le(src, cf->offset, 8, &count) != 0 || read_le(src, tf->offset, 4, &type) != 0 ||
        __builtin_add_overflow(cf->offset, 8u, &end))
        return;
    uint64_t left = src->size > end ? src->size - end : 0;
    if (count > (UINT64_C(1) << 30)) {
        snprintf(buf, n, "the count: %" PRIu64 " elements, above ggml's 2^30 (1073741824)", count);
        return;
    }
    size_t size = type == TFS_GG_STRING ? 8u : tfs_gg_vtype_size((uint32_t)type);
    const char *tn = tfs_gg_vtype_name((uint32_t)type);
    if (!size || !tn) return;
    snprintf(buf, n,
             "the byte size: %" PRIu64 " %s elements x %zu bytes%s = %" PRIu64 " bytes, %" PRIu64
             " bytes left after the count",
             count, tn, size, type == TFS_GG_STRING ? " (at least, the length fields)" : "", count * size, left);
}

void violation_detail(const tfs_source *src, const tfs_header *h, const tfs_error *e, char *buf, size_t n) {
    buf[0] = '\0';
    if (!h) return;
    if (e->rule == TFS_GG304 && h->file_size) {
        uint64_t need = 0;
        for (size_t i = 0; i < h->n_tensors; i++) {
            const tfs_tensor *t = &h->tensors[i];
            uint64_t end;
            if (t->file_offset == UINT64_MAX || __builtin_add_overflow(t->file_offset, t->n_bytes, &end))
                end = UINT64_MAX;
            if (end > need) need = end;
        }
        if (need > h->file_size)
            snprintf(buf, n,
                     "the tensor data needs a file of %s%" PRIu64 " bytes, the file has %" PRIu64 " (%s%" PRIu64
                     " bytes missing)",
                     need == UINT64_MAX ? "more than " : "", need, h->file_size, need == UINT64_MAX ? "more than " : "",
                     need - h->file_size);
    } else if (e->rule == TFS_ST307 && h->file_size) {
        uint64_t used = h->data_offset + data_extent(h);
        if (used < h->file_size)
            snprintf(buf, n,
                     "%" PRIu64 " trailing bytes: the tensors' data ends at byte %" PRIu64 ", the file has %" PRIu64,
                     h->file_size - used, used, h->file_size);
    } else if (e->rule == TFS_GG130 && src && !src->forward && src->size != TFS_SIZE_UNKNOWN) { /* re-reads */
        gg130(src, h, buf, n);
    }
}
