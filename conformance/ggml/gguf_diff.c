/*
 * gguf_diff.c: compare libtfs's GGUF verdicts with ggml's own (the TSV that
 * ggml_oracle prints), file by file:
 *   meta : ggml metadata mode   vs  tfs TFS_HEADER_ONLY
 *   data : ggml data mode       vs  tfs default profile (flags 0)
 * Every disagreement is classified; the documented divergences
 * (docs/divergences.md) are recognised mechanically by our rule id and the
 * parsed layout, everything else is a failure.  When both reject, the reason
 * is compared too: ggml's first logged error (oracle columns 6-7) is mapped
 * to its failure category (design.md) and must equal our rule's category,
 * save for the documented cases.  Both accept: n_tensors and n_kv must
 * match.  tfs runs in a forked child per
 * file (so a crash is counted, not fatal) and its results are checked against
 * the library's invariants (rule id known and of the right profile, offset
 * inside the file, tensor data inside the file in the default profile, ...).
 * A third parse with TFS_STRICT is made only to catch crashes.
 *
 * Usage: gguf_diff [-v] [-q] [-n] [-s N] [-o RESULTS.tsv] ORACLE.tsv
 *   -v  also print each documented divergence      -q  print only the summary
 *   -n  run tfs in this process (no fork; for valgrind)
 *   -s N  check only every N-th file of the oracle list (sampling)
 *   -o F  write one line per file: path, meta class, data class, ggml meta,
 *         ggml data, tfs header-only, tfs default
 * Exit status: 0 = no undocumented disagreement, no tfs crash or invariant
 * violation; 1 = some; 2 = usage or I/O error.
 */
#define _GNU_SOURCE
#include "tfs/tfs.h"
#include "ggml_reasons.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ tfs side */

enum { P_HEADER, P_DEFAULT, P_STRICT, P_COUNT };
static const unsigned profile_flags[P_COUNT] = {TFS_HEADER_ONLY, 0, TFS_STRICT};
static const char *const profile_name[P_COUNT] = {"header-only", "default", "strict"};

/* What one tfs parse produced (plain data: crosses the pipe from the child). */
struct verdict {
    int32_t status;           /* tfs_status */
    int32_t rule;             /* tfs_rule on TFS_INVALID */
    uint64_t offset;          /* err.offset */
    uint64_t n_tensors, n_kv; /* on TFS_OK */
    uint64_t file_size, data_offset, data_size;
    char invariant[120]; /* empty, or the library invariant broken */
};

static void check_invariants(const struct verdict *v, const tfs_header *h, unsigned flags, struct verdict *out,
                             uint64_t file_size) {
    char *inv = out->invariant;
    size_t cap = sizeof out->invariant;
    if (v->status == TFS_INVALID) {
        tfs_rule r = (tfs_rule)v->rule;
        tfs_rule_profile p = tfs_rule_profile_of(r);
        if (strcmp(tfs_rule_id(r), "?") == 0 || v->rule < 2000 || v->rule >= 3000)
            snprintf(inv, cap, "unknown or non-GGUF rule %d", v->rule);
        else if (p == TFS_PROFILE_RETIRED)
            snprintf(inv, cap, "retired rule %s reported", tfs_rule_id(r));
        else if (p == TFS_PROFILE_STRICT && !(flags & TFS_STRICT))
            snprintf(inv, cap, "strict rule %s without TFS_STRICT", tfs_rule_id(r));
        else if (p == TFS_PROFILE_DATA && (flags & TFS_HEADER_ONLY))
            snprintf(inv, cap, "data rule %s with TFS_HEADER_ONLY", tfs_rule_id(r));
        else if (v->offset > file_size)
            snprintf(inv, cap, "error offset %" PRIu64 " past EOF %" PRIu64, v->offset, file_size);
        return;
    }
    if (v->status != TFS_OK) return;
    if (!h || h->format != TFS_FORMAT_GGUF || (h->version != 2 && h->version != 3)) {
        snprintf(inv, cap, "OK without a GGUF v2/v3 header");
        return;
    }
    if (h->file_size != file_size) {
        snprintf(inv, cap, "file_size %" PRIu64 " != %" PRIu64, h->file_size, file_size);
        return;
    }
    if (h->alignment == 0 || (h->alignment & (h->alignment - 1))) {
        snprintf(inv, cap, "alignment %u", h->alignment);
        return;
    }
    if (h->n_tensors && h->data_offset > file_size) {
        snprintf(inv, cap, "data_offset past EOF");
        return;
    }
    if (h->n_kv && !h->kv) {
        snprintf(inv, cap, "kv NULL");
        return;
    }
    if (h->n_tensors && !h->tensors) {
        snprintf(inv, cap, "tensors NULL");
        return;
    }
    for (size_t i = 0; i < h->n_kv; i++) {
        if (h->kv[i].key.len == 0 || !h->kv[i].key.ptr) {
            snprintf(inv, cap, "kv %zu empty key accepted", i);
            return;
        }
        if (h->kv[i].value_offset > file_size) {
            snprintf(inv, cap, "kv %zu value offset past EOF", i);
            return;
        }
    }
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        uint64_t end, fo;
        if (t->n_dims > 4) {
            snprintf(inv, cap, "tensor %zu n_dims %u", i, t->n_dims);
            return;
        }
        if (t->type >= TFS_GG_TYPE_COUNT || tfs_gg_type_block_size(t->type) == 0) {
            snprintf(inv, cap, "tensor %zu type %u accepted", i, t->type);
            return;
        }
        /* with TFS_HEADER_ONLY the sum may not fit (sizes no file can hold):
         * file_offset then saturates at UINT64_MAX (tfs.h); else it must fit */
        bool wrapped = __builtin_add_overflow(h->data_offset, t->offset, &fo);
        if (wrapped) fo = UINT64_MAX;
        if (fo != t->file_offset || (wrapped && !(flags & TFS_HEADER_ONLY))) {
            snprintf(inv, cap, "tensor %zu file_offset != data_offset + offset", i);
            return;
        }
        if (!(flags & TFS_HEADER_ONLY) && (__builtin_add_overflow(fo, t->n_bytes, &end) || end > file_size)) {
            snprintf(inv, cap, "tensor %zu data past EOF accepted", i);
            return;
        }
        if (t->name.len >= 64) {
            snprintf(inv, cap, "tensor %zu name of %zu bytes", i, t->name.len);
            return;
        }
    }
}

static uint64_t size_of_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fseeko(f, 0, SEEK_END);
    off_t n = ftello(f);
    fclose(f);
    return n < 0 ? 0 : (uint64_t)n;
}

static void run_tfs(const char *path, struct verdict out[P_COUNT]) {
    uint64_t fsz = size_of_file(path);
    for (int p = 0; p < P_COUNT; p++) {
        tfs_header *h = NULL;
        tfs_error err;
        struct verdict v;
        memset(&v, 0, sizeof v);
        v.status = (int32_t)tfs_parse_file(path, TFS_FORMAT_GGUF, profile_flags[p], &h, &err);
        v.rule = (int32_t)err.rule;
        v.offset = err.offset;
        v.file_size = fsz;
        if (h) {
            v.n_tensors = h->n_tensors;
            v.n_kv = h->n_kv;
            v.data_offset = h->data_offset;
            v.data_size = h->data_size;
        }
        check_invariants(&v, h, profile_flags[p], &v, fsz);
        if (v.status != TFS_OK && h)
            snprintf(v.invariant, sizeof v.invariant, "header returned with status %d", v.status);
        tfs_header_free(h);
        out[p] = v;
    }
}

/* 0 = ran; -1 = the child crashed or misbehaved (tfs crash) */
static int run_tfs_forked(const char *path, struct verdict out[P_COUNT], int *how) {
    int fds[2];
    if (pipe(fds) != 0) return -2;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -2;
    if (pid == 0) {
        close(fds[0]);
        alarm(30);
        run_tfs(path, out);
        size_t want = sizeof(struct verdict) * P_COUNT;
        ssize_t w = write(fds[1], out, want);
        _exit(w == (ssize_t)want ? 0 : 3);
    }
    close(fds[1]);
    size_t want = sizeof(struct verdict) * P_COUNT, got = 0;
    while (got < want) {
        ssize_t r = read(fds[0], (char *)out + got, want - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -2;
    *how = status;
    return (WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == want) ? 0 : -1;
}

/* ------------------------------------------------------------ classes */

enum cls {
    C_AGREE_ACCEPT,
    C_AGREE_REJECT,
    C_AGREE_REJECT_UNMAPPED, /* both reject; ggml's message is not in reasons[] */
    C_AGREE_REJECT_DOC,      /* both reject, reasons differ as documented: our rule is a
                             wrap rule (ggml skipped that check and failed later);
                             GG201 while ggml checks a type it failed to read;
                             data mode: ggml cannot size its context, tfs GG304 */
    /* documented divergences (docs/divergences.md) */
    C_DIV_GG207,        /* element count wraps: ggml skips its INT64_MAX check */
    C_DIV_GG212,        /* ne[0] x type size wraps for a block type: ggml_nbytes wraps */
    C_DIV_GG305,        /* padding a tensor size to the alignment wraps: GGML_PAD wraps */
    C_DIV_TAIL_PADDING, /* data mode: file ends inside the padding after the last tensor */
    C_DIV_ALLOC_ABORT,  /* data mode: ggml aborts allocating the declared data; tfs GG304 */
    /* failures */
    C_BAD_GGML_ACCEPT, /* ggml accepts, tfs rejects (undocumented) */
    C_BAD_GGML_REJECT, /* ggml rejects, tfs accepts (undocumented) */
    C_BAD_COUNTS,      /* both accept, n_tensors or n_kv differ */
    C_BAD_REASON,      /* both reject, for different failure categories */
    C_GGML_CRASH,      /* ggml crashed or timed out, not a documented case */
    C_TFS_CRASH,       /* the tfs child died, timed out or did not report */
    C_TFS_ERROR,       /* tfs returned EIO / ENOMEM / EARG */
    C_TFS_INVARIANT,   /* tfs broke one of its invariants */
    C_COUNT
};
static const char *const cls_name[C_COUNT] = {
    "agree-accept",
    "agree-reject",
    "agree-reject-unmapped",
    "agree-reject-other-reason(doc)",
    "div:GG207-wrapped-ne",
    "div:GG212-nbytes-wraps",
    "div:GG305-padded-size-wraps",
    "div:tail-padding",
    "div:alloc-abort",
    "BAD:ggml-accepts-tfs-rejects",
    "BAD:ggml-rejects-tfs-accepts",
    "BAD:counts-differ",
    "BAD:reason-differs",
    "ggml-crash",
    "tfs-crash",
    "tfs-error",
    "tfs-invariant",
};
static bool cls_is_failure(enum cls c) { return c >= C_BAD_GGML_ACCEPT; }
static bool cls_is_divergence(enum cls c) { return c >= C_DIV_GG207 && c <= C_DIV_ALLOC_ABORT; }

/* Our rules for sizes that wrap modulo 2^64 where ggml carries on with the
 * wrapped value (and so accepts, or aborts allocating it in data mode). */
static const struct {
    tfs_rule rule;
    enum cls cls;
} wrap_rules[] = {
    {TFS_GG207, C_DIV_GG207},
    {TFS_GG212, C_DIV_GG212},
    {TFS_GG305, C_DIV_GG305},
};

/* The table above must name exactly the rules whose message in rules.def
 * says "documented divergence": a new such rule needs a class here and an
 * entry in docs/divergences.md.  Returns the number of mismatches. */
static int check_divergence_table(void) {
    int bad = 0;
    for (size_t i = 0; i < tfs_rule_count(); i++) {
        tfs_rule r = tfs_rule_at(i);
        bool says = strstr(tfs_rule_message(r), "documented divergence") != NULL && tfs_rule_id(r)[0] == 'G';
        bool listed = false;
        for (size_t k = 0; k < sizeof wrap_rules / sizeof wrap_rules[0]; k++) listed |= wrap_rules[k].rule == r;
        if (says != listed) {
            fprintf(stderr, "gguf_diff: rule %s %s\n", tfs_rule_id(r),
                    says ? "is a documented divergence in rules.def but unknown to gguf_diff"
                         : "is treated as a divergence by gguf_diff but rules.def does not say so");
            bad++;
        }
    }
    return bad;
}

static enum cls wrap_class(const struct verdict *v) {
    if (v->status != TFS_INVALID) return C_COUNT;
    for (size_t k = 0; k < sizeof wrap_rules / sizeof wrap_rules[0]; k++)
        if ((int32_t)wrap_rules[k].rule == v->rule) return wrap_rules[k].cls;
    return C_COUNT;
}

static enum cls classify(bool data_mode, const char *ggml, const char *gmsg, int64_t g_nt, int64_t g_nkv,
                         const struct verdict *v) {
    if (v->invariant[0]) return C_TFS_INVARIANT;
    if (v->status != TFS_OK && v->status != TFS_INVALID) return C_TFS_ERROR;
    bool t_acc = v->status == TFS_OK;
    enum cls wrapped = wrap_class(v);
    if (strcmp(ggml, "accept") == 0) {
        if (t_acc) {
            if (!data_mode && ((int64_t)v->n_tensors != g_nt || (int64_t)v->n_kv != g_nkv)) return C_BAD_COUNTS;
            return C_AGREE_ACCEPT;
        }
        return wrapped != C_COUNT ? wrapped : C_BAD_GGML_ACCEPT;
    }
    if (strcmp(ggml, "reject") == 0) {
        if (!t_acc) {
            const char *cat = ggml_reason_category(gmsg);
            if (!cat) return C_AGREE_REJECT_UNMAPPED;
            if (strcmp(cat, tfs_rule_category((tfs_rule)v->rule)) == 0) return C_AGREE_REJECT;
            if (wrapped != C_COUNT) return C_AGREE_REJECT_DOC;
            if (data_mode && strcmp(cat, "ALLOC") == 0 && v->rule == TFS_GG304) return C_AGREE_REJECT_DOC;
            /* file ends inside a tensor info: ggml's type and block-size
             * checks run even after a short read, on a type it never read */
            if (v->rule == TFS_GG201 && (strcmp(cat, "BAD_TYPE") == 0 || strcmp(cat, "BLOCK_SIZE") == 0))
                return C_AGREE_REJECT_DOC;
            return C_BAD_REASON;
        }
        /* tfs accepted (so every tensor's bytes are inside the file) but the
         * file is shorter than data start + sum of padded sizes */
        uint64_t end;
        if (data_mode && v->n_tensors > 0 && !__builtin_add_overflow(v->data_offset, v->data_size, &end) &&
            v->file_size < end)
            return C_DIV_TAIL_PADDING;
        return C_BAD_GGML_REJECT;
    }
    /* ggml crashed or timed out */
    if (wrapped != C_COUNT && strncmp(ggml, "crash:", 6) == 0) return wrapped;
    if (data_mode && strstr(ggml, "crash:SIGABRT") && strstr(ggml, "mem_buffer != NULL") && !t_acc &&
        v->rule == TFS_GG304)
        return C_DIV_ALLOC_ABORT;
    return C_GGML_CRASH;
}

static void describe(const struct verdict *v, char *buf, size_t cap) {
    if (v->status == TFS_OK)
        snprintf(buf, cap, "accept");
    else if (v->status == TFS_INVALID)
        snprintf(buf, cap, "reject %s @%" PRIu64 " (%s)", tfs_rule_id((tfs_rule)v->rule), v->offset,
                 tfs_rule_message((tfs_rule)v->rule));
    else
        snprintf(buf, cap, "status %s", tfs_status_name((tfs_status)v->status));
    if (v->invariant[0]) {
        size_t n = strlen(buf);
        snprintf(buf + n, cap - n, " INVARIANT: %s", v->invariant);
    }
}

/* ------------------------------------------------------------ main */

static void usage(void) { fprintf(stderr, "usage: gguf_diff [-v] [-q] [-n] [-s N] [-o results.tsv] ORACLE.tsv\n"); }

int main(int argc, char **argv) {
    bool verbose = false, quiet = false, nofork = false;
    unsigned long sample = 1;
    const char *outpath = NULL;
    int c;
    while ((c = getopt(argc, argv, "vqns:o:h")) != -1) {
        switch (c) {
        case 'v': verbose = true; break;
        case 'q': quiet = true; break;
        case 'n': nofork = true; break;
        case 's': sample = strtoul(optarg, NULL, 10); break;
        case 'o': outpath = optarg; break;
        default: usage(); return 2;
        }
    }
    if (optind != argc - 1 || sample == 0) {
        usage();
        return 2;
    }
    FILE *in = strcmp(argv[optind], "-") == 0 ? stdin : fopen(argv[optind], "r");
    if (!in) {
        fprintf(stderr, "gguf_diff: %s: %s\n", argv[optind], strerror(errno));
        return 2;
    }
    FILE *out = NULL;
    if (outpath && !(out = fopen(outpath, "w"))) {
        fprintf(stderr, "gguf_diff: %s: %s\n", outpath, strerror(errno));
        return 2;
    }

    unsigned long counts[2][C_COUNT] = {{0}};
    unsigned long files = 0, strict_crash = 0, lineno = 0, tfs_crash_files = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (len == 0 || line[0] == '#') continue;
        if (lineno++ % sample) continue;
        char *f[7] = {0};
        char *save = NULL, *p = line;
        for (int i = 0; i < 7; i++, p = NULL) f[i] = strtok_r(p, "\t", &save);
        if (!f[4]) {
            fprintf(stderr, "gguf_diff: malformed oracle line: %s\n", line);
            return 2;
        }
        const char *path = f[0], *g_meta = f[1], *g_data = f[2];
        int64_t g_nt = strcmp(f[3], "-") ? strtoll(f[3], NULL, 10) : -1;
        int64_t g_nkv = strcmp(f[4], "-") ? strtoll(f[4], NULL, 10) : -1;
        files++;

        struct verdict v[P_COUNT];
        enum cls cm, cd;
        char tm[300], td[300];
        int how = 0;
        int rc = nofork ? (run_tfs(path, v), 0) : run_tfs_forked(path, v, &how);
        if (rc == -2) {
            fprintf(stderr, "gguf_diff: fork/pipe failed: %s\n", strerror(errno));
            return 2;
        }
        if (rc != 0) {
            cm = cd = C_TFS_CRASH;
            tfs_crash_files++;
            snprintf(tm, sizeof tm, "CRASH (%s %d)", WIFSIGNALED(how) ? "signal" : "exit",
                     WIFSIGNALED(how) ? WTERMSIG(how) : WEXITSTATUS(how));
            snprintf(td, sizeof td, "%s", tm);
        } else {
            cm = classify(false, g_meta, f[5], g_nt, g_nkv, &v[P_HEADER]);
            cd = classify(true, g_data, f[6], g_nt, g_nkv, &v[P_DEFAULT]);
            describe(&v[P_HEADER], tm, sizeof tm);
            describe(&v[P_DEFAULT], td, sizeof td);
            if (v[P_STRICT].invariant[0] || (v[P_STRICT].status != TFS_OK && v[P_STRICT].status != TFS_INVALID)) {
                strict_crash++;
                char ts[300];
                describe(&v[P_STRICT], ts, sizeof ts);
                if (!quiet) printf("FAIL strict   %s\n      tfs --strict: %s\n", path, ts);
            }
        }
        counts[0][cm]++;
        counts[1][cd]++;
        const struct {
            enum cls c;
            const char *mode, *g, *msg, *t;
        } rows[2] = {{cm, "meta", g_meta, f[5], tm}, {cd, "data", g_data, f[6], td}};
        for (int i = 0; i < 2; i++) {
            if (quiet) break;
            if (cls_is_failure(rows[i].c))
                printf("FAIL %-4s %s  [%s]\n      ggml %s mode: %s%s%s\n      tfs %s: %s\n", rows[i].mode, path,
                       cls_name[rows[i].c], rows[i].mode, rows[i].g, rows[i].msg ? ": " : "",
                       rows[i].msg ? rows[i].msg : "", profile_name[i], rows[i].t);
            else if (verbose && cls_is_divergence(rows[i].c))
                printf("DIV  %-4s %s  [%s]  ggml: %s  tfs: %s\n", rows[i].mode, path, cls_name[rows[i].c], rows[i].g,
                       rows[i].t);
        }
        if (out) fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", path, cls_name[cm], cls_name[cd], g_meta, g_data, tm, td);
    }
    free(line);
    if (in != stdin) fclose(in);
    if (out && fclose(out) != 0) {
        fprintf(stderr, "gguf_diff: write %s failed\n", outpath);
        return 2;
    }

    unsigned long failures = strict_crash + (unsigned long)check_divergence_table();
    printf("\ngguf_diff: %lu files\n", files);
    printf("%-32s %10s %10s\n", "class", "meta", "data");
    for (int k = 0; k < C_COUNT; k++) {
        printf("%-32s %10lu %10lu\n", cls_name[k], counts[0][k], counts[1][k]);
        if (cls_is_failure((enum cls)k)) failures += counts[0][k] + counts[1][k];
    }
    for (int m = 0; m < 2; m++) {
        const unsigned long *n = counts[m];
        unsigned long rej = n[C_AGREE_REJECT] + n[C_AGREE_REJECT_UNMAPPED] + n[C_AGREE_REJECT_DOC] + n[C_BAD_REASON];
        unsigned long agree = n[C_AGREE_ACCEPT] + rej;
        unsigned long div = 0;
        for (int k = C_DIV_GG207; k <= C_DIV_ALLOC_ABORT; k++) div += n[k];
        printf("%s mode: verdict agreement %.2f%% (%lu/%lu), documented divergences %lu, undocumented %lu; "
               "of %lu common rejections %lu give ggml's reason, %lu a documented other one, %lu another (BAD), "
               "%lu unmapped\n",
               m ? "data" : "meta", files ? 100.0 * (double)agree / (double)files : 0.0, agree, files, div,
               files - agree - div, rej, n[C_AGREE_REJECT], n[C_AGREE_REJECT_DOC], n[C_BAD_REASON],
               n[C_AGREE_REJECT_UNMAPPED]);
    }
    printf("tfs crashes: %lu files; strict-profile failures: %lu\n", tfs_crash_files, strict_crash);
    printf("result: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
