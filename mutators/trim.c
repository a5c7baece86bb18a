/* trim.c: structure-preserving trimming for the AFL++ front end: the records
 * of an input (GGUF KV pairs then tensor infos; safetensors entries then
 * __metadata__ pairs), and the input rewritten without one of them. */
#include "mut.h"

#include <string.h>

size_t tfs__mut_count_records(const uint8_t *data, size_t size) {
    mut_ctx c;
    memset(&c, 0, sizeof c);
    c.max_size = size;
    size_t n = 0;
    if (tfs__mut_load(&c, data, size, TFS_FORMAT_UNKNOWN) == 0 && !c.skeleton)
        n = c.format == TFS_FORMAT_GGUF ? c.n_kv + c.n_gt : c.n_se + c.n_meta;
    tfs__mut_free(&c);
    return n;
}

static void drop(void *arr, size_t *n, size_t i, size_t size) {
    uint8_t *p = arr;
    memmove(p + i * size, p + (i + 1) * size, (*n - i - 1) * size);
    (*n)--;
}

size_t tfs__mut_drop_record(const uint8_t *data, size_t size, size_t rec, uint8_t *out, size_t max_out) {
    mut_ctx c;
    memset(&c, 0, sizeof c);
    c.max_size = max_out;
    size_t n = 0;
    if (tfs__mut_load(&c, data, size, TFS_FORMAT_UNKNOWN) != 0 || c.skeleton || max_out == 0) goto done;
    if (c.format == TFS_FORMAT_GGUF) {
        if (rec < c.n_kv)
            drop(c.kv, &c.n_kv, rec, sizeof *c.kv);
        else if (rec - c.n_kv < c.n_gt)
            drop(c.gt, &c.n_gt, rec - c.n_kv, sizeof *c.gt);
        else
            goto done;
    } else {
        if (rec < c.n_se) {
            drop(c.se, &c.n_se, rec, sizeof *c.se);
            for (size_t i = 0; i < c.n_se; i++) c.se[i].offsets_set = 0; /* packed again without it */
        } else if (rec - c.n_se < c.n_meta)
            drop(c.meta, &c.n_meta, rec - c.n_se, sizeof *c.meta);
        else
            goto done;
    }
    if (tfs__mut_write(&c) == 0) n = tfs__mut_copy_out(&c, out, max_out);
done:
    tfs__mut_free(&c);
    return n;
}
