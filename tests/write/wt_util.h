/*
 * wt_util.h: helpers for the writer tests (tests/write/) and the round-trip
 * program: flatten + parse a written file, and compare two parsed views.
 */
#ifndef TFS_TEST_WT_UTIL_H
#define TFS_TEST_WT_UTIL_H

#include "tfs/tfs.h"
#include "tfs/write.h"

#include <stddef.h>
#include <stdint.h>

/* A written file, flattened, and its parse. */
typedef struct wt_file {
    uint8_t *p;
    size_t len;
    tfs_header *h; /* NULL unless TFS_OK */
    tfs_error e;
    tfs_status st;
} wt_file;

/* Flatten w (at most 256 MiB) and parse it with tfs_parse_buffer; returns
 * 0, or -1 when flattening failed (message in *why). */
int wt_parse(const tfs_wbuf *w, tfs_format fmt, unsigned flags, wt_file *out);
void wt_file_free(wt_file *f);

/* Compare two views: names, types, shapes, n_elements, n_bytes, offsets,
 * KVs (key, type, elem type, count, every element's value read with the
 * accessors; GGUF also the stored value size), version, alignment, and for GGUF
 * the header and data section sizes.  Returns NULL when equal, else a static
 * description of the first difference. */
const char *wt_view_diff(const tfs_header *a, const tfs_header *b);

#endif
