/*
 * cli.h: shared declarations of the `tfs` command line (tools/tfs/).
 *
 * One file per job:
 *   main.c       subcommand dispatch, --help, --version
 *   args.c       option parsing for `tfs check`
 *   check.c      `tfs check`: run the parser on each file, exit status
 *   dump.c       `tfs dump`: a file's content through the accessors
 *   histogram.c  per-type tensor counts and the parameter count
 *   kv_show.c    short text form of a GGUF / __metadata__ value
 *   out_human.c  human report of one file
 *   out_json.c   one JSON object per file
 *   json.c       JSON string escaping
 *   rules_cmd.c  `tfs rules`: the rules table (text, TSV, JSON)
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
    unsigned flags;     /* TFS_STRICT | TFS_HEADER_ONLY */
    tfs_format format;  /* --format, or TFS_FORMAT_UNKNOWN to detect */
    int first_file;     /* index in argv of the first FILE */
} check_opts;

/* Parse argv[first..argc) of `tfs check`.  Options and files may be mixed;
 * "--" ends options.  Files are moved to the end of argv (order kept), and
 * opts->first_file is set.  Returns 0 on success, 1 if --help was printed,
 * -1 on a usage error (message already printed to stderr). */
int check_parse_args(int argc, char **argv, int first, check_opts *opts);
void check_usage(FILE *f);

/* Outcome of checking one file. */
typedef enum check_verdict {
    V_VALID = 0,        /* parsed, no rule violated */
    V_PARSER_ERROR = 1, /* a rule was violated */
    V_IO_ERROR = 2,     /* open/read failed */
    V_INTERNAL = 3,     /* out of memory, or the library refused the call */
} check_verdict;

typedef struct check_result {
    const char *file;
    tfs_format format;     /* the parser that ran (or would have) */
    unsigned flags;        /* profile used */
    check_verdict verdict;
    tfs_status status;     /* library status */
    tfs_error err;         /* library error record (rule, offset, index) */
    int sys_errno;         /* errno of a failed open/read, else 0 */
    const tfs_header *h;   /* on V_VALID, the parsed header; else NULL */
} check_result;

const char *verdict_name(check_verdict v); /* "valid", "parser_error", ... */
/* Text for check_result.sys_errno: strerror, except EINVAL, which the
 * library reports for a path that is not a regular file (tfs.h). */
const char *io_error_text(int sys_errno);
const char *profile_name(unsigned flags);  /* "default", "strict", ... */
/* What the error index counts for this rule: "tensor", "kv", ... */
const char *index_kind(tfs_rule rule);

int cmd_check(int argc, char **argv, int first);
int cmd_dump(int argc, char **argv, int first);
/* Parse one FILE ("-" = standard input) as `tfs check` does, with `flags`
 * instead of o->flags; *h receives the header (free it). */
tfs_status parse_one(const char *path, const check_opts *o, unsigned flags, tfs_header **h, tfs_error *err);
int cmd_rules(int argc, char **argv, int first);
int cmd_mutate(int argc, char **argv, int first); /* mutate_cmd.c: `tfs mutate` */

/* ---- histogram.c ---- */
#define HIST_MAX 64u /* > TFS_GG_TYPE_COUNT and TFS_ST_DTYPE_COUNT */
typedef struct type_hist {
    uint64_t count[HIST_MAX + 1]; /* tensors per type id; [HIST_MAX] = unknown id */
    uint64_t bytes[HIST_MAX + 1]; /* data bytes per type id */
    uint64_t params;              /* sum of n_elements (saturates at UINT64_MAX) */
    int params_saturated;         /* 1 if the sum overflowed 64 bits */
} type_hist;

void hist_build(const tfs_header *h, type_hist *out);
/* Name of a type id for the header's format ("F16", "q4_K"), "?" if unknown. */
const char *hist_type_name(tfs_format f, unsigned type);

/* ---- kv_show.c ---- */
/* Write a short text form of a metadata value into buf (always NUL-terminated):
 * strings quoted and cut to `max_str` bytes, numbers in decimal, arrays as
 * "[u32 x 12]".  Non-printable bytes are shown as \xNN. */
void kv_show(const tfs_header *h, const tfs_kv *kv, char *buf, size_t n, size_t max_str);
/* Write `len` bytes of untrusted text (file names, keys) for a terminal:
 * C0 controls and DEL as \xNN, C1 controls (UTF-8 C2 80..9F) as \u00NN, so a
 * name cannot move the cursor, recolour or forge lines; other bytes as is. */
void fput_safe(FILE *out, const char *s, size_t len);
/* Is the KV's key equal to the NUL-terminated string s? */
int kv_key_is(const tfs_kv *kv, const char *s);

/* ---- out_human.c / out_json.c ---- */
void print_human(FILE *out, const check_result *r);
void print_json(FILE *out, const check_result *r);

/* ---- json.c ---- */
/* Write `len` bytes as a JSON string (with quotes): ", \ and control
 * characters escaped, invalid UTF-8 bytes replaced by U+FFFD. */
void json_str(FILE *out, const char *s, size_t len);
void json_cstr(FILE *out, const char *s); /* NUL-terminated; NULL -> null */

#endif /* TFS_CLI_H */
