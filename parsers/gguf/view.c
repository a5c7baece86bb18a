/* view.c: build the tfs_header view from the parse records.  Pointers are
 * resolved here, once, against tfs_src_base(): in file mode the window does
 * not move any more, and api.c hands it to the header. */
#include "gg.h"

#include <stdlib.h>

/* Allocate n items of `size` bytes into priv->blocks[slot] (NULL for n = 0). */
static bool alloc_block(tfs_header *h, size_t slot, size_t n, size_t size, void **out) {
    *out = NULL;
    if (n == 0) return true;
    if (n > SIZE_MAX / size) return false;
    void *p = calloc(n, size);
    if (!p) return false;
    ((tfs_priv *)h->priv_)->blocks[slot] = p;
    *out = p;
    return true;
}

tfs_status gg_build_view(gg_ctx *c, tfs_header **out) {
    tfs_header *h = tfs_header_new(TFS_FORMAT_GGUF, c->src->file_size);
    if (!h) return tfs_fail_status(c->err, TFS_ENOMEM, 0);
    void *kv_block, *t_block, *shape_block;
    if (!alloc_block(h, 0, c->kv_len, sizeof(tfs_kv), &kv_block) ||
        !alloc_block(h, 1, c->ti_len, sizeof(tfs_tensor), &t_block) ||
        !alloc_block(h, 2, c->ti_len, GG_MAX_DIMS * sizeof(uint64_t), &shape_block)) {
        tfs_header_free(h);
        return tfs_fail_status(c->err, TFS_ENOMEM, 0);
    }
    tfs_kv *kv = kv_block;
    tfs_tensor *t = t_block;
    uint64_t *shapes = shape_block;
    const uint8_t *base = tfs_src_base(c->src);

    for (size_t i = 0; i < c->kv_len; i++) {
        const gg_kv_rec *r = &c->kv[i];
        kv[i] = (tfs_kv){
            .key = {(const char *)base + r->key_off, (size_t)r->key_len},
            .type = r->type,
            .elem_type = r->elem_type,
            .count = r->count,
            .value = base + r->value_off,
            .value_len = (size_t)r->value_len,
            .value_offset = r->value_off,
        };
    }
    for (size_t i = 0; i < c->ti_len; i++) {
        const gg_ti_rec *r = &c->ti[i];
        uint64_t *shape = shapes + GG_MAX_DIMS * i;
        memcpy(shape, r->ne, sizeof r->ne);
        t[i] = (tfs_tensor){
            .name = {(const char *)base + r->name_off, (size_t)r->name_len},
            .type = r->type,
            .n_dims = r->n_dims,
            .shape = shape,
            .n_elements = r->n_elements,
            .n_bytes = r->n_bytes,
            .offset = r->offset,
            /* checked by GG304; with TFS_HEADER_ONLY it may lie past the
             * file, and saturates at UINT64_MAX for sizes no file can hold */
            .file_offset = r->offset > UINT64_MAX - c->data_start ? UINT64_MAX : c->data_start + r->offset,
        };
    }
    h->version = c->version;
    h->header_size = c->data_start;
    h->data_offset = c->data_start;
    h->data_size = c->data_size;
    h->alignment = c->alignment;
    h->n_kv = c->kv_len;
    h->kv = kv;
    h->n_tensors = c->ti_len;
    h->tensors = t;
    *out = h;
    return TFS_OK;
}
