/* files.c: tfs_test_put_file (files.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "common/files.h"

void tfs_test_put_file(const char *dir, const char *name, const void *data, size_t len, char *path, size_t cap) {
    char own[1024];
    if (!path) {
        path = own;
        cap = sizeof own;
    }
    int n = snprintf(path, cap, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < cap);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len) assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}
