/* manifest.c: TSV and fixture-manifest reading (manifest.h). */
#include "manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* Split a line (modified in place) at tabs into a fresh array of copies. */
static char **split_fields(char *line, size_t *nf) {
    size_t n = 1;
    for (char *p = line; *p; p++) n += *p == '\t';
    char **f = calloc(n, sizeof *f);
    if (!f) return NULL;
    char *p = line;
    for (size_t i = 0; i < n; i++) {
        char *tab = strchr(p, '\t');
        if (tab) *tab = '\0';
        f[i] = xstrdup(p);
        if (!f[i]) {
            while (i--) free(f[i]);
            free(f);
            return NULL;
        }
        p = tab ? tab + 1 : p + strlen(p);
    }
    *nf = n;
    return f;
}

static void free_fields(char **f, size_t n) {
    if (!f) return;
    for (size_t i = 0; i < n; i++) free(f[i]);
    free(f);
}

/* Read one whole line (any length) into *buf; returns its length, -1 at EOF. */
static long read_line(FILE *f, char **buf, size_t *cap) {
    size_t len = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        if (len + 2 > *cap) {
            size_t nc = *cap ? *cap * 2 : 256;
            char *nb = realloc(*buf, nc);
            if (!nb) return -2;
            *buf = nb;
            *cap = nc;
        }
        if (c == '\n') break;
        (*buf)[len++] = (char)c;
    }
    if (c == EOF && len == 0) return -1;
    while (len && (*buf)[len - 1] == '\r') len--;
    (*buf)[len] = '\0';
    return (long)len;
}

int cf_tsv_read(const char *path, cf_tsv *out, char *err, size_t n) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, n, "%s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    char *buf = NULL;
    size_t cap = 0, rows_cap = 0;
    int lineno = 0, rc = -1;
    long len;
    out->path = xstrdup(path);
    while ((len = read_line(f, &buf, &cap)) >= 0) {
        lineno++;
        if (len == 0 || buf[0] == '#') continue;
        size_t nf;
        char **fields = split_fields(buf, &nf);
        if (!fields) {
            snprintf(err, n, "%s: out of memory", path);
            goto done;
        }
        if (!out->cols) {
            out->cols = fields;
            out->n_cols = nf;
            continue;
        }
        if (nf != out->n_cols) {
            snprintf(err, n, "%s:%d: %zu fields, the header has %zu", path, lineno, nf, out->n_cols);
            free_fields(fields, nf);
            goto done;
        }
        if (out->n_rows == rows_cap) {
            size_t nc = rows_cap ? rows_cap * 2 : 64;
            char ***nr = realloc(out->rows, nc * sizeof *nr);
            int *nl = realloc(out->linenos, nc * sizeof *nl);
            if (nr) out->rows = nr;
            if (nl) out->linenos = nl;
            if (!nr || !nl) {
                free_fields(fields, nf);
                snprintf(err, n, "%s: out of memory", path);
                goto done;
            }
            rows_cap = nc;
        }
        out->linenos[out->n_rows] = lineno;
        out->rows[out->n_rows++] = fields;
    }
    if (len == -2) {
        snprintf(err, n, "%s: out of memory", path);
        goto done;
    }
    if (ferror(f)) {
        snprintf(err, n, "%s: read error", path);
        goto done;
    }
    if (!out->cols) {
        snprintf(err, n, "%s: no header row", path);
        goto done;
    }
    rc = 0;
done:
    free(buf);
    fclose(f);
    if (rc != 0) cf_tsv_free(out);
    return rc;
}

int cf_tsv_col(const cf_tsv *t, const char *name) {
    for (size_t i = 0; i < t->n_cols; i++)
        if (strcmp(t->cols[i], name) == 0) return (int)i;
    return -1;
}

void cf_tsv_free(cf_tsv *t) {
    for (size_t i = 0; i < t->n_rows; i++) free_fields(t->rows[i], t->n_cols);
    free(t->rows);
    free(t->linenos);
    free_fields(t->cols, t->n_cols);
    free(t->path);
    memset(t, 0, sizeof *t);
}

int cf_in_alternatives(const char *word, const char *list) {
    size_t n = strlen(word);
    const char *p = list;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        if (!bar) return 0;
        p = bar + 1;
    }
}

static int one_of(const char *s, const char *const *set) {
    for (; *set; set++)
        if (strcmp(s, *set) == 0) return 1;
    return 0;
}

static int is_sha256(const char *s) {
    size_t i = 0;
    for (; s[i]; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return i == 64;
}

int cf_parse_u64(const char *s, uint64_t *v) {
    if (!*s) return -1;
    uint64_t x = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) return -1;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 0;
}

int cf_manifest_read(const char *path, cf_manifest *m, char *err, size_t n) {
    memset(m, 0, sizeof *m);
    if (cf_tsv_read(path, &m->tsv, err, n) != 0) return -1;
    static const char *const need[] = {"id", "path", "sha256", "size", "format", "expect", "rule", "category", "mode"};
    int idx[9];
    for (int i = 0; i < 9; i++) {
        idx[i] = cf_tsv_col(&m->tsv, need[i]);
        if (idx[i] < 0) {
            snprintf(err, n, "%s: no column '%s'", path, need[i]);
            cf_manifest_free(m);
            return -1;
        }
    }
    int i_desc = cf_tsv_col(&m->tsv, "description"), i_prov = cf_tsv_col(&m->tsv, "provenance");
    int i_off = cf_tsv_col(&m->tsv, "offset"), i_index = cf_tsv_col(&m->tsv, "index");
    /* the folder: everything before the last '/' */
    m->folder = xstrdup(path);
    if (!m->folder) goto oom;
    char *slash = strrchr(m->folder, '/');
    if (slash && slash != m->folder)
        *slash = '\0';
    else if (slash)
        slash[1] = '\0';
    else
        strcpy(m->folder, ".");
    const char *base = strrchr(m->folder, '/');
    m->folder_name = xstrdup(base && base[1] ? base + 1 : m->folder);
    if (!m->folder_name) goto oom;
    m->lines = calloc(m->tsv.n_rows ? m->tsv.n_rows : 1, sizeof *m->lines);
    if (!m->lines) goto oom;
    static const char *const formats[] = {"safetensors", "gguf", NULL};
    static const char *const expects[] = {"valid", "parser_error", "implementation_defined", NULL};
    static const char *const modes[] = {"default", "strict", "header-only", NULL};
    for (size_t r = 0; r < m->tsv.n_rows; r++) {
        char **row = m->tsv.rows[r];
        cf_line *l = &m->lines[m->n];
        l->id = row[idx[0]];
        l->relpath = row[idx[1]];
        l->sha256 = row[idx[2]];
        l->format = row[idx[4]];
        l->expect = row[idx[5]];
        l->rule = row[idx[6]];
        l->category = row[idx[7]];
        l->mode = row[idx[8]];
        l->description = i_desc >= 0 ? row[i_desc] : "";
        l->provenance = i_prov >= 0 ? row[i_prov] : "";
        l->folder = m->folder;
        l->folder_name = m->folder_name;
        l->manifest = m->tsv.path;
        l->lineno = m->tsv.linenos[r];
        const char *bad = NULL, *off = i_off >= 0 ? row[i_off] : "";
        l->has_offset = *off && strcmp(off, "-") != 0;
        const char *ix = i_index >= 0 ? row[i_index] : "";
        l->has_index = *ix && strcmp(ix, "-") != 0;
        uint64_t ixv = 0;
        if (!*l->id)
            bad = "empty id";
        else if (!*l->relpath || l->relpath[0] == '/')
            bad = "path empty or absolute";
        else if (!is_sha256(l->sha256))
            bad = "sha256 is not 64 lowercase hex digits";
        else if (cf_parse_u64(row[idx[3]], &l->size) != 0)
            bad = "size is not a decimal number";
        else if (!one_of(l->format, formats))
            bad = "format is not safetensors or gguf";
        else if (!one_of(l->expect, expects))
            bad = "expect is not valid, parser_error or implementation_defined";
        else if (!one_of(l->mode, modes))
            bad = "mode is not default, strict or header-only";
        else if (!*l->rule || !*l->category)
            bad = "empty rule or category (use -)";
        else if (l->has_offset && cf_parse_u64(off, &l->offset) != 0)
            bad = "offset is not a decimal number (empty or - for none)";
        else if (l->has_offset && strcmp(l->expect, "valid") == 0)
            bad = "offset given on a valid line";
        else if (l->has_index && strcmp(ix, "-1") != 0 && (cf_parse_u64(ix, &ixv) != 0 || ixv > (uint64_t)INT64_MAX))
            bad = "index is not -1 or a decimal record index (empty or - for none)";
        else if (l->has_index && strcmp(l->expect, "valid") == 0)
            bad = "index given on a valid line";
        if (!bad && l->has_index) l->index = strcmp(ix, "-1") == 0 ? -1 : (int64_t)ixv;
        for (size_t k = 0; !bad && k < m->n; k++)
            if (strcmp(m->lines[k].id, l->id) == 0) bad = "duplicate id";
        if (bad) {
            snprintf(err, n, "%s:%d: %s", path, l->lineno, bad);
            cf_manifest_free(m);
            return -1;
        }
        size_t plen = strlen(m->folder) + 1 + strlen(l->relpath) + 1;
        l->path = malloc(plen);
        if (!l->path) goto oom;
        snprintf(l->path, plen, "%s/%s", m->folder, l->relpath);
        m->n++;
    }
    return 0;
oom:
    snprintf(err, n, "%s: out of memory", path);
    cf_manifest_free(m);
    return -1;
}

void cf_manifest_free(cf_manifest *m) {
    for (size_t i = 0; i < m->n; i++) free(m->lines[i].path);
    free(m->lines);
    free(m->folder);
    free(m->folder_name);
    cf_tsv_free(&m->tsv);
    memset(m, 0, sizeof *m);
}
