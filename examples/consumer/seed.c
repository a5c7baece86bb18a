/* seed.c: what an application of a TFS_POSIX=OFF libtfs supplies
 * (tfs/platform.h): the per-parse hash seed.  This example has a C11 hosted
 * library, so it mixes the clock and an address; a real freestanding or
 * WASM program would return 8 bytes of its platform's CSPRNG
 * (crypto.getRandomValues, getentropy, a hardware RNG). */
#include <stdint.h>
#include <time.h>

#include <tfs/platform.h>

uint64_t tfs_platform_hash_seed(void) {
    static int anchor;
    struct timespec ts = {0};
    timespec_get(&ts, TIME_UTC);
    uint64_t z = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)&anchor;
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}
