/* An outside fuzz target: only LLVMFuzzerTestOneInput; the tfs mutators come from tfs::mutator_libfuzzer. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    uint64_t n_tensors = 0; /* a toy GGUF reader: magic, version 3, the tensor count */
    if (n >= 24 && memcmp(d, "GGUF", 4) == 0 && d[4] == 3) memcpy(&n_tensors, d + 8, 8);
    return n_tensors > (uint64_t)n ? -1 : 0; /* -1: do not keep the input */
}
