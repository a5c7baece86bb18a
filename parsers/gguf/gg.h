/*
 * gg.h: internals of the GGUF reference parser (parsers/gguf/).
 *
 * The parser mirrors ggml's gguf.cpp gguf_init_from_reader check by check, in
 * the same order (see shared spec/gguf.md and include/tfs/rules.def GGnnn).
 * Bytes are consumed only through gg_take() / gg_skip(): every read is bounded
 * by the bytes left in the file.  Memory follows the records, never declared
 * sizes: keys and tensor names are kept (zero-copy in buffer mode, copied to
 * an arena otherwise: "kept" offsets are relative to gg_kept()); string and
 * array bodies are skipped, never read, unless a rule needs their bytes
 * (TFS_STRICT bool values, string bodies and padding, read through the
 * window).  Scalars
 * are kept by value.  Views are resolved once parsing is over (view.c).
 *
 * Files: parse.c (entry, fixed header), read.c (reading primitives: strings,
 * window scans), kv.c (KV pairs, general.alignment), tensor_info.c (tensor
 * infos), layout.c (data start, offsets, data in file), strict.c (TFS_STRICT
 * rules), view.c (the tfs_header view).  Calls run one way: parse.c calls the
 * stages, the stages call read.c, read.c calls only core/.
 */
#ifndef TFS_GG_H
#define TFS_GG_H

#include "internal.h"

/* Limits of gguf.cpp (64-bit build). */
#define GG_MAX_STRING_LENGTH (UINT64_C(1) << 30)  /* GGUF_MAX_STRING_LENGTH */
#define GG_MAX_ARRAY_ELEMENTS (UINT64_C(1) << 30) /* GGUF_MAX_ARRAY_ELEMENTS */
#define GG_SIZEOF_TENSOR_INFO 344u                /* sizeof(gguf_tensor_info) = sizeof(ggml_tensor) 336 + u64 offset */
#define GG_SIZEOF_KV 88u                          /* sizeof(gguf_kv): std::string, bool, enum, 2 x std::vector */
#define GG_MAX_NAME 64u                           /* GGML_MAX_NAME: names must be shorter */
#define GG_MAX_DIMS 4u                            /* GGML_MAX_DIMS */
#define GG_DEFAULT_ALIGNMENT 32u                  /* GGUF_DEFAULT_ALIGNMENT */
#define GG_STR_KEEP \
    256u /* string scalars up to this many bytes are kept
                                      (readable from a stream; a few bytes per KV) */
/* Forward-only sources (a pipe), which cannot be read again: the first
 * GG_ARR_KEEP bytes of each array value (whole elements) are kept, at most
 * GG_ARR_KEEP_TOTAL bytes for all arrays together (bytes that arrived, never
 * a declared size). */
#define GG_ARR_KEEP TFS_ARRAY_KEEP
#define GG_ARR_KEEP_TOTAL (64u * 1024u * 1024u)

/* One KV pair as parsed (offsets are absolute file offsets, bytes;
 * GG_UNSET until read). */
#define GG_UNSET UINT64_MAX
typedef struct gg_kv_rec {
    uint64_t field_off; /* start of the KV (its key length field) */
    uint64_t key_ref;   /* first key byte, relative to gg_kept() */
    uint64_t key_len;
    uint64_t key_kept;  /* key bytes kept at key_ref: key_len, or TFS_KEY_KEEP */
    uint64_t key_hash;  /* tfs__hash_bytes of the whole key */
    uint64_t key_bad;   /* long keys, TFS_STRICT: first non-UTF-8 byte (GG504), or GG_UNSET */
    uint64_t type_off;  /* the i32 value type field */
    uint64_t elem_off;  /* arrays: element type field */
    uint64_t count_off; /* arrays: count field */
    uint64_t value_off; /* value as stored (tfs_kv.value_offset) */
    uint64_t value_len;
    uint64_t count;   /* array element count, 1 for a scalar */
    uint64_t scalar;  /* fixed-size scalar: raw LE bytes; string: its length */
    uint64_t str_ref; /* string scalar <= GG_STR_KEEP bytes: its bytes, relative to gg_kept(); else GG_UNSET */
    uint64_t arr_ref; /* forward-only source: kept array bytes (from value_off), relative to gg_kept(); else GG_UNSET */
    uint64_t arr_kept; /* their count: whole elements, at most GG_ARR_KEEP */
    uint64_t *marks;   /* string arrays: offsets of every stride-th element */
    size_t n_marks, cap_marks;
    uint64_t stride;
    uint32_t type;      /* tfs_gg_vtype, TFS_GG_ARRAY for arrays */
    uint32_t elem_type; /* element type for arrays, else == type */
} gg_kv_rec;

/* One tensor info as parsed. */
typedef struct gg_ti_rec {
    uint64_t field_off; /* start of the info (its name length field) */
    uint64_t name_ref;  /* first name byte, relative to gg_kept() */
    uint64_t name_len;
    uint64_t ndims_off; /* n_dims field, GG_UNSET until read */
    uint64_t ne_off[GG_MAX_DIMS];
    uint64_t type_off;
    uint64_t ne[GG_MAX_DIMS]; /* 1 beyond n_dims, as ggml */
    uint64_t n_elements;
    uint64_t n_bytes;
    uint64_t offset;     /* as stored, relative to the data section */
    uint64_t offset_off; /* file offset of the u64 offset field */
    uint32_t n_dims;
    uint32_t type;
} gg_ti_rec;


/* Stages of a parse, in order. */
enum { GG_STAGE_HEADER, GG_STAGE_KVS, GG_STAGE_ALIGN, GG_STAGE_INFOS, GG_STAGE_LAYOUT, GG_STAGE_DONE };

/* Parser state. */
typedef struct gg_ctx {
    tfs_src *src;
    tfs_error *err;
    unsigned flags;
    uint64_t off; /* cursor: next byte to consume */

    uint32_t version;
    int64_t n_tensors; /* as declared (checked against ggml's bound) */
    int64_t n_kv;

    gg_kv_rec *kv;
    size_t kv_len, kv_cap;
    gg_ti_rec *ti;
    size_t ti_len, ti_cap;
    tfs_set keys, names; /* duplicate detection (core/set.c) */
    uint64_t hash_seed;  /* tfs__hash_seed(), drawn once per parse */

    uint32_t alignment;  /* general.alignment or 32 */
    int64_t align_idx;   /* KV index of general.alignment, -1 if absent */
    uint64_t info_end;   /* end of the tensor infos (bytes) */
    uint64_t data_start; /* start of the data section (bytes) */
    uint64_t data_size;  /* sum of padded tensor sizes (bytes) */

    int stage;      /* GG_STAGE_*: the stage running (partial results) */
    bool eq_failed; /* re-reading a long key for a compare failed (I/O) */
    uint8_t *arena; /* reader mode: kept keys and names */
    size_t arena_len, arena_cap;
    uint64_t arr_kept_total; /* array bytes kept so far (GG_ARR_KEEP_TOTAL) */

    /* First TFS_STRICT violation found while reading (GG501 bool values,
     * GG507 string bodies, GG503 padding), reported only after every other
     * rule passed. */
    tfs_rule strict_rule;
    uint64_t strict_off;
    int64_t strict_index;
} gg_ctx;

/* Base of kept key and name bytes: the caller's buffer, or the arena. */
static inline const uint8_t *gg_kept(const gg_ctx *c) {
    static const uint8_t k_none[1];
    return c->src->buf ? c->src->buf : c->arena ? c->arena : k_none; /* never NULL + 0 */
}

/* Consume n bytes at the cursor: a pointer to them (valid until the next
 * gg_take / tfs__src_get), or NULL when fewer than n bytes are left (or the
 * source failed: see gg_short).  The only way the parser reads bytes. */
static inline const uint8_t *gg_take(gg_ctx *c, uint64_t n) {
    if (n > SIZE_MAX) return NULL;
    const uint8_t *p = tfs__src_get(c->src, c->off, (size_t)n);
    if (p) c->off += n;
    return p;
}

/* Are there at least n bytes after the cursor?  (A stream reads forward to
 * find out: only for bytes the parser skips, or before reporting.) */
static inline bool gg_has(gg_ctx *c, uint64_t n) {
    uint64_t end;
    return !tfs_add_overflow_u64(c->off, n, &end) && tfs__src_has(c->src, end);
}

/* Skip n bytes at the cursor without reading them (a stream discards
 * them); false when fewer are left or the source failed. */
static inline bool gg_skip(gg_ctx *c, uint64_t n) {
    if (!gg_has(c, n)) return false;
    c->off += n;
    return true;
}

/* A read came back short: TFS_EIO / TFS_ENOMEM if the source failed, else
 * the truncation rule `rule` at `off`. */
static inline tfs_status gg_short(gg_ctx *c, tfs_rule rule, uint64_t off, int64_t index) {
    if (tfs_src_failed(c->src)) return tfs__fail_src(c->err, c->src);
    return tfs__fail(c->err, rule, off, index);
}

/* Rule-coverage builds (TFS_RULE_OFF, internal.h): a truncation rule
 * switched off reads the bytes past the end of the file as zeros: for the
 * n <= 8 bytes of a fixed-size field, the cursor moves on and a pointer to
 * zeros comes back.  NULL when the source failed, the rule is on, or in a
 * normal build (always: the caller's `!p && !(p = gg_past_end(...))` folds to
 * `!p`).  Use: if (!p && !(p = gg_past_end(c, n, rule))) return gg_short(c, rule, ...). */
static inline const uint8_t *gg_past_end(gg_ctx *c, uint64_t n, tfs_rule rule) {
#ifdef TFS_RULE_OFF
    static const uint8_t k_zeros[8];
    if (TFS_RULE_IS_OFF(rule) && n <= sizeof k_zeros && !tfs_src_failed(c->src)) {
        c->off += n;
        return k_zeros;
    }
#endif
    (void)c;
    (void)n;
    (void)rule;
    return NULL;
}

/* The rule for a string body (key, string value or element, tensor name)
 * longer than the bytes left: GG102.  With GG102 off (TFS_RULE_OFF) the
 * length test is gone and the short read of the body is what is left: the
 * truncation rule of the record being read (GG201 in the tensor infos, GG103
 * in the KV pairs), as a reader without the test reports it. */
static inline tfs_rule gg_str_rule(const gg_ctx *c) {
    if (TFS_RULE_IS_OFF(TFS_GG102)) return c->stage == GG_STAGE_INFOS ? TFS_GG201 : TFS_GG103;
    return TFS_GG102;
}

/* Record a TFS_STRICT violation found while reading (the first one wins; a
 * rule switched off by TFS_RULE_OFF is never recorded). */
static inline void gg_strict(gg_ctx *c, tfs_rule rule, uint64_t off, int64_t index) {
    if (TFS_RULE_HIT(rule, (c->flags & TFS_STRICT) && c->strict_rule == TFS_RULE_NONE)) {
        c->strict_rule = rule;
        c->strict_off = off;
        c->strict_index = index;
    }
}

/* Reading primitives (read.c). */

/* Read a GGUF string's length at the cursor, as gguf_reader::read(
 * std::string&): GG101 (length > 2^30), GG102 (length > bytes left after
 * the length field), `trunc_rule` when the length field itself is cut; all
 * at the length field.  Leaves the cursor on the first string byte.  The
 * GG102 test is done by the caller's tfs__gg_string_keep / tfs__gg_string_skip. */
tfs_status tfs__gg_string_len(gg_ctx *c, tfs_rule trunc_rule, int64_t index, uint64_t *len);
/* Then either skip the body (GG102 when it does not fit) ... */
tfs_status tfs__gg_string_skip(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t index);
/* ... or keep it: *ref receives its offset relative to gg_kept(). */
tfs_status tfs__gg_string_keep(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t index, uint64_t *ref);
/* Append the n (<= TFS_WINDOW) bytes at file offset off, which the cursor
 * has not passed, to the arena (reader mode), without moving the cursor: 1
 * done, 0 not all there (nothing kept; the caller's skip reports it), -1 out
 * of memory.  For array values of forward-only sources (GG_ARR_KEEP). */
int tfs__gg_keep_bytes(gg_ctx *c, uint64_t off, size_t n);
/* Append n bytes at p to the arena; false when out of memory. */
bool tfs__gg_arena_put(gg_ctx *c, const uint8_t *p, size_t n);
/* A key longer than TFS_KEY_KEEP in reader mode (the cursor on its first
 * byte): its first TFS_KEY_KEEP bytes kept (*ref, relative to gg_kept()),
 * the rest read through the window for the hash of the whole key and, with
 * TFS_STRICT, its first non-UTF-8 byte (*bad, relative to the key, or
 * GG_UNSET).  GG102 as tfs__gg_string_keep. */
tfs_status tfs__gg_key_long(gg_ctx *c, uint64_t len_off, uint64_t len, int64_t index, uint64_t *ref, uint64_t *hash,
                            uint64_t *bad);
/* Scan n bytes at file offset `off` through the window; the first byte
 * above `max` is stored in *bad (UINT64_MAX if none).  Returns false when
 * the bytes are not all in the file or the source failed. */
bool tfs__gg_scan_above(gg_ctx *c, uint64_t off, uint64_t n, uint8_t max, uint64_t *bad);

/* Scan n bytes at file offset `off` through the window as UTF-8 (the
 * validator of tfs_utf8_valid_up_to; a sequence across a window boundary is
 * judged whole): the file offset of the first byte that does not start a
 * valid sequence in *bad (UINT64_MAX if none, bytes).  Returns false when
 * the bytes are not all in the file or the source failed (TFS_STRICT, GG507). */
bool tfs__gg_scan_utf8(gg_ctx *c, uint64_t off, uint64_t n, uint64_t *bad);

/* Stages, in ggml's order.  Each returns TFS_OK or the first violation. */
tfs_status tfs__gg_parse_kvs(gg_ctx *c);                    /* kv.c: KV pairs, GG1xx */
tfs_status tfs__gg_check_alignment(gg_ctx *c);              /* kv.c: GG140, GG141 */
tfs_status tfs__gg_parse_tensor_infos(gg_ctx *c);           /* tensor_info.c: GG2xx */
tfs_status tfs__gg_check_layout(gg_ctx *c);                 /* layout.c: GG301..GG303, GG305 */
tfs_status tfs__gg_check_data(gg_ctx *c);                   /* layout.c: GG304 (default profile) */
tfs_status tfs__gg_check_strict(gg_ctx *c);                 /* strict.c: GG5xx */
tfs_status tfs__gg_build_view(gg_ctx *c, tfs_header **out); /* view.c */
/* TFS_PARTIAL: the header of what was read before the violation (view.c). */
void tfs__gg_build_partial(gg_ctx *c, tfs_header **out);

#endif /* TFS_GG_H */
