/* read.c: the GGUF reading primitives that kv.c and tensor_info.c stand on:
 * strings (length, skip, keep in the arena, long keys hashed through the
 * window) and byte scans through the window (UTF-8, bytes above a bound).
 * They call nothing of the stages: parse.c -> kv.c, tensor_info.c -> read.c. */
#include "gg.h"

#include <stdlib.h>

tfs_status tfs__gg_string_len(gg_ctx *c, tfs_rule trunc_rule, int64_t index, uint64_t *len) {
    uint64_t at = c->off;
    const uint8_t *p = gg_take(c, 8);
    if (!p && !(p = gg_past_end(c, 8, trunc_rule))) return gg_short(c, trunc_rule, at, index);
    *len = tfs_le64(p);
    /* planted G5: a KV key's length used unchecked (no cap, no bytes-left test) */
    TFS_BUG_CANARY(G5, c->stage == GG_STAGE_KVS && c->kv_len > 0 && c->kv[c->kv_len - 1u].field_off == at,
                   c->src->size_known && *len > c->src->file_size - c->off);
    if (TFS_RULE_HIT(TFS_GG101, TFS_BUG_CHECK(G16, *len > GG_MAX_STRING_LENGTH, false)))
        return tfs__fail(c->err, TFS_GG101, at, index);
    return TFS_OK;
}

tfs_status tfs__gg_string_skip(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t index) {
    if (!gg_skip(c, len)) return gg_short(c, gg_str_rule(c), len_off, index);
    return TFS_OK;
}

/* Room for n more arena bytes (doubling); false on overflow or ENOMEM. */
static bool arena_room(gg_ctx *c, size_t n) {
    size_t need;
    if (__builtin_add_overflow(c->arena_len, n, &need)) return false;
    if (need <= c->arena_cap) return true;
    size_t cap = c->arena_cap ? c->arena_cap : 1024u;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2u;
    uint8_t *a = realloc(c->arena, cap);
    if (!a) return false;
    c->arena = a;
    c->arena_cap = cap;
    return true;
}

tfs_status tfs__gg_string_keep(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t index, uint64_t *ref) {
    if (c->src->buf) { /* zero-copy: kept bytes are the buffer's */
        uint64_t at = c->off;
        tfs_status st = tfs__gg_string_skip(c, len_off, len, index);
        if (st == TFS_OK) *ref = at; /* set only once the whole string is there */
        return st;
    }
    if (c->src->size_known && !gg_has(c, len)) return gg_short(c, gg_str_rule(c), len_off, index);
    /* Copied window by window, the arena growing with the bytes that
     * arrived: a stream (which cannot test the length first without
     * discarding the bytes) stops at its end, which is the same GG102. */
    size_t start = c->arena_len;
    uint64_t left = len;
    while (left > 0) {
        size_t k = left < TFS_WINDOW ? (size_t)left : TFS_WINDOW;
        if (!arena_room(c, k)) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
        const uint8_t *p = tfs__src_get(c->src, c->off, k);
        if (!p) return gg_short(c, gg_str_rule(c), len_off, index);
        memcpy(c->arena + c->arena_len, p, k);
        c->arena_len += k;
        c->off += k;
        left -= k;
    }
    *ref = start; /* set only once the whole string is there */
    return TFS_OK;
}

bool tfs__gg_arena_put(gg_ctx *c, const uint8_t *p, size_t n) {
    if (n == 0) return true;
    if (!arena_room(c, n)) return false;
    memcpy(c->arena + c->arena_len, p, n);
    c->arena_len += n;
    return true;
}

int tfs__gg_keep_bytes(gg_ctx *c, uint64_t off, size_t n) {
    if (n == 0) return 1;
    const uint8_t *p = tfs__src_get(c->src, off, n);
    if (!p) return c->src->nomem ? -1 : 0;
    return tfs__gg_arena_put(c, p, n) ? 1 : -1;
}

/* Bytes of p[0, k) up to the last complete UTF-8 sequence: a lead byte in
 * the last three whose sequence runs past k starts the next piece. */
static size_t utf8_piece(const uint8_t *p, size_t k) {
    for (size_t j = k; j > 0 && j + 3 >= k; j--) {
        uint8_t b = p[j - 1];
        if (b < 0x80u) break;
        if (b >= 0xC0u) {
            size_t need = b >= 0xF0u ? 4u : b >= 0xE0u ? 3u : 2u;
            return j - 1 + need > k ? j - 1 : k;
        }
    }
    return k;
}

tfs_status tfs__gg_key_long(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t index, uint64_t *ref, uint64_t *hash,
                            uint64_t *bad) {
    if (c->src->size_known && !gg_has(c, len)) return gg_short(c, gg_str_rule(c), len_off, index);
    if (!arena_room(c, TFS_KEY_KEEP)) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
    tfs_hash_state hs;
    tfs__hash_init(&hs, c->hash_seed, len);
    size_t start = c->arena_len;
    *bad = GG_UNSET;
    bool check = (c->flags & TFS_STRICT) != 0;
    uint64_t done = 0;
    while (done < len) {
        size_t k = len - done < TFS_WINDOW ? (size_t)(len - done) : TFS_WINDOW;
        const uint8_t *p = tfs__src_get(c->src, c->off + done, k);
        if (!p) return gg_short(c, gg_str_rule(c), len_off, index);
        if (check && *bad == GG_UNSET) {
            if (done + k < len) k = utf8_piece(p, k); /* > 0: k was TFS_WINDOW */
            size_t v = tfs_utf8_valid_up_to(p, k);
            if (v < k) *bad = done + v;
        }
        if (done < TFS_KEY_KEEP) {
            size_t m = TFS_KEY_KEEP - (size_t)done < k ? TFS_KEY_KEEP - (size_t)done : k;
            memcpy(c->arena + c->arena_len + done, p, m);
        }
        tfs__hash_update(&hs, p, k);
        done += k;
    }
    c->arena_len += TFS_KEY_KEEP;
    *ref = start; /* set only once the whole key was read */
    c->off += len;
    *hash = tfs__hash_final(&hs);
    return TFS_OK;
}

bool tfs__gg_scan_utf8(gg_ctx *c, uint64_t off, uint64_t n, uint64_t *bad) {
    *bad = UINT64_MAX;
    uint64_t done = 0;
    while (done < n) {
        size_t k = n - done < TFS_WINDOW ? (size_t)(n - done) : TFS_WINDOW;
        const uint8_t *p = tfs__src_get(c->src, off + done, k);
        if (!p) return false;
        if (done + k < n) k = utf8_piece(p, k); /* > 0: k was TFS_WINDOW */
        size_t v = tfs_utf8_valid_up_to(p, k);
        if (v < k) {
            *bad = off + done + v;
            return true;
        }
        done += k;
    }
    return true;
}

bool tfs__gg_scan_above(gg_ctx *c, uint64_t off, uint64_t n, uint8_t max, uint64_t *bad) {
    *bad = UINT64_MAX;
    while (n > 0) {
        size_t k = n < TFS_WINDOW ? (size_t)n : TFS_WINDOW;
        const uint8_t *p = tfs__src_get(c->src, off, k);
        if (!p) return false;
        for (size_t i = 0; i < k; i++)
            if (p[i] > max) {
                *bad = off + i;
                return true;
            }
        off += k;
        n -= k;
    }
    return true;
}
