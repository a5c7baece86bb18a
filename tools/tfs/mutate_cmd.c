/* mutate_cmd.c: `tfs mutate`: the structure-aware mutation core
 * (mutators/tfs_mutate.h) for scripts: one input file, one output file. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tfs_mutate.h"

static void usage(FILE *f) {
    fprintf(f, "usage: tfs mutate --seed N [--mutation NAME] [--max-size BYTES] [--crossover IN2] IN OUT\n"
               "       tfs mutate --list\n"
               "\n"
               "Writes to OUT ('-': standard output) a mutant of the model file IN: IN is parsed\n"
               "tolerantly, the named mutation (default: 1 to 3 picked from the seed) is applied\n"
               "to its model or to the written bytes, and the C writer serialises the result.\n"
               "Same IN, seed, mutation and max size: same bytes.  `tfs mutate --list` lists\n"
               "the mutations (docs/mutators.md in the source tree explains them).\n"
               "An IN with no records to work on (not a model file: an empty file, an image,\n"
               "a Git LFS pointer) becomes a small valid skeleton of the format the mutation\n"
               "needs (for the default or a two-format mutation, either format, picked from\n"
               "the seed whatever IN is named), which is then mutated; exit status 0.\n"
               "  --seed N          seed of every random choice (decimal or 0x hex, 64 bits)\n"
               "  --mutation NAME   one named mutation (see --list)\n"
               "  --max-size BYTES  largest output (default: IN's size + 65536); IN may not be larger\n"
               "  --crossover IN2   a structural crossover of IN and IN2 instead of a mutation\n"
               "  --list            every mutation: name, formats, what it does\n"
               "exit 0 written, 2 usage or I/O error\n");
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

int cmd_mutate(int argc, char **argv, int first) {
    uint64_t seed = 0, max = 0;
    int have_seed = 0, have_max = 0, mutation = -1;
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
    if (!have_max) {
        uint64_t in_size;
        if (file_size(files[0], &in_size) != 0) return 2;
        max = in_size + 65536;
        if (max > SIZE_MAX / 2) {
            fprintf(stderr, "tfs mutate: %s is too large\n", files[0]);
            return 2;
        }
    }
    uint8_t *buf = NULL, *b2 = NULL, *out = NULL;
    size_t len = 0, len2 = 0, n = 0;
    int rc = 2;
    if (slurp(files[0], (size_t)max, &buf, &len) != 0) goto done;
    if (other) {
        if (slurp(other, (size_t)max, &b2, &len2) != 0) goto done;
        if (!(out = malloc((size_t)max))) {
            fprintf(stderr, "tfs mutate: out of memory\n");
            goto done;
        }
        n = tfs_crossover(buf, len, b2, len2, out, (size_t)max, seed);
    } else {
        if (mutation >= 0 && len >= 4) {
            unsigned want = tfs_mutation_formats(mutation);
            tfs_format f = tfs_detect_format(buf, len, files[0]);
            if (!(want & (1u << f))) {
                fprintf(stderr, "tfs mutate: %s does not apply to %s files\n", tfs_mutation_name(mutation),
                        tfs_format_name(f));
                goto done;
            }
        }
        n = tfs_mutate_one(buf, len, (size_t)max, seed, mutation);
    }
    FILE *f = strcmp(files[1], "-") == 0 ? stdout : fopen(files[1], "wb");
    if (!f) {
        fprintf(stderr, "tfs mutate: %s: %s\n", files[1], strerror(errno));
        goto done;
    }
    size_t w = fwrite(other ? out : buf, 1, n, f);
    if (f == stdout) { /* a full disk, a closed pipe: "cannot write output" */
        rc = stdout_done("mutate", 0);
        goto done;
    }
    if (fclose(f) != 0 || w != n) {
        fprintf(stderr, "tfs mutate: %s: write error\n", files[1]);
        goto done;
    }
    rc = 0;
done:
    free(buf);
    free(b2);
    free(out);
    return rc;
}
