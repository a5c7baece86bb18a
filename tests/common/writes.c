/* write_flat.c: see writes.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "common/writes.h"

uint8_t *tfs_test_write_flat(tfs_wbuf *w, const tfs_gg_model *gg, const tfs_st_model *st, size_t *n) {
    assert_true((gg == NULL) != (st == NULL));
    tfs_wbuf own;
    tfs_wbuf *to = w ? w : &own;
    if (!w) tfs_wbuf_init(&own);
    assert_int_equal(gg ? tfs_gg_write(gg, to) : tfs_st_write(st, to), TFS_OK);
    uint8_t *p = NULL;
    assert_int_equal(tfs_wbuf_flatten(to, TFS_TEST_FLAT_MAX, &p, n), TFS_OK);
    if (!w) tfs_wbuf_free(&own);
    return p;
}

void tfs_test_assert_shifted(tfs_wbuf *w, const tfs_gg_model *gg, const tfs_st_model *st, const uint8_t *plain,
                             size_t n) {
    assert_int_equal(tfs_wbuf_bytes(w, "xyz", 3), TFS_OK);
    size_t n_shifted;
    uint8_t *shifted = tfs_test_write_flat(w, gg, st, &n_shifted);
    assert_int_equal(n_shifted, 3u + n);
    assert_memory_equal(shifted + 3, plain, n);
    free(shifted);
}
