// safetensors_cpp.cc: fuzz target for syoyo/safetensors-cpp's reader
// (safetensors.hh), built from a safetensors-cpp source folder the user
// passes (-DTFS_EXT_SAFETENSORS_CPP_SRC; docs/fuzzing-third-party.md names
// the pinned commit).  Written here; no safetensors-cpp code is copied.
//
// Variants (the input's last byte under an engine):
//   0: load_from_memory (copies the data), then validate_data_offsets
//   1: mmap_from_memory (borrows the input), then validate_data_offsets
// An accepted file is then read as a loader would: every tensor's dtype
// size, shape size and data range, and every __metadata__ pair.
#include <cstddef>
#include <cstdint>
#include <string>

#include "safetensors.hh"

#include "ext_fuzz.h"

static volatile size_t g_sink;

void tfs_ext_setup(void) {}

unsigned tfs_ext_variants(void) { return 2; }

void tfs_ext_run(const uint8_t *data, size_t size, unsigned variant)
{
    safetensors::safetensors_t st;
    std::string warn, err;
    bool ok = variant == 0 ? safetensors::load_from_memory(data, size, "fuzz", &st, &warn, &err)
                           : safetensors::mmap_from_memory(data, size, "fuzz", &st, &warn, &err);
    if (!ok)
        return;
    if (!safetensors::validate_data_offsets(st, err))
        return;
    for (const std::string &k : st.tensors.keys()) {
        safetensors::tensor_t t;
        if (!st.tensors.at(k, &t))
            continue;
        g_sink += safetensors::get_dtype_bytes(t.dtype) * safetensors::get_shape_size(t);
        g_sink += t.data_offsets[1] - t.data_offsets[0];
    }
    for (const std::string &k : st.metadata.keys()) {
        std::string v;
        if (st.metadata.at(k, &v))
            g_sink += v.size();
    }
}
