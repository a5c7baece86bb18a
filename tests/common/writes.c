/* writes.c: see writes.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

#ifndef TFS_NO_POSIX
void tfs_test_put_model(const char *dir, const char *name, const tfs_gg_model *gg, const tfs_st_model *st, char *path,
                        size_t cap) {
    assert_true((gg == NULL) != (st == NULL));
    char own[1024];
    if (!path) {
        path = own;
        cap = sizeof own;
    }
    int n = snprintf(path, cap, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < cap);
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(gg ? tfs_gg_write(gg, &w) : tfs_st_write(st, &w), TFS_OK);
    assert_int_equal(tfs_wbuf_write_file(&w, path, NULL), TFS_OK);
    tfs_wbuf_free(&w);
}
#endif

void tfs_test_assert_shifted(tfs_wbuf *w, const tfs_gg_model *gg, const tfs_st_model *st, const uint8_t *plain,
                             size_t n) {
    assert_int_equal(tfs_wbuf_bytes(w, "xyz", 3), TFS_OK);
    size_t n_shifted;
    uint8_t *shifted = tfs_test_write_flat(w, gg, st, &n_shifted);
    assert_int_equal(n_shifted, 3u + n);
    assert_memory_equal(shifted + 3, plain, n);
    free(shifted);
}
