/* st_view.c: turn the parsed records into the public tfs_header view.
 * Names and values without escapes point into the file bytes (the caller's
 * buffer, or the window that api.c hands to the header); escaped ones into
 * the arena of decoded strings, owned by the header (priv->blocks). */
#include "st_internal.h"

#include <stdlib.h>

enum { B_TENSORS, B_SHAPES, B_KV, B_ARENA, B_KVX };

static tfs_str str_of(const st_ctx *c, const uint8_t *json, const st_sref *s) {
    const uint8_t *p = s->in_arena ? c->arena + s->off : json + s->off;
    return (tfs_str){(const char *)p, s->len};
}

tfs_status tfs__st_build_view(st_ctx *c, const uint8_t *base, uint64_t file_size, uint64_t buffer_end, tfs_header **out,
                              tfs_error *err) {
    tfs_header *h = tfs__header_new(TFS_FORMAT_SAFETENSORS, file_size);
    tfs_kv *kv = c->n_kvs ? calloc(c->n_kvs, sizeof *kv) : NULL;
    tfs_kvx *kvx = c->n_kvs ? calloc(c->n_kvs, sizeof *kvx) : NULL;
    if (!h || (c->n_kvs && (!kv || !kvx))) {
        tfs_header_free(h);
        free(kv);
        free(kvx);
        return tfs__fail_status(err, TFS_ENOMEM, 0);
    }
    const uint8_t *json = base + 8;
    uint64_t data_offset = 8u + (uint64_t)c->n;
    /* In place: t[i] covers bytes [64i, 64i + 64) of the block, which only
     * overlap records already read (sizeof(st_ent) >= sizeof(tfs_tensor)). */
    tfs_tensor *t = (tfs_tensor *)(void *)c->ents;
    for (size_t i = 0; i < c->n_ents; i++) {
        const st_ent e = c->ents[i];
        tfs_tensor v;
        v.name = str_of(c, json, &e.name);
        v.type = e.dtype;
        v.n_dims = e.n_dims;
        v.shape = e.n_dims ? c->shapes + e.shape_idx : NULL;
        v.n_elements = e.n_elements;
        /* checked by tfs__st_validate; saturates in a TFS_PARTIAL view */
        uint64_t bits;
        v.n_bytes = e.shape_ovf || tfs_mul_overflow_u64(e.n_elements, tfs_st_dtype_bits(e.dtype), &bits) ? UINT64_MAX
                                                                                                         : bits / 8u;
        v.offset = e.start;
        v.file_offset = e.start > UINT64_MAX - data_offset ? UINT64_MAX : data_offset + e.start;
        t[i] = v;
    }
    for (size_t i = 0; i < c->n_kvs; i++) {
        const st_kv *k = &c->kvs[i];
        tfs_str v = str_of(c, json, &k->val);
        kv[i].key = str_of(c, json, &k->key);
        kv[i].key_size = kv[i].key.len;
        kv[i].type = TFS_GG_STRING;
        kv[i].elem_type = TFS_GG_STRING;
        kv[i].count = 1;
        kv[i].value_offset = 8u + (uint64_t)k->val_pos;
        kv[i].value_len = k->val_end - k->val_pos;
        kvx[i].mem = (const uint8_t *)v.ptr; /* the decoded string, v.len bytes */
        kvx[i].scalar = v.len;
        kvx[i].decoded = true;
    }
    h->header_size = c->n;
    h->data_offset = data_offset;
    h->data_size = buffer_end;
    h->has_metadata = c->has_metadata;
    h->n_tensors = c->n_ents;
    h->tensors = c->n_ents ? t : NULL;
    h->n_kv = c->n_kvs;
    h->kv = kv;
    tfs_priv *p = h->priv_;
    p->blocks[B_TENSORS] = c->ents; /* now owned by the header */
    p->blocks[B_SHAPES] = c->shapes;
    p->blocks[B_KV] = kv;
    p->blocks[B_ARENA] = c->arena;
    p->blocks[B_KVX] = kvx;
    p->kvx = kvx;
    c->ents = NULL;
    c->shapes = NULL;
    c->arena = NULL;
    *out = h;
    return TFS_OK;
}
