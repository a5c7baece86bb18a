/*
 * internal.h: shared internals of the libtfs parsers (not installed).
 * - checked arithmetic helpers,
 * - tfs_src: the byte source (caller buffer, or a pread window that grows),
 * - tfs_fail: the single exit for every rule violation.
 */
#ifndef TFS_INTERNAL_H
#define TFS_INTERNAL_H

#include "tfs/tfs.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TFS_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TFS_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define TFS_UNLIKELY(x) (x)
#define TFS_LIKELY(x) (x)
#endif

/* Checked arithmetic: return true on overflow (like the builtins). */
static inline bool tfs_add_overflow_u64(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline bool tfs_mul_overflow_u64(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_mul_overflow(a, b, r); }

/* Little-endian loads by byte shifts (never by casting pointers). */
static inline uint16_t tfs_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t tfs_le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t tfs_le64(const uint8_t *p) { return (uint64_t)tfs_le32(p) | ((uint64_t)tfs_le32(p + 4) << 32); }

/*
 * Byte source.  Buffer mode: `buf` is the whole file (fd = -1).  File mode:
 * `win` holds the file's bytes [0, win_len), read with pread on demand; it
 * grows (at least doubling, never past file_size), so a pointer returned by
 * tfs_src_get is valid only until the next tfs_src_get.  Store offsets, and
 * resolve pointers with tfs_src_base() once parsing is over.
 */
typedef struct tfs_src {
    const uint8_t *buf;  /* buffer mode: caller's bytes */
    uint64_t file_size;  /* bytes */
    int fd;              /* -1 in buffer mode */
    uint8_t *win;        /* file mode: owned window */
    size_t win_len;      /* bytes valid in win */
    size_t win_cap;      /* bytes allocated for win */
    int io_errno;        /* set when a pread failed */
    bool nomem;          /* set when growing the window failed */
} tfs_src;

/* Bytes [off, off + n) of the file, or NULL when they are not all inside the
 * file (the caller reports truncation), or on I/O / memory failure (then
 * src->io_errno or src->nomem is set; check with tfs_src_failed). */
const uint8_t *tfs_src_get(tfs_src *s, uint64_t off, size_t n);
static inline bool tfs_src_failed(const tfs_src *s) { return s->io_errno != 0 || s->nomem; }
/* Base pointer of file offset 0 in the current window (or the buffer). */
static inline const uint8_t *tfs_src_base(const tfs_src *s) { return s->fd >= 0 ? s->win : s->buf; }
/* Bytes left in the file after `off` (0 if off >= file_size). */
static inline uint64_t tfs_src_left(const tfs_src *s, uint64_t off) { return off >= s->file_size ? 0 : s->file_size - off; }

/* Make room for one more element of `elem` bytes in the growable array `arr`
 * of capacity *cap holding `used` elements (doubling, first 16).  Arrays only
 * ever grow with entries actually parsed, never with a declared count.
 * Returns the array (moved or not; *cap updated), or NULL on overflow or
 * allocation failure, when `arr` is still valid and owned by the caller. */
void *tfs_reserve(void *arr, size_t *cap, size_t used, size_t elem);

/* Keyed string hash for duplicate detection (core/hash.c).  tfs_hash_seed
 * draws a fresh seed per parse (getrandom), so hash tables cannot be flooded
 * by crafted names; results never depend on it. */
uint64_t tfs_hash_seed(void);
uint64_t tfs_hash_bytes(uint64_t seed, const uint8_t *p, size_t n);

/* Library-internal storage hung off tfs_header.priv_. */
typedef struct tfs_priv {
    uint8_t *window;  /* file mode: the window (owned), views point into it */
    void *blocks[6];  /* format-owned allocations, each released with free() */
} tfs_priv;

/* Allocate a zeroed header with its priv (NULL on ENOMEM). */
tfs_header *tfs_header_new(tfs_format format, uint64_t file_size);

/* Record a violation and return TFS_INVALID.  The one exit for every rule:
 * one place for a breakpoint, one place to count rule coverage. */
tfs_status tfs_fail(tfs_error *err, tfs_rule rule, uint64_t offset, int64_t index);
/* Record a non-rule failure (TFS_EIO / TFS_ENOMEM / TFS_EARG). */
tfs_status tfs_fail_status(tfs_error *err, tfs_status st, int sys_errno);
/* TFS_EIO or TFS_ENOMEM from a failed tfs_src. */
tfs_status tfs_fail_src(tfs_error *err, const tfs_src *s);

/* Format parsers.  On TFS_OK, *out (if out != NULL) receives the header; in
 * file mode the parser does not take the window (api.c moves it into priv). */
tfs_status tfs_st_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err);
tfs_status tfs_gg_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err);

#endif /* TFS_INTERNAL_H */
