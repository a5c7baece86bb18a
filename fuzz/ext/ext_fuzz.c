/* ext_fuzz.c: LLVMFuzzerTestOneInput for a third-party reader's target
 * (ext_fuzz.h): one variant per input, picked by its last byte. */
#include "ext_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready) {
        tfs_ext_setup();
        ready = 1;
    }
    tfs_ext_run(data, size, tfs_ext_engine_variant(data, size));
    return 0;
}
