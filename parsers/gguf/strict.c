/* strict.c: the TFS_STRICT rules (GG5xx), implementation-defined cases of
 * spec/gguf.md that ggml does not check.  They run only after every canonical
 * and default rule passed, so a file the default profile rejects is rejected
 * with the same rule under --strict.  Order: per KV in file order (GG504 key
 * UTF-8, GG501 bool values, GG502 alignment), then GG503 (padding). */
#include "gg.h"

static tfs_status check_kv(gg_ctx *c, const uint8_t *kept, size_t i) {
    const gg_kv_rec *r = &c->kv[i];
    /* a long key (reader mode) was checked as it was read */
    uint64_t bad = r->key_kept < r->key_len ? (r->key_bad == GG_UNSET ? r->key_len : r->key_bad)
                                            : tfs_utf8_valid_up_to(kept + r->key_ref, (size_t)r->key_len);
    if (TFS_RULE_HIT(TFS_GG504, bad < r->key_len)) return tfs__fail(c->err, TFS_GG504, r->field_off + 8u + bad, (int64_t)i);
    /* bool values (scalar or array) were read by kv.c; the first byte > 1 */
    if (TFS_RULE_HIT(TFS_GG501, c->strict_rule == TFS_GG501 && c->strict_index == (int64_t)i))
        return tfs__fail(c->err, TFS_GG501, c->strict_off, (int64_t)i);
    if (TFS_RULE_HIT(TFS_GG502, (int64_t)i == c->align_idx && c->alignment % 8u != 0))
        return tfs__fail(c->err, TFS_GG502, r->value_off, (int64_t)i);
    return TFS_OK;
}

tfs_status tfs__gg_check_strict(gg_ctx *c) {
    const uint8_t *kept = gg_kept(c);
    for (size_t i = 0; i < c->kv_len; i++) {
        tfs_status st = check_kv(c, kept, i);
        if (st != TFS_OK) return st;
    }
    /* padding between the tensor infos and the data section, read by
     * layout.c (only present when there are tensors: ggml aligns the data
     * start only then) */
    if (TFS_RULE_HIT(TFS_GG503, c->strict_rule == TFS_GG503)) return tfs__fail(c->err, TFS_GG503, c->strict_off, -1);
    return TFS_OK;
}
