/*
 * csafetensors_adapter.c: syoyo/safetensors-cpp's C loader (csafetensors.c)
 * as a conformance adapter.  No registry ships it: built from a source folder
 * the user passes (build_readers.sh --safetensors-cpp DIR, commit pinned in
 * docs/adapters.md) with ASan + UBSan; no third-party source is here.
 *
 *   csafetensors-adapter FILE.safetensors      (a .gguf file: exit 77)
 *
 * What its README shows a user doing: csafetensors_load_from_file (header
 * and data read into memory), then csafetensors_validate (data offsets);
 * accepted when both succeed.  Content: the tensors in its order (name,
 * dtype by csafetensors_dtype_name, shape, data offsets) and the
 * __metadata__ entries.  Default profile.
 */
#include <stdio.h>
#include <string.h>

#include "csafetensors.h"
#include "tfs_adapter.h"

int main(int argc, char **argv) {
    const char *reader = "syoyo/safetensors-cpp csafetensors.c " TFS_READER_COMMIT;
    if (argc != 2) {
        fputs("usage: csafetensors-adapter FILE.safetensors\n", stderr);
        return 2;
    }
    size_t n = strlen(argv[1]);
    if (n < 12 || strcmp(argv[1] + n - 12, ".safetensors") != 0) return TA_UNSUPPORTED;
    static csafetensors_t st;
    csafetensors_init(&st);
    csafetensors_error_t e = csafetensors_load_from_file(argv[1], &st);
    if (e != CSAFETENSORS_SUCCESS) {
        char msg[1200];
        snprintf(msg, sizeof msg, "load: error %d: %s", (int)e, csafetensors_get_error(&st));
        csafetensors_free(&st);
        ta_exit(ta_reject(reader, msg));
    }
    if (!csafetensors_validate(&st)) {
        char msg[1200];
        snprintf(msg, sizeof msg, "validate: %s", csafetensors_get_error(&st));
        csafetensors_free(&st);
        ta_exit(ta_reject(reader, msg));
    }
    fputs("{\"reader\":", stdout);
    ta_cstr(stdout, reader);
    fputs(",\"content\":{\"format\":\"safetensors\",\"version\":null,\"alignment\":null,\"tensors\":[", stdout);
    for (size_t i = 0; i < st.n_tensors; i++) {
        const csafetensors_tensor_t *t = &st.tensors[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
        ta_cstr(stdout, t->name);
        fputs(",\"type\":", stdout);
        ta_cstr(stdout, csafetensors_dtype_name(t->dtype));
        fputs(",\"shape\":[", stdout);
        for (size_t d = 0; d < t->n_dims; d++) printf("%s%zu", d ? "," : "", t->shape[d]);
        printf("],\"offsets\":[%zu,%zu]}", t->data_offset_begin, t->data_offset_end);
    }
    fputs("],\"kv\":[", stdout);
    for (size_t i = 0; i < st.n_metadata; i++) {
        fputs(i ? ",{\"key\":" : "{\"key\":", stdout);
        ta_cstr(stdout, st.metadata[i].key);
        fputs(",\"type\":\"string\",\"value\":", stdout);
        ta_cstr(stdout, st.metadata[i].value);
        fputc('}', stdout);
    }
    fputs("]}}\n", stdout);
    csafetensors_free(&st);
    ta_exit(TA_ACCEPT);
}
