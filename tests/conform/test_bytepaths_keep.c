/*
 * test_bytepaths_keep.c: what a forward-only source keeps of GGUF values, at
 * the bounds tfs.h promises (tfs_parse_source "Memory"): string scalars of at
 * most 256 bytes; of each array its first TFS_ARRAY_KEEP (65,536) bytes of
 * whole elements, a string element counting its 8-byte length.
 *
 * Each file is written with tfs_gg_write and checked twice:
 *   - parsed here through a forward-only source: the number of elements
 *     tfs_kv_next gives before TFS_EIO is the hand-counted number below;
 *   - through conformance/runner/bytepaths.c (cf_parse_all_paths), which
 *     compares every value of the file, buffer and stream paths and computes
 *     what the stream must keep itself: it must agree (0), so its count is
 *     the hand-counted one too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bytepaths.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

typedef struct fwd {
    const uint8_t *buf;
    size_t len, pos;
} fwd;

static int fwd_read(void *ctx, uint64_t offset, void *buf, size_t len, size_t *got) {
    fwd *s = ctx;
    if (offset != s->pos) return 29; /* ESPIPE: a forward-only reader */
    size_t k = len < s->len - s->pos ? len : s->len - s->pos;
    memcpy(buf, s->buf + s->pos, k);
    s->pos += k;
    *got = k;
    return 0;
}

/* Write one KV (no tensor) to a temp file; *out, *n: its bytes. */
static char *write_kv(const tfs_gg_wkv *kv, uint8_t **out, size_t *n) {
    tfs_gg_model m = {.version = 3, .n_kv = 1, .kv = kv};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 24, out, n), TFS_OK);
    static char path[64];
    snprintf(path, sizeof path, "/tmp/tfs-keep-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, *out, *n), (ssize_t)*n);
    close(fd);
    tfs_wbuf_free(&w);
    return path;
}

/* Elements the stream gives before TFS_EIO (all of them: count). */
static uint64_t stream_gives(const uint8_t *bytes, size_t n) {
    fwd f = {bytes, n, 0};
    tfs_source src = {fwd_read, &f, TFS_SIZE_UNKNOWN, 1};
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, "keep", TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    assert_int_equal(h->n_kv, 1);
    static uint8_t blk[65536];
    tfs_kv_cursor c;
    assert_int_equal(tfs_kv_cursor_init(&c, h, &h->kv[0], blk, sizeof blk), TFS_OK);
    uint64_t k = 0;
    tfs_value v;
    tfs_str s;
    tfs_status st;
    while ((st = tfs_kv_next(&c, &v, &s)) == TFS_OK) k++;
    if (k < h->kv[0].count) assert_int_equal(st, TFS_EIO);
    tfs_header_free(h);
    return k;
}

/* The hand count, then the three paths through the runner's comparison. */
static void check(const tfs_gg_wkv *kv, uint64_t want) {
    uint8_t *bytes = NULL;
    size_t n = 0;
    char *path = write_kv(kv, &bytes, &n);
    assert_int_equal(stream_gives(bytes, n), want);
    char why[256];
    tfs_status st;
    tfs_error err;
    for (unsigned flags = 0; flags <= TFS_HEADER_ONLY; flags += TFS_HEADER_ONLY) {
        int rc = cf_parse_all_paths(path, TFS_FORMAT_GGUF, flags, &st, &err, why, sizeof why);
        if (rc != 0) fail_msg("%s", why);
        assert_int_equal(st, TFS_OK);
    }
    unlink(path);
    free(bytes);
}

static tfs_gg_wkv u8_array(uint64_t count, uint8_t *raw) {
    for (uint64_t i = 0; i < count; i++) raw[i] = (uint8_t)(i * 7u);
    return (tfs_gg_wkv){tfs_wstr_c("a"), tfs_gg_wval_array(0 /* u8 */, count, raw, (size_t)count)};
}

static void test_u8_array_bounds(void **state) {
    (void)state;
    static uint8_t raw[65537];
    tfs_gg_wkv kv = u8_array(65535, raw);
    check(&kv, 65535); /* all of it */
    kv = u8_array(65536, raw);
    check(&kv, 65536); /* exactly TFS_ARRAY_KEEP bytes */
    kv = u8_array(65537, raw);
    check(&kv, 65536); /* one past: the last is not kept */
}

static void test_u32_array_bounds(void **state) {
    (void)state;
    static uint8_t raw[4 * 16385];
    for (size_t i = 0; i < sizeof raw; i++) raw[i] = (uint8_t)(i * 13u);
    tfs_gg_wkv kv = {tfs_wstr_c("b"), tfs_gg_wval_array(4 /* u32 */, 16385, raw, sizeof raw)};
    check(&kv, 16384); /* 16,384 x 4 = 65,536 */
}

/* n strings of len bytes, then `last` strings of last_len bytes. */
static void str_array(size_t n, size_t len, size_t last_len, uint64_t want) {
    static char body[4096], later[4096];
    static tfs_wstr s[32];
    memset(body, 'x', sizeof body);
    memset(later, 'y', sizeof later); /* the later elements differ from the earlier */
    assert_true(n + 2 <= 32 && len <= sizeof body && last_len <= sizeof later);
    for (size_t i = 0; i < n; i++) s[i] = tfs_wstr_n(body, len);
    s[n] = tfs_wstr_n(later, last_len);
    s[n + 1] = tfs_wstr_n(later, 3);
    tfs_gg_wkv kv = {tfs_wstr_c("c"), tfs_gg_wval_str_array(s, n + 2)};
    check(&kv, want);
}

static void test_string_array_bounds(void **state) {
    (void)state;
    /* 15 x (8 + 4088) = 61,440; + (8 + 4088) = 65,536 exactly: kept; then 8 + 3 more: not */
    str_array(15, 4088, 4088, 16);
    /* 61,440 + (8 + 4076) = 65,524; + (8 + 3) = 65,535: both kept, all 17 */
    str_array(15, 4088, 4076, 17);
    /* 61,440 + (8 + 4089) = 65,537: the 16th is past the bound, nothing after it */
    str_array(15, 4088, 4089, 15);
}

static void test_string_scalar_bounds(void **state) {
    (void)state;
    static char body[257];
    memset(body, 's', sizeof body);
    tfs_wstr s = tfs_wstr_n(body, 256);
    tfs_gg_wkv kv = {tfs_wstr_c("d"), tfs_gg_wval_str(&s)};
    check(&kv, 1); /* 256 bytes: kept */
    s = tfs_wstr_n(body, 257);
    kv.value = tfs_gg_wval_str(&s);
    check(&kv, 0); /* 257: not */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_u8_array_bounds),
        cmocka_unit_test(test_u32_array_bounds),
        cmocka_unit_test(test_string_array_bounds),
        cmocka_unit_test(test_string_scalar_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
