/*
 * tfs_bench.c: header-parse throughput of libtfs.
 *
 *   tfs_bench [--runs N] [--tensors N] [--gguf PATH] [--emit-synthetic PATH]
 *   tfs_bench [--runs N] --parse PATH
 *
 * (a) a synthetic safetensors header (default 50,000 tensors, ~5.8 MB of JSON,
 *     Llama-like names, F16/BF16), parsed with tfs_parse_buffer (the file
 *     mapped in memory: header bytes, then untouched anonymous pages for the
 *     declared data) and with tfs_parse_file (a sparse temporary file);
 * (b) a real GGUF vocab file (default: the largest one, deepseek-llm, from
 *     ../shared/real, else corpus/real), parsed from memory and from the file.
 * Each figure is the best of N runs (CLOCK_MONOTONIC); MB = 10^6 and
 * GB = 10^9 bytes of header; beside it the mean minor page faults of one
 * parse (getrusage(RUSAGE_SELF) around each run), since faults, not parsing,
 * dominate a fresh process (bench/whole.sh prints the whole-process figures).  --emit-synthetic PATH writes the synthetic file (sparse) and exits,
 * for bench/sparse.sh.  --parse PATH times tfs_parse_file of that one file
 * (format by content) and prints one line "parse_ms <best> <median>" (ms),
 * the in-process part of bench/whole.sh's floor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "synth_st.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

#ifndef TFS_SOURCE_DIR
#define TFS_SOURCE_DIR "."
#endif

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One parse to time: from memory (buf != NULL) or from a path. */
typedef struct job {
    const uint8_t *buf;
    size_t len;
    const char *path;
    tfs_format format;
} job;

static tfs_status run_once(const job *j, tfs_error *err, tfs_header **h) {
    if (j->buf) return tfs_parse_buffer(j->buf, j->len, j->format, 0, h, err);
    return tfs_parse_file(j->path, j->format, 0, h, err);
}

static long minflt_now(void) {
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : 0;
}

/* Minor page faults per parse, mean of the runs of the last best_of(). */
static double g_faults;

/* Best wall time of `runs` parses (header built and freed each time);
 * -1 if the parse does not succeed.  Sets g_faults. */
static double best_of(const job *j, int runs) {
    double best = 1e30;
    long faults = 0;
    for (int i = 0; i < runs; i++) {
        tfs_error err;
        tfs_header *h = NULL;
        long f0 = minflt_now();
        double t0 = now_s();
        tfs_status st = run_once(j, &err, &h);
        tfs_header_free(h);
        double t = now_s() - t0;
        faults += minflt_now() - f0;
        g_faults = (double)faults / (i + 1);
        if (st != TFS_OK) {
            fprintf(stderr, "tfs_bench: parse failed: %s %s at offset %llu (%s)\n", tfs_status_name(st),
                    tfs_rule_id(err.rule), (unsigned long long)err.offset, err.message ? err.message : "");
            return -1;
        }
        if (t < best) best = t;
    }
    return best;
}

static void report(const char *what, double t, uint64_t header_bytes, const char *target) {
    if (t < 0) {
        printf("  %-18s failed\n", what);
        return;
    }
    printf("  %-18s %9.3f ms  %9.1f MB/s  %6.2f GB/s  %9.0f headers/s  %8.1f faults/parse%s%s\n", what, t * 1e3,
           (double)header_bytes / t / 1e6, (double)header_bytes / t / 1e9, 1.0 / t, g_faults, target ? "   " : "",
           target ? target : "");
}

/* The header, then a hole up to the full size: a sparse file, through the
 * writer's buffer (tfs_wbuf_write_file).  errno is set on failure. */
static int write_sparse(const char *path, const uint8_t *hdr, size_t len, uint64_t total) {
    tfs_wbuf w;
    int e = 0;
    tfs_wbuf_init(&w);
    tfs_status st = tfs_wbuf_bytes(&w, hdr, len);
    if (st == TFS_OK) st = tfs_wbuf_hole(&w, total - len);
    if (st == TFS_OK) st = tfs_wbuf_write_file(&w, path, &e);
    tfs_wbuf_free(&w);
    if (st == TFS_OK) return 0;
    errno = e ? e : ENOMEM;
    return -1;
}

static int bench_synthetic(size_t n_tensors, int runs) {
    uint8_t *hdr;
    size_t hlen;
    uint64_t data;
    if (synth_st_header(n_tensors, &hdr, &hlen, &data) != 0) {
        fprintf(stderr, "tfs_bench: out of memory\n");
        return 1;
    }
    uint64_t total = hlen + data;
    printf("safetensors, synthetic: %zu tensors, header %zu bytes (%.2f MB JSON), %.2f TB of data declared\n",
           n_tensors, hlen, (double)(hlen - 8) / 1e6, (double)data / 1e12);
    int rc = 0;
    /* from memory: the data pages of the mapping are never touched */
    uint8_t *map =
        mmap(NULL, (size_t)total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        printf("  tfs_parse_buffer   skipped (cannot map %.2f TB: %s)\n", (double)total / 1e12, strerror(errno));
    } else {
        memcpy(map, hdr, hlen);
        job j = {map, (size_t)total, NULL, TFS_FORMAT_SAFETENSORS};
        double t = best_of(&j, runs);
        report("tfs_parse_buffer", t, hlen, "(target >= 1.5 GB/s of JSON, one core)");
        if (t < 0) rc = 1;
        munmap(map, (size_t)total);
    }
    /* from a sparse file */
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/tfs_bench_%ld.safetensors", dir, (long)getpid());
    if (write_sparse(path, hdr, hlen, total) != 0) {
        printf("  tfs_parse_file     skipped (cannot write %s: %s)\n", path, strerror(errno));
    } else {
        job j = {NULL, 0, path, TFS_FORMAT_SAFETENSORS};
        double t = best_of(&j, runs);
        report("tfs_parse_file", t, hlen, "(sparse file)");
        if (t < 0) rc = 1;
    }
    unlink(path);
    free(hdr);
    return rc;
}

static int read_all(const char *path, uint8_t **out, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size <= 0) {
        fclose(f);
        return -1;
    }
    *len = (size_t)st.st_size;
    *out = malloc(*len);
    if (!*out || fread(*out, 1, *len, f) != *len) {
        free(*out);
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

static int bench_gguf(const char *path, int runs) {
    uint8_t *buf;
    size_t len;
    if (read_all(path, &buf, &len) != 0) {
        fprintf(stderr, "tfs_bench: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    tfs_header *h = NULL;
    tfs_error err;
    if (tfs_parse_buffer(buf, len, TFS_FORMAT_GGUF, 0, &h, &err) != TFS_OK) {
        fprintf(stderr, "tfs_bench: %s: %s at offset %llu\n", path, tfs_rule_id(err.rule),
                (unsigned long long)err.offset);
        free(buf);
        return 1;
    }
    uint64_t hbytes = h->header_size ? h->header_size : len;
    printf("gguf, %s: header %llu bytes, %zu tensors, %zu KV, file %zu bytes\n", path, (unsigned long long)hbytes,
           h->n_tensors, h->n_kv, len);
    tfs_header_free(h);
    job jb = {buf, len, NULL, TFS_FORMAT_GGUF};
    double t1 = best_of(&jb, runs);
    report("tfs_parse_buffer", t1, hbytes, NULL);
    job jf = {NULL, 0, path, TFS_FORMAT_GGUF};
    double t2 = best_of(&jf, runs);
    report("tfs_parse_file", t2, hbytes, NULL);
    free(buf);
    return t1 < 0 || t2 < 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --parse PATH: best and median of N runs of tfs_parse_file (ms). */
static int bench_parse(const char *path, int runs) {
    double *t = calloc((size_t)runs, sizeof *t);
    if (!t) return 1;
    for (int i = 0; i < runs; i++) {
        tfs_header *h = NULL;
        tfs_error err;
        double t0 = now_s();
        tfs_status st = tfs_parse_file(path, TFS_FORMAT_UNKNOWN, 0, &h, &err);
        t[i] = now_s() - t0;
        tfs_header_free(h);
        if (st != TFS_OK) {
            fprintf(stderr, "tfs_bench: %s: %s %s at offset %llu\n", path, tfs_status_name(st), tfs_rule_id(err.rule),
                    (unsigned long long)err.offset);
            free(t);
            return 1;
        }
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    printf("parse_ms %.3f %.3f\n", t[0] * 1e3, t[runs / 2] * 1e3);
    free(t);
    return 0;
}

static const char *default_gguf(void) {
    static const char *const cand[] = {
        TFS_SOURCE_DIR "/../shared/real/gguf/llamacpp-ggml-vocab-deepseek-llm.gguf",
        TFS_SOURCE_DIR "/corpus/real/gguf/llamacpp-ggml-vocab-deepseek-llm.gguf",
    };
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++)
        if (access(cand[i], R_OK) == 0) return cand[i];
    return cand[1];
}

static void usage(FILE *f) {
    fprintf(f, "usage: tfs_bench [--runs N] [--tensors N] [--gguf PATH] [--emit-synthetic PATH]\n"
               "       tfs_bench [--runs N] --parse PATH\n");
}

int main(int argc, char **argv) {
    int runs = 20;
    size_t n_tensors = 50000;
    const char *gguf = NULL, *emit = NULL, *parse = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--runs") == 0 && v) {
            runs = atoi(v);
            i++;
        } else if (strcmp(a, "--tensors") == 0 && v) {
            n_tensors = (size_t)strtoull(v, NULL, 10);
            i++;
        } else if (strcmp(a, "--gguf") == 0 && v) {
            gguf = v;
            i++;
        } else if (strcmp(a, "--emit-synthetic") == 0 && v) {
            emit = v;
            i++;
        } else if (strcmp(a, "--parse") == 0 && v) {
            parse = v;
            i++;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (runs < 1 || n_tensors < 1) {
        usage(stderr);
        return 2;
    }
    if (parse) return bench_parse(parse, runs);
    if (emit) {
        uint8_t *hdr;
        size_t hlen;
        uint64_t data;
        if (synth_st_header(n_tensors, &hdr, &hlen, &data) != 0) return 1;
        int rc = write_sparse(emit, hdr, hlen, hlen + data);
        if (rc != 0)
            fprintf(stderr, "tfs_bench: cannot write %s: %s\n", emit, strerror(errno));
        else
            printf("%s: %zu tensors, header %zu bytes, file %llu bytes (sparse)\n", emit, n_tensors, hlen,
                   (unsigned long long)(hlen + data));
        free(hdr);
        return rc ? 1 : 0;
    }
    printf("tfs_bench: best of %d runs (CLOCK_MONOTONIC), MB = 10^6, GB = 10^9 header bytes; faults = mean minor page "
           "faults per parse\n",
           runs);
    int rc = bench_synthetic(n_tensors, runs);
    rc |= bench_gguf(gguf ? gguf : default_gguf(), runs);
    return rc;
}
