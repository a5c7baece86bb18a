/* writes.h: steps the unit tests of the writer (tfs/write.h) and of lint
 * share:
 *  - tfs_test_write_flat: write a model, then take the file as one buffer;
 *  - tfs_test_put_model: write a model as a file of a folder;
 *  - tfs_test_assert_shifted: the same file after bytes already in the
 *    buffer (offsets relative to the file's start);
 *  - tfs_test_assert_refused: a writer call refused before it appends.
 * cmocka assertions: include after <cmocka.h>. */
#ifndef TFS_TEST_WRITES_H
#define TFS_TEST_WRITES_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/write.h"

/* The largest file tfs_test_write_flat hands out (tfs_wbuf_flatten's
 * max_bytes): 1 MiB, far above what the unit tests write. */
#define TFS_TEST_FLAT_MAX (1u << 20)

/* Appends the file of `gg` or of `st` (exactly one of them non-NULL; it is
 * written with tfs_gg_write / tfs_st_write) to w, after whatever w already
 * holds, and returns all of w as one malloc'd buffer (tfs_wbuf_flatten with
 * TFS_TEST_FLAT_MAX), *n its length; both calls must return TFS_OK.  w is
 * kept for the caller's field look-ups (the caller frees it); w NULL: a
 * buffer of its own, freed before the return.  The caller frees the
 * returned bytes. */
uint8_t *tfs_test_write_flat(tfs_wbuf *w, const tfs_gg_model *gg, const tfs_st_model *st, size_t *n);
#ifndef TFS_NO_POSIX /* tfs_wbuf_write_file */
/* Writes the file of `gg` or of `st` (exactly one of them non-NULL:
 * tfs_gg_write / tfs_st_write, then tfs_wbuf_write_file; each must return
 * TFS_OK) as dir/name, replacing any file of that name.  When path is not
 * NULL the file's path is left there (cap bytes; a path that does not fit
 * fails the test). */
void tfs_test_put_model(const char *dir, const char *name, const tfs_gg_model *gg, const tfs_st_model *st, char *path,
                        size_t cap);
#endif
/* Offsets are relative to where the file starts: the same model (gg or st,
 * as above) written into w after 3 bytes already there ("xyz") is the n
 * bytes `plain` (the file written alone), 3 bytes later.  w holds it on the
 * return, for the caller's field look-ups (the caller frees it). */
void tfs_test_assert_shifted(tfs_wbuf *w, const tfs_gg_model *gg, const tfs_st_model *st, const uint8_t *plain,
                             size_t n);

/* The call refused: TFS_EARG returned and kept in w, nothing appended (no
 * byte, no field); w freed.  A macro: a failure names the caller's line. */
#define tfs_test_assert_refused(w, call)      \
    do {                                      \
        assert_int_equal((call), TFS_EARG);   \
        assert_int_equal((w)->err, TFS_EARG); \
        assert_int_equal((w)->size, 0);       \
        assert_int_equal((w)->n_fields, 0);   \
        tfs_wbuf_free(w);                     \
    } while (0)

#endif
