/* spawn.c: adapters run in parallel (design.md "Adapter protocol").
 *
 * Each run: posix_spawnp, a new process group, standard input from
 * /dev/null, stdout and stderr through pipes read with poll(); the first
 * `output_cap` bytes of each stream are kept, the rest is read and dropped
 * (a flood never blocks the adapter nor grows memory).  Sanitizer options
 * in the adapter's environment make a sanitizer report exit with
 * CF_SAN_EXIT, never 1 (which would read as a rejection); stderr is also
 * scanned for sanitizer reports (a report with exit 0 is a crash).
 *
 * End of a run: when the adapter's main process exits (seen with
 * waitid(WNOWAIT), before it is reaped, so its process group id cannot be
 * reused), its whole process group is killed (SIGKILL), then the pipes are
 * read to their end, at most CF_DRAIN_MS more (a process that left the
 * group, with setsid, may keep them open).  On timeout the group is killed.
 * Results go into each case in place, so the order of the cases (and of
 * the reports) does not depend on which run ends first. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "conform.h"

#define CF_SAN_EXIT 86
#define CF_DRAIN_MS 200.0

static int wake_pipe[2] = {-1, -1};

void cf_spawn_wake(void) {
    if (wake_pipe[1] >= 0) {
        int e = errno;
        ssize_t r = write(wake_pipe[1], "x", 1);
        (void)r;
        errno = e;
    }
}

static void on_sigchld(int sig) {
    (void)sig;
    cf_spawn_wake();
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cloexec_nonblock(int fd, int nonblock) {
    int fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0) return -1;
    if (!nonblock) return 0;
    fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

typedef struct stream {
    int fd;
    char *data;   /* first `cap` bytes (grown as they come) */
    size_t len;   /* kept */
    size_t alloc; /* bytes allocated at data */
    uint64_t total;
    char carry[40]; /* tail of the previous chunk (patterns across reads) */
    size_t carry_len;
} stream;

typedef struct slot {
    cf_case *c;
    pid_t pid;
    stream s[2]; /* stdout, stderr */
    int exited, status, timed_out;
    double start, deadline, end, drain_until;
    char san[120]; /* the sanitizer line seen, or "" */
} slot;

static const char *const san_markers[] = {
    "ERROR: AddressSanitizer", "ERROR: HWAddressSanitizer", "ERROR: LeakSanitizer", "WARNING: MemorySanitizer",
    "ERROR: MemorySanitizer",  "WARNING: ThreadSanitizer",  "runtime error:",       NULL};

static const char *find(const char *h, size_t hl, const char *needle) {
    size_t nl = strlen(needle);
    for (size_t i = 0; i + nl <= hl; i++)
        if (h[i] == needle[0] && memcmp(h + i, needle, nl) == 0) return h + i;
    return NULL;
}

/* Scan carry + chunk for a sanitizer marker (stderr). */
static void scan_stderr(slot *sl, const char *buf, size_t n) {
    stream *st = &sl->s[1];
    if (!sl->san[0]) {
        char tmp[40 + 512];
        /* the seam: carry + first bytes of the chunk */
        size_t head = n < 512 ? n : 512;
        memcpy(tmp, st->carry, st->carry_len);
        memcpy(tmp + st->carry_len, buf, head);
        for (int i = 0; san_markers[i] && !sl->san[0]; i++) {
            const char *hit = find(tmp, st->carry_len + head, san_markers[i]);
            if (!hit) hit = find(buf, n, san_markers[i]);
            if (hit) snprintf(sl->san, sizeof sl->san, "%s", san_markers[i]);
        }
    }
    size_t cap = sizeof st->carry, cl = st->carry_len;
    if (n >= cap) {
        memcpy(st->carry, buf + n - cap, cap);
        st->carry_len = cap;
    } else {
        size_t drop = cl + n > cap ? cl + n - cap : 0;
        memmove(st->carry, st->carry + drop, cl - drop);
        memcpy(st->carry + cl - drop, buf, n);
        st->carry_len = cl - drop + n;
    }
}

static void close_stream(stream *st) {
    if (st->fd >= 0) close(st->fd);
    st->fd = -1;
}

/* Read what is there; close at EOF or error. */
static void pump(slot *sl, int which, size_t cap) {
    stream *st = &sl->s[which];
    char buf[65536];
    for (int rounds = 0; rounds < 16 && st->fd >= 0; rounds++) {
        ssize_t r = read(st->fd, buf, sizeof buf);
        if (r > 0) {
            size_t n = (size_t)r;
            if (st->len < cap) {
                size_t take = cap - st->len < n ? cap - st->len : n;
                if (st->len + take > st->alloc) {
                    size_t na = st->alloc ? st->alloc : 4096;
                    while (na < st->len + take) na *= 2;
                    if (na > cap) na = cap;
                    char *nd = realloc(st->data, na);
                    if (!nd) { /* keep what we have; drain the rest */
                        st->total += n;
                        continue;
                    }
                    st->data = nd;
                    st->alloc = na;
                }
                memcpy(st->data + st->len, buf, take);
                st->len += take;
            }
            st->total += n;
            if (which == 1) scan_stderr(sl, buf, n);
        } else if (r == 0) {
            close_stream(st);
        } else if (errno == EINTR) {
            continue;
        } else {
            if (errno != EAGAIN && errno != EWOULDBLOCK) close_stream(st);
            return;
        }
    }
}

/* The adapters' environment: ours, with sanitizer options appended to the
 * user's (later options win), so a sanitizer report never exits 0 or 1. */
static char **adapter_env(void) {
    extern char **environ;
    static const char *const san[][2] = {
        {"ASAN_OPTIONS", "exitcode=86:abort_on_error=0:halt_on_error=1"},
        {"UBSAN_OPTIONS", "exitcode=86:halt_on_error=1:abort_on_error=0:print_stacktrace=1"},
        {"MSAN_OPTIONS", "exitcode=86:halt_on_error=1:abort_on_error=0"},
        {"LSAN_OPTIONS", "exitcode=86"},
        {"TSAN_OPTIONS", "exitcode=86:halt_on_error=1:abort_on_error=0"}};
    enum { NSAN = sizeof san / sizeof san[0] };
    size_t n = 0;
    while (environ[n]) n++;
    char **env = calloc(n + NSAN + 1, sizeof *env);
    if (!env) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int ours = 0;
        for (size_t j = 0; j < NSAN && !ours; j++) {
            size_t l = strlen(san[j][0]);
            ours = strncmp(environ[i], san[j][0], l) == 0 && environ[i][l] == '=';
        }
        if (!ours) env[k++] = strdup(environ[i]);
        if (!ours && !env[k - 1]) goto oom;
    }
    for (size_t j = 0; j < NSAN; j++) {
        const char *old = getenv(san[j][0]);
        size_t len = strlen(san[j][0]) + (old ? strlen(old) : 0) + strlen(san[j][1]) + 3;
        if (!(env[k] = malloc(len))) goto oom;
        snprintf(env[k++], len, "%s=%s%s%s", san[j][0], old && *old ? old : "", old && *old ? ":" : "", san[j][1]);
    }
    return env;
oom:
    cf_argv_free(env);
    return NULL;
}

/* Start one run with posix_spawnp (vfork speed): a new process group,
 * stdin /dev/null, stdout and stderr to our pipes, default SIGPIPE / SIGINT
 * / SIGTERM / SIGHUP / SIGCHLD, empty signal mask.  0 ok; -1 (errno) when it could not start. */
static int start(slot *sl, cf_case *c, char *const *words, const char *cmd, int shell, const cf_spawn_opts *so,
                 char **env) {
    memset(sl, 0, sizeof *sl);
    sl->c = c;
    sl->s[0].fd = sl->s[1].fd = -1;
    char **argv = cf_expand_command(words, cmd, shell, c->line->path);
    if (!argv) return -1;
    int out[2] = {-1, -1}, err[2] = {-1, -1}, rc = -1, e = 0;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    int fa_ok = 0, at_ok = 0;
    if (pipe(out) != 0 || pipe(err) != 0) goto done;
    if (cloexec_nonblock(out[0], 1) || cloexec_nonblock(err[0], 1) || cloexec_nonblock(out[1], 0) ||
        cloexec_nonblock(err[1], 0))
        goto done;
    if ((e = posix_spawn_file_actions_init(&fa)) != 0) goto done;
    fa_ok = 1;
    if ((e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0)) ||
        (e = posix_spawn_file_actions_adddup2(&fa, out[1], 1)) ||
        (e = posix_spawn_file_actions_adddup2(&fa, err[1], 2)))
        goto done;
    if ((e = posix_spawnattr_init(&at)) != 0) goto done;
    at_ok = 1;
    sigset_t def, none;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigaddset(&def, SIGINT);
    sigaddset(&def, SIGTERM);
    sigaddset(&def, SIGHUP);
    sigaddset(&def, SIGCHLD);
    sigemptyset(&none);
    if ((e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)) ||
        (e = posix_spawnattr_setpgroup(&at, 0)) || (e = posix_spawnattr_setsigdefault(&at, &def)) ||
        (e = posix_spawnattr_setsigmask(&at, &none)))
        goto done;
    sl->start = now_ms();
    pid_t pid;
    if ((e = posix_spawnp(&pid, argv[0], &fa, &at, argv, env)) != 0) goto done;
    sl->pid = pid;
    sl->deadline = sl->start + so->timeout * 1e3;
    sl->s[0].fd = out[0];
    sl->s[1].fd = err[0];
    out[0] = err[0] = -1;
    rc = 0;
done:
    if (rc != 0 && !e) e = errno;
    if (fa_ok) posix_spawn_file_actions_destroy(&fa);
    if (at_ok) posix_spawnattr_destroy(&at);
    for (int i = 0; i < 2; i++) {
        if (out[i] >= 0) close(out[i]);
        if (err[i] >= 0) close(err[i]);
    }
    cf_argv_free(argv);
    errno = e;
    return rc;
}

static const char *signal_name(int sig, char *buf, size_t n) {
    static const struct {
        int sig;
        const char *name;
    } t[] = {{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
             {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"},
             {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGALRM, "SIGALRM"}, {SIGINT, "SIGINT"},
             {SIGQUIT, "SIGQUIT"}, {SIGHUP, "SIGHUP"},   {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
             {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].sig == sig) return t[i].name;
    snprintf(buf, n, "signal %d", sig);
    return buf;
}

/* The optional first stdout line: {"rule", "category", "content"}.
 * *cut = 1 when it looks like one but the output cap cut it; *bad = why a
 * line starting with '{' is not a usable one (not JSON, not an object), or
 * NULL. */
static json_t *first_line_json(const stream *st, int *cut, const char **bad) {
    *cut = 0;
    *bad = NULL;
    if (!st->len) return NULL;
    const char *nl = memchr(st->data, '\n', st->len);
    size_t len = nl ? (size_t)(nl - st->data) : st->len;
    if (!nl && st->total > st->len) { /* cut by the cap: not the whole line */
        *cut = st->data[0] == '{';
        return NULL;
    }
    if (len == 0 || st->data[0] != '{') return NULL;
    json_error_t je;
    json_t *j = cf_json_loadb(st->data, len, 0, &je);
    if (!j) *bad = "is not valid JSON";
    if (j && !json_is_object(j)) {
        *bad = "is not a JSON object";
        json_decref(j);
        j = NULL;
    }
    return j;
}

/* The protocol reads only the first stdout line.  When that line is not a
 * JSON object but a later line is one (a reader's debug print before the
 * adapter's line), the JSON line is not read: said in c->warning (a
 * warning, not a failure: design.md "non-JSON output is ignored"; the
 * verdict stays the exit code's, the content is not compared). */
static void late_json_line(const stream *st, cf_case *c) {
    if (!st->data || !st->len) return; /* no output: nothing to look at (and no pointer to offset) */
    const char *p = st->data, *end = st->data + st->len;
    const char *nl = memchr(p, '\n', st->len);
    if (!nl || p[0] == '{') return;
    size_t first_len = (size_t)(nl - p);
    int lineno = 1;
    for (const char *q = nl + 1; q < end; lineno++) {
        const char *e = memchr(q, '\n', (size_t)(end - q));
        size_t len = e ? (size_t)(e - q) : (size_t)(end - q);
        if (len && q[0] == '{') {
            json_error_t je;
            json_t *j = cf_json_loadb(q, len, 0, &je);
            int obj = j && json_is_object(j);
            json_decref(j);
            if (obj) {
                char first[64];
                size_t k = 0;
                for (; k < first_len && k < 48; k++) first[k] = (unsigned char)p[k] < 0x20 || p[k] == 0x7f ? '?' : p[k];
                first[k] = '\0';
                snprintf(c->warning, sizeof c->warning,
                         "stdout line %d is a JSON object but line 1 is not (\"%s%s\"): the protocol reads line 1 "
                         "only; rule, category and content not read",
                         lineno + 1, first, first_len > 48 ? "..." : "");
                return;
            }
        }
        if (!e) break;
        q = e + 1;
    }
}

static void finish(slot *sl, const cf_catmap *catmap) {
    cf_case *c = sl->c;
    close_stream(&sl->s[0]);
    close_stream(&sl->s[1]);
    c->ms = sl->end - sl->start;
    cf_outcome o = {0};
    char why[400] = "", sigbuf[24];
    json_t *j = NULL;
    int st = sl->status, cut = 0;
    const char *bad_line = NULL;
    if (sl->timed_out) {
        o.kind = CF_GOT_TIMEOUT;
        snprintf(c->exit_desc, sizeof c->exit_desc, "timeout");
        snprintf(why, sizeof why, "no answer within %.0f ms; process group killed", sl->deadline - sl->start);
    } else if (WIFSIGNALED(st)) {
        const char *sn = signal_name(WTERMSIG(st), sigbuf, sizeof sigbuf);
        o.kind = CF_GOT_CRASH;
        snprintf(c->exit_desc, sizeof c->exit_desc, "%s", sn);
        snprintf(why, sizeof why, "killed by %s%s%s", sn, sl->san[0] ? "; sanitizer report on stderr: " : "", sl->san);
    } else {
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        snprintf(c->exit_desc, sizeof c->exit_desc, "%d", code);
        if (sl->san[0]) {
            o.kind = CF_GOT_CRASH;
            snprintf(why, sizeof why, "sanitizer report on stderr (%s), exit %d", sl->san, code);
        } else if (code == 0 || code == 1) {
            o.kind = code == 0 ? CF_GOT_ACCEPT : CF_GOT_REJECT;
            j = first_line_json(&sl->s[0], &cut, &bad_line);
            if (!j && !cut && !bad_line) late_json_line(&sl->s[0], c);
            json_t *r = json_object_get(j, "rule"), *k = json_object_get(j, "category");
            if (json_is_string(r))
                o.rule = json_string_value(r);
            else if (r && !json_is_null(r))
                bad_line = "has a \"rule\" that is not a string";
            if (json_is_string(k))
                o.category = json_string_value(k);
            else if (k && !json_is_null(k) && !bad_line)
                bad_line = "has a \"category\" that is not a string";
            /* optional "offset": a JSON integer, or a decimal string (64-bit offsets exact) */
            json_t *off = json_object_get(j, "offset");
            if (json_is_integer(off) && json_integer_value(off) >= 0) {
                o.has_offset = 1;
                o.offset = (uint64_t)json_integer_value(off);
            } else if (json_is_string(off) && cf_parse_u64(json_string_value(off), &o.offset) == 0) {
                o.has_offset = 1;
            } else if (off && !json_is_null(off) && !bad_line) {
                bad_line = "has an \"offset\" that is not a non-negative integer";
            }
            /* optional "index": the record the violation is about (tfs_error.index), -1 for the file */
            json_t *ix = json_object_get(j, "index");
            if (json_is_integer(ix) && json_integer_value(ix) >= -1) {
                o.has_index = 1;
                o.index = (int64_t)json_integer_value(ix);
            } else if (ix && !json_is_null(ix) && !bad_line) {
                bad_line = "has an \"index\" that is not an integer >= -1";
            }
            /* a message-only reader: its category (or rule) from the map */
            if (code == 1 && catmap && !o.rule && !o.category) {
                json_t *msg = json_object_get(j, "message");
                int is_rule = 0;
                const char *v = NULL;
                if (json_is_string(msg)) v = cf_catmap_match(catmap, json_string_value(msg), &is_rule);
                if (!v && sl->s[1].len) {
                    char *text = strndup(sl->s[1].data, sl->s[1].len);
                    if (text) v = cf_catmap_match(catmap, text, &is_rule);
                    free(text);
                }
                if (v && is_rule)
                    o.rule = v;
                else if (v)
                    o.category = v;
            }
            json_t *content = json_object_get(j, "content");
            if (code == 0 && c->expected_content && strcmp(c->expect, "valid") == 0) {
                c->content = CF_CONTENT_NOT_CHECKED;
                if (content) {
                    cf_content_cov cov;
                    o.misread = cf_content_check(content, c->expected_content, why, sizeof why, &cov) != 0;
                    o.why = why;
                    c->content = cf_content_state_of(&cov);
                }
            }
        } else if (code == 77) {
            o.kind = CF_GOT_SKIP;
        } else if (code == CF_SAN_EXIT) {
            o.kind = CF_GOT_CRASH;
            snprintf(why, sizeof why, "exit %d: the sanitizer exit code the runner sets", code);
        } else {
            o.kind = CF_GOT_CRASH;
            snprintf(why, sizeof why, "exit %d is outside the protocol (0 accept, 1 reject, 77 unsupported)%s", code,
                     code == 127 ? ": the adapter was not found, or a library it needs could not be loaded" : "");
        }
    }
    if (!o.why && why[0]) o.why = why;
    cf_classify(c, &o);
    json_decref(j);
    if (cut && !c->detail[0]) /* said, never silent: nothing of the line was used */
        snprintf(c->detail, sizeof c->detail,
                 "first stdout line longer than --output-cap (%zu bytes): rule, category and content not compared",
                 sl->s[0].len);
    if (bad_line) /* the same: said, and the verdict is the exit code's */
        cf_detail_note(c, "first stdout line starts with '{' but %s: ignored", bad_line);
    if (c->result == CF_CRASH && sl->s[1].len) { /* why it crashed, often on stderr's first line */
        const char *p = sl->s[1].data, *end = p + sl->s[1].len;
        while (p < end && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')) p++;
        size_t ll = 0;
        while (p + ll < end && p[ll] != '\n' && p[ll] != '\r') ll++;
        char line[164];
        size_t k = 0;
        for (; k < ll && k < 160; k++) /* control bytes (a terminal's escapes) shown as '?' */
            line[k] = (unsigned char)p[k] < 0x20 || p[k] == 0x7f ? '?' : p[k];
        line[k] = '\0';
        if (ll) cf_detail_note(c, "stderr: %s%s", line, ll > 160 ? "..." : "");
    }
    if (c->result != CF_PASS && c->result != CF_IMPL && sl->s[1].len) {
        size_t n = sl->s[1].len < 2048 ? sl->s[1].len : 2048;
        c->stderr_text = malloc(n + 1);
        if (c->stderr_text) {
            memcpy(c->stderr_text, sl->s[1].data, n);
            c->stderr_text[n] = '\0';
        }
    }
    c->done = 1;
    free(sl->s[0].data);
    free(sl->s[1].data);
    sl->c = NULL;
}

/* Has the main process exited?  Kill its group (still reserved by the
 * zombie), then reap it. */
static void check_exit(slot *sl, double now) {
    if (sl->exited) return;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)sl->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != sl->pid) return;
    kill(-sl->pid, SIGKILL);
    int status;
    while (waitpid(sl->pid, &status, 0) < 0 && errno == EINTR) {}
    sl->status = status;
    sl->exited = 1;
    sl->end = now;
    sl->drain_until = now + CF_DRAIN_MS;
}

static void kill_and_reap(slot *sl) {
    if (!sl->exited) {
        kill(-sl->pid, SIGKILL);
        int status;
        while (waitpid(sl->pid, &status, 0) < 0 && errno == EINTR) {}
        sl->exited = 1;
    } else {
        kill(-sl->pid, SIGKILL);
    }
    close_stream(&sl->s[0]);
    close_stream(&sl->s[1]);
    free(sl->s[0].data);
    free(sl->s[1].data);
    sl->c = NULL;
}

int cf_run_adapter(cf_case *cases, size_t n, char *const *words, const char *cmd, int shell, const cf_spawn_opts *so,
                   volatile int *stop) {
    if (pipe(wake_pipe) != 0) return -1;
    cloexec_nonblock(wake_pipe[0], 1);
    cloexec_nonblock(wake_pipe[1], 1);
    struct sigaction sa, old_chld, old_pipe;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigchld;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, &old_chld);
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGPIPE, &sa, &old_pipe);

    int jobs = so->jobs < 1 ? 1 : so->jobs;
    char **env = adapter_env();
    slot *slots = calloc((size_t)jobs, sizeof *slots);
    struct pollfd *pfd = calloc((size_t)jobs * 2 + 1, sizeof *pfd);
    int *owner = calloc((size_t)jobs * 2 + 1, sizeof *owner);
    int rc = slots && pfd && owner && env ? 0 : -1;
    size_t next = 0;
    int running = 0;
    while (rc == 0 && !*stop && (next < n || running)) {
        for (int k = 0; k < jobs && next < n && !*stop; k++) {
            if (slots[k].c) continue;
            cf_case *c = &cases[next++];
            if (start(&slots[k], c, words, cmd, shell, so, env) != 0) {
                char why[300];
                snprintf(why, sizeof why, "the adapter could not be started: %s", strerror(errno));
                free(slots[k].s[0].data);
                free(slots[k].s[1].data);
                slots[k].c = NULL;
                cf_outcome o = {.kind = CF_GOT_CRASH, .why = why};
                cf_classify(c, &o);
                snprintf(c->exit_desc, sizeof c->exit_desc, "not started");
                c->done = 1;
                continue;
            }
            running++;
        }
        double now = now_ms(), wait = 1000;
        nfds_t np = 0;
        pfd[np].fd = wake_pipe[0];
        pfd[np].events = POLLIN;
        owner[np++] = -1;
        for (int k = 0; k < jobs; k++) {
            slot *sl = &slots[k];
            if (!sl->c) continue;
            for (int w = 0; w < 2; w++)
                if (sl->s[w].fd >= 0) {
                    pfd[np].fd = sl->s[w].fd;
                    pfd[np].events = POLLIN;
                    owner[np++] = k * 2 + w;
                }
            /* killed at its timeout: SIGCHLD wakes us when it is gone */
            double until = sl->exited ? sl->drain_until : sl->timed_out ? now + 1000 : sl->deadline;
            if (until - now < wait) wait = until - now;
        }
        if (wait < 0) wait = 0;
        int pr = poll(pfd, np, (int)(wait + 0.999));
        if (pr < 0 && errno != EINTR) {
            rc = -1;
            break;
        }
        if (pr > 0) {
            if (pfd[0].revents) {
                char buf[256];
                while (read(wake_pipe[0], buf, sizeof buf) > 0) {}
            }
            for (nfds_t i = 1; i < np; i++)
                if (pfd[i].revents) pump(&slots[owner[i] / 2], owner[i] % 2, so->output_cap);
        }
        now = now_ms();
        for (int k = 0; k < jobs; k++) {
            slot *sl = &slots[k];
            if (!sl->c) continue;
            check_exit(sl, now);
            if (!sl->exited && now >= sl->deadline && !sl->timed_out) {
                sl->timed_out = 1;
                kill(-sl->pid, SIGKILL);
            }
            if (sl->exited && ((sl->s[0].fd < 0 && sl->s[1].fd < 0) || now >= sl->drain_until)) {
                if (sl->s[0].fd >= 0) pump(sl, 0, so->output_cap);
                if (sl->s[1].fd >= 0) pump(sl, 1, so->output_cap);
                finish(sl, so->catmap);
                running--;
            }
        }
    }
    /* interrupted: what still runs is killed and not reported */
    for (int k = 0; slots && k < jobs; k++)
        if (slots[k].c) kill_and_reap(&slots[k]);
    cf_argv_free(env);
    free(slots);
    free(pfd);
    free(owner);
    sigaction(SIGCHLD, &old_chld, NULL);
    sigaction(SIGPIPE, &old_pipe, NULL);
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    wake_pipe[0] = wake_pipe[1] = -1;
    return rc;
}
