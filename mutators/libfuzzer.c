/* libfuzzer.c: libFuzzer front end (object library tfs_mutator_libfuzzer):
 * LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver over the core.
 * A structure-aware fuzz target links this object next to its
 * LLVMFuzzerTestOneInput.  Without libFuzzer (a replay main, AFL++'s
 * driver) the functions are simply never called.
 *
 * Length control: an output may grow to at most 1.5 x its input (the larger
 * one for a crossover), or to TFS_MUTATOR_MIN_BUDGET bytes, whichever is
 * more, and never past libFuzzer's max_size; one call in 16 may use all of
 * max_size (rules such as GG505, a key over 65,535 bytes, need large files
 * from small ones).  libFuzzer's -len_control does the same for its own
 * mutations: without it, mutations that declare large
 * sizes (shapes, counts, header lengths) materialise their data up to
 * max_size, the corpus fills with 64 KiB files of zeros and every execution
 * (mutation and target) slows down with the bytes it copies and parses.
 *
 * Crediting mutations: with TFS_MUTATOR_TRACE=FILE in the environment
 * ("%p" in FILE becomes the process id), FILE always holds, on one line, the
 * chain of tfs mutations that made the input being executed
 * ("calc.end_wrap+offset.swap", "crossover", or "seed" before the first
 * mutation): the names of each call's stack, and of the earlier calls while
 * libFuzzer keeps mutating the same unit (an input equal to the previous
 * output continues the chain).  FILE is a shared memory map of the file,
 * so it survives any crash of the target without a write per execution;
 * after a crash it names what produced the crashing input
 * (bench/fuzz/run.sh records it).  Not set: nothing is traced.
 *
 * Mixing: with TFS_MUTATOR_MIX=P (0 to 100; default 0) in the environment,
 * P percent of the calls to LLVMFuzzerCustomMutator hand the input to
 * libFuzzer's own mutator (LLVMFuzzerMutate: byte edits, its dictionary and
 * the values of traced comparisons) instead of tfs_mutate; traced as
 * "libfuzzer".  The structured mutations then keep libFuzzer's byte-level
 * search next to them.  Outside libFuzzer (no LLVMFuzzerMutate) every call
 * is a tfs one.  Anything but an integer 0..100 is 0.
 *
 * Quick edits: with TFS_MUTATOR_QUICK=P (0 to 100; default 90,
 * TFS_MUTATOR_QUICK_DEFAULT), P percent of the other calls make one
 * tfs_mutate_quick edit (a field of the header found by a bounded scan, set
 * to a boundary value, rewritten, bit-flipped or cut at; no parse, no write:
 * a few microseconds whatever the input's size), traced as "quick.value" and
 * so on; such a call on an input that is no model at all (tfs_mutate_format
 * says unknown) goes to LLVMFuzzerMutate instead of replacing it with a
 * skeleton, when libFuzzer is there.  P percent of the crossovers are
 * tfs_crossover_quick splices ("quick.crossover").  The rest run tfs_mutate
 * and tfs_crossover (parse, model, write).  Anything but an integer 0..100
 * is the default. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mut.h"

#if !defined(TFS_NO_POSIX) && (defined(__unix__) || defined(__APPLE__))
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#define TFS_TRACE 1
#endif

#define TFS_MUTATOR_MIN_BUDGET 4096u

/* libFuzzer's own mutator: a weak reference, null outside libFuzzer */
#if defined(__GNUC__) || defined(__clang__)
extern size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
#define TFS_HAVE_MIX 1
#endif

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2, uint8_t *out,
                                 size_t max_out_size, unsigned int seed);

/* the output cap for an input of `size` bytes under libFuzzer's max_size */
static size_t budget(size_t size, size_t max_size, unsigned int seed) {
    if (seed % 16u == 0) return max_size;
    size_t b = size > SIZE_MAX / 3 ? SIZE_MAX : size + size / 2;
    if (b < TFS_MUTATOR_MIN_BUDGET) b = TFS_MUTATOR_MIN_BUDGET;
    return b < max_size ? b : max_size;
}

#define TRACE_BYTES 4096u
#define CHAIN_BYTES 256u

static int g_env_read;
static unsigned g_mix;                               /* TFS_MUTATOR_MIX: percent of calls to LLVMFuzzerMutate */
static unsigned g_quick = TFS_MUTATOR_QUICK_DEFAULT; /* TFS_MUTATOR_QUICK: percent of tfs_mutate_quick */
static char *g_trace;                                /* the mapped FILE, TRACE_BYTES; NULL: off */
static uint64_t g_last_hash;                         /* hash of the last output */
static size_t g_last_size;

static uint64_t fnv1a(const uint8_t *p, size_t n) {
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211u;
    return h;
}

static void setup(void) {
    if (g_env_read) return;
    g_env_read = 1;
    /* ablation (bench/fuzz/run.sh): TFS_MUTATOR_DISABLE=family[,family...] */
    tfs_mutation_disable(getenv("TFS_MUTATOR_DISABLE"));
    g_mix = tfs__mut_env_percent(getenv("TFS_MUTATOR_MIX"), 0u);
    g_quick = tfs__mut_env_percent(getenv("TFS_MUTATOR_QUICK"), TFS_MUTATOR_QUICK_DEFAULT);
#ifdef TFS_TRACE
    const char *t = getenv("TFS_MUTATOR_TRACE");
    if (!t || !*t) return;
    char path[4096];
    size_t at = 0;
    for (const char *p = t; *p && at + 24 < sizeof path; p++) {
        if (p[0] == '%' && p[1] == 'p') {
            at += (size_t)snprintf(path + at, sizeof path - at, "%ld", (long)getpid());
            p++;
        } else {
            path[at++] = *p;
        }
    }
    path[at] = '\0';
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    if (ftruncate(fd, TRACE_BYTES) == 0) {
        void *m = mmap(NULL, TRACE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (m != MAP_FAILED) {
            g_trace = m;
            memcpy(g_trace, "seed\n", 6);
        }
    }
    close(fd);
#endif
}

/* the chain of the output out[0, n) made by `what`; cont: its input was
 * the previous output (the chain goes on) */
static void trace(int cont, const uint8_t *out, size_t n, const char *what) {
    size_t len = strcspn(g_trace, "\n");
    size_t add = strlen(what);
    if (!cont || strncmp(g_trace, "seed\n", 5) == 0 || len + 1 + add + 2 > TRACE_BYTES)
        len = 0;
    else
        g_trace[len++] = '+';
    memcpy(g_trace + len, what, add);
    len += add;
    g_trace[len] = '\n';
    memset(g_trace + len + 1, 0, TRACE_BYTES - len - 1);
    g_last_size = n;
    g_last_hash = fnv1a(out, n);
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    setup();
    /* libFuzzer's seed is 32 bits; the input's size spreads it a little */
    uint64_t s = ((uint64_t)seed << 32) ^ (uint64_t)size;
    char chain[CHAIN_BYTES];
    tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
    uint64_t in_hash = 0;
    if (g_trace) {
        o.chain = chain;
        o.chain_size = sizeof chain;
        in_hash = fnv1a(data, size);
    }
    size_t in_size = size;
#ifdef TFS_HAVE_MIX
    /* bits 16.. of the seed: independent of budget()'s (8..11) */
    if (g_mix && LLVMFuzzerMutate && (seed >> 16) % 100u < g_mix) {
        size_t m = LLVMFuzzerMutate(data, size, max_size);
        if (g_trace) trace(in_size == g_last_size && in_hash == g_last_hash, data, m, "libfuzzer");
        return m;
    }
#endif
    /* the quick path's draw: a hash of the seed, independent of the mix's bits */
    if (g_quick && ((seed * 2654435761u) >> 8) % 100u < g_quick) {
        char qname[16];
        size_t q = tfs_mutate_quick(data, size, max_size, s, qname, sizeof qname);
        if (q) {
            if (g_trace) trace(in_size == g_last_size && in_hash == g_last_hash, data, q, qname);
            return q;
        }
#ifdef TFS_HAVE_MIX
        /* not a model (no field found): libFuzzer's own edit, not a skeleton */
        if (LLVMFuzzerMutate && tfs_mutate_format(data, size) == TFS_FORMAT_UNKNOWN) {
            size_t m = LLVMFuzzerMutate(data, size, max_size);
            if (g_trace) trace(in_size == g_last_size && in_hash == g_last_hash, data, m, "libfuzzer");
            return m;
        }
#endif
    }
    size_t n = tfs_mutate(data, size, budget(size, max_size, seed >> 8), s, &o);
    if (n == 0) n = size;
    if (g_trace) trace(in_size == g_last_size && in_hash == g_last_hash, data, n, chain[0] ? chain : "none");
    return n;
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2, uint8_t *out,
                                 size_t max_out_size, unsigned int seed) {
    setup();
    size_t cap = budget(size1 > size2 ? size1 : size2, max_out_size, seed >> 8);
    uint64_t s = ((uint64_t)seed << 32) | 0x5eedu;
    if (g_quick && ((seed * 2654435761u) >> 8) % 100u < g_quick) {
        size_t n = tfs_crossover_quick(data1, size1, data2, size2, out, cap, s);
        if (n) {
            if (g_trace) trace(0, out, n, "quick.crossover");
            return n;
        }
    }
    size_t n = tfs_crossover(data1, size1, data2, size2, out, cap, s);
    if (g_trace) trace(0, out, n, "crossover");
    return n;
}
