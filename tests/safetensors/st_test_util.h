/* st_test_util.h: helpers for the safetensors unit tests.
 *
 * Every parse in these tests goes through stt_parse, which runs BOTH the
 * buffer API (tfs_parse_buffer) and the file API (tfs_parse_file on a
 * temporary copy) and fails the test unless they agree on status, rule,
 * offset, index and, on success, on the whole view. */
#ifndef TFS_ST_TEST_UTIL_H
#define TFS_ST_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/tfs.h"
#include "tfs/write.h"

/* A file image (owned, free with stt_free). */
typedef struct stt_buf {
    uint8_t *p;
    size_t len;
} stt_buf;

/* [u64 LE n_field][hdr: hlen bytes][data_len bytes 0xA5], written by the
 * safetensors writer (tfs_st_write with raw_json).  n_field is written as
 * given (it need not equal hlen). */
stt_buf stt_make(const void *hdr, size_t hlen, uint64_t n_field, size_t data_len);
/* Same with n_field = strlen(json). */
stt_buf stt_json(const char *json, size_t data_len);
/* The crate's serializer layout: json padded with spaces to a multiple of
 * 8, N = padded length, then data_len bytes copied from data. */
stt_buf stt_crate(const char *json, const void *data, size_t data_len);
void stt_free(stt_buf *b);

/* File offset of the first byte of the k-th (0-based) occurrence of `needle`
 * in the JSON text `json` (8 + position); fails the test if absent. */
uint64_t stt_at(const char *json, const char *needle, int k);

/* Parse with both APIs (asserting they agree); returns the buffer result.
 * *out (may be NULL) receives the buffer-API header. */
tfs_status stt_parse(const stt_buf *b, unsigned flags, tfs_header **out, tfs_error *err);

/* Assert that parsing fails with `rule` at file offset `off` and tensor/KV
 * `index`.  For a canonical rule in the default profile, also asserts that
 * the strict profile reports the same violation. */
void stt_expect_rule(const stt_buf *b, unsigned flags, tfs_rule rule, uint64_t off, int64_t index);
/* Assert that parsing succeeds; returns the header (free it) if want != 0. */
tfs_header *stt_expect_ok(const stt_buf *b, unsigned flags, int want);

/* Shorthands on a JSON header followed by data_len data bytes. */
void stt_json_rule(const char *json, size_t data_len, unsigned flags, tfs_rule rule, uint64_t off, int64_t index);
void stt_json_ok(const char *json, size_t data_len, unsigned flags);

/* Assert a tfs_str equals `len` bytes at `s`. */
void stt_assert_str(tfs_str got, const void *s, size_t len);

/* Assert that __metadata__ entry i of h is the string of `len` bytes at s
 * (read with tfs_kv_get_string; also checks tfs_kv_get's length). */
void stt_assert_kv_string(const tfs_header *h, size_t i, const void *s, size_t len);

/* Read a whole file into memory (fails the test on error). */
stt_buf stt_read_file(const char *path);

/* SHA-256 of data as 64 lowercase hex digits + NUL in out[65]. */
void stt_sha256_hex(const uint8_t *data, size_t len, char out[65]);

#endif
