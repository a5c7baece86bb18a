/*
 * conform.h: the `tfs conform` runner (docs/conform.md, ../shared/design.md
 * "Conformance report" and "Adapter protocol").
 *
 * Files, one job each:
 *   manifest.c sha256.c   manifests and fixture integrity (manifest.h)
 *   options.c             the command line
 *   select.c              fixtures -> cases: profiles, filters, tags
 *   cmdline.c             an adapter command split into argv (no shell)
 *   spawn.c               adapters run in parallel: process groups, pipes,
 *                         output cap, timeouts, sanitizer environment
 *   inproc.c              our parsers in process
 *   classify.c            outcome -> result
 *   content.c             expected content compared (jansson)
 *   xfail.c               expected-failures files
 *   report.c              human summary; report_json.c, report_tap.c,
 *                         report_junit.c: the report files
 *   conform.c             the driver (cf_main)
 * A static library (tfs_conform) linked into the `tfs` binary; POSIX only.
 */
#ifndef TFS_CF_CONFORM_H
#define TFS_CF_CONFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "manifest.h"

/* Result of one case (design.md "Conformance report"). */
typedef enum cf_result {
    CF_PASS,
    CF_FALSE_ACCEPT,
    CF_FALSE_REJECT,
    CF_WRONG_RULE,
    CF_MISREAD,
    CF_CRASH,
    CF_TIMEOUT,
    CF_SKIP,
    CF_IMPL,  /* implementation_defined: reported, never a failure */
    CF_XFAIL, /* failed as the expected-failures file says */
    CF_RESULT_COUNT
} cf_result;

const char *cf_result_name(cf_result r); /* "pass", "false_accept", ... */
int cf_result_from_name(const char *s);  /* -1 if unknown */
int cf_result_is_failure(cf_result r);   /* false_accept .. timeout */

/* Profiles (the manifest's mode column). */
typedef enum cf_profile { CF_PROF_DEFAULT, CF_PROF_STRICT, CF_PROF_HEADER_ONLY, CF_PROF_COUNT } cf_profile;
const char *cf_profile_name(cf_profile p);
int cf_profile_from_name(const char *s); /* -1 if unknown */

/* One case: a manifest line run in one profile. */
typedef struct cf_case {
    const cf_line *line;
    cf_profile profile;
    const char *expect;     /* what this profile requires: valid, parser_error,
                             implementation_defined (either verdict) */
    char *expected_content; /* path of expected/<id>.json if it exists, else NULL */
    /* outcome */
    int done; /* 1 once run (an interrupted run leaves 0) */
    cf_result result;
    const char *got; /* "valid", "parser_error", NULL (crash, timeout, skip) */
    char got_rule[32], got_category[64];
    char exit_desc[32]; /* "0", "1", "77", "SIGSEGV", "timeout", "in-process" */
    double ms;
    char detail[512];   /* why it is not a pass; "" otherwise */
    char *stderr_text;  /* the first 2 KiB of an adapter's stderr when the case did not pass, or NULL */
    int content;        /* cf_content_state: was the reader's content compared? */
    char warning[240];  /* a protocol warning (a JSON line after non-JSON stdout output), or "" */
    int xfail_listed;   /* named in the expected-failures file */
    cf_result xfail_of; /* the failure an xfail case gave */
} cf_case;

/* ---- options (options.c) ---- */
#define CF_MAX_LIST 64
typedef struct cf_options {
    const char *adapter; /* NULL: in process */
    int shell;           /* --shell: adapter run by /bin/sh -c */
    int jobs;
    double timeout;     /* seconds */
    const char *format; /* NULL or safetensors|gguf */
    int profile;        /* -1: every line in its own mode (in process) */
    const char *rules[CF_MAX_LIST];
    int n_rules;
    const char *expects[CF_MAX_LIST];
    int n_expects;
    const char *ids[CF_MAX_LIST];
    int n_ids;
    const char *tags[CF_MAX_LIST];
    int n_tags;
    const char *expected_failures, *write_expected_failures;
    const char *tap, *junit, *json;
    const char *fixtures[CF_MAX_LIST];
    int n_fixtures;            /* --fixtures, in order */
    size_t output_cap;         /* bytes kept per stream */
    int quiet;                 /* --quiet: no summary table, failures only */
    int list;                  /* --list: print the selected cases, run nothing */
    const char *category_map;  /* --category-map FILE */
    int want_content;          /* --content: the adapter promises content for valid files */
    int no_sanity;             /* --no-sanity-check */
    unsigned shard_k, shard_n; /* --shard K/N: the cases i (0-based, in selection order) with i % N == K - 1;
                                  0/0 when not given */
} cf_options;

/* Parse argv[first..argc).  0 ok, 1 --help printed, -1 usage error (printed). */
int cf_parse_options(int argc, char **argv, int first, cf_options *o);
void cf_usage(FILE *f);

/* ---- selection (select.c) ---- */
typedef struct cf_suite {
    cf_manifest *manifests;
    size_t n_manifests;
    cf_case *cases;
    size_t n_cases;    /* the cases to run: cases[0, n_cases) */
    size_t n_selected; /* the cases the options select: cases[0, n_selected) (with
                          --shard K/N, the shard's first, in order, then the others:
                          the adapter check tries the same fixtures for every shard) */
    char *dir;         /* the first fixtures folder (its VERSION file names the suite) */
    char *dirs;        /* every fixtures folder, ", " between them (messages) */
} cf_suite;

/* Load every MANIFEST.tsv of each of dirs[0, n_dirs) (the folder itself or
 * its direct subfolders, sorted), in the order given: the folders combine
 * into one suite.  A fixture id seen twice (in two manifests of one folder,
 * or in two folders) is an error.  0 ok; -1 with message. */
int cf_suite_load(cf_suite *s, const char *const *dirs, int n_dirs, char *err, size_t n);
/* Build the cases selected by the options.  0 ok; -1 with message. */
int cf_suite_select(cf_suite *s, const cf_options *o, char *err, size_t n);
void cf_suite_free(cf_suite *s);
/* Does the line carry tag `tag` (docs/conform.md "Tags")? */
int cf_line_has_tag(const cf_line *l, const char *tag);
/* Rule family of a line for the summary: "GG2xx", or "gguf valid". */
void cf_line_family(const cf_line *l, char *out, size_t n);
/* Does a --rule argument (an id, or a family like GG2xx) match the line? */
int cf_rule_matches(const char *arg, const char *rule_list);

/* ---- classification (classify.c) ---- */
/* What a reader said about one case. */
typedef struct cf_outcome {
    enum { CF_GOT_ACCEPT, CF_GOT_REJECT, CF_GOT_SKIP, CF_GOT_CRASH, CF_GOT_TIMEOUT } kind;
    const char *rule;     /* reported rule id, or NULL */
    const char *category; /* reported category, or NULL */
    int has_offset;       /* the reader reported the violation's byte offset */
    uint64_t offset;      /* that offset (bytes from the file's start) */
    int has_index;        /* the reader reported the violation's record index (tfs_error.index) */
    int64_t index;        /* that index: -1 for the file as a whole */
    int misread;          /* accepted, content differs from the expected */
    const char *why;      /* crash / misread detail, or NULL */
} cf_outcome;
/* Fill c->result, c->got, got_rule, got_category, detail. */
void cf_classify(cf_case *c, const cf_outcome *out);
/* Append a note to c->detail ("; " between notes), cut to its size. */
void cf_detail_note(cf_case *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- content (content.c) ---- */
/* Whether a case's content was compared (reports: "content"). */
typedef enum cf_content_state {
    CF_CONTENT_NA,          /* not a valid case with expected content, or not accepted */
    CF_CONTENT_NOT_CHECKED, /* accepted, but the reader gave no content (or nothing comparable) */
    CF_CONTENT_PARTIAL,     /* the reader gave part of the content: that part was compared */
    CF_CONTENT_FULL         /* every expected field was compared */
} cf_content_state;
const char *cf_content_state_name(int s); /* NULL, "not_checked", "partial", "full" */
/* What a comparison covered: expected leaves compared, and expected fields
 * the reader left out (partial content: not compared). */
typedef struct cf_content_cov {
    size_t compared, skipped;
} cf_content_cov;
/* The state a comparison's coverage gives. */
int cf_content_state_of(const cf_content_cov *cov);
/* Compare a reported content JSON text (or parsed object, see below) with
 * the expected content file.  0 equal; 1 differs (first difference in why);
 * -1 the expected file cannot be read or a text is not JSON (in why). */
int cf_content_compare_text(const char *got, size_t len, const char *expected_path, char *why, size_t n);
#ifdef JANSSON_H
/* json_loadb, again with integers as doubles when one does not fit 64 bits
 * (a u64 shape of 2^64-1): a document jansson alone would refuse. */
json_t *cf_json_loadb(const char *text, size_t len, size_t flags, json_error_t *je);
#endif
/* The same for a parsed jansson value (json_t *). */
int cf_content_compare_json(const void *got, const char *expected_path, char *why, size_t n);
/* The same, and *cov (may be NULL) says what was compared and left out. */
int cf_content_check(const void *got, const char *expected_path, char *why, size_t n, cf_content_cov *cov);

/* ---- category maps (catmap.c) ---- */
/* A reader that only prints messages: regex on its JSON "message" (else its
 * stderr) -> category or rule id (docs/conform.md "Category maps"). */
typedef struct cf_catmap cf_catmap;
/* Read a map file; NULL with a message in err (unreadable, a line without a
 * TAB, a bad regular expression). */
cf_catmap *cf_catmap_read(const char *path, char *err, size_t n);
void cf_catmap_free(cf_catmap *m);
/* The value of the first entry whose regex matches text (NUL-terminated), or
 * NULL; *is_rule = 1 when that value is a rule id (GG204) rather than a
 * category.  The string belongs to the map. */
const char *cf_catmap_match(const cf_catmap *m, const char *text, int *is_rule);

/* ---- adapter sanity (sanity.c) ---- */
/* Before a run: the adapter tried on a few valid and invalid cases of the
 * selection (copies; the cases themselves are untouched).  0 it looks alive;
 * -1 with a message in err: it rejects every valid fixture tried, answers
 * every fixture tried the same way, or (want_content) prints no content for
 * a valid fixture it accepts.  Also -1 when running fails.  1: alive, with a
 * warning in err (a JSON line after non-JSON stdout output). */
struct cf_spawn_opts;
int cf_sanity_check(const cf_case *cases, size_t n, char *const *words, const char *cmd, int shell,
                    const struct cf_spawn_opts *so, int want_content, volatile int *stop, char *err, size_t en);

/* ---- in process (inproc.c) ---- */
/* Renders our parser's content of a file as the expected-content JSON text
 * (`tfs dump --json`); returns a malloc'ed NUL-terminated text or NULL.
 * format: "safetensors" | "gguf"; flags: TFS_STRICT | TFS_HEADER_ONLY. */
typedef char *(*cf_content_fn)(const char *path, const char *format, unsigned flags);
void cf_run_inprocess(cf_case *c, cf_content_fn content);

/* ---- adapters (cmdline.c, spawn.c) ---- */
/* Split an adapter command into words (docs/conform.md "Adapter command").
 * Returns a NULL-terminated malloc'ed array (free with cf_argv_free), or
 * NULL with a message in err. */
char **cf_split_command(const char *cmd, char *err, size_t n);
void cf_argv_free(char **argv);
/* argv of one run: {file} replaced in every word by path, or path appended
 * when no word holds {file}.  shell: ["/bin/sh","-c",CMD', NULL] with the
 * path single-quoted in CMD'. */
char **cf_expand_command(char *const *words, const char *cmd, int shell, const char *path);

typedef struct cf_spawn_opts {
    int jobs;
    double timeout;          /* seconds */
    size_t output_cap;       /* bytes kept per stream */
    const cf_catmap *catmap; /* --category-map, or NULL */
} cf_spawn_opts;
/* Run cases[0..n) through the adapter, at most jobs at once; each finished
 * case is classified (done = 1).  Stops launching when *stop becomes
 * non-zero (SIGINT, SIGTERM, SIGHUP), kills what runs and returns.  0 ok,
 * -1 setup failure. */
/* Async-signal-safe: wake cf_run_adapter from a signal handler. */
void cf_spawn_wake(void);
int cf_run_adapter(cf_case *cases, size_t n, char *const *words, const char *cmd, int shell, const cf_spawn_opts *so,
                   volatile int *stop);

/* ---- expected failures (xfail.c) ---- */
typedef struct cf_xfail_entry {
    char *id;
    int result; /* expected result, or -1 for any failure */
    int lineno;
    int used; /* matched a loaded fixture */
} cf_xfail_entry;
typedef struct cf_xfail {
    cf_xfail_entry *e;
    size_t n;
} cf_xfail;
int cf_xfail_read(const char *path, cf_xfail *x, char *err, size_t n);
void cf_xfail_free(cf_xfail *x);
/* Apply to finished cases: listed failures become xfail; returns the
 * problems (stale entries, entries naming no fixture, a listed result that
 * differs) printed to `out`, counted in *problems. */
void cf_xfail_apply(cf_xfail *x, const cf_suite *s, cf_case *cases, size_t n, FILE *out, size_t *problems,
                    char ***messages, size_t *n_messages);
int cf_xfail_write(const char *path, const cf_case *cases, size_t n, char *err, size_t en);

/* ---- reports (report*.c) ---- */
typedef struct cf_report_info {
    const char *adapter; /* NULL in process */
    const char *tfs_version, *suite_version;
    char started[32]; /* ISO 8601 UTC */
    double seconds;
    int interrupted;
    size_t not_run;
    char **problems; /* expected-failures problems */
    size_t n_problems;
} cf_report_info;
void cf_report_human(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri, int quiet);
int cf_report_json(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri);
int cf_report_tap(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri);
int cf_report_junit(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri);
/* JSON / XML string writers shared by the reports. */
void cf_json_str(FILE *out, const char *s);
void cf_xml_str(FILE *out, const char *s);

/* ---- driver (conform.c) ---- */
/* `tfs conform`: argv[first..argc) are its options.  Exit status:
 * 0 no required failure, 1 some, 2 usage, fixture integrity, an unwritable
 * report or standard output, 128 + signal when SIGINT (130), SIGTERM (143)
 * or SIGHUP (129) stopped the run. */
int cf_main(int argc, char **argv, int first, const char *tfs_version, cf_content_fn content);

#endif
