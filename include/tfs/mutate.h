/*
 * tfs/mutate.h: structure-aware mutation of safetensors and GGUF files, for
 * fuzzing any reader of these formats (installed; CMake target tfs::mutator,
 * pkg-config tfs-mutator; docs/mutators.md).
 *
 * A mutation parses its input tolerantly with libtfs (TFS_PARTIAL: a broken
 * file still gives the records read before the violation; an unparseable
 * one becomes a small valid skeleton), turns the view into the writer's model
 * (tfs/write.h), applies one or more named mutations to the model and/or to
 * the written bytes through the writer's field map (tfs/field.h), and
 * serialises with the C writer.  Sizes, offsets and padding are recomputed
 * by the writer unless a mutation sets a knob to write them wrong on purpose
 * (each mutation names the rule id of tfs/rules.def its output violates;
 * docs/mutators.md lists them).
 *
 * Every mutation has a stable name ("offset.swap", "calc.end_wrap", ...);
 * the part before the '.' is its family.  Results are a pure function of
 * (input bytes, max_size, seed, options): no clock, no hash seed.  Memory:
 * bounded by the input size and max_size (declared sizes in a hostile input
 * are never materialised: the writer writes them as holes and the output is
 * cut at max_size).
 *
 * Use in a libFuzzer target: link the ready object (CMake
 * tfs::mutator_libfuzzer, pkg-config tfs-mutator-libfuzzer), which defines
 * LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver over these functions
 * with its own uninstrumented copy of libtfs; the target defines only
 * LLVMFuzzerTestOneInput.  AFL++: AFL_CUSTOM_MUTATOR_LIBRARY=<libdir>/tfs/
 * libtfs_afl_mutator.so.  Anything else (honggfuzz, a script, a test
 * generator): call tfs_mutate / tfs_crossover here.
 *
 * Thread safety: concurrent calls on distinct buffers are fine, except
 * tfs_mutation_disable (process-wide).  Nothing here prints or aborts.
 */
#ifndef TFS_MUTATE_H
#define TFS_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Options of tfs_mutate.  Start from TFS_MUTATE_OPTIONS_INIT (every field
 * at its default) and set what you need; a NULL options pointer means the
 * defaults. */
typedef struct tfs_mutate_options {
    /* index into the table (0 <= mutation < tfs_mutation_count()), or -1
     * (default): pick 1 to max_stack mutations that apply to the input's
     * format from the seed, and stack them. */
    int mutation;
    /* most mutations stacked by a random pick (1..8); 0: the default, 3 */
    int max_stack;
    /* family selection for random picks: NULL or "" (default) all families;
     * otherwise a list of family names separated by ',' or ' ' (e.g.
     * "calc,offset,shape"): only mutations of these families are picked.
     * Families switched off with tfs_mutation_disable stay off. */
    const char *families;
    /* format of the skeleton an input of no recognisable format becomes:
     * TFS_FORMAT_GGUF or TFS_FORMAT_SAFETENSORS (tfs/tfs.h), or
     * TFS_FORMAT_UNKNOWN (default, 0): from the seed */
    int format;
    /* out, optional: the names of the mutations applied, joined by '+'
     * ("offset.swap+calc.end_wrap"), NUL-terminated and cut to chain_size
     * bytes; "" when none applied.  Caller-owned buffer; NULL: not written. */
    char *chain;
    size_t chain_size;
} tfs_mutate_options;
#define TFS_MUTATE_OPTIONS_INIT \
    { -1, 0, NULL, 0, NULL, 0 }

/* Mutate data[0, size) in place.
 *   data      : the input; on return holds the output.  Capacity max_size
 *               bytes (data may be NULL only when max_size is 0).
 *   size      : input bytes (<= max_size; a larger size is taken as max_size).
 *   max_size  : capacity of data (bytes); the output never exceeds it (a
 *               longer file is cut at max_size).
 *   seed      : every random choice derives from it (same input, max_size,
 *               seed and options: same output bytes).
 *   options   : what to apply (above); NULL: TFS_MUTATE_OPTIONS_INIT.
 * Returns the output size (<= max_size; 0 only when max_size is 0 or data
 * is NULL).  A mutation for the other format (e.g. json.* on a GGUF input),
 * an index out of range or a mutation switched off leaves the input
 * unchanged and returns size.  On allocation failure the input is left
 * unchanged.  An input whose format cannot be told (tfs_mutate_format gives
 * TFS_FORMAT_UNKNOWN) is replaced by a skeleton of the format the mutation
 * needs (options->format, else from the seed). */
size_t tfs_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const tfs_mutate_options *options);

/* A cheap structure-aware edit of data[0, size) in place, for fuzzers that
 * call the mutator once per execution: no parse of the whole input, no write,
 * no allocation.  A bounded scan of the header (GGUF: the counts, up to 1,024
 * KV pairs, string array elements and tensor infos, stopping at the first
 * length or count that does not fit; safetensors: the header size and the
 * number tokens of a 4 KiB window of the JSON) keeps up to 64 of the fields
 * it passes; one of them is then set to a boundary value (the bytes left
 * after it, +-1, or a value such as 0, 2^31, 2^63, 2^64 - 1), rewritten in
 * place (a JSON number: all 9s, all 0s, one digit), bit-flipped, or the
 * input is cut at its start, inside it or at its end.
 *   data, size, max_size, seed: as for tfs_mutate (same seed and input:
 *               same output).
 *   chain     : optional (NULL: not written): receives "quick.value",
 *               "quick.number", "quick.flip" or "quick.cut", or "" when
 *               nothing was done; chain_size bytes, NUL-terminated.
 * Returns the output size (<= size; a cut makes it smaller), or 0 when no
 * field was found (not GGUF or safetensors by tfs_mutate_format, or cut
 * before its first field; data NULL, size or max_size 0): the input is then
 * unchanged and the caller mutates it another way (tfs_mutate).  The
 * libFuzzer and AFL++ front ends use it for TFS_MUTATOR_QUICK percent of
 * their calls (docs/mutators.md). */
size_t tfs_mutate_quick(uint8_t *data, size_t size, size_t max_size, uint64_t seed, char *chain, size_t chain_size);

/* A cheap crossover for the same fuzzers: a's bytes up to the start of one
 * of its fields, then b's bytes from the start of one of its fields (fields
 * found by tfs_mutate_quick's scan; a random byte position in an input where
 * the scan finds none), cut at max_out.  No parse, no allocation.
 *   a, a_size, b, b_size: the parents (only read); out: max_out bytes,
 *   must not overlap them; seed: as for tfs_crossover.
 * Returns the child's size (<= max_out; 0 when out is NULL, max_out is 0,
 * or a parent is NULL with a nonzero size). */
size_t tfs_crossover_quick(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size, uint8_t *out,
                           size_t max_out, uint64_t seed);

/* tfs_mutate with only options.mutation set (mutation: an index, or -1 for
 * a random pick).  Same arguments, result and errors as tfs_mutate. */
size_t tfs_mutate_one(uint8_t *data, size_t size, size_t max_size, uint64_t seed, int mutation);

/* Format detection as the mutators do it: TFS_FORMAT_GGUF for the "GGUF"
 * magic, TFS_FORMAT_SAFETENSORS for an 8-byte header size followed by a
 * '{', TFS_FORMAT_UNKNOWN otherwise (an empty or NULL input too).  The
 * bytes are only read (tfs_detect_format of tfs/tfs.h). */
int tfs_mutate_format(const uint8_t *data, size_t size);

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

/* Families (the part of a mutation's name before the '.'), in table order.
 * tfs_mutation_family_count: number of families.
 * tfs_mutation_family      : name of family i (static string, "offset",
 *                            "calc", ...), NULL when i is out of range. */
int tfs_mutation_family_count(void);
const char *tfs_mutation_family(int i);

#ifdef __cplusplus
}
#endif
#endif /* TFS_MUTATE_H */
