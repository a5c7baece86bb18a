/*
 * tfs.h: public API of libtfs, the tfs reference parsers for safetensors and GGUF.
 *
 * libtfs reads only the header of a model file (for safetensors the 8-byte size
 * and the JSON header; for GGUF the fixed header, the KV pairs and the tensor
 * infos) and checks it against the rules of include/tfs/rules.def.  Tensor data
 * is never read.  Verdicts mirror the canonical readers:
 *   - safetensors: the Rust crate `safetensors`, tensor.rs
 *     SafeTensors::read_metadata + Metadata::validate (see shared spec);
 *   - GGUF: ggml gguf.cpp gguf_init_from_reader, plus (default profile only)
 *     llama.cpp's loader rule that every tensor's data lies inside the file.
 *
 * Thread safety: no global state.  Distinct calls may run concurrently; a
 * tfs_header may be read from several threads once returned.
 * The library never prints, aborts or exits.
 */
#ifndef TFS_TFS_H
#define TFS_TFS_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/export.h"
#include "tfs/field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ rules */

/* Every rule of rules.def; value = stable CODE column (1000+n: STnnn,
 * 2000+n: GGnnn).  TFS_RULE_NONE (0) means "no rule violated". */
typedef enum tfs_rule {
    TFS_RULE_NONE = 0,
#define TFS_RULE(id, code, fmt, profile, index, category, message, ref) TFS_##id = code,
#include "tfs/rules.def"
#undef TFS_RULE
} tfs_rule;

/* Profile a rule belongs to (PROFILE column of rules.def). */
typedef enum tfs_rule_profile {
    TFS_PROFILE_CANON = 0,   /* every profile */
    TFS_PROFILE_DATA = 1,    /* GGUF default profile only (not --header-only) */
    TFS_PROFILE_STRICT = 2,  /* only with TFS_STRICT */
    TFS_PROFILE_RETIRED = 3, /* never reported any more */
} tfs_rule_profile;

/* Static strings for a rule; never NULL.  For an unknown value: id "?",
 * empty category/message/ref.  Pointers are to static storage (no ownership). */
TFS_API const char *tfs_rule_id(tfs_rule rule);       /* "ST301", "GG204", "" for NONE */
TFS_API const char *tfs_rule_category(tfs_rule rule); /* "InvalidOffset", "BAD_N_DIMS" */
TFS_API const char *tfs_rule_message(tfs_rule rule);  /* one-line human message */
TFS_API const char *tfs_rule_ref(tfs_rule rule);      /* canonical file + function */
TFS_API tfs_rule_profile tfs_rule_profile_of(tfs_rule rule);
/* Parse an id such as "GG204" (case-sensitive); TFS_RULE_NONE if unknown. */
TFS_API tfs_rule tfs_rule_from_id(const char *id);
/* Number of rows in rules.def, and the i-th rule in table order (0-based);
 * TFS_RULE_NONE when i is out of range.  For generating docs and coverage. */
TFS_API size_t tfs_rule_count(void);
TFS_API tfs_rule tfs_rule_at(size_t i);

/* ---------------------------------------------------------------- status */

typedef enum tfs_status {
    TFS_OK = 0,      /* header parsed, no rule violated */
    TFS_INVALID = 1, /* a rule was violated; tfs_error.rule says which */
    TFS_EIO = 2,     /* open/fstat/pread failed; tfs_error.sys_errno is set */
    TFS_ENOMEM = 3,  /* allocation failed */
    TFS_EARG = 4,    /* bad argument (NULL pointer, unknown format) */
    TFS_ETYPE = 5,   /* accessor: the value has another type */
    TFS_ERANGE = 6,  /* accessor: element index out of range */
} tfs_status;

TFS_API const char *tfs_status_name(tfs_status st); /* "ok", "invalid", "io_error", "out_of_memory",
                                                       "bad_argument", "type_mismatch", "out_of_range";
                                                       "?" for another value (static; the spelling of
                                                       the CLI's verdicts) */

/* Error record, filled by every parse function (on TFS_OK: zeroed, with
 * index = -1). */
typedef struct tfs_error {
    tfs_rule rule;       /* violated rule, TFS_RULE_NONE unless TFS_INVALID */
    uint64_t offset;     /* byte offset from the start of the file where the
                            violation was detected (bytes) */
    int64_t index;       /* index of the KV pair or tensor concerned (in file
                            order), -1 when not about one */
    const char *message; /* static message: tfs_rule_message(rule), or for TFS_EIO
                            "I/O error", TFS_ENOMEM "out of memory", TFS_EARG
                            "bad argument" */
    int sys_errno;       /* errno for TFS_EIO, else 0 */
} tfs_error;

/* ---------------------------------------------------------------- formats */

typedef enum tfs_format {
    TFS_FORMAT_UNKNOWN = 0,
    TFS_FORMAT_SAFETENSORS = 1,
    TFS_FORMAT_GGUF = 2,
} tfs_format;

TFS_API const char *tfs_format_name(tfs_format f); /* "safetensors", "gguf", "unknown" */

/* Decide the format of a file: GGUF if the first 4 bytes are "GGUF"; else
 * by the extension of `path` (".gguf" -> GGUF, ".safetensors" -> safetensors),
 * so a damaged .gguf reports its bad magic; else safetensors.
 * `prefix` holds the first `len` bytes of the file (len may be < 4); `path`
 * may be NULL. */
TFS_API tfs_format tfs_detect_format(const uint8_t *prefix, size_t len, const char *path);

/* Parse flags (bitwise or). */
#define TFS_STRICT 1u /* add the STRICT rules (implementation-defined cases) */
#define TFS_HEADER_ONLY \
    2u /* GGUF: exactly ggml's metadata mode (no DATA rules);
                              ignored for safetensors, whose canonical reader
                              always checks the data buffer size */
#define TFS_PARTIAL \
    4u /* on TFS_INVALID, *out still receives a header: what
                              was parsed before the violation (see
                              tfs_header.complete and tfs_header.fail_fields) */

/* ------------------------------------------------------------- the view */

/* A string view: `len` bytes at `ptr`, not NUL-terminated, may contain NUL. */
typedef struct tfs_str {
    const char *ptr;
    size_t len;
} tfs_str;

/* One tensor, in file order (safetensors: JSON order; after the last-wins
 * rule for duplicate names, the surviving entry stays at its first position). */
typedef struct tfs_tensor {
    tfs_str name;          /* decoded name (safetensors escapes resolved) */
    uint32_t type;         /* safetensors: tfs_st_dtype; GGUF: ggml type id */
    uint32_t n_dims;       /* number of dimensions (0 = scalar) */
    const uint64_t *shape; /* n_dims sizes; safetensors: outermost first as in
                                JSON; GGUF: ne[0] (innermost) first as in file */
    uint64_t n_elements;   /* product of shape (1 for a scalar) */
    uint64_t n_bytes;      /* size of the tensor data (bytes) */
    uint64_t offset;       /* offset as stored (bytes): safetensors
                                data_offsets[0], GGUF tensor info offset;
                                relative to the start of the data section */
    uint64_t file_offset;  /* absolute file offset of the data (bytes);
                                with TFS_HEADER_ONLY (GGUF) it may lie past
                                the end of the file, and is UINT64_MAX when
                                the sum does not fit in 64 bits */
} tfs_tensor;

/* GGUF value types (spec/gguf.md), from tfs/gg_vtypes.def: TFS_GG_U8 = 0 ...
 * TFS_GG_F64 = 12, TFS_GG_VTYPE_COUNT = 13. */
typedef enum tfs_gg_vtype {
#define TFS_GG_VTYPE(sym, id, name, size) TFS_GG_##sym = id,
#include "tfs/gg_vtypes.def"
#undef TFS_GG_VTYPE
    TFS_GG_VTYPE_COUNT = 13,
} tfs_gg_vtype;

/* One metadata entry, in file order: a GGUF KV pair or a safetensors
 * `__metadata__` entry.  One meaning for both formats: `type` is a
 * tfs_gg_vtype (safetensors entries are TFS_GG_STRING), `count` the number of
 * elements (1 for a scalar), and the value itself is read with the accessors
 * below (tfs_kv_get_*), never from raw bytes.
 *  - value_offset / value_len: where the value lies in the file as stored
 *    (bytes).  GGUF: a scalar's bytes; a string's u64 length field and its
 *    bytes; an array's elements after its element type and count.
 *    safetensors: the JSON string token of the value, quotes included.
 *    For a mutator or an inspector that edits or shows the stored bytes. */
typedef struct tfs_kv {
    tfs_str key;           /* GGUF: the key bytes as stored; safetensors: decoded.
                                A GGUF key longer than TFS_KEY_KEEP bytes parsed
                                from a file or reader: its first TFS_KEY_KEEP
                                bytes (key_size has the length) */
    uint64_t key_size;     /* the key's length (bytes): key.len, or more for
                                such a long key */
    uint32_t type;         /* tfs_gg_vtype */
    uint32_t elem_type;    /* element type of an array, else == type */
    uint64_t count;        /* array element count, 1 for a scalar */
    uint64_t value_offset; /* file offset of the value as stored (bytes) */
    uint64_t value_len;    /* bytes the value occupies in the file */
} tfs_kv;

/* A parsed header.  Owned by the caller, freed with tfs_header_free.
 * All pointers inside are valid until tfs_header_free, and, for
 * tfs_parse_buffer, only while the caller's buffer lives (views may point
 * into it: zero-copy). */
typedef struct tfs_header {
    tfs_format format;
    uint32_t version;     /* GGUF version (2 or 3); 0 for safetensors */
    uint64_t file_size;   /* bytes; 0 when unknown: a forward-only source
                                parsed with TFS_HEADER_ONLY stops before its end */
    uint64_t header_size; /* safetensors: N, the JSON header length;
                                GGUF: bytes before the data section (incl. padding) */
    uint64_t data_offset; /* file offset of the data section (bytes) */
    uint64_t data_size;   /* bytes the tensors occupy in the data section
                                (GGUF: sum of padded sizes) */
    uint32_t alignment;   /* GGUF general.alignment (default 32); 0 safetensors */
    int has_metadata;     /* safetensors: 1 if __metadata__ was an object */
    size_t n_tensors;
    const tfs_tensor *tensors;
    size_t n_kv;
    const tfs_kv *kv;
    int complete; /* 1 after TFS_OK; 0 for a TFS_PARTIAL header */
    /* TFS_PARTIAL only.  Every listed field but the failing record's own
     * entry (below) was read whole: a field the violation cut is never
     * listed, so a field of width 0 is a whole empty one (an empty key or
     * name), never a cut one.
     * For a violation found while a record was being read (a GGUF KV pair
     * or tensor info): n_kv / n_tensors count the records read completely
     * before it; fail_fields lists first the failing record itself over
     * its bytes read whole (from its start to where reading stopped), then
     * its fields read whole (key or name length and bytes, type, element
     * type, count, dims, offset: file offsets and widths).  The value of a
     * failing KV is never listed (a KV whose value was read whole is
     * complete), though the record spans what was read whole of it (a
     * string's length field, an array's whole elements).  When no byte of
     * the record was read whole (a cut length field), nothing is listed:
     * err->index and err->offset name it.  For a violation found after the
     * records (GGUF alignment, layout, data and strict rules; safetensors
     * offsets and sizes): every record, and err->index names the one
     * concerned.  For safetensors: the entries before a failing entry, and
     * the header's size field and JSON text when read whole (a file under 8
     * bytes: neither; a JSON text shorter than its size field says: the
     * size field only).  NULL / 0 otherwise. */
    const tfs_field *fail_fields;
    size_t n_fail_fields;
    void *priv_; /* library-internal storage; do not touch */
} tfs_header;

/* ------------------------------------------------------------ entry points */

/* Parse a whole file held in memory (zero-copy: views point into `buf`).
 *   buf, len : the complete file (len in bytes).  For GGUF only the header
 *              part is read; len is the file size used by size rules.
 *   format   : TFS_FORMAT_SAFETENSORS, TFS_FORMAT_GGUF, or UNKNOWN to detect
 *              by magic (no path, so no extension fallback).
 *   flags    : TFS_STRICT | TFS_HEADER_ONLY | TFS_PARTIAL.
 *   out      : on TFS_OK (and, with TFS_PARTIAL, on TFS_INVALID) receives a
 *              header to free with tfs_header_free; may be NULL to only
 *              validate.  Set to NULL on every other return.
 *   err      : may be NULL; filled on every return.
 * Returns TFS_OK, TFS_INVALID (err->rule: any ST/GG rule of the format),
 * TFS_ENOMEM, TFS_EARG. */
TFS_API tfs_status tfs_parse_buffer(const uint8_t *buf, size_t len, tfs_format format, unsigned flags, tfs_header **out,
                                    tfs_error *err);

#ifndef TFS_NO_POSIX /* TFS_POSIX=OFF builds have no file API */
/* Parse a file by path, reading only its header with pread (never the tensor
 * data), as tfs_parse_source (safetensors: 8 bytes, then exactly the
 * header; GGUF: a 64 KiB window, so at most TFS_WINDOW bytes past the header
 * are read, never examined).
 * The header keeps its own descriptor (a close-on-exec duplicate, closed by
 * tfs_header_free) to read GGUF string and array values again on demand in
 * the accessors: one descriptor per live header.  A file changed after the
 * parse gives those accessors bytes that were not checked (memory-safe;
 * TFS_EIO if they run past its end).
 *   format   : as above; UNKNOWN detects by magic, then by the extension.
 * Returns as tfs_parse_buffer, plus TFS_EIO (open/fstat/pread failure,
 * err->sys_errno set; EISDIR for a directory, EINVAL for anything else that
 * is not a regular file: FIFOs and devices are refused without being read,
 * and opening never blocks).  Views point into storage owned by the header. */
TFS_API tfs_status tfs_parse_file(const char *path, tfs_format format, unsigned flags, tfs_header **out,
                                  tfs_error *err);

/* Same, on an open file descriptor (positioned reads only; the offset of fd is
 * not changed; fd stays open and owned by the caller; the header keeps its
 * own duplicate, as above).  `path` is only used for format detection by
 * extension and may be NULL. */
TFS_API tfs_status tfs_parse_fd(int fd, const char *path, tfs_format format, unsigned flags, tfs_header **out,
                                tfs_error *err);
#endif

/* Free a header (NULL is allowed). */
TFS_API void tfs_header_free(tfs_header *h);

/* ------------------------------------------------------- the byte source */

/* A caller's positioned, synchronous reader: how bytes reach the parser when
 * they are neither one buffer nor a file descriptor (a Web Worker's
 * FileReaderSync on File.slice, an HTTP range reader, a pipe).
 *
 *   read : read up to `len` bytes at file offset `offset` (bytes) into `buf`;
 *          store the count in *got and return 0.  *got < len only at the end
 *          of the file (0 = nothing left).  Return a positive errno value on
 *          failure (the parse ends with TFS_EIO and err->sys_errno = it).
 *          Never called with len == 0.
 *   ctx  : passed to read as is.
 *   size : the file size (bytes), or TFS_SIZE_UNKNOWN for a stream, whose
 *          size is learnt at its end.
 *   forward : 1 if the reader can only go forward (a pipe, stdin): each call
 *          then starts where the previous one ended; 0 for random access.
 *          Unknown size implies forward.
 *
 * Memory: safetensors keeps the 8 + N header bytes (N <= 100,000,000 by
 * ST002); GGUF keeps a window of TFS_WINDOW bytes plus its records (KV pairs,
 * tensor infos, names, keys up to TFS_KEY_KEEP bytes) and never more of the
 * bodies of string or array values than the bounds below, whatever sizes the
 * file declares.  Two keys longer
 * than TFS_KEY_KEEP are compared by reading them again; on a forward-only
 * source, which cannot, by their length, first TFS_KEY_KEEP bytes and a
 * 64-bit keyed hash of all their bytes (a false duplicate has probability
 * 2^-64 per pair).
 *
 * Forward-only sources give the same verdicts as random access: the parser
 * reads forward and discards what it does not keep; to learn the file size
 * (GGUF GG102/GG130/GG301 need it only when a declared size reaches past what
 * was read; GG304 and the safetensors buffer check always) it reads the
 * stream to its end.  With TFS_HEADER_ONLY a valid GGUF stream is read only
 * up to the data section.  String and array values of a forward-only source
 * cannot be re-read: their accessors return TFS_EIO, except for strings of
 * at most 256 bytes, which the parser keeps (a few bytes per KV pair), and
 * the first TFS_ARRAY_KEEP (64 KiB) bytes of each array, whole elements
 * (64 MiB for all arrays together: bytes that arrived, never a declared
 * size); scalars always work. */
#define TFS_SIZE_UNKNOWN UINT64_MAX
#define TFS_WINDOW (64u * 1024u) /* bytes of the GGUF read window */
#define TFS_KEY_KEEP \
    (64u * 1024u) /* bytes kept of a longer GGUF key (not a
                                      buffer); its duplicate test still uses
                                      all of it */

typedef struct tfs_source {
    int (*read)(void *ctx, uint64_t offset, void *buf, size_t len, size_t *got);
    void *ctx;
    uint64_t size;
    int forward;
} tfs_source;

/* Parse from a caller's reader.  `src` is copied; for random-access readers
 * the returned header keeps the copy and calls read() again from the string
 * and array accessors, so ctx must stay valid until tfs_header_free.
 *   path : only for format detection by extension; may be NULL.
 * Returns as tfs_parse_buffer, plus TFS_EIO (the reader's errno, or EIO
 * when it returned fewer bytes than the size it declared). */
TFS_API tfs_status tfs_parse_source(const tfs_source *src, const char *path, tfs_format format, unsigned flags,
                                    tfs_header **out, tfs_error *err);

/* ----------------------------------------------------------- accessors */

/* Find a KV (GGUF) or __metadata__ entry (safetensors) by its key: the first
 * one whose key equals the `len` bytes at `key` (tfs_find_kv: the C string
 * `key`).  NULL when absent or on NULL arguments.  Points into h. */
TFS_API const tfs_kv *tfs_find_kvn(const tfs_header *h, const char *key, size_t len);
TFS_API const tfs_kv *tfs_find_kv(const tfs_header *h, const char *key);
/* Find a tensor by name (first match, as the canonical readers' lookups). */
TFS_API const tfs_tensor *tfs_find_tensor(const tfs_header *h, const char *name);

/* Typed getters.  `kv` must be one of h->kv (else TFS_EARG).  For a scalar
 * `i` must be 0; for an array `i` is the element index (0-based) and the
 * getter reads that element only.  The type must match exactly: the
 * scalar's type or the array's element type (TFS_ETYPE otherwise; no
 * conversions).  Errors: TFS_EARG (NULL, foreign kv), TFS_ETYPE,
 * TFS_ERANGE (i >= count), TFS_EIO (array elements and strings longer
 * than 256 bytes that are not in memory: reading the source again failed,
 * or a forward-only source; no errno is reported).  Values decode the
 * little-endian bytes as gguf.cpp gguf_get_val_* / gguf_get_arr_data do. */
TFS_API tfs_status tfs_kv_get_u8(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint8_t *out);
TFS_API tfs_status tfs_kv_get_i8(const tfs_header *h, const tfs_kv *kv, uint64_t i, int8_t *out);
TFS_API tfs_status tfs_kv_get_u16(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint16_t *out);
TFS_API tfs_status tfs_kv_get_i16(const tfs_header *h, const tfs_kv *kv, uint64_t i, int16_t *out);
TFS_API tfs_status tfs_kv_get_u32(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint32_t *out);
TFS_API tfs_status tfs_kv_get_i32(const tfs_header *h, const tfs_kv *kv, uint64_t i, int32_t *out);
TFS_API tfs_status tfs_kv_get_u64(const tfs_header *h, const tfs_kv *kv, uint64_t i, uint64_t *out);
TFS_API tfs_status tfs_kv_get_i64(const tfs_header *h, const tfs_kv *kv, uint64_t i, int64_t *out);
TFS_API tfs_status tfs_kv_get_f32(const tfs_header *h, const tfs_kv *kv, uint64_t i, float *out);
TFS_API tfs_status tfs_kv_get_f64(const tfs_header *h, const tfs_kv *kv, uint64_t i, double *out);
/* GGUF bool: the stored byte, 0 -> 0 and anything else -> 1 (as gguf.cpp,
 * which reads it as a C++ bool; TFS_STRICT rejects bytes > 1: GG501). */
TFS_API tfs_status tfs_kv_get_bool(const tfs_header *h, const tfs_kv *kv, uint64_t i, int *out);

/* Any element as a tagged value: `type` the element's tfs_gg_vtype; the
 * integer types in u64 (unsigned, zero-extended) or i64 (signed,
 * sign-extended), f32/f64 in f64, bool in u64 as the stored byte (0 false,
 * anything else true: tfs_kv_get_bool gives 0/1), strings: u64 = length in
 * bytes and `offset` = file offset of the first string byte.  f64 is 0 for
 * every type but f32 and f64. */
typedef struct tfs_value {
    uint32_t type;
    uint64_t u64;
    int64_t i64;
    double f64;
    uint64_t offset;
} tfs_value;
TFS_API tfs_status tfs_kv_get(const tfs_header *h, const tfs_kv *kv, uint64_t i, tfs_value *out);

/* String value (scalar i = 0, or element i of a string array; safetensors
 * __metadata__ values decoded).  When the bytes are in memory (buffer API,
 * safetensors) out->ptr points to them (valid as long as the header and,
 * for tfs_parse_buffer, the caller's buffer) and `buf` is not used.
 * Otherwise the first min(length, cap) bytes are read into `buf` and out
 * points at buf: out->len < the string's length means it was cut (get the
 * full length with tfs_kv_get: u64).  buf may be NULL when cap is 0.
 * Errors as the typed getters (TFS_ETYPE unless a string). */
TFS_API tfs_status tfs_kv_get_string(const tfs_header *h, const tfs_kv *kv, uint64_t i, tfs_str *out, char *buf,
                                     size_t cap);

/* Every element of an array in order, read a block at a time: one read of
 * the source per `cap` bytes of the caller's buffer (tfs_kv_get reads the
 * source once per element, and a string element from the nearest mark).
 * For arrays of files read through a reader or descriptor; in buffer mode
 * nothing is read.  The cursor holds no allocation; a header may be walked
 * by several cursors, in several threads.
 *
 * tfs_kv_cursor_init: start at element 0 of kv (one of h->kv, else
 *   TFS_EARG); buf: cap bytes the caller owns while the cursor is used
 *   (64 KiB is a good size; NULL when cap is 0, for in-memory values).
 * tfs_kv_next: the next element into *v (as tfs_kv_get) and, for strings,
 *   when s is not NULL, its bytes into *s: a pointer into memory or into
 *   buf, valid until the next call; s->len < v->u64 when the string is
 *   longer than cap (its first cap bytes; read it whole with
 *   tfs_kv_get_string).  A scalar is one element.  Errors: TFS_ERANGE after
 *   the last element (or a fixed-size element larger than cap), TFS_EIO when
 *   the source cannot be read again: a forward-only source's arrays keep only
 *   their first TFS_ARRAY_KEEP bytes of whole elements, so the cursor stops
 *   there (cursor->i = the number of elements read). */
#define TFS_ARRAY_KEEP (64u * 1024u)
typedef struct tfs_kv_cursor {
    const tfs_header *h;
    const tfs_kv *kv;
    uint64_t i;   /* index of the next element */
    uint64_t pos; /* file offset of the next element (bytes) */
    uint8_t *buf; /* the caller's block buffer */
    size_t cap;
    uint64_t b_off; /* buf holds file bytes [b_off, b_off + b_len) */
    size_t b_len;
} tfs_kv_cursor;
TFS_API tfs_status tfs_kv_cursor_init(tfs_kv_cursor *c, const tfs_header *h, const tfs_kv *kv, void *buf, size_t cap);
TFS_API tfs_status tfs_kv_next(tfs_kv_cursor *c, tfs_value *v, tfs_str *s);

/* ----------------------------------------------------------------- UTF-8 */

/* UTF-8 with Rust's core::str::from_utf8 rules (the safetensors crate's
 * header check, ST101; GGUF strict keys, strings and
 * tensor names, GG504, GG507, GG508): shortest form only, no
 * surrogates, nothing above U+10FFFF.
 * tfs_utf8_valid_up_to: n if the n bytes at p are valid, else the offset of
 *   the first byte of the first invalid sequence (Utf8Error::valid_up_to).
 * tfs_utf8_decode: length (1-4 bytes) of the valid sequence at p[0, n) and
 *   its code point in *cp (cp may be NULL), or 0 when it is not valid. */
TFS_API size_t tfs_utf8_valid_up_to(const uint8_t *p, size_t n);
TFS_API size_t tfs_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp);

/* -------------------------------------------------------- type tables */

/* safetensors dtypes (spec/safetensors.md), in the crate's Dtype order. */
typedef enum tfs_st_dtype {
#define TFS_ST_DTYPE(sym, name, bits) TFS_ST_##sym,
#include "tfs/st_dtypes.def"
#undef TFS_ST_DTYPE
    TFS_ST_DTYPE_COUNT
} tfs_st_dtype;

TFS_API const char *tfs_st_dtype_name(uint32_t dtype); /* "F32"; NULL if unknown */
TFS_API unsigned tfs_st_dtype_bits(uint32_t dtype);    /* bits per element; 0 if unknown */
/* Look up a dtype by its exact, case-sensitive name of `len` bytes;
 * returns 0 and sets *out on success, -1 if unknown. */
TFS_API int tfs_st_dtype_from_name(const char *name, size_t len, uint32_t *out);

/* ggml types (spec/gguf.md): id, name, block size (elements), type size (bytes
 * per block).  Removed ids have block size 0. */
#define TFS_GG_TYPE_COUNT 43u
TFS_API const char *tfs_gg_type_name(uint32_t type);    /* "q4_K"; NULL if out of range or removed */
TFS_API uint32_t tfs_gg_type_block_size(uint32_t type); /* elements per block; 0 removed/out of range */
TFS_API uint32_t tfs_gg_type_size(uint32_t type);       /* bytes per block; 0 removed/out of range */
TFS_API const char *tfs_gg_vtype_name(uint32_t vtype);  /* "u32", "string", ...; NULL if > 12 */
TFS_API size_t tfs_gg_vtype_size(uint32_t vtype);       /* fixed size in bytes; 0 for string/array/unknown */

#ifdef __cplusplus
}
#endif

#include "tfs/rules.h"
#include "tfs/version.h"
#endif /* TFS_TFS_H */
