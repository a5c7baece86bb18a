/* posix_seed.c: the per-parse hash seed of POSIX builds.  One getrandom
 * call per process (the monotonic clock during early boot) gives a secret
 * base; each parse takes base + n * golden ratio for the next n, through
 * the splitmix64 finaliser (a bijection), so seeds differ from parse to
 * parse and cost no system call (a getrandom per parse was 2% of a fuzzing
 * execution).  Left out of TFS_POSIX=OFF builds, where hash.c asks the
 * application (tfs_platform_hash_seed, tfs/platform.h). */
#include "internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/random.h>
#include <time.h>

static uint64_t seed_base;
static pthread_once_t seed_once = PTHREAD_ONCE_INIT;
static atomic_uintptr_t seed_count;

static void seed_init(void) {
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, GRND_NONBLOCK) != (ssize_t)sizeof s) {
        /* no entropy yet (early boot): still unpredictable enough from outside */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        s = (uint64_t)ts.tv_nsec * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&ts;
    }
    seed_base = s;
}

uint64_t tfs__hash_seed(void) {
    (void)pthread_once(&seed_once, seed_init);
    uint64_t n = (uint64_t)atomic_fetch_add_explicit(&seed_count, 1, memory_order_relaxed);
    uint64_t z = seed_base + (n + 1u) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
