/* test_seed.c: tfs_platform_hash_seed for the tests of a TFS_POSIX=OFF build
 * (tfs/platform.h): a splitmix64 sequence, or a fixed value, and a count of
 * the calls.  Thread-safe (the counter is atomic). */
#include <stdatomic.h>

#include "test_seed.h"
#include "tfs/platform.h"

static atomic_ulong g_calls;
static uint64_t g_fixed_seed;
static atomic_int g_fixed;

unsigned long test_seed_calls(void) { return atomic_load(&g_calls); }

void test_seed_set(uint64_t seed, int fixed) {
    g_fixed_seed = seed;
    atomic_store(&g_fixed, fixed);
}

uint64_t tfs_platform_hash_seed(void) {
    unsigned long n = atomic_fetch_add(&g_calls, 1ul) + 1ul;
    if (atomic_load(&g_fixed)) return g_fixed_seed;
    uint64_t z = (uint64_t)n * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
