/* test_seed.h: the tfs_platform_hash_seed every test program of a
 * TFS_POSIX=OFF build links (tests/core/test_seed.c), as an application of
 * such a build must supply it (tfs/platform.h). */
#ifndef TFS_TEST_SEED_H
#define TFS_TEST_SEED_H

#include <stdint.h>

/* Seeds handed out so far (calls of tfs_platform_hash_seed). */
unsigned long test_seed_calls(void);
/* Make the next calls return `seed` (fixed = 1) or a new value each call
 * (fixed = 0, the default: splitmix64 of a counter). */
void test_seed_set(uint64_t seed, int fixed);

#endif
