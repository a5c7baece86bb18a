/* files.h: the unit tests' one way to put bytes in a file of their
 * temporary folder (cmocka assertions: include after <cmocka.h>). */
#ifndef TFS_TEST_FILES_H
#define TFS_TEST_FILES_H

#include <stddef.h>

/* Writes the len bytes at data (NULL when len is 0) as dir/name, replacing
 * any file of that name; every step is asserted (fopen, fwrite of all len
 * bytes, fclose), so a failure names this helper's caller's test.  When
 * path is not NULL the file's path is left there (cap bytes; a path that
 * does not fit fails the test). */
void tfs_test_put_file(const char *dir, const char *name, const void *data, size_t len, char *path, size_t cap);

#endif
