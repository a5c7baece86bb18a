/* posix_seed.c: the per-parse hash seed of POSIX builds (getrandom, then the
 * monotonic clock during early boot).  Left out of TFS_POSIX=OFF builds,
 * where hash.c asks the application (tfs_platform_hash_seed, tfs/platform.h). */
#include "internal.h"

#include <sys/random.h>
#include <time.h>

uint64_t tfs__hash_seed(void) {
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, GRND_NONBLOCK) != (ssize_t)sizeof s) {
        /* no entropy yet (early boot): still unpredictable enough from outside */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        s = (uint64_t)ts.tv_nsec * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&ts;
    }
    return s;
}
