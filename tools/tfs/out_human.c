/* out_human.c: the human report of one checked file. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

#define INDENT "              " /* continuation lines line up with values */

/* 1234567 -> "1,234,567" */
static const char *grouped(uint64_t v, char buf[32]) {
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%" PRIu64, v);
    int o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

/* 6738415616 -> "6.74 B" (K, M, B, T); "" below 1000 */
static const char *short_count(uint64_t v, char buf[32]) {
    static const char *const unit[] = {"K", "M", "B", "T", "Q"};
    double d = (double)v;
    int u = -1;
    while (d >= 1000.0 && u < 4) {
        d /= 1000.0;
        u++;
    }
    if (u < 0)
        buf[0] = '\0';
    else
        snprintf(buf, 32, " (%.3g %s)", d, unit[u]);
    return buf;
}

static void print_types(FILE *out, const tfs_header *h, const type_hist *th) {
    char a[32];
    fprintf(out, "  tensors     %s", grouped(h->n_tensors, a));
    const char *sep = ": ";
    for (unsigned t = 0; t <= HIST_MAX; t++) {
        if (!th->count[t]) continue;
        fprintf(out, "%s%s x%" PRIu64, sep, t < HIST_MAX ? hist_type_name(h->format, t) : "?", th->count[t]);
        sep = ", ";
    }
    fputc('\n', out);
}

/* Keys worth showing first when present (GGUF). */
static const char *const k_pref[] = {
    "general.architecture", "general.name",      "general.type",
    "general.file_type",    "general.alignment", "tokenizer.ggml.model",
};
#define N_PREF (sizeof k_pref / sizeof k_pref[0])
#define MAX_SHOWN 5u

static void print_kv_line(FILE *out, const tfs_header *h, const tfs_kv *kv) {
    fputs(INDENT, out);
    size_t shown = utf8_cut(kv->key.ptr, kv->key.len, 80);
    fput_safe(out, kv->key.ptr, shown);
    if (shown < kv->key.len) fputs("...", out);
    fputs(" = ", out);
    kv_print(out, h, kv, 60, 0);
    fputc('\n', out);
}

static void print_metadata(FILE *out, const tfs_header *h) {
    if (h->format == TFS_FORMAT_SAFETENSORS) {
        if (!h->has_metadata) {
            fprintf(out, "  metadata    no __metadata__\n");
            return;
        }
        fprintf(out, "  metadata    __metadata__: %zu key%s\n", h->n_kv, h->n_kv == 1 ? "" : "s");
        for (size_t i = 0; i < h->n_kv && i < MAX_SHOWN; i++) print_kv_line(out, h, &h->kv[i]);
        if (h->n_kv > MAX_SHOWN) fprintf(out, INDENT "(+%zu more)\n", h->n_kv - MAX_SHOWN);
        return;
    }
    fprintf(out, "  metadata    %zu KV pair%s\n", h->n_kv, h->n_kv == 1 ? "" : "s");
    size_t shown = 0;
    for (size_t p = 0; p < N_PREF && shown < MAX_SHOWN; p++)
        for (size_t i = 0; i < h->n_kv; i++)
            if (kv_key_is(&h->kv[i], k_pref[p])) {
                print_kv_line(out, h, &h->kv[i]);
                shown++;
                break;
            }
    for (size_t i = 0; i < h->n_kv && shown == 0 && i < 3; i++) print_kv_line(out, h, &h->kv[i]);
    if (shown == 0) shown = h->n_kv < 3 ? h->n_kv : 3;
    if (h->n_kv > shown) fprintf(out, INDENT "(+%zu more)\n", h->n_kv - shown);
}

static void print_valid(FILE *out, const char *file, const tfs_header *h) {
    char a[32], b[32], c[32];
    if (h->format == TFS_FORMAT_GGUF)
        fprintf(out, "  format      gguf v%" PRIu32 ", alignment %" PRIu32 "\n", h->version, h->alignment);
    else
        fprintf(out, "  format      safetensors\n");
    char f[48];
    if (h->file_size)
        snprintf(f, sizeof f, "file %s bytes", grouped(h->file_size, (char[32]){0}));
    else
        snprintf(f, sizeof f, "file size unknown (stream not read to its end)");
    /* the tensors' extent (where the last one ends) and, for GGUF, the size
     * with every tensor padded to the alignment, which may reach past the
     * end of a valid file whose last tensor is not padded */
    uint64_t extent = data_extent(h);
    fprintf(out, "  header      %s bytes%s; data %s bytes at offset %s", grouped(h->header_size, a),
            h->format == TFS_FORMAT_SAFETENSORS ? " of JSON" : "", grouped(extent, b), grouped(h->data_offset, c));
    if (extent != h->data_size) fprintf(out, " (%s padded)", grouped(h->data_size, b));
    fprintf(out, "; %s\n", f);
    uint64_t at, tail = tfs_unowned_tail(h, &at);
    if (tail)
        fprintf(out, "  unowned     %s bytes after the data section, from offset %s: no tensor owns them (LT113)\n",
                grouped(tail, a), grouped(at, b));
    type_hist th;
    hist_build(h, &th);
    print_types(out, h, &th);
    int mlx = 0;
    uint64_t params = th.params_saturated ? th.params : model_params(file, h, th.params, &mlx);
    fprintf(out, "  parameters  %s%s%s%s\n", th.params_saturated ? ">= " : "", grouped(params, a),
            short_count(params, b), mlx ? "; MLX packed weights counted as the values they hold" : "");
    print_metadata(out, h);
}

void print_human(FILE *out, const check_result *r) {
    fput_safe(out, r->file, strlen(r->file));
    fprintf(out, ": %s", verdict_name(r->verdict));
    if (r->flags && r->verdict != V_NOT_MODEL) fprintf(out, " (%s)", profile_name(r->flags));
    fputc('\n', out);
    switch (r->verdict) {
    case V_VALID: print_valid(out, r->file, r->h); break;
    case V_NOT_MODEL:
        fprintf(out, "  looks like  %s\n", r->not_model);
        fprintf(out, "  note        neither GGUF nor safetensors, and no .gguf / .safetensors name;\n" INDENT
                     "not parsed (--format safetensors|gguf parses it anyway)\n");
        break;
    case V_PARSER_ERROR: {
        char a[32];
        fprintf(out, "  format      %s\n", tfs_format_name(r->format));
        fprintf(out, "  rule        %s (%s) at byte offset %s", tfs_rule_id(r->err.rule),
                tfs_rule_category(r->err.rule), grouped(r->err.offset, a));
        if (r->err.index >= 0) fprintf(out, ", %s %" PRId64, index_kind(r->err.rule), r->err.index);
        fprintf(out, "\n  message     %s\n", r->err.message ? r->err.message : tfs_rule_message(r->err.rule));
        if (r->detail[0]) fprintf(out, "  detail      %s\n", r->detail);
        if (r->hint) fprintf(out, "  looks like  %s\n", r->hint);
        break;
    }
    case V_IO_ERROR: fprintf(out, "  error       %s\n", io_error_text(r->sys_errno)); break;
    case V_INTERNAL:
        fprintf(out, "  error       %s\n", r->status == TFS_ENOMEM ? "out of memory" : tfs_status_name(r->status));
        break;
    }
    if (r->header_only_ignored)
        fprintf(out, "  note        --header-only applies to GGUF only; every safetensors rule was checked\n");
    if (r->lint) {
        fprintf(out, "  lint        %zu error%s, %zu warning%s\n", r->lint->n_errors, r->lint->n_errors == 1 ? "" : "s",
                r->lint->n_warnings, r->lint->n_warnings == 1 ? "" : "s");
        lint_print_human(out, r->lint);
        if (r->lint_unchecked)
            fprintf(
                out,
                "  lint note   %s not checked: it reads the padding bytes again, and a stream cannot be read again\n",
                r->lint_unchecked);
    } else if (r->lint_error) {
        fprintf(out, "  lint        not run: %s\n", r->lint_error);
    }
}
