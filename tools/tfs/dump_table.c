/* dump_table.c: the tensors of `tfs dump` as aligned, numbered columns:
 * index in the file, name, type, shape, elements, bytes, offset in the data
 * section, absolute file offset; the violation marked under its tensor. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define NAME_COL_MAX 48 /* longer names push their row's columns right */

static int shape_text(const tfs_tensor *t, char *buf, size_t cap) {
    int n = snprintf(buf, cap, "[");
    for (uint32_t d = 0; d < t->n_dims && n > 0 && (size_t)n < cap; d++)
        n += snprintf(buf + n, cap - (size_t)n, "%s%" PRIu64, d ? ", " : "", t->shape[d]);
    if (n > 0 && (size_t)n < cap) n += snprintf(buf + n, cap - (size_t)n, "]");
    return n > 0 && (size_t)n < cap ? n : (int)cap - 1;
}

static int width_u64(uint64_t v) {
    char b[24];
    return snprintf(b, sizeof b, "%" PRIu64, v);
}

static void pad(FILE *out, int n) {
    while (n-- > 0) fputc(' ', out);
}

void dump_table(FILE *out, const tfs_header *h, const size_t *idx, size_t n, int64_t mark, const tfs_error *e) {
    int w_i = 1, w_name = 4, w_type = 4, w_shape = 5, w_el = 8, w_by = 5, w_off = 6, w_fo = 11;
    char shape[160];
    for (size_t k = 0; k < n; k++) {
        const tfs_tensor *t = &h->tensors[idx[k]];
        int l;
        if ((l = width_u64(idx[k])) > w_i) w_i = l;
        if ((int)t->name.len > w_name) w_name = t->name.len > NAME_COL_MAX ? NAME_COL_MAX : (int)t->name.len;
        if ((l = (int)strlen(hist_type_name(h->format, t->type))) > w_type) w_type = l;
        if ((l = shape_text(t, shape, sizeof shape)) > w_shape) w_shape = l;
        if ((l = width_u64(t->n_elements)) > w_el) w_el = l;
        if ((l = width_u64(t->n_bytes)) > w_by) w_by = l;
        if ((l = width_u64(t->offset)) > w_off) w_off = l;
        if ((l = width_u64(t->file_offset)) > w_fo) w_fo = l;
    }
    if (n)
        fprintf(out, "    %*s  %-*s  %-*s  %-*s  %*s  %*s  %*s  %*s\n", w_i, "#", w_name, "name", w_type, "type",
                w_shape, "shape", w_el, "elements", w_by, "bytes", w_off, "offset", w_fo, "file offset");
    for (size_t k = 0; k < n; k++) {
        const tfs_tensor *t = &h->tensors[idx[k]];
        fprintf(out, "    %*zu  ", w_i, idx[k]);
        fput_safe(out, t->name.ptr, t->name.len);
        pad(out, w_name - (int)t->name.len);
        shape_text(t, shape, sizeof shape);
        fprintf(out, "  %-*s  %-*s  %*" PRIu64 "  %*" PRIu64 "  %*" PRIu64 "  ", w_type,
                hist_type_name(h->format, t->type), w_shape, shape, w_el, t->n_elements, w_by, t->n_bytes, w_off,
                t->offset);
        if (t->file_offset == UINT64_MAX)
            fprintf(out, "%*s\n", w_fo, "past 2^64");
        else
            fprintf(out, "%*" PRIu64 "\n", w_fo, t->file_offset);
        if ((int64_t)idx[k] == mark) {
            fputs("      ^^^ ", out);
            dump_put_violation(out, e);
            fputc('\n', out);
        }
    }
}
