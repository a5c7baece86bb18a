/* view.c: build the tfs_header view from the parse records: keys and names
 * resolved against gg_kept() (the caller's buffer, or the arena, which the
 * header takes over), values described for access.c (tfs_kvx). */
#include "gg.h"

#include <stdlib.h>

enum { B_KV, B_TENSORS, B_SHAPES, B_KVX, B_ARENA, B_MARKS };

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

/* The view of kv_len KVs and ti_len tensor infos (the complete ones). */
static tfs_status build(gg_ctx *c, size_t kv_len, size_t ti_len, tfs_header **out) {
    tfs_header *h = tfs__header_new(TFS_FORMAT_GGUF, c->src->size_known ? c->src->file_size : 0);
    if (!h) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    tfs_priv *priv = h->priv_;
    size_t n_marks = 0;
    for (size_t i = 0; i < kv_len; i++) n_marks += c->kv[i].n_marks;
    void *kv_block, *t_block, *shape_block, *kvx_block, *marks_block;
    if (!alloc_block(h, B_KV, kv_len, sizeof(tfs_kv), &kv_block) ||
        !alloc_block(h, B_TENSORS, ti_len, sizeof(tfs_tensor), &t_block) ||
        !alloc_block(h, B_SHAPES, ti_len, GG_MAX_DIMS * sizeof(uint64_t), &shape_block) ||
        !alloc_block(h, B_KVX, kv_len, sizeof(tfs_kvx), &kvx_block) ||
        !alloc_block(h, B_MARKS, n_marks, sizeof(uint64_t), &marks_block)) {
        tfs_header_free(h);
        return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    }
    tfs_kv *kv = kv_block;
    tfs_kvx *kvx = kvx_block;
    tfs_tensor *t = t_block;
    uint64_t *shapes = shape_block, *marks = marks_block;
    const uint8_t *kept = gg_kept(c), *buf = c->src->buf;

    for (size_t i = 0; i < kv_len; i++) {
        const gg_kv_rec *r = &c->kv[i];
        kv[i] = (tfs_kv){
            .key = {(const char *)kept + r->key_ref, (size_t)r->key_kept},
            .key_size = r->key_len,
            .type = r->type,
            .elem_type = r->elem_type,
            .count = r->count,
            .value_offset = r->value_off,
            .value_len = r->value_len,
        };
        /* the value's bytes in memory: all of them (buffer), or the first
         * whole array elements a forward-only source kept (GG_ARR_KEEP) */
        const uint8_t *mem = buf ? buf + r->value_off : r->arr_kept ? kept + r->arr_ref : NULL;
        kvx[i] = (tfs_kvx){.mem = mem,
                           .mem_len = buf ? r->value_len : r->arr_kept,
                           .scalar = r->scalar,
                           .str = r->str_ref != GG_UNSET ? kept + r->str_ref : NULL,
                           .marks = r->n_marks ? marks : NULL,
                           .n_marks = r->n_marks,
                           .stride = r->stride};
        if (r->n_marks) {
            memcpy(marks, r->marks, r->n_marks * sizeof *marks);
            marks += r->n_marks; /* marks is NULL when no array has any */
        }
    }
    for (size_t i = 0; i < ti_len; i++) {
        const gg_ti_rec *r = &c->ti[i];
        uint64_t *shape = shapes + GG_MAX_DIMS * i;
        memcpy(shape, r->ne, sizeof r->ne);
        t[i] = (tfs_tensor){
            .name = {(const char *)kept + r->name_ref, (size_t)r->name_len},
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
    if (!buf) { /* the header owns the kept bytes */
        priv->blocks[B_ARENA] = c->arena;
        c->arena = NULL;
    }
    priv->kvx = kvx;
    h->version = c->version;
    h->header_size = c->data_start;
    h->data_offset = c->data_start;
    h->data_size = c->data_size;
    h->alignment = c->alignment;
    h->n_kv = kv_len;
    h->kv = kv;
    h->n_tensors = ti_len;
    h->tensors = t;
    *out = h;
    return TFS_OK;
}

tfs_status tfs__gg_build_view(gg_ctx *c, tfs_header **out) { return build(c, c->kv_len, c->ti_len, out); }

/* Append a field of the failing record when it was read whole (the cursor,
 * which only moves past bytes that were there, is at or past its end).  A
 * field the violation cut is left out, so a listed field of width 0 is a
 * whole empty one (an empty key or name), never a cut one. */
static void add(tfs_priv *p, size_t *n, uint64_t cursor, uint32_t kind, int64_t rec, uint32_t sub, uint64_t off,
                uint64_t width) {
    if (off == GG_UNSET || off > cursor || width > cursor - off || *n >= sizeof p->fail / sizeof p->fail[0]) return;
    p->fail[(*n)++] = (tfs_field){.kind = kind, .record = (int32_t)rec, .sub = sub, .offset = off, .width = width};
}

void tfs__gg_build_partial(gg_ctx *c, tfs_header **out) {
    tfs_error keep = *c->err;
    /* records before the failing one (the failing record was pushed
     * before it was read); a failure after the infos (alignment, layout,
     * data, strict) leaves every record complete */
    bool in_kv = c->stage == GG_STAGE_KVS && c->kv_len > 0;
    bool in_ti = c->stage == GG_STAGE_INFOS && c->ti_len > 0;
    size_t kv_len = in_kv ? c->kv_len - 1u : c->kv_len;
    size_t ti_len = in_ti ? c->ti_len - 1u : c->ti_len;
    if (build(c, kv_len, ti_len, out) != TFS_OK) {
        *c->err = keep;
        return;
    }
    *c->err = keep;
    tfs_header *h = *out;
    tfs_priv *p = h->priv_;
    size_t n = 0;
    h->complete = 0;
    h->data_offset = h->header_size = c->stage > GG_STAGE_LAYOUT ? c->data_start : 0;
    if (in_kv && c->kv_len) {
        const gg_kv_rec *r = &c->kv[c->kv_len - 1u];
        int64_t i = (int64_t)c->kv_len - 1;
        /* the record: the bytes of it read whole (none: not listed); then
         * its fields read whole.  Its value never is: a KV whose value was
         * read whole is complete (rules judged on whole values, alignment
         * and strict, are reported after the records), so a violation in
         * the value cut it; the record spans the value's bytes read whole (a
         * string's length field, an array's whole elements) */
        if (c->off > r->field_off) add(p, &n, c->off, TFS_FIELD_KV, i, 0, r->field_off, c->off - r->field_off);
        add(p, &n, c->off, TFS_FIELD_KEY_LEN, i, 0, r->field_off, 8);
        add(p, &n, c->off, TFS_FIELD_KEY, i, 0, r->key_ref == GG_UNSET ? GG_UNSET : r->field_off + 8u, r->key_len);
        add(p, &n, c->off, TFS_FIELD_VALUE_TYPE, i, 0, r->type_off, 4);
        add(p, &n, c->off, TFS_FIELD_ELEM_TYPE, i, 0, r->elem_off, 4);
        add(p, &n, c->off, TFS_FIELD_COUNT, i, 0, r->count_off, 8);
    } else if (in_ti) {
        const gg_ti_rec *r = &c->ti[c->ti_len - 1u];
        int64_t i = (int64_t)c->ti_len - 1;
        if (c->off > r->field_off) add(p, &n, c->off, TFS_FIELD_TENSOR_INFO, i, 0, r->field_off, c->off - r->field_off);
        add(p, &n, c->off, TFS_FIELD_NAME_LEN, i, 0, r->field_off, 8);
        add(p, &n, c->off, TFS_FIELD_NAME, i, 0, r->name_ref == GG_UNSET ? GG_UNSET : r->field_off + 8u, r->name_len);
        add(p, &n, c->off, TFS_FIELD_N_DIMS, i, 0, r->ndims_off, 4);
        for (uint32_t j = 0; j < GG_MAX_DIMS; j++) add(p, &n, c->off, TFS_FIELD_DIM, i, j, r->ne_off[j], 8);
        add(p, &n, c->off, TFS_FIELD_TYPE, i, 0, r->type_off, 4);
        add(p, &n, c->off, TFS_FIELD_OFFSET, i, 0, r->offset_off, 8);
    }
    h->fail_fields = n ? p->fail : NULL;
    h->n_fail_fields = n;
}
