/*
 * safetensors_cpp_adapter.cc: syoyo/safetensors-cpp's C++ loader
 * (safetensors.hh) as a conformance adapter.  No registry ships it: built
 * from a source folder the user passes (build_readers.sh --safetensors-cpp
 * DIR, commit pinned in docs/adapters.md) with ASan + UBSan; no third-party
 * source is here.
 *
 *   safetensors-cpp-adapter FILE.safetensors      (a .gguf file: exit 77)
 *
 * What its example does: safetensors::load_from_file, then
 * safetensors::validate_data_offsets; accepted when both succeed.  A C++
 * exception escaping the reader is not caught here: std::terminate, an
 * abort, a crash for the runner.  Content: tensors in its (insertion) order,
 * dtype by get_dtype_str, shape, data offsets; the __metadata__ entries.
 * Default profile.
 */
#define SAFETENSORS_CPP_IMPLEMENTATION
#include "safetensors.hh"

#include <cstdio>
#include <cstring>
#include <string>

#include "tfs_adapter.h"

int main(int argc, char **argv) {
    const char *reader = "syoyo/safetensors-cpp safetensors.hh " TFS_READER_COMMIT;
    if (argc != 2) {
        std::fputs("usage: safetensors-cpp-adapter FILE.safetensors\n", stderr);
        return 2;
    }
    size_t n = std::strlen(argv[1]);
    if (n < 12 || std::strcmp(argv[1] + n - 12, ".safetensors") != 0) return TA_UNSUPPORTED;
    safetensors::safetensors_t st;
    std::string warn, err;
    if (!safetensors::load_from_file(argv[1], &st, &warn, &err)) ta_exit(ta_reject(reader, ("load: " + err).c_str()));
    if (!safetensors::validate_data_offsets(st, err)) ta_exit(ta_reject(reader, ("validate: " + err).c_str()));
    std::fputs("{\"reader\":", stdout);
    ta_cstr(stdout, reader);
    std::fputs(",\"content\":{\"format\":\"safetensors\",\"version\":null,\"alignment\":null,\"tensors\":[", stdout);
    const std::vector<std::string> &keys = st.tensors.keys();
    for (size_t i = 0; i < keys.size(); i++) {
        safetensors::tensor_t t;
        st.tensors.at(i, &t);
        std::fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
        ta_str(stdout, keys[i].data(), keys[i].size());
        std::fputs(",\"type\":", stdout);
        ta_cstr(stdout, safetensors::get_dtype_str(t.dtype).c_str());
        std::fputs(",\"shape\":[", stdout);
        for (size_t d = 0; d < t.shape.size(); d++) std::printf("%s%zu", d ? "," : "", t.shape[d]);
        std::printf("],\"offsets\":[%zu,%zu]}", t.data_offsets[0], t.data_offsets[1]);
    }
    std::fputs("],\"kv\":[", stdout);
    const std::vector<std::string> &mk = st.metadata.keys();
    for (size_t i = 0; i < mk.size(); i++) {
        std::string v;
        st.metadata.at(i, &v);
        std::fputs(i ? ",{\"key\":" : "{\"key\":", stdout);
        ta_str(stdout, mk[i].data(), mk[i].size());
        std::fputs(",\"type\":\"string\",\"value\":", stdout);
        ta_str(stdout, v.data(), v.size());
        std::fputc('}', stdout);
    }
    std::fputs("]}}\n", stdout);
    ta_exit(TA_ACCEPT);
}
