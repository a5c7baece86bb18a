/* conform.c: `tfs conform`, the driver (docs/conform.md). */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conform.h"

#ifndef TFS_CONFORMANCE_DIR_DEFAULT
#define TFS_CONFORMANCE_DIR_DEFAULT "" /* CMake: the source tree's corpus/ */
#endif
#ifndef TFS_CONFORMANCE_DIR_INSTALLED
#define TFS_CONFORMANCE_DIR_INSTALLED "" /* CMake: ${prefix}/share/tfs/conformance */
#endif

static volatile int stop_flag; /* the signal that stopped the run (SIGINT, SIGTERM, SIGHUP), or 0 */

static void on_stop_signal(int sig) {
    if (!stop_flag) stop_flag = sig;
    cf_spawn_wake();
}

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { N_STOP_SIGNALS = sizeof stop_signals / sizeof stop_signals[0] };

/* Standard output flushed and error-free: rc; else the message every tfs
 * command prints (tools/tfs/names.c stdout_done) and 2. */
static int stdout_done(int rc) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    fprintf(stderr, "tfs conform: cannot write output%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
    return 2;
}

/* A report path ('-' aside) we can write: an existing regular file we may
 * write, or a new name in a folder we may write.  Checked before any case
 * runs, without creating the file.  0 ok; -1 with a message printed. */
static int check_writable(const char *opt, const char *path) {
    if (!path || strcmp(path, "-") == 0) return 0;
    struct stat st;
    const char *why = NULL;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            why = "is a folder";
        else if (access(path, W_OK) != 0)
            why = strerror(errno);
    } else if (errno != ENOENT) {
        why = strerror(errno);
    } else {
        char dir[PATH_MAX];
        const char *slash = strrchr(path, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else if (slash == path)
            snprintf(dir, sizeof dir, "/");
        else
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        if (stat(dir, &st) != 0)
            why = strerror(errno);
        else if (!S_ISDIR(st.st_mode))
            why = "its folder is not a folder";
        else if (access(dir, W_OK | X_OK) != 0)
            why = strerror(errno);
    }
    if (!why) return 0;
    fprintf(stderr, "tfs conform: %s %s: cannot write there: %s\n", opt, path, why);
    return -1;
}

/* Which selector of an empty selection matches no fixture at all. */
static void explain_empty(const cf_suite *s, const cf_options *o) {
    int said = 0;
    for (int i = 0; i < o->n_rules; i++) {
        int hit = 0;
        for (size_t m = 0; m < s->n_manifests && !hit; m++)
            for (size_t k = 0; k < s->manifests[m].n && !hit; k++)
                hit = strcmp(s->manifests[m].lines[k].rule, "-") != 0 &&
                      cf_rule_matches(o->rules[i], s->manifests[m].lines[k].rule);
        if (!hit && ++said)
            fprintf(stderr, "tfs conform: --rule %s: no fixture has this rule (unknown rule id?)\n", o->rules[i]);
    }
    for (int i = 0; i < o->n_tags; i++) {
        int hit = 0;
        for (size_t m = 0; m < s->n_manifests && !hit; m++)
            for (size_t k = 0; k < s->manifests[m].n && !hit; k++)
                hit = cf_line_has_tag(&s->manifests[m].lines[k], o->tags[i]);
        if (!hit && ++said)
            fprintf(stderr, "tfs conform: --tag %s: no fixture has this tag (unknown tag?)\n", o->tags[i]);
    }
    for (int i = 0; i < o->n_ids; i++) {
        int hit = 0;
        for (size_t m = 0; m < s->n_manifests && !hit; m++)
            for (size_t k = 0; k < s->manifests[m].n && !hit; k++)
                hit = fnmatch(o->ids[i], s->manifests[m].lines[k].id, 0) == 0;
        if (!hit && ++said) fprintf(stderr, "tfs conform: --id %s: matches no fixture id\n", o->ids[i]);
    }
    fprintf(stderr, "tfs conform: no case selected (%s)%s\n", s->dirs,
            said ? "" : ": each selector matches fixtures, but not together (or not in this profile)");
}

static int is_dir(const char *p) {
    struct stat st;
    return p && *p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --fixtures, $TFS_CONFORMANCE_DIR, <bindir>/../share/tfs/conformance (an
 * installed, relocated tfs), the build tree's corpus/, the install prefix's. */
static const char *fixtures_dir(const cf_options *o, char *buf, size_t n) {
    if (o->n_fixtures) return o->fixtures[0];
    const char *env = getenv("TFS_CONFORMANCE_DIR");
    if (env && *env) return env;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, n, "%s/../share/tfs/conformance", exe);
            if (is_dir(buf)) return buf;
        }
    }
    if (is_dir(TFS_CONFORMANCE_DIR_DEFAULT)) return TFS_CONFORMANCE_DIR_DEFAULT;
    if (is_dir(TFS_CONFORMANCE_DIR_INSTALLED)) return TFS_CONFORMANCE_DIR_INSTALLED;
    return NULL;
}

/* The adapter's program: a path, or found on PATH. */
static int is_program(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static int program_exists(const char *prog) {
    if (strchr(prog, '/')) return is_program(prog);
    const char *path = getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    char buf[PATH_MAX];
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? path : ".", prog);
        if (is_program(buf)) return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

/* a case whose content is compared when the reader accepts it and prints content */
static int content_checked(const cf_case *c) { return c->expected_content && strcmp(c->expect, "valid") == 0; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the suite's version: the first line of DIR/VERSION, else tfs's */
static void suite_version(const char *dir, const char *fallback, char *out, size_t n) {
    char p[4096];
    snprintf(p, sizeof p, "%s/VERSION", dir);
    FILE *f = fopen(p, "r");
    snprintf(out, n, "%s", fallback);
    if (!f) return;
    if (fgets(out, (int)n, f))
        out[strcspn(out, "\r\n")] = '\0';
    else
        snprintf(out, n, "%s", fallback);
    fclose(f);
}

typedef int (*writer)(FILE *, const cf_case *, size_t, const cf_report_info *);

static int write_report(const char *path, writer w, const cf_case *cases, size_t n, const cf_report_info *ri) {
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f) {
        fprintf(stderr, "tfs conform: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = w(f, cases, n, ri);
    if (f == stdout)
        rc |= fflush(f);
    else
        rc |= fclose(f);
    if (rc) fprintf(stderr, "tfs conform: error writing %s\n", path);
    return rc ? -1 : 0;
}

int cf_main(int argc, char **argv, int first, const char *tfs_version, cf_content_fn content) {
    cf_options o;
    int prc = cf_parse_options(argc, argv, first, &o);
    if (prc == 1) return stdout_done(0);
    if (prc != 0) return 2;
    /* report files: refused now, not after the whole run */
    if (check_writable("--json", o.json) || check_writable("--tap", o.tap) || check_writable("--junit", o.junit) ||
        check_writable("--write-expected-failures", o.write_expected_failures))
        return 2;
    char dirbuf[PATH_MAX + 64], err[2048];
    const char *dir = fixtures_dir(&o, dirbuf, sizeof dirbuf);
    if (!dir) {
        fprintf(stderr, "tfs conform: no fixtures folder: give --fixtures DIR or set TFS_CONFORMANCE_DIR\n");
        return 2;
    }
    cf_suite s;
    const char *one[1] = {dir};
    if (cf_suite_load(&s, o.n_fixtures ? o.fixtures : one, o.n_fixtures ? o.n_fixtures : 1, err, sizeof err) != 0) {
        fprintf(stderr, "tfs conform: %s\n", err);
        return 2;
    }
    int rc = 2;
    char **words = NULL;
    cf_xfail xf = {0};
    cf_catmap *catmap = NULL;
    char **problems = NULL;
    size_t n_problems = 0;
    if (cf_suite_select(&s, &o, err, sizeof err) != 0) {
        fprintf(stderr, "tfs conform: %s\n", err);
        goto out;
    }
    if (s.n_cases == 0) {
        explain_empty(&s, &o);
        goto out;
    }
    if (o.list) {
        for (size_t i = 0; i < s.n_cases; i++)
            printf("%s\t%s\t%s\t%s\t%s\t%s\n", s.cases[i].line->id, s.cases[i].line->format,
                   cf_profile_name(s.cases[i].profile), s.cases[i].expect, s.cases[i].line->rule,
                   content_checked(&s.cases[i]) ? "content" : "-");
        rc = stdout_done(0);
        goto out;
    }
    /* integrity first: nothing runs when one selected fixture is not what its manifest says */
    size_t refused = 0;
    for (size_t i = 0; i < s.n_cases; i++) {
        const cf_line *l = s.cases[i].line;
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = s.cases[k].line->path == l->path || strcmp(s.cases[k].line->path, l->path) == 0;
        if (seen) continue;
        if (cf_verify_line(l, err, sizeof err) != 0) {
            fprintf(stderr, "tfs conform: %s\n", err);
            refused++;
        }
    }
    if (refused) {
        fprintf(stderr, "tfs conform: %zu fixture%s refused (missing or not matching the manifest); nothing was run\n",
                refused, refused == 1 ? "" : "s");
        goto out;
    }
    if (o.expected_failures && cf_xfail_read(o.expected_failures, &xf, err, sizeof err) != 0) {
        fprintf(stderr, "tfs conform: %s\n", err);
        goto out;
    }
    if (o.adapter) {
        if (!(words = cf_split_command(o.adapter, err, sizeof err))) {
            fprintf(stderr, "tfs conform: %s\n", err);
            goto out;
        }
        if (!o.shell && !program_exists(words[0])) {
            fprintf(stderr, "tfs conform: adapter program '%s' not found, not a file or not executable\n", words[0]);
            goto out;
        }
        if (o.category_map && !(catmap = cf_catmap_read(o.category_map, err, sizeof err))) {
            fprintf(stderr, "tfs conform: %s\n", err);
            goto out;
        }
    }
    /* said up front: which cases will have their content compared */
    size_t n_content = 0;
    for (size_t i = 0; i < s.n_cases; i++) n_content += content_checked(&s.cases[i]);
    fprintf(o.quiet == 2 ? stderr : stdout,
            "tfs conform: content to compare on %zu of the %zu selected cases (valid, with expected content%s; --list: "
            "column 6; the summary says on how many it was)\n",
            n_content, s.n_cases, o.adapter ? ", when the adapter accepts them and prints content" : "");

    cf_report_info ri;
    memset(&ri, 0, sizeof ri);
    char sv[128];
    suite_version(s.dir, tfs_version, sv, sizeof sv);
    ri.adapter = o.adapter;
    ri.tfs_version = tfs_version;
    ri.suite_version = sv;
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(ri.started, sizeof ri.started, "%Y-%m-%dT%H:%M:%SZ", &tm);

    /* SIGINT, SIGTERM, SIGHUP: stop, kill the running adapters' process
     * groups, print the partial report, exit 128 + signal */
    struct sigaction sa, old_sig[N_STOP_SIGNALS];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    stop_flag = 0;
    for (int k = 0; k < N_STOP_SIGNALS; k++) sigaction(stop_signals[k], &sa, &old_sig[k]);
    double t0 = now_s();
    if (o.adapter) {
        cf_spawn_opts so = {o.jobs, o.timeout, o.output_cap, catmap};
        int sane = o.no_sanity ? 0
                               : cf_sanity_check(s.cases, s.n_selected, words, o.adapter, o.shell, &so, o.want_content,
                                                 &stop_flag, err, sizeof err);
        if (sane > 0) fprintf(stderr, "tfs conform: %s\n", err);
        if (sane < 0) {
            fprintf(stderr, "tfs conform: %s\ntfs conform: nothing was run (--no-sanity-check runs anyway)\n", err);
            for (int k = 0; k < N_STOP_SIGNALS; k++) sigaction(stop_signals[k], &old_sig[k], NULL);
            goto out;
        }
        if (stop_flag) { /* interrupted during the check: every case not run */
        } else if (cf_run_adapter(s.cases, s.n_cases, words, o.adapter, o.shell, &so, &stop_flag) != 0) {
            fprintf(stderr, "tfs conform: running the adapter failed: %s\n", strerror(errno));
            for (int k = 0; k < N_STOP_SIGNALS; k++) sigaction(stop_signals[k], &old_sig[k], NULL);
            goto out;
        }
    } else {
        for (size_t i = 0; i < s.n_cases && !stop_flag; i++) {
            cf_run_inprocess(&s.cases[i], content);
            /* in process the whole of our content is compared */
            if (content && content_checked(&s.cases[i]) && s.cases[i].got && strcmp(s.cases[i].got, "valid") == 0)
                s.cases[i].content = CF_CONTENT_FULL;
        }
    }
    ri.seconds = now_s() - t0;
    for (int k = 0; k < N_STOP_SIGNALS; k++) sigaction(stop_signals[k], &old_sig[k], NULL);
    for (size_t i = 0; i < s.n_cases; i++) ri.not_run += !s.cases[i].done;
    ri.interrupted = stop_flag != 0;

    size_t n_prob = 0;
    if (o.expected_failures) cf_xfail_apply(&xf, &s, s.cases, s.n_cases, NULL, &n_prob, &problems, &n_problems);
    ri.problems = problems;
    ri.n_problems = n_problems;
    /* failures left after the expected-failures file (a listed failure with
     * another result than listed stays a failure) */
    size_t failures = 0;
    for (size_t i = 0; i < s.n_cases; i++) failures += s.cases[i].done && cf_result_is_failure(s.cases[i].result);

    int werr = 0;
    if (o.json) werr |= write_report(o.json, cf_report_json, s.cases, s.n_cases, &ri);
    if (o.tap) werr |= write_report(o.tap, cf_report_tap, s.cases, s.n_cases, &ri);
    if (o.junit) werr |= write_report(o.junit, cf_report_junit, s.cases, s.n_cases, &ri);
    if (o.write_expected_failures && cf_xfail_write(o.write_expected_failures, s.cases, s.n_cases, err, sizeof err)) {
        fprintf(stderr, "tfs conform: %s\n", err);
        werr = 1;
    }
    FILE *human = o.quiet == 2 ? stderr : stdout;
    cf_report_human(human, s.cases, s.n_cases, &ri, o.quiet);
    if (stdout_done(0) != 0) werr = 1;
    if (ri.interrupted)
        rc = 128 + stop_flag;
    else if (werr)
        rc = 2;
    else
        rc = failures || n_prob ? 1 : 0;
out:
    for (size_t i = 0; i < n_problems; i++) free(problems[i]);
    free(problems);
    cf_xfail_free(&xf);
    cf_catmap_free(catmap);
    cf_argv_free(words);
    cf_suite_free(&s);
    return rc;
}
