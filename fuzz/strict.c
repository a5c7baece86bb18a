/* strict.c: fuzz target for the strict profile (TFS_STRICT), one format.
 * Every input is parsed strict + partial (an invalid one gives a consistent
 * partial view); an accepted one has every value read through the
 * accessors (up to 64 elements of each array).  Variants (fuzz.h):
 *   0  default profile: strict OK => default OK, and the strict view equals
 *      the default view field by field (strict only adds rules)
 *   1  strict + header-only: strict OK => strict + header-only OK
 *   2  header-only vs strict + header-only: the latter OK => the former OK */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    tfs_error es;
    tfs_header *hs = NULL;
    tfs_status ss = tfs_fuzz_parse_buffer(&in, TFS_STRICT | TFS_PARTIAL, &hs, &es);
    if (ss == TFS_OK) tfs_fuzz_read_values(hs, 0, 64);
    for (unsigned v = tfs_fuzz_first(3, data, size); v < tfs_fuzz_end(3, data, size); v++) {
        tfs_error e, e2;
        tfs_header *h = NULL;
        tfs_status s, s2;
        switch (v) {
        case 0:
            s = tfs_fuzz_parse_buffer(&in, 0, &h, &e);
            TFS_FUZZ_ASSERT(ss != TFS_OK || s == TFS_OK, "strict accepts, default rejects (%s)", tfs_rule_id(e.rule));
            if (ss == TFS_OK) tfs_fuzz_same_view("strict vs default view", hs, h, 1, 64);
            tfs_header_free(h);
            break;
        case 1:
            s = tfs_fuzz_parse_buffer(&in, TFS_STRICT | TFS_HEADER_ONLY, NULL, &e);
            TFS_FUZZ_ASSERT(ss != TFS_OK || s == TFS_OK, "strict accepts, strict+header-only rejects (%s)",
                            tfs_rule_id(e.rule));
            break;
        default:
            s = tfs_fuzz_parse_buffer(&in, TFS_STRICT | TFS_HEADER_ONLY, NULL, &e);
            s2 = tfs_fuzz_parse_buffer(&in, TFS_HEADER_ONLY, NULL, &e2);
            TFS_FUZZ_ASSERT(s != TFS_OK || s2 == TFS_OK, "strict+header-only accepts, header-only rejects (%s)",
                            tfs_rule_id(e2.rule));
            break;
        }
    }
    tfs_header_free(hs);
    return 0;
}
