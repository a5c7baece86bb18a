/* catmap.c: category maps (docs/conform.md "Category maps"): a reader that
 * only prints messages gets a category (or a rule id) from the first regular
 * expression that matches its JSON "message", else its standard error.
 *
 * File: one entry a line, `CATEGORY<TAB>REGEX` (POSIX extended, case
 * sensitive; the rest of the line after the first TAB run is the regex);
 * CATEGORY may be a rule id (GG204, ST101) instead.  Blank lines and lines
 * starting with '#' are ignored.  Entries are tried in file order. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

struct cf_catmap {
    struct entry {
        char *value;
        int is_rule;
        regex_t re;
    } * e;
    size_t n;
};

static int looks_like_rule(const char *s) {
    return (strncmp(s, "GG", 2) == 0 || strncmp(s, "ST", 2) == 0) && strlen(s) == 5 && strspn(s + 2, "0123456789") == 3;
}

cf_catmap *cf_catmap_read(const char *path, char *err, size_t n) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, n, "--category-map %s: cannot read", path);
        return NULL;
    }
    cf_catmap *m = calloc(1, sizeof *m);
    char line[4096];
    int lineno = 0;
    while (m && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#') continue;
        char *tab = strchr(line, '\t');
        if (!tab || tab == line) {
            snprintf(err, n, "--category-map %s:%d: want CATEGORY<TAB>REGEX", path, lineno);
            goto fail;
        }
        *tab++ = '\0';
        while (*tab == '\t') tab++;
        struct entry *ne = realloc(m->e, (m->n + 1) * sizeof *ne);
        if (!ne) goto oom;
        m->e = ne;
        struct entry *x = &m->e[m->n];
        int rc = regcomp(&x->re, tab, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[200];
            regerror(rc, &x->re, msg, sizeof msg);
            snprintf(err, n, "--category-map %s:%d: bad regular expression: %s", path, lineno, msg);
            goto fail;
        }
        if (!(x->value = strdup(line))) {
            regfree(&x->re);
            goto oom;
        }
        x->is_rule = looks_like_rule(line);
        m->n++;
    }
    fclose(f);
    if (!m) snprintf(err, n, "out of memory");
    return m;
oom:
    snprintf(err, n, "out of memory");
fail:
    fclose(f);
    cf_catmap_free(m);
    return NULL;
}

void cf_catmap_free(cf_catmap *m) {
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) {
        regfree(&m->e[i].re);
        free(m->e[i].value);
    }
    free(m->e);
    free(m);
}

const char *cf_catmap_match(const cf_catmap *m, const char *text, int *is_rule) {
    if (!m || !text) return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (regexec(&m->e[i].re, text, 0, NULL, 0) == 0) {
            *is_rule = m->e[i].is_rule;
            return m->e[i].value;
        }
    return NULL;
}
