/* placeholder until the gguf parser lands */
#include "internal.h"
tfs_status tfs_gg_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err) {
    (void)src; (void)flags; (void)out;
    return tfs_fail_status(err, TFS_EARG, 0);
}
