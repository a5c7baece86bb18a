/* nomem.h: allocation failures on demand for the unit tests.  A program
 * that uses it is linked with TFS_TEST_NOMEM_WRAP (tests/CMakeLists.txt:
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc),
 * so libtfs's allocations go through nomem.c, which can make the N-th one
 * return NULL. */
#ifndef TFS_TEST_NOMEM_H
#define TFS_TEST_NOMEM_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/tfs.h"

/* Count allocations from now and make number `fail` (0 = the next) return
 * NULL (-1: none fails); disarm stops failing and returns the count. */
void tfs_test_nomem_arm(long fail);
long tfs_test_nomem_disarm(void);

/* on != 0: from now on malloc(0), calloc with a zero count or size and
 * aligned_alloc of 0 bytes return NULL, as C allows (glibc and musl return
 * a pointer); a caller that takes that NULL for a failed allocation reports
 * TFS_ENOMEM where there is no shortage.  0: the C library's answer again.
 * Independent of tfs_test_nomem_arm. */
void tfs_test_nomem_zero_null(int on);

/* the byte paths of one parse: tfs_parse_buffer, a random-access reader
 * source, a forward-only stream (tests/common/sources.h) */
enum { TFS_TEST_BUFFER, TFS_TEST_READER, TFS_TEST_STREAM };

/* One parse of p[0, n) as `format` with `flags` through path `how`, the
 * allocation numbered `fail` (0 = the parse's first) returning NULL; -1:
 * none fails.  *allocs (when not NULL): the allocations the parse made.
 * The reader and stream sources are static: the header (values read later)
 * stays valid until the next call. */
tfs_status tfs_test_nomem_parse(int how, const uint8_t *p, size_t n, tfs_format format, unsigned flags, long fail,
                                long *allocs, tfs_header **h, tfs_error *e);

/* For each path, parse p[0, n) once without failures (ref), then with
 * allocation 0, 1, ... failing up to the count of a whole parse: each parse
 * ends in TFS_ENOMEM (no header, no rule, offset 0, index -1, errno 0) or
 * in ref's status, rule, offset and index; an accepted view is then compared
 * by same(how, buffer_ref, ref, h) (buffer_ref: the buffer path's view),
 * or, when same is NULL, by tfs_test_assert_same_view(ref, h).  cmocka
 * assertions. */
typedef void (*tfs_test_same_fn)(int how, const tfs_header *buffer_ref, const tfs_header *ref, const tfs_header *h);
void tfs_test_nomem_every_allocation(const uint8_t *p, size_t n, tfs_format format, unsigned flags,
                                     tfs_test_same_fn same);

#endif
