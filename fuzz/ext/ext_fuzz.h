/* ext_fuzz.h: the contract between a third-party reader's fuzz target
 * (fuzz/ext/<reader>.c*) and ext_fuzz.c, which defines
 * LLVMFuzzerTestOneInput / LLVMFuzzerInitialize over it.
 *   tfs_ext_setup    once per process, before any input (silence logs, ...)
 *   tfs_ext_variants how many variants the target has (>= 1)
 *   tfs_ext_run      run variant `variant` (< tfs_ext_variants()) of the
 *                    reader on data[0, size): the whole input is the file.
 * Under an engine, the input's last byte picks the variant (one run per
 * input); the replay main (ext_replay.c) runs every variant of every input. */
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
#endif
