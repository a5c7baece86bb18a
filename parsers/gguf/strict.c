/* strict.c: the TFS_STRICT rules (GG5xx), implementation-defined cases of
 * spec/gguf.md that ggml does not check.  They run only after every canonical
 * and default rule passed, so a file the default profile rejects is rejected
 * with the same rule under --strict.  Order (file order): per KV, GG504 key
 * UTF-8, GG505 key length, GG506 key lower_snake_case, then its value: GG507
 * strings UTF-8 or GG501 bool values, GG502 alignment; then per tensor info
 * GG508 name UTF-8; then GG503 (padding). */
#include "gg.h"

#define GG_MAX_KEY 65535u /* GGUF spec: a key is at most 2^16-1 bytes */
_Static_assert(TFS_KEY_KEEP >= GG_MAX_KEY, "keys that pass GG505 are kept whole (GG506 reads them)");

/* First byte of key k[0, n) that breaks "segments of [a-z0-9_]+ separated
 * by '.'" (an empty segment: the '.' that ends it, or the last byte for a
 * trailing '.'), or n when the key is well formed.  n > 0 (GG110). */
static uint64_t snake_case_bad(const uint8_t *k, uint64_t n) {
    for (uint64_t j = 0; j < n; j++) {
        uint8_t b = k[j];
        bool word = (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '_';
        if (word) continue;
        if (b != '.' || j == 0 || k[j - 1] == '.' || j + 1 == n) return j;
    }
    return n;
}

static tfs_status check_kv(gg_ctx *c, const uint8_t *kept, size_t i) {
    const gg_kv_rec *r = &c->kv[i];
    /* a long key (reader mode) was checked as it was read */
    uint64_t bad = r->key_kept < r->key_len ? (r->key_bad == GG_UNSET ? r->key_len : r->key_bad)
                                            : tfs_utf8_valid_up_to(kept + r->key_ref, (size_t)r->key_len);
    if (TFS_RULE_HIT(TFS_GG504, bad < r->key_len))
        return tfs__fail(c->err, TFS_GG504, r->field_off + 8u + bad, (int64_t)i);
    if (TFS_RULE_HIT(TFS_GG505, r->key_len > GG_MAX_KEY)) return tfs__fail(c->err, TFS_GG505, r->field_off, (int64_t)i);
    /* every key is kept whole up to TFS_KEY_KEEP (>= 65,535) bytes; with
     * GG505 off (TFS_RULE_OFF) a longer key is judged on its kept bytes */
    bad = snake_case_bad(kept + r->key_ref, r->key_kept);
    if (TFS_RULE_HIT(TFS_GG506, bad < r->key_kept))
        return tfs__fail(c->err, TFS_GG506, r->field_off + 8u + bad, (int64_t)i);
    /* string values and elements (GG507), bool values (GG501): read by
     * kv.c, the first violation recorded */
    if (TFS_RULE_HIT(TFS_GG507, c->strict_rule == TFS_GG507 && c->strict_index == (int64_t)i))
        return tfs__fail(c->err, TFS_GG507, c->strict_off, (int64_t)i);
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
    /* tensor names: kept whole (< 64 bytes, GG202) */
    for (size_t t = 0; t < c->ti_len; t++) {
        const gg_ti_rec *r = &c->ti[t];
        uint64_t bad = tfs_utf8_valid_up_to(kept + r->name_ref, (size_t)r->name_len);
        if (TFS_RULE_HIT(TFS_GG508, bad < r->name_len))
            return tfs__fail(c->err, TFS_GG508, r->field_off + 8u + bad, (int64_t)t);
    }
    /* padding between the tensor infos and the data section, read by
     * layout.c (only present when there are tensors: ggml aligns the data
     * start only then) */
    if (TFS_RULE_HIT(TFS_GG503, c->strict_rule == TFS_GG503)) return tfs__fail(c->err, TFS_GG503, c->strict_off, -1);
    return TFS_OK;
}
