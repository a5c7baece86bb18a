/* lint_out.c: the findings of `tfs check --lint` and of a model set, for
 * people (one line each: id, severity, file of a set, text) and as JSON. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

void lint_print_human(FILE *out, const tfs_lint_report *r) {
    for (size_t i = 0; i < r->n_findings; i++) {
        const tfs_lint_finding *f = &r->findings[i];
        fprintf(out, "  %-6s %-7s ", tfs_lint_id(f->rule), tfs_lint_severity_name(f->severity));
        fput_safe(out, f->text, strlen(f->text));
        fputc('\n', out);
    }
}

void lint_print_json(FILE *out, const tfs_lint_report *r) {
    fputc('[', out);
    for (size_t i = 0; i < r->n_findings; i++) {
        const tfs_lint_finding *f = &r->findings[i];
        fputs(i ? ",{\"id\":" : "{\"id\":", out);
        json_cstr(out, tfs_lint_id(f->rule));
        fputs(",\"severity\":", out);
        json_cstr(out, tfs_lint_severity_name(f->severity));
        fputs(",\"file\":", out);
        json_cstr(out, r->is_set && f->part >= 0 && (size_t)f->part < r->n_files ? r->files[f->part].path : NULL);
        fputs(",\"tensor\":", out);
        if (f->tensor >= 0)
            fprintf(out, "%" PRId64, f->tensor);
        else
            fputs("null", out);
        fputs(",\"tensor_name\":", out);
        if (f->tensor_name)
            json_str(out, f->tensor_name, f->tensor_name_len);
        else
            fputs("null", out);
        fputs(",\"kv\":", out);
        if (f->kv >= 0)
            fprintf(out, "%" PRId64, f->kv);
        else
            fputs("null", out);
        fputs(",\"message\":", out);
        json_cstr(out, f->text);
        fputc('}', out);
    }
    fputc(']', out);
}
