/* header.c: the header's lifetime (allocation with its priv, free) and the
 * cleared result every entry point starts from.  Knows no format: the parse
 * entry points and the format dispatch are in parsers/api.c. */
#include "internal.h"

#include <stdlib.h>

tfs_header *tfs__header_new(tfs_format format, uint64_t file_size) {
    tfs_header *h = calloc(1, sizeof *h);
    tfs_priv *p = calloc(1, sizeof *p);
    if (!h || !p) {
        free(h);
        free(p);
        return NULL;
    }
    h->format = format;
    h->file_size = file_size;
    h->complete = 1;
    p->fd = -1;
    h->priv_ = p;
    return h;
}

void tfs_header_free(tfs_header *h) {
    if (!h) return;
    tfs_priv *p = h->priv_;
    if (p) {
        if (p->release) p->release(p);
        free(p->window);
        for (size_t i = 0; i < sizeof p->blocks / sizeof p->blocks[0]; i++) free(p->blocks[i]);
        free(p);
    }
    free(h);
}

void tfs__clear_result(tfs_header **out, tfs_error *err) {
    if (out) *out = NULL;
    if (err) {
        memset(err, 0, sizeof *err);
        err->index = -1;
    }
}
