/*
 * mutate_bench.c: cost of one structure-aware mutation (tfs_mutate), in
 * mutations per second, per mutation family and per seed size, and the share
 * of the time spent in each phase of a call.
 *
 *   mutate_bench [--front libfuzzer|tfs_mutate] [--seconds S | --calls N]
 *                [--clock cpu|wall] [--max-size BYTES] [--depth N] [--json] SEED...
 *
 * SEED: files or folders (every regular file directly inside).  Calls are
 * made as libFuzzer makes them: a seed is copied into a buffer of max_size
 * bytes (not timed), then mutated --depth times in a row (default 5, as
 * libFuzzer's -mutate_depth), each call on the previous output; the seeds
 * are taken in turn.  --front libfuzzer (the default) calls the libFuzzer
 * front end as libFuzzer does when a target links it: one call in two
 * LLVMFuzzerCustomMutator (its length control caps the output at 1.5 x the
 * input or 4 KiB), the other LLVMFuzzerCustomCrossOver with the next seed
 * as second parent; --front tfs_mutate calls tfs_mutate(max_size) alone.
 * Only those calls are timed, in CPU time of the thread (--clock cpu, the
 * default: other processes on a shared machine do not count) or wall time
 * (--clock wall).  --max-size is libFuzzer's
 * max_size (default 131072, the campaigns' and OSS-Fuzz's -max_len): a seed
 * longer than it is cut, as libFuzzer cuts it.  Family figures (below) use
 * tfs_mutate in both modes (a family cannot be chosen through the front end),
 * with the front end's output cap in the libfuzzer mode.
 *
 * Printed: for each family (options.families = that family; seeds of a
 * format it has no mutation for are skipped) mutations/s over all seeds
 * for S seconds (default 1), then the median over families; for each seed
 * size class (< 1 KiB, 1-64 KiB, 64 KiB-1 MiB, >= 1 MiB) mutations/s of
 * random picks over the seeds of that class, and over all seeds; then the
 * share of each phase (load = parse + model, mutate = the model and bytes
 * phases, write, copy out + free) in a second run of random picks over all
 * seeds with the core's phase timer on.  A row "quick" gives
 * tfs_mutate_quick alone (the front ends' quick path; not in the median).
 * --json: the same as one JSON object on stdout.  --calls N: N calls per
 * figure instead of S seconds, and a digest (FNV-1a) of every output: two
 * builds that mutate alike print the same digest.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mut.h"
#include "tfs/mutate.h"

typedef struct seed {
    uint8_t *p;
    size_t n;
    int format;
} seed;

static seed *g_seeds;
static size_t g_n_seeds, g_cap_seeds;

/* --clock cpu (default): this thread's CPU time, so that other processes on
 * a shared machine do not count; --clock wall: CLOCK_MONOTONIC */
static clockid_t g_clock = CLOCK_THREAD_CPUTIME_ID;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(g_clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int add_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return -1;
    }
    long len = ftell(f);
    rewind(f);
    if (len <= 0) {
        fclose(f);
        return 0;
    }
    uint8_t *p = malloc((size_t)len);
    if (!p || fread(p, 1, (size_t)len, f) != (size_t)len) {
        free(p);
        fclose(f);
        return -1;
    }
    fclose(f);
    if (g_n_seeds == g_cap_seeds) {
        g_cap_seeds = g_cap_seeds ? 2 * g_cap_seeds : 64;
        seed *s = realloc(g_seeds, g_cap_seeds * sizeof *s);
        if (!s) return -1;
        g_seeds = s;
    }
    g_seeds[g_n_seeds].p = p;
    g_seeds[g_n_seeds].n = (size_t)len;
    g_seeds[g_n_seeds].format = tfs_mutate_format(p, (size_t)len);
    g_n_seeds++;
    return 0;
}

static int add_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) return add_file(path);
    DIR *d = opendir(path);
    if (!d) return -1;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) && rc == 0) {
        if (e->d_name[0] == '.') continue;
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) rc = add_file(full);
    }
    closedir(d);
    return rc;
}

/* formats (MUT_* bits) family `fam` has a mutation for */
static unsigned family_formats(const char *fam) {
    unsigned f = 0;
    size_t len = strlen(fam);
    for (int i = 0; i < tfs_mutation_count(); i++) {
        const char *n = tfs_mutation_name(i);
        if (strncmp(n, fam, len) == 0 && n[len] == '.') f |= tfs_mutation_formats(i);
    }
    return f;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2, uint8_t *out,
                                 size_t max_out_size, unsigned int seed);

static size_t g_max_size = 131072;
static int g_depth = 5;
static int g_front_lf = 1;
static uint64_t g_calls;                        /* --calls N: a fixed number of calls instead of a time */
static uint64_t g_digest = 0xcbf29ce484222325u; /* FNV-1a of every output (with --calls) */
static uint8_t *g_buf, *g_tmp;

/* the libFuzzer front end's length control (mutators/libfuzzer.c): 1.5 x
 * the input or 4 KiB, at most max_size; one call in 16 all of max_size */
static size_t out_cap(size_t size, unsigned s) {
    if ((s >> 8) % 16u == 0) return g_max_size;
    size_t b = size + size / 2;
    if (b < 4096) b = 4096;
    return b < g_max_size ? b : g_max_size;
}

/* Mutations/s of calls with `families` over the seeds selected by use[]
 * for `seconds`; *calls receives the number of calls. */
static double rate(const char *families, const unsigned char *use, double seconds, uint64_t *calls) {
    tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
    o.families = families;
    uint64_t spent = 0, n = 0, rng = 0x6d757461u;
    uint64_t limit = (uint64_t)(seconds * 1e9);
    size_t next = 0;
    while (g_calls ? n < g_calls : spent < limit) {
        size_t k = g_n_seeds;
        for (size_t t = 0; t < g_n_seeds; t++) {
            size_t i = (next + t) % g_n_seeds;
            if (use[i]) {
                k = i;
                break;
            }
        }
        if (k == g_n_seeds) break;
        next = k + 1;
        size_t size = g_seeds[k].n < g_max_size ? g_seeds[k].n : g_max_size;
        memcpy(g_buf, g_seeds[k].p, size);
        /* crossover partner: the next seed in use */
        size_t k2 = k;
        for (size_t t = 1; t <= g_n_seeds; t++)
            if (use[(k + t) % g_n_seeds]) {
                k2 = (k + t) % g_n_seeds;
                break;
            }
        size_t size2 = g_seeds[k2].n < g_max_size ? g_seeds[k2].n : g_max_size;
        uint64_t t0 = now_ns();
        for (int d = 0; d < g_depth; d++) {
            rng = rng * 6364136223846793005u + 1442695040888963407u;
            if (families && strcmp(families, "quick") == 0) { /* tfs_mutate_quick alone (no fallback) */
                size_t q = tfs_mutate_quick(g_buf, size, g_max_size, rng >> 11, NULL, 0);
                if (q) size = q;
            } else if (!g_front_lf || families) {
                size = tfs_mutate(g_buf, size, g_front_lf ? out_cap(size, (unsigned)(rng >> 20)) : g_max_size,
                                  rng >> 11, &o);
            } else if ((rng >> 63) == 0) {
                size = LLVMFuzzerCustomMutator(g_buf, size, g_max_size, (unsigned)(rng >> 20));
            } else {
                size_t m = LLVMFuzzerCustomCrossOver(g_buf, size, g_seeds[k2].p, size2, g_tmp, g_max_size,
                                                     (unsigned)(rng >> 20));
                if (m) { /* libFuzzer copies the child over the unit */
                    memcpy(g_buf, g_tmp, m);
                    size = m;
                }
            }
        }
        spent += now_ns() - t0;
        n += (uint64_t)g_depth;
        if (g_calls) { /* --calls: the outputs' digest */
            for (size_t b = 0; b < size; b++) g_digest = (g_digest ^ g_buf[b]) * 0x100000001b3u;
            g_digest = (g_digest ^ size) * 0x100000001b3u;
        }
    }
    *calls = n;
    return spent ? (double)n * 1e9 / (double)spent : 0.0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    double seconds = 1.0;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (strcmp(argv[i], "--max-size") == 0 && i + 1 < argc) {
            g_max_size = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc) {
            g_depth = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--front") == 0 && i + 1 < argc) {
            const char *f = argv[++i];
            if (strcmp(f, "libfuzzer") != 0 && strcmp(f, "tfs_mutate") != 0) {
                fprintf(stderr, "mutate_bench: --front libfuzzer or tfs_mutate\n");
                return 2;
            }
            g_front_lf = strcmp(f, "libfuzzer") == 0;
        } else if (strcmp(argv[i], "--clock") == 0 && i + 1 < argc) {
            const char *k = argv[++i];
            if (strcmp(k, "cpu") != 0 && strcmp(k, "wall") != 0) {
                fprintf(stderr, "mutate_bench: --clock cpu or wall\n");
                return 2;
            }
            g_clock = strcmp(k, "cpu") == 0 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
        } else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc) {
            g_calls = strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: mutate_bench [--front libfuzzer|tfs_mutate] [--seconds S | --calls N] [--max-size BYTES] "
                   "[--depth N] "
                   "[--json] SEED...\n"
                   "  mutations/s of tfs_mutate per family and per seed size, and the share of each phase\n");
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "mutate_bench: unknown option %s (--help)\n", argv[i]);
            return 2;
        } else if (add_path(argv[i]) != 0) {
            fprintf(stderr, "mutate_bench: cannot read %s\n", argv[i]);
            return 2;
        }
    }
    if (g_n_seeds == 0 || g_max_size == 0 || g_depth < 1 || seconds <= 0) {
        fprintf(stderr, "mutate_bench: no seeds (or a bad option); --help\n");
        return 2;
    }
    g_buf = malloc(g_max_size);
    g_tmp = malloc(g_max_size);
    unsigned char *use = malloc(g_n_seeds);
    if (!g_buf || !g_tmp || !use) return 1;
    uint64_t total_bytes = 0;
    for (size_t i = 0; i < g_n_seeds; i++) total_bytes += g_seeds[i].n;

    /* per family */
    int nf = tfs_mutation_family_count();
    double *fr = calloc((size_t)nf, sizeof *fr), *sorted = calloc((size_t)nf, sizeof *sorted);
    uint64_t *fc = calloc((size_t)nf, sizeof *fc);
    if (!fr || !sorted || !fc) return 1;
    int ns = 0;
    for (int f = 0; f < nf; f++) {
        const char *fam = tfs_mutation_family(f);
        unsigned fm = family_formats(fam);
        int any = 0;
        for (size_t i = 0; i < g_n_seeds; i++) {
            int fmt = g_seeds[i].format;
            use[i] = fmt != TFS_FORMAT_UNKNOWN && (fm & (1u << fmt));
            any |= use[i];
        }
        if (!any) continue;
        fr[f] = rate(fam, use, seconds, &fc[f]);
        sorted[ns++] = fr[f];
    }
    /* tfs_mutate_quick (the front ends' quick path), over the seeds it finds a field in */
    memset(use, 0, g_n_seeds);
    int any_quick = 0;
    for (size_t i = 0; i < g_n_seeds; i++) {
        use[i] = g_seeds[i].format != TFS_FORMAT_UNKNOWN;
        any_quick |= use[i];
    }
    uint64_t qc = 0;
    double quick = any_quick ? rate("quick", use, seconds, &qc) : 0.0;
    qsort(sorted, (size_t)ns, sizeof *sorted, cmp_double);
    double median = ns ? (ns % 2 ? sorted[ns / 2] : (sorted[ns / 2 - 1] + sorted[ns / 2]) / 2) : 0;

    /* per seed size */
    static const struct {
        const char *name;
        size_t lo, hi;
    } cls[] = {{"< 1 KiB", 0, 1024},
               {"1-64 KiB", 1024, 65536},
               {"64 KiB-1 MiB", 65536, 1u << 20},
               {">= 1 MiB", 1u << 20, SIZE_MAX}};
    double cr[4] = {0};
    uint64_t cc[4] = {0};
    size_t cn[4] = {0};
    for (int k = 0; k < 4; k++) {
        for (size_t i = 0; i < g_n_seeds; i++) {
            use[i] = g_seeds[i].n >= cls[k].lo && g_seeds[i].n < cls[k].hi;
            cn[k] += use[i];
        }
        if (cn[k]) cr[k] = rate(NULL, use, seconds, &cc[k]);
    }

    /* phases, random picks over all seeds */
    memset(use, 1, g_n_seeds);
    uint64_t pc;
    double all = rate(NULL, use, seconds, &pc);
    /* the same again with the phase timer on (it reads the clock 6 times a
     * call, so its own run is slower: only its shares are used) */
    mut_prof prof;
    memset(&prof, 0, sizeof prof);
    prof.now = now_ns;
    tfs__mut_prof = &prof;
    rate(NULL, use, seconds, &pc);
    tfs__mut_prof = NULL;
    uint64_t sum = 0;
    for (int i = 0; i < MUT_PH_N; i++) sum += prof.ns[i];
    double share[4] = {0};
    if (sum) {
        share[0] = 100.0 * (double)prof.ns[MUT_PH_LOAD] / (double)sum;
        share[1] = 100.0 * (double)(prof.ns[MUT_PH_MODEL] + prof.ns[MUT_PH_BYTES]) / (double)sum;
        share[2] = 100.0 * (double)prof.ns[MUT_PH_WRITE] / (double)sum;
        share[3] = 100.0 * (double)prof.ns[MUT_PH_COPY] / (double)sum;
    }
    static const char *const ph[4] = {"load (parse + model)", "mutate", "write", "copy out + free"};

    if (json) {
        printf("{\"front\": \"%s\", \"seeds\": %zu, \"seed_bytes\": %llu, \"max_size\": %zu, \"depth\": %d, "
               "\"seconds\": %g,\n",
               g_front_lf ? "libfuzzer" : "tfs_mutate", g_n_seeds, (unsigned long long)total_bytes, g_max_size, g_depth,
               seconds);
        printf(" \"families\": {");
        for (int f = 0, first = 1; f < nf; f++) {
            if (!fc[f]) continue;
            printf("%s\"%s\": %.0f", first ? "" : ", ", tfs_mutation_family(f), fr[f]);
            first = 0;
        }
        printf("},\n \"median_over_families\": %.0f,\n \"quick\": %.0f,\n \"size_classes\": {", median, quick);
        for (int k = 0, first = 1; k < 4; k++) {
            if (!cn[k]) continue;
            printf("%s\"%s\": {\"seeds\": %zu, \"per_s\": %.0f}", first ? "" : ", ", cls[k].name, cn[k], cr[k]);
            first = 0;
        }
        printf("},\n \"all_random\": %.0f,\n \"phase_percent\": {", all);
        for (int i = 0; i < 4; i++) printf("%s\"%s\": %.1f", i ? ", " : "", ph[i], share[i]);
        printf("}");
        if (g_calls) printf(",\n \"digest\": \"%016llx\"", (unsigned long long)g_digest);
        printf("}\n");
    } else {
        printf(
            "front end: %s; seeds: %zu files, %llu bytes; max_size %zu; %d calls per seed in a row; %g s per figure\n",
            g_front_lf ? "libfuzzer" : "tfs_mutate", g_n_seeds, (unsigned long long)total_bytes, g_max_size, g_depth,
            seconds);
        printf("\n| family | mutations/s |\n|---|---:|\n");
        for (int f = 0; f < nf; f++)
            if (fc[f]) printf("| %s | %.0f |\n", tfs_mutation_family(f), fr[f]);
        printf("| **median over families** | **%.0f** |\n", median);
        printf("| quick (tfs_mutate_quick, the front ends' quick path) | %.0f |\n", quick);
        printf("\n| seed size | seeds | mutations/s (random picks) |\n|---|---:|---:|\n");
        for (int k = 0; k < 4; k++)
            if (cn[k]) printf("| %s | %zu | %.0f |\n", cls[k].name, cn[k], cr[k]);
        printf("| all | %zu | %.0f |\n", g_n_seeds, all);
        printf("\n| phase | share of time |\n|---|---:|\n");
        for (int i = 0; i < 4; i++) printf("| %s | %.1f%% |\n", ph[i], share[i]);
        if (g_calls) printf("\noutput digest (FNV-1a of every output): %016llx\n", (unsigned long long)g_digest);
    }
    for (size_t i = 0; i < g_n_seeds; i++) free(g_seeds[i].p);
    free(g_seeds);
    free(g_buf);
    free(g_tmp);
    free(use);
    free(fr);
    free(sorted);
    free(fc);
    return 0;
}
