/* check.c: `tfs check`: one parse per file (header only), report, exit status;
 * with -r, directories walked (walk.c), a progress line on a terminal and a
 * summary record. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tfs/lint.h"

#define PROGRESS_MIN 20u /* files before a walk shows a progress line */

/* The byte source of violation_detail (detail.c): positioned reads of an
 * open regular file (ctx: its descriptor). */
static int fd_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    size_t n = 0;
    while (n < len) {
        ssize_t r = pread(*(const int *)ctx, (char *)buf + n, len - n, (off_t)(off + n));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errno;
        if (r == 0) break;
        n += (size_t)r;
    }
    *got = n;
    return 0;
}

/* violation_detail of the file at path, reopened as a random-access byte
 * source; standard input, a stream or a file that cannot be reopened: no
 * source. */
static void detail_of(const char *path, const tfs_header *h, const tfs_error *e, char *buf, size_t n) {
    struct stat st;
    int fd = strcmp(path, "-") == 0 || input_streamed() ? -1 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        tfs_source src = {.read = fd_read, .ctx = &fd, .size = (uint64_t)st.st_size, .forward = 0};
        violation_detail(&src, h, e, buf, n);
    } else {
        violation_detail(NULL, h, e, buf, n);
    }
    if (fd >= 0) close(fd);
}

static void check_one(const char *path, const check_opts *o, check_result *r, tfs_header **h) {
    memset(r, 0, sizeof *r);
    r->file = path;
    r->flags = o->flags;
    r->format = o->format;
    r->err.index = -1;
    /* TFS_PARTIAL: on a violation, the header read before it, for the
     * numbers of the detail line (the verdict is the same) */
    r->status = parse_one(path, o, o->flags | TFS_PARTIAL, h, &r->err, &r->not_model, &r->hint);
    if (r->status == TFS_INVALID && !r->not_model) detail_of(path, *h, &r->err, r->detail, sizeof r->detail);
    check_verdict_set(r, *h);
}

/* An I/O error found before parsing (a directory of a walk that could not
 * be read). */
static void io_result(const char *path, int e, const check_opts *o, check_result *r) {
    memset(r, 0, sizeof *r);
    r->file = path;
    r->flags = o->flags;
    r->format = TFS_FORMAT_UNKNOWN;
    r->status = TFS_EIO;
    r->err.index = -1;
    r->err.sys_errno = r->sys_errno = e;
    r->verdict = V_IO_ERROR;
}

/* The files to check: each FILE as given, a directory FILE's sets and
 * model files (walk_dir; with -r all its files), each file once.  Returns
 * 0, or ENOMEM. */
static int collect(int argc, char **argv, const check_opts *o, walk_list *l) {
    for (int i = o->first_file; i < argc; i++) {
        struct stat st;
        int rc;
        int dir = strcmp(argv[i], "-") != 0 && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode);
        if (dir)
            rc = walk_dir(l, argv[i], o->recursive);
        else
            rc = walk_add(l, argv[i], 0);
        if (rc) return rc;
    }
    return walk_dedupe(l); /* each file once (a set's shards, links) */
}

/* --lint on a valid file: its findings into *lr (r->lint); 0, or -1 when the
 * lint could not run (r->lint_error says why). */
static int lint_one(const char *path, const check_opts *o, check_result *r, tfs_lint_report *lr) {
    tfs_status st;
    if (input_streamed()) {
        /* a stream cannot be read again: the header's findings only, and the rule that reads the bytes again
         * is said to be unchecked (LT114 the GGUF padding, LT302 the safetensors header's padding) */
        st = tfs_lint_header(r->h, NULL, lr);
        r->lint_unchecked = r->h->format == TFS_FORMAT_GGUF ? "LT114" : "LT302";
    } else {
        /* standard input that is a regular file is read again by its name (the same file, another offset) */
        st = tfs_lint_path(strcmp(path, "-") == 0 ? "/dev/stdin" : path, r->h, o->config, lr);
    }
    if (st == TFS_OK) {
        r->lint = lr;
        return 0;
    }
    r->lint_error = st == TFS_EIO      ? (o->config ? "--config cannot be read" : "the file cannot be read again")
                    : st == TFS_ENOMEM ? "out of memory"
                                       : tfs_status_name(st);
    return -1;
}

typedef struct counts {
    size_t valid, invalid, not_model, error;
    size_t lint_errors;   /* of the valid: with a lint error (--lint; exit status 1) */
    size_t lint_warnings; /* of the valid: with lint warnings only */
    size_t skipped;       /* walked files that are not model files (not reported) */
    size_t bad_folders;   /* walked folders that could not be read (reported) */
} counts;

static void progress(size_t i, size_t n, const char *path) {
    fprintf(stderr, "\r\033[K[%zu/%zu] ", i + 1, n);
    size_t len = strlen(path);
    /* the end of a long path: the file name matters most */
    if (len > 60) {
        size_t k = len - 57;
        while (k < len && ((unsigned char)path[k] & 0xc0) == 0x80) k++; /* not inside a character */
        fputs("...", stderr);
        fput_safe(stderr, path + k, len - k);
    } else {
        fput_safe(stderr, path, len);
    }
    fflush(stderr);
}

/* --lint: the JSON summary's "lint_errors" and "lint_warnings" (the valid
 * files with a lint error, with lint warnings only), each followed by a
 * comma, into buf; "" without --lint. */
static const char *lint_counts(const check_opts *o, const counts *c, char *buf, size_t n) {
    if (!o->lint) return "";
    snprintf(buf, n, "\"lint_errors\":%zu,\"lint_warnings\":%zu,", c->lint_errors, c->lint_warnings);
    return buf;
}

static const char *plural(size_t n, const char *one, const char *many) { return n == 1 ? one : many; }

int cmd_check(int argc, char **argv, int first) {
    check_opts o;
    int rc = check_parse_args(argc, argv, first, &o);
    if (rc == 1) return stdout_done("check", 0); /* --help */
    if (rc != 0) return 2;
    walk_list files = {0};
    if (collect(argc, argv, &o, &files) != 0) {
        walk_free(&files);
        fprintf(stderr, "tfs check: out of memory\n");
        return 2;
    }
    int show_progress = o.recursive && files.n >= PROGRESS_MIN && isatty(STDERR_FILENO);
    counts c = {0};
    for (size_t i = 0; i < files.n; i++) {
        check_result r;
        tfs_header *h = NULL;
        if (show_progress) progress(i, files.n, files.v[i].path);
        /* an index or a first GGUF split (named, or a set a walk found) is
         * checked as a model set, unless --format asks for one format */
        tfs_set_kind sk = files.v[i].err || o.format != TFS_FORMAT_UNKNOWN || (o.recursive && !files.v[i].is_set)
                              ? TFS_SET_NONE
                              : tfs_set_kind_of(files.v[i].path);
        if (sk == TFS_SET_INDEX || sk == TFS_SET_SPLIT) {
            if (show_progress) fputs("\r\033[K", stderr);
            size_t set_lint_errors = 0, set_lint_warnings = 0;
            switch (set_check_print(files.v[i].path, &o, &set_lint_errors, &set_lint_warnings)) {
            case V_VALID:
                c.valid++;
                c.lint_errors += o.lint && set_lint_errors > 0;
                c.lint_warnings += o.lint && set_lint_errors == 0 && set_lint_warnings > 0;
                break;
            case V_PARSER_ERROR: c.invalid++; break;
            default: c.error++; break;
            }
            continue;
        }
        check_opts fo = o;
        fo.no_special = files.v[i].walked; /* a FIFO a walk found must not block it */
        if (files.v[i].err)
            io_result(files.v[i].path, files.v[i].err, &o, &r);
        else
            check_one(files.v[i].path, &fo, &r, &h);
        tfs_lint_report lr;
        tfs_lint_report_init(&lr);
        int lint_failed = o.lint && r.verdict == V_VALID && lint_one(files.v[i].path, &o, &r, &lr) != 0;
        if (show_progress) fputs("\r\033[K", stderr);
        if (files.v[i].walked && r.verdict == V_NOT_MODEL) { /* found by content: not a model file */
            c.skipped++;
            continue;
        }
        /* -q: problems only: a file that is not valid, or has lint findings */
        if (!o.quiet || r.verdict != V_VALID || lint_failed || (r.lint && r.lint->n_findings > 0)) {
            if (o.json)
                print_json(stdout, &r);
            else
                print_human(stdout, &r);
        }
        tfs_header_free(h);
        size_t lint_errors = lr.n_errors, lint_warnings = lr.n_warnings;
        tfs_lint_report_free(&lr);
        if (files.v[i].is_dir) { /* reported, but not a file */
            c.bad_folders++;
            continue;
        }
        if (lint_failed) {
            c.error++;
            continue;
        }
        if (r.verdict == V_VALID && lint_errors > 0)
            c.lint_errors++; /* the verdict stays valid; the exit status tells */
        else if (r.verdict == V_VALID && lint_warnings > 0)
            c.lint_warnings++;
        switch (r.verdict) {
        case V_VALID: c.valid++; break;
        case V_PARSER_ERROR: c.invalid++; break;
        case V_NOT_MODEL: c.not_model++; break;
        default: c.error++; break;
        }
    }
    if (show_progress) fflush(stderr);
    size_t n = files.n - c.skipped - c.bad_folders;
    char lintbuf[96];
    walk_free(&files);
    if (o.json && o.recursive)
        printf("{\"summary\":{\"files\":%zu,\"valid\":%zu,%s\"invalid\":%zu,\"not_a_model\":%zu,\"errors\":%zu,"
               "\"skipped\":%zu,\"unreadable_folders\":%zu}}\n",
               n, c.valid, lint_counts(&o, &c, lintbuf, sizeof lintbuf), c.invalid, c.not_model, c.error, c.skipped,
               c.bad_folders);
    else if (!o.json && (n > 1 || o.recursive)) {
        printf("%zu %s: %zu valid", n, plural(n, "file", "files"), c.valid);
        if (c.lint_errors && c.lint_warnings)
            printf(" (%zu with lint errors, %zu with lint warnings)", c.lint_errors, c.lint_warnings);
        else if (c.lint_errors || c.lint_warnings)
            printf(" (%zu with lint %s)", c.lint_errors + c.lint_warnings, c.lint_errors ? "errors" : "warnings");
        printf(", %zu invalid, ", c.invalid);
        if (c.not_model) printf("%zu not %s, ", c.not_model, plural(c.not_model, "a model file", "model files"));
        printf("%zu %s", c.error, plural(c.error, "error", "errors"));
        if (c.skipped)
            printf("; %zu other %s skipped (not model files)", c.skipped, plural(c.skipped, "file", "files"));
        if (c.bad_folders)
            printf("; %zu %s could not be read", c.bad_folders, plural(c.bad_folders, "folder", "folders"));
        putchar('\n');
    }
    if (o.recursive && n == 0) /* a walk that checked nothing is no success */
        fprintf(stderr, "tfs check: no model file found (%zu %s skipped: not model files by content)\n", c.skipped,
                plural(c.skipped, "file", "files"));
    int status = c.error || c.bad_folders                                               ? 2
                 : c.invalid || c.not_model || c.lint_errors || (o.recursive && n == 0) ? 1
                                                                                        : 0;
    return stdout_done("check", status);
}
