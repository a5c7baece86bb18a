/*
 * ggml_oracle.c: run ggml's own GGUF reader (libggml-base.so, dlopen'ed) on
 * files and print its verdict per file, in two modes:
 *   meta : gguf_init_from_file(path, {no_alloc = true,  ctx = NULL})
 *          ggml "metadata mode" (what our --header-only mirrors);
 *   data : gguf_init_from_file(path, {no_alloc = false, ctx = &ctx})
 *          ggml "data mode": also allocates and reads the tensor data.
 * Each call runs in its own forked child with a wall-clock alarm, a CPU
 * limit and an address-space limit, because ggml may abort (GGML_ASSERT),
 * divide by zero, or try to allocate what the file declares.
 *
 * Usage: ggml_oracle [-L LIB] [-t SECONDS] [-m MIB] [-j JOBS] [-f LIST] FILE|DIR...
 *   -L LIB   path of libggml-base.so (default: $TFS_GGML_LIB)
 *   -t S     per-call timeout in seconds (default 10)
 *   -m MIB   RLIMIT_AS of each child in MiB (default 1024)
 *   -j N     children run in parallel (default 2)
 *   -f LIST  read file paths, one per line, from LIST
 *   DIR      every regular file directly inside DIR (sorted by name)
 * Output (stdout, TSV, one line per file, in input order after '#' lines):
 *   path  meta  data  n_tensors  n_kv  meta_error  data_error
 * where meta/data is one of
 *   accept          ggml returned a context
 *   reject          ggml returned NULL
 *   crash:SIGxxx    the child died of a signal (SIGABRT = GGML_ASSERT/abort)
 *   timeout         the child was killed by the alarm or the CPU limit
 *   exit:N          the child exited without reporting (should not happen)
 * n_tensors/n_kv are from the metadata-mode context ('-' unless meta accepts);
 * meta_error/data_error are the first error message ggml logged in that mode
 * (its reason for rejecting; '-' when none), without the function prefix.
 * A crash is followed by ':' and the first line ggml printed (its
 * GGML_ASSERT text, e.g. "crash:SIGABRT:GGML_ASSERT(ctx->mem_buffer != NULL)
 * failed" for a context allocation that failed under the memory limit).
 * Exit status: 0 on success, 2 on usage or setup errors.
 *
 * ggml's log output is silenced with ggml_log_set; GGML_NO_BACKTRACE=1 is
 * set so that an abort does not start gdb.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ggml_api.h"

static struct {
    gguf_init_from_file_fn init_from_file;
    gguf_get_n_fn get_n_tensors;
    gguf_get_n_fn get_n_kv;
    gguf_free_fn gguf_free;
    ggml_free_fn ggml_free;
    ggml_log_set_fn log_set;
} gg;

/* The first error ggml logs in a child (its reason for rejecting), without
 * the "function: " prefix and the newline.  Set by the log callback. */
static char first_error[200];

static void quiet_log(int level, const char *text, void *user_data) {
    (void)user_data;
    if (level != 4 /* GGML_LOG_LEVEL_ERROR */ || first_error[0] || !text) return;
    const char *p = strstr(text, ": ");
    p = p && (size_t)(p - text) < 40 ? p + 2 : text;
    size_t n = strlen(p);
    while (n > 0 && p[n - 1] == '\n') n--; /* keys may hold newlines: keep all but the last */
    if (n < sizeof first_error) {
        memcpy(first_error, p, n);
        first_error[n] = 0;
    } else { /* a long key or name inside: keep the head and the tail (the reason) */
        const size_t head = 60, tail = sizeof first_error - head - 4;
        memcpy(first_error, p, head);
        memcpy(first_error + head, "...", 3);
        memcpy(first_error + head + 3, p + n - tail, tail);
        first_error[head + 3 + tail] = 0;
    }
    for (char *q = first_error; *q; q++)
        if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f) *q = '?'; /* keys are raw bytes */
}

static int load_lib(const char *lib) {
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "ggml_oracle: cannot load %s: %s\n", lib, dlerror());
        return -1;
    }
    struct {
        const char *name;
        void **slot;
    } syms[] = {
        {"gguf_init_from_file", (void **)&gg.init_from_file},
        {"gguf_get_n_tensors", (void **)&gg.get_n_tensors},
        {"gguf_get_n_kv", (void **)&gg.get_n_kv},
        {"gguf_free", (void **)&gg.gguf_free},
        {"ggml_free", (void **)&gg.ggml_free},
        {"ggml_log_set", (void **)&gg.log_set},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *p = dlsym(h, syms[i].name);
        if (!p) {
            fprintf(stderr, "ggml_oracle: %s lacks symbol %s\n", lib, syms[i].name);
            return -1;
        }
        memcpy(syms[i].slot, &p, sizeof p);
    }
    gg.log_set(quiet_log, NULL);
    return 0;
}

/* --- one call, in a child --- */

/* Record a child writes to its pipe before _exit(0). */
struct record {
    int32_t accepted;
    int64_t n_tensors;
    int64_t n_kv;
    char msg[200]; /* first error ggml logged */
};

struct result {
    char verdict[160];
    int64_t n_tensors, n_kv;
    char msg[200];
};

static unsigned opt_timeout = 10;
static unsigned long opt_mem_mib = 1024;

static void child_run(const char *path, bool data_mode, int wfd) {
    struct rlimit as = {opt_mem_mib << 20, opt_mem_mib << 20};
    setrlimit(RLIMIT_AS, &as);
    struct rlimit cpu = {opt_timeout, opt_timeout + 1};
    setrlimit(RLIMIT_CPU, &cpu);
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    alarm(opt_timeout);

    struct record r = {0, -1, -1, {0}};
    void *ctx = NULL;
    struct gguf_init_params p = {data_mode ? false : true, data_mode ? &ctx : NULL};
    void *g = gg.init_from_file(path, p);
    if (g) {
        r.accepted = 1;
        r.n_tensors = gg.get_n_tensors(g);
        r.n_kv = gg.get_n_kv(g);
        gg.gguf_free(g);
    }
    if (ctx) gg.ggml_free(ctx);
    memcpy(r.msg, first_error, sizeof r.msg);
    ssize_t w = write(wfd, &r, sizeof r);
    _exit(w == (ssize_t)sizeof r ? 0 : 3);
}

/* The part of ggml's abort line worth keeping: from "GGML_ASSERT" (or the
 * text after the last ": " of "file:line: message"), one line, no tabs. */
static void abort_note(char *msg, char *note, size_t cap) {
    char *nl = strchr(msg, '\n');
    if (nl) *nl = 0;
    char *p = strstr(msg, "GGML_ASSERT");
    if (!p) {
        p = strrchr(msg, ':');
        p = p ? p + 1 + (p[1] == ' ') : msg;
    }
    size_t n = strlen(p);
    if (n >= cap) n = cap - 1;
    memcpy(note, p, n);
    note[n] = 0;
    for (char *q = note; *q; q++)
        if (*q == '\t' || *q == '\r') *q = ' ';
}

static void describe_status(int status, bool got, const struct record *r, char *msg, struct result *out) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGALRM || sig == SIGXCPU || sig == SIGKILL) {
            snprintf(out->verdict, sizeof out->verdict, "timeout");
        } else {
            char note[120];
            abort_note(msg, note, sizeof note);
            const char *name = sigabbrev_np(sig);
            snprintf(out->verdict, sizeof out->verdict, "crash:SIG%.16s%s%.120s", name ? name : "?", *note ? ":" : "",
                     note);
        }
        return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got) {
        snprintf(out->verdict, sizeof out->verdict, "%s", r->accepted ? "accept" : "reject");
        out->n_tensors = r->n_tensors;
        out->n_kv = r->n_kv;
        memcpy(out->msg, r->msg, sizeof out->msg);
        out->msg[sizeof out->msg - 1] = 0;
        return;
    }
    snprintf(out->verdict, sizeof out->verdict, "exit:%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* --- the job pool --- */

struct slot {
    pid_t pid;
    int rfd, efd; /* record pipe, stderr pipe */
    size_t job;   /* index into results: file * 2 + mode */
};

static int run_all(char **files, size_t n, unsigned jobs, struct result *res) {
    struct slot *slots = calloc(jobs, sizeof *slots);
    if (!slots) return -1;
    size_t next = 0, total = n * 2, done = 0;
    unsigned running = 0;
    while (done < total) {
        while (running < jobs && next < total) {
            int fds[2], efds[2];
            if (pipe(fds) != 0 || pipe(efds) != 0) {
                perror("pipe");
                free(slots);
                return -1;
            }
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                free(slots);
                return -1;
            }
            if (pid == 0) {
                close(fds[0]);
                close(efds[0]);
                dup2(efds[1], 2); /* ggml's abort message; at most a pipe's worth */
                close(efds[1]);
                fcntl(2, F_SETFL, O_NONBLOCK);
                child_run(files[next / 2], next % 2 == 1, fds[1]);
            }
            close(fds[1]);
            close(efds[1]);
            unsigned s = 0;
            while (slots[s].pid) s++;
            slots[s] = (struct slot){pid, fds[0], efds[0], next};
            next++;
            running++;
        }
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            perror("waitpid");
            free(slots);
            return -1;
        }
        for (unsigned s = 0; s < jobs; s++) {
            if (slots[s].pid != pid) continue;
            struct record r;
            ssize_t got = read(slots[s].rfd, &r, sizeof r);
            close(slots[s].rfd);
            char msg[512];
            ssize_t ml = read(slots[s].efd, msg, sizeof msg - 1);
            msg[ml > 0 ? ml : 0] = 0;
            close(slots[s].efd);
            struct result *out = &res[slots[s].job];
            out->n_tensors = out->n_kv = -1;
            describe_status(status, got == (ssize_t)sizeof r, &r, msg, out);
            slots[s].pid = 0;
            running--;
            done++;
            break;
        }
    }
    free(slots);
    return 0;
}

/* --- inputs --- */

struct list {
    char **v;
    size_t n, cap;
};

static int push(struct list *l, const char *s) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(s))) return -1;
    l->n++;
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int add_arg(struct list *l, const char *arg) {
    struct stat st;
    if (stat(arg, &st) != 0) {
        fprintf(stderr, "ggml_oracle: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return push(l, arg);
    DIR *d = opendir(arg);
    if (!d) {
        fprintf(stderr, "ggml_oracle: %s: %s\n", arg, strerror(errno));
        return -1;
    }
    size_t first = l->n;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p;
        if (asprintf(&p, "%s/%s", arg, e->d_name) < 0) {
            closedir(d);
            return -1;
        }
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && push(l, p) != 0) {
            free(p);
            closedir(d);
            return -1;
        }
        free(p);
    }
    closedir(d);
    qsort(l->v + first, l->n - first, sizeof *l->v, cmp_str);
    return 0;
}

static int add_list_file(struct list *l, const char *listfile) {
    FILE *f = fopen(listfile, "r");
    if (!f) {
        fprintf(stderr, "ggml_oracle: %s: %s\n", listfile, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (len == 0 || line[0] == '#') continue;
        if (push(l, line) != 0) {
            rc = -1;
            break;
        }
    }
    free(line);
    fclose(f);
    return rc;
}

static void usage(void) {
    fprintf(stderr, "usage: ggml_oracle [-L libggml-base.so] [-t seconds] [-m MiB] [-j jobs] [-f list] FILE|DIR...\n");
}

int main(int argc, char **argv) {
    const char *lib = getenv("TFS_GGML_LIB");
    unsigned jobs = 2;
    struct list files = {0};
    int c;
    while ((c = getopt(argc, argv, "L:t:m:j:f:h")) != -1) {
        switch (c) {
        case 'L': lib = optarg; break;
        case 't': opt_timeout = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'm': opt_mem_mib = strtoul(optarg, NULL, 10); break;
        case 'j': jobs = (unsigned)strtoul(optarg, NULL, 10); break;
        case 'f':
            if (add_list_file(&files, optarg) != 0) return 2;
            break;
        default: usage(); return 2;
        }
    }
    for (int i = optind; i < argc; i++)
        if (add_arg(&files, argv[i]) != 0) return 2;
    if (!lib || !*lib || files.n == 0 || jobs == 0 || opt_timeout == 0 || opt_mem_mib < 64) {
        usage();
        if (!lib || !*lib) fprintf(stderr, "ggml_oracle: no library (-L or TFS_GGML_LIB)\n");
        return 2;
    }
    setenv("GGML_NO_BACKTRACE", "1", 1);
    if (load_lib(lib) != 0) return 2;

    struct result *res = calloc(files.n * 2, sizeof *res);
    if (!res || run_all(files.v, files.n, jobs, res) != 0) return 2;

    printf("# ggml_oracle lib=%s timeout=%u mem_mib=%lu files=%zu\n", lib, opt_timeout, opt_mem_mib, files.n);
    printf("# path\tmeta\tdata\tn_tensors\tn_kv\tmeta_error\tdata_error\n");
    for (size_t i = 0; i < files.n; i++) {
        const struct result *m = &res[2 * i], *d = &res[2 * i + 1];
        printf("%s\t%s\t%s\t", files.v[i], m->verdict, d->verdict);
        if (strcmp(m->verdict, "accept") == 0)
            printf("%lld\t%lld", (long long)m->n_tensors, (long long)m->n_kv);
        else
            printf("-\t-");
        printf("\t%s\t%s\n", m->msg[0] ? m->msg : "-", d->msg[0] ? d->msg : "-");
        free(files.v[i]);
    }
    free(files.v);
    free(res);
    return fflush(stdout) == 0 ? 0 : 2;
}
