/* test_posix_file.c: parsers/posix_file.c's reader (pread on the caller's
 * descriptor) where its errors come from: a descriptor that cannot be read
 * reports pread's errno (tfs.h: sys_errno is the errno of TFS_EIO), and a
 * pread interrupted by a signal (EINTR) is retried, not reported.  pread is
 * wrapped (-Wl,--wrap=pread64, _FILE_OFFSET_BITS=64 in every build) so the
 * test decides which calls are interrupted. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/writes.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

static size_t g_calls, g_eintr; /* the first g_eintr calls fail with EINTR */

ssize_t __real_pread64(int fd, void *buf, size_t len, int64_t off);
ssize_t __wrap_pread64(int fd, void *buf, size_t len, int64_t off);
ssize_t __wrap_pread64(int fd, void *buf, size_t len, int64_t off) {
    if (g_calls++ < g_eintr) {
        errno = EINTR;
        return -1;
    }
    return __real_pread64(fd, buf, len, off);
}

/* h is m.gguf's header: "k" = 7, and "a"'s element 2 = 7 read again through the header's descriptor */
static void assert_values(const tfs_header *h) {
    uint32_t v = 0;
    assert_int_equal(tfs_kv_get_u32(h, tfs_find_kv(h, "k"), 0, &v), TFS_OK);
    assert_int_equal(v, 7);
    assert_int_equal(tfs_kv_get_u32(h, tfs_find_kv(h, "a"), 2, &v), TFS_OK);
    assert_int_equal(v, 7);
}

static char g_dir[] = "/tmp/tfs_posix_file_XXXXXX";
static char g_path[128];

/* a valid GGUF (v3, a u32 KV "k" = 7 and a u32 array "a" = 5, 6, 7, no tensors) from the writer, as g_dir/m.gguf */
static int setup(void **state) {
    (void)state;
    if (!mkdtemp(g_dir)) return -1;
    static const uint32_t arr[3] = {5, 6, 7};
    tfs_gg_wkv kv[2] = {{tfs_wstr_c("k"), tfs_gg_wval_scalar(TFS_GG_U32, 7)},
                        {tfs_wstr_c("a"), tfs_gg_wval_array(TFS_GG_U32, 3, arr, sizeof arr)}};
    tfs_gg_model m = {.version = 3, .kv = kv, .n_kv = 2};
    tfs_test_put_model(g_dir, "m.gguf", &m, NULL, g_path, sizeof g_path); /* a failure fails the group setup */
    return 0;
}

static int teardown(void **state) {
    (void)state;
    unlink(g_path);
    return rmdir(g_dir);
}

/* a descriptor open for writing only: fstat says a regular file, every pread fails with EBADF, which the parse
 * reports as TFS_EIO with that errno (not an overrun or a short file) */
static void test_unreadable_descriptor(void **state) {
    (void)state;
    int fd = open(g_path, O_WRONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    g_calls = 0;
    g_eintr = 0;
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_fd(fd, g_path, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_EIO);
    assert_null(h);
    assert_int_equal(e.sys_errno, EBADF);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_int_equal(g_calls, 1); /* the first read fails: nothing is retried */
    assert_int_equal(close(fd), 0);
}

/* interrupted reads are retried: 1, 2 or 5 EINTR in a row, then the same header as without */
static void test_interrupted_reads_retried(void **state) {
    (void)state;
    static const size_t n[] = {0, 1, 2, 5};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++) {
        g_calls = 0;
        g_eintr = n[i];
        tfs_header *h = NULL;
        tfs_error e;
        assert_int_equal(tfs_parse_file(g_path, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
        assert_true(g_calls > n[i]);
        assert_int_equal(h->format, TFS_FORMAT_GGUF);
        assert_int_equal(h->n_kv, 2);
        assert_values(h);
        tfs_header_free(h);
    }
    g_eintr = 0;
}

/* the header's own descriptor is closed by tfs_header_free, whatever its number: with standard input closed the
 * duplicate tfs_parse_fd makes is descriptor 0 */
static void test_descriptor_zero_closed(void **state) {
    (void)state;
    int saved = dup(0);
    assert_true(saved >= 0);
    assert_int_equal(close(0), 0);
    int fd = open(g_path, O_RDONLY | O_CLOEXEC);
    assert_int_equal(fd, 0); /* the lowest free descriptor: move it up, so 0 is free again */
    int hi = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    assert_true(hi >= 10);
    assert_int_equal(close(fd), 0);
    g_calls = 0;
    g_eintr = 0;
    tfs_header *h = NULL;
    assert_int_equal(tfs_parse_fd(hi, g_path, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    assert_int_equal(close(hi), 0);
    assert_true(fcntl(0, F_GETFD) >= 0); /* the header's duplicate */
    assert_values(h);                    /* read through descriptor 0 */
    tfs_header_free(h);
    assert_int_equal(fcntl(0, F_GETFD), -1); /* closed with the header */
    assert_int_equal(errno, EBADF);
    /* descriptor 0 as the caller's descriptor, and as the one tfs_parse_file opens: a descriptor like any other */
    fd = open(g_path, O_RDONLY | O_CLOEXEC);
    assert_int_equal(fd, 0);
    assert_int_equal(tfs_parse_fd(0, g_path, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    assert_values(h);
    tfs_header_free(h);
    assert_int_equal(close(0), 0);
    assert_int_equal(tfs_parse_file(g_path, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    assert_values(h);
    tfs_header_free(h);
    assert_int_equal(dup2(saved, 0), 0);
    assert_int_equal(close(saved), 0);
}

/* bad arguments are TFS_EARG with sys_errno 0; a descriptor that is not open fails its fstat: TFS_EIO, EBADF (tfs.h:
 * sys_errno is the errno of TFS_EIO, else 0) */
static void test_bad_descriptors(void **state) {
    (void)state;
    tfs_error e;
    e.sys_errno = 99;
    assert_int_equal(tfs_parse_fd(-1, NULL, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EARG);
    assert_int_equal(e.sys_errno, 0);
    e.sys_errno = 99;
    assert_int_equal(tfs_parse_file(NULL, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EARG);
    assert_int_equal(e.sys_errno, 0);
    int unused = dup(1);
    assert_true(unused >= 0);
    assert_int_equal(close(unused), 0); /* a number no descriptor has now */
    tfs_header *h = (tfs_header *)&e;
    assert_int_equal(tfs_parse_fd(unused, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_EIO);
    assert_null(h);
    assert_int_equal(e.sys_errno, EBADF);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unreadable_descriptor),
        cmocka_unit_test(test_interrupted_reads_retried),
        cmocka_unit_test(test_descriptor_zero_closed),
        cmocka_unit_test(test_bad_descriptors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
