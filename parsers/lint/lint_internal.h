/*
 * lint_internal.h: internals shared by the lint and model-set files
 * (parsers/lint/; public API in include/tfs/lint.h).
 *   report.c   the rule table queries and the one way to add a finding
 *   json.c     a small JSON reader for index.json and config.json
 *   names.c    a sorted index of tensor names over several headers
 *   shard_name.c  the normal form of an index's shard names
 *   lint_gguf.c, lint_mlx.c, lint_st.c   the LT rules per scope
 *   lint_bytes.c  GGUF bytes no structure owns (LT113, LT114)
 *   lint.c     tfs_lint_header, tfs_lint_path
 *   set.c, set_st.c, set_gg.c   model sets
 *   set_io.c   their file access: POSIX, or a caller's tfs_set_io
 *   set_series.c  files of a safetensors series the index does not name
 */
#ifndef TFS_LINT_INTERNAL_H
#define TFS_LINT_INTERNAL_H

#include "tfs/lint.h"
#include "tfs/tfs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- report.c ---- */
/* Append a finding (text formatted like printf; cut at 1 KiB).  Returns
 * TFS_OK or TFS_ENOMEM (the finding is lost, the report stays valid). */
tfs_status tfs__lint_add(tfs_lint_report *r, tfs_lint_rule rule, int part, int64_t tensor, int64_t kv, const char *fmt,
                         ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Give the findings from index `from` on that name a tensor its name
 * (tensor_name), from hs[part] (n headers; NULL ones skipped).  TFS_OK or
 * TFS_ENOMEM. */
tfs_status tfs__lint_name_tensors(tfs_lint_report *r, size_t from, const tfs_header *const *hs, size_t n);
/* Append a file to r->files (path copied); its index, or -1 (no memory). */
int tfs__lint_add_file(tfs_lint_report *r, const char *path);
/* "[64, 4]" of n sizes into buf (cut to cap bytes, always terminated). */
void tfs__lint_shape(char *buf, size_t cap, const uint64_t *shape, uint32_t n);

/* ---- json.c ---- */
typedef enum lj_type { LJ_NULL, LJ_FALSE, LJ_TRUE, LJ_NUM, LJ_STR, LJ_ARR, LJ_OBJ } lj_type;
typedef struct lj_node lj_node;
struct lj_node {
    lj_type type;
    char *s;       /* LJ_STR: decoded bytes (NUL added), LJ_NUM: the number text */
    size_t len;    /* bytes of s */
    size_t n;      /* LJ_ARR / LJ_OBJ: members */
    lj_node *kids; /* n values */
    lj_node *keys; /* LJ_OBJ: n keys (LJ_STR nodes) */
};
/* Parse `len` bytes of JSON (one value, whitespace around it; nesting up
 * to 64; strings decoded, invalid UTF-8 kept as bytes).  Returns a tree to
 * free with lj_free, or NULL with a static reason in *why (may be NULL):
 * not JSON, too deep, out of memory (*oom set when oom is not NULL). */
lj_node *tfs__lj_parse(const char *text, size_t len, const char **why, int *oom);
void tfs__lj_free(lj_node *n);
/* The value of `key` in an object (the last one, as Python's json), or NULL. */
const lj_node *tfs__lj_get(const lj_node *obj, const char *key);
/* An integer number node without sign, fraction or exponent that fits 64
 * bits: true and *out; false otherwise. */
bool tfs__lj_u64(const lj_node *n, uint64_t *out);

/* ---- names.c ---- */
/* Every tensor of n headers, sorted by name (then part, then index), for
 * lookups in O(log n) whatever the count. */
typedef struct tn_entry {
    const char *name;
    size_t len;
    uint32_t part;  /* index of the header */
    uint32_t index; /* tensor index in it */
} tn_entry;
typedef struct tn_index {
    tn_entry *v;
    size_t n;
} tn_index;
/* Build over hs[0..n) (NULL headers are skipped).  false: out of memory. */
bool tfs__tn_build(tn_index *x, const tfs_header *const *hs, size_t n);
void tfs__tn_free(tn_index *x);
/* First entry with this name (len bytes), or NULL; *count receives how many
 * entries have it (may be NULL). */
const tn_entry *tfs__tn_find(const tn_index *x, const char *name, size_t len, size_t *count);

/* ---- shard_name.c ---- */
typedef enum shard_name_kind {
    SHARD_OK,       /* *out: the normal form */
    SHARD_NOT_FILE, /* empty, a NUL byte, or only "." components (the folder) */
    SHARD_OUTSIDE,  /* absolute, or a ".." component */
    SHARD_NOMEM,
} shard_name_kind;
/* The normal form of a shard name (`len` bytes, relative to the index's
 * folder) into *out (malloc'ed; NULL unless SHARD_OK): "." components and
 * repeated "/" removed, as open() resolves them (so "./s1.safetensors" and
 * "s1.safetensors" compare equal); ".." never resolved; a trailing "/" kept.
 * Every comparison of shard names goes through it (docs/lint.md, SET001). */
shard_name_kind tfs__lint_shard_name(const char *s, size_t len, char **out);

/* ---- the rules per scope ---- */
/* GGUF: metadata rules on hs[0]; tensor rules over hs[0..n) (a split's parts). */
tfs_status tfs__lint_gguf(const tfs_header *const *hs, size_t n, tfs_lint_report *r);
/* MLX quantization over hs[0..n) (a set's shards); config as in
 * tfs_lint_options (NULL: none).  Runs only for an MLX file: __metadata__
 * format "mlx", quantization given, or a tensor named *.scales. */
tfs_status tfs__lint_mlx(const tfs_header *const *hs, size_t n, const char *config, size_t config_len,
                         tfs_lint_report *r);
/* GGUF bytes no structure owns (lint_bytes.c): LT113 from the header,
 * LT114 reading the padding from src (NULL or forward-only: not read).
 * Nothing for safetensors. */
tfs_status tfs__lint_bytes(const tfs_header *h, int part, const tfs_source *src, tfs_lint_report *r);
/* safetensors conventions of one file (part index for the findings). */
tfs_status tfs__lint_st(const tfs_header *h, int part, const uint8_t *head, size_t head_len, tfs_lint_report *r);

#ifndef TFS_NO_POSIX
/* Read a whole small file (at most max bytes) into a malloc'ed buffer with a
 * NUL after it.  TFS_OK, TFS_EIO (errno in *e), TFS_ENOMEM, TFS_EARG (too
 * big: *e = EFBIG). */
tfs_status tfs__lint_slurp(const char *path, size_t max, char **out, size_t *len, int *e);
/* The first 8 + N bytes of a safetensors file (N from its size field, at
 * most 100,000,000).  TFS_OK or TFS_EIO / TFS_ENOMEM. */
tfs_status tfs__lint_st_head(const char *path, uint8_t **out, size_t *len);
/* tfs__lint_bytes of the file at path, opened again as a byte source;
 * a file that cannot be opened: LT113 only. */
tfs_status tfs__lint_bytes_path(const char *path, const tfs_header *h, int part, tfs_lint_report *r);
#endif
/* The largest safetensors index file read, in bytes (docs/lint.md): tfs_set_check
 * cannot check a larger one (TFS_EIO), and tfs_set_entries takes it as naming
 * no shard.  Real indexes are a few MiB. */
#define TFS_LINT_INDEX_MAX (256u * 1024u * 1024u)
/* The largest config.json read, in bytes (docs/lint.md). */
#define TFS_LINT_CONFIG_MAX (16u * 1024u * 1024u)
/* The folder part of a path ("." when none), malloc'ed; NULL on no memory. */
char *tfs__lint_dirname(const char *path);
/* dir + "/" + name, malloc'ed; NULL on no memory. */
char *tfs__lint_join(const char *dir, const char *name);

/* ---- set_io.c: how the set checks reach their files: through io (a
 * tfs_set_io), or with io NULL through POSIX (the tfs__lint_* helpers
 * above, tfs_parse_file, opendir; without POSIX a NULL io reads nothing:
 * TFS_EIO with ENOSYS) ---- */
/* tfs__lint_slurp */
tfs_status tfs__set_slurp(const tfs_set_io *io, const char *path, size_t max, char **out, size_t *len, int *e);
/* tfs__lint_st_head */
tfs_status tfs__set_st_head(const tfs_set_io *io, const char *path, uint8_t **out, size_t *len);
/* tfs__lint_bytes_path */
tfs_status tfs__set_bytes(const tfs_set_io *io, const char *path, const tfs_header *h, int part, tfs_lint_report *r);
/* tfs_parse_file (err may be NULL; a file that cannot be opened: TFS_EIO,
 * its errno in err->sys_errno).  The header may read the file again until
 * it is freed: with io, before the set check returns. */
tfs_status tfs__set_parse(const tfs_set_io *io, const char *path, tfs_format format, unsigned flags, tfs_header **out,
                          tfs_error *err);
/* each(arg, name) for every entry of folder dir not starting with '.';
 * 0, or an errno value (the folder cannot be read). */
int tfs__set_list(const tfs_set_io *io, const char *dir, void (*each)(void *arg, const char *name), void *arg);

/* Set checks (set_st.c, set_gg.c): r->files, findings; io as above. */
tfs_status tfs__set_st(const char *index_path, unsigned flags, int lint, const char *config_path, const tfs_set_io *io,
                       tfs_lint_report *r);
tfs_status tfs__set_gg(const char *first_path, unsigned flags, int lint, const tfs_set_io *io, tfs_lint_report *r);
/* The files of a safetensors set's series (PREFIX-NNNNN-of-MMMMM.safetensors
 * beside the index) that the index does not name (set_series.c), read once
 * on the first lookup; at most 64 of them. */
typedef struct set_series {
    char **paths;
    tfs_header **hs;
    size_t n;
    bool loaded;
    bool oom;                 /* internal: out of memory while loading */
    const tfs_set_io *io;     /* internal: how the files are read */
    const tfs_lint_report *r; /* internal: the set's files */
    const char *dir;          /* internal: the index's folder */
} set_series;
/* The path of the first such file that holds a tensor named `name` (len
 * bytes) into *where (owned by s), or NULL.  TFS_OK or TFS_ENOMEM. */
tfs_status tfs__series_find(set_series *s, const tfs_lint_report *r, const char *dir, const tfs_set_io *io,
                            const char *name, size_t len, const char **where);
void tfs__series_free(set_series *s);
/* A GGUF split name: PREFIX-NNNNN-of-MMMMM.gguf; the part number (1-based),
 * the count and the prefix length.  false when the name is not one. */
bool tfs__split_name(const char *path, unsigned *no, unsigned *count, size_t *prefix_len);

#endif
