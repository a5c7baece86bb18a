/* parse.c: tfs__gg_parse, the GGUF entry point, and the fixed header
 * (magic, version, n_tensors, n_kv), as gguf.cpp gguf_init_from_reader. */
#include "gg.h"
#include "../dispatch.h"

#include <stdlib.h>

/* Magic, version, n_tensors and n_kv, in ggml's order: GG001-GG003,
 * GG010-GG013, GG020, GG021.  Offsets: the field concerned. */
static tfs_status parse_fixed_header(gg_ctx *c) {
    const uint8_t *p = gg_take(c, 4);
    if (!p && !(p = gg_past_end(c, 4, TFS_GG001))) return gg_short(c, TFS_GG001, 0, -1);
    if (TFS_RULE_HIT(TFS_GG002, memcmp(p, "GGUF", 4) != 0)) return tfs__fail(c->err, TFS_GG002, 0, -1);

    uint64_t at = c->off;
    if (!(p = gg_take(c, 4)) && !(p = gg_past_end(c, 4, TFS_GG003))) return gg_short(c, TFS_GG003, at, -1);
    c->version = tfs_le32(p);
    if (TFS_RULE_HIT(TFS_GG010, c->version == 0)) return tfs__fail(c->err, TFS_GG010, at, -1);
    if (TFS_RULE_HIT(TFS_GG011, (c->version & 0xFFFFu) == 0)) return tfs__fail(c->err, TFS_GG011, at, -1);
    if (TFS_RULE_HIT(TFS_GG012, c->version == 1)) return tfs__fail(c->err, TFS_GG012, at, -1);
    if (TFS_RULE_HIT(TFS_GG013, c->version > 3)) return tfs__fail(c->err, TFS_GG013, at, -1);

    at = c->off;
    if (!(p = gg_take(c, 8)) && !(p = gg_past_end(c, 8, TFS_GG003))) return gg_short(c, TFS_GG003, at, -1);
    c->n_tensors = (int64_t)tfs_le64(p);
    if (TFS_RULE_HIT(TFS_GG020, c->n_tensors < 0 || (uint64_t)c->n_tensors > UINT64_MAX / GG_SIZEOF_TENSOR_INFO))
        return tfs__fail(c->err, TFS_GG020, at, -1);

    at = c->off;
    if (!(p = gg_take(c, 8)) && !(p = gg_past_end(c, 8, TFS_GG003))) return gg_short(c, TFS_GG003, at, -1);
    c->n_kv = (int64_t)tfs_le64(p);
    if (TFS_RULE_HIT(TFS_GG021, c->n_kv < 0 || (uint64_t)c->n_kv > UINT64_MAX / GG_SIZEOF_KV))
        return tfs__fail(c->err, TFS_GG021, at, -1);
    return TFS_OK;
}

static tfs_status run(gg_ctx *c, tfs_header **out) {
    tfs_status st;
    if ((st = parse_fixed_header(c)) != TFS_OK) return st;
    c->stage = GG_STAGE_KVS;
    if ((st = tfs__gg_parse_kvs(c)) != TFS_OK) return st;
    c->stage = GG_STAGE_ALIGN;
    if ((st = tfs__gg_check_alignment(c)) != TFS_OK) return st;
    c->stage = GG_STAGE_INFOS;
    if ((st = tfs__gg_parse_tensor_infos(c)) != TFS_OK) return st;
    c->stage = GG_STAGE_LAYOUT;
    if ((st = tfs__gg_check_layout(c)) != TFS_OK) return st;
    c->stage = GG_STAGE_DONE;
    if (!(c->flags & TFS_HEADER_ONLY) && (st = tfs__gg_check_data(c)) != TFS_OK) return st;
    if ((c->flags & TFS_STRICT) && (st = tfs__gg_check_strict(c)) != TFS_OK) return st;
    return out ? tfs__gg_build_view(c, out) : TFS_OK;
}

static void free_records(gg_ctx *c) {
    for (size_t i = 0; i < c->kv_len; i++) free(c->kv[i].marks);
    free(c->kv);
    free(c->ti);
    free(c->arena);
}

/*
 * tfs__gg_parse: parse and check a GGUF header (declared in parsers/dispatch.h).
 *   src   : the byte source (buffer or file window); only header bytes are
 *           read, tensor data never.
 *   flags : TFS_HEADER_ONLY = ggml metadata mode (no GG304);
 *           TFS_STRICT adds GG5xx after every other rule passed.
 *   out   : receives the view on TFS_OK (may be NULL).
 *   err   : first violation (rule, file offset of the field, KV/tensor index).
 * Mirrors gguf.cpp gguf_init_from_reader (ggml d99724f2) plus llama.cpp's
 * loader rule that tensor data lies inside the file; documented divergences:
 * GG207, GG212, GG305 (ggml wraps silently and accepts).
 */
tfs_status tfs__gg_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err) {
    gg_ctx c = {
        .src = src, .err = err, .flags = flags, .alignment = GG_DEFAULT_ALIGNMENT, .align_idx = -1, .strict_index = -1};
    c.hash_seed = tfs__hash_seed();
    tfs_status st = run(&c, out);
    if (st == TFS_INVALID && out && (flags & TFS_PARTIAL)) tfs__gg_build_partial(&c, out);
    free_records(&c);
    tfs__set_free(&c.keys);
    tfs__set_free(&c.names);
    return st;
}
