/* st_model.c: see st_model.h. */
#include "common/st_model.h"

tfs_st_model tfs_test_st_model(const tfs_test_st_tensor *ts, size_t n, const char *const *kv, tfs_st_wentry *e,
                               tfs_st_wmeta *meta) {
    for (size_t i = 0; i < n; i++)
        e[i] = (tfs_st_wentry){
            .name = tfs_wstr_c(ts[i].name), .dtype = ts[i].dtype, .n_dims = ts[i].nd, .shape = ts[i].shape};
    size_t nm = 0;
    for (; kv && kv[2 * nm]; nm++)
        meta[nm] = (tfs_st_wmeta){.key = tfs_wstr_c(kv[2 * nm]), .value = tfs_wstr_c(kv[2 * nm + 1])};
    return (tfs_st_model){.n_entries = n,
                          .entries = e,
                          .metadata = nm ? TFS_STW_META_OBJECT : TFS_STW_META_ABSENT,
                          .n_meta = nm,
                          .meta = meta};
}
