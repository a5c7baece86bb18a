/* tfs_mutate.h: the mutators' sources include the public header by this
 * name (kept so that `#include "tfs_mutate.h"` inside mutators/ stays valid),
 * plus the build-internal byte-source entry point of `tfs mutate`
 * (tools/tfs/mutate_cmd.c), which needs libtfs's tfs_source (tfs/tfs.h). */
#ifndef TFS_MUTATE_INTERNAL_H
#define TFS_MUTATE_INTERNAL_H

#include "tfs/mutate.h"
#include "tfs/tfs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one run of tfs_mutate_source did. */
typedef struct tfs_mutate_info {
    int format;      /* TFS_FORMAT_GGUF or TFS_FORMAT_SAFETENSORS: the model mutated */
    int skeleton;    /* 1: the input had no records; a skeleton was mutated */
    int n;           /* mutations applied, 0..8, in order */
    int mutation[8]; /* their table indices (tfs_mutation_name) */
} tfs_mutate_info;

/* Receives the output of tfs_mutate_source in increasing file order:
 * `len` bytes at file offset `offset` (bytes), from `bytes`, or, when bytes
 * is NULL, `len` zero bytes (a hole: the data section, a declared size never
 * materialised; a file may leave it sparse).  bytes is valid only during
 * the call.  Return 0 to go on, nonzero to stop (tfs_mutate_source then
 * returns -3). */
typedef int (*tfs_mutate_sink)(void *ctx, uint64_t offset, const uint8_t *bytes, uint64_t len);

/* tfs_mutate for inputs that need not fit in memory: only the header is read
 * from `src` (a random-access tfs_source, tfs/tfs.h, with a known size), its
 * records copied into the model; the output is handed to `sink` in
 * segments, holes never materialised.  Memory: the header's records plus the
 * written header, whatever the file or its declared sizes.
 * Output bytes: those tfs_mutate gives for the whole file held in a buffer
 * of capacity max_size (same seed, options, max_size; tested in
 * tests/mutators/test_mutators.c, test_source_equals_buffer).
 *   max_size : output cap (bytes); the output is cut there.  Above
 *              SIZE_MAX / 2 it is SIZE_MAX / 2.
 *   options  : as for tfs_mutate (NULL: TFS_MUTATE_OPTIONS_INIT); its chain
 *              is written as tfs_mutate writes it.
 *   out_size : may be NULL; receives the output size (bytes) on success.
 *   info     : may be NULL; receives the chosen mutations (also on return 1).
 * Returns 0 written; 1 nothing written: the mutation does not apply to the
 * input's format, is switched off or out of range (tfs_mutate would leave
 * the input unchanged); -1 allocation failure; -2 bad arguments (NULL,
 * forward-only or unknown-size source, max_size 0); -3 the sink stopped;
 * a positive errno when the source's read failed. */
int tfs_mutate_source(const tfs_source *src, uint64_t max_size, uint64_t seed, const tfs_mutate_options *options,
                      tfs_mutate_sink sink, void *ctx, uint64_t *out_size, tfs_mutate_info *info);

#ifdef __cplusplus
}
#endif
#endif /* TFS_MUTATE_INTERNAL_H */
