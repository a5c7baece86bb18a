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
 * (mutation and target) slows down with the bytes it copies and parses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tfs_mutate.h"

#define TFS_MUTATOR_MIN_BUDGET 4096u

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

/* the output cap for an input of `size` bytes under libFuzzer's max_size */
static size_t budget(size_t size, size_t max_size, unsigned int seed)
{
    if (seed % 16u == 0)
        return max_size;
    size_t b = size > SIZE_MAX / 3 ? SIZE_MAX : size + size / 2;
    if (b < TFS_MUTATOR_MIN_BUDGET)
        b = TFS_MUTATOR_MIN_BUDGET;
    return b < max_size ? b : max_size;
}

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
    size_t n = tfs_mutate(data, size, budget(size, max_size, seed >> 8), s, -1);
    return n ? n : size;
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed)
{
    size_t cap = budget(size1 > size2 ? size1 : size2, max_out_size, seed >> 8);
    return tfs_crossover(data1, size1, data2, size2, out, cap, ((uint64_t)seed << 32) | 0x5eedu);
}
