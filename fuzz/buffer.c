/* buffer.c: fuzz target over the buffer API (tfs_parse_buffer), one format.
 * Every input is parsed in the default profile and its view read through the
 * accessors; then one variant (fuzz.h; the replay runs all):
 *   0  strict profile: strict OK => default OK
 *   1  header-only profile: default OK => header-only OK (safetensors: the
 *      same result, TFS_HEADER_ONLY is ignored)
 *   2  TFS_PARTIAL: the same verdict, a consistent partial view
 *   3  format detection by magic agrees with the forced format */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    tfs_error ed;
    tfs_header *h = NULL;
    tfs_status sd = tfs_fuzz_parse_buffer(&in, 0, &h, &ed);
    if (h) tfs_fuzz_read_values(h, 0, 8);
    tfs_header_free(h);
    for (unsigned v = tfs_fuzz_first(4, data, size); v < tfs_fuzz_end(4, data, size); v++) {
        tfs_error e;
        tfs_status s;
        switch (v) {
        case 0:
            s = tfs_fuzz_parse_buffer(&in, TFS_STRICT, NULL, &e);
            tfs_fuzz_check_profiles(&in, s, sd, &ed, sd, &ed);
            break;
        case 1:
            s = tfs_fuzz_parse_buffer(&in, TFS_HEADER_ONLY, NULL, &e);
            tfs_fuzz_check_profiles(&in, sd, sd, &ed, s, &e);
            break;
        case 2:
            if (sd == TFS_INVALID) {
                tfs_header *p = NULL;
                s = tfs_fuzz_parse_buffer(&in, TFS_PARTIAL, &p, &e);
                tfs_fuzz_same_error("default vs default+partial", sd, &ed, s, &e);
                tfs_header_free(p);
            }
            break;
        default:
            /* detection by magic (no path): GGUF iff "GGUF" */
            if (tfs_detect_format(data, size, NULL) == in.format) {
                s = tfs_parse_buffer(data, size, TFS_FORMAT_UNKNOWN, 0, NULL, &e);
                tfs_fuzz_same_error("forced format vs detected", sd, &ed, s, &e);
            }
            break;
        }
    }
    return 0;
}
