/*
 * lint.h: semantic lint of one model file and checks of model sets
 * (docs/lint.md).
 *
 * Lint looks past the container.  A file can pass every rule of rules.def
 * (its format verdict) and still break the loader that reads it: an MLX
 * quantized weight whose .scales do not fit its bits and group size, a GGUF
 * whose tokenizer arrays differ in length, a blk.N. tensor beyond
 * <arch>.block_count.  Lint rules (LTnnn) and set rules (SETnnn) come from
 * include/tfs/lint.def; each has a severity (error: a mainstream loader
 * refuses or misreads the file; warning: legal but unusual) and never
 * changes the format verdict of a file.
 *
 * A model set is the files of one model checked together:
 *   - a safetensors index (NAME.safetensors.index.json: "weight_map" maps
 *     each tensor name to its shard file, "metadata.total_size" the sum of
 *     the tensors' bytes) and the shards beside it;
 *   - a GGUF split: PREFIX-00001-of-0000N.gguf .. PREFIX-0000N-of-0000N.gguf,
 *     each with split.no (u16, 0-based), split.count (u16) and
 *     split.tensors.count (i32), as llama.cpp's loader and gguf-split use
 *     them;
 *   - a folder holding one or more of those.
 *
 * Nothing here prints, aborts or exits; no global state.  The functions
 * read only headers (tensor data is never read) and the small JSON files of
 * a model (index, config.json).
 */
#ifndef TFS_LINT_H
#define TFS_LINT_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/export.h"
#include "tfs/tfs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every rule of lint.def; value = its CODE column (3000 + n: LTnnn,
 * 4000 + n: SETnnn).  TFS_LINT_NONE (0) is no rule. */
typedef enum tfs_lint_rule {
    TFS_LINT_NONE = 0,
#define TFS_LINT(id, code, severity, scope, message) TFS_##id = code,
#include "tfs/lint.def"
#undef TFS_LINT
} tfs_lint_rule;

typedef enum tfs_lint_severity {
    TFS_LINT_WARNING = 1, /* legal, but unusual, costly or ambiguous */
    TFS_LINT_ERROR = 2,   /* a mainstream loader refuses or misreads it */
} tfs_lint_severity;

/* Static strings of a rule; never NULL ("" / "?" for an unknown value). */
TFS_API const char *tfs_lint_id(tfs_lint_rule rule);      /* "LT205", "SET002" */
TFS_API const char *tfs_lint_message(tfs_lint_rule rule); /* MESSAGE column */
TFS_API const char *tfs_lint_scope(tfs_lint_rule rule);   /* "GG", "ST", "MLX", "SET" */
/* SEVERITY column; 0 for an unknown value. */
TFS_API tfs_lint_severity tfs_lint_severity_of(tfs_lint_rule rule);
TFS_API const char *tfs_lint_severity_name(tfs_lint_severity s); /* "error", "warning", "?" */
/* An id such as "LT205" (case-sensitive); TFS_LINT_NONE if unknown. */
TFS_API tfs_lint_rule tfs_lint_from_id(const char *id);
/* Rows of lint.def and the i-th in table order (TFS_LINT_NONE past the end). */
TFS_API size_t tfs_lint_count(void);
TFS_API tfs_lint_rule tfs_lint_at(size_t i);

/* One finding. */
typedef struct tfs_lint_finding {
    tfs_lint_rule rule;
    tfs_lint_severity severity;
    int part;               /* the file concerned: index into tfs_lint_report.files
                        for a set (0 for one file); -1: the set as a whole */
    int64_t tensor;         /* index into that file's tensors, or -1 */
    int64_t kv;             /* index into that file's kv, or -1 */
    char *text;             /* the finding with its names and numbers (owned by the
                        report), e.g. "model.layers.0.mlp.up_proj.scales:
                        shape [64, 3], expected [64, 4] (...)" */
    char *tensor_name;      /* the name of the tensor `tensor` (owned by the
                               report, NUL added), or NULL when tensor is -1 */
    size_t tensor_name_len; /* its bytes (a safetensors name may hold a NUL) */
} tfs_lint_finding;

/* One file of a set (tfs_set_check). */
typedef struct tfs_lint_file {
    char *path;        /* path as opened (owned by the report) */
    tfs_status status; /* its parse: TFS_OK, TFS_INVALID (err.rule), TFS_EIO
                            (missing or unreadable: err.sys_errno), ... */
    tfs_error err;
    size_t n_tensors;
    uint64_t tensor_bytes; /* sum of the tensors' n_bytes */
} tfs_lint_file;

/* The findings of one lint or set check.  Initialise with
 * tfs_lint_report_init (or zero it), release with tfs_lint_report_free. */
typedef struct tfs_lint_report {
    tfs_lint_finding *findings; /* in the order found */
    size_t n_findings;
    size_t n_errors, n_warnings;
    /* set checks only (zero otherwise) */
    tfs_format format;    /* safetensors or gguf */
    int is_set;           /* 1 once tfs_set_check ran on a set */
    tfs_lint_file *files; /* the files of the set: safetensors shards in
                              index order of first appearance, GGUF parts
                              in split.no order */
    size_t n_files;
    size_t n_tensors;      /* tensors over all files */
    uint64_t tensor_bytes; /* their bytes */
    /* MLX quantized weights (any lint of MLX safetensors): the U32 elements
     * of the packed weights whose bits are known (given or inferred), and
     * the values they hold (elements * 32 / bits), so that a model's
     * parameters are n_elements summed - mlx_packed + mlx_values (a layer
     * of 16,384 4-bit weights is 2,048 U32 elements) */
    uint64_t mlx_packed, mlx_values;
    size_t cap_findings_, cap_files_; /* internal */
} tfs_lint_report;

TFS_API void tfs_lint_report_init(tfs_lint_report *r);
TFS_API void tfs_lint_report_free(tfs_lint_report *r); /* NULL allowed; r is re-initialised */

/* Inputs of a lint beyond the header. */
typedef struct tfs_lint_options {
    /* MLX: the text of a config.json (its "quantization" or
     * "quantization_config" object gives group_size, bits, mode and
     * per-module overrides), or NULL.  Without it, a __metadata__ entry
     * "quantization" holding the same JSON object, then keys
     * "quantization.group_size", "quantization.bits", "quantization.mode".
     * Borrowed for the call. */
    const char *config_json;
    size_t config_len; /* bytes */
    /* safetensors: the file's first head_len bytes; with 8 + N of them the
     * padding after the JSON is checked (LT302).  NULL: not checked. */
    const uint8_t *head;
    size_t head_len; /* bytes */
    /* GGUF: the file as a random-access byte source of known size (not
     * forward-only), from which the padding bytes are read to check that
     * they are zero (LT114): the padding before the data section and after
     * each tensor, nothing else (tensor data is never read).  NULL or a
     * forward-only source: LT114 is not checked.  Borrowed for the call. */
    const tfs_source *src;
} tfs_lint_options;

/* Bytes at the end of a file that no tensor owns beyond the alignment
 * padding (LT113), from the header alone (reads nothing):
 *   GGUF: from the end of the data section padded to general.alignment
 *         (with no tensors: the end of the tensor infos padded) to the end
 *         of the file; ggml and llama.cpp ignore these bytes;
 *   safetensors: 0 (trailing bytes make the file invalid: ST307).
 * *offset (may be NULL) receives the file offset where they start.
 * Returns 0 for NULL or incomplete h, an unknown file size (a stream parsed
 * with TFS_HEADER_ONLY), or an end that does not fit 64 bits. */
TFS_API uint64_t tfs_unowned_tail(const tfs_header *h, uint64_t *offset);

/* Lint one parsed file (a header from any parse function that returned
 * TFS_OK; with TFS_PARTIAL an incomplete header is refused: TFS_EARG).
 *   opt : may be NULL (no config, no header bytes).
 *   r   : findings are appended (part 0), counts updated.
 * Returns TFS_OK (findings or none), TFS_EARG (NULL h or r, incomplete
 * header), TFS_ENOMEM (findings so far are kept).  A config_json that is
 * not JSON, or whose quantization is not usable, is a finding (LT201),
 * not a status. */
TFS_API tfs_status tfs_lint_header(const tfs_header *h, const tfs_lint_options *opt, tfs_lint_report *r);

/* How a set check reaches files that are not on a POSIX file system (the
 * browser inspector: files dropped on a page, read through the host).
 * Paths are as the set check makes them: the entry's folder joined with a
 * shard or part name ("dir/model-00001-of-00002.safetensors", "./x.gguf"
 * for an entry without a folder). */
typedef struct tfs_set_io {
    /* Open the file at `path` as a random-access byte source of known size
     * (forward 0) into *src; src->ctx must stay valid until the set check
     * returns.  Returns 0, or an errno value (ENOENT: no such file, reported
     * as missing: SET002). */
    int (*open)(void *ctx, const char *path, tfs_source *src);
    /* Call each(arg, name) for every file of folder `dir` (base names, any
     * order), or NULL: a folder lists no file (tfs_set_entries_io finds
     * nothing, and SET004 does not search a series' unnamed files). */
    void (*list)(void *ctx, const char *dir, void (*each)(void *arg, const char *name), void *arg);
    void *ctx; /* passed to both */
} tfs_set_io;

/* tfs_set_check with the files reached through io (not NULL) instead of
 * open(2): the same rules, findings and report.  A missing file is one
 * whose open returns ENOENT.  config_path (NULL: "config.json" beside the
 * set) is opened through io as well.  Available without POSIX
 * (TFS_NO_POSIX).  Returns as tfs_set_check (TFS_EARG also for a NULL io). */
TFS_API tfs_status tfs_set_check_io(const char *path, unsigned flags, int lint, const char *config_path,
                                    const tfs_set_io *io, tfs_lint_report *r);

/* tfs_set_entries of folder `dir` with its files listed by io->list and the
 * indexes read through io->open.  Returns as tfs_set_entries (TFS_EARG
 * also for a NULL io or io->list; a folder that lists nothing: TFS_OK, no
 * entry). */
TFS_API tfs_status tfs_set_entries_io(const char *dir, const tfs_set_io *io, char ***out, size_t *n);

#ifndef TFS_NO_POSIX
/* tfs_lint_header with the options read from disk: for safetensors the
 * first 8 + N bytes of `path` and the config.json beside it (same folder),
 * or `config_path` when not NULL.
 * Returns as tfs_lint_header, plus TFS_EIO when `config_path` (given) or
 * `path` cannot be read (a config.json beside the file that cannot be read
 * is ignored). */
TFS_API tfs_status tfs_lint_path(const char *path, const tfs_header *h, const char *config_path, tfs_lint_report *r);

/* What a path names as a set entry. */
typedef enum tfs_set_kind {
    TFS_SET_NONE = 0,  /* no set: check it as one file */
    TFS_SET_INDEX = 1, /* a file whose name ends in ".safetensors.index.json" */
    TFS_SET_SPLIT = 2, /* a GGUF named *-00001-of-NNNNN.gguf with NNNNN > 1 */
    TFS_SET_DIR = 3,   /* a directory */
} tfs_set_kind;
/* Decide from the name (and, for a directory, stat); never opens a file. */
TFS_API tfs_set_kind tfs_set_kind_of(const char *path);

/* Check the set named by `path` (a safetensors index, a first GGUF split;
 * for a directory use tfs_set_entries first).  Every file of the set is
 * parsed with `flags` (TFS_STRICT, TFS_HEADER_ONLY) and listed in r->files;
 * the SET rules are checked across them; with `lint` non-zero the LT rules
 * too (MLX rules across all shards, so a .scales in another shard than its
 * weight is found; GGUF metadata rules on the first part).
 *   config_path : MLX config.json (NULL: the one beside the set, if any).
 * Returns TFS_OK when the check ran (findings in r: r->n_errors > 0 or an
 * invalid file means the set is broken), TFS_EARG (NULL argument, a path
 * that is not an index or a first split), TFS_EIO (the index itself or
 * config_path cannot be read), TFS_ENOMEM. */
TFS_API tfs_status tfs_set_check(const char *path, unsigned flags, int lint, const char *config_path,
                                 tfs_lint_report *r);

/* The set entries and lone model files of a directory (not recursive):
 * every *.safetensors.index.json, every GGUF first split, then every
 * .safetensors / .gguf file that no entry names as a shard or part, in byte
 * order of their names.  *out receives n malloc'ed paths (free each, then
 * the array with free).  Returns TFS_OK, TFS_EIO (the directory cannot be
 * read: errno in *sys_errno, may be NULL), TFS_ENOMEM, TFS_EARG. */
TFS_API tfs_status tfs_set_entries(const char *dir, char ***out, size_t *n, int *sys_errno);

/* The files a set entry names, as paths to open (for a walk that reports
 * each file once: `tfs check -r`), without opening any of them:
 *   a safetensors index: its shards, the weight_map values in their normal
 *     form (docs/lint.md) joined to the index's folder, each once; names
 *     outside the folder or naming no file are left out (SET001);
 *   a first GGUF split: every part, PREFIX-0000k-of-0000N.gguf.
 * Reads only the index (up to 256 MiB: a larger or unreadable one names no
 * file).  *out receives n malloc'ed paths (free each, then the array).
 * Returns TFS_OK, TFS_EARG (NULL argument, or path names no set entry by
 * its name: tfs_set_kind_of), TFS_ENOMEM. */
TFS_API tfs_status tfs_set_members(const char *path, char ***out, size_t *n);
#endif

#ifdef __cplusplus
}
#endif
#endif /* TFS_LINT_H */
