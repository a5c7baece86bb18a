/*
 * run_manifest.c: checks libtfs against a fixture manifest (docs/fixtures.md).
 *
 *   run_manifest MANIFEST.tsv             a corpus manifest (id path sha256 ... mode)
 *   run_manifest --shared-real MANIFEST   ../shared/real/MANIFEST.tsv (file size sha256
 *                                         ... canonical_verdict ggml_data_mode_verdict)
 *
 * Every line: the file's size and SHA-256 must match (else the fixture is
 * refused), then the parser's verdict, rule id and canonical category must
 * match the line.  Prints one line per failure and "N passed, N failed".
 * Exit 0 all passed, 1 any failed, 77 (ctest skip) when the manifest is absent,
 * 2 usage / unreadable manifest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "tfs/tfs.h"

#define MAX_COLS 16

typedef struct table {
    char *cols[MAX_COLS];
    int n;
} table;

static int split(char *line, table *t) {
    t->n = 0;
    char *p = line;
    for (;;) {
        if (t->n == MAX_COLS) return -1;
        t->cols[t->n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    size_t len = strlen(t->cols[t->n - 1]);
    while (len && (t->cols[t->n - 1][len - 1] == '\n' || t->cols[t->n - 1][len - 1] == '\r'))
        t->cols[t->n - 1][--len] = '\0';
    return 0;
}

static int col_index(const table *hdr, const char *name) {
    for (int i = 0; i < hdr->n; i++)
        if (strcmp(hdr->cols[i], name) == 0) return i;
    return -1;
}

/* SHA-256 (hex) and size of a file; 0 on success. */
static int hash_file(const char *path, char hex[65], unsigned long long *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char buf[1 << 16], md[32];
    unsigned mdlen = 0;
    int rc = -1;
    *size = 0;
    if (ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1) {
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
            EVP_DigestUpdate(ctx, buf, n);
            *size += n;
        }
        if (!ferror(f) && EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen == 32) {
            for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
            rc = 0;
        }
    }
    EVP_MD_CTX_free(ctx);
    fclose(f);
    return rc;
}

/* Is `word` one of the '|'-separated alternatives in `list`? */
static int in_alternatives(const char *word, const char *list) {
    size_t n = strlen(word);
    const char *p = list;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        if (!bar) break;
        p = bar + 1;
    }
    return 0;
}

static int passed, failed;

static void fail(const char *id, const char *fmt, const char *a, const char *b) {
    failed++;
    printf("FAIL %s: ", id);
    printf(fmt, a, b);
    printf("\n");
}

static tfs_format parse_format(const char *s) {
    if (strcmp(s, "gguf") == 0) return TFS_FORMAT_GGUF;
    if (strcmp(s, "safetensors") == 0) return TFS_FORMAT_SAFETENSORS;
    return TFS_FORMAT_UNKNOWN;
}

/* Run the parser; returns "valid", "parser_error" or "error" (I/O, ...). */
static const char *verdict(const char *path, tfs_format fmt, unsigned flags, tfs_error *err) {
    tfs_status st = tfs_parse_file(path, fmt, flags, NULL, err);
    return st == TFS_OK ? "valid" : st == TFS_INVALID ? "parser_error" : "error";
}

/* Check one expectation line.  rule/category are '-' for valid. */
static void check(const char *id, const char *path, tfs_format fmt, const char *mode, const char *expect,
                  const char *rule, const char *category) {
    unsigned flags = 0;
    if (strcmp(mode, "header-only") == 0) flags = TFS_HEADER_ONLY;
    else if (strcmp(mode, "strict") == 0) flags = TFS_STRICT;
    else if (strcmp(mode, "default") != 0) { fail(id, "unknown mode '%s'%s", mode, ""); return; }

    tfs_error err;
    if (strcmp(expect, "implementation_defined") == 0) {
        /* default profile: either verdict, never an error status */
        const char *v = verdict(path, fmt, flags, &err);
        if (strcmp(v, "error") == 0) { fail(id, "status error: %s%s", err.message, ""); return; }
        if (strcmp(rule, "-") != 0) { /* strict must reject with the rule */
            v = verdict(path, fmt, flags | TFS_STRICT, &err);
            if (strcmp(v, "parser_error") != 0) { fail(id, "strict verdict %s, want parser_error%s", v, ""); return; }
            if (!in_alternatives(tfs_rule_id(err.rule), rule)) { fail(id, "strict rule %s, want %s", tfs_rule_id(err.rule), rule); return; }
        }
        passed++;
        return;
    }
    const char *v = verdict(path, fmt, flags, &err);
    if (strcmp(v, expect) != 0) {
        char got[96];
        snprintf(got, sizeof got, "%s %s", v, tfs_rule_id(err.rule));
        fail(id, "verdict %s, want %s", got, expect);
        return;
    }
    if (strcmp(expect, "parser_error") == 0) {
        if (strcmp(rule, "-") != 0 && !in_alternatives(tfs_rule_id(err.rule), rule)) {
            fail(id, "rule %s, want %s", tfs_rule_id(err.rule), rule);
            return;
        }
        if (strcmp(category, "-") != 0 && !in_alternatives(tfs_rule_category(err.rule), category)) {
            fail(id, "category %s, want %s", tfs_rule_category(err.rule), category);
            return;
        }
    }
    passed++;
}

/* Join dir + "/" + rel into out. */
static void join(char *out, size_t n, const char *dir, const char *rel) { snprintf(out, n, "%s/%s", dir, rel); }

static int verify_bytes(const char *id, const char *path, const char *want_sha, const char *want_size) {
    char hex[65];
    unsigned long long size;
    if (hash_file(path, hex, &size) != 0) { fail(id, "cannot read %s (%s)", path, strerror(errno)); return -1; }
    char sz[32];
    snprintf(sz, sizeof sz, "%llu", size);
    if (strcmp(sz, want_size) != 0) { fail(id, "size %s, manifest says %s: fixture refused", sz, want_size); return -1; }
    if (strcmp(hex, want_sha) != 0) { fail(id, "sha256 %s, manifest says %s: fixture refused", hex, want_sha); return -1; }
    return 0;
}

int main(int argc, char **argv) {
    int shared = 0;
    const char *manifest = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shared-real") == 0) shared = 1;
        else manifest = argv[i];
    }
    if (!manifest) { fprintf(stderr, "usage: run_manifest [--shared-real] MANIFEST.tsv\n"); return 2; }
    FILE *f = fopen(manifest, "r");
    if (!f) {
        if (errno == ENOENT) { printf("SKIP: %s not found\n", manifest); return 77; }
        perror(manifest);
        return 2;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", manifest);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0'; else snprintf(dir, sizeof dir, ".");

    static char line[1 << 16], hdrline[1 << 16];
    table hdr;
    if (!fgets(hdrline, sizeof hdrline, f) || split(hdrline, &hdr) != 0) { fprintf(stderr, "%s: no header row\n", manifest); fclose(f); return 2; }
    const char *need_fix[] = {"id", "path", "sha256", "size", "format", "expect", "rule", "category", "mode"};
    const char *need_real[] = {"file", "size", "sha256", "canonical_verdict", "ggml_data_mode_verdict"};
    int idx[9];
    int nneed = shared ? 5 : 9;
    for (int i = 0; i < nneed; i++) {
        idx[i] = col_index(&hdr, shared ? need_real[i] : need_fix[i]);
        if (idx[i] < 0) { fprintf(stderr, "%s: missing column %s\n", manifest, shared ? need_real[i] : need_fix[i]); fclose(f); return 2; }
    }
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n' || line[0] == '#') continue;
        table row;
        if (split(line, &row) != 0 || row.n != hdr.n) { fail("?", "malformed line %s%s", line, ""); continue; }
        lines++;
        char path[8192];
        if (shared) {
            const char *file = row.cols[idx[0]];
            join(path, sizeof path, dir, file);
            if (verify_bytes(file, path, row.cols[idx[2]], row.cols[idx[1]]) != 0) continue;
            tfs_format fmt = strncmp(file, "safetensors/", 12) == 0 ? TFS_FORMAT_SAFETENSORS : TFS_FORMAT_GGUF;
            const char *canon = row.cols[idx[3]], *data = row.cols[idx[4]];
            char id[600];
            snprintf(id, sizeof id, "%s [default]", file);
            check(id, path, fmt, "default", *data ? data : canon, "-", "-");
            if (fmt == TFS_FORMAT_GGUF) {
                snprintf(id, sizeof id, "%s [header-only]", file);
                check(id, path, fmt, "header-only", canon, "-", "-");
            }
            if (strcmp(canon, "valid") == 0) { /* strict must accept real writers' output */
                snprintf(id, sizeof id, "%s [strict]", file);
                check(id, path, fmt, "strict", "valid", "-", "-");
            }
        } else {
            const char *id = row.cols[idx[0]];
            join(path, sizeof path, dir, row.cols[idx[1]]);
            if (verify_bytes(id, path, row.cols[idx[2]], row.cols[idx[3]]) != 0) continue;
            tfs_format fmt = parse_format(row.cols[idx[4]]);
            if (fmt == TFS_FORMAT_UNKNOWN) { fail(id, "unknown format %s%s", row.cols[idx[4]], ""); continue; }
            check(id, path, fmt, row.cols[idx[8]], row.cols[idx[5]], row.cols[idx[6]], row.cols[idx[7]]);
        }
    }
    fclose(f);
    if (lines == 0) { printf("FAIL: %s has no fixture lines\n", manifest); failed++; }
    printf("%s: %d passed, %d failed\n", manifest, passed, failed);
    return failed ? 1 : 0;
}
