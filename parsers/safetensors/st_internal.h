/*
 * st_internal.h: internals shared by the safetensors parser files.
 *
 * The header JSON (N bytes after the 8-byte size) is parsed in one pass into
 * compact records (st_ent, st_kv) that hold OFFSETS into the JSON text or
 * into an arena of decoded strings; pointers are resolved once at the end
 * (st_view.c), so the parser never keeps a pointer returned by tfs__src_get
 * across another tfs__src_get.
 *
 * Positions ("pos") are byte offsets inside the JSON text (0..N); the file
 * offset of a position is 8 + pos.  N <= 100,000,000, so they fit uint32_t.
 */
#ifndef TFS_ST_INTERNAL_H
#define TFS_ST_INTERNAL_H

#include "internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Maximum JSON nesting: serde_json starts with remaining_depth = 128 and fails
 * when a container brings it to 0, so a container at depth 128 (the outer
 * object being depth 1) is an error and depth 127 is the deepest accepted. */
#define ST_MAX_DEPTH 128u

/* A decoded string: `len` bytes at `off` in the JSON text (no escapes:
 * zero-copy) or in the arena (escapes resolved). */
typedef struct st_sref {
    uint32_t off;
    uint32_t len;
    uint32_t hash;    /* st_hash of the decoded bytes (names and keys only) */
    uint8_t in_arena; /* 1: off is an arena offset, 0: a JSON position */
} st_sref;

/* One tensor entry as parsed (file order, duplicates already merged).
 * st_view.c turns the array of st_ent into the array of tfs_tensor in place,
 * so an st_ent must be at least as large as a tfs_tensor. */
typedef struct st_ent {
    st_sref name;
    uint64_t start, end; /* data_offsets */
    uint64_t n_elements; /* product of the shape (valid unless shape_ovf) */
    uint32_t shape_idx;  /* first dimension in the shape pool */
    uint32_t n_dims;
    uint32_t val_pos;   /* '{' or '[' of the entry */
    uint32_t shape_pos; /* '[' of shape */
    uint32_t offs_pos;  /* '[' of data_offsets */
    uint8_t dtype;      /* tfs_st_dtype */
    uint8_t shape_ovf;  /* the shape product overflowed (ST303, reported by tfs__st_validate) */
} st_ent;

/* One __metadata__ entry (string -> string), file order, duplicates merged. */
typedef struct st_kv {
    st_sref key;
    st_sref val;
    uint32_t key_pos;
    uint32_t val_pos; /* opening quote of the value */
    uint32_t val_end; /* just past its closing quote */
} st_kv;

_Static_assert(sizeof(st_ent) >= sizeof(tfs_tensor), "st_view.c converts st_ent to tfs_tensor in place");


/* Parser state for one header. */
typedef struct st_ctx {
    const uint8_t *j; /* the JSON text (N bytes), valid during the parse */
    size_t n;         /* N */
    size_t pos;       /* cursor in j */
    unsigned flags;   /* TFS_STRICT ... */
    tfs_error *err;
    int64_t cur_index; /* tensor / KV index reported with JSON errors, -1 */

    st_ent *ents;
    size_t n_ents, cap_ents;
    uint64_t *shapes;
    size_t n_shapes, cap_shapes;
    st_kv *kvs;
    size_t n_kvs, cap_kvs;
    uint8_t *arena;
    size_t arena_len, arena_cap; /* decoded strings */
    tfs_set tnames, knames;      /* duplicate names and keys (core/set.c) */
    uint64_t hash_seed;          /* tfs__hash_seed(), drawn once per parse */

    /* fast_entry: the last dtype name seen and its id (runs of one dtype) */
    uint8_t last_dtype[16];
    size_t last_dtype_len; /* 0: none yet */
    uint8_t last_dtype_id;

    bool seen_metadata;
    bool has_metadata; /* __metadata__ was an object */

    /* The first tensor-entry violation (ST2xx) in document order, held until
     * the top-level object is closed.  The crate's HashMetadata collects the
     * entries (#[serde(flatten)]) while serde_json scans the object and
     * deserializes each TensorInfo only when the map has ended, so every
     * JSON-level error (ST11x) and every __metadata__ error (ST40x) anywhere
     * in the object comes first; the held violation comes before trailing
     * characters (ST112) and before Metadata::validate (ST3xx). */
    tfs_rule pend_rule;
    uint32_t pend_pos;
    int64_t pend_index;
    bool deferred; /* the entry being parsed stopped at a held violation */

    /* First strict-profile violation in document order (lowest position);
     * reported only when the file passes every canonical rule, so a file's
     * default-profile rule is also its strict-profile rule. */
    tfs_rule strict_rule;
    uint32_t strict_pos;
    int64_t strict_index;
} st_ctx;

/* UTF-8 (ST101): tfs_utf8_valid_up_to, parsers/core/utf8.c. */

/* ---- st_json.c: serde_json's grammar ---- */
/* Report rule at JSON position pos (file offset 8 + pos) with c->cur_index.
 * Rule-coverage builds (TFS_RULE_OFF, internal.h): for the rule switched
 * off it reports nothing and returns ST_STOP instead, which every caller
 * passes up like a failure and tfs__st_parse_json turns into the end of the
 * header: a JSON grammar error (ST11x) or a rule that stops the scan (ST118,
 * ST401, ST402) switched off makes the header end there, keeping what was
 * read before it (docs/rule-coverage.md). */
tfs_status tfs__st_err(st_ctx *c, tfs_rule rule, size_t pos);
#define ST_STOP ((tfs_status)0x100) /* rule-coverage builds only: see tfs__st_err */
/* Report the byte at c->pos as unexpected: ST111 at end of text, else ST110. */
tfs_status tfs__st_unexpected(st_ctx *c);
/* Record a strict-profile violation when TFS_STRICT; the one at the lowest
 * position is kept (violations may be found slightly out of order). */
void tfs__st_strict(st_ctx *c, tfs_rule rule, size_t pos, int64_t index);

/* The cursor over the JSON text: c->pos is the next byte; these are the
 * ways the entry parser looks at it (bounds-checked, like GGUF's gg_take).
 * st_is: is the next byte b?  st_take: consume it if so.  st_at_end: no
 * byte left. */
static inline bool st_is(const st_ctx *c, uint8_t b) { return c->pos < c->n && c->j[c->pos] == b; }
static inline bool st_take(st_ctx *c, uint8_t b) {
    if (!st_is(c, b)) return false;
    c->pos++;
    return true;
}
static inline bool st_at_end(const st_ctx *c) { return c->pos >= c->n; }

static inline void st_ws(st_ctx *c) {
    const uint8_t *j = c->j;
    size_t p = c->pos, n = c->n;
    while (p < n && (j[p] == ' ' || j[p] == '\n' || j[p] == '\r' || j[p] == '\t')) p++;
    c->pos = p;
}
static inline bool st_value_start(uint8_t b) {
    return b == '{' || b == '[' || b == '"' || b == '-' || (b >= '0' && b <= '9') || b == 't' || b == 'f' || b == 'n';
}

/* Scan the string token at c->pos (which must be '"'): checks escapes,
 * surrogate pairs and control characters.  On TFS_OK c->pos is past the
 * closing quote and *esc tells whether any escape occurred. */
tfs_status tfs__st_scan_string(st_ctx *c, bool *esc);
/* Decode the validated string token j[start, end) (quotes included) into dst;
 * returns the decoded length (<= end - start - 2). */
size_t tfs__st_decode(const uint8_t *j, size_t start, size_t end, uint8_t *dst);
/* ---- fast paths, inline in the entry parser; the full scanners above
 * handle everything else (and all errors) ---- */
static inline uint64_t st_load_le8(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}
/* Bytes that end a plain run inside a string: '"', '\\', or < 0x20.  SWAR
 * over 8 bytes read little-endian; the lowest flagged byte is exact (borrows
 * only propagate upwards), the first one in memory order. */
static inline uint64_t st_special_mask(uint64_t w) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t q = w ^ (ones * (uint64_t)'"');
    uint64_t b = w ^ (ones * (uint64_t)'\\');
    uint64_t zq = (q - ones) & ~q;
    uint64_t zb = (b - ones) & ~b;
    uint64_t lt = (w - ones * 0x20u) & ~w;
    return (zq | zb | lt) & highs;
}
/* Eight ASCII digits (SWAR, as simdjson's is_made_of_eight_digits_fast and
 * parse_eight_digits_unrolled): are they all digits, and their value. */
static inline bool st_eight_digits(uint64_t w) {
    return ((w & 0xF0F0F0F0F0F0F0F0ull) | (((w + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ==
           0x3333333333333333ull;
}
static inline uint64_t st_eight_value(uint64_t w) { /* first digit in the low byte */
    w = (w & 0x0F0F0F0F0F0F0F0Full) * 2561u >> 8;
    w = (w & 0x00FF00FF00FF00FFull) * 6553601u >> 16;
    return (uint32_t)((w & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32);
}

/* Scan the number token at c->pos ('-' or a digit).  *is_u64 is true when the
 * token is a plain non-negative integer <= 2^64-1 (then *val holds it): what
 * serde_json hands to a usize.  Errors: ST110/ST111 grammar, ST117 out of f64
 * range (serde_json f64_from_parts). */
tfs_status tfs__st_scan_number(st_ctx *c, uint64_t *val, bool *is_u64);
/* st_scan_number with its fast path inline.  st_number_fast: an integer of
 * 1-19 digits without a leading zero (< 10^19 < 2^64: no overflow test), as
 * shapes and data_offsets hold, not continued by a digit, '.', 'e' or 'E';
 * false (c->pos unchanged) for anything else, which st_number hands to the
 * full scanner. */
/* How many of the 8 bytes of w (little-endian: the first in the low byte)
 * are ASCII digits before the first other byte (8: all).  Per byte: the
 * high nibble is 3 before and after adding 6; carries only run upwards,
 * from a byte that is no digit, so the lowest flagged byte is exact. */
static inline unsigned st_digits_in8(uint64_t w) {
    const uint64_t f0 = 0xF0F0F0F0F0F0F0F0ull, t = 0x3030303030303030ull, lo7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t x = ((w & f0) ^ t) | (((w + 0x0606060606060606ull) & f0) ^ t);
    uint64_t nz = (((x & lo7) + lo7) | x) & ~lo7; /* high bit of each non-zero byte */
    return nz ? (unsigned)__builtin_ctzll(nz) >> 3 : 8u;
}
/* Value of the first k (1-8) digits of w: moved to the top, '0's below. */
static inline uint64_t st_value_of(uint64_t w, unsigned k) {
    if (k == 8) return st_eight_value(w);
    return st_eight_value((w << (8u * (8u - k))) | (0x3030303030303030ull >> (8u * k)));
}

static inline bool st_number_fast(st_ctx *c, uint64_t *val) {
    static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    const uint8_t *j = c->j;
    size_t n = c->n, p = c->pos;
    if (!(p < n && j[p] >= '1' && j[p] <= '9')) return false;
    uint64_t v = 0;
    size_t q = p, lim = n - p > 19 ? p + 19 : n;
    if (n - q >= 16) { /* two words: up to 16 digits without a loop */
        uint64_t w = st_load_le8(j + q);
        unsigned k = st_digits_in8(w);
        v = st_value_of(w, k);
        q += k;
        if (k == 8) {
            w = st_load_le8(j + q);
            k = st_digits_in8(w);
            if (k) v = v * pow10[k] + st_value_of(w, k); /* < 10^16 */
            q += k;
        }
    }
    while (q < lim && j[q] >= '0' && j[q] <= '9') v = v * 10u + (uint64_t)(j[q++] - '0');
    if (q < n && ((j[q] >= '0' && j[q] <= '9') || j[q] == '.' || j[q] == 'e' || j[q] == 'E')) return false;
    c->pos = q;
    *val = v;
    return true;
}
static inline tfs_status st_number(st_ctx *c, uint64_t *val, bool *is_u64) {
    if (st_number_fast(c, val)) {
        *is_u64 = true;
        return TFS_OK;
    }
    return tfs__st_scan_number(c, val, is_u64);
}
/* st_scan_string with its fast path inline: a string without escapes whose
 * closing quote is found 8 bytes at a time.  Anything else: the full scanner
 * (from the start of the token). */
static inline tfs_status st_string(st_ctx *c, bool *esc) {
    const uint8_t *j = c->j;
    size_t n = c->n, i = c->pos + 1;
    while (i + 8 <= n) {
        uint64_t m = st_special_mask(st_load_le8(j + i));
        if (m) {
            i += (size_t)__builtin_ctzll(m) >> 3;
            if (j[i] != '"') break;
            c->pos = i + 1;
            *esc = false;
            return TFS_OK;
        }
        i += 8;
    }
    return tfs__st_scan_string(c, esc);
}

/* Skip any JSON value at c->pos whose container is at `depth` (checks the full
 * grammar, number range and the nesting limit). */
tfs_status tfs__st_skip_value(st_ctx *c, unsigned depth);
/* Consume the literal `lit` (true/false/null) at c->pos. */
tfs_status tfs__st_literal(st_ctx *c, const char *lit, size_t len);

/* Bytes of a decoded string reference. */
static inline const uint8_t *st_sref_ptr(const st_ctx *c, const st_sref *s) {
    return s->in_arena ? c->arena + s->off : c->j + s->off;
}
/* Find `s` among the names already in `set` (tensor names when kvs == false,
 * metadata keys when true).  Returns the index, or -1 after inserting `index`
 * for it.  tfs__set_reserve must have succeeded since the last insertion. */
int64_t tfs__st_names_find_or_add(st_ctx *c, tfs_set *set, bool kvs, const st_sref *s, uint32_t index);

/* ---- st_entries.c ---- */
/* Parse the whole JSON text (UTF-8 already checked) into c.  Of several
 * violations, the one the crate reports comes out: a tensor-entry rule
 * (ST2xx) is held until the object's closing brace (c->pend_*). */
tfs_status tfs__st_parse_json(st_ctx *c);

/* ---- tfs__st_validate.c ---- */
/* Metadata::validate and the final buffer-size check of read_metadata.
 * data_len = file size - 8 - N.  On TFS_OK *buffer_end is the end of the
 * last tensor. */
tfs_status tfs__st_validate(st_ctx *c, uint64_t data_len, uint64_t *buffer_end);

/* ---- st_view.c ---- */
/* Build the public header from the parsed records; `base` is the file's
 * byte 0 (buffer or window).  Takes ownership of the pools in c. */
tfs_status tfs__st_build_view(st_ctx *c, const uint8_t *base, uint64_t file_size, uint64_t buffer_end, tfs_header **out,
                              tfs_error *err);

#endif /* TFS_ST_INTERNAL_H */
