/* select.c: fixtures -> cases (profiles, filters, tags; docs/conform.md). */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conform.h"

static const char *const profile_names[CF_PROF_COUNT] = {"default", "strict", "header-only"};

const char *cf_profile_name(cf_profile p) { return (unsigned)p < CF_PROF_COUNT ? profile_names[p] : "?"; }

int cf_profile_from_name(const char *s) {
    for (int i = 0; i < CF_PROF_COUNT; i++)
        if (strcmp(s, profile_names[i]) == 0) return i;
    return -1;
}

static int is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Append the MANIFEST.tsv paths of one fixtures folder (itself, or its
 * direct subfolders sorted) to *paths.  0 ok; -1 with message. */
static int folder_manifests(const char *dir, char ***paths, size_t *np, size_t *cap, char *err, size_t n) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/MANIFEST.tsv", dir);
    size_t first = *np;
    if (is_file(buf)) {
        if (*np == *cap) {
            size_t c2 = *cap ? *cap * 2 : 8;
            char **p2 = realloc(*paths, c2 * sizeof **paths);
            if (!p2) {
                snprintf(err, n, "out of memory");
                return -1;
            }
            *paths = p2;
            *cap = c2;
        }
        if (!((*paths)[*np] = strdup(buf))) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        (*np)++;
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, n, "fixtures folder %s: %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(buf, sizeof buf, "%s/%s/MANIFEST.tsv", dir, e->d_name);
        if (!is_file(buf)) continue;
        if (*np == *cap) {
            size_t c2 = *cap ? *cap * 2 : 8;
            char **p2 = realloc(*paths, c2 * sizeof **paths);
            if (!p2) {
                rc = -1;
                break;
            }
            *paths = p2;
            *cap = c2;
        }
        if (!((*paths)[*np] = strdup(buf))) {
            rc = -1;
            break;
        }
        (*np)++;
    }
    closedir(d);
    if (rc) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    qsort(*paths + first, *np - first, sizeof **paths, cmp_str);
    if (*np == first) {
        snprintf(err, n, "fixtures folder %s: no MANIFEST.tsv in it or its direct subfolders", dir);
        return -1;
    }
    return 0;
}

int cf_suite_load(cf_suite *s, const char *const *dirs, int n_dirs, char *err, size_t n) {
    memset(s, 0, sizeof *s);
    /* s->dir: the first folder (its VERSION names the suite); s->dirs: all, for messages */
    size_t total = 1;
    for (int k = 0; k < n_dirs; k++) total += strlen(dirs[k]) + 2;
    s->dirs = malloc(total);
    if (!s->dirs) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    s->dirs[0] = '\0';
    char **paths = NULL;
    size_t np = 0, cap = 0;
    int rc = 0;
    for (int k = 0; k < n_dirs && rc == 0; k++) {
        size_t dl = strlen(dirs[k]);
        while (dl > 1 && dirs[k][dl - 1] == '/') dl--;
        char *d = strndup(dirs[k], dl);
        if (!d) {
            snprintf(err, n, "out of memory");
            rc = -1;
            break;
        }
        if (k) strcat(s->dirs, ", ");
        strcat(s->dirs, d);
        rc = folder_manifests(d, &paths, &np, &cap, err, n);
        if (k == 0)
            s->dir = d;
        else
            free(d);
    }
    if (rc) {
        for (size_t i = 0; i < np; i++) free(paths[i]);
        free(paths);
        cf_suite_free(s);
        return -1;
    }
    s->manifests = calloc(np, sizeof *s->manifests);
    rc = s->manifests ? 0 : -1;
    if (rc) snprintf(err, n, "out of memory");
    for (size_t i = 0; i < np; i++) {
        if (rc == 0 && cf_manifest_read(paths[i], &s->manifests[i], err, n) != 0)
            rc = -1;
        else if (rc == 0)
            s->n_manifests++;
        free(paths[i]);
    }
    free(paths);
    /* ids are unique across the suite: reports and expected-failures files name cases by id */
    for (size_t a = 0; rc == 0 && a < s->n_manifests; a++)
        for (size_t b = a + 1; rc == 0 && b < s->n_manifests; b++)
            for (size_t i = 0; rc == 0 && i < s->manifests[a].n; i++)
                for (size_t j = 0; j < s->manifests[b].n; j++)
                    if (strcmp(s->manifests[a].lines[i].id, s->manifests[b].lines[j].id) == 0) {
                        snprintf(err, n, "fixture id %s in both %s and %s", s->manifests[a].lines[i].id,
                                 s->manifests[a].tsv.path, s->manifests[b].tsv.path);
                        rc = -1;
                        break;
                    }
    if (rc) cf_suite_free(s);
    return rc;
}

void cf_suite_free(cf_suite *s) {
    for (size_t i = 0; i < s->n_manifests; i++) cf_manifest_free(&s->manifests[i]);
    free(s->manifests);
    for (size_t i = 0; i < (s->n_selected > s->n_cases ? s->n_selected : s->n_cases); i++) {
        free(s->cases[i].expected_content);
        free(s->cases[i].stderr_text);
    }
    free(s->cases);
    free(s->dir);
    free(s->dirs);
    memset(s, 0, sizeof *s);
}

/* "GG204" -> family "GG2xx"; 0 if `id` is not a rule id (2 letters, 3 digits). */
static int family_of(const char *id, size_t len, char out[6]) {
    if (len != 5 || id[0] < 'A' || id[0] > 'Z' || id[1] < 'A' || id[1] > 'Z') return 0;
    for (int i = 2; i < 5; i++)
        if (id[i] < '0' || id[i] > '9') return 0;
    memcpy(out, id, 3);
    out[3] = out[4] = 'x';
    out[5] = '\0';
    return 1;
}

void cf_line_family(const cf_line *l, char *out, size_t n) {
    char fam[6];
    size_t len = strcspn(l->rule, "|");
    if (family_of(l->rule, len, fam))
        snprintf(out, n, "%s", fam);
    else
        snprintf(out, n, "%s %s", l->format, strcmp(l->expect, "valid") == 0 ? "valid" : "(no rule)");
}

int cf_rule_matches(const char *arg, const char *list) {
    size_t al = strlen(arg);
    int fam = al == 5 && (arg[3] == 'x' || arg[3] == 'X') && (arg[4] == 'x' || arg[4] == 'X');
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, "|");
        if (fam ? len == 5 && strncmp(p, arg, 3) == 0 : len == al && strncmp(p, arg, al) == 0) return 1;
        if (!p[len]) return 0;
        p += len + 1;
    }
}

/* Provenance kind: the first word ("hand-written", "generated", "real",
 * "minted", ...) up to a space, ':' or ';'. */
static int provenance_has(const char *prov, const char *tag) {
    size_t k = strcspn(prov, " :;,");
    if (k && strlen(tag) == k && strncmp(prov, tag, k) == 0) return 1;
    /* "buglog" anywhere; "buglog-G3" for one row of ../shared/buglog.md */
    const char *b = strstr(prov, "buglog");
    while (b) {
        if (strcmp(tag, "buglog") == 0) return 1;
        const char *row = b + 6;
        while (*row == ' ') row++;
        size_t rl = strcspn(row, " ;,)");
        if (strncmp(tag, "buglog-", 7) == 0 && strlen(tag + 7) == rl && strncmp(tag + 7, row, rl) == 0) return 1;
        b = strstr(row, "buglog");
    }
    return 0;
}

int cf_line_has_tag(const cf_line *l, const char *tag) {
    if (strcmp(tag, l->format) == 0 || strcmp(tag, l->expect) == 0 || strcmp(tag, l->mode) == 0 ||
        strcmp(tag, l->folder_name) == 0)
        return 1;
    if (strcmp(l->rule, "-") != 0 && cf_rule_matches(tag, l->rule)) return 1;
    if (strcmp(l->category, "-") != 0 && cf_in_alternatives(tag, l->category)) return 1;
    return provenance_has(l->provenance, tag);
}

/* What profile p requires of line l, or NULL when the line is not about p:
 *   - a line is about its own mode;
 *   - an implementation_defined line is about every profile: either verdict,
 *     except strict with a rule, where that rule must reject it;
 *   - a default line also stands for strict and header-only when the same
 *     file has no line of that mode (its verdict is the same there). */
static const char *requirement(const cf_manifest *m, const cf_line *l, cf_profile p) {
    const char *pn = cf_profile_name(p);
    if (strcmp(l->expect, "implementation_defined") == 0) {
        if (p == CF_PROF_STRICT && strcmp(l->rule, "-") != 0) return "parser_error";
        return "implementation_defined";
    }
    if (strcmp(l->mode, pn) == 0) return l->expect;
    if (strcmp(l->mode, "default") != 0) return NULL;
    for (size_t i = 0; i < m->n; i++) {
        const cf_line *o = &m->lines[i];
        if (o != l && strcmp(o->relpath, l->relpath) == 0 && strcmp(o->mode, pn) == 0) return NULL;
    }
    return l->expect;
}

static int selected(const cf_line *l, const cf_options *o) {
    if (o->format && strcmp(o->format, l->format) != 0) return 0;
    int ok = o->n_rules == 0;
    for (int i = 0; !ok && i < o->n_rules; i++) ok = strcmp(l->rule, "-") != 0 && cf_rule_matches(o->rules[i], l->rule);
    if (!ok) return 0;
    ok = o->n_expects == 0;
    for (int i = 0; !ok && i < o->n_expects; i++) ok = strcmp(o->expects[i], l->expect) == 0;
    if (!ok) return 0;
    ok = o->n_ids == 0;
    for (int i = 0; !ok && i < o->n_ids; i++) ok = fnmatch(o->ids[i], l->id, 0) == 0;
    if (!ok) return 0;
    ok = o->n_tags == 0;
    for (int i = 0; !ok && i < o->n_tags; i++) ok = cf_line_has_tag(l, o->tags[i]);
    return ok;
}

int cf_suite_select(cf_suite *s, const cf_options *o, char *err, size_t n) {
    size_t total = 0;
    for (size_t m = 0; m < s->n_manifests; m++) total += s->manifests[m].n;
    s->cases = calloc(total ? total : 1, sizeof *s->cases);
    if (!s->cases) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    for (size_t m = 0; m < s->n_manifests; m++) {
        const cf_manifest *mf = &s->manifests[m];
        for (size_t i = 0; i < mf->n; i++) {
            const cf_line *l = &mf->lines[i];
            if (!selected(l, o)) continue;
            cf_profile p;
            const char *req;
            if (o->profile < 0) { /* the line's own mode */
                p = (cf_profile)cf_profile_from_name(l->mode);
                req = requirement(mf, l, p);
            } else {
                p = (cf_profile)o->profile;
                req = requirement(mf, l, p);
            }
            if (!req) continue;
            cf_case *c = &s->cases[s->n_cases++];
            c->line = l;
            c->profile = p;
            c->expect = req;
            if (strcmp(req, "valid") == 0) {
                size_t len = strlen(mf->folder) + strlen(l->id) + 32;
                char *path = malloc(len);
                if (!path) {
                    snprintf(err, n, "out of memory");
                    return -1;
                }
                snprintf(path, len, "%s/expected/%s.json", mf->folder, l->id);
                if (is_file(path))
                    c->expected_content = path;
                else
                    free(path);
            }
        }
    }
    s->n_selected = s->n_cases;
    if (o->shard_n > 1) { /* --shard K/N: case i runs when i % N == K - 1; the shard first, in order */
        cf_case *sorted = calloc(s->n_cases ? s->n_cases : 1, sizeof *sorted);
        if (!sorted) {
            snprintf(err, n, "out of memory");
            return -1;
        }
        /* the shard's size, i = K - 1, K - 1 + N, ... below n_cases: where the others start */
        size_t kept = 0, other = (s->n_cases + o->shard_n - o->shard_k) / o->shard_n;
        for (size_t i = 0; i < s->n_cases; i++)
            sorted[i % o->shard_n == o->shard_k - 1u ? kept++ : other++] = s->cases[i];
        free(s->cases);
        s->cases = sorted;
        s->n_cases = kept;
    }
    return 0;
}
