/*
 * rule_coverage_check.c: the manifest checker of the rule coverage
 * (maint/rule_coverage.sh, docs/rule-coverage.md).
 *
 *   rule_coverage_check [--off RULE] MANIFEST.tsv...
 *
 * Runs every line of each fixture manifest (docs/fixtures.md) through the
 * libtfs it is linked with, in the line's profile, twice: from the file
 * (tfs_parse_file, the reader window) and from memory (tfs_parse_buffer), and
 * prints one line per fixture whose outcome differs from the line in either:
 *   FAIL <id>\t<what happened>
 * then "N passed, N failed".  Each fixture is parsed in a child process
 * (fork) with a 10 s alarm, so a library built with a rule switched off
 * (cmake -DTFS_RULE_OFF=<id>) that crashes or hangs on one fixture loses no
 * other result: such a fixture counts as failed ("crash: signal N", or
 * "crash: exit N" for a sanitizer's exit code).
 *
 * --off RULE names the rule the library was built without: a fixture for
 * which that library still reports RULE means a place that raises RULE does
 * not honour the switch; it is printed as "LEAK <id> ..." (and counted
 * failed), and the exit status is 3.  A failing fixture whose line does not
 * name RULE gets " [collateral]" at the end of its line: switching a rule off
 * must change only the files on which the rule fires (the parser goes on as
 * if the check were false), so any such line is a defect of the switch.
 *
 * Unlike the ctest manifest runner (tests/corpus/run_manifest.c) it does not
 * hash the fixtures (the ctests do) and compares verdict and rule id only
 * (the category follows from the rule).  Exit: 0 all passed, 1 any failed,
 * 2 usage or unreadable manifest, 3 a leak.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tfs/tfs.h"

#define MAX_COLS 16

static int split(char *line, char **cols) {
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line;;) {
        if (n == MAX_COLS) return -1;
        cols[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static int col(char **hdr, int n, const char *name) {
    for (int i = 0; i < n; i++)
        if (strcmp(hdr[i], name) == 0) return i;
    return -1;
}

/* Is `word` one of the '|'-separated alternatives in `list`? */
static int in_alternatives(const char *word, const char *list) {
    size_t n = strlen(word);
    for (const char *p = list;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        if (!bar) return 0;
        p = bar + 1;
    }
}

/* The fixture's bytes for buffer mode (NULL: from the file). */
static const uint8_t *g_buf;
static size_t g_len;

/* Parse once; "valid", "parser_error" or "error" (status other than OK/INVALID). */
static const char *verdict(const char *path, tfs_format fmt, unsigned flags, tfs_error *err) {
    tfs_status st =
        g_buf ? tfs_parse_buffer(g_buf, g_len, fmt, flags, NULL, err) : tfs_parse_file(path, fmt, flags, NULL, err);
    return st == TFS_OK ? "valid" : st == TFS_INVALID ? "parser_error" : "error";
}

/* Read a whole file into memory (malloc'd; the child exits soon after). */
static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, k;
    uint8_t *b = malloc(cap);
    while (b && (k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
            } else
                b = nb;
        }
    }
    fclose(f);
    *len = n;
    return b;
}

/* The child's work: check one line, print "FAIL ..."/"LEAK ..." or nothing,
 * exit 0 pass, 1 fail, 3 leak. */
static int check(const char *id, const char *path, tfs_format fmt, const char *mode, const char *expect,
                 const char *rule, const char *off) {
    unsigned flags = 0;
    if (strcmp(mode, "header-only") == 0)
        flags = TFS_HEADER_ONLY;
    else if (strcmp(mode, "strict") == 0)
        flags = TFS_STRICT;
    else if (strcmp(mode, "default") != 0) {
        printf("FAIL %s\tunknown mode %s\n", id, mode);
        return 1;
    }
    const char *tag = off && !in_alternatives(off, rule) ? " [collateral]" : "";
    tfs_error err;
    const char *v = verdict(path, fmt, flags, &err);
    const char *got = v[0] == 'p' ? tfs_rule_id(err.rule) : "";
    if (off && strcmp(got, off) == 0) {
        printf("LEAK %s\t%s %s (built with %s off)\n", id, v, got, off);
        return 3;
    }
    if (strcmp(v, "error") == 0) {
        printf("FAIL %s\tstatus error: %s%s\n", id, err.message, tag);
        return 1;
    }
    if (strcmp(expect, "implementation_defined") == 0) {
        if (strcmp(rule, "-") == 0) return 0; /* either verdict */
        v = verdict(path, fmt, flags | TFS_STRICT, &err);
        got = v[0] == 'p' ? tfs_rule_id(err.rule) : "";
        if (off && strcmp(got, off) == 0) {
            printf("LEAK %s\tstrict %s %s (built with %s off)\n", id, v, got, off);
            return 3;
        }
        if (strcmp(v, "parser_error") != 0 || !in_alternatives(got, rule)) {
            printf("FAIL %s\tstrict: %s %s, want parser_error %s%s\n", id, v, got, rule, tag);
            return 1;
        }
        return 0;
    }
    if (strcmp(v, expect) != 0 ||
        (strcmp(v, "parser_error") == 0 && strcmp(rule, "-") != 0 && !in_alternatives(got, rule))) {
        printf("FAIL %s\t%s %s, want %s %s%s\n", id, v, got, expect, strcmp(rule, "-") ? rule : "", tag);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *off = NULL;
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "--off") == 0) {
        off = argv[a + 1];
        a += 2;
    }
    if (a >= argc) {
        fprintf(stderr, "usage: rule_coverage_check [--off RULE] MANIFEST.tsv...\n");
        return 2;
    }
    int passed = 0, failed = 0, leaks = 0;
    for (; a < argc; a++) {
        FILE *f = fopen(argv[a], "r");
        if (!f) {
            perror(argv[a]);
            return 2;
        }
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", argv[a]);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[1] = '\0';
        else
            dir[0] = '\0';
        char line[8192], *hdr[MAX_COLS], hdr_line[8192];
        if (!fgets(hdr_line, sizeof hdr_line, f)) {
            fclose(f);
            fprintf(stderr, "%s: empty\n", argv[a]);
            return 2;
        }
        int nh = split(hdr_line, hdr);
        int c_id = col(hdr, nh, "id"), c_path = col(hdr, nh, "path"), c_fmt = col(hdr, nh, "format"),
            c_exp = col(hdr, nh, "expect"), c_rule = col(hdr, nh, "rule"), c_mode = col(hdr, nh, "mode");
        if (c_id < 0 || c_path < 0 || c_fmt < 0 || c_exp < 0 || c_rule < 0 || c_mode < 0) {
            fclose(f);
            fprintf(stderr, "%s: not a fixture manifest (docs/fixtures.md)\n", argv[a]);
            return 2;
        }
        while (fgets(line, sizeof line, f)) {
            char *c[MAX_COLS];
            int n = split(line, c);
            if (n < nh) continue; /* blank line */
            char path[8192];
            snprintf(path, sizeof path, "%s%s", dir, c[c_path]);
            tfs_format fmt = strcmp(c[c_fmt], "gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
            fflush(stdout);
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                return 2;
            }
            if (pid == 0) {
                alarm(10);
                int rc = check(c[c_id], path, fmt, c[c_mode], c[c_exp], c[c_rule], off);
                if (rc == 0 && (g_buf = slurp(path, &g_len)) != NULL) { /* the same from memory */
                    char id[600];
                    snprintf(id, sizeof id, "%s (buffer)", c[c_id]);
                    rc = check(id, path, fmt, c[c_mode], c[c_exp], c[c_rule], off);
                }
                fflush(stdout);
                _exit(rc);
            }
            int ws;
            if (waitpid(pid, &ws, 0) < 0) {
                perror("waitpid");
                return 2;
            }
            if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
                passed++;
            } else {
                failed++;
                const char *tag = off && !in_alternatives(off, c[c_rule]) ? " [collateral]" : "";
                if (WIFSIGNALED(ws))
                    printf("FAIL %s\tcrash: signal %d%s\n", c[c_id], WTERMSIG(ws), tag);
                else if (WEXITSTATUS(ws) == 3)
                    leaks++;
                else if (WEXITSTATUS(ws) != 1)
                    printf("FAIL %s\tcrash: exit %d%s\n", c[c_id], WEXITSTATUS(ws), tag);
            }
        }
        fclose(f);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return leaks ? 3 : failed ? 1 : 0;
}
