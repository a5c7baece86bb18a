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
 * then "N passed, N failed".  The fixtures are parsed in a child process
 * (fork), one after the other, each under a 10 s alarm; the child reports
 * each result through a pipe.  A library built with a rule switched off
 * (cmake -DTFS_RULE_OFF=<id>) that crashes or hangs on one fixture loses no
 * other result: the fixture the child died on counts as failed ("crash:
 * signal N", or "crash: exit N" for a sanitizer's exit code) and a new child
 * goes on from the next one.  (One child per fixture cost ~4 ms of fork and
 * exit each in an ASan build, 2/3 of the run; in a build without sanitizers,
 * a memory error that does not crash could still touch a later fixture of the
 * same child: maint/rule_coverage.sh --sanitize is the run that judges.)
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
#include <errno.h>
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

/* One manifest line, its path resolved against the manifest's folder. */
typedef struct {
    char *id, *path, *mode, *expect, *rule;
    tfs_format fmt;
} fixture;

/* The worker's report of one fixture: its index and check()'s result. */
typedef struct {
    uint32_t index;
    int32_t rc;
} report;

static char *dup_or_die(const char *s) {
    char *d = strdup(s);
    if (!d) {
        perror("strdup");
        exit(2);
    }
    return d;
}

/* Append the lines of manifest `name` to *fx (*n of *cap); 0, or 2 with a message. */
static int read_manifest(const char *name, fixture **fx, size_t *n, size_t *cap) {
    FILE *f = fopen(name, "r");
    if (!f) {
        perror(name);
        return 2;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", name);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    char line[8192], *hdr[MAX_COLS], hdr_line[8192];
    if (!fgets(hdr_line, sizeof hdr_line, f)) {
        fclose(f);
        fprintf(stderr, "%s: empty\n", name);
        return 2;
    }
    int nh = split(hdr_line, hdr);
    int c_id = col(hdr, nh, "id"), c_path = col(hdr, nh, "path"), c_fmt = col(hdr, nh, "format"),
        c_exp = col(hdr, nh, "expect"), c_rule = col(hdr, nh, "rule"), c_mode = col(hdr, nh, "mode");
    if (c_id < 0 || c_path < 0 || c_fmt < 0 || c_exp < 0 || c_rule < 0 || c_mode < 0) {
        fclose(f);
        fprintf(stderr, "%s: not a fixture manifest (docs/fixtures.md)\n", name);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        char *c[MAX_COLS];
        int k = split(line, c);
        if (k < nh) continue; /* blank line */
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 1024;
            fixture *nf = realloc(*fx, ncap * sizeof *nf);
            if (!nf) {
                perror("realloc");
                exit(2);
            }
            *fx = nf;
            *cap = ncap;
        }
        char path[8192];
        snprintf(path, sizeof path, "%s%s", dir, c[c_path]);
        fixture *x = &(*fx)[(*n)++];
        x->id = dup_or_die(c[c_id]);
        x->path = dup_or_die(path);
        x->mode = dup_or_die(c[c_mode]);
        x->expect = dup_or_die(c[c_exp]);
        x->rule = dup_or_die(c[c_rule]);
        x->fmt = strcmp(c[c_fmt], "gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
    }
    fclose(f);
    return 0;
}

/* One fixture from the file, then (if that passed) from memory: check()'s result. */
static int run_one(const fixture *x, const char *off) {
    int rc = check(x->id, x->path, x->fmt, x->mode, x->expect, x->rule, off);
    if (rc == 0 && (g_buf = slurp(x->path, &g_len)) != NULL) {
        char id[600];
        snprintf(id, sizeof id, "%s (buffer)", x->id);
        rc = check(id, x->path, x->fmt, x->mode, x->expect, x->rule, off);
    }
    free((void *)g_buf);
    g_buf = NULL;
    return rc;
}

/* The child: fixtures from..n-1, each reported on `fd` once its lines are out. */
static void worker(const fixture *fx, size_t from, size_t n, const char *off, int fd) {
    for (size_t i = from; i < n; i++) {
        alarm(10);
        report r = {(uint32_t)i, run_one(&fx[i], off)};
        alarm(0);
        fflush(stdout);
        if (write(fd, &r, sizeof r) != (ssize_t)sizeof r) _exit(2);
    }
    _exit(0);
}

/* Every fixture through workers; prints the FAIL lines and the totals; main's exit status. */
static int run_all(const fixture *fx, size_t n, const char *off) {
    int passed = 0, failed = 0, leaks = 0;
    for (size_t next = 0; next < n;) {
        int fds[2];
        if (pipe(fds) != 0) {
            perror("pipe");
            return 2;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) {
            close(fds[0]);
            worker(fx, next, n, off, fds[1]);
        }
        close(fds[1]);
        report r;
        size_t got = 0;
        for (;;) {
            ssize_t k = read(fds[0], (char *)&r + got, sizeof r - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) break;
            got += (size_t)k;
            if (got < sizeof r) continue;
            got = 0;
            if (r.index != next) {
                fprintf(stderr, "rule_coverage_check: worker reported fixture %u, expected %zu\n", r.index, next);
                return 2;
            }
            if (r.rc == 0)
                passed++;
            else
                failed++;
            if (r.rc == 3) leaks++;
            next++;
        }
        close(fds[0]);
        int ws;
        while (waitpid(pid, &ws, 0) < 0)
            if (errno != EINTR) {
                perror("waitpid");
                return 2;
            }
        if (next == n) break;
        /* the child died on fixture `next` (its FAIL/LEAK lines, if any, are not the cause) */
        const fixture *x = &fx[next++];
        failed++;
        const char *tag = off && !in_alternatives(off, x->rule) ? " [collateral]" : "";
        if (WIFSIGNALED(ws))
            printf("FAIL %s\tcrash: signal %d%s\n", x->id, WTERMSIG(ws), tag);
        else
            printf("FAIL %s\tcrash: exit %d%s\n", x->id, WEXITSTATUS(ws), tag);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return leaks ? 3 : failed ? 1 : 0;
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
    fixture *fx = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (; a < argc && rc == 0; a++) rc = read_manifest(argv[a], &fx, &n, &cap);
    if (rc == 0) rc = run_all(fx, n, off);
    for (size_t i = 0; i < n; i++) {
        free(fx[i].id);
        free(fx[i].path);
        free(fx[i].mode);
        free(fx[i].expect);
        free(fx[i].rule);
    }
    free(fx);
    return rc;
}
