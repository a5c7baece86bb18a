/* test_api.c: the entry points of parsers/api.c and parsers/posix_file.c: argument checks,
 * files that are not regular (refused without blocking or reading), format
 * detection by magic then extension, the error record on every return. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/files.h"
#include "common/writes.h"
#include "common/sources.h"
#include "tfs/rules.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

static char g_dir[] = "/tmp/tfs_api_XXXXXX";

static int setup(void **state) {
    (void)state;
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_bad_arguments(void **state) {
    (void)state;
    tfs_error e;
    tfs_header *h = (tfs_header *)&e; /* must be reset to NULL */
    assert_int_equal(tfs_parse_buffer(NULL, 5, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_EARG);
    assert_null(h);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_int_equal(e.sys_errno, 0);               /* tfs.h: errno for TFS_EIO, else 0 */
    assert_string_equal(e.message, "bad argument"); /* tfs.h: the I/O texts */
    assert_int_equal(tfs_parse_file(NULL, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EARG);
    assert_int_equal(tfs_parse_fd(-1, NULL, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EARG);
    e.sys_errno = 99;
    assert_int_equal(tfs_parse_buffer((const uint8_t *)"x", 1, (tfs_format)7, 0, NULL, &e), TFS_EARG);
    assert_int_equal(e.sys_errno, 0);
    /* a reader: none, or one without its read function */
    h = (tfs_header *)&e;
    assert_int_equal(tfs_parse_source(NULL, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_EARG);
    assert_null(h);
    assert_int_equal(e.index, -1);
    assert_int_equal(e.sys_errno, 0);
    tfs_source no_read = {.read = NULL, .size = 24};
    assert_int_equal(tfs_parse_source(&no_read, NULL, TFS_FORMAT_GGUF, 0, NULL, &e), TFS_EARG);
    assert_int_equal(e.sys_errno, 0);
    /* err may be NULL (tfs.h) on every return, a refusal included */
    assert_int_equal(tfs_parse_source(NULL, NULL, TFS_FORMAT_UNKNOWN, 0, NULL, NULL), TFS_EARG);
    assert_int_equal(tfs_parse_buffer(NULL, 5, TFS_FORMAT_UNKNOWN, 0, NULL, NULL), TFS_EARG);
    assert_int_equal(tfs_parse_file(NULL, TFS_FORMAT_UNKNOWN, 0, NULL, NULL), TFS_EARG);
    tfs_header_free(NULL);
}

static void test_not_regular_files(void **state) {
    (void)state;
    char fifo[256];
    snprintf(fifo, sizeof fifo, "%s/fifo", g_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    tfs_error e;
    /* no writer: a blocking open would hang here */
    assert_int_equal(tfs_parse_file(fifo, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EIO);
    assert_int_equal(e.sys_errno, EINVAL);
    assert_int_equal(tfs_parse_file(g_dir, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EIO);
    assert_int_equal(e.sys_errno, EISDIR);
    assert_int_equal(tfs_parse_file("/dev/null", TFS_FORMAT_GGUF, 0, NULL, &e), TFS_EIO);
    assert_int_equal(e.sys_errno, EINVAL);
    char missing[256];
    snprintf(missing, sizeof missing, "%s/missing.gguf", g_dir);
    assert_int_equal(tfs_parse_file(missing, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_EIO);
    assert_int_equal(e.sys_errno, ENOENT);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_string_equal(e.message, "I/O error");
}

/* The same 16 bytes ("GGUX" + 12 bytes): a .gguf name reports the bad magic
 * (GG002), a .safetensors name or no hint reads them as safetensors, whose
 * 8-byte header size 0x0000_0003_5855_4747 is above the cap (ST002). */
/* The first n bytes of a GGUF v3 header with no tensors and no KV, from the
 * writer (magic NULL: "GGUF"). */
static void header_bytes(const char *magic, uint8_t *out, size_t n) {
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_gg_put_header(&w, magic, 3, 0, 0), TFS_OK);
    assert_true(w.size >= n);
    memcpy(out, tfs_wbuf_at(&w, 0, n), n);
    tfs_wbuf_free(&w);
}

/* g_dir/name holds a valid GGUF of 24 bytes (v3, no tensors, no KV), also in gguf[] */
static void empty_gguf(const char *name, uint8_t gguf[24], char *path, size_t cap) {
    header_bytes(NULL, gguf, 24);
    tfs_test_put_file(g_dir, name, gguf, 24, path, cap);
}

/* GGUF v3, no tensors, one KV: key "k", a string of 1000 'x' (more than the
 * 256 bytes a file or stream parse keeps, so it is read again on access);
 * the model points into static storage */
static tfs_gg_model long_string_model(void) {
    static char x[1000];
    static tfs_wstr xs;
    static tfs_gg_wkv kv;
    memset(x, 'x', sizeof x);
    xs = tfs_wstr_n(x, sizeof x);
    kv = (tfs_gg_wkv){tfs_wstr_c("k"), tfs_gg_wval_str(&xs)};
    return (tfs_gg_model){.version = 3, .kv = &kv, .n_kv = 1};
}

static void test_detection_by_magic_then_extension(void **state) {
    (void)state;
    uint8_t bytes[16]; /* a GGUF header with the magic "GGUX", cut after 16 bytes */
    header_bytes("GGUX", bytes, sizeof bytes);
    char p1[256], p2[256];
    tfs_test_put_file(g_dir, "damaged.gguf", bytes, sizeof bytes, p1, sizeof p1);
    tfs_test_put_file(g_dir, "damaged.safetensors", bytes, sizeof bytes, p2, sizeof p2);
    tfs_error e;
    assert_int_equal(tfs_parse_file(p1, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_GG002);
    assert_int_equal(e.offset, 0);
    assert_int_equal(tfs_parse_file(p2, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST002);
    assert_int_equal(tfs_parse_buffer(bytes, sizeof bytes, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST002);
    assert_int_equal(tfs_parse_file(p2, TFS_FORMAT_GGUF, 0, NULL, &e), TFS_INVALID); /* forced */
    assert_int_equal(e.rule, TFS_GG002);
}

/* A valid GGUF (v3, no tensors, no KV) parsed from the file: the view is
 * owned by the header and outlives the fd. */
static void test_file_view_owned(void **state) {
    (void)state;
    uint8_t gguf[24];
    char p[256];
    empty_gguf("empty.gguf", gguf, p, sizeof p);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    assert_non_null(h);
    assert_int_equal(h->format, TFS_FORMAT_GGUF);
    assert_int_equal(h->version, 3);
    assert_int_equal(h->file_size, 24);
    assert_int_equal(h->n_tensors, 0);
    assert_int_equal(h->alignment, 32);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    tfs_header_free(h);
}

/* An empty file, format left to detection: safetensors' first rule (ST001).
 * Regression (libFuzzer + UBSan): the pread window did not exist yet and a
 * zero-length read returned NULL + 0. */
static void test_empty_file_detect(void **state) {
    (void)state;
    char p[256];
    tfs_test_put_file(g_dir, "empty.bin", "", 0, p, sizeof p);
    tfs_error e;
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST001);
    assert_int_equal(e.offset, 0);
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_GGUF, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_GG001);
}

/* On TFS_OK the error record is zeroed with index = -1 (tfs.h), whatever it
 * held before, and the header is complete; on a failure *out is NULL.  The
 * four entry points: buffer, reader, fd, path. */
static int mem_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    const uint8_t *b = ctx;
    size_t n = off >= 24 ? 0 : (size_t)(24 - off) < len ? (size_t)(24 - off) : len;
    memcpy(buf, b + off, n);
    *got = n;
    return 0;
}

static void garbage(tfs_error *e) { memset(e, 0x5A, sizeof *e); }

static void expect_ok_record(const tfs_error *e, tfs_header *h) {
    assert_int_equal(e->rule, TFS_RULE_NONE);
    assert_int_equal(e->offset, 0);
    assert_int_equal(e->index, -1);
    assert_null(e->message);
    assert_int_equal(e->sys_errno, 0);
    assert_non_null(h);
    assert_int_equal(h->complete, 1);
    assert_int_equal(h->format, TFS_FORMAT_GGUF);
    assert_int_equal(h->file_size, 24);
    tfs_header_free(h);
}

static void test_error_record_on_ok(void **state) {
    (void)state;
    uint8_t gguf[24];
    char p[256];
    empty_gguf("ok.gguf", gguf, p, sizeof p);
    tfs_error e;
    tfs_header *h;
    garbage(&e);
    h = (tfs_header *)&e;
    assert_int_equal(tfs_parse_buffer(gguf, sizeof gguf, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    expect_ok_record(&e, h);
    garbage(&e);
    tfs_source src = {.read = mem_read, .ctx = gguf, .size = sizeof gguf};
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    expect_ok_record(&e, h);
    garbage(&e);
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    expect_ok_record(&e, h);
    garbage(&e);
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    assert_int_equal(tfs_parse_fd(fileno(f), p, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    fclose(f);
    expect_ok_record(&e, h);
    /* a failure: *out NULL, the record filled */
    garbage(&e);
    h = (tfs_header *)&e;
    assert_int_equal(tfs_parse_buffer(gguf, 10, TFS_FORMAT_GGUF, 0, &h, &e), TFS_INVALID);
    assert_null(h);
    assert_int_equal(e.sys_errno, 0);
    /* no record asked for */
    assert_int_equal(tfs_parse_buffer(gguf, sizeof gguf, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    tfs_header_free(h);
}

/* The number of open descriptors of this process. */
static int open_fds(void) {
    int n = 0;
    for (int fd = 0; fd < 1024; fd++)
        if (fcntl(fd, F_GETFD) != -1) n++;
    return n;
}

/* A forward-only stream of unknown size and no path: the format comes from
 * its first four bytes alone (tfs__dispatch asks for them before the size is
 * known: a stream longer than the first read window), so a GGUF stream is
 * parsed as GGUF, with the verdict of its bytes parsed as GGUF from a buffer;
 * a 3-byte stream, shorter than a magic, is safetensors (ST001). */
static void test_stream_detection_by_magic(void **state) {
    (void)state;
    size_t n = 24 + TFS_WINDOW + 100; /* a GGUF header (no KV, no tensor), then zeros */
    uint8_t *gguf = calloc(n, 1);
    assert_non_null(gguf);
    header_bytes(NULL, gguf, 24);
    tfs_error want, e;
    tfs_header *h = NULL;
    tfs_status st = tfs_parse_buffer(gguf, n, TFS_FORMAT_GGUF, 0, &h, &want);
    tfs_header_free(h);
    h = NULL;
    tfs_source src;
    tfs_test_stream stream;
    tfs_test_stream_source(&src, &stream, gguf, n);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), st);
    assert_int_equal(e.rule, want.rule);
    assert_int_equal(e.offset, want.offset);
    if (st == TFS_OK) {
        assert_int_equal(h->format, TFS_FORMAT_GGUF);
        assert_int_equal(h->file_size, n);
    }
    assert_int_not_equal(e.rule, TFS_ST001); /* not read as safetensors */
    tfs_header_free(h);
    tfs_test_stream_source(&src, &stream, gguf, 3);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST001);
    assert_int_equal(e.offset, 0);
    free(gguf);
}

/* A header parsed from a descriptor keeps its own duplicate (the caller's
 * may be closed), and tfs_header_free closes it: no descriptor leaks, none
 * of the caller's is closed. */
static void test_fd_header_owns_a_duplicate(void **state) {
    (void)state;
    uint8_t gguf[24];
    char p[256];
    empty_gguf("dup.gguf", gguf, p, sizeof p);
    int before = open_fds();
    tfs_header *h = NULL;
    int fd = open(p, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(tfs_parse_fd(fd, p, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    assert_int_equal(open_fds(), before + 2); /* the caller's and the header's */
    close(fd);
    tfs_header_free(h);
    assert_int_equal(open_fds(), before);
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    assert_int_equal(open_fds(), before + 1);
    tfs_header_free(h);
    assert_int_equal(open_fds(), before);
    /* no header asked for: nothing kept */
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_UNKNOWN, 0, NULL, NULL), TFS_OK);
    assert_int_equal(open_fds(), before);
    /* buffer and reader headers hold no descriptor; freeing them closes none */
    assert_int_equal(tfs_parse_buffer(gguf, sizeof gguf, TFS_FORMAT_UNKNOWN, 0, &h, NULL), TFS_OK);
    tfs_header_free(h);
    assert_int_equal(open_fds(), before);
}

/* The header's own descriptor could not be made (tfs_parse_fd: the
 * duplicate fails with EMFILE, the caller's descriptor being the highest one
 * the limit allows): the parse still succeeds, values that are in the view
 * (scalars, strings of up to 256 bytes) read as usual, and every value that
 * must be read again from the file gives TFS_EIO (tfs.h: reading the source
 * again failed), never a call through a missing reader. */
static void test_fd_without_a_duplicate(void **state) {
    (void)state;
    char x[1000];
    memset(x, 'x', sizeof x);
    tfs_wstr xs = tfs_wstr_n(x, sizeof x), strs[3] = {tfs_wstr_c("ab"), tfs_wstr_n(x, 300), tfs_wstr_c("cde")};
    uint32_t nums[3] = {7, 8, 9};
    tfs_gg_wkv kvs[4] = {{tfs_wstr_c("u"), tfs_gg_wval_scalar(TFS_GG_U32, 42)},
                         {tfs_wstr_c("long"), tfs_gg_wval_str(&xs)},
                         {tfs_wstr_c("strs"), tfs_gg_wval_str_array(strs, 3)},
                         {tfs_wstr_c("nums"), tfs_gg_wval_array(TFS_GG_U32, 3, nums, sizeof nums)}};
    tfs_gg_model m = {.version = 3, .kv = kvs, .n_kv = 4};
    char p[256];
    tfs_test_put_model(g_dir, "nodup.gguf", &m, NULL, p, sizeof p);
    int fd = open(p, O_RDONLY);
    assert_true(fd >= 0);
    for (int k = 0; k < fd; k++) assert_true(fcntl(k, F_GETFD) != -1); /* fd + 1 is the lowest free one */
    struct rlimit lim, low;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &lim), 0);
    low = lim;
    low.rlim_cur = (rlim_t)fd + 1u;
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_fd(fd, p, TFS_FORMAT_GGUF, 0, &h, &e);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &lim), 0);
    close(fd);
    assert_int_equal(st, TFS_OK);
    assert_int_equal(h->n_kv, 4);
    uint32_t u = 0;
    assert_int_equal(tfs_kv_get_u32(h, &h->kv[0], 0, &u), TFS_OK);
    assert_int_equal(u, 42);
    tfs_value v;
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 0, &v), TFS_OK); /* the length is in the view */
    assert_int_equal(v.u64, 1000);
    char buf[64];
    tfs_str s;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[1], 0, &s, buf, sizeof buf), TFS_EIO);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[1], 0, &s, NULL, 0), TFS_EIO);
    for (uint64_t i = 0; i < 3; i++) { /* array elements are read from the file */
        assert_int_equal(tfs_kv_get(h, &h->kv[2], i, &v), TFS_EIO);
        assert_int_equal(tfs_kv_get_u32(h, &h->kv[3], i, &u), TFS_EIO);
    }
    tfs_header_free(h);
    /* the same file with a descriptor of its own: every value reads */
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[1], 0, &s, buf, sizeof buf), TFS_OK);
    assert_int_equal(s.len, sizeof buf);
    assert_memory_equal(s.ptr, x, sizeof buf);
    assert_int_equal(tfs_kv_get(h, &h->kv[2], 1, &v), TFS_OK);
    assert_int_equal(v.u64, 300);
    assert_int_equal(tfs_kv_get_string(h, &h->kv[2], 2, &s, buf, sizeof buf), TFS_OK);
    assert_int_equal(s.len, 3);
    assert_memory_equal(s.ptr, "cde", 3);
    assert_int_equal(tfs_kv_get_u32(h, &h->kv[3], 2, &u), TFS_OK);
    assert_int_equal(u, 9);
    tfs_header_free(h);
}

/* Detection by magic needs its 4 bytes: the 3-byte buffer "GGU" is not
 * GGUF, even when the caller's memory goes on with 'F' (tfs_detect_format:
 * len >= 4), so it is a safetensors file too short for its 8-byte header
 * size (ST001).  Read through the length given, never past it. */
static void test_detect_three_bytes_of_magic(void **state) {
    (void)state;
    uint8_t gguf[4]; /* the magic, from the writer */
    header_bytes(NULL, gguf, sizeof gguf);
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(gguf, 3, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST001);
    assert_int_equal(e.offset, 0);
    assert_int_equal(tfs_parse_buffer(gguf, 4, TFS_FORMAT_UNKNOWN, 0, NULL, &e), TFS_INVALID);
    assert_int_equal(tfs_rule_format(e.rule), TFS_FORMAT_GGUF);
    /* the public call too: a prefix of 3 bytes is not the magic, whatever follows it in memory */
    assert_int_equal(tfs_detect_format(gguf, 3, NULL), TFS_FORMAT_SAFETENSORS);
    assert_int_equal(tfs_detect_format(gguf, 4, NULL), TFS_FORMAT_GGUF);
    /* by extension when the magic is not there: a name that is only the extension too */
    assert_int_equal(tfs_detect_format(NULL, 0, ".gguf"), TFS_FORMAT_GGUF);
    assert_int_equal(tfs_detect_format(NULL, 0, "gguf"), TFS_FORMAT_SAFETENSORS);
}

/* The file behind a header shrinks after the parse: reading a string value
 * again (pread on the header's descriptor, posix_file.c fd_read) meets the
 * end of the file, a read of 0 bytes, which is the end and not an error to
 * retry.  With errno holding EINTR from before, a reader that retried on
 * every read that returned less than 1 byte would spin forever; the value's
 * read must fail with TFS_EIO (tfs.h: the read failed). */
static void test_reread_after_the_file_shrank(void **state) {
    (void)state;
    const tfs_gg_model m = long_string_model(); /* read again on access */
    char p[256];
    tfs_test_put_model(g_dir, "shrinks.gguf", &m, NULL, p, sizeof p);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(h->n_kv, 1);
    assert_int_equal(h->kv[0].value_offset, 37); /* its 8-byte length, then the bytes at 45 */
    char buf[1000];
    tfs_str s;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &s, buf, sizeof buf), TFS_OK);
    assert_int_equal(s.len, 1000);
    assert_int_equal(truncate(p, 55), 0); /* 10 of the 1000 bytes are left */
    errno = EINTR;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &s, buf, sizeof buf), TFS_EIO);
    tfs_header_free(h);
}

/* The file behind a header is changed after the parse: a string array's
 * element 0 now declares 2^56 + 3 bytes, far past the end of the file.
 * Looking up element 1 walks past element 0 and so past the end: TFS_EIO
 * (tfs.h: bytes that were not checked, TFS_EIO if they run past its end),
 * not an element found by reading the length as 3. */
static void test_reread_after_a_length_grew(void **state) {
    (void)state;
    tfs_wstr strs[3] = {tfs_wstr_c("abc"), tfs_wstr_c("de"), tfs_wstr_c("f")};
    tfs_gg_wkv kv = {tfs_wstr_c("strs"), tfs_gg_wval_str_array(strs, 3)};
    tfs_gg_model m = {.version = 3, .kv = &kv, .n_kv = 1};
    char p[256];
    tfs_test_put_model(g_dir, "grows.gguf", &m, NULL, p, sizeof p);
    tfs_header *h = NULL;
    assert_int_equal(tfs_parse_file(p, TFS_FORMAT_GGUF, 0, &h, NULL), TFS_OK);
    tfs_value v0, v1;
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 0, &v0), TFS_OK);
    assert_int_equal(v0.u64, 3);
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 1, &v1), TFS_OK);
    assert_int_equal(v1.u64, 2);
    assert_int_equal(v1.offset, v0.offset + 3u + 8u);
    int fd = open(p, O_WRONLY);
    assert_true(fd >= 0);
    const uint8_t top = 1; /* the length field's last (most significant) byte */
    assert_int_equal(pwrite(fd, &top, 1, (off_t)(v0.offset - 1u)), 1);
    close(fd);
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 1, &v1), TFS_EIO);
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 2, &v1), TFS_EIO);
    /* a length of 2^63 + 3: the next element would start past INT64_MAX, where no file has bytes: TFS_EIO too */
    fd = open(p, O_WRONLY);
    assert_true(fd >= 0);
    const uint8_t high = 0x80;
    assert_int_equal(pwrite(fd, &high, 1, (off_t)(v0.offset - 1u)), 1);
    close(fd);
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 1, &v1), TFS_EIO);
    tfs_header_free(h);
}

/* A reader over memory that fails its first `fail_first` calls with
 * `fail_errno` and notes a read that starts before the end of the one before
 * it (a seek back, which a forward-only reader cannot serve; this one serves
 * it, so only the note tells). */
typedef struct probe_reader {
    const uint8_t *p;
    size_t n;
    int calls, fail_first, fail_errno, went_back;
    uint64_t next;
} probe_reader;

static int probe_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    probe_reader *r = ctx;
    *got = 0;
    if (++r->calls <= r->fail_first) return r->fail_errno;
    if (off < r->next) r->went_back = 1;
    size_t k = off >= r->n ? 0 : (size_t)(r->n - off) < len ? (size_t)(r->n - off) : len;
    if (k) memcpy(buf, r->p + off, k);
    r->next = off + k;
    *got = k;
    return 0;
}

/* The reader's first read (the magic, format left to detection) fails and
 * later ones would succeed: the parse reports that failure, TFS_EIO with the
 * reader's errno (tfs.h), and does not go on as if the read had not been
 * asked for. */
static void test_first_read_fails(void **state) {
    (void)state;
    uint8_t gguf[24];
    header_bytes(NULL, gguf, sizeof gguf);
    probe_reader r = {.p = gguf, .n = sizeof gguf, .fail_first = 1, .fail_errno = ENXIO};
    tfs_source src = {.read = probe_read, .ctx = &r, .size = sizeof gguf};
    tfs_header *h = (tfs_header *)&r;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_EIO);
    assert_null(h);
    assert_int_equal(e.sys_errno, ENXIO);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_int_equal(r.calls, 1); /* nothing read after the failure */
    /* the same bytes from a reader that does not fail: a valid GGUF */
    r = (probe_reader){.p = gguf, .n = sizeof gguf};
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    expect_ok_record(&e, h);
}

/* tfs.h tfs_source: forward = 1 is a reader that can only go forward, its
 * size known or not, and an unknown size implies forward whatever `forward`
 * says.  Either way the parser never reads back, and a string value longer
 * than 256 bytes (not kept) cannot be read again: TFS_EIO from the accessor,
 * never a read before the end of the previous one. */
static void test_forward_only_readers(void **state) {
    (void)state;
    const tfs_gg_model m = long_string_model();
    size_t n = 0;
    uint8_t *bytes = tfs_test_write_flat(NULL, &m, NULL, &n);
    const struct {
        uint64_t size;
        int forward;
    } cases[] = {{n, 1}, {TFS_SIZE_UNKNOWN, 0}, {TFS_SIZE_UNKNOWN, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        probe_reader r = {.p = bytes, .n = n};
        tfs_source src = {.read = probe_read, .ctx = &r, .size = cases[i].size, .forward = cases[i].forward};
        tfs_header *h = NULL;
        tfs_error e;
        assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
        assert_int_equal(h->format, TFS_FORMAT_GGUF);
        assert_int_equal(h->file_size, n);
        assert_int_equal(h->n_kv, 1);
        assert_int_equal(h->kv[0].value_offset, 37); /* its 8-byte length, then the 1000 bytes */
        tfs_value v;                                 /* the length, a scalar: always there */
        assert_int_equal(tfs_kv_get(h, &h->kv[0], 0, &v), TFS_OK);
        assert_int_equal(v.u64, 1000);
        char buf[1000];
        tfs_str s;
        assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &s, buf, sizeof buf), TFS_EIO);
        /* nor with no room asked for (cap 0): the bytes are not there to give */
        assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &s, NULL, 0), TFS_EIO);
        assert_int_equal(r.went_back, 0);
        tfs_header_free(h);
    }
    free(bytes);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_not_regular_files),
        cmocka_unit_test(test_detection_by_magic_then_extension),
        cmocka_unit_test(test_file_view_owned),
        cmocka_unit_test(test_empty_file_detect),
        cmocka_unit_test(test_error_record_on_ok),
        cmocka_unit_test(test_stream_detection_by_magic),
        cmocka_unit_test(test_fd_header_owns_a_duplicate),
        cmocka_unit_test(test_fd_without_a_duplicate),
        cmocka_unit_test(test_reread_after_the_file_shrank),
        cmocka_unit_test(test_reread_after_a_length_grew),
        cmocka_unit_test(test_detect_three_bytes_of_magic),
        cmocka_unit_test(test_first_read_fails),
        cmocka_unit_test(test_forward_only_readers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
