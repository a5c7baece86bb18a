/* test_mutator_mix.c: TFS_MUTATOR_MIX of the libFuzzer front end
 * (mutators/libfuzzer.c): that percentage of LLVMFuzzerCustomMutator's calls
 * go to libFuzzer's own mutator, LLVMFuzzerMutate, defined here as a stand-in
 * that counts the calls made with the whole input and marks its output.
 * The front end reads the environment once per process, so each setting
 * runs in a child process (fork). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mutators/mut_seeds.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define CAP 65536u
#define CALLS 2000u

static uint8_t *g_whole; /* the buffer the front end was given */
static unsigned g_calls; /* stand-in calls with that whole buffer */

/* libFuzzer's mutator, stood in for: byte.field also calls it, on one
 * field (another pointer or max_size), which is not counted */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) {
    if (data != g_whole || max_size != CAP) return size;
    g_calls++;
    data[0] = 'Z';
    return size > 1 ? size - 1 : size;
}

/* in a child: TFS_MUTATOR_MIX=mix (NULL: unset), CALLS calls; exit 0 when
 * the stand-in's share of them is in [lo, hi] and each of its outputs is the
 * stand-in's */
static int child(const char *mix, unsigned lo, unsigned hi) {
    if (mix)
        setenv("TFS_MUTATOR_MIX", mix, 1);
    else
        unsetenv("TFS_MUTATOR_MIX");
    size_t len;
    uint8_t *seed = mut_seed_gguf("a", &len);
    g_whole = malloc(CAP);
    if (!seed || !g_whole) return 2;
    uint32_t x = 2463534242u;
    for (unsigned i = 0; i < CALLS; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* libFuzzer's seeds: 32 random bits */
        memcpy(g_whole, seed, len);
        unsigned before = g_calls;
        size_t n = LLVMFuzzerCustomMutator(g_whole, len, CAP, x);
        if (g_calls != before && (n != len - 1 || g_whole[0] != 'Z')) {
            fprintf(stderr, "mix %s: call %u: the stand-in's output was not returned (%zu bytes)\n", mix, i, n);
            return 1;
        }
    }
    if (g_calls < lo || g_calls > hi) {
        fprintf(stderr, "TFS_MUTATOR_MIX=%s: %u of %u calls to LLVMFuzzerMutate, want %u..%u\n", mix ? mix : "(unset)",
                g_calls, CALLS, lo, hi);
        return 1;
    }
    printf("TFS_MUTATOR_MIX=%s: %u of %u calls to LLVMFuzzerMutate\n", mix ? mix : "(unset)", g_calls, CALLS);
    fflush(stdout); /* the child ends with _exit */
    return 0;
}

int main(void) {
    static const struct {
        const char *mix;
        unsigned lo, hi;
    } cases[] = {
        {NULL, 0, 0},  {"0", 0, 0},   {"100", CALLS, CALLS}, {"50", 900, 1100}, {"10", 140, 260},
        {"abc", 0, 0}, {"101", 0, 0}, {"-5", 0, 0},          {"50x", 0, 0},     {"", 0, 0},
    };
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fflush(stdout);
        pid_t p = fork();
        if (p < 0) return 2;
        if (p == 0) _exit(child(cases[i].mix, cases[i].lo, cases[i].hi));
        int st;
        if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0) failed++;
    }
    if (failed)
        fprintf(stderr, "test_mutator_mix: %d of %zu settings FAILED\n", failed, sizeof cases / sizeof cases[0]);
    return failed != 0;
}
