/* test_src.c: the byte source (parsers/core/src.c) through its internal API
 * (internal.h), against the file's bytes kept by the test and a reader that
 * counts what it is asked for.  Expectations from the contract in
 * internal.h and src.c's header comment:
 * - tfs__src_get gives bytes [off, off + n) exactly when they are inside the
 *   file, NULL past its end (a stream then knows its size), NULL with
 *   io_errno on a failed read (the reader's errno; EIO for a negative one, a
 *   reader that overruns, a file shorter than it said); a forward-only
 *   reader asked to go back: ESPIPE;
 * - the window keeps the bytes it still covers: a sequential scan reads
 *   every byte of the file once, in reads of at least TFS_WINDOW bytes;
 * - tfs__src_copy copies in window-sized pieces (the window stays at
 *   TFS_WINDOW), tfs__src_has / tfs__src_learn_size read a stream forward,
 *   tfs__src_prefix holds bytes [0, n) only before anything else was read. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "internal.h"

#include "common/nomem.h"

enum { FILE_N = 5 * TFS_WINDOW + 1234 };
static uint8_t g_file[FILE_N];

typedef struct rd {
    size_t n;      /* bytes really there */
    size_t step;   /* at most this many bytes per call (0: no limit) */
    int forward;   /* check the forward-only contract */
    uint64_t next; /* forward: where the next call must start */
    int bad;       /* a forward call did not start at next */
    size_t calls, bytes, min_len;
    uint64_t fail_at; /* a read that covers this offset fails with `err` */
    int err;
    int overrun; /* report one byte more than asked */
} rd;

static int rd_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    rd *r = ctx;
    r->calls++;
    if (len < r->min_len) r->min_len = len;
    if (r->forward && off != r->next) r->bad = 1;
    if (r->err && r->fail_at >= off && r->fail_at < off + len) return r->err;
    size_t n = off >= r->n ? 0 : r->n - (size_t)off;
    if (n > len) n = len;
    if (r->step && n > r->step) n = r->step;
    memcpy(buf, g_file + off, n);
    r->bytes += n;
    r->next = off + n;
    *got = n + (size_t)(r->overrun && n == len);
    return 0;
}

static void init_file(void) {
    for (size_t i = 0; i < FILE_N; i++) g_file[i] = (uint8_t)(i * 131u + (i >> 8));
}

/* a reader-mode source; size: the declared size (TFS_SIZE_UNKNOWN: a stream) */
static tfs_src mk(rd *r, uint64_t size, int forward) {
    r->min_len = SIZE_MAX;
    r->forward = forward;
    tfs_src s = {.rd = {.read = rd_read, .ctx = r, .size = size, .forward = forward},
                 .file_size = size,
                 .size_known = size != TFS_SIZE_UNKNOWN,
                 .forward = forward || size == TFS_SIZE_UNKNOWN};
    return s;
}

/* r reset: a reader of the first n bytes of g_file, every other knob 0 (set
 * them before the first read); the source over it as mk() makes it */
static tfs_src fresh(rd *r, size_t n, uint64_t size, int forward) {
    memset(r, 0, sizeof *r);
    r->n = n;
    return mk(r, size, forward);
}

static void expect_bytes(tfs_src *s, uint64_t off, size_t n) {
    const uint8_t *p = tfs__src_get(s, off, n);
    if (!p) fail_msg("get(%llu, %zu) failed", (unsigned long long)off, n);
    assert_memory_equal(p, g_file + off, n);
}

static void test_buffer_mode(void **state) {
    (void)state;
    tfs_src s = {.buf = g_file, .file_size = 100, .size_known = true};
    assert_ptr_equal(tfs__src_get(&s, 0, 100), g_file);
    assert_ptr_equal(tfs__src_get(&s, 99, 1), g_file + 99);
    assert_ptr_equal(tfs__src_get(&s, 100, 0), g_file + 100);
    assert_null(tfs__src_get(&s, 100, 1));
    assert_null(tfs__src_get(&s, 101, 0));
    assert_null(tfs__src_get(&s, UINT64_MAX, 2)); /* off + n wraps */
    assert_true(tfs__src_has(&s, 100));
    assert_false(tfs__src_has(&s, 101));
    assert_true(tfs__src_learn_size(&s));
    assert_ptr_equal(tfs__src_prefix(&s, 50), g_file);
    uint8_t d[40];
    assert_true(tfs__src_copy(&s, 60, 40, d));
    assert_memory_equal(d, g_file + 60, 40);
    assert_false(tfs__src_copy(&s, 61, 40, d));
    assert_false(tfs_src_failed(&s));
}

/* random access, known size: every byte read once along a scan, whatever
 * the piece size and the reader's step */
static void test_sequential_scan_reads_each_byte_once(void **state) {
    (void)state;
    static const size_t pieces[] = {1, 7, 8, 4096, TFS_WINDOW - 1, TFS_WINDOW, TFS_WINDOW + 3};
    static const size_t steps[] = {0, 1000, 4096};
    for (size_t si = 0; si < 3; si++) {
        for (size_t pi = 0; pi < sizeof pieces / sizeof pieces[0]; pi++) {
            rd r = {.n = FILE_N, .step = steps[si]};
            tfs_src s = mk(&r, FILE_N, 0);
            size_t k = pieces[pi];
            uint64_t off = 0;
            for (; off + k <= FILE_N; off += k) expect_bytes(&s, off, k);
            if (off < FILE_N) assert_null(tfs__src_get(&s, off, k)); /* the last piece passes the end */
            assert_false(tfs_src_failed(&s));
            expect_bytes(&s, off, FILE_N - off);
            assert_int_equal(r.bytes, FILE_N);
            if (!steps[si]) { /* each read asks for a window, or the rest of the file */
                size_t want = k > TFS_WINDOW ? k : TFS_WINDOW;
                assert_true(r.calls <= (FILE_N + want - 1) / want + 1);
            }
            assert_true(s.win_cap <= (k > TFS_WINDOW ? k : TFS_WINDOW));
            tfs__src_close(&s);
            assert_null(s.win);
            assert_int_equal(s.win_len, 0);
        }
    }
}

/* jumps back and forth, requests larger than the window, zero lengths */
static void test_random_access(void **state) {
    (void)state;
    rd r = {.n = FILE_N, .step = 777};
    tfs_src s = mk(&r, FILE_N, 0);
    static const struct {
        uint64_t off;
        size_t n;
    } q[] = {{100, 10},
             {TFS_WINDOW - 4, 8},
             {3 * TFS_WINDOW, 2 * TFS_WINDOW + 5},
             {5, 3 * TFS_WINDOW},
             {FILE_N - 1, 1},
             {FILE_N - TFS_WINDOW - 10, TFS_WINDOW + 10},
             {0, 1},
             {TFS_WINDOW, TFS_WINDOW},
             {TFS_WINDOW + 1, TFS_WINDOW},
             {2 * TFS_WINDOW - 1, 2}};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        expect_bytes(&s, q[i].off, q[i].n);
        assert_true(s.win_len >= q[i].n);
        assert_true(s.win_len == 0 || s.win_off + s.win_len <= FILE_N);
    }
    assert_non_null(tfs__src_get(&s, FILE_N, 0));
    assert_non_null(tfs__src_get(&s, 7, 0));
    assert_null(tfs__src_get(&s, FILE_N, 1));
    assert_null(tfs__src_get(&s, FILE_N + 1, 0));
    assert_null(tfs__src_get(&s, FILE_N - 3, 4));
    assert_null(tfs__src_get(&s, UINT64_MAX - 1, 2));
    assert_false(tfs_src_failed(&s));
    assert_true(tfs__src_has(&s, FILE_N));
    assert_false(tfs__src_has(&s, FILE_N + 1));
    tfs__src_close(&s);
}

/* a large copy goes through the window a window at a time */
static void test_copy(void **state) {
    (void)state;
    static uint8_t d[FILE_N];
    rd r = {.n = FILE_N};
    tfs_src s = mk(&r, FILE_N, 0);
    assert_true(tfs__src_copy(&s, 3, FILE_N - 3, d));
    assert_memory_equal(d, g_file + 3, FILE_N - 3);
    assert_true(s.win_cap <= TFS_WINDOW);
    assert_int_equal(r.bytes, FILE_N - 3);
    assert_true(tfs__src_copy(&s, 0, 0, d));
    memset(d, 0, sizeof d);
    assert_true(tfs__src_copy(&s, 10, TFS_WINDOW, d));
    assert_memory_equal(d, g_file + 10, TFS_WINDOW);
    assert_false(tfs__src_copy(&s, FILE_N - 2, 3, d));
    assert_false(tfs_src_failed(&s));
    tfs__src_close(&s);
}

/* a stream: forward only, size unknown until its end */
static void test_stream(void **state) {
    (void)state;
    rd r = {.n = FILE_N, .step = 5000};
    tfs_src s = mk(&r, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 0, 24);
    expect_bytes(&s, 20, 10);                   /* inside the window: no read */
    expect_bytes(&s, TFS_WINDOW - 2, 8);        /* across its end: the tail kept */
    expect_bytes(&s, 3 * TFS_WINDOW + 17, 100); /* a gap larger than the scratch: skipped */
    assert_null(tfs__src_get(&s, 10, 4));       /* before the window */
    assert_int_equal(s.io_errno, ESPIPE);
    assert_false(r.bad);
    s.io_errno = 0;
    /* past the end: NULL, then the size is known */
    assert_null(tfs__src_get(&s, FILE_N - 5, 10));
    assert_false(tfs_src_failed(&s));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, FILE_N);
    assert_false(r.bad);
    tfs__src_close(&s);

    /* a request that starts where the window starts and goes past its end:
     * the window's bytes are kept (a stream cannot read them again) */
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    r.step = 3000;
    expect_bytes(&s, 0, 24);
    expect_bytes(&s, 0, 3 * TFS_WINDOW);
    expect_bytes(&s, 3 * TFS_WINDOW - 5, 10);
    assert_false(tfs_src_failed(&s));
    assert_false(r.bad);
    tfs__src_close(&s);

    /* has: reads forward to `end`; learn_size: to the end */
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    r.step = 3000;
    expect_bytes(&s, 0, 16);
    assert_true(tfs__src_has(&s, 16));
    assert_true(tfs__src_has(&s, 2 * TFS_WINDOW + 5));
    assert_false(s.size_known);
    assert_true(r.next >= 2 * TFS_WINDOW + 5);
    assert_true(tfs__src_learn_size(&s));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, FILE_N);
    assert_true(tfs__src_has(&s, FILE_N));
    assert_false(tfs__src_has(&s, FILE_N + 1));
    assert_false(r.bad);
    assert_int_equal(r.bytes, FILE_N); /* every byte read once */
    tfs__src_close(&s);

    /* has past the end of a stream: false, size known, not a failure */
    s = fresh(&r, 1000, TFS_SIZE_UNKNOWN, 1);
    assert_false(tfs__src_has(&s, 1001));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, 1000);
    assert_false(tfs_src_failed(&s));
    tfs__src_close(&s);

    /* a stream exactly one window long, read in one piece */
    s = fresh(&r, TFS_WINDOW, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 0, TFS_WINDOW);
    assert_null(tfs__src_get(&s, TFS_WINDOW, 1));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, TFS_WINDOW);
    assert_non_null(tfs__src_get(&s, TFS_WINDOW, 0));
    assert_false(tfs_src_failed(&s));
    tfs__src_close(&s);

    /* a forward-only reader of known size */
    s = fresh(&r, FILE_N, FILE_N, 1);
    expect_bytes(&s, 5, 10);
    expect_bytes(&s, 2 * TFS_WINDOW, 10);
    assert_null(tfs__src_get(&s, 4, 1));
    assert_int_equal(s.io_errno, ESPIPE);
    assert_false(r.bad);
    tfs__src_close(&s);

    /* zero-length gets ahead of the window of a stream whose size is not
     * known yet: inside the file (its end included) non-NULL, past it NULL */
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 0, 8);
    assert_non_null(tfs__src_get(&s, 2 * TFS_WINDOW + 3, 0));
    assert_false(s.size_known);
    expect_bytes(&s, 0, 8); /* a zero-length get leaves the window where it was */
    assert_non_null(tfs__src_get(&s, FILE_N, 0));
    assert_false(tfs_src_failed(&s));
    tfs__src_close(&s);
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 0, 8);
    assert_null(tfs__src_get(&s, FILE_N + 1, 0));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, FILE_N);
    assert_false(tfs_src_failed(&s));
    assert_false(r.bad);
    tfs__src_close(&s);
}

/* failures: the reader's errno, EIO for a negative one or an overrun, a
 * file shorter than it said */
static void test_failures(void **state) {
    (void)state;
    rd r = {.n = FILE_N, .err = EACCES, .fail_at = 2 * TFS_WINDOW};
    tfs_src s = mk(&r, FILE_N, 0);
    expect_bytes(&s, 0, 100);
    assert_null(tfs__src_get(&s, 2 * TFS_WINDOW - 10, 20));
    assert_int_equal(s.io_errno, EACCES);
    assert_true(tfs_src_failed(&s));
    tfs__src_close(&s);

    s = fresh(&r, FILE_N, FILE_N, 0);
    r.err = -3;
    assert_null(tfs__src_get(&s, 0, 1));
    assert_int_equal(s.io_errno, EIO);
    tfs__src_close(&s);

    s = fresh(&r, FILE_N, FILE_N, 0);
    r.overrun = 1;
    r.step = 100;
    assert_null(tfs__src_get(&s, FILE_N - 100, 100)); /* the last read is given all it asks: overrun */
    assert_int_equal(s.io_errno, EIO);
    tfs__src_close(&s);
    /* the same overrun on a later call: 60 bytes, then 41 where 40 were asked */
    s = fresh(&r, FILE_N, FILE_N, 0);
    r.overrun = 1;
    r.step = 60;
    assert_null(tfs__src_get(&s, FILE_N - 100, 100));
    assert_int_equal(s.io_errno, EIO);
    assert_int_equal(r.calls, 2);
    tfs__src_close(&s);

    /* shorter than declared */
    s = fresh(&r, 1000, 2000, 0);
    expect_bytes(&s, 0, 1000); /* the bytes asked for came; the window's read found the end early */
    assert_int_equal(s.io_errno, EIO);
    tfs__src_close(&s);
    s = fresh(&r, 1000, 2000, 0);
    assert_null(tfs__src_get(&s, 990, 20));
    assert_int_equal(s.io_errno, EIO);
    tfs__src_close(&s);

    /* a stream failing while skipping forward */
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    r.err = EBADF;
    r.fail_at = 2 * TFS_WINDOW + 100;
    expect_bytes(&s, 0, 10);
    assert_null(tfs__src_get(&s, 3 * TFS_WINDOW, 10));
    assert_int_equal(s.io_errno, EBADF);
    tfs__src_close(&s);
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    r.err = EBADF;
    r.fail_at = 3 * TFS_WINDOW;
    assert_false(tfs__src_has(&s, 4 * TFS_WINDOW));
    assert_int_equal(s.io_errno, EBADF);
    assert_false(tfs__src_learn_size(&s));
    tfs__src_close(&s);
}

/* prefix: bytes [0, n) at offset 0, reading only what the window lacks */
static void test_prefix(void **state) {
    (void)state;
    rd r = {.n = FILE_N, .step = 1000};
    tfs_src s = mk(&r, FILE_N, 0);
    const uint8_t *p = tfs__src_get(&s, 0, 8);
    assert_non_null(p);
    size_t before = r.bytes;
    p = tfs__src_prefix(&s, 8);
    assert_non_null(p);
    assert_memory_equal(p, g_file, 8);
    assert_int_equal(r.bytes, before);
    p = tfs__src_prefix(&s, 3 * TFS_WINDOW + 8);
    assert_non_null(p);
    assert_memory_equal(p, g_file, 3 * TFS_WINDOW + 8);
    assert_int_equal(r.bytes, 3 * TFS_WINDOW + 8); /* each byte once */
    assert_int_equal(s.win_off, 0);
    assert_true(s.win_len >= 3 * TFS_WINDOW + 8);
    tfs__src_close(&s);

    /* after a read elsewhere: refused */
    s = fresh(&r, FILE_N, FILE_N, 0);
    expect_bytes(&s, 100, 8);
    assert_null(tfs__src_prefix(&s, 8));
    assert_int_equal(s.io_errno, ESPIPE);
    tfs__src_close(&s);

    /* a stream: before anything else, then past its end */
    s = fresh(&r, 500, TFS_SIZE_UNKNOWN, 1);
    p = tfs__src_prefix(&s, 300);
    assert_non_null(p);
    assert_memory_equal(p, g_file, 300);
    p = tfs__src_prefix(&s, 500);
    assert_non_null(p);
    assert_memory_equal(p, g_file, 500);
    assert_null(tfs__src_prefix(&s, 501));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, 500);
    assert_false(r.bad);
    tfs__src_close(&s);

    /* a stream whose first get read past what prefix then asks: served */
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 0, 4);
    p = tfs__src_prefix(&s, 16);
    assert_non_null(p);
    assert_memory_equal(p, g_file, 16);
    assert_false(r.bad);
    tfs__src_close(&s);

    /* a stream read past its window: refused */
    s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    assert_true(tfs__src_has(&s, 2 * TFS_WINDOW + 9));
    assert_null(tfs__src_prefix(&s, 8));
    assert_int_equal(s.io_errno, ESPIPE);
    tfs__src_close(&s);

    /* a read failure */
    s = fresh(&r, FILE_N, FILE_N, 0);
    r.err = EPERM;
    r.fail_at = 0;
    assert_null(tfs__src_prefix(&s, 10));
    assert_int_equal(s.io_errno, EPERM);
    tfs__src_close(&s);
}

/* a request inside the window, up to its last byte, is served from it: no
 * read (src.c: only a request outside the window moves it) */
static void test_window_end_no_read(void **state) {
    (void)state;
    rd r;
    tfs_src s = fresh(&r, FILE_N, FILE_N, 0);
    expect_bytes(&s, 0, 8); /* one read of a window: [0, TFS_WINDOW) */
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.bytes, TFS_WINDOW);
    expect_bytes(&s, TFS_WINDOW - 8, 8);
    expect_bytes(&s, 0, TFS_WINDOW);
    assert_int_equal(r.calls, 1);
    assert_int_equal(r.bytes, TFS_WINDOW);
    assert_int_equal(s.win_off, 0);
    tfs__src_close(&s);
}

/* a window that already has room for a move allocates nothing: the move
 * works even when every allocation would fail */
static void test_window_room_no_alloc(void **state) {
    (void)state;
    rd r;
    tfs_src s = fresh(&r, FILE_N, FILE_N, 0);
    expect_bytes(&s, 0, 8); /* a window of TFS_WINDOW bytes */
    tfs_test_nomem_arm(0);
    const uint8_t *p = tfs__src_get(&s, 2 * TFS_WINDOW, 8); /* the same size again */
    long allocs = tfs_test_nomem_disarm();
    assert_non_null(p);
    assert_memory_equal(p, g_file + 2 * TFS_WINDOW, 8);
    assert_int_equal(allocs, 0);
    expect_bytes(&s, 5, 3 * TFS_WINDOW); /* grows to 3 windows */
    tfs_test_nomem_arm(0);
    p = tfs__src_get(&s, 4 * TFS_WINDOW, 8); /* a smaller move: the room is there */
    allocs = tfs_test_nomem_disarm();
    assert_non_null(p);
    assert_memory_equal(p, g_file + 4 * TFS_WINDOW, 8);
    assert_int_equal(allocs, 0);
    assert_false(tfs_src_failed(&s));
    tfs__src_close(&s);
}

/* a stream asked to go back: ESPIPE, nothing read, and the window is left as
 * it was: the bytes it holds are still served, without a read */
static void test_stream_back_keeps_window(void **state) {
    (void)state;
    rd r;
    tfs_src s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 0, 24);
    expect_bytes(&s, TFS_WINDOW - 2, 8); /* window [TFS_WINDOW - 2, 2 * TFS_WINDOW - 2) */
    size_t calls = r.calls, bytes = r.bytes;
    assert_int_equal(bytes, 2 * TFS_WINDOW - 2);
    assert_null(tfs__src_get(&s, 10, 4));
    assert_int_equal(s.io_errno, ESPIPE);
    assert_int_equal(r.calls, calls);
    s.io_errno = 0;
    expect_bytes(&s, TFS_WINDOW, 100);
    expect_bytes(&s, 2 * TFS_WINDOW - 10, 8);
    assert_int_equal(r.calls, calls);
    assert_int_equal(r.bytes, bytes);
    assert_false(tfs_src_failed(&s));
    assert_false(r.bad);
    tfs__src_close(&s);
}

/* learn_size on a stream whose earlier read failed: it reads to the end
 * (the size is known) but reports the failure */
static void test_learn_size_after_failure(void **state) {
    (void)state;
    rd r;
    tfs_src s = fresh(&r, FILE_N, TFS_SIZE_UNKNOWN, 1);
    expect_bytes(&s, 2 * TFS_WINDOW, 8);
    assert_null(tfs__src_get(&s, 0, 4));
    assert_int_equal(s.io_errno, ESPIPE);
    assert_false(tfs__src_learn_size(&s));
    assert_true(s.size_known);
    assert_int_equal(s.file_size, FILE_N);
    assert_int_equal(s.io_errno, ESPIPE);
    assert_false(r.bad);
    tfs__src_close(&s);
}

/* copies of one byte, and a last piece of one byte */
static void test_copy_one_byte(void **state) {
    (void)state;
    static uint8_t d[TFS_WINDOW + 1];
    rd r;
    tfs_src s = fresh(&r, FILE_N, FILE_N, 0);
    d[0] = (uint8_t)~g_file[5];
    assert_true(tfs__src_copy(&s, 5, 1, d));
    assert_int_equal(d[0], g_file[5]);
    for (size_t i = 0; i < sizeof d; i++) d[i] = (uint8_t)~g_file[7 + i];
    assert_true(tfs__src_copy(&s, 7, TFS_WINDOW + 1, d));
    assert_memory_equal(d, g_file + 7, TFS_WINDOW + 1);
    assert_false(tfs__src_copy(&s, FILE_N, 1, d));
    assert_true(tfs__src_copy(&s, FILE_N - 1, 1, d));
    assert_int_equal(d[0], g_file[FILE_N - 1]);
    assert_false(tfs_src_failed(&s));
    tfs__src_close(&s);
}

int main(void) {
    init_file();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_mode),
        cmocka_unit_test(test_sequential_scan_reads_each_byte_once),
        cmocka_unit_test(test_random_access),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_window_end_no_read),
        cmocka_unit_test(test_window_room_no_alloc),
        cmocka_unit_test(test_stream_back_keeps_window),
        cmocka_unit_test(test_learn_size_after_failure),
        cmocka_unit_test(test_copy_one_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
