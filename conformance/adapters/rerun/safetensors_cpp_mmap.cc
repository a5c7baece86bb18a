/*
 * rerun/safetensors_cpp_mmap.cc FILE: second adapter of the safetensors-cpp
 * column, syoyo/safetensors-cpp safetensors.hh at the commit of the source
 * folder given to rerun/build.sh (the same as the column's).  Entry point:
 * safetensors::mmap_from_file (the file mapped; the first adapter,
 * ../c/safetensors_cpp_adapter.cc, uses load_from_file), then
 * validate_data_offsets.  Content: tensors (name, dtype, shape, offsets) and __metadata__,
 * read by name through tensors.at(key).  Exit 0 / 1 / 77.
 */
#define SAFETENSORS_CPP_IMPLEMENTATION
#include "safetensors.hh"

#include "jsonout.h"

#ifndef TFS_READER_COMMIT
#define TFS_READER_COMMIT "unknown commit"
#endif

int main(int argc, char **argv) {
    const char *reader = "safetensors.hh mmap_from_file " TFS_READER_COMMIT;
    if (argc != 2) return std::fputs("usage: safetensors-cpp-mmap FILE\n", stderr), 2;
    std::string path = argv[1], warn, err;
    if (path.size() < 12 || path.compare(path.size() - 12, 12, ".safetensors") != 0) return 77;
    safetensors::safetensors_t st;
    if (!safetensors::mmap_from_file(path, &st, &warn, &err)) return jo_reject(reader, err.c_str());
    if (!safetensors::validate_data_offsets(st, err)) return jo_reject(reader, err.c_str());
    std::fputs("{\"reader\":", stdout);
    jo_str(reader, std::strlen(reader));
    std::fputs(",\"content\":{\"format\":\"safetensors\",\"tensors\":[", stdout);
    const std::vector<std::string> &names = st.tensors.keys();
    for (size_t i = 0; i < names.size(); i++) {
        safetensors::tensor_t t;
        st.tensors.at(i, &t);
        std::printf("%s{\"name\":", i ? "," : "");
        jo_str(names[i].data(), names[i].size());
        std::printf(",\"type\":\"%s\",\"shape\":[", safetensors::get_dtype_str(t.dtype).c_str());
        for (size_t d = 0; d < t.shape.size(); d++) std::printf(d ? ",%zu" : "%zu", t.shape[d]);
        std::printf("],\"offsets\":[%zu,%zu]}", t.data_offsets[0], t.data_offsets[1]);
    }
    std::fputs("],\"kv\":[", stdout);
    const std::vector<std::string> &mk = st.metadata.keys();
    for (size_t i = 0; i < mk.size(); i++) {
        std::string v;
        st.metadata.at(i, &v);
        std::printf("%s{\"key\":", i ? "," : "");
        jo_str(mk[i].data(), mk[i].size());
        std::fputs(",\"value\":", stdout);
        jo_str(v.data(), v.size());
        std::putchar('}');
    }
    std::fputs("]}}\n", stdout);
    std::fflush(stdout);
    return 0;
}
