/*
 * run_manifest.c: checks libtfs against a fixture manifest (docs/fixtures.md).
 *
 *   run_manifest MANIFEST.tsv             a corpus manifest (id path sha256 ... mode)
 *   run_manifest --shared-real MANIFEST   ../shared/real/MANIFEST.tsv (file size sha256
 *                                         ... canonical_verdict ggml_data_mode_verdict)
 *
 * Every line: the file's size and SHA-256 must match (else the fixture is
 * refused), then the parser's verdict, rule id and canonical category must
 * match the line, and every byte path (tfs_parse_file, tfs_parse_buffer and a
 * forward-only tfs_parse_source: conformance/runner/bytepaths.h) must give the
 * same verdict, rule, offset, index and, for an accepted file, header.
 * Prints one line per failure and "N passed, N failed".
 * Exit 0 all passed, 1 any failed, 77 (ctest skip) when the manifest is absent,
 * 2 usage / unreadable manifest.  Manifests are read, and fixture bytes
 * verified, by the one manifest reader (conformance/runner/manifest.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytepaths.h"
#include "manifest.h"
#include "tfs/tfs.h"

static int passed, failed;
static const char *current_id; /* the line being checked, for the byte path message */

static void fail(const char *id, const char *fmt, const char *a, const char *b) {
    failed++;
    printf("FAIL %s: ", id);
    printf(fmt, a, b);
    printf("\n");
}

/* Run the parser through every byte path; returns "valid", "parser_error",
 * "error" (I/O, ...) or "paths-differ" (reported here, counted by the caller). */
static const char *verdict(const char *path, tfs_format fmt, unsigned flags, tfs_error *err) {
    tfs_status st;
    char why[400];
    if (cf_parse_all_paths(path, fmt, flags, &st, err, why, sizeof why) != 0) {
        printf("FAIL %s: byte paths disagree (%s): %s\n", current_id,
               flags & TFS_STRICT        ? "strict"
               : flags & TFS_HEADER_ONLY ? "header-only"
                                         : "default",
               why);
        return "paths-differ";
    }
    return st == TFS_OK ? "valid" : st == TFS_INVALID ? "parser_error" : "error";
}

/* Check one expectation line.  rule/category are '-' for valid. */
static void check(const char *id, const char *path, tfs_format fmt, const char *mode, const char *expect,
                  const char *rule, const char *category) {
    unsigned flags = 0;
    if (strcmp(mode, "header-only") == 0)
        flags = TFS_HEADER_ONLY;
    else if (strcmp(mode, "strict") == 0)
        flags = TFS_STRICT;
    else if (strcmp(mode, "default") != 0) {
        fail(id, "unknown mode '%s'%s", mode, "");
        return;
    }

    tfs_error err;
    current_id = id;
    if (strcmp(expect, "implementation_defined") == 0) {
        /* default profile: either verdict, never an error status */
        const char *v = verdict(path, fmt, flags, &err);
        if (strcmp(v, "paths-differ") == 0) {
            failed++;
            return;
        }
        if (strcmp(v, "error") == 0) {
            fail(id, "status error: %s%s", err.message, "");
            return;
        }
        if (strcmp(rule, "-") != 0) { /* strict must reject with the rule */
            v = verdict(path, fmt, flags | TFS_STRICT, &err);
            if (strcmp(v, "paths-differ") == 0) {
                failed++;
                return;
            }
            if (strcmp(v, "parser_error") != 0) {
                fail(id, "strict verdict %s, want parser_error%s", v, "");
                return;
            }
            if (!cf_in_alternatives(tfs_rule_id(err.rule), rule)) {
                fail(id, "strict rule %s, want %s", tfs_rule_id(err.rule), rule);
                return;
            }
        }
        passed++;
        return;
    }
    const char *v = verdict(path, fmt, flags, &err);
    if (strcmp(v, "paths-differ") == 0) {
        failed++;
        return;
    }
    if (strcmp(v, expect) != 0) {
        char got[96];
        snprintf(got, sizeof got, "%s %s", v, tfs_rule_id(err.rule));
        fail(id, "verdict %s, want %s", got, expect);
        return;
    }
    if (strcmp(expect, "parser_error") == 0) {
        if (strcmp(rule, "-") != 0 && !cf_in_alternatives(tfs_rule_id(err.rule), rule)) {
            fail(id, "rule %s, want %s", tfs_rule_id(err.rule), rule);
            return;
        }
        if (strcmp(category, "-") != 0 && !cf_in_alternatives(tfs_rule_category(err.rule), category)) {
            fail(id, "category %s, want %s", tfs_rule_category(err.rule), category);
            return;
        }
    }
    passed++;
}

int main(int argc, char **argv) {
    int shared = 0;
    const char *manifest = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shared-real") == 0)
            shared = 1;
        else
            manifest = argv[i];
    }
    if (!manifest) {
        fprintf(stderr, "usage: run_manifest [--shared-real] MANIFEST.tsv\n");
        return 2;
    }
    char err[1024];
    int lines = 0;
    if (shared) {
        cf_tsv t;
        if (cf_tsv_read(manifest, &t, err, sizeof err) != 0) {
            if (errno == ENOENT) {
                printf("SKIP: %s not found\n", manifest);
                return 77;
            }
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        static const char *const need[] = {"file", "size", "sha256", "canonical_verdict", "ggml_data_mode_verdict"};
        int idx[5];
        for (int i = 0; i < 5; i++)
            if ((idx[i] = cf_tsv_col(&t, need[i])) < 0) {
                fprintf(stderr, "%s: missing column %s\n", manifest, need[i]);
                cf_tsv_free(&t);
                return 2;
            }
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", manifest);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
        for (size_t r = 0; r < t.n_rows; r++) {
            char **row = t.rows[r];
            const char *file = row[idx[0]];
            char path[8192], id[600];
            snprintf(path, sizeof path, "%s/%s", dir, file);
            lines++;
            /* the same integrity check as a fixture line */
            cf_line l = {.id = file, .sha256 = row[idx[2]], .path = path, .manifest = manifest};
            l.size = strtoull(row[idx[1]], NULL, 10);
            if (cf_verify_line(&l, err, sizeof err) != 0) {
                fail(file, "%s%s", err, "");
                continue;
            }
            tfs_format fmt = strncmp(file, "safetensors/", 12) == 0 ? TFS_FORMAT_SAFETENSORS : TFS_FORMAT_GGUF;
            const char *canon = row[idx[3]], *data = row[idx[4]];
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
        }
        cf_tsv_free(&t);
    } else {
        cf_manifest m;
        if (cf_manifest_read(manifest, &m, err, sizeof err) != 0) {
            if (errno == ENOENT) {
                printf("SKIP: %s not found\n", manifest);
                return 77;
            }
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        for (size_t i = 0; i < m.n; i++) {
            const cf_line *l = &m.lines[i];
            lines++;
            if (cf_verify_line(l, err, sizeof err) != 0) {
                fail(l->id, "%s%s", err, "");
                continue;
            }
            tfs_format fmt = strcmp(l->format, "gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
            check(l->id, l->path, fmt, l->mode, l->expect, l->rule, l->category);
        }
        cf_manifest_free(&m);
    }
    if (lines == 0) {
        printf("FAIL: %s has no fixture lines\n", manifest);
        failed++;
    }
    printf("%s: %d passed, %d failed\n", manifest, passed, failed);
    return failed ? 1 : 0;
}
