/* crossover.c: tfs_crossover - records of two inputs spliced (GGUF KV pairs
 * and tensor infos, safetensors entries and __metadata__ pairs), written by
 * the C writer with offsets recomputed. */
#include "mut.h"

#include <string.h>

/* dst = a[0, i) + b[k, l) + a[j, na), items of `size` bytes, in the arena */
static void *splice(mut_ctx *c, const void *a, size_t na, const void *b, size_t nb, size_t size, size_t *n_out,
                    size_t *cap_out) {
    size_t i = (size_t)tfs__mut_below(&c->rng, na + 1);
    size_t j = i + (size_t)tfs__mut_below(&c->rng, na - i + 1);
    size_t k = nb ? (size_t)tfs__mut_below(&c->rng, nb) : 0;
    size_t l = nb ? k + 1 + (size_t)tfs__mut_below(&c->rng, nb - k) : 0;
    size_t n = i + (l - k) + (na - j);
    uint8_t *d = tfs__mut_alloc(c, (n + MUT_EXTRA) * size);
    if (!d) return NULL;
    const uint8_t *pa = a, *pb = b;
    if (i) memcpy(d, pa, i * size);
    if (l > k) memcpy(d + i * size, pb + k * size, (l - k) * size);
    if (na > j) memcpy(d + (i + l - k) * size, pa + j * size, (na - j) * size);
    *n_out = n;
    *cap_out = n + MUT_EXTRA;
    return d;
}

size_t tfs_crossover(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size, uint8_t *out, size_t max_out,
                     uint64_t seed) {
    if (!out || max_out == 0) return 0;
    if (!a) a_size = 0;
    if (!b) b_size = 0;
    mut_ctx ca, cb;
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    ca.rng.s = seed ^ 0x63726f73u; /* "cros" */
    cb.rng.s = seed ^ 0x73736f76u;
    ca.max_size = cb.max_size = max_out;
    size_t n = 0;
    if (tfs__mut_load(&ca, a, a_size, TFS_FORMAT_UNKNOWN) != 0 || tfs__mut_load(&cb, b, b_size, ca.format) != 0)
        goto done;
    if (ca.format != cb.format) {
        /* a byte splice: a's head, b's tail */
        size_t cut_a = (size_t)tfs__mut_below(&ca.rng, a_size + 1);
        size_t cut_b = (size_t)tfs__mut_below(&ca.rng, b_size + 1);
        if (cut_a > max_out) cut_a = max_out;
        size_t tail = b_size - cut_b;
        if (tail > max_out - cut_a) tail = max_out - cut_a;
        if (cut_a) memcpy(out, a, cut_a);
        if (tail) memcpy(out + cut_a, b + cut_b, tail);
        n = cut_a + tail;
        if (n == 0) { /* never an empty child: a, else b, as far as it fits */
            const uint8_t *src = a_size ? a : b;
            n = a_size ? a_size : b_size;
            if (n > max_out) n = max_out;
            if (n) memcpy(out, src, n);
        }
        goto done;
    }
    /* which record lists: the first, the second, or both */
    uint64_t which = 1 + tfs__mut_below(&ca.rng, 3);
    if (ca.format == TFS_FORMAT_GGUF) {
        if (which & 1) {
            tfs_gg_wkv *kv = splice(&ca, ca.kv, ca.n_kv, cb.kv, cb.n_kv, sizeof *kv, &ca.n_kv, &ca.cap_kv);
            if (kv) ca.kv = kv;
        }
        if (which & 2) {
            tfs_gg_wtensor *t = splice(&ca, ca.gt, ca.n_gt, cb.gt, cb.n_gt, sizeof *t, &ca.n_gt, &ca.cap_gt);
            if (t) ca.gt = t;
            for (size_t i = 0; i < ca.n_gt; i++) ca.gt[i].offset_set = 0;
        }
    } else {
        if (which & 1) {
            tfs_st_wentry *e = splice(&ca, ca.se, ca.n_se, cb.se, cb.n_se, sizeof *e, &ca.n_se, &ca.cap_se);
            if (e) ca.se = e;
            for (size_t i = 0; i < ca.n_se; i++) ca.se[i].offsets_set = 0; /* recomputed for the new order */
        }
        if (which & 2) {
            tfs_st_wmeta *m = splice(&ca, ca.meta, ca.n_meta, cb.meta, cb.n_meta, sizeof *m, &ca.n_meta, &ca.cap_meta);
            if (m) ca.meta = m;
            if (ca.n_meta && ca.sm.metadata != TFS_STW_META_OBJECT) ca.sm.metadata = TFS_STW_META_OBJECT;
        }
    }
    /* b's records borrow from cb, alive until the write is copied out */
    if (ca.nomem || tfs__mut_write(&ca) != 0) goto done;
    n = tfs__mut_copy_out(&ca, out, max_out);
done:
    tfs__mut_free(&ca);
    tfs__mut_free(&cb);
    return n;
}
