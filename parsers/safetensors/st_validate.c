/* tfs__st_validate.c: tensor.rs Metadata::validate and the last check of
 * SafeTensors::read_metadata.  Tensors are walked in (start, end) order from
 * a running offset of 0; the first tensor that fails any check wins:
 *   start != running          ST301 InvalidOffset       (offset: data_offsets)
 *   end < start               ST302 InvalidOffset       (offset: data_offsets)
 *   shape product overflows   ST303 ValidationOverflow  (offset: shape)
 *   elements x bits overflows ST304 ValidationOverflow  (offset: entry)
 *   bits % 8 != 0             ST305 MisalignedSlice     (offset: entry)
 *   end - start != bits / 8   ST306 TensorInvalidInfo   (offset: data_offsets)
 * then the data buffer must end exactly at the last tensor:
 *   longer  ST307 (offset: first data byte no tensor owns, index -1)
 *   shorter ST308 (offset: data_offsets of the tensor that ends last).
 * The index reported is the tensor's position in file order.
 *
 * The crate sorts a HashMap's entries, so tensors with equal (start, end) are
 * walked in an arbitrary order there; here ties keep file order.
 *
 * Files whose JSON order is already offset order (the crate's own writer)
 * are walked in place.  Others are sorted with a stable LSD radix sort on
 * (start, end) over compact records, skipping byte positions where all keys
 * agree: O(n), and the walk reads memory sequentially. */
#include "st_internal.h"

#include <stdlib.h>

typedef struct st_rec {
    uint64_t start, end, n_elements;
    uint32_t index;
    uint8_t bits;
    uint8_t shape_ovf;
} st_rec;

static tfs_status fail_at(st_ctx *c, tfs_rule rule, uint32_t pos, uint32_t index) {
    return tfs__fail(c->err, rule, 8u + (uint64_t)pos, (int64_t)index);
}

static tfs_status check(st_ctx *c, const st_rec *r, uint64_t *running) {
    if (TFS_RULE_HIT(TFS_ST301, TFS_BUG_CHECK(S2, r->start != *running, r->start > *running)))
        return fail_at(c, TFS_ST301, c->ents[r->index].offs_pos, r->index);
    if (TFS_RULE_HIT(TFS_ST302, TFS_BUG_CHECK(S5, r->end < r->start, false)))
        return fail_at(c, TFS_ST302, c->ents[r->index].offs_pos, r->index);
    *running = r->end;
    if (TFS_RULE_HIT(TFS_ST303, TFS_BUG_CHECK(S8, r->shape_ovf != 0, false)))
        return fail_at(c, TFS_ST303, c->ents[r->index].shape_pos, r->index);
    uint64_t nbits;
    if (TFS_RULE_HIT(TFS_ST304, tfs_mul_overflow_u64(r->n_elements, r->bits, &nbits)))
        return fail_at(c, TFS_ST304, c->ents[r->index].val_pos, r->index);
    if (TFS_RULE_HIT(TFS_ST305, nbits % 8u != 0)) return fail_at(c, TFS_ST305, c->ents[r->index].val_pos, r->index);
    if (TFS_RULE_HIT(TFS_ST306, r->end - r->start != nbits / 8u))
        return fail_at(c, TFS_ST306, c->ents[r->index].offs_pos, r->index);
    return TFS_OK;
}

static inline st_rec rec_of(const st_ent *e, uint32_t i) {
    return (st_rec){e->start, e->end, e->n_elements, i, (uint8_t)tfs_st_dtype_bits(e->dtype), e->shape_ovf};
}

/* Byte b (0 = least significant) of the sort key: end is the minor half. */
static inline unsigned key_byte(const st_rec *r, unsigned b) {
    return b < 8 ? (unsigned)(r->end >> (8 * b)) & 0xFFu : (unsigned)(r->start >> (8 * (b - 8))) & 0xFFu;
}

/* Stable insertion sort of n records on (start, end), in place: for a few
 * records, cheaper than the radix sort's 32 KiB of counters. */
static st_rec *insertion_sort(st_rec *a, size_t n) {
    for (size_t i = 1; i < n; i++) {
        st_rec r = a[i];
        size_t j = i;
        while (j > 0 && (a[j - 1].start > r.start || (a[j - 1].start == r.start && a[j - 1].end > r.end))) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = r;
    }
    return a;
}

#define ST_INSERTION_SORT_MAX 32u /* records */

/* Stable LSD radix sort of n records on (start, end); tmp holds n records.
 * Returns the array holding the result (a or tmp).  Few records: insertion
 * sort (the same order: both are stable on the same key). */
static st_rec *radix_sort(st_rec *a, st_rec *tmp, size_t n) {
    if (n <= ST_INSERTION_SORT_MAX) return insertion_sort(a, n);
    static const unsigned n_bytes = 16;
    size_t(*count)[256] = calloc(n_bytes, sizeof *count);
    if (!count) return NULL;
    for (size_t i = 0; i < n; i++)
        for (unsigned b = 0; b < n_bytes; b++) count[b][key_byte(&a[i], b)]++;
    st_rec *src = a, *dst = tmp;
    for (unsigned b = 0; b < n_bytes; b++) {
        if (count[b][key_byte(&src[0], b)] == n) continue; /* every key has this byte */
        size_t pos[256], sum = 0;
        for (unsigned v = 0; v < 256; v++) {
            pos[v] = sum;
            sum += count[b][v];
        }
        for (size_t i = 0; i < n; i++) dst[pos[key_byte(&src[i], b)]++] = src[i];
        st_rec *t = src;
        src = dst;
        dst = t;
    }
    free(count);
    return src;
}

tfs_status tfs__st_validate(st_ctx *c, uint64_t data_len, uint64_t *buffer_end) {
    size_t n = c->n_ents;
    const st_ent *ents = c->ents;
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++)
        sorted =
            ents[i - 1].start < ents[i].start || (ents[i - 1].start == ents[i].start && ents[i - 1].end <= ents[i].end);
    uint64_t running = 0;
    uint32_t last = 0;
    tfs_status st = TFS_OK;
    if (sorted) {
        for (size_t i = 0; i < n && st == TFS_OK; i++) {
            st_rec r = rec_of(&ents[i], (uint32_t)i);
            st = check(c, &r, &running);
        }
        last = n ? (uint32_t)(n - 1) : 0;
    } else {
        st_rec *a = malloc(2 * n * sizeof *a);
        if (!a) return tfs__fail_status(c->err, TFS_ENOMEM, 0);
        for (size_t i = 0; i < n; i++) a[i] = rec_of(&ents[i], (uint32_t)i);
        const st_rec *order = radix_sort(a, a + n, n);
        if (!order) {
            free(a);
            return tfs__fail_status(c->err, TFS_ENOMEM, 0);
        }
        for (size_t k = 0; k < n && st == TFS_OK; k++) st = check(c, &order[k], &running);
        last = n ? order[n - 1].index : 0;
        free(a);
    }
    if (st != TFS_OK) return st;
    *buffer_end = running;
    if (TFS_RULE_HIT(TFS_ST307, TFS_BUG_CHECK(S6, running < data_len, false)))
        return tfs__fail(c->err, TFS_ST307, 8u + (uint64_t)c->n + running, -1);
    if (TFS_RULE_HIT(TFS_ST308, TFS_BUG_CHECK(S5b, running > data_len, false)))
        return fail_at(c, TFS_ST308, c->ents[last].offs_pos, last);
    return TFS_OK;
}
