/* mutate_cmd.c: `tfs mutate`: the structure-aware mutation core
 * (mutators/tfs_mutate.h) for scripts: one input file, one output file. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mutant.h"
#include "tfs_mutate.h"

static void usage(FILE *f) {
    fprintf(f, "usage: tfs mutate --seed N [--mutation NAME] [--expect RULE [--tries N]] [--profile P]\n"
               "                  [--max-size BYTES] [--json] [-q] IN OUT\n"
               "       tfs mutate --seed N --crossover IN2 [--max-size BYTES] [--json] [-q] IN OUT\n"
               "       tfs mutate --list\n"
               "\n"
               "Writes to OUT ('-': standard output) a mutant of the model file IN ('-': standard\n"
               "input, copied to a temporary file first): IN's header is parsed tolerantly, the\n"
               "named mutation (default: 1 to 3 picked from the seed) is applied to its model or\n"
               "to the written bytes, and the C writer serialises the result.  Only the header is\n"
               "read and rewritten; the data section is written as a hole (a sparse file; zeros\n"
               "on a pipe), so memory stays at the header's size whatever IN's size (a 32-bit\n"
               "build refuses an IN above 2 GiB - 1 bytes: exit 2).\n"
               "Same IN, seed, mutation and max size: same bytes.\n"
               "Then it says what it made, on standard error: the mutations applied and the\n"
               "mutant's verdict in each profile (default, strict, header-only: rule id,\n"
               "category, byte offset); --json prints that as one JSON object on standard\n"
               "output (standard error when OUT is '-').\n"
               "An IN with no records to work on (not a model file: an empty file, an image,\n"
               "a Git LFS pointer) becomes a small valid skeleton of the format the mutation\n"
               "needs (for the default or a two-format mutation, either format, picked from\n"
               "the seed whatever IN is named), which is then mutated.\n"
               "  --seed N          seed of every random choice (decimal or 0x hex, 64 bits)\n"
               "  --mutation NAME   one named mutation (see --list)\n"
               "  --expect RULE     try seeds N, N+1, ... until the mutant's first violation in\n"
               "                    the --profile is RULE (a rule id, e.g. GG203); OUT is written\n"
               "                    only then, and the seed used is reported\n"
               "  --tries N         seeds --expect tries before giving up (default 256)\n"
               "  --profile P       default | strict | header-only: the profile --expect aims at\n"
               "                    (default: default)\n"
               "  --max-size BYTES  largest output (default: IN's size + 65536)\n"
               "  --crossover IN2   a structural crossover of IN and IN2 instead of a mutation\n"
               "                    (both read whole; at most --max-size bytes each)\n"
               "  --json            the report as JSON on standard output\n"
               "  -q, --quiet       no report on standard error\n"
               "  --list            every mutation: name, formats, what it does\n"
               "OUT may not be IN (same path or same file): refused, exit 2.\n"
               "exit 0 written; 1 --expect gave up (no mutant within --tries violates RULE\n"
               "first; nothing written); 2 usage or I/O error\n");
}

/* Read at most `cap` bytes of path into a malloc'd buffer of `cap` bytes
 * (at least 1); -1 with a message when larger or unreadable. */
static int slurp(const char *path, size_t cap, uint8_t **out, size_t *len) {
    int is_stdin = strcmp(path, "-") == 0; /* IN may be - (standard input) */
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tfs mutate: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin) fclose(f);
        fprintf(stderr, "tfs mutate: %s: is a directory (IN is one model file)\n", path);
        return -1;
    }
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) {
        if (!is_stdin) fclose(f);
        fprintf(stderr, "tfs mutate: out of memory\n");
        return -1;
    }
    size_t n = fread(buf, 1, cap, f);
    int more = fgetc(f) != EOF, bad = ferror(f);
    if (!is_stdin) fclose(f);
    if (bad || more) {
        fprintf(stderr, "tfs mutate: %s: %s\n", path, bad ? "read error" : "larger than --max-size");
        free(buf);
        return -1;
    }
    *out = buf;
    *len = n;
    return 0;
}

/* The size of the regular file at path in bytes; -1 with a message for a
 * directory (or any other file that is not a regular file: its size says
 * nothing, --max-size is needed) or a path that cannot be read. */
static int file_size(const char *path, uint64_t *size) {
    struct stat st;
    if (strcmp(path, "-") == 0) { /* standard input: a redirected file has a size, a pipe not */
        if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
            *size = (uint64_t)st.st_size;
            return 0;
        }
        fprintf(stderr, "tfs mutate: -: standard input is not a regular file (give --max-size BYTES to read it)\n");
        return -1;
    }
    if (stat(path, &st) != 0) {
        fprintf(stderr, "tfs mutate: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        fprintf(stderr, "tfs mutate: %s: is a directory (IN is one model file)\n", path);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "tfs mutate: %s: not a regular file (give --max-size to read it anyway)\n", path);
        return -1;
    }
    *size = (uint64_t)st.st_size;
    return 0;
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-') return -1;
    *v = (uint64_t)x;
    return 0;
}

static void list(void) {
    int n = tfs_mutation_count();
    for (int i = 0; i < n; i++) {
        unsigned f = tfs_mutation_formats(i);
        const char *fmt = f == ((1u << TFS_FORMAT_GGUF) | (1u << TFS_FORMAT_SAFETENSORS)) ? "both"
                          : f == (1u << TFS_FORMAT_GGUF)                                  ? "gguf"
                                                                                          : "safetensors";
        printf("%-24s %-11s %s\n", tfs_mutation_name(i), fmt, tfs_mutation_doc(i));
    }
}

/* Random-access byte source over an open file (pread). */
static int fd_read(void *ctx, uint64_t offset, void *buf, size_t len, size_t *got) {
    int fd = *(int *)ctx;
    *got = 0;
    while (*got < len) {
        ssize_t n = pread(fd, (uint8_t *)buf + *got, len - *got, (off_t)(offset + *got));
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) break;
        *got += (size_t)n;
    }
    return 0;
}

/* Standard input copied to an unlinked temporary file (64 KiB at a time):
 * the mutation needs random access.  The descriptor, or -1 with a message. */
static int stdin_to_temp(uint64_t max) {
    FILE *t = tmpfile();
    if (!t) {
        fprintf(stderr, "tfs mutate: temporary file: %s\n", strerror(errno));
        return -1;
    }
    static uint8_t buf[65536];
    uint64_t total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
        total += n;
        if (max && total > max) {
            fprintf(stderr, "tfs mutate: -: larger than --max-size\n");
            fclose(t);
            return -1;
        }
        if (fwrite(buf, 1, n, t) != n) {
            fprintf(stderr, "tfs mutate: temporary file: write error\n");
            fclose(t);
            return -1;
        }
    }
    if (ferror(stdin) || fflush(t) != 0) {
        fprintf(stderr, "tfs mutate: -: read error\n");
        fclose(t);
        return -1;
    }
    int fd = dup(fileno(t));
    fclose(t);
    if (fd < 0) fprintf(stderr, "tfs mutate: %s\n", strerror(errno));
    return fd;
}

typedef struct report {
    const char *in, *out;
    uint64_t seed, first_seed;
    int tries;
    tfs_mutate_info info;
    int crossover;
    tfs_format format;
    uint64_t size;
    mutant_verdict v[MUTANT_N_PROFILES];
} report;

static void report_human(FILE *f, const report *r) {
    fprintf(f, "tfs mutate: %s: %s, %" PRIu64 " bytes, seed %" PRIu64, r->out, tfs_format_name(r->format), r->size,
            r->seed);
    if (r->tries > 1) fprintf(f, " (try %d)", r->tries);
    if (r->crossover) fprintf(f, ", crossover");
    for (int i = 0; i < r->info.n; i++) fprintf(f, "%s%s", i ? " + " : ": ", tfs_mutation_name(r->info.mutation[i]));
    if (r->info.skeleton) fprintf(f, " (of a skeleton: IN has no records)");
    fputc('\n', f);
    for (int p = 0; p < MUTANT_N_PROFILES; p++) {
        const mutant_verdict *v = &r->v[p];
        fprintf(f, "  %-12s ", mutant_profile_names[p]);
        if (v->status == TFS_OK)
            fprintf(f, "valid\n");
        else if (v->status == TFS_INVALID) {
            fprintf(f, "parser_error %s %s at offset %" PRIu64, tfs_rule_id(v->err.rule),
                    tfs_rule_category(v->err.rule), v->err.offset);
            if (v->err.index >= 0) fprintf(f, " (%s %" PRId64 ")", index_kind(v->err.rule), v->err.index);
            fprintf(f, ": %s\n", v->err.message ? v->err.message : "");
        } else
            fprintf(f, "not classified: %s\n", tfs_status_name(v->status));
    }
}

static void report_json(FILE *f, const report *r) {
    fputs("{\"in\":", f);
    json_cstr(f, r->in);
    fputs(",\"out\":", f);
    json_cstr(f, r->out);
    fprintf(f, ",\"seed\":%" PRIu64 ",\"tries\":%d,\"format\":\"%s\",\"size\":%" PRIu64 ",\"skeleton\":%s", r->seed,
            r->tries, tfs_format_name(r->format), r->size, r->info.skeleton ? "true" : "false");
    fputs(",\"mutations\":[", f);
    if (r->crossover) fputs("\"crossover\"", f);
    for (int i = 0; i < r->info.n; i++) {
        if (i) fputc(',', f);
        json_cstr(f, tfs_mutation_name(r->info.mutation[i]));
    }
    fputs("],\"verdicts\":{", f);
    for (int p = 0; p < MUTANT_N_PROFILES; p++) {
        const mutant_verdict *v = &r->v[p];
        fprintf(f, "%s\"%s\":", p ? "," : "", mutant_profile_names[p]);
        if (v->status == TFS_OK)
            fputs("{\"verdict\":\"valid\"}", f);
        else if (v->status == TFS_INVALID) {
            fprintf(f,
                    "{\"verdict\":\"parser_error\",\"rule\":\"%s\",\"category\":\"%s\",\"offset\":%" PRIu64
                    ",\"index\":%" PRId64 ",\"message\":",
                    tfs_rule_id(v->err.rule), tfs_rule_category(v->err.rule), v->err.offset, v->err.index);
            json_cstr(f, v->err.message ? v->err.message : "");
            fputc('}', f);
        } else
            fprintf(f, "{\"verdict\":\"internal_error\",\"status\":\"%s\"}", tfs_status_name(v->status));
    }
    fputs("}}\n", f);
}

/* OUT names IN (the same path, or the same file through another name)? */
static int same_file(const char *in, const char *out, const struct stat *in_st) {
    if (strcmp(in, "-") == 0 || strcmp(out, "-") == 0) return 0;
    if (strcmp(in, out) == 0) return 1;
    struct stat st;
    return in_st && stat(out, &st) == 0 && st.st_dev == in_st->st_dev && st.st_ino == in_st->st_ino;
}

/* Open OUT for writing: standard output for '-'. -1 with a message. */
static int open_out(const char *out) {
    if (strcmp(out, "-") == 0) return STDOUT_FILENO;
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fprintf(stderr, "tfs mutate: %s: %s\n", out, strerror(errno));
    return fd;
}

int cmd_mutate(int argc, char **argv, int first) {
    uint64_t seed = 0, max = 0, tries = 256;
    int have_seed = 0, have_max = 0, mutation = -1, json = 0, quiet = 0, profile = 0;
    tfs_rule expect = TFS_RULE_NONE;
    const char *files[2] = {NULL, NULL}, *other = NULL;
    int n_files = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        int has_val = i + 1 < argc;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return stdout_done("mutate", 0);
        }
        if (strcmp(a, "--list") == 0) {
            list();
            return stdout_done("mutate", 0);
        }
        if (strcmp(a, "--seed") == 0 && has_val) {
            if (parse_u64(argv[++i], &seed) != 0) {
                fprintf(stderr, "tfs mutate: bad --seed '%s'\n", argv[i]);
                return 2;
            }
            have_seed = 1;
        } else if (strcmp(a, "--max-size") == 0 && has_val) {
            if (parse_u64(argv[++i], &max) != 0 || max == 0 || max > SIZE_MAX / 2) {
                fprintf(stderr, "tfs mutate: bad --max-size '%s'\n", argv[i]);
                return 2;
            }
            have_max = 1;
        } else if (strcmp(a, "--mutation") == 0 && has_val) {
            mutation = tfs_mutation_find(argv[++i]);
            if (mutation < 0) {
                fprintf(stderr, "tfs mutate: unknown mutation '%s' (see --list)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--crossover") == 0 && has_val) {
            other = argv[++i];
        } else if (strcmp(a, "--expect") == 0 && has_val) {
            expect = tfs_rule_from_id(argv[++i]);
            if (expect == TFS_RULE_NONE) {
                fprintf(stderr, "tfs mutate: --expect: unknown rule id '%s' (tfs rules)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--tries") == 0 && has_val) {
            if (parse_u64(argv[++i], &tries) != 0 || tries == 0 || tries > 1000000) {
                fprintf(stderr, "tfs mutate: bad --tries '%s' (1..1000000)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--profile") == 0 && has_val) {
            profile = mutant_profile_find(argv[++i]);
            if (profile < 0) {
                fprintf(stderr, "tfs mutate: --profile default|strict|header-only, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            quiet = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "tfs mutate: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (n_files < 2) {
            files[n_files++] = a;
        } else {
            fprintf(stderr, "tfs mutate: too many arguments\n");
            usage(stderr);
            return 2;
        }
    }
    if (!have_seed || n_files != 2) {
        fprintf(stderr, "tfs mutate: --seed N, IN and OUT are required\n");
        usage(stderr);
        return 2;
    }
    if (other && mutation >= 0) {
        fprintf(stderr, "tfs mutate: --crossover and --mutation exclude each other\n");
        return 2;
    }
    if (other && expect != TFS_RULE_NONE) {
        fprintf(stderr, "tfs mutate: --crossover and --expect exclude each other\n");
        return 2;
    }
    const char *in = files[0], *out = files[1];
    struct stat in_st;
    int in_is_stdin = strcmp(in, "-") == 0;
    if (!in_is_stdin) {
        if (stat(in, &in_st) != 0) {
            fprintf(stderr, "tfs mutate: %s: %s\n", in, strerror(errno));
            return 2;
        }
        if (S_ISDIR(in_st.st_mode)) {
            fprintf(stderr, "tfs mutate: %s: is a directory (IN is one model file)\n", in);
            return 2;
        }
    }
    if (same_file(in, out, in_is_stdin ? NULL : &in_st)) {
        fprintf(stderr, "tfs mutate: OUT is IN (%s): refused, the input would be overwritten\n", out);
        return 2;
    }
    if (other && strcmp(other, out) == 0) {
        fprintf(stderr, "tfs mutate: OUT is IN2 (%s): refused\n", out);
        return 2;
    }

    report r;
    memset(&r, 0, sizeof r);
    r.in = in;
    r.out = out;
    FILE *rep_json = strcmp(out, "-") == 0 ? stderr : stdout;
    mutant m;
    memset(&m, 0, sizeof m);
    int rc = 2, out_fd = -1;

    if (other) { /* crossover: both read whole, as before */
        if (!have_max) {
            uint64_t in_size;
            if (file_size(in, &in_size) != 0) return 2;
            max = in_size + 65536;
            if (max > SIZE_MAX / 2) {
                fprintf(stderr, "tfs mutate: %s is too large\n", in);
                return 2;
            }
        }
        uint8_t *buf = NULL, *b2 = NULL, *o = NULL;
        size_t len = 0, len2 = 0;
        if (slurp(in, (size_t)max, &buf, &len) == 0 && slurp(other, (size_t)max, &b2, &len2) == 0 &&
            (o = malloc((size_t)max))) {
            size_t n = tfs_crossover(buf, len, b2, len2, o, (size_t)max, seed);
            if (mutant_sink(&m, 0, o, n) == 0)
                rc = 0;
            else
                fprintf(stderr, "tfs mutate: out of memory\n");
        } else if (buf && b2) {
            fprintf(stderr, "tfs mutate: out of memory\n");
        }
        free(buf);
        free(b2);
        free(o);
        if (rc != 0) goto done;
        rc = 2;
        r.crossover = 1;
        r.seed = seed;
        r.tries = 1;
        r.format =
            m.size >= 4 && m.segs[0].len >= 4 ? tfs_detect_format(m.segs[0].bytes, 4, out) : TFS_FORMAT_SAFETENSORS;
    } else {
        int in_fd = in_is_stdin ? stdin_to_temp(have_max ? max : 0) : open(in, O_RDONLY | O_CLOEXEC);
        if (in_fd < 0) {
            if (!in_is_stdin) fprintf(stderr, "tfs mutate: %s: %s\n", in, strerror(errno));
            return 2;
        }
        struct stat st;
        if (fstat(in_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            fprintf(stderr, "tfs mutate: %s: not a regular file (give '-' to read a stream)\n", in);
            close(in_fd);
            return 2;
        }
        if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX / 2) {
            /* the mutator's output cap is at most SIZE_MAX / 2 (tfs_mutate_source): refused, never cut */
            fprintf(stderr,
                    "tfs mutate: %s: %" PRIu64
                    " bytes: a %d-bit build writes mutants of at most %zu bytes; use a 64-bit "
                    "build\n",
                    in, (uint64_t)st.st_size, (int)(sizeof(size_t) * 8), (size_t)(SIZE_MAX / 2));
            close(in_fd);
            return 2;
        }
        if (!have_max)
            max = (uint64_t)st.st_size + 65536;
        else if ((uint64_t)st.st_size > max) {
            fprintf(stderr, "tfs mutate: %s: larger than --max-size\n", in);
            close(in_fd);
            return 2;
        }
        tfs_source src = {fd_read, &in_fd, (uint64_t)st.st_size, 0};
        uint64_t n_tries = expect != TFS_RULE_NONE ? tries : 1;
        int found = 0;
        for (uint64_t t = 0; t < n_tries && !found; t++) {
            mutant_clear(&m);
            uint64_t s = seed + t;
            tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
            o.mutation = mutation;
            int e = tfs_mutate_source(&src, max, s, &o, mutant_sink, &m, NULL, &r.info);
            if (e == 1) {
                fprintf(stderr, "tfs mutate: %s does not apply to %s (or is switched off)\n",
                        mutation >= 0 ? tfs_mutation_name(mutation) : "the mutation", in);
                close(in_fd);
                goto done;
            }
            if (e != 0) {
                if (e > 0)
                    fprintf(stderr, "tfs mutate: %s: %s\n", in, strerror(e));
                else
                    fprintf(stderr, "tfs mutate: out of memory\n");
                close(in_fd);
                goto done;
            }
            r.seed = s;
            r.tries = (int)(t + 1);
            r.format = r.info.format;
            mutant_classify(&m, r.format, mutant_profile_flags[profile], &r.v[profile]);
            found = expect == TFS_RULE_NONE || (r.v[profile].status == TFS_INVALID && r.v[profile].err.rule == expect);
        }
        close(in_fd);
        if (!found) {
            fprintf(stderr,
                    "tfs mutate: gave up: no mutant of %s violates %s first in the %s profile after %" PRIu64
                    " tries (seeds %" PRIu64 "..%" PRIu64 "%s%s); nothing written. Try more --tries, another "
                    "--mutation, another seed or another IN (tfs rules %s says what the rule checks)\n",
                    in, tfs_rule_id(expect), mutant_profile_names[profile], n_tries, seed, seed + n_tries - 1,
                    mutation >= 0 ? ", mutation " : "", mutation >= 0 ? tfs_mutation_name(mutation) : "",
                    tfs_rule_id(expect));
            rc = 1;
            goto done;
        }
    }
    r.size = m.size;
    for (int p = 0; p < MUTANT_N_PROFILES; p++) mutant_classify(&m, r.format, mutant_profile_flags[p], &r.v[p]);
    if (m.nomem) {
        fprintf(stderr, "tfs mutate: out of memory\n");
        goto done;
    }
    if ((out_fd = open_out(out)) < 0) goto done;
    int e = mutant_write_fd(&m, out_fd);
    if (out_fd != STDOUT_FILENO && close(out_fd) != 0 && !e) e = errno;
    if (e && out_fd == STDOUT_FILENO) {
        fprintf(stderr, "tfs mutate: cannot write output (%s)\n", strerror(e));
        goto done;
    }
    if (e) {
        fprintf(stderr, "tfs mutate: %s: %s\n", out, strerror(e));
        goto done;
    }
    if (!quiet) report_human(stderr, &r);
    if (json) {
        report_json(rep_json, &r);
        if (rep_json == stdout && stdout_done("mutate", 0) != 0) goto done;
    }
    rc = 0;
done:
    mutant_clear(&m);
    return rc;
}
