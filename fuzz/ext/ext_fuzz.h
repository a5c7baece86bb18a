/* ext_fuzz.h: the contract between a third-party reader's fuzz target
 * (fuzz/ext/<reader>.c*) and ext_fuzz.c, which defines
 * LLVMFuzzerTestOneInput / LLVMFuzzerInitialize over it.
 *   tfs_ext_setup    once per process, before any input (silence logs, ...)
 *   tfs_ext_variants how many variants the target has (>= 1)
 *   tfs_ext_run      run variant `variant` (< tfs_ext_variants()) of the
 *                    reader on data[0, size): the whole input is the file.
 * Under an engine, the input's last byte picks the variant (one run per
 * input: tfs_ext_engine_variant); the replay main (ext_replay.c) runs every
 * variant of every input, or with TFS_EXT_ENGINE_VARIANT=1 the engine's. */
#ifndef TFS_EXT_FUZZ_H
#define TFS_EXT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
void tfs_ext_setup(void);
unsigned tfs_ext_variants(void);
void tfs_ext_run(const uint8_t *data, size_t size, unsigned variant);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#ifdef __cplusplus
}
#endif

/* the variant an engine runs for data[0, size): its last byte's pick */
static inline unsigned tfs_ext_engine_variant(const uint8_t *data, size_t size) {
    return size ? data[size - 1] % tfs_ext_variants() : 0;
}
#endif
