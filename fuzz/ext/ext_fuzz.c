/* ext_fuzz.c: LLVMFuzzerTestOneInput for a third-party reader's target
 * (ext_fuzz.h): one variant per input, picked by its last byte. */
#include "ext_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready) {
        tfs_ext_setup();
        ready = 1;
    }
    unsigned v = size ? data[size - 1] % tfs_ext_variants() : 0;
    tfs_ext_run(data, size, v);
    return 0;
}
