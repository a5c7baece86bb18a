/* test_lint_io.c: the read loops of lint.c (tfs__lint_slurp, tfs__lint_st_head)
 * through a pread that does what POSIX allows and a regular file on a local
 * disk rarely does (-Wl,--wrap=pread64; libtfs is built with
 * _FILE_OFFSET_BITS=64, so its calls are to pread64): a short read, a call
 * interrupted by a signal (-1, EINTR: to be retried), and the end of the file
 * coming early (0 bytes: the file shrank since fstat; errno left as the last
 * failed call set it, here EINTR).  Every byte present is read, in its place;
 * an early end gives what was read, never a loop without end. */
#include <errno.h>
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

#include "common/files.h"
#include "lint_internal.h"

/* g_max: at most this many bytes per call (0: no limit); calls number g_eintr_at ..
 * g_eintr_at + g_eintr - 1 (0 = the first) fail with EINTR; g_end: the file
 * seems to end there (0: at its real end) */
static size_t g_max, g_end, g_calls, g_eintr_at;
static int g_eintr, g_whole_first; /* g_whole_first: call 0 is not cut short (st_head's size field) */

ssize_t __real_pread64(int fd, void *buf, size_t len, int64_t off);
ssize_t __wrap_pread64(int fd, void *buf, size_t len, int64_t off);
static const char *g_grow; /* a file that gets 100 bytes longer at the first call */

ssize_t __wrap_pread64(int fd, void *buf, size_t len, int64_t off) {
    size_t call = g_calls++;
    if (g_grow && call == 0) {
        FILE *f = fopen(g_grow, "ab");
        if (!f ||
            fwrite("0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123"
                   "456789",
                   1, 100, f) != 100 ||
            fclose(f) != 0)
            abort();
    }
    if (call >= g_eintr_at && call < g_eintr_at + (size_t)g_eintr) {
        errno = EINTR;
        return -1;
    }
    if (g_end && (size_t)off >= g_end) return 0; /* errno untouched, as a real pread at the end */
    if (g_end && len > g_end - (size_t)off) len = g_end - (size_t)off;
    if (g_max && len > g_max && !(call == 0 && g_whole_first)) len = g_max;
    return __real_pread64(fd, buf, len, off);
}

static void mode(size_t max, size_t eintr_at, int eintr, size_t end) {
    g_max = max;
    g_eintr_at = eintr_at;
    g_eintr = eintr;
    g_end = end;
    g_calls = 0;
}

static char g_dir[] = "/tmp/tfs_lint_io_XXXXXX";

static const size_t maxes[] = {0, 1, 3, 7};

/* a 40-byte text: read whole through short reads (1, 3, 7 bytes per call) and 0, 1 or 2 interrupted calls
 * (the first, or after two reads); the end coming after 10 bytes, an interrupted call before: those 10 */
static void test_slurp(void **state) {
    (void)state;
    static const char text[] = "{\"quantization\": {\"bits\": 4}, \"x\": 12}";
    const size_t n = sizeof text - 1u;
    char path[128], *out = NULL;
    size_t len = 0;
    tfs_test_put_file(g_dir, "config.json", text, n, path, sizeof path);
    for (size_t m = 0; m < 4; m++)
        for (size_t at = 0; at <= 2; at += 2)
            for (int eintr = 0; eintr <= 2; eintr++) {
                mode(maxes[m], at, eintr, 0);
                assert_int_equal(tfs__lint_slurp(path, 1000, &out, &len, NULL), TFS_OK);
                assert_int_equal(len, n);
                assert_memory_equal(out, text, n + 1u); /* and the NUL after it */
                free(out);
            }
    for (size_t m = 0; m < 4; m++) {
        mode(maxes[m], 0, 1, 10);
        assert_int_equal(tfs__lint_slurp(path, 1000, &out, &len, NULL), TFS_OK);
        assert_int_equal(len, 10);
        assert_memory_equal(out, text, 10);
        assert_int_equal(out[10], '\0');
        free(out);
    }
    /* the file grows while read (100 bytes appended at the first call): at most max = its size at open, the n
     * bytes it had */
    for (size_t m = 0; m < 4; m++) {
        tfs_test_put_file(g_dir, "config.json", text, n, path, sizeof path);
        mode(maxes[m], 0, 0, 0);
        g_grow = path;
        tfs_status st = tfs__lint_slurp(path, n, &out, &len, NULL);
        g_grow = NULL;
        assert_int_equal(st, TFS_OK);
        assert_int_equal(len, n);
        assert_memory_equal(out, text, n + 1u);
        free(out);
    }
    mode(0, 0, 0, 0);
}

/* the first 8 + N bytes of a safetensors file (N = 16, 4 bytes after them) through short reads and interrupted
 * calls after the size field (its own read is call 0, read whole); the end coming after 13 bytes: those 13 */
static void test_st_head(void **state) {
    (void)state;
    static const char file[] = "\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":\"bcdefgh\"}  tail";
    char path[128];
    tfs_test_put_file(g_dir, "head.safetensors", file, sizeof file - 1u, path, sizeof path);
    g_whole_first = 1;
    uint8_t *h = NULL;
    size_t len = 0;
    for (size_t m = 0; m < 4; m++)
        for (size_t at = 1; at <= 3; at += 2)
            for (int eintr = 0; eintr <= 2; eintr++) {
                mode(maxes[m], at, eintr, 0);
                assert_int_equal(tfs__lint_st_head(path, &h, &len), TFS_OK);
                assert_int_equal(len, 24);
                assert_memory_equal(h, file, 24);
                free(h);
            }
    for (size_t m = 0; m < 4; m++) {
        mode(maxes[m], 1, 1, 13);
        assert_int_equal(tfs__lint_st_head(path, &h, &len), TFS_OK);
        assert_int_equal(len, 13);
        assert_memory_equal(h, file, 13);
        free(h);
    }
    mode(0, 0, 0, 0);
    g_whole_first = 0;
}

int main(void) {
    if (!mkdtemp(g_dir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slurp),
        cmocka_unit_test(test_st_head),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    if (system(cmd) != 0) rc = 1;
    return rc;
}
