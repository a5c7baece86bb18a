/* set_check.c: `tfs check` of a model set: a safetensors index with its
 * shards, or a GGUF split from its first part (include/tfs/lint.h
 * tfs_set_check; rules SETnnn, docs/lint.md).  One report per set: its
 * verdict, every file with its own verdict, then the findings. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

static const char *file_verdict(const tfs_lint_file *f) {
    switch (f->status) {
    case TFS_OK: return "valid";
    case TFS_INVALID: return "parser_error";
    case TFS_EIO: return f->err.sys_errno == ENOENT ? "missing" : "io_error";
    default: return "internal_error";
    }
}

/* quiet (-q): the set's files that are not valid only */
static void human(FILE *out, const char *path, const tfs_lint_report *r, check_verdict v, unsigned flags, int quiet) {
    fput_safe(out, path, strlen(path));
    fprintf(out, ": %s", v == V_VALID ? "valid" : "invalid");
    if (flags) fprintf(out, " (%s)", profile_name(flags));
    size_t missing = 0;
    for (size_t i = 0; i < r->n_files; i++)
        missing += r->files[i].status == TFS_EIO && r->files[i].err.sys_errno == ENOENT;
    char gone[48] = "";
    if (missing) snprintf(gone, sizeof gone, " (%zu missing)", missing);
    fprintf(out, "\n  set         %s, %zu file%s%s, %zu tensor%s, %" PRIu64 " bytes of tensor data\n",
            r->format == TFS_FORMAT_GGUF ? "gguf split" : "safetensors index", r->n_files, r->n_files == 1 ? "" : "s",
            gone, r->n_tensors, r->n_tensors == 1 ? "" : "s", r->tensor_bytes);
    for (size_t i = 0; i < r->n_files; i++) {
        const tfs_lint_file *f = &r->files[i];
        if (quiet && f->status == TFS_OK) continue;
        fputs("  file        ", out);
        fput_safe(out, f->path, strlen(f->path));
        fprintf(out, ": %s", file_verdict(f));
        if (f->status == TFS_OK)
            fprintf(out, ", %zu tensor%s", f->n_tensors, f->n_tensors == 1 ? "" : "s");
        else if (f->status == TFS_INVALID)
            fprintf(out, " %s", tfs_rule_id(f->err.rule));
        fputc('\n', out);
    }
    if (r->n_findings)
        fprintf(out, "  findings    %zu error%s, %zu warning%s\n", r->n_errors, r->n_errors == 1 ? "" : "s",
                r->n_warnings, r->n_warnings == 1 ? "" : "s");
    lint_print_human(out, r);
}

static void json(FILE *out, const char *path, const tfs_lint_report *r, check_verdict v, unsigned flags) {
    fputs("{\"file\":", out);
    json_cstr(out, path);
    fputs(",\"set\":true,\"format\":", out);
    json_cstr(out, tfs_format_name(r->format));
    fputs(",\"profile\":", out);
    json_cstr(out, profile_name(flags));
    fputs(",\"verdict\":", out);
    json_cstr(out, v == V_VALID ? "valid" : "invalid");
    fprintf(out, ",\"n_files\":%zu,\"n_tensors\":%zu,\"tensor_bytes\":%" PRIu64 ",\"errors\":%zu,\"warnings\":%zu",
            r->n_files, r->n_tensors, r->tensor_bytes, r->n_errors, r->n_warnings);
    fputs(",\"files\":[", out);
    for (size_t i = 0; i < r->n_files; i++) {
        const tfs_lint_file *f = &r->files[i];
        fputs(i ? ",{\"file\":" : "{\"file\":", out);
        json_cstr(out, f->path);
        fputs(",\"verdict\":", out);
        json_cstr(out, file_verdict(f));
        fputs(",\"rule\":", out);
        json_cstr(out, f->status == TFS_INVALID ? tfs_rule_id(f->err.rule) : NULL);
        fprintf(out, ",\"n_tensors\":%zu,\"tensor_bytes\":%" PRIu64 "}", f->n_tensors, f->tensor_bytes);
    }
    fputs("],\"findings\":", out);
    lint_print_json(out, r);
    fputs("}\n", out);
}

check_verdict set_check_report(FILE *out, const char *path, tfs_status st, const tfs_lint_report *r,
                               const check_opts *o, int sys_errno) {
    check_verdict v;
    if (st == TFS_OK) {
        int bad = 0;
        for (size_t i = 0; i < r->n_findings; i++)
            bad |=
                r->findings[i].severity == TFS_LINT_ERROR && strncmp(tfs_lint_id(r->findings[i].rule), "SET", 3) == 0;
        for (size_t i = 0; i < r->n_files; i++) bad |= r->files[i].status != TFS_OK;
        v = bad ? V_PARSER_ERROR : V_VALID;
        if (o->quiet && v == V_VALID && r->n_findings == 0) /* -q: nothing to say */
            ;
        else if (o->json)
            json(out, path, r, v, o->flags);
        else
            human(out, path, r, v, o->flags, o->quiet);
        return v;
    }
    const char *why = st == TFS_EIO ? (o->config ? "the index or --config cannot be read" : "the index cannot be read")
                      : st == TFS_ENOMEM ? "out of memory"
                                         : tfs_status_name(st);
    if (st == TFS_EIO && sys_errno) why = strerror(sys_errno);
    v = st == TFS_EIO ? V_IO_ERROR : V_INTERNAL;
    if (o->json) {
        fputs("{\"file\":", out);
        json_cstr(out, path);
        fputs(",\"set\":true,\"verdict\":", out);
        json_cstr(out, verdict_name(v));
        fputs(",\"message\":", out);
        json_cstr(out, why);
        fputs("}\n", out);
    } else {
        fput_safe(out, path, strlen(path));
        fprintf(out, ": %s\n  error       %s\n", verdict_name(v), why);
    }
    return v;
}

#ifndef TFS_NO_POSIX
check_verdict set_check_print(const char *path, const check_opts *o, size_t *lint_errors, size_t *lint_warnings) {
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    errno = 0;
    tfs_status st = tfs_set_check(path, o->flags, o->lint, o->config, &r);
    check_verdict v = set_check_report(stdout, path, st, &r, o, st == TFS_EIO ? errno : 0);
    if (st == TFS_OK) {
        /* lint errors (LT) leave the set's verdict alone; --lint makes them count for the exit status */
        *lint_errors = r.n_errors;
        *lint_warnings = r.n_warnings;
    }
    tfs_lint_report_free(&r);
    return v;
}
#endif
