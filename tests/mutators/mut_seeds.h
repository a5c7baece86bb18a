/* mut_seeds.h: small valid seed files for the mutator tests, written with
 * the C writer (a GGUF with KV pairs of several types and three tensors; a
 * safetensors file with three entries and __metadata__). */
#ifndef TFS_TEST_MUT_SEEDS_H
#define TFS_TEST_MUT_SEEDS_H

#include <stddef.h>
#include <stdint.h>

/* malloc'd file bytes (caller frees) and their size; `tag` prefixes the
 * tensor names ("a" -> "a.0", "a.1", ...), so crossover tests can tell
 * parents apart. */
uint8_t *mut_seed_gguf(const char *tag, size_t *len);
uint8_t *mut_seed_st(const char *tag, size_t *len);

#endif
