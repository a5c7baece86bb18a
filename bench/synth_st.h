/* synth_st.h: a synthetic, valid safetensors header of many tensors. */
#ifndef TFS_BENCH_SYNTH_ST_H
#define TFS_BENCH_SYNTH_ST_H

#include <stddef.h>
#include <stdint.h>

/* Build the first bytes of a valid safetensors file with `n_tensors`
 * tensors named like a Llama checkpoint ("model.layers.N.mlp.up_proj.weight",
 * hidden size 4096, intermediate 11008; BF16 on even layers, F16 on odd
 * ones), packed back to back.
 *   *out     : malloc'd 8-byte size field + JSON header (caller frees)
 *   *out_len : bytes in *out (8 + JSON length)
 *   *data    : bytes of tensor data the header declares; the file is valid
 *              when exactly *out_len + *data bytes long.
 * Returns 0, or -1 on out of memory. */
int synth_st_header(size_t n_tensors, uint8_t **out, size_t *out_len, uint64_t *data);

#endif
