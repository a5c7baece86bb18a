/* strict.c: the TFS_STRICT rules (GG5xx), implementation-defined cases of
 * spec/gguf.md that ggml does not check.  They run only after every canonical
 * and default rule passed, so a file the default profile rejects is rejected
 * with the same rule under --strict.  Order: per KV in file order (GG504 key
 * UTF-8, GG501 bool values, GG502 alignment), then GG503 (padding). */
#include "gg.h"

/* Offset of the first byte of an invalid UTF-8 sequence in p[0, n), or n if
 * the bytes are valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
static uint64_t utf8_invalid_at(const uint8_t *p, uint64_t n) {
    uint64_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        if (b < 0x80) { i++; continue; }
        uint64_t len;
        uint8_t lo = 0x80, hi = 0xBF; /* bounds of the second byte */
        if (b >= 0xC2 && b <= 0xDF) len = 2;
        else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) lo = 0xA0;
            if (b == 0xED) hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) lo = 0x90;
            if (b == 0xF4) hi = 0x8F;
        } else return i;
        if (n - i < len) return i;
        if (p[i + 1] < lo || p[i + 1] > hi) return i;
        for (uint64_t k = 2; k < len; k++)
            if ((p[i + k] & 0xC0) != 0x80) return i;
        i += len;
    }
    return n;
}

static tfs_status check_kv(gg_ctx *c, const uint8_t *kept, size_t i) {
    const gg_kv_rec *r = &c->kv[i];
    uint64_t bad = utf8_invalid_at(kept + r->key_ref, r->key_len);
    if (bad < r->key_len) return tfs_fail(c->err, TFS_GG504, r->field_off + 8u + bad, (int64_t)i);
    /* bool values (scalar or array) were read by kv.c; the first byte > 1 */
    if (c->strict_rule == TFS_GG501 && c->strict_index == (int64_t)i)
        return tfs_fail(c->err, TFS_GG501, c->strict_off, (int64_t)i);
    if ((int64_t)i == c->align_idx && c->alignment % 8u != 0)
        return tfs_fail(c->err, TFS_GG502, r->value_off, (int64_t)i);
    return TFS_OK;
}

tfs_status gg_check_strict(gg_ctx *c) {
    const uint8_t *kept = gg_kept(c);
    for (size_t i = 0; i < c->kv_len; i++) {
        tfs_status st = check_kv(c, kept, i);
        if (st != TFS_OK) return st;
    }
    /* padding between the tensor infos and the data section, read by
     * layout.c (only present when there are tensors: ggml aligns the data
     * start only then) */
    if (c->strict_rule == TFS_GG503) return tfs_fail(c->err, TFS_GG503, c->strict_off, -1);
    return TFS_OK;
}
