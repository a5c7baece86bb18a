/*
 * tfs_mutate.h: the structure-aware mutation core for safetensors and GGUF
 * (static library tfs_mutators; front ends: libFuzzer in libfuzzer.c, AFL++
 * in afl.c, `tfs mutate` in tools/tfs/mutate_cmd.c).
 *
 * A mutation parses its input tolerantly with libtfs (TFS_PARTIAL: a broken
 * file still gives the records read before the violation; an unparseable
 * one becomes a small valid skeleton), turns the view into the writer's model
 * (include/tfs/write.h), applies one or more named mutations to the model
 * and/or to the written bytes through the writer's field map
 * (include/tfs/field.h), and serialises with the C writer.  Sizes, offsets
 * and padding are recomputed by the writer unless a mutation sets a knob to
 * write them wrong on purpose.
 *
 * Every mutation has a stable name ("offset.swap", "trunc.header", ...) in
 * one table (mutators/table.c; docs/mutators.md lists them).  Results are a
 * pure function of (input bytes, max_size, seed, mutation): no global state,
 * no clock, no hash seed.  Memory: bounded by the input size and max_size
 * (declared sizes in a hostile input are never materialised: the writer
 * writes them as holes and the output is cut at max_size).
 *
 * Thread safety: no global state; concurrent calls on distinct buffers are
 * fine.  Nothing here prints or aborts.
 */
#ifndef TFS_MUTATE_H
#define TFS_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Mutate data[0, size) in place.
 *   data      : the input; on return holds the output.  Capacity max_size
 *               bytes (data may be NULL only when max_size is 0).
 *   size      : input bytes (<= max_size).
 *   max_size  : capacity of data (bytes); the output never exceeds it (a
 *               longer file is cut at max_size).
 *   seed      : every random choice derives from it (same input, max_size,
 *               seed and mutation: same output bytes).
 *   mutation  : index into the table (0 <= mutation < tfs_mutation_count()),
 *               or -1: pick 1 to 3 mutations that apply to the input's
 *               format from the seed, and stack them.
 * Returns the output size (<= max_size).  A mutation for the other format
 * (e.g. json.* on a GGUF input) or an index out of range leaves the input
 * unchanged and returns size.  On allocation failure the input is left
 * unchanged.  An input whose format cannot be told (no "GGUF" magic and no
 * parseable safetensors record) is replaced by a skeleton of the format the
 * mutation needs (either one, from the seed, for -1 and two-format
 * mutations). */
size_t tfs_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, int mutation);

/* Structural crossover: a child of a[0, a_size) and b[0, b_size) written to
 * out (capacity max_out bytes).  Both parsed as for tfs_mutate; when both are
 * of one format the child takes the records of a (KV pairs and tensor infos;
 * safetensors entries and __metadata__ pairs) with a range of them replaced
 * by, or extended with, a range of b's; when the formats differ, a's header
 * prefix followed by b's tail (a byte splice).  Returns the child's size
 * (<= max_out; 0 only when max_out is 0 or on allocation failure). */
size_t tfs_crossover(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size, uint8_t *out, size_t max_out,
                     uint64_t seed);

/* The table of named mutations.
 * tfs_mutation_count: number of entries.
 * tfs_mutation_name : stable name of entry i (static string), NULL when i is
 *                     out of range.
 * tfs_mutation_find : index of the entry named exactly `name`, or -1.
 * tfs_mutation_formats: formats entry i applies to, a bit set of
 *                     (1 << TFS_FORMAT_SAFETENSORS) | (1 << TFS_FORMAT_GGUF)
 *                     (tfs/tfs.h), 0 when i is out of range.
 * tfs_mutation_doc  : one-line description of entry i (static), NULL when out
 *                     of range. */
int tfs_mutation_count(void);
const char *tfs_mutation_name(int i);
int tfs_mutation_find(const char *name);
unsigned tfs_mutation_formats(int i);
const char *tfs_mutation_doc(int i);

/* Switch mutation families off (ablation, bench/fuzz/run.sh): `list` is
 * a list of family names (the part of a mutation's name before the '.',
 * e.g. "bug" or "bug,json") separated by ',' or ' '; NULL or "" switches all
 * back on.  A random pick (mutation -1) then never chooses a mutation of a
 * family that is off, and tfs_mutate with such a mutation leaves the input
 * unchanged (returns size).  Process-wide, not thread-safe; the front ends
 * (tfs_mutator_libfuzzer, tfs_afl_mutator) call it once with the environment
 * variable TFS_MUTATOR_DISABLE.  Returns the number of table entries now
 * off (0 when a name matches no family). */
int tfs_mutation_disable(const char *list);

#ifdef __cplusplus
}
#endif
#endif /* TFS_MUTATE_H */
