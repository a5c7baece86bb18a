/* parse.c: tfs__st_parse, the safetensors reference parser.
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
 *   4. ST3xx: offsets and sizes (tfs__st_validate.c);
 *   5. with TFS_STRICT, the first ST5xx violation found while parsing.
 * Only bytes [0, 8 + N) are requested from the source; tensor data is never
 * read (the file size comes from the source). */
#include "st_internal.h"
#include "../dispatch.h"

#include <stdlib.h>

#define ST_MAX_HEADER 100000000u

static void ctx_free(st_ctx *c) {
    free(c->ents);
    free(c->shapes);
    free(c->kvs);
    free(c->arena);
    tfs__set_free(&c->tnames);
    tfs__set_free(&c->knames);
}

/* TFS_PARTIAL: the header of what was read before the violation: the tensor
 * entries and __metadata__ entries parsed so far (c may be NULL when the
 * violation came before the JSON: framing or UTF-8), and the header's
 * fields (size field, JSON text) as the failing record. */
static void partial(st_ctx *c, const uint8_t *base, tfs_src *src, uint64_t n, tfs_header **out, tfs_error *err) {
    tfs_error keep = *err;
    tfs_header *h = NULL;
    if (c) {
        if (tfs__st_build_view(c, base, src->size_known ? src->file_size : 0, 0, &h, err) != TFS_OK) h = NULL;
    } else {
        h = tfs__header_new(TFS_FORMAT_SAFETENSORS, src->size_known ? src->file_size : 0);
    }
    *err = keep;
    if (!h) return;
    tfs_priv *p = h->priv_;
    size_t k = 0;
    h->complete = 0;
    h->data_size = 0;
    /* an entry's violation is held until the object closes (the crate's
     * order): the entries before the failing one are the well-formed ones */
    if (c && c->pend_rule == keep.rule && keep.index >= 0 && (uint64_t)keep.index < h->n_tensors)
        h->n_tensors = (size_t)keep.index;
    if (h->n_tensors == 0) h->tensors = NULL;
    if (!src->size_known || src->file_size >= 8u)
        p->fail[k++] = (tfs_field){.kind = TFS_FIELD_HEADER_SIZE, .record = -1, .offset = 0, .width = 8};
    if (c) p->fail[k++] = (tfs_field){.kind = TFS_FIELD_JSON, .record = -1, .offset = 8, .width = n};
    h->fail_fields = k ? p->fail : NULL;
    h->n_fail_fields = k;
    *out = h;
}

tfs_status tfs__st_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err) {
    if (out) *out = NULL;
    bool want_partial = out && (flags & TFS_PARTIAL);
    tfs_status st;
    const uint8_t *p = tfs__src_get(src, 0, 8);
    uint64_t n = p ? tfs_le64(p) : 0; /* ST001 off (TFS_RULE_OFF): a cut size field reads as N = 0 */
#ifdef TFS_RULE_OFF
    if (n > (uint64_t)INT64_MAX) n = (uint64_t)INT64_MAX; /* ST002 off: 8 + N must not wrap */
#endif
    if (!p && (tfs_src_failed(src) || TFS_RULE_HIT(TFS_ST001, true)))
        st = tfs_src_failed(src) ? tfs__fail_src(err, src) : tfs__fail(err, TFS_ST001, 0, -1);
    else if (TFS_RULE_HIT(TFS_ST002, TFS_BUG_CHECK(S3, n > ST_MAX_HEADER, n > ST_MAX_HEADER + 1u)))
        st = tfs__fail(err, TFS_ST002, 0, -1);
    else if (TFS_RULE_HIT(TFS_ST003, src->size_known && 8u + n > src->file_size))
        st = tfs__fail(err, TFS_ST003, 0, -1);
    else
        st = TFS_OK;
#ifdef TFS_RULE_OFF
    /* ST003 off: the header is cut at the end of the file (ST001 passed: >= 8 bytes) */
    if (st == TFS_OK && src->size_known && 8u + n > src->file_size) n = src->file_size - 8u;
#endif
    /* one read of exactly the header (a stream learns here whether it is that long) */
    const uint8_t *base = st == TFS_OK ? tfs__src_prefix(src, 8u + (size_t)n) : NULL;
#ifdef TFS_RULE_OFF
    if (st == TFS_OK && !base && !tfs_src_failed(src) && src->size_known && TFS_RULE_IS_OFF(TFS_ST003))
        base = tfs__src_prefix(src, 8u + (size_t)(n = src->file_size - 8u)); /* a stream: cut there too */
#endif
    if (st == TFS_OK && !base) st = tfs_src_failed(src) ? tfs__fail_src(err, src) : tfs__fail(err, TFS_ST003, 0, -1);
    size_t bad = base ? tfs_utf8_valid_up_to(base + 8, (size_t)n) : 0;
    if (st == TFS_OK && TFS_RULE_HIT(TFS_ST101, bad < n)) st = tfs__fail(err, TFS_ST101, 8u + (uint64_t)bad, -1);
    if (st != TFS_OK) {
        if (st == TFS_INVALID && want_partial) partial(NULL, NULL, src, n, out, err);
        return st;
    }

    st_ctx c;
    memset(&c, 0, sizeof c);
    c.hash_seed = tfs__hash_seed();
    c.j = base + 8;
    c.n = (size_t)n;
    c.flags = flags;
    c.err = err;
    c.strict_index = -1;
    uint64_t buffer_end = 0;
    st = tfs__st_parse_json(&c);
    /* the data buffer's size: a stream is read to its end (and discarded) */
    if (st == TFS_OK && !tfs__src_learn_size(src)) st = tfs__fail_src(err, src);
    if (st == TFS_OK) st = tfs__st_validate(&c, src->file_size - 8u - n, &buffer_end);
    if (st == TFS_OK && c.strict_rule != TFS_RULE_NONE)
        st = tfs__fail(err, c.strict_rule, 8u + (uint64_t)c.strict_pos, c.strict_index);
    if (st == TFS_OK && out)
        st = tfs__st_build_view(&c, base, src->file_size, buffer_end, out, err);
    else if (st == TFS_INVALID && want_partial)
        partial(&c, base, src, n, out, err);
    ctx_free(&c);
    return st;
}
