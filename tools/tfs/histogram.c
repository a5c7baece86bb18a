/* histogram.c: tensors per type, data bytes per type, parameter count. */
#include <string.h>

#include "cli.h"

_Static_assert(HIST_MAX >= TFS_GG_TYPE_COUNT && HIST_MAX >= TFS_ST_DTYPE_COUNT,
               "HIST_MAX too small for the type tables");

const char *hist_type_name(tfs_format f, unsigned type) {
    const char *n = f == TFS_FORMAT_GGUF ? tfs_gg_type_name(type) : tfs_st_dtype_name(type);
    return n ? n : "?";
}

void hist_build(const tfs_header *h, type_hist *out) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        unsigned slot = t->type < HIST_MAX ? t->type : HIST_MAX;
        out->count[slot]++;
        if (__builtin_add_overflow(out->bytes[slot], t->n_bytes, &out->bytes[slot])) out->bytes[slot] = UINT64_MAX;
        if (!out->params_saturated && __builtin_add_overflow(out->params, t->n_elements, &out->params)) {
            out->params = UINT64_MAX;
            out->params_saturated = 1;
        }
    }
}

uint64_t data_extent(const tfs_header *h) {
    uint64_t end = 0;
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        uint64_t e;
        if (__builtin_add_overflow(t->offset, t->n_bytes, &e)) e = UINT64_MAX;
        if (e > end) end = e;
    }
    return end;
}
