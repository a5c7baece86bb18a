/*
 * mut.h: internals of the mutation core (not installed).
 *
 * One mutation run: load the input into a mutable model (model.c), run the
 * model phase of each chosen mutation, write with the C writer, run the bytes
 * phase of each on the written file (tfs_wbuf + field map), copy out at most
 * max_size bytes.  Everything a mutation allocates comes from the run's arena
 * and is freed with it.
 */
#ifndef TFS_MUT_H
#define TFS_MUT_H

#include "tfs/tfs.h"
#include "tfs/write.h"
#include "tfs_mutate.h"

#include <stddef.h>
#include <stdint.h>

#define MUT_GG (1u << TFS_FORMAT_GGUF)
#define MUT_ST (1u << TFS_FORMAT_SAFETENSORS)
#define MUT_BOTH (MUT_GG | MUT_ST)

/* Records a mutation may add to a model loaded from an input. */
#define MUT_EXTRA 8u
/* Largest layout alignment the writer is asked to materialise padding for
 * (bytes); a larger general.alignment is written but laid out with 32. */
#define MUT_MAX_LAYOUT_ALIGN 65536u

/* ------------------------------------------------------------------ rng */
/* splitmix64: deterministic from the seed, no global state. */
typedef struct mut_rng {
    uint64_t s;
} mut_rng;
uint64_t tfs__mut_next(mut_rng *r);
/* uniform-ish in [0, n); 0 when n == 0 */
uint64_t tfs__mut_below(mut_rng *r, uint64_t n);

/* ---------------------------------------------------------------- arena */
typedef struct mut_block {
    struct mut_block *next;
    size_t used, cap;
    /* bytes follow */
} mut_block;

/* ------------------------------------------------------------- the run */
typedef struct mut_ctx {
    mut_rng rng;
    int format;      /* TFS_FORMAT_GGUF or TFS_FORMAT_SAFETENSORS */
    int skeleton;    /* 1: the model is the built-in skeleton */
    size_t max_size; /* output cap (bytes) */
    mut_block *arena;
    int nomem; /* an allocation failed */
    /* the parse of the input (kept: models borrow from it); owned by the
     * parse cache entry `cached` when that is not NULL (model.c) */
    tfs_header *h;
    tfs_gg_model *gsrc; /* tfs_gg_model_from_view of h (borrowed from by gt, kv) */
    tfs_st_model *ssrc;
    struct mut_cache_entry *cached;
    /* GGUF model (arrays owned by the arena, capacity n + MUT_EXTRA or more) */
    tfs_gg_model gm;
    tfs_gg_wkv *kv;
    size_t n_kv, cap_kv;
    tfs_gg_wtensor *gt;
    size_t n_gt, cap_gt;
    /* safetensors model */
    tfs_st_model sm;
    tfs_st_wentry *se;
    size_t n_se, cap_se;
    tfs_st_wmeta *meta;
    size_t n_meta, cap_meta;
    /* the written file */
    tfs_wbuf w;
} mut_ctx;

/* A named mutation.  `model` runs before the write (may edit the model and
 * its knobs), `bytes` after it (may edit c->w through the field map, or cut
 * it).  Each returns 1 when applied, 0 when it does not apply (the run then
 * writes the model unchanged by it).  Either may be NULL. */
typedef int (*mut_fn)(mut_ctx *c);
typedef struct mut_def {
    const char *name;
    unsigned formats; /* MUT_GG | MUT_ST */
    mut_fn model;
    mut_fn bytes;
    const char *doc;
} mut_def;

/* Family tables (one file each), collected by table.c. */
extern const mut_def tfs__mut_offset[], tfs__mut_trunc[], tfs__mut_align[], tfs__mut_hdr[], tfs__mut_count[],
    tfs__mut_strlen[], tfs__mut_type[], tfs__mut_shape[], tfs__mut_dup[], tfs__mut_kv[], tfs__mut_json[],
    tfs__mut_bug[], tfs__mut_byte[], tfs__mut_calc[];
extern const size_t tfs__mut_offset_n, tfs__mut_trunc_n, tfs__mut_align_n, tfs__mut_hdr_n, tfs__mut_count_n,
    tfs__mut_strlen_n, tfs__mut_type_n, tfs__mut_shape_n, tfs__mut_dup_n, tfs__mut_kv_n, tfs__mut_json_n,
    tfs__mut_bug_n, tfs__mut_byte_n, tfs__mut_calc_n;
const mut_def *tfs__mut_def(int i);

/* ------------------------------------------------------------ timing */
/* Phase timing for bench/mutate_bench.c: when tfs__mut_prof is not NULL,
 * tfs_mutate adds the nanoseconds of each phase of every call (now() is the
 * bench's clock).  NULL (the default): no clock is read. */
enum { MUT_PH_LOAD, MUT_PH_MODEL, MUT_PH_WRITE, MUT_PH_BYTES, MUT_PH_COPY, MUT_PH_N };
typedef struct mut_prof {
    uint64_t (*now)(void); /* monotonic nanoseconds */
    uint64_t ns[MUT_PH_N]; /* load (parse + model), model phase, write, bytes phase, copy out */
    uint64_t calls;
} mut_prof;
extern mut_prof *tfs__mut_prof;

/* ---------------------------------------------------------- model.c */
void *tfs__mut_alloc(mut_ctx *c, size_t n);       /* zeroed arena bytes; NULL + c->nomem on failure */
char *tfs__mut_strdup(mut_ctx *c, const char *s); /* arena copy */
char *tfs__mut_printf(mut_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Load data[0, size) into c (parse + model, or a skeleton of format
 * `want` when it does not parse; want TFS_FORMAT_UNKNOWN: from the rng).
 * The parse comes from the calling thread's parse cache when an input of
 * the same bytes was loaded recently (MUT_CACHE_N inputs are kept, each as
 * a copy of its bytes, its tfs_header and its writer model; the bytes are
 * compared in full, so the result is the same as a fresh parse).
 * Returns 0, or -1 on allocation failure. */
int tfs__mut_load(mut_ctx *c, const uint8_t *data, size_t size, int want);
/* The same from a random-access byte source (only its header is read; the
 * records are copied out of it, tfs_gg_model_from_view).  -1 on allocation
 * failure, or on a read error (*io_errno set to the reader's errno). */
int tfs__mut_load_source(mut_ctx *c, const tfs_source *src, int want, int *io_errno);
/* Write the model to c->w (after freeing any earlier write). 0 or -1. */
int tfs__mut_write(mut_ctx *c);
/* Copy c->w, cut at max, into out; returns bytes. */
size_t tfs__mut_copy_out(const mut_ctx *c, uint8_t *out, size_t max);
void tfs__mut_free(mut_ctx *c);
/* Release the calling thread's parse cache (copies and parses); the next
 * load parses again.  For leak checkers and tests. */
void tfs__mut_cache_clear(void);

/* model helpers: make sure the model has at least n records (adds small
 * valid ones); return the count, or 0 on allocation failure. */
size_t tfs__mut_gg_need_tensors(mut_ctx *c, size_t n);
size_t tfs__mut_gg_need_kv(mut_ctx *c, size_t n);
size_t tfs__mut_st_need_entries(mut_ctx *c, size_t n);
size_t tfs__mut_st_need_meta(mut_ctx *c, size_t n);
/* append one record (arena-backed; NULL when the capacity cannot grow) */
tfs_gg_wkv *tfs__mut_gg_add_kv(mut_ctx *c);
tfs_gg_wtensor *tfs__mut_gg_add_tensor(mut_ctx *c);
tfs_st_wentry *tfs__mut_st_add_entry(mut_ctx *c);
tfs_st_wmeta *tfs__mut_st_add_meta(mut_ctx *c);
/* make sure the GGUF header is followed by padding (a trial write; adds a
 * 20-byte KV when the header ends aligned); 1, or 0 on failure */
int tfs__mut_gg_header_pad(mut_ctx *c);
/* the index of a KV with this key, or -1 */
int tfs__mut_gg_find_kv(const mut_ctx *c, const char *key);
/* index of a KV whose value is an array (adds one when none), -1 on failure */
int tfs__mut_gg_array_kv(mut_ctx *c);
/* index of a KV whose value is a string (adds one), -1 on failure */
int tfs__mut_gg_string_kv(mut_ctx *c);
/* the GGUF layout alignment the writer uses for the model */
uint64_t tfs__mut_gg_align(const mut_ctx *c);
/* data offsets the writer computes for the GGUF tensors, or for the
 * safetensors entries (offsets_set ones as set); arena array, NULL on failure */
uint64_t *tfs__mut_gg_offsets(mut_ctx *c);
/* byte size of a safetensors entry (0 on overflow) */
uint64_t tfs__mut_st_nbytes(const tfs_st_wentry *e);
/* fix every safetensors entry's offsets to the values the writer computes now
 * (offsets_set = 1), so later model edits keep them */
void tfs__mut_st_pin_offsets(mut_ctx *c);
/* an arena copy of a shape that may be edited (n_dims entries, >= 1 slot) */
uint64_t *tfs__mut_st_own_shape(mut_ctx *c, tfs_st_wentry *e, uint32_t n_dims);

/* ------------------------------------------------------ field helpers */
/* A random field of `kind` in the written map (record any), NULL if none. */
const tfs_field *tfs__mut_field(mut_ctx *c, uint32_t kind);
/* The n-th field of kind (0-based, any record), NULL if none. */
const tfs_field *tfs__mut_field_nth(const mut_ctx *c, uint32_t kind, size_t n);
size_t tfs__mut_field_count(const mut_ctx *c, uint32_t kind);
/* Write v little-endian into a materialised field of width 1..8; 0 on
 * success, -1 when the field is not materialised or wider than 8. */
int tfs__mut_set_uint(mut_ctx *c, const tfs_field *f, uint64_t v);
int tfs__mut_get_uint(const mut_ctx *c, const tfs_field *f, uint64_t *v);
/* Cut the written file to `size` (<= its size). 1 applied, 0 not. */
int tfs__mut_cut(mut_ctx *c, uint64_t size);
/* An "interesting" 64-bit value for a count / length / offset field. */
uint64_t tfs__mut_interesting(mut_rng *r, uint64_t cur);
/* An environment variable's value as a percentage: decimal digits only,
 * 0..100; anything else (NULL, "", "x", "101") gives dflt.  The front ends'
 * TFS_MUTATOR_MIX and TFS_MUTATOR_QUICK. */
unsigned tfs__mut_env_percent(const char *value, unsigned dflt);
/* The front ends' share of tfs_mutate_quick calls (percent) when
 * TFS_MUTATOR_QUICK is not set. */
#define TFS_MUTATOR_QUICK_DEFAULT 90u

/* ------------------------------------------------------------ trim.c */
/* Records of an input (0 when it does not parse: a skeleton is not trimmed). */
size_t tfs__mut_count_records(const uint8_t *data, size_t size);
/* The input rewritten without record `rec` (GGUF: KV pairs then tensor infos;
 * safetensors: entries then __metadata__ pairs) into out; bytes, 0 on failure. */
size_t tfs__mut_drop_record(const uint8_t *data, size_t size, size_t rec, uint8_t *out, size_t max_out);

#endif /* TFS_MUT_H */
