/* replay_main.c: the main of a fuzz target's ordinary build.  Runs the
 * target's LLVMFuzzerTestOneInput on every file named on the command line
 * and every regular file of every directory named (not recursive; names
 * starting with '.' are skipped, so are subfolders), each in a malloc'd buffer of exactly its
 * size, so ASan sees any read past the input.  ctest runs it on the seed
 * corpus and fuzz/crashers/<target>/ (fuzz/TfsFuzz.cmake).
 *
 * Every input runs every variant of the target (tfs_fuzz_thorough), where
 * an engine runs the one its last byte selects.
 *
 * usage: TARGET [--rules] [--quiet] [--bench SECONDS] PATH...
 *   --rules  after the run, one line per rule of the target's format:
 *            "rule ID COUNT" (COUNT = how often a parse reported it, any
 *            profile), for fuzz/coverage.sh's rule coverage
 *   --quiet  no per-file line
 *   --bench SECONDS  load every input first, then run them round-robin
 *            as an engine does (one variant each) for SECONDS (wall clock) and print "execs N seconds S
 *            exec/s R inputs K mean_bytes B cpu_seconds C exec/cpu_s R2" (bench/fuzz/execs.sh)
 * Exit 0 when every input ran (a violated invariant aborts); 2 when a path
 * cannot be read. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"

static int g_quiet;
static unsigned long g_files;
/* --bench: the inputs kept in memory instead of run */
static int g_keep;
static uint8_t **g_inputs;
static size_t *g_sizes;
static size_t g_n_inputs, g_cap_inputs;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 2;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "replay: out of memory on %s\n", path);
            return 2;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *more = realloc(buf, cap * 2);
        if (!more) free(buf);
        buf = more;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "replay: read error on %s\n", path);
        return 2;
    }
    /* exactly n bytes, so ASan catches a read past the input */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return 2;
    }
    memcpy(exact, buf, n);
    free(buf);
    if (g_keep) {
        if (g_n_inputs == g_cap_inputs) {
            size_t ncap = g_cap_inputs ? g_cap_inputs * 2 : 256;
            uint8_t **in = realloc(g_inputs, ncap * sizeof *in);
            if (in) g_inputs = in;
            size_t *sz = realloc(g_sizes, ncap * sizeof *sz);
            if (sz) g_sizes = sz;
            if (!in || !sz) {
                free(exact);
                return 2;
            }
            g_cap_inputs = ncap;
        }
        g_inputs[g_n_inputs] = exact;
        g_sizes[g_n_inputs++] = n;
        return 0;
    }
    if (!g_quiet) fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    g_files++;
    return 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A directory if opendir accepts it, else a file.  No stat(): clang 14's
 * MemorySanitizer does not intercept glibc 2.33+'s stat, so its result
 * would look uninitialised. */
static int run_path(const char *path) {
    DIR *d = opendir(path);
    if (!d) return run_file(path);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        if (de->d_type != DT_REG && de->d_type != DT_LNK && de->d_type != DT_UNKNOWN) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **more = realloc(names, cap * sizeof *names);
            if (!more) {
                rc = 2;
                break;
            }
            names = more;
        }
        size_t len = strlen(path) + strlen(de->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) {
            rc = 2;
            break;
        }
        snprintf(names[n], len, "%s/%s", path, de->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        DIR *sub = rc == 0 ? opendir(names[i]) : NULL; /* a link to a folder, or DT_UNKNOWN: not recursive */
        if (sub)
            closedir(sub);
        else if (rc == 0)
            rc = run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }

/* run the kept inputs round-robin for `seconds` */
static void bench(double seconds) {
    if (!g_n_inputs) return;
    unsigned long long execs = 0, bytes = 0;
    for (size_t i = 0; i < g_n_inputs; i++) bytes += g_sizes[i];
    double t0 = now(), t = t0, c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    while (t - t0 < seconds) {
        for (size_t i = 0; i < g_n_inputs; i++) LLVMFuzzerTestOneInput(g_inputs[i], g_sizes[i]);
        execs += g_n_inputs;
        t = now();
    }
    double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    /* per CPU second too: on a shared machine the wall-clock rate is what
     * the process got, the CPU rate what one core gives */
    printf("execs %llu seconds %.2f exec/s %.0f inputs %zu mean_bytes %llu cpu_seconds %.2f exec/cpu_s %.0f\n", execs,
           t - t0, (double)execs / (t - t0), g_n_inputs, bytes / g_n_inputs, cpu, cpu > 0 ? (double)execs / cpu : 0.0);
    for (size_t i = 0; i < g_n_inputs; i++) free(g_inputs[i]);
    free(g_inputs);
    free(g_sizes);
}

int main(int argc, char **argv) {
    int rules = 0, rc = 0;
    double bench_seconds = 0;
    tfs_fuzz_thorough = 1; /* every variant of every input; --bench: as an engine runs them */
    for (int i = 1; i < argc && rc == 0; i++) {
        if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
            bench_seconds = atof(argv[++i]);
            g_keep = 1;
            tfs_fuzz_thorough = 0;
        } else if (!strcmp(argv[i], "--rules"))
            rules = 1;
        else if (!strcmp(argv[i], "--quiet"))
            g_quiet = 1;
        else
            rc = run_path(argv[i]);
    }
    if (g_keep && rc == 0) bench(bench_seconds);
    if (rules) {
        for (size_t i = 0; i < tfs_rule_count(); i++) {
            tfs_rule r = tfs_rule_at(i);
            if (tfs_rule_format(r) == (tfs_format)TFS_FUZZ_FORMAT)
                printf("rule %s %llu\n", tfs_rule_id(r), (unsigned long long)tfs_fuzz_rule_count(r));
        }
    }
    if (g_keep)
        fprintf(stderr, "replay: %zu inputs benchmarked%s\n", g_n_inputs, rc ? " (stopped: error)" : "");
    else
        fprintf(stderr, "replay: %lu inputs%s\n", g_files, rc ? " (stopped: error)" : "");
    return rc;
}
