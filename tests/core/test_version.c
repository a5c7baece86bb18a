/* test_version.c: the version macros (generated tfs/version.h) and
 * tfs_version() agree with CMake's project(VERSION), passed by
 * tests/CMakeLists.txt as TFS_CMAKE_PROJECT_VERSION. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/tfs.h"
#include "tfs/version.h"

#if TFS_VERSION_NUMBER != TFS_VERSION_MAJOR * 10000 + TFS_VERSION_MINOR * 100 + TFS_VERSION_PATCH
#error "TFS_VERSION_NUMBER"
#endif

static void test_macros_match_cmake(void **state) {
    (void)state;
    char s[64];
    snprintf(s, sizeof s, "%d.%d.%d", TFS_VERSION_MAJOR, TFS_VERSION_MINOR, TFS_VERSION_PATCH);
    assert_string_equal(s, TFS_CMAKE_PROJECT_VERSION);
    assert_string_equal(TFS_VERSION_STRING, TFS_CMAKE_PROJECT_VERSION);
    assert_true(TFS_VERSION_MINOR < 100 && TFS_VERSION_PATCH < 100);
}

static void test_runtime_version(void **state) {
    (void)state;
    assert_non_null(tfs_version());
    assert_string_equal(tfs_version(), TFS_VERSION_STRING);
    assert_ptr_equal(tfs_version(), tfs_version()); /* static storage */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros_match_cmake),
        cmocka_unit_test(test_runtime_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
