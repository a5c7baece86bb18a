/* lint_conform.c: `tfs conform --lint`: the lint and model-set cases of
 * corpus/lint/LINT.tsv (docs/lint.md "Fixtures") run through our library or
 * any reader's adapter.  Separate from the format runner
 * (conformance/runner), whose manifests hold one file per verdict; it uses
 * only the runner's TSV reader and SHA-256 (manifest.h).
 *
 * Adapter protocol for lint: the command gets the case's path (a model
 * file, or the entry of a set: an index or a first GGUF split) and prints as
 * its first stdout line a JSON object with "lint": ["LT205", ...], the rule
 * ids it finds (any order, repeats allowed).  Exit 77 = unsupported (skip);
 * no such line = a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

#ifdef TFS_HAVE_CONFORM
#include <sys/wait.h>

#include "conform.h"
#include "manifest.h"

#define IDS_MAX 1024u

/* Sorted unique ids, joined by ',' ("none" when empty), into out. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static void join_ids(char **ids, size_t n, char *out, size_t cap) {
    qsort(ids, n, sizeof *ids, cmp_str);
    size_t o = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i && strcmp(ids[i], ids[i - 1]) == 0) continue;
        int k = snprintf(out + o, cap - o, "%s%s", o ? "," : "", ids[i]);
        if (k < 0 || (size_t)k >= cap - o) break;
        o += (size_t)k;
    }
    if (o == 0) snprintf(out, cap, "none");
}

/* Our library: the ids of one case. */
static int ids_inproc(const char *path, const char *kind, char *out, size_t cap) {
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    tfs_status st;
    if (strcmp(kind, "set") == 0) {
        st = tfs_set_check(path, 0, 1, NULL, &r);
    } else {
        tfs_header *h = NULL;
        tfs_error e;
        st = tfs_parse_file(path, TFS_FORMAT_UNKNOWN, 0, &h, &e);
        if (st == TFS_OK) st = tfs_lint_path(path, h, NULL, &r);
        tfs_header_free(h);
    }
    char *ids[IDS_MAX];
    size_t n = 0;
    for (size_t i = 0; i < r.n_findings && n < IDS_MAX; i++) ids[n++] = (char *)tfs_lint_id(r.findings[i].rule);
    if (st == TFS_OK) join_ids(ids, n, out, cap);
    tfs_lint_report_free(&r);
    return st == TFS_OK ? 0 : -1;
}

/* An adapter: `cmd` with {file} replaced by the quoted path (or the path
 * appended), run by /bin/sh; the ids of its first line's "lint" array.
 * 0 ok, 77 skip, -1 failure (why in out). */
static int ids_adapter(const char *cmd, const char *path, char *out, size_t cap) {
    char q[4200], line[8192], full[8192];
    size_t k = 0;
    q[k++] = '\'';
    for (const char *p = path; *p && k < sizeof q - 6; p++) {
        if (*p == '\'') {
            memcpy(q + k, "'\\''", 4);
            k += 4;
        } else {
            q[k++] = *p;
        }
    }
    q[k++] = '\'';
    q[k] = '\0';
    const char *at = strstr(cmd, "{file}");
    if (at)
        snprintf(full, sizeof full, "%.*s%s%s", (int)(at - cmd), cmd, q, at + 6);
    else
        snprintf(full, sizeof full, "%s %s", cmd, q);
    FILE *p = popen(full, "r");
    if (!p) {
        snprintf(out, cap, "cannot run the adapter");
        return -1;
    }
    int got = fgets(line, sizeof line, p) != NULL;
    char drain[512];
    while (fgets(drain, sizeof drain, p)) {}
    int status = pclose(p);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) return 77;
    const char *l = got ? strstr(line, "\"lint\"") : NULL;
    const char *b = l ? strchr(l, '[') : NULL;
    const char *e = b ? strchr(b, ']') : NULL;
    if (!e) {
        snprintf(out, cap, "no {\"lint\": [...]} on the first line (exit %d)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    char *ids[IDS_MAX], buf[8192];
    size_t n = 0, len = (size_t)(e - b);
    memcpy(buf, b, len);
    buf[len] = '\0';
    for (char *s = strchr(buf, '"'); s && n < IDS_MAX; s = strchr(s + 1, '"')) {
        char *end = strchr(s + 1, '"');
        if (!end) break;
        *end = '\0';
        ids[n++] = s + 1;
        s = end;
    }
    join_ids(ids, n, out, cap);
    return 0;
}

/* The options of the format runner that a lint run has no use for: the
 * first one o holds, or NULL.  (--shell is what a lint adapter does anyway:
 * it runs by /bin/sh.) */
static const char *unused_option(const cf_options *o) {
    cf_options d; /* the defaults: no argument parsed */
    cf_parse_options(0, NULL, 0, &d);
    if (o->jobs != d.jobs) return "--jobs";
    if (o->timeout != d.timeout) return "--timeout";
    if (o->format) return "--format";
    if (o->profile >= 0 && !(o->adapter && o->profile == CF_PROF_DEFAULT))
        return "--profile, --strict or --header-only";
    if (o->n_rules || o->n_expects || o->n_ids || o->n_tags) return "--rule, --expect, --id or --tag";
    if (o->expected_failures || o->write_expected_failures) return "--expected-failures";
    if (o->tap || o->junit || o->json) return "--tap, --junit or --json";
    if (o->list) return "--list";
    if (o->want_content) return "--content";
    if (o->category_map) return "--category-map";
    if (o->output_cap != d.output_cap) return "--output-cap";
    if (o->n_fixtures > 1) return "a second --fixtures";
    return NULL;
}

int lint_conform(int argc, char **argv, int first) {
    /* one parser for `tfs conform` with and without --lint (the runner's),
     * on the arguments without --lint */
    char **av = calloc((size_t)argc + 1, sizeof *av);
    if (!av) {
        fprintf(stderr, "tfs conform --lint: out of memory\n");
        return 2;
    }
    int ac = 0;
    for (int i = 0; i < argc; i++)
        if (i < first || strcmp(argv[i], "--lint") != 0) av[ac++] = argv[i];
    cf_options o;
    int prc = cf_parse_options(ac, av, first, &o);
    free(av);
    if (prc == 1) return stdout_done("conform", 0); /* --help */
    if (prc != 0) return 2;
    const char *unused = unused_option(&o);
    if (unused) {
        fprintf(stderr,
                "tfs conform --lint: %s does not apply to the lint cases\n"
                "usage: tfs conform --lint [--fixtures DIR] [--adapter 'CMD {file}'] [-q|--quiet]\n",
                unused);
        return 2;
    }
    const char *dir = o.n_fixtures ? o.fixtures[0] : "corpus/lint", *adapter = o.adapter;
    int quiet = o.quiet != 0;
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/LINT.tsv", dir);
    cf_tsv t;
    if (cf_tsv_read(path, &t, err, sizeof err) != 0) {
        fprintf(stderr, "tfs conform --lint: %s\n", err);
        return 2;
    }
    int c_id = cf_tsv_col(&t, "id"), c_path = cf_tsv_col(&t, "path"), c_sha = cf_tsv_col(&t, "sha256"),
        c_kind = cf_tsv_col(&t, "kind"), c_exp = cf_tsv_col(&t, "expect");
    if (c_id < 0 || c_path < 0 || c_sha < 0 || c_kind < 0 || c_exp < 0) {
        fprintf(stderr, "tfs conform --lint: %s lacks a column (id path sha256 kind expect)\n", path);
        cf_tsv_free(&t);
        return 2;
    }
    /* integrity first: a fixture whose bytes changed is never run */
    for (size_t i = 0; i < t.n_rows; i++) {
        char hex[65];
        uint64_t size;
        snprintf(path, sizeof path, "%s/%s", dir, t.rows[i][c_path]);
        if (cf_sha256_file(path, hex, &size) != 0 || strcmp(hex, t.rows[i][c_sha]) != 0) {
            fprintf(stderr, "tfs conform --lint: %s: missing or SHA-256 differs from LINT.tsv; nothing run\n", path);
            cf_tsv_free(&t);
            return 2;
        }
    }
    size_t pass = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < t.n_rows; i++) {
        const char *kind = t.rows[i][c_kind], *want = t.rows[i][c_exp];
        if (strcmp(kind, "part") == 0) continue;
        char got[2048];
        snprintf(path, sizeof path, "%s/%s", dir, t.rows[i][c_path]);
        int rc = adapter ? ids_adapter(adapter, path, got, sizeof got) : ids_inproc(path, kind, got, sizeof got);
        if (rc == 77) {
            skipped++;
            if (!quiet) printf("skip  %s\n", t.rows[i][c_id]);
        } else if (rc == 0 && strcmp(got, want) == 0) {
            pass++;
            if (!quiet) printf("pass  %s  %s\n", t.rows[i][c_id], want);
        } else {
            failed++;
            printf("FAIL  %s  expected %s, got %s\n", t.rows[i][c_id], want, rc == 0 ? got : "(no answer)");
        }
    }
    printf("tfs conform --lint: %zu cases: %zu pass, %zu fail, %zu skip\n", pass + failed + skipped, pass, failed,
           skipped);
    cf_tsv_free(&t);
    return stdout_done("conform", failed ? 1 : 0);
}
#else
int lint_conform(int argc, char **argv, int first) {
    (void)argc;
    (void)argv;
    (void)first;
    fprintf(stderr, "tfs conform: not built in this tfs (it needs OpenSSL libcrypto and jansson at build time)\n");
    return 2;
}
#endif
