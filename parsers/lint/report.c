/* report.c: the lint rules table (include/tfs/lint.def) and the one way
 * findings enter a report. */
#include "lint_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lint_row {
    tfs_lint_rule rule;
    const char *id, *scope, *message;
    tfs_lint_severity severity;
} lint_row;

#define ERROR TFS_LINT_ERROR
#define WARNING TFS_LINT_WARNING
static const lint_row rows[] = {
#define TFS_LINT(id, code, severity, scope, message) {TFS_##id, #id, #scope, message, severity},
#include "tfs/lint.def"
#undef TFS_LINT
};
#undef ERROR
#undef WARNING
#define N_ROWS (sizeof rows / sizeof rows[0])

static const lint_row *row_of(tfs_lint_rule rule) {
    for (size_t i = 0; i < N_ROWS; i++)
        if (rows[i].rule == rule) return &rows[i];
    return NULL;
}

const char *tfs_lint_id(tfs_lint_rule rule) {
    const lint_row *r = row_of(rule);
    return r ? r->id : rule == TFS_LINT_NONE ? "" : "?";
}
const char *tfs_lint_message(tfs_lint_rule rule) {
    const lint_row *r = row_of(rule);
    return r ? r->message : "";
}
const char *tfs_lint_scope(tfs_lint_rule rule) {
    const lint_row *r = row_of(rule);
    return r ? r->scope : "";
}
tfs_lint_severity tfs_lint_severity_of(tfs_lint_rule rule) {
    const lint_row *r = row_of(rule);
    return r ? r->severity : (tfs_lint_severity)0;
}
const char *tfs_lint_severity_name(tfs_lint_severity s) {
    return s == TFS_LINT_ERROR ? "error" : s == TFS_LINT_WARNING ? "warning" : "?";
}
tfs_lint_rule tfs_lint_from_id(const char *id) {
    if (!id) return TFS_LINT_NONE;
    for (size_t i = 0; i < N_ROWS; i++)
        if (strcmp(rows[i].id, id) == 0) return rows[i].rule;
    return TFS_LINT_NONE;
}
size_t tfs_lint_count(void) { return N_ROWS; }
tfs_lint_rule tfs_lint_at(size_t i) { return i < N_ROWS ? rows[i].rule : TFS_LINT_NONE; }

void tfs_lint_report_init(tfs_lint_report *r) {
    if (r) memset(r, 0, sizeof *r);
}

void tfs_lint_report_free(tfs_lint_report *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n_findings; i++) {
        free(r->findings[i].text);
        free(r->findings[i].tensor_name);
    }
    for (size_t i = 0; i < r->n_files; i++) free(r->files[i].path);
    free(r->findings);
    free(r->files);
    memset(r, 0, sizeof *r);
}

#define TEXT_MAX 1024u

tfs_status tfs__lint_add(tfs_lint_report *r, tfs_lint_rule rule, int part, int64_t tensor, int64_t kv, const char *fmt,
                         ...) {
    if (r->n_findings == r->cap_findings_) {
        size_t cap = r->cap_findings_ ? r->cap_findings_ * 2u : 16u;
        tfs_lint_finding *v = realloc(r->findings, cap * sizeof *v);
        if (!v) return TFS_ENOMEM;
        r->findings = v;
        r->cap_findings_ = cap;
    }
    char *text = malloc(TEXT_MAX);
    if (!text) return TFS_ENOMEM;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, TEXT_MAX, fmt, ap);
    va_end(ap);
    tfs_lint_finding *f = &r->findings[r->n_findings++];
    f->rule = rule;
    f->severity = tfs_lint_severity_of(rule);
    f->part = part;
    f->tensor = tensor;
    f->kv = kv;
    f->text = text;
    f->tensor_name = NULL;
    f->tensor_name_len = 0;
    if (f->severity == TFS_LINT_ERROR)
        r->n_errors++;
    else
        r->n_warnings++;
    return TFS_OK;
}

tfs_status tfs__lint_name_tensors(tfs_lint_report *r, size_t from, const tfs_header *const *hs, size_t n) {
    for (size_t i = from; i < r->n_findings; i++) {
        tfs_lint_finding *f = &r->findings[i];
        if (f->tensor_name || f->tensor < 0 || f->part < 0 || (size_t)f->part >= n || !hs[f->part] ||
            (uint64_t)f->tensor >= hs[f->part]->n_tensors)
            continue;
        const tfs_str *nm = &hs[f->part]->tensors[f->tensor].name;
        char *p = malloc(nm->len + 1u);
        if (!p) return TFS_ENOMEM;
        if (nm->len) memcpy(p, nm->ptr, nm->len);
        p[nm->len] = '\0';
        f->tensor_name = p;
        f->tensor_name_len = nm->len;
    }
    return TFS_OK;
}

int tfs__lint_add_file(tfs_lint_report *r, const char *path) {
    if (r->n_files == r->cap_files_) {
        size_t cap = r->cap_files_ ? r->cap_files_ * 2u : 8u;
        tfs_lint_file *v = realloc(r->files, cap * sizeof *v);
        if (!v) return -1;
        r->files = v;
        r->cap_files_ = cap;
    }
    size_t len = strlen(path);
    char *p = malloc(len + 1u);
    if (!p) return -1;
    memcpy(p, path, len + 1u);
    tfs_lint_file *f = &r->files[r->n_files];
    memset(f, 0, sizeof *f);
    f->path = p;
    f->err.index = -1;
    return (int)r->n_files++;
}

void tfs__lint_shape(char *buf, size_t cap, const uint64_t *shape, uint32_t n) {
    size_t used = 0;
    if (cap == 0) return;
    buf[0] = '\0';
    int k = snprintf(buf, cap, "[");
    if (k > 0) used = (size_t)k;
    for (uint32_t i = 0; i < n && used < cap; i++) {
        k = snprintf(buf + used, cap - used, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
        if (k < 0) return;
        used += (size_t)k;
    }
    if (used < cap) snprintf(buf + used, cap - used, "]");
}
