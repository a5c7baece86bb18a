/* parse.c: tfs_st_parse, the safetensors reference parser.
 *
 * Mirrors the Rust crate `safetensors` (tensor.rs SafeTensors::read_metadata,
 * then Metadata::validate), checks in the crate's order, first failure wins:
 *   1. framing: ST001 file < 8 bytes, ST002 N > 100,000,000, ST003 8 + N > file;
 *   2. ST101 header not UTF-8 (core::str::from_utf8);
 *   3. ST1xx/ST2xx/ST4xx: serde_json grammar and the header's shape
 *      (st_json.c, st_entries.c), all InvalidHeaderDeserialization: JSON
 *      errors and __metadata__ anywhere in the object before the first
 *      tensor-entry error (ST2xx), which comes before trailing characters
 *      (HashMetadata's #[serde(flatten)]; docs/safetensors-order.md);
 *   4. ST3xx: offsets and sizes (st_validate.c);
 *   5. with TFS_STRICT, the first ST5xx violation found while parsing.
 * Only bytes [0, 8 + N) are requested from the source; tensor data is never
 * read (the file size comes from the source). */
#include "st_internal.h"

#include <stdlib.h>

#define ST_MAX_HEADER 100000000u

static void ctx_free(st_ctx *c) {
    free(c->ents);
    free(c->shapes);
    free(c->kvs);
    free(c->arena);
    tfs_set_free(&c->tnames);
    tfs_set_free(&c->knames);
}

tfs_status tfs_st_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err) {
    if (out) *out = NULL;
    const uint8_t *p = tfs_src_get(src, 0, 8);
    if (!p) return tfs_src_failed(src) ? tfs_fail_src(err, src) : tfs_fail(err, TFS_ST001, 0, -1);
    uint64_t n = tfs_le64(p);
    if (n > ST_MAX_HEADER) return tfs_fail(err, TFS_ST002, 0, -1);
    if (src->size_known && 8u + n > src->file_size) return tfs_fail(err, TFS_ST003, 0, -1);
    /* one read of exactly the header (a stream learns here whether it is that long) */
    const uint8_t *base = tfs_src_prefix(src, 8u + (size_t)n);
    if (!base) return tfs_src_failed(src) ? tfs_fail_src(err, src) : tfs_fail(err, TFS_ST003, 0, -1);
    const uint8_t *j = base + 8;
    size_t bad = tfs_utf8_valid_up_to(j, (size_t)n);
    if (bad < n) return tfs_fail(err, TFS_ST101, 8u + (uint64_t)bad, -1);

    st_ctx c;
    memset(&c, 0, sizeof c);
    c.hash_seed = tfs_hash_seed();
    c.j = j;
    c.n = (size_t)n;
    c.flags = flags;
    c.err = err;
    c.strict_index = -1;
    uint64_t buffer_end = 0;
    tfs_status st = st_parse_json(&c);
    /* the data buffer's size: a stream is read to its end (and discarded) */
    if (st == TFS_OK && !tfs_src_learn_size(src)) st = tfs_fail_src(err, src);
    if (st == TFS_OK) st = st_validate(&c, src->file_size - 8u - n, &buffer_end);
    if (st == TFS_OK && c.strict_rule != TFS_RULE_NONE)
        st = tfs_fail(err, c.strict_rule, 8u + (uint64_t)c.strict_pos, c.strict_index);
    if (st == TFS_OK && out) st = st_build_view(&c, base, src->file_size, buffer_end, out, err);
    ctx_free(&c);
    return st;
}
