/*
 * internal.h: shared internals of the libtfs parsers (not installed).
 * - checked arithmetic helpers,
 * - tfs_src: the byte source (caller buffer, or a pread window that grows),
 * - tfs__fail: the single exit for every rule violation.
 */
#ifndef TFS_INTERNAL_H
#define TFS_INTERNAL_H

#include "tfs/tfs.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TFS_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TFS_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TFS_UNLIKELY(x) (x)
#define TFS_LIKELY(x) (x)
#endif

/*
 * Rule-coverage builds (cmake -DTFS_RULE_OFF=<rule id>, maint/rule_coverage.sh,
 * docs/rule-coverage.md): the compile definition TFS_RULE_OFF=TFS_<id>
 * switches one rule off in the format parsers.  Every place that raises a
 * rule asks TFS_RULE_HIT(rule, cond) (or, where the rule is a result rather
 * than a condition, TFS_RULE_IS_OFF and a documented "off" meaning): with the
 * rule off the check is skipped and the parser goes on as if `cond` were
 * false.  In a normal build TFS_RULE_OFF is undefined, TFS_RULE_IS_OFF is the
 * constant false and TFS_RULE_HIT(rule, cond) folds to (cond): no code and no
 * time.  `cond` is always evaluated first (its side effects happen in both
 * builds).
 */
#ifdef TFS_RULE_OFF
#define TFS_RULE_IS_OFF(rule) ((rule) == TFS_RULE_OFF)
#else
#define TFS_RULE_IS_OFF(rule) false
#endif
#define TFS_RULE_HIT(rule, cond) ((cond) && !TFS_RULE_IS_OFF(rule))

/* Fuzzing-benchmark builds (cmake -DTFS_BUG=<id>): TFS_BUG_CHECK, TFS_BUG_CANARY. */
#include "bug.h"

/* Checked arithmetic: return true on overflow (like the builtins). */
static inline bool tfs_add_overflow_u64(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline bool tfs_mul_overflow_u64(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_mul_overflow(a, b, r); }

/* Little-endian loads by byte shifts (never by casting pointers). */
static inline uint16_t tfs_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t tfs_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t tfs_le64(const uint8_t *p) { return (uint64_t)tfs_le32(p) | ((uint64_t)tfs_le32(p + 4) << 32); }

/* Little-endian store of v into p[0..7] (all eight bytes written). */
static inline void tfs_put_le64(uint8_t *p, uint64_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    p[4] = (uint8_t)(v >> 32);
    p[5] = (uint8_t)(v >> 40);
    p[6] = (uint8_t)(v >> 48);
    p[7] = (uint8_t)(v >> 56);
}

/*
 * Byte source (src.c).  Buffer mode: `buf` is the whole file, every read is
 * zero-copy.  Reader mode: bytes come from a tfs_source (a caller's reader,
 * or pread on a file descriptor) into an owned window of file bytes
 * [win_off, win_off + win_len); a pointer returned by tfs__src_get is valid
 * only until the next call on the source.  Parsers keep offsets (or copies,
 * tfs__src_copy), never window pointers.
 *
 * A forward-only reader can never go back: a request that starts before the
 * window fails with ESPIPE.  Its size is unknown until its end is read; then
 * file_size is set and size_known becomes true.
 */
typedef struct tfs_src {
    const uint8_t *buf; /* buffer mode: caller's bytes; NULL in reader mode */
    uint64_t file_size; /* bytes; TFS_SIZE_UNKNOWN until known */
    bool size_known;
    tfs_source rd;    /* reader mode */
    bool forward;     /* reader can only go forward */
    uint64_t rd_pos;  /* forward: file offset the next read() starts at */
    uint8_t *win;     /* reader mode: owned window */
    uint64_t win_off; /* file offset of win[0] */
    size_t win_len;   /* bytes valid in win */
    size_t win_cap;   /* bytes allocated for win */
    int io_errno;     /* set when a read failed */
    bool nomem;       /* set when growing the window failed */
} tfs_src;

/* Bytes [off, off + n) of the file, or NULL when they are not all inside the
 * file (the caller reports truncation; for a stream file_size is then
 * known), or on I/O / memory failure (then tfs_src_failed). */
const uint8_t *tfs__src_get(tfs_src *s, uint64_t off, size_t n);
/* Copy bytes [off, off + n) into dst (for data kept after the window moves).
 * Returns false as tfs__src_get returns NULL. */
bool tfs__src_copy(tfs_src *s, uint64_t off, size_t n, uint8_t *dst);
/* Is the file at least `end` bytes long?  Immediate for a known size; a
 * stream is read (and discarded) forward up to `end` or its end, so bytes
 * before `end` can no longer be read.  False on failure too (check
 * tfs_src_failed). */
bool tfs__src_has(tfs_src *s, uint64_t end);
/* Read a stream to its end so that file_size is known (immediate when it
 * is); false on failure. */
bool tfs__src_learn_size(tfs_src *s);
/* Reader mode: make the window hold exactly bytes [0, n) at win_off 0 (n <=
 * the file size, checked by the caller), reading only what it lacks, and
 * return it; NULL on failure.  Buffer mode: the buffer.  For safetensors,
 * whose header (8 + N bytes) is read once and kept. */
const uint8_t *tfs__src_prefix(tfs_src *s, size_t n);
static inline bool tfs_src_failed(const tfs_src *s) { return s->io_errno != 0 || s->nomem; }
/* Bytes left in the file after `off` (0 if off >= file_size); only for a
 * known size. */
static inline uint64_t tfs_src_left(const tfs_src *s, uint64_t off) {
    return off >= s->file_size ? 0 : s->file_size - off;
}
/* Release the window (reader mode). */
void tfs__src_close(tfs_src *s);

/* Make room for one more element of `elem` bytes in the growable array `arr`
 * of capacity *cap holding `used` elements (doubling, first 16).  Arrays only
 * ever grow with entries actually parsed, never with a declared count.
 * Returns the array (moved or not; *cap updated), or NULL on overflow or
 * allocation failure, when `arr` is still valid and owned by the caller. */
void *tfs__reserve(void *arr, size_t *cap, size_t used, size_t elem);
/* The first allocation of such an array, sized once for n elements (a bound
 * the caller derives from bytes already read, never from a declared count),
 * on huge-page memory when large: only the pages the records reach are
 * touched.  *cap = max(n, 16); NULL on overflow or ENOMEM. */
void *tfs__reserve_first(size_t *cap, size_t n, size_t elem);

/* Hint that the n bytes at p (a large, fresh buffer) will all be written
 * soon: transparent huge pages where available (mem.c); never fails. */
void tfs__mem_hint(void *p, size_t n);
/* malloc (zero: calloc) for n bytes; from 1 MiB on, 2 MiB-aligned with the
 * hint, so its first touch costs a few faults, not one per 4 KiB.  Free with
 * free(); NULL on failure. */
void *tfs__alloc_big(size_t n, bool zero);

/* Keyed string hash for duplicate detection (core/hash.c).  tfs__hash_seed
 * gives a fresh seed per parse (POSIX: derived from one getrandom per
 * process, posix_seed.c), so hash tables cannot be flooded by crafted names;
 * results never depend on it. */
uint64_t tfs__hash_seed(void);
uint64_t tfs__hash_bytes(uint64_t seed, const uint8_t *p, size_t n);
/* The same hash, fed in pieces: init with the total length, update with the
 * bytes in order, final = tfs__hash_bytes of all of them. */
typedef struct tfs_hash_state {
    uint64_t h, seed;
    uint8_t buf[8];
    unsigned n_buf;
} tfs_hash_state;
void tfs__hash_init(tfs_hash_state *s, uint64_t seed, uint64_t total_len);
void tfs__hash_update(tfs_hash_state *s, const uint8_t *p, size_t n);
uint64_t tfs__hash_final(const tfs_hash_state *s);

/* Hash set of record indexes (set.c): duplicate keys and names in both
 * parsers.  The caller owns the strings and compares them (eq). */
typedef struct tfs_set_slot {
    uint32_t hash;   /* low 32 bits of the record's hash */
    uint32_t index1; /* record index + 1; 0 = empty */
} tfs_set_slot;
typedef struct tfs_set {
    tfs_set_slot *slot;
    size_t cap; /* power of two, or 0 */
    size_t used;
} tfs_set;
/* Does record `index` equal the candidate described by ctx? */
typedef bool (*tfs_set_eq)(const void *ctx, uint64_t index);
/* Make room for one more record (call before tfs__set_find_or_add); the first
 * call sizes the table for `expect` records.  False on ENOMEM. */
bool tfs__set_reserve(tfs_set *s, size_t expect);
/* The index of a record equal to the candidate (same hash and eq), or -1
 * after inserting `index` for it, or -2 when index does not fit the set's
 * 32-bit slots (more than 4,294,967,294 records: the caller reports
 * TFS_ENOMEM, a limit no real file reaches). */
int64_t tfs__set_find_or_add(tfs_set *s, uint64_t hash, uint64_t index, tfs_set_eq eq, const void *ctx);
/* Hint that `hash` will be looked up soon (hides the cache miss). */
static inline void tfs_set_prefetch(const tfs_set *s, uint64_t hash) {
    if (s->cap) __builtin_prefetch(&s->slot[(size_t)hash & (s->cap - 1u)]);
}
void tfs__set_free(tfs_set *s);

/* Library-internal storage hung off tfs_header.priv_. */
struct tfs_kvx;
typedef struct tfs_priv {
    uint8_t *window; /* reader mode: the window (owned), views may point into it */
    void *blocks[8]; /* format-owned allocations, each released with free() */
    /* Values (access.c): per KV, in h->kv order. */
    const struct tfs_kvx *kvx;
    const uint8_t *buf;                  /* buffer mode: the caller's file bytes, else NULL */
    tfs_source rd;                       /* reader mode: re-read string and array values */
    int fd;                              /* POSIX fd sources: owned dup, closed on free; -1 */
    bool forward;                        /* values of a forward-only reader cannot be re-read */
    tfs_field fail[16];                  /* TFS_PARTIAL: fields of the failing record */
    void (*release)(struct tfs_priv *p); /* closes fd (posix_file.c) */
} tfs_priv;

/* Per-KV value access data (access.c), in h->kv order.
 *  - mem: GGUF: the value as stored when it is in memory (buffer mode; of a
 *    forward-only source the first mem_len bytes of an array: whole elements,
 *    GG_ARR_KEEP), else NULL; safetensors: the decoded string (always in
 *    memory).
 *  - scalar: GGUF fixed-size scalar: its raw little-endian bytes (any mode);
 *    GGUF string scalar and safetensors value: the string's length (bytes).
 *  - marks: GGUF string arrays: file offsets of elements 0, stride,
 *    2 * stride, ... (n_marks of them, as far as parsed), so element i is
 *    found after at most stride - 1 length fields. */
typedef struct tfs_kvx {
    const uint8_t *mem; /* GGUF: the value's first mem_len bytes as stored (buffer mode: all;
                         * a forward-only source: the first whole array elements), or NULL */
    uint64_t mem_len;
    uint64_t scalar;
    const uint64_t *marks;
    uint64_t n_marks;
    uint64_t stride;
    bool decoded;       /* safetensors: mem is the decoded string */
    const uint8_t *str; /* GGUF string scalar of at most GG_STR_KEEP bytes: its bytes, kept by the parser */
} tfs_kvx;

/* Writers (wbuf.c): room for `bytes` more materialised bytes and `fields`
 * more fields of the map, in one allocation each; a hint only. */
struct tfs_wbuf;
void tfs__wbuf_reserve(struct tfs_wbuf *w, size_t bytes, size_t fields);

/* Bytes [off, off + n) of GGUF KV value x (file offsets; kv_off = its
 * value_offset): from memory when x holds them, else read again through the
 * header's reader (TFS_EIO: a forward-only source, or the read failed). */
tfs_status tfs__value_read(const tfs_priv *p, const struct tfs_kvx *x, uint64_t kv_off, uint64_t off, uint8_t *dst,
                           size_t n);

/* Is kv one of h->kv?  Its index in *idx (access.c). */
bool tfs__kv_index(const tfs_header *h, const tfs_kv *kv, size_t *idx);
/* v->u64, i64, f64 from the little-endian bytes `raw` of a fixed-size value
 * of GGUF value type `type` (v->type and offset untouched). */
void tfs__value_decode(uint32_t type, uint64_t raw, tfs_value *v);

/* A GGUF KV's value as stored, in one piece (access.c): for whole-value
 * copies (tfs_gg_model_from_view) instead of one accessor call per element. */
tfs_status tfs__kv_stored(const tfs_header *h, const tfs_kv *kv, uint8_t *dst, size_t cap, const uint8_t **out);

/* Allocate a zeroed header with its priv (NULL on ENOMEM); priv->fd = -1. */
tfs_header *tfs__header_new(tfs_format format, uint64_t file_size);

/* Record a violation and return TFS_INVALID.  The one exit for every rule:
 * one place for a breakpoint, one place to count rule coverage. */
tfs_status tfs__fail(tfs_error *err, tfs_rule rule, uint64_t offset, int64_t index);
/* Record a non-rule failure (TFS_EIO / TFS_ENOMEM / TFS_EARG). */
tfs_status tfs__fail_status(tfs_error *err, tfs_status st, int sys_errno);
/* TFS_EIO or TFS_ENOMEM from a failed tfs_src. */
tfs_status tfs__fail_src(tfs_error *err, const tfs_src *s);

/* Set *out = NULL and a cleared error record (index -1) (header.c). */
void tfs__clear_result(tfs_header **out, tfs_error *err);

/* The format parsers' entry points and the dispatch between them live above
 * core/: parsers/dispatch.h. */

#endif /* TFS_INTERNAL_H */
