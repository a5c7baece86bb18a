/*
 * runstat.c: whole-process figures of several commands, measured side by
 * side in one run.
 *
 *   tfs_runstat [-n RUNS] [-w WARMUP] [-v] @NAME CMD [ARG...] [@NAME CMD [ARG...]]...
 *
 * Each argument that starts with '@' begins a new command named by the rest
 * of it.  The commands are run in alternation (A B C A B C ...): WARMUP
 * rounds that are not counted (default 2), then RUNS rounds (default 20).
 * Every run is a fork + execvp with stdin, stdout and stderr on /dev/null
 * (-v keeps stdout and stderr); its figures come from the kernel: wall time
 * from CLOCK_MONOTONIC around fork .. wait4, user and system CPU time,
 * minor and major page faults and peak RSS from the child's rusage (wait4).
 *
 * Output (stdout), one block per command and a TSV line per command:
 *   NAME: wall mean/min/median ms, user/sys mean ms, minor/major faults
 *         (mean), peak RSS (max of the runs, kB), exit status
 *   speedup of the FIRST command over each other one: mean, median and min
 *   wall time and mean CPU time (user + sys; less sensitive to other load
 *   on the machine) of the other divided by the first's.
 *   TSV: "#tsv name runs wall_mean wall_min wall_median user_mean sys_mean
 *         minflt_mean majflt_mean maxrss_kb exit"  (ms, counts, kB)
 * Every run of a command must end with the same exit status as its first
 * run (a command that is valid once is valid every time); otherwise the
 * figures are still printed and the exit status is 1.
 * Exit status: 0, 1 (a command's exit status changed or it died of a
 * signal), 2 (usage or fork/exec failure).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct sample {
    double wall_ms, user_ms, sys_ms;
    long minflt, majflt, maxrss_kb;
} sample;

typedef struct cmd {
    const char *name;
    char **argv;      /* NULL-terminated, points into main's argv (patched) */
    sample *s;        /* RUNS samples */
    int first_status; /* raw wait status of the first counted run */
    int n_bad;        /* runs whose status differs from the first, or signalled */
} cmd;

static double ms_of(struct timeval tv) { return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec * 1e-3; }

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Run argv once; fill *out and *status.  Returns 0, or -1 if fork failed.
 * An exec failure shows as exit status 127. */
static int run_once(char **argv, int verbose, sample *out, int *status) {
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            if (!verbose) {
                dup2(devnull, 1);
                dup2(devnull, 2);
            }
            if (devnull > 2) close(devnull);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    struct rusage ru;
    pid_t r;
    do r = wait4(pid, status, 0, &ru);
    while (r < 0 && errno == EINTR);
    double t1 = now_ms();
    if (r < 0) return -1;
    out->wall_ms = t1 - t0;
    out->user_ms = ms_of(ru.ru_utime);
    out->sys_ms = ms_of(ru.ru_stime);
    out->minflt = ru.ru_minflt;
    out->majflt = ru.ru_majflt;
    out->maxrss_kb = ru.ru_maxrss;
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct stats {
    double wall_mean, wall_min, wall_median, user_mean, sys_mean, minflt_mean, majflt_mean;
    long maxrss_kb;
} stats;

static stats summarise(const sample *s, int n, double *scratch) {
    stats st = {0};
    st.wall_min = s[0].wall_ms;
    for (int i = 0; i < n; i++) {
        st.wall_mean += s[i].wall_ms;
        st.user_mean += s[i].user_ms;
        st.sys_mean += s[i].sys_ms;
        st.minflt_mean += (double)s[i].minflt;
        st.majflt_mean += (double)s[i].majflt;
        if (s[i].wall_ms < st.wall_min) st.wall_min = s[i].wall_ms;
        if (s[i].maxrss_kb > st.maxrss_kb) st.maxrss_kb = s[i].maxrss_kb;
        scratch[i] = s[i].wall_ms;
    }
    st.wall_mean /= n;
    st.user_mean /= n;
    st.sys_mean /= n;
    st.minflt_mean /= n;
    st.majflt_mean /= n;
    qsort(scratch, (size_t)n, sizeof *scratch, cmp_double);
    st.wall_median = n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
    return st;
}

static void status_text(int status, char *buf, size_t cap) {
    if (WIFEXITED(status))
        snprintf(buf, cap, "exit %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, cap, "signal %d", WTERMSIG(status));
    else
        snprintf(buf, cap, "status %d", status);
}

static void usage(FILE *f) {
    fprintf(f, "usage: tfs_runstat [-n RUNS] [-w WARMUP] [-v] @NAME CMD [ARG...] [@NAME CMD [ARG...]]...\n");
}

int main(int argc, char **argv) {
    int runs = 20, warmup = 2, verbose = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
            warmup = atoi(argv[++i]);
        else if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (runs < 1 || runs > 100000 || warmup < 0 || warmup > 100000 || i >= argc || argv[i][0] != '@') {
        usage(stderr);
        return 2;
    }
    /* split argv at the @NAME markers; each marker becomes the previous
     * command's terminating NULL */
    cmd *cmds = calloc((size_t)argc, sizeof *cmds);
    if (!cmds) return 2;
    int n_cmds = 0;
    for (; i < argc; i++) {
        if (argv[i][0] == '@') {
            if (n_cmds > 0 && cmds[n_cmds - 1].argv == argv + i) {
                usage(stderr);
                return 2;
            } /* empty command */
            cmds[n_cmds].name = argv[i] + 1;
            cmds[n_cmds].argv = argv + i + 1;
            argv[i] = NULL; /* ends the previous command */
            n_cmds++;
        }
    }
    if (cmds[n_cmds - 1].argv[0] == NULL) {
        usage(stderr);
        return 2;
    }
    for (int c = 0; c < n_cmds; c++) {
        cmds[c].s = calloc((size_t)runs, sizeof(sample));
        if (!cmds[c].s) return 2;
    }
    double *scratch = calloc((size_t)runs, sizeof *scratch);
    if (!scratch) return 2;

    for (int round = 0; round < warmup + runs; round++) {
        for (int c = 0; c < n_cmds; c++) {
            sample s;
            int status;
            if (run_once(cmds[c].argv, verbose, &s, &status) != 0) {
                fprintf(stderr, "tfs_runstat: cannot run %s: %s\n", cmds[c].argv[0], strerror(errno));
                return 2;
            }
            if (round < warmup) continue;
            int k = round - warmup;
            cmds[c].s[k] = s;
            if (k == 0) cmds[c].first_status = status;
            if (status != cmds[c].first_status || WIFSIGNALED(status)) cmds[c].n_bad++;
            if (k == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
                fprintf(stderr, "tfs_runstat: %s: exit 127 (cannot execute %s?)\n", cmds[c].name, cmds[c].argv[0]);
                return 2;
            }
        }
    }

    int rc = 0;
    stats *st = calloc((size_t)n_cmds, sizeof *st);
    if (!st) return 2;
    printf("%d rounds after %d warm-up, alternating %d command(s); wall from CLOCK_MONOTONIC around fork..wait4, "
           "the rest from the child's rusage\n",
           runs, warmup, n_cmds);
    printf("%-16s %9s %9s %9s %9s %9s %10s %7s %10s  %s\n", "command", "wall_mean", "wall_min", "wall_med", "user",
           "sys", "minflt", "majflt", "maxrss_kB", "status");
    for (int c = 0; c < n_cmds; c++) {
        st[c] = summarise(cmds[c].s, runs, scratch);
        char stat_txt[32];
        status_text(cmds[c].first_status, stat_txt, sizeof stat_txt);
        printf("%-16s %9.2f %9.2f %9.2f %9.2f %9.2f %10.1f %7.1f %10ld  %s%s\n", cmds[c].name, st[c].wall_mean,
               st[c].wall_min, st[c].wall_median, st[c].user_mean, st[c].sys_mean, st[c].minflt_mean, st[c].majflt_mean,
               st[c].maxrss_kb, stat_txt, cmds[c].n_bad ? " (CHANGED between runs)" : "");
        if (cmds[c].n_bad) rc = 1;
    }
    for (int c = 1; c < n_cmds; c++)
        printf(
            "speedup of %s over %s: %.2fx (mean wall), %.2fx (median wall), %.2fx (min wall), %.2fx (mean user+sys)\n",
            cmds[0].name, cmds[c].name, st[c].wall_mean / st[0].wall_mean, st[c].wall_median / st[0].wall_median,
            st[c].wall_min / st[0].wall_min, (st[c].user_mean + st[c].sys_mean) / (st[0].user_mean + st[0].sys_mean));
    for (int c = 0; c < n_cmds; c++) {
        int status = cmds[c].first_status;
        printf("#tsv\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t%ld\t%d\n", cmds[c].name, runs, st[c].wall_mean,
               st[c].wall_min, st[c].wall_median, st[c].user_mean, st[c].sys_mean, st[c].minflt_mean, st[c].majflt_mean,
               st[c].maxrss_kb, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
    for (int c = 0; c < n_cmds; c++) free(cmds[c].s);
    free(cmds);
    free(scratch);
    free(st);
    return rc;
}
