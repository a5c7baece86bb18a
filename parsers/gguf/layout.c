/* layout.c: data section start and tensor offsets (GG301-GG303, GG305), as
 * the end of gguf.cpp gguf_init_from_reader, and the default profile's data
 * presence rule GG304 (llama.cpp llama-model-loader.cpp bounds check). */
#include "gg.h"

/* Data start = end of the tensor infos padded to the alignment; ggml seeks
 * there only when n_tensors > 0 (GG301 when past EOF, at the end of the
 * infos).  Offsets, in file order, must equal the running sum of sizes each
 * padded to the alignment (GG302 at the offset field); padding a size past
 * 2^64 is GG305 (ggml wraps it silently: divergence); the running sum
 * overflowing is GG303. */
tfs_status tfs__gg_check_layout(gg_ctx *c) {
    uint64_t a = c->alignment, start = c->info_end;
    if (c->ti_len > 0) {
        if (TFS_RULE_HIT(TFS_GG301, tfs_add_overflow_u64(start, a - 1u, &start)))
            return tfs__fail(c->err, TFS_GG301, c->info_end, -1);
        start &= ~(a - 1u);
        /* TFS_STRICT GG503 (reported later): the padding is read before a
         * stream's bytes are passed over by the GG301 test */
        uint64_t bad;
        if ((c->flags & TFS_STRICT) && tfs__gg_scan_above(c, c->info_end, start - c->info_end, 0, &bad) &&
            bad != UINT64_MAX)
            gg_strict(c, TFS_GG503, bad, -1);
        if (!tfs__src_has(c->src, start) && (TFS_RULE_HIT(TFS_GG301, true) || tfs_src_failed(c->src)))
            return gg_short(c, TFS_GG301, c->info_end, -1); /* GG301 off: the data section starts past the end */
    }
    c->data_start = start;

    uint64_t sum = 0;
    for (size_t i = 0; i < c->ti_len; i++) {
        const gg_ti_rec *r = &c->ti[i];
        if (TFS_RULE_HIT(TFS_GG302, TFS_BUG_CHECK(G15, r->offset != sum, false)))
            return tfs__fail(c->err, TFS_GG302, r->offset_off, (int64_t)i);
        uint64_t padded;
        if (TFS_RULE_HIT(TFS_GG305, TFS_BUG_CHECK(G3, tfs_add_overflow_u64(r->n_bytes, a - 1u, &padded), false)))
            return tfs__fail(c->err, TFS_GG305, r->offset_off, (int64_t)i);
        padded &= ~(a - 1u);
        if (TFS_RULE_HIT(TFS_GG303, TFS_BUG_CHECK(G2, tfs_add_overflow_u64(sum, padded, &sum), false)))
            return tfs__fail(c->err, TFS_GG303, r->offset_off, (int64_t)i);
    }
    c->data_size = sum;
    return TFS_OK;
}

/* Every tensor's [data_start + offset, + n_bytes) inside the file (unpadded,
 * as the llama.cpp loader checks), in file order; GG304 at the offset field. */
tfs_status tfs__gg_check_data(gg_ctx *c) {
    if (!tfs__src_learn_size(c->src)) return tfs__fail_src(c->err, c->src); /* a stream: read to its end */
    for (size_t i = 0; i < c->ti_len; i++) {
        const gg_ti_rec *r = &c->ti[i];
        uint64_t begin, end;
        if (TFS_RULE_HIT(TFS_GG304,
                         TFS_BUG_CHECK(G11,
                                       tfs_add_overflow_u64(c->data_start, r->offset, &begin) ||
                                           tfs_add_overflow_u64(begin, r->n_bytes, &end) || end > c->src->file_size,
                                       false)))
            return tfs__fail(c->err, TFS_GG304, r->offset_off, (int64_t)i);
    }
    return TFS_OK;
}
