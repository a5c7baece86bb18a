/*
 * cli.h: shared declarations of the `tfs` command line (tools/tfs/).
 *
 * One file per job:
 *   main.c       subcommand dispatch, help, --help, --version
 *   args.c       option parsing for `tfs check`
 *   check.c      `tfs check`: run the parser on each file, exit status
 *   input.c      one FILE or - to a parse (byte source, first bytes)
 *   sniff.c      model extensions; "not a model file" and what it looks like
 *   walk.c       `tfs check -r`: the model files under a directory
 *   dump.c       `tfs dump`: a file's content through the accessors
 *   dump_json.c  the expected-content JSON (`tfs dump --json`, conform, web/)
 *   verdict.c    a parse's outcome as a check_result (check, web/)
 *   histogram.c  per-type tensor counts and the parameter count
 *   kv_show.c    short text form of a GGUF / __metadata__ value
 *   out_human.c  human report of one file
 *   out_json.c   one JSON object per file
 *   json.c       JSON string escaping
 *   rules_cmd.c  `tfs rules`: the rules table (text, TSV, JSON)
 *   conform_exec.c `tfs conform`: runs tfs-conform (conform_main.c: the
 *                 conformance runner, conformance/runner)
 *   lint_out.c   `tfs check --lint` findings (human and JSON)
 *   set_check.c  `tfs check` of a model set (index, GGUF split, folder)
 *   lint_conform.c `tfs-conform --lint`: the lint cases of corpus/lint
 */
#ifndef TFS_CLI_H
#define TFS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "tfs/tfs.h"

#define TFS_CLI_VERSION_STR TFS_VERSION /* set by tools/CMakeLists.txt */

/* Options of `tfs check`. */
typedef struct check_opts {
    int json;           /* --json: one JSON object per line */
    int recursive;      /* -r: walk directory arguments */
    int quiet;          /* -q: print only files that are not valid (and the summary) */
    unsigned flags;     /* TFS_STRICT | TFS_HEADER_ONLY */
    tfs_format format;  /* --format, or TFS_FORMAT_UNKNOWN to detect */
    int first_file;     /* index in argv of the first FILE */
    int lint;           /* --lint: the LT rules (include/tfs/lint.h) */
    const char *config; /* --config PATH: MLX config.json, or NULL */
    int no_special;     /* refuse a FIFO or device unread (a file found by a walk), else read it as a stream */
} check_opts;

/* Parse argv[first..argc) of `tfs check`.  Options and files may be mixed;
 * "--" ends options.  Files are moved to the end of argv (order kept), and
 * opts->first_file is set.  Returns 0 on success, 1 if --help was printed,
 * -1 on a usage error (message already printed to stderr). */
int check_parse_args(int argc, char **argv, int first, check_opts *opts);
void check_usage(FILE *f);
/* The usage lines of `tfs check` and `tfs dump` (every option), for their
 * --help and their usage errors. */
extern const char check_usage_line[];
extern const char dump_usage_line[];

/* Outcome of checking one file. */
typedef enum check_verdict {
    V_VALID = 0,        /* parsed, no rule violated */
    V_PARSER_ERROR = 1, /* a rule was violated */
    V_IO_ERROR = 2,     /* open/read failed */
    V_INTERNAL = 3,     /* out of memory, or the library refused the call */
    V_NOT_MODEL = 4,    /* neither GGUF nor plausibly safetensors (sniff.c) */
} check_verdict;

typedef struct check_result {
    const char *file;
    tfs_format format; /* the parser that ran (or would have) */
    unsigned flags;    /* profile used */
    check_verdict verdict;
    tfs_status status;                  /* library status */
    tfs_error err;                      /* library error record (rule, offset, index) */
    int sys_errno;                      /* errno of a failed open/read, else 0 */
    const tfs_header *h;                /* on V_VALID, the parsed header; else NULL */
    const char *not_model;              /* V_NOT_MODEL: what the file looks like (static) */
    const char *hint;                   /* V_PARSER_ERROR: what the content looks like, or NULL (parse_one) */
    int header_only_ignored;            /* --header-only given, but the file is safetensors */
    char detail[200];                   /* V_PARSER_ERROR: the numbers behind it (detail.c), or "" */
    const struct tfs_lint_report *lint; /* --lint on a valid file: its findings, else NULL */
    const char *lint_error;             /* --lint could not run (config unreadable): why, else NULL */
    const char *lint_unchecked;         /* --lint ran without a rule that needs the bytes again (a stream:
                                           LT114): its id, else NULL */
} check_result;

/* detail.c: the numbers behind a violation of GG304 (bytes needed against
 * the file size), ST307 (trailing bytes) and GG130 (count or byte size),
 * into buf (n bytes); "" for other rules or no header.  h: the partial
 * header (TFS_PARTIAL) of the failed parse.  src: the same file as a
 * random-access byte source of known size, from which GG130 re-reads the
 * array's count and element type (8 + 4 bytes); NULL or a forward-only
 * source (a stream): no GG130 detail.  Reads nothing else. */
void violation_detail(const tfs_source *src, const tfs_header *h, const tfs_error *e, char *buf, size_t n);

const char *verdict_name(check_verdict v); /* "valid", "parser_error", ... */
/* Text for check_result.sys_errno: strerror, except EINVAL, which the
 * library reports for a path that is not a regular file (tfs.h), and
 * EISDIR, which adds "(use -r to walk a folder)" (`tfs check`). */
const char *io_error_text(int sys_errno);
const char *profile_name(unsigned flags); /* "default", "strict", ... */
/* What the error index counts for this rule: "tensor", "kv", ... */
const char *index_kind(tfs_rule rule);

/* Exit status after writing to stdout: rc, or 2 with a message on stderr
 * ("tfs CMD: cannot write output") when stdout could not be written (a full
 * disk, a closed pipe), so a lost answer is never taken for success.
 * cmd may be NULL (`tfs` itself). */
int stdout_done(const char *cmd, int rc);

int cmd_check(int argc, char **argv, int first);
int cmd_dump(int argc, char **argv, int first);
/* ---- input.c ---- */
/* Parse one FILE ("-" = standard input) as `tfs check` does, with `flags`
 * instead of o->flags; *h receives the header (free it).  Without
 * o->format, a file that is not a model file (sniff.c) is not parsed:
 * TFS_INVALID with err->rule = TFS_RULE_NONE, *h = NULL and *not_model =
 * what it looks like (a static string); otherwise *not_model = NULL.
 * hint (may be NULL): on a rule violation of a file parsed because of its
 * name or --format, what its content looks like when that is a known kind
 * (error_hint: "a Git LFS pointer ...", "a PNG image"); else NULL. */
tfs_status parse_one(const char *path, const check_opts *o, unsigned flags, tfs_header **h, tfs_error *err,
                     const char **not_model, const char **hint);
/* Did the last parse_one read its file as a stream (forward only: a pipe,
 * a FIFO, a terminal or another character device, a /proc file)?  1 or 0. */
int input_streamed(void);

/* ---- sniff.c ---- */
#define SNIFF_PREFIX 4096u /* first bytes of a file that sniff_decide looks at */
/* The format a file name promises: .gguf / .safetensors in any case, also
 * before a trailing .part / .partial; TFS_FORMAT_UNKNOWN otherwise or for
 * NULL. */
tfs_format model_ext(const char *path);
/* The format to parse `path` as, from its first n bytes at p (size: the
 * file size in bytes when size_known): the GGUF magic, else the extension,
 * else plausibly safetensors (8-byte N, then '{', 8 + N within the file);
 * TFS_FORMAT_UNKNOWN: not a model file. */
tfs_format sniff_format(const uint8_t *p, size_t n, uint64_t size, int size_known, const char *path);
/* What a file that is not a model file looks like, from its first bytes:
 * "a zip archive ...", "an HTML page ...", "text", ... (static strings). */
const char *looks_like(const uint8_t *p, size_t n, uint64_t size, int size_known);
/* looks_like for a file that was parsed anyway (a model name, --format):
 * NULL when the content is a GGUF magic or plausibly safetensors, of no
 * known kind, or a damaged GGUF magic (the parser's rule says it all);
 * else what it looks like (static). */
const char *error_hint(const uint8_t *p, size_t n, uint64_t size, int size_known);

/* The format to hand to the library (parse_one): `forced` (--format), else
 * sniff_format's answer.  TFS_FORMAT_UNKNOWN: not a model file, and
 * *not_model = what it looks like (looks_like).  Otherwise *hint =
 * error_hint (what the content looks like, for an error verdict) and
 * *not_model is left as it was.  Strings are static. */
tfs_format sniff_decide(tfs_format forced, const uint8_t *p, size_t n, uint64_t size, int size_known, const char *path,
                        const char **not_model, const char **hint);

/* ---- verdict.c ---- */
/* Complete a check_result whose caller set file, flags (the profile asked
 * for), status, err, not_model and hint from a parse (parse_one): sets
 * format (the parser that ran: the header's, the rule's, or unknown), drops
 * TFS_HEADER_ONLY from flags for safetensors (header_only_ignored = 1),
 * verdict, sys_errno, and h (the header, kept only on TFS_OK; not owned). */
void check_verdict_set(check_result *r, const tfs_header *h);

/* ---- walk.c ---- */
/* One file or model set found by a walk, or a directory that could not be read. */
typedef struct walk_item {
    char *path; /* owned */
    int err;    /* errno of a directory that could not be read, else 0 */
    int walked; /* found by walk_dir (1), or named by the user (0) */
    int is_dir; /* a directory that could not be read (err != 0) */
    int is_set; /* a set entry (an index, a first GGUF split) found by walk_dir */
} walk_item;
typedef struct walk_list {
    walk_item *v;
    size_t n, cap;
} walk_list;
/* Append `path` itself (err 0, or the given errno). Returns 0, or ENOMEM. */
int walk_add(walk_list *l, const char *path, int err);
/* Append what `tfs check` checks under the directory `dir`, depth first,
 * names in byte order; per folder first its model sets (tfs_set_entries:
 * every *.safetensors.index.json and GGUF first split, is_set = 1), then:
 *   recursive: every other regular file whatever its name (the caller
 *     sniffs the content) and FIFOs / devices with a model name
 *     (model_ext), but not the files a set of the folder names by a model
 *     name (they are reported under the set); symbolic links to files are
 *     followed, to directories not (no loops); then its subfolders;
 *   not recursive: its model files (by name) that no set holds; a folder
 *     with neither sets nor model files is entered one level further (a
 *     folder of model folders, a Hugging Face cache) and so on, down to its
 *     first folders that hold some; a walk that finds nothing adds `dir`
 *     itself with EISDIR.
 * Then every file is checked once (walk_dedupe).  A directory that cannot
 * be read is appended with is_dir = 1 and its errno.  Returns 0, or ENOMEM. */
int walk_dir(walk_list *l, const char *dir, int recursive);
/* Drop what would be checked twice, by (st_dev, st_ino) after symbolic
 * links: a file that a set of the list holds (tfs_set_members: a Hugging
 * Face blob whose snapshot link a set names), a file met again (a link,
 * a hard link: the one with a model name kept, else the first), a set
 * entry met again.  Returns 0, or ENOMEM. */
int walk_dedupe(walk_list *l);
void walk_free(walk_list *l);
int cmd_rules(int argc, char **argv, int first);
int cmd_mint(int argc, char **argv, int first);   /* mint_cmd.c: execs generators/mint.py */
int cmd_mutate(int argc, char **argv, int first); /* mutate_cmd.c: `tfs mutate` */
/* `tfs conform`: execs tfs-conform beside tfs or on PATH (conform_exec.c);
 * returns only on failure (2, message printed). */
int cmd_conform(int argc, char **argv, int first);
/* dump_json.c: the expected-content JSON of a parse (what `tfs dump --json
 * --content-only` prints), one line; not_model: NULL, or what a file that is
 * no model looks like (sniff.c); *left_out += the values (array elements)
 * left out because the source cannot give them again (a stream keeps the
 * first TFS_ARRAY_KEEP bytes of each array).  Elements are read in blocks
 * (tfs_kv_cursor).  Returns 0, or -1 when a value could not be read. */
int print_content_json(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                       uint64_t *left_out);
/* print_content_json with the hint (the web inspector). */
int print_content_json_hint(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                            const char *hint, uint64_t *left_out);
/* `tfs dump --json`: the expected-content form plus "file" (file), the
 * header and data section ("header_size", "data_offset", "data_size",
 * "file_size"), per tensor "n_elements", "n_bytes", "file_offset", and
 * "left_out" (values not shown; then "complete" is false, and each KV cut
 * has "count" and "left_out"). */
int print_dump_json(FILE *out, const char *file, const tfs_header *h, tfs_status st, const tfs_error *e,
                    const char *not_model, const char *hint, uint64_t *left_out);
/* The browser inspector's form of a parse (web/wasm/tfs_web.c): as
 * print_content_json_hint, each KV with "text", what `tfs dump` shows for
 * it (kv_print), and an array with "count", "offset" and "bytes" (its
 * value's file offset and size) and "text" instead of its elements, so that a 262,144-token vocabulary is a few hundred bytes of
 * JSON.  Returns 0, or -1 when a value could not be read. */
int print_view_json(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                    const char *hint);
/* Elements start .. start + n - 1 of the k-th KV of h (an array; a scalar
 * is element 0), each as `tfs dump` shows it (kv_put_elem), one line:
 *   {"kv":k,"start":start,"count":N,"items":["text", ...]}
 * (fewer items at the end of the array).  Returns 0, or -1 when k is out of
 * range or a value could not be read (the line is then cut short). */
int print_elems_json(FILE *out, const tfs_header *h, size_t k, uint64_t start, uint64_t n);
/* Can the KV's value be read (a stream keeps scalars and short strings
 * only)?  1 or 0. */
int kv_available(const tfs_header *h, const tfs_kv *kv);

/* ---- dump_select.c, dump_table.c, dump_tree.c: what `tfs dump` shows ---- */
enum { DUMP_SORT_FILE, DUMP_SORT_OFFSET, DUMP_SORT_SIZE, DUMP_SORT_NAME };
typedef struct dump_view {
    const char *keys_glob;    /* --keys: KV keys / __metadata__ keys shown (fnmatch), or NULL: all */
    const char *tensors_glob; /* --tensors: tensor names shown, or NULL: all */
    int no_tensors;           /* --no-tensors: none */
    int tree;                 /* --tree: grouped by layer (dump_tree) */
    int sort;                 /* --sort: DUMP_SORT_* */
} dump_view;
/* "file", "offset", "size" or "name" into *out (DUMP_SORT_*); -1 if none. */
int dump_sort_parse(const char *s, int *out);
/* Does the len bytes at s match the fnmatch(3) pattern glob (NULL: yes)?  1 or 0. */
int dump_glob_match(const char *glob, const char *s, size_t len);
/* Indices of the tensors v shows, in its order (size: largest first; ties
 * in file order); *n the count.  malloc'd (free it); NULL when out of memory. */
size_t *dump_tensor_order(const tfs_header *h, const dump_view *v, size_t *n);
/* "totals" of the n tensors idx: count, parameters and bytes, then per type. */
void dump_totals(FILE *out, const tfs_header *h, const size_t *idx, size_t n);
/* The n tensors idx as aligned numbered columns; the violation e under
 * tensor `mark` (-1: none). */
void dump_table(FILE *out, const tfs_header *h, const size_t *idx, size_t n, int64_t mark, const tfs_error *e);
/* The n tensors idx grouped by layer (blk.N., model.layers.N., ...): per
 * group its layers and totals, per suffix the layers that have it.  0, or -1
 * when out of memory. */
int dump_tree(FILE *out, const tfs_header *h, const size_t *idx, size_t n);
/* v with digits grouped by thousands ("1,234,567") in buf. */
const char *group3(uint64_t v, char *buf, size_t cap);
/* dump_set.c: `tfs dump` of a set entry (an index, a first GGUF split):
 * its files (verdict, tensors, parameters, bytes) and totals per type,
 * human or one JSON object.  Returns 0 (every file valid), 1 (a file
 * missing or invalid), 2 (out of memory), -1 (path is no set entry). */
int dump_set(FILE *out, const char *path, const check_opts *o, int json);
/* "GG111 (DUPLICATE_KEY) at byte 74, kv 2: message" (dump.c). */
void dump_put_violation(FILE *out, const tfs_error *e);

/* ---- histogram.c ---- */
#define HIST_MAX 64u /* > TFS_GG_TYPE_COUNT and TFS_ST_DTYPE_COUNT */
typedef struct type_hist {
    uint64_t count[HIST_MAX + 1]; /* tensors per type id; [HIST_MAX] = unknown id */
    uint64_t bytes[HIST_MAX + 1]; /* data bytes per type id */
    uint64_t params;              /* sum of n_elements (saturates at UINT64_MAX) */
    int params_saturated;         /* 1 if the sum overflowed 64 bits */
} type_hist;

void hist_build(const tfs_header *h, type_hist *out);
/* Bytes from the start of the data section to the end of the tensor that
 * ends last (GGUF: without the padding after it; h->data_size counts it). */
uint64_t data_extent(const tfs_header *h);
/* Name of a type id for the header's format ("F16", "q4_K"), "?" if unknown. */
const char *hist_type_name(tfs_format f, unsigned type);

/* ---- num_text.c: the one float formatter of `tfs dump`, its JSON and the
 * browser inspector ---- */
/* v as `tfs dump` prints a GGUF f32 (is_f32 non-zero: "%.9g") or f64
 * ("%.17g"): the fewest of those digits that read back to the same value
 * ("0.100000001", "1.40129846e-45", "-0"), and "nan", "-nan", "inf",
 * "-inf". */
void put_float_text(FILE *out, double v, int is_f32);

/* ---- kv_show.c ---- */
#define DUMP_STR_SHORT 60  /* bytes of a string `tfs dump` shows without --full */
#define DUMP_ELEMS_SHORT 8 /* array elements it shows without --full */
/* Print a metadata value for people: strings quoted and escaped
 * (put_escaped), cut after `max_str` bytes at a character boundary and then
 * marked `... (N bytes)` (SIZE_MAX: whole); numbers in decimal (floats with
 * the digits that round-trip); arrays as "[u32 x 12]" followed by their first
 * `max_elems` elements (0: none; UINT64_MAX: all). */
void kv_print(FILE *out, const tfs_header *h, const tfs_kv *kv, size_t max_str, uint64_t max_elems);
/* Element i of kv as kv_print shows it, from the value v and string bytes s
 * that tfs_kv_next gave (a string longer than s is read whole). */
void kv_put_elem(FILE *out, const tfs_header *h, const tfs_kv *kv, uint64_t i, const tfs_value *v, const tfs_str *s,
                 size_t max_str);
/* Length of the longest prefix of s[0, len) of at most `max` bytes that does
 * not end inside a UTF-8 character (bytes). */
size_t utf8_cut(const char *s, size_t len, size_t max);
/* put_escaped with quote = 1 also escapes '"' (a quoted value). */
void put_escaped(FILE *out, const char *s, size_t len, int quote);
/* Write `len` bytes of untrusted text (file names, keys, values) for a
 * terminal: backslash as \\, C0 controls, DEL and bytes that are not part of
 * valid UTF-8 (a raw 0x9B is CSI on an 8-bit terminal) as \xNN, C1 controls
 * (U+0080..U+009F, UTF-8 C2 80..9F) as \u00NN, so a name cannot move the
 * cursor, recolour or forge lines, and two different names never print
 * alike; valid UTF-8 otherwise as is. */
void fput_safe(FILE *out, const char *s, size_t len);
/* Is the KV's key equal to the NUL-terminated string s? */
int kv_key_is(const tfs_kv *kv, const char *s);

/* ---- lint_out.c ---- */
/* The findings of a lint or set report: human lines (file names of a set
 * shown for findings about one of its files) or a JSON array. */
void lint_print_human(FILE *out, const struct tfs_lint_report *r);
void lint_print_json(FILE *out, const struct tfs_lint_report *r);
/* The parameters of a valid file: `params` (its tensors' elements summed),
 * except in MLX quantized safetensors, where a packed U32 weight counts the
 * values it holds (elements * 32 / bits; bits from the config.json beside
 * the file or __metadata__, else inferred: a lint of the file, which reads
 * its header again).  *mlx = 1 when so counted. */
uint64_t model_params(const char *path, const tfs_header *h, uint64_t params, int *mlx);

/* ---- lint_conform.c ---- */
/* `tfs conform --lint`: corpus/lint/LINT.tsv in process or through an
 * adapter; exit 0 all pass, 1 a case failed, 2 usage or fixture integrity. */
int lint_conform(int argc, char **argv, int first);

/* ---- set_check.c ---- */
/* Check the set `path` names (tfs_set_kind_of: an index or a first split)
 * and print it (human or JSON; with o->quiet only a set with a problem, and
 * of its files only those that are not valid).  Returns the verdict: V_VALID
 * (no SET error, every file valid), V_PARSER_ERROR, V_IO_ERROR (the index
 * or --config cannot be read), V_INTERNAL.  On V_VALID and V_PARSER_ERROR,
 * *lint_errors and *lint_warnings are the set's error and warning findings
 * (else left as they were). */
check_verdict set_check_print(const char *path, const check_opts *o, size_t *lint_errors, size_t *lint_warnings);
/* Print the report of a set check to out as set_check_print does (human or
 * JSON: o->json, o->quiet, o->flags, o->config) from its status st and
 * report r (tfs_set_check, or tfs_set_check_io in the browser inspector);
 * sys_errno: the errno behind a TFS_EIO, or 0.  Returns the verdict as
 * set_check_print. */
check_verdict set_check_report(FILE *out, const char *path, tfs_status st, const struct tfs_lint_report *r,
                               const check_opts *o, int sys_errno);

/* ---- out_human.c / out_json.c ---- */
void print_human(FILE *out, const check_result *r);
void print_json(FILE *out, const check_result *r);

/* ---- json.c ---- */
/* Write `len` bytes as a JSON string (with quotes): ", \ and control
 * characters escaped, invalid UTF-8 bytes replaced by U+FFFD. */
void json_str(FILE *out, const char *s, size_t len);
void json_cstr(FILE *out, const char *s); /* NUL-terminated; NULL -> null */

#endif /* TFS_CLI_H */
