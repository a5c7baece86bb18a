/* quick.c: tfs_mutate_quick - one field edit in place, found by a bounded
 * scan of the input's header (no parse, no write, no allocation).
 *
 * The scan walks the GGUF header (counts, KV pairs, tensor infos) or the
 * safetensors header size and the number tokens of its JSON, and keeps at
 * most QUICK_FIELDS of the fields it passes (a reservoir sample, so a long
 * header's later fields are as likely as its first ones).  It stops after
 * QUICK_STEPS records or string elements, at the end of the input, or at the
 * first length or count that does not fit: a vocabulary of 262,144 tokens
 * costs what its first strings cost.  The edit then sets one kept field to a
 * boundary value (the interesting values of the core, or the bytes left
 * after the field +-1), rewrites a number token in place, flips bits inside a
 * field, or cuts the input at a field's edge.  tfs_crossover_quick splices
 * two inputs at field starts found the same way. */
#include "mut.h"

#include <string.h>

#define QUICK_FIELDS 64u
#define QUICK_STEPS 1024u
/* safetensors: JSON bytes scanned for number tokens, from a random start */
#define QUICK_JSON_WINDOW 4096u

enum { Q_INT, Q_NUMBER }; /* little-endian integer field; JSON number token */

typedef struct qfield {
    size_t off;
    uint32_t width;
    uint8_t kind;
} qfield;

typedef struct qscan {
    mut_rng *rng;
    qfield f[QUICK_FIELDS];
    size_t n, seen; /* kept, passed */
    unsigned steps;
} qscan;

/* reservoir sampling: every field passed has the same chance to be kept */
static void keep(qscan *q, size_t off, uint32_t width, uint8_t kind) {
    size_t slot = q->seen < QUICK_FIELDS ? q->seen : (size_t)tfs__mut_below(q->rng, q->seen + 1);
    q->seen++;
    if (slot >= QUICK_FIELDS) return;
    q->f[slot] = (qfield){off, width, kind};
    if (q->n < QUICK_FIELDS) q->n++;
}

static uint64_t rd(const uint8_t *p, uint32_t width) {
    uint64_t v = 0;
    for (uint32_t i = 0; i < width; i++) v |= (uint64_t)p[i] << (8u * i);
    return v;
}

/* byte width of a fixed-size GGUF value type, 0 for string / array / unknown */
static uint32_t gg_width(uint32_t t) {
    static const uint8_t w[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return t < 13u ? w[t] : 0u;
}

/* an integer field of `width` bytes at *pos; 0 when the input ends first */
static int gg_take(qscan *q, const uint8_t *d, size_t size, size_t *pos, uint32_t width, uint64_t *v) {
    if (size - *pos < width) return 0;
    keep(q, *pos, width, Q_INT);
    *v = rd(d + *pos, width);
    *pos += width;
    return 1;
}

/* a u64 length and that many bytes; 0 when they do not fit */
static int gg_string(qscan *q, const uint8_t *d, size_t size, size_t *pos) {
    uint64_t len;
    if (!gg_take(q, d, size, pos, 8, &len) || len > size - *pos) return 0;
    *pos += (size_t)len;
    return 1;
}

static void scan_gguf(qscan *q, const uint8_t *d, size_t size) {
    size_t pos = 4;
    uint64_t version, n_tensors, n_kv, v;
    if (!gg_take(q, d, size, &pos, 4, &version) || !gg_take(q, d, size, &pos, 8, &n_tensors) ||
        !gg_take(q, d, size, &pos, 8, &n_kv))
        return;
    for (uint64_t k = 0; k < n_kv; k++) {
        if (++q->steps > QUICK_STEPS || !gg_string(q, d, size, &pos)) return;
        uint64_t type;
        if (!gg_take(q, d, size, &pos, 4, &type)) return;
        uint32_t w = gg_width((uint32_t)type);
        if (w) {
            if (!gg_take(q, d, size, &pos, w, &v)) return;
        } else if (type == 8u) {
            if (!gg_string(q, d, size, &pos)) return;
        } else if (type == 9u) {
            uint64_t et, count;
            if (!gg_take(q, d, size, &pos, 4, &et) || !gg_take(q, d, size, &pos, 8, &count)) return;
            uint32_t ew = gg_width((uint32_t)et);
            if (ew) { /* fixed-size elements: skipped in one step */
                if (count > (size - pos) / ew) return;
                pos += (size_t)count * ew;
            } else if (et == 8u) {
                for (uint64_t i = 0; i < count; i++)
                    if (++q->steps > QUICK_STEPS || !gg_string(q, d, size, &pos)) return;
            } else {
                return; /* nested array or unknown element type: no layout to follow */
            }
        } else {
            return;
        }
    }
    for (uint64_t t = 0; t < n_tensors; t++) {
        uint64_t n_dims, dim, ggml_type, offset;
        if (++q->steps > QUICK_STEPS || !gg_string(q, d, size, &pos) || !gg_take(q, d, size, &pos, 4, &n_dims) ||
            n_dims > 8u)
            return;
        for (uint64_t j = 0; j < n_dims; j++)
            if (!gg_take(q, d, size, &pos, 8, &dim)) return;
        if (!gg_take(q, d, size, &pos, 4, &ggml_type) || !gg_take(q, d, size, &pos, 8, &offset)) return;
    }
}

static int is_digit(uint8_t b) { return b >= '0' && b <= '9'; }

/* the header size, then the number tokens (a digit run after '[', ',', ':'
 * or a space) of a window of the JSON text */
static void scan_safetensors(qscan *q, const uint8_t *d, size_t size) {
    keep(q, 0, 8, Q_INT);
    uint64_t n = rd(d, 8);
    size_t end = n < size - 8u ? 8u + (size_t)n : size;
    size_t from = 8;
    if (end - from > QUICK_JSON_WINDOW) from += (size_t)tfs__mut_below(q->rng, end - from - QUICK_JSON_WINDOW + 1u);
    size_t to = end - from > QUICK_JSON_WINDOW ? from + QUICK_JSON_WINDOW : end;
    for (size_t i = from + 1; i < to; i++) {
        if (!is_digit(d[i])) continue;
        uint8_t b = d[i - 1];
        if (b != '[' && b != ',' && b != ':' && b != ' ') continue;
        size_t j = i;
        while (j < to && is_digit(d[j])) j++;
        keep(q, i, (uint32_t)(j - i), Q_NUMBER);
        i = j;
    }
}

static void wr(uint8_t *p, uint32_t width, uint64_t v) {
    for (uint32_t i = 0; i < width; i++) p[i] = (uint8_t)(v >> (8u * i));
}

static void put_name(char *chain, size_t chain_size, const char *name) {
    if (!chain || chain_size == 0) return;
    size_t len = strlen(name);
    if (len >= chain_size) len = chain_size - 1;
    memcpy(chain, name, len);
    chain[len] = '\0';
}

/* the scan of one input into q (no fields: not a model, or cut before its first field) */
static void scan(qscan *q, mut_rng *rng, const uint8_t *d, size_t size) {
    q->rng = rng;
    q->n = q->seen = 0;
    q->steps = 0;
    int format = tfs_mutate_format(d, size);
    if (format == TFS_FORMAT_GGUF)
        scan_gguf(q, d, size);
    else if (format == TFS_FORMAT_SAFETENSORS)
        scan_safetensors(q, d, size);
}

/* a splice point of an input of `size` bytes: a kept field's start, else a random byte */
static size_t splice_at(const qscan *q, mut_rng *rng, size_t size) {
    if (q->n) return q->f[tfs__mut_below(rng, q->n)].off;
    return (size_t)tfs__mut_below(rng, (uint64_t)size + 1u);
}

size_t tfs_crossover_quick(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size, uint8_t *out,
                           size_t max_out, uint64_t seed) {
    if (!out || max_out == 0 || (!a && a_size) || (!b && b_size)) return 0;
    mut_rng rng = {seed ^ 0x71636f76u}; /* "qcov" */
    qscan qa, qb;
    scan(&qa, &rng, a, a_size);
    scan(&qb, &rng, b, b_size);
    size_t x = splice_at(&qa, &rng, a_size), y = splice_at(&qb, &rng, b_size);
    if (x > max_out) x = max_out;
    size_t tail = b_size - y;
    if (tail > max_out - x) tail = max_out - x;
    if (x) memcpy(out, a, x);
    if (tail) memcpy(out + x, b + y, tail);
    return x + tail;
}

size_t tfs_mutate_quick(uint8_t *data, size_t size, size_t max_size, uint64_t seed, char *chain, size_t chain_size) {
    put_name(chain, chain_size, "");
    if (!data || max_size == 0 || size == 0) return 0;
    if (size > max_size) size = max_size;
    mut_rng rng = {seed ^ 0x71756963u}; /* "quic" */
    qscan q;
    scan(&q, &rng, data, size);
    if (q.n == 0) return 0;
    const qfield *f = &q.f[tfs__mut_below(&rng, q.n)];
    uint8_t *p = data + f->off;
    uint64_t r = tfs__mut_below(&rng, 20);
    if (r < 3) { /* cut at the field's start, inside it, or at its end */
        size_t at = f->off + (r == 0 ? 0u : r == 1 ? (size_t)tfs__mut_below(&rng, f->width) : f->width);
        if (at > 0 && at < size) {
            put_name(chain, chain_size, "quick.cut");
            return at;
        }
    }
    if (r < 6) { /* 1-4 bit flips inside the field */
        uint64_t k = 1 + tfs__mut_below(&rng, 4);
        for (uint64_t i = 0; i < k; i++) p[tfs__mut_below(&rng, f->width)] ^= (uint8_t)(1u << tfs__mut_below(&rng, 8));
        put_name(chain, chain_size, "quick.flip");
        return size;
    }
    if (f->kind == Q_NUMBER) { /* same width: all 9s, all 0s, one digit changed */
        switch (tfs__mut_below(&rng, 3)) {
        case 0: memset(p, '9', f->width); break;
        case 1: memset(p, '0', f->width); break;
        default: p[tfs__mut_below(&rng, f->width)] = (uint8_t)('0' + tfs__mut_below(&rng, 10)); break;
        }
        put_name(chain, chain_size, "quick.number");
        return size;
    }
    uint64_t cur = rd(p, f->width), v;
    if (r < 10) { /* the bytes after the field, and one more or less: where "fits" and "past the end" meet */
        uint64_t left = (uint64_t)(size - f->off - f->width);
        v = left + (uint64_t)tfs__mut_below(&rng, 3) - 1u;
    } else {
        v = tfs__mut_interesting(&rng, cur);
    }
    wr(p, f->width, v);
    put_name(chain, chain_size, "quick.value");
    return size;
}
