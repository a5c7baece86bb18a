/* libfuzzer.c: libFuzzer front end (object library tfs_mutator_libfuzzer):
 * LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver over the core.
 * A structure-aware fuzz target links this object next to its
 * LLVMFuzzerTestOneInput.  Without libFuzzer (a replay main, AFL++'s
 * driver) the functions are simply never called. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tfs_mutate.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    /* ablation (bench/fuzz/run.sh): TFS_MUTATOR_DISABLE=family[,family...] */
    static int env_read;
    if (!env_read) {
        env_read = 1;
        tfs_mutation_disable(getenv("TFS_MUTATOR_DISABLE"));
    }
    /* libFuzzer's seed is 32 bits; the input's size spreads it a little */
    uint64_t s = ((uint64_t)seed << 32) ^ (uint64_t)size;
    size_t n = tfs_mutate(data, size, max_size, s, -1);
    return n ? n : size;
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed)
{
    return tfs_crossover(data1, size1, data2, size2, out, max_out_size, ((uint64_t)seed << 32) | 0x5eedu);
}
