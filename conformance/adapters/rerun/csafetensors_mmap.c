/*
 * rerun/csafetensors_mmap.c FILE: second adapter of the csafetensors column,
 * syoyo/safetensors-cpp csafetensors.c at the commit of the source folder
 * given to rerun/build.sh (the same as the column's).  Entry point:
 * csafetensors_mmap_from_file (the file mapped, not read into memory), then
 * csafetensors_validate, then each tensor through csafetensors_get_tensor_by_index;
 * the first adapter (../c/csafetensors_adapter.c) uses
 * csafetensors_load_from_file.  Content: tensors (name, dtype, shape,
 * offsets) and __metadata__ (csafetensors_get_metadata).  Exit 0 accepted, 1 rejected, 77 not .safetensors.
 */
#include <stdio.h>
#include <string.h>

#include "csafetensors.h"
#include "jsonout.h"

#ifndef TFS_READER_COMMIT
#define TFS_READER_COMMIT "unknown commit"
#endif

int main(int argc, char **argv) {
    const char *reader = "csafetensors.c mmap_from_file " TFS_READER_COMMIT;
    if (argc != 2) return fputs("usage: csafetensors-mmap FILE\n", stderr), 2;
    size_t n = strlen(argv[1]);
    if (n < 12 || strcmp(argv[1] + n - 12, ".safetensors") != 0) return 77;
    static csafetensors_t st;
    csafetensors_init(&st);
    if (csafetensors_mmap_from_file(argv[1], &st) != CSAFETENSORS_SUCCESS || !csafetensors_validate(&st)) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", csafetensors_get_error(&st));
        csafetensors_free(&st);
        return jo_reject(reader, msg);
    }
    fputs("{\"reader\":", stdout);
    jo_str(reader, strlen(reader));
    fputs(",\"content\":{\"format\":\"safetensors\",\"tensors\":[", stdout);
    for (size_t i = 0; i < st.n_tensors; i++) {
        const csafetensors_tensor_t *t = csafetensors_get_tensor_by_index(&st, i);
        printf("%s{\"name\":", i ? "," : "");
        jo_str(t->name, strlen(t->name));
        printf(",\"type\":\"%s\",\"shape\":[", csafetensors_dtype_name(t->dtype));
        for (size_t d = 0; d < t->n_dims; d++) printf(d ? ",%zu" : "%zu", t->shape[d]);
        printf("],\"offsets\":[%zu,%zu]}", t->data_offset_begin, t->data_offset_end);
    }
    fputs("],\"kv\":[", stdout);
    for (size_t i = 0; i < st.n_metadata; i++) { /* __metadata__, looked up by key */
        const char *v = csafetensors_get_metadata(&st, st.metadata[i].key);
        printf("%s{\"key\":", i ? "," : "");
        jo_str(st.metadata[i].key, strlen(st.metadata[i].key));
        fputs(",\"value\":", stdout);
        jo_str(v ? v : "", v ? strlen(v) : 0);
        putchar('}');
    }
    fputs("]}}\n", stdout);
    fflush(stdout);
    csafetensors_free(&st);
    return 0;
}
