/* xfail.c: expected-failures files (docs/conform.md).
 *
 * One fixture id per line, optionally followed by a TAB (or spaces) and the
 * expected result (false_reject, crash, ...); '#' starts a comment; blank
 * lines are ignored.  Strict: a listed case that does not fail, a failure
 * not listed, an entry naming no fixture of the suite, or a listed result
 * that differs from the one seen fails the run. */
#include <stdlib.h>
#include <string.h>

#include "conform.h"

void cf_xfail_free(cf_xfail *x) {
    for (size_t i = 0; i < x->n; i++) free(x->e[i].id);
    free(x->e);
    memset(x, 0, sizeof *x);
}

int cf_xfail_read(const char *path, cf_xfail *x, char *err, size_t n) {
    memset(x, 0, sizeof *x);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, n, "expected-failures file %s: cannot open", path);
        return -1;
    }
    char line[4096];
    int lineno = 0;
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *tok = strtok(line, " \t\r\n");
        if (!tok) continue;
        char *res = strtok(NULL, " \t\r\n");
        char *extra = res ? strtok(NULL, " \t\r\n") : NULL;
        int r = -1;
        if (res && ((r = cf_result_from_name(res)) < 0 || !cf_result_is_failure((cf_result)r))) {
            snprintf(
                err, n,
                "%s:%d: '%s' is not a failing result (false_accept, false_reject, wrong_rule, misread, crash, timeout)",
                path, lineno, res);
            goto fail;
        }
        if (extra) {
            snprintf(err, n, "%s:%d: extra text after the result", path, lineno);
            goto fail;
        }
        for (size_t i = 0; i < x->n; i++)
            if (strcmp(x->e[i].id, tok) == 0) {
                snprintf(err, n, "%s:%d: %s listed twice", path, lineno, tok);
                goto fail;
            }
        if (x->n == cap) {
            cap = cap ? cap * 2 : 16;
            cf_xfail_entry *ne = realloc(x->e, cap * sizeof *ne);
            if (!ne) goto oom;
            x->e = ne;
        }
        cf_xfail_entry *e = &x->e[x->n];
        memset(e, 0, sizeof *e);
        if (!(e->id = strdup(tok))) goto oom;
        e->result = r;
        e->lineno = lineno;
        x->n++;
    }
    fclose(f);
    return 0;
oom:
    snprintf(err, n, "out of memory");
fail:
    fclose(f);
    cf_xfail_free(x);
    return -1;
}

static int add_msg(char ***msgs, size_t *n, const char *text) {
    char **nm = realloc(*msgs, (*n + 1) * sizeof *nm);
    if (!nm) return -1;
    *msgs = nm;
    if (!(nm[*n] = strdup(text))) return -1;
    ++*n;
    return 0;
}

void cf_xfail_apply(cf_xfail *x, const cf_suite *s, cf_case *cases, size_t n, FILE *out, size_t *problems,
                    char ***messages, size_t *n_messages) {
    char msg[700];
    for (size_t i = 0; i < x->n; i++) {
        cf_xfail_entry *e = &x->e[i];
        for (size_t m = 0; m < s->n_manifests && !e->used; m++)
            for (size_t k = 0; k < s->manifests[m].n; k++)
                if (strcmp(s->manifests[m].lines[k].id, e->id) == 0) {
                    e->used = 1;
                    break;
                }
        if (!e->used) {
            snprintf(msg, sizeof msg, "expected failure %s (line %d) names no fixture of the suite", e->id, e->lineno);
            if (out) fprintf(out, "ERROR: %s\n", msg);
            add_msg(messages, n_messages, msg);
            ++*problems;
        }
    }
    for (size_t i = 0; i < n; i++) {
        cf_case *c = &cases[i];
        if (!c->done) continue;
        const cf_xfail_entry *e = NULL;
        for (size_t k = 0; k < x->n && !e; k++)
            if (strcmp(x->e[k].id, c->line->id) == 0) e = &x->e[k];
        if (!e) continue;
        c->xfail_listed = 1;
        if (cf_result_is_failure(c->result)) {
            if (e->result >= 0 && (cf_result)e->result != c->result) {
                snprintf(msg, sizeof msg, "%s is listed as %s but gave %s", c->line->id,
                         cf_result_name((cf_result)e->result), cf_result_name(c->result));
                if (out) fprintf(out, "ERROR: %s\n", msg);
                add_msg(messages, n_messages, msg);
                ++*problems;
            } else {
                c->xfail_of = c->result;
                c->result = CF_XFAIL;
            }
        } else if (c->result == CF_PASS) {
            snprintf(msg, sizeof msg, "%s is listed as an expected failure but passed: remove it from the file",
                     c->line->id);
            if (out) fprintf(out, "ERROR: %s\n", msg);
            add_msg(messages, n_messages, msg);
            ++*problems;
        }
    }
}

static int cmp_ids(const void *a, const void *b) {
    const cf_case *x = *(const cf_case *const *)a, *y = *(const cf_case *const *)b;
    return strcmp(x->line->id, y->line->id);
}

int cf_xfail_write(const char *path, const cf_case *cases, size_t n, char *err, size_t en) {
    const cf_case **f = calloc(n ? n : 1, sizeof *f);
    if (!f) {
        snprintf(err, en, "out of memory");
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (cases[i].done && (cf_result_is_failure(cases[i].result) || cases[i].result == CF_XFAIL)) f[k++] = &cases[i];
    qsort(f, k, sizeof *f, cmp_ids);
    FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!out) {
        snprintf(err, en, "%s: cannot write", path);
        free(f);
        return -1;
    }
    fprintf(out, "# expected failures written by tfs conform: fixture id<TAB>result\n");
    for (size_t i = 0; i < k; i++) {
        cf_result r = f[i]->result == CF_XFAIL ? f[i]->xfail_of : f[i]->result;
        fprintf(out, "%s\t%s\n", f[i]->line->id, cf_result_name(r));
    }
    int bad = ferror(out);
    if (out != stdout)
        bad |= fclose(out) != 0;
    else
        bad |= fflush(out) != 0;
    free(f);
    if (bad) snprintf(err, en, "%s: write error", path);
    return bad ? -1 : 0;
}
