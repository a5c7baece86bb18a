/*
 * gg_build.h: test helpers for the GGUF parser tests.
 *  - gb: thin wrappers over the writer's GGUF parts (tfs/write.h:
 *    tfs_gg_put_*, tfs_wbuf_*) for tests that build files piece by piece,
 *    returning the file offsets of the fields written, so tests assert
 *    offsets taken from the writer, not from the parser;
 *  - gg_expect_*: run a file through tfs_parse_buffer AND tfs_parse_file (a
 *    temporary file) and assert both give the same verdict, rule, offset,
 *    index and view.
 * Helpers use cmocka assertions (include after <cmocka.h>).
 */
#ifndef TFS_TEST_GG_BUILD_H
#define TFS_TEST_GG_BUILD_H

#include "tfs/tfs.h"
#include "tfs/write.h"

#include <stddef.h>
#include <stdint.h>

/* The file under construction is the writer's buffer (tfs/write.h), always
 * flat here (no holes): p[0, len) is the file.  Zero-initialise (`gb b = {0}`),
 * free with gb_free (the buffer can then be reused).  Every helper asserts
 * that the writer succeeded. */
typedef tfs_wbuf gb;

void gb_free(gb *b);
void gb_bytes(gb *b, const void *src, size_t n);
void gb_zeros(gb *b, size_t n);
void gb_u8(gb *b, uint8_t v);
void gb_u16(gb *b, uint16_t v);
void gb_u32(gb *b, uint32_t v);
void gb_u64(gb *b, uint64_t v);
/* u64 length + n bytes; returns the offset of the length field */
size_t gb_strn(gb *b, const void *s, size_t n);
size_t gb_str(gb *b, const char *s);
/* zero bytes up to a multiple of `align` */
void gb_pad(gb *b, size_t align);
/* cut the file to `len` bytes (later helpers append there) */
void gb_truncate(gb *b, size_t len);

/* "GGUF", version, n_tensors, n_kv (24 bytes) */
void gb_header(gb *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv);

/* Offsets of a KV's fields. */
typedef struct gb_kv_at {
    size_t start; /* key length field */
    size_t type;  /* value type field */
    size_t elem;  /* array: element type field */
    size_t count; /* array: count field */
    size_t value; /* first value byte (string: its length field) */
} gb_kv_at;

/* Key and type; the caller writes the value.  at.value = offset after type. */
gb_kv_at gb_kv(gb *b, const char *key, uint32_t type);
gb_kv_at gb_kv_u32(gb *b, const char *key, uint32_t v);
gb_kv_at gb_kv_str(gb *b, const char *key, const char *v);
/* Array header (type 9, element type, count); the caller writes elements. */
gb_kv_at gb_kv_arr(gb *b, const char *key, uint32_t elem_type, uint64_t count);

/* Offsets of a tensor info's fields. */
typedef struct gb_ti_at {
    size_t start, n_dims, ne[4], type, offset;
} gb_ti_at;

gb_ti_at gb_ti(gb *b, const char *name, uint32_t n_dims, const int64_t *ne, int32_t type, uint64_t offset);
/* same with a name of `name_len` bytes (may hold NUL) */
gb_ti_at gb_tin(gb *b, const void *name, size_t name_len, uint32_t n_dims, const int64_t *ne, int32_t type,
                uint64_t offset);

/* Parse `b` with flags through both APIs and assert TFS_INVALID with the
 * given rule, byte offset and index from both. */
void gg_expect_invalid(const gb *b, unsigned flags, tfs_rule rule, uint64_t offset, int64_t index);
/* Same on raw bytes. */
void gg_expect_invalid_bytes(const uint8_t *p, size_t n, unsigned flags, tfs_rule rule, uint64_t offset, int64_t index);
/* Assert TFS_OK through both APIs with identical views; returns the buffer
 * API's header (views point into b->p: keep b alive), caller frees. */
tfs_header *gg_expect_ok(const gb *b, unsigned flags);

/* Padded size helper. */
static inline uint64_t gg_pad(uint64_t x, uint64_t a) { return (x + a - 1u) / a * a; }

#endif
