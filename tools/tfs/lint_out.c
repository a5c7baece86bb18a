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

uint64_t model_params(const char *path, const tfs_header *h, uint64_t params, int *mlx) {
    *mlx = 0;
    if (!h || h->format != TFS_FORMAT_SAFETENSORS) return params;
    int scales = 0, packed = 0;
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_str *n = &h->tensors[i].name;
        scales |= n->len >= 7 && memcmp(n->ptr + n->len - 7, ".scales", 7) == 0;
        packed |= h->tensors[i].type == TFS_ST_U32;
    }
    if (!scales || !packed) return params;
    tfs_lint_report r;
    tfs_lint_report_init(&r);
#ifdef TFS_NO_POSIX /* the browser inspector: no file to read the config.json beside */
    (void)path;
    tfs_status st = tfs_lint_header(h, NULL, &r);
#else
    tfs_status st = strcmp(path, "-") == 0 ? tfs_lint_header(h, NULL, &r) : tfs_lint_path(path, h, NULL, &r);
#endif
    if (st == TFS_OK && r.mlx_packed && r.mlx_packed <= params) {
        uint64_t v = params - r.mlx_packed + r.mlx_values;
        if (v >= params) { /* no wrap */
            params = v;
            *mlx = 1;
        }
    }
    tfs_lint_report_free(&r);
    return params;
}
