/* strict.c: fuzz target for the strict profile (TFS_STRICT), one format.
 * The strict view must equal the default view field by field (strict only
 * adds rules), strict OK implies default OK implies header-only OK, and the
 * accessors read every value of an accepted file (up to 64 elements of
 * each array).  Also strict + header-only, and strict + partial. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    tfs_error es, ed, eh, esh;
    tfs_header *hs = NULL, *hd = NULL;
    tfs_status ss = tfs_fuzz_parse_buffer(&in, TFS_STRICT | TFS_PARTIAL, &hs, &es);
    tfs_status sd = tfs_fuzz_parse_buffer(&in, 0, &hd, &ed);
    tfs_status sh = tfs_fuzz_parse_buffer(&in, TFS_HEADER_ONLY, NULL, &eh);
    tfs_status ssh = tfs_fuzz_parse_buffer(&in, TFS_STRICT | TFS_HEADER_ONLY, NULL, &esh);
    tfs_fuzz_check_profiles(&in, ss, sd, &ed, sh, &eh);
    TFS_FUZZ_ASSERT(ssh != TFS_OK || sh == TFS_OK, "strict+header-only accepts, header-only rejects (%s)",
                    tfs_rule_id(eh.rule));
    TFS_FUZZ_ASSERT(ss != TFS_OK || ssh == TFS_OK, "strict accepts, strict+header-only rejects (%s)",
                    tfs_rule_id(esh.rule));
    if (ss == TFS_OK) {
        tfs_fuzz_same_view("strict vs default view", hs, hd, 1, 64);
        tfs_fuzz_read_values(hs, 0, 64);
    }
    tfs_header_free(hs);
    tfs_header_free(hd);
    return 0;
}
