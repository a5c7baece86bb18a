/* sources.h: test helpers shared by the unit tests of both formats.
 *  - tfs_test_assert_same_values: two views hold equal KV values, read with
 *    the accessors (every element of every array, every string);
 *  - tfs_test_sources_agree: the same bytes parsed through the caller-reader
 *    source, random access and forward-only (a stream of unknown size, read
 *    in odd-sized pieces), give the verdict, rule, offset, index and view of
 *    the buffer API.
 * cmocka assertions: include after <cmocka.h>. */
#ifndef TFS_TEST_SOURCES_H
#define TFS_TEST_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/tfs.h"

void tfs_test_assert_same_values(const tfs_header *a, const tfs_header *b);
/* Two views are equal: header fields, every tensor, every KV value. */
/* Every element of every KV read in order with tfs_kv_cursor (16-byte
 * blocks): ref's equal tfs_kv_get's; h's equal ref's, or, when h is a
 * forward-only source's view, up to where it stopped keeping (TFS_EIO past
 * TFS_ARRAY_KEEP bytes of an array or for a string scalar above 256 bytes). */
/* A forward-only source over the n bytes at p (a pipe's contract: size
 * unknown, reads in order); st holds its position. */
typedef struct tfs_test_stream {
    const uint8_t *p;
    size_t n;
    uint64_t next;
} tfs_test_stream;
void tfs_test_stream_source(tfs_source *src, tfs_test_stream *st, const uint8_t *p, size_t n);
/* A reader over memory that hands out at most `step` bytes per call and
 * checks the forward-only contract when `forward` is set (next: where the
 * next call must start). */
typedef struct tfs_test_reader {
    const uint8_t *p;
    size_t n;
    size_t step;
    int forward;
    uint64_t next;
} tfs_test_reader;
/* A random-access source of size n over the bytes at p, `step` bytes at
 * most per read; r holds its state. */
void tfs_test_reader_source(tfs_source *src, tfs_test_reader *r, const uint8_t *p, size_t n, size_t step);
void tfs_test_assert_cursor_values(const tfs_header *ref, const tfs_header *h, int forward);
void tfs_test_assert_same_view(const tfs_header *a, const tfs_header *b);
void tfs_test_sources_agree(const uint8_t *p, size_t n, tfs_format format, unsigned flags);
/* The unit tests' second API beside tfs_parse_buffer: the file API on a
 * temporary copy (tfs_parse_file), or in TFS_POSIX=OFF builds the reader
 * source (random access, 7-byte reads) over the same bytes, which must stay
 * alive until *out is freed (one such header at a time). */
tfs_status tfs_test_parse_second(const uint8_t *p, size_t n, tfs_format format, unsigned flags, tfs_header **out,
                                 tfs_error *err);

#endif
