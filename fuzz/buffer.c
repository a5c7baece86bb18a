/* buffer.c: fuzz target over the buffer API (tfs_parse_buffer), one format.
 * Each input is parsed in the strict, default and header-only profiles; the
 * default profile's view is read through the accessors; an invalid input is
 * parsed again with TFS_PARTIAL (same verdict, a consistent partial view);
 * format detection by magic must agree with the forced format. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    tfs_error es, ed, eh;
    tfs_header *h = NULL;
    tfs_status ss = tfs_fuzz_parse_buffer(&in, TFS_STRICT, NULL, &es);
    tfs_status sd = tfs_fuzz_parse_buffer(&in, 0, &h, &ed);
    tfs_status sh = tfs_fuzz_parse_buffer(&in, TFS_HEADER_ONLY, NULL, &eh);
    tfs_fuzz_check_profiles(&in, ss, sd, &ed, sh, &eh);
    if (h) tfs_fuzz_read_values(h, 0, 8);
    tfs_header_free(h);

    if (sd == TFS_INVALID) {
        tfs_error ep;
        tfs_header *p = NULL;
        tfs_status sp = tfs_fuzz_parse_buffer(&in, TFS_PARTIAL, &p, &ep);
        tfs_fuzz_same_error("default vs default+partial", sd, &ed, sp, &ep);
        tfs_header_free(p);
    }
    /* detection by magic (no path): GGUF iff "GGUF" */
    if (tfs_detect_format(data, size, NULL) == in.format) {
        tfs_error eu;
        tfs_status su = tfs_parse_buffer(data, size, TFS_FORMAT_UNKNOWN, 0, NULL, &eu);
        tfs_fuzz_same_error("forced format vs detected", sd, &ed, su, &eu);
    }
    return 0;
}
