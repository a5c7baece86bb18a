/* out_json.c: one JSON object (one line) per checked file.
 * Fields: file, format, profile, verdict, rule, category, offset, index,
 * message, then for a valid file version, n_tensors, n_kv, header_size,
 * data_offset, data_size, file_size, alignment, params, types {name: count},
 * data_extent (bytes from data_offset to the end of the last tensor's data;
 * data_size counts GGUF's padding after it), unowned_bytes (bytes after the
 * data section padded to the alignment that no tensor owns: LT113,
 * tfs_unowned_tail; null when the file size is unknown), looks_like (not_a_model: what
 * the file looks like; parser_error: what its content looks like when that
 * is a known kind, sniff.c error_hint, else null), detail (parser_error of
 * GG304, ST307, GG130: the numbers behind it, detail.c); fields that do not
 * apply are null.
 * With --lint on a valid file: lint {errors, warnings, findings: [{id,
 * severity, file, tensor, tensor_name, kv, message}]} (lint_out.c). */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

/* A size, count or offset: a JSON number up to 2^53 - 1, beyond that a
 * decimal string (as `tfs dump --json`), so that every JSON reader (jq's
 * doubles) keeps it exact. */
static void u64_or_null(FILE *out, const char *key, int present, uint64_t v) {
    fprintf(out, ",\"%s\":", key);
    if (present)
        fprintf(out, v > UINT64_C(9007199254740991) ? "\"%" PRIu64 "\"" : "%" PRIu64, v);
    else
        fputs("null", out);
}

void print_json(FILE *out, const check_result *r) {
    int bad = r->verdict == V_PARSER_ERROR;
    const tfs_header *h = r->verdict == V_VALID ? r->h : NULL;
    fputs("{\"file\":", out);
    json_cstr(out, r->file);
    fputs(",\"format\":", out);
    json_cstr(out, tfs_format_name(r->format));
    fputs(",\"profile\":", out);
    json_cstr(out, profile_name(r->flags));
    fputs(",\"verdict\":", out);
    json_cstr(out, verdict_name(r->verdict));
    fputs(",\"rule\":", out);
    json_cstr(out, bad ? tfs_rule_id(r->err.rule) : NULL);
    fputs(",\"category\":", out);
    json_cstr(out, bad ? tfs_rule_category(r->err.rule) : NULL);
    u64_or_null(out, "offset", bad, r->err.offset);
    fputs(",\"index\":", out);
    if (bad && r->err.index >= 0)
        fprintf(out, "%" PRId64, r->err.index);
    else
        fputs("null", out);
    fputs(",\"message\":", out);
    if (bad)
        json_cstr(out, r->err.message ? r->err.message : tfs_rule_message(r->err.rule));
    else if (r->verdict == V_IO_ERROR)
        json_cstr(out, io_error_text(r->sys_errno));
    else if (r->verdict == V_INTERNAL)
        json_cstr(out, r->status == TFS_ENOMEM ? "out of memory" : tfs_status_name(r->status));
    else if (r->verdict == V_NOT_MODEL)
        json_cstr(out, "neither GGUF nor safetensors, and no .gguf / .safetensors name: not parsed");
    else
        fputs("null", out);
    u64_or_null(out, "version", h && h->format == TFS_FORMAT_GGUF, h ? h->version : 0);
    u64_or_null(out, "n_tensors", h != NULL, h ? h->n_tensors : 0);
    u64_or_null(out, "n_kv", h != NULL, h ? h->n_kv : 0);
    u64_or_null(out, "header_size", h != NULL, h ? h->header_size : 0);
    u64_or_null(out, "data_offset", h != NULL, h ? h->data_offset : 0);
    u64_or_null(out, "data_size", h != NULL, h ? h->data_size : 0);
    /* 0: a stream read with --header-only, whose end was not reached */
    u64_or_null(out, "file_size", h != NULL && h->file_size != 0, h ? h->file_size : 0);
    u64_or_null(out, "alignment", h && h->format == TFS_FORMAT_GGUF, h ? h->alignment : 0);
    type_hist th;
    if (h) hist_build(h, &th);
    int mlx = 0; /* MLX packed weights: the values they hold (model_params) */
    u64_or_null(out, "params", h != NULL,
                h && !th.params_saturated ? model_params(r->file, h, th.params, &mlx)
                : h                       ? th.params
                                          : 0);
    fputs(",\"types\":", out);
    if (!h)
        fputs("null", out);
    else {
        fputc('{', out);
        const char *sep = "";
        for (unsigned t = 0; t <= HIST_MAX; t++) {
            if (!th.count[t]) continue;
            fputs(sep, out);
            json_cstr(out, t < HIST_MAX ? hist_type_name(h->format, t) : "?");
            fprintf(out, th.count[t] > UINT64_C(9007199254740991) ? ":\"%" PRIu64 "\"" : ":%" PRIu64, th.count[t]);
            sep = ",";
        }
        fputc('}', out);
    }
    u64_or_null(out, "data_extent", h != NULL, h ? data_extent(h) : 0);
    /* LT113: bytes after the padded data section (GGUF; 0 for safetensors) */
    u64_or_null(out, "unowned_bytes", h != NULL && h->file_size != 0, tfs_unowned_tail(h, NULL));
    fputs(",\"looks_like\":", out);
    json_cstr(out, r->verdict == V_NOT_MODEL ? r->not_model : bad ? r->hint : NULL);
    fputs(",\"detail\":", out);
    json_cstr(out, bad && r->detail[0] ? r->detail : NULL);
    if (r->lint) { /* --lint: {"errors", "warnings", "findings": [...]} */
        fprintf(out, ",\"lint\":{\"errors\":%zu,\"warnings\":%zu,\"findings\":", r->lint->n_errors,
                r->lint->n_warnings);
        lint_print_json(out, r->lint);
        if (r->lint_unchecked) { /* a rule the input could not give the bytes for (a stream: LT114) */
            fputs(",\"not_checked\":[", out);
            json_cstr(out, r->lint_unchecked);
            fputc(']', out);
        }
        fputc('}', out);
    } else if (r->lint_error) {
        fputs(",\"lint\":{\"error\":", out);
        json_cstr(out, r->lint_error);
        fputc('}', out);
    }
    fputs("}\n", out);
}
