/*
 * write.h: the one writer of libtfs, for both formats.
 *
 * A model describes a file close to the wire (GGUF: version, KV pairs with
 * typed values, tensor infos, alignment, data; safetensors: entries,
 * __metadata__, JSON layout).  The writer serialises it into a tfs_wbuf with
 * offsets and padding computed, and records a field map (tfs/field.h): the
 * byte offset and width of every count, length, type, dim, offset and token,
 * so a mutation can edit exactly one field.  For every valid model,
 * parse(write(m)) gives back m (tests/write/).
 *
 * Knobs write a file wrong on purpose: explicit offsets, counts, lengths,
 * header size, n_dims, pad byte values, omitted padding or data, raw type
 * ids, JSON member order, whitespace and raw tokens.  The writer never
 * refuses a model because the result would be invalid; it only refuses what
 * it cannot write (TFS_EARG) or allocate (TFS_ENOMEM).
 *
 * Large declared sizes cost no memory: a string body (or tensor data) may be
 * a hole, N zero bytes that are not materialised.  The buffer is a list of
 * segments (bytes | hole); tfs_wbuf_write_file writes it as a sparse file,
 * tfs_wbuf_flatten makes one buffer when it is small.
 *
 * Thread safety: no global state; distinct tfs_wbuf objects may be used from
 * distinct threads.  Nothing here prints or aborts.
 */
#ifndef TFS_WRITE_H
#define TFS_WRITE_H

#include "tfs/field.h"
#include "tfs/tfs.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================================ the buffer */

/* One run of the output: `len` bytes at file offset `offset`, either
 * materialised (hole = 0; bytes at tfs_wbuf.p + pos) or a hole of zeros. */
typedef struct tfs_wseg {
    uint64_t offset; /* file offset (bytes) */
    uint64_t len;    /* bytes */
    size_t pos;      /* materialised: index of the first byte in tfs_wbuf.p */
    int hole;        /* 1: `len` zero bytes, not materialised */
} tfs_wseg;

/* An output file under construction.  Zero-initialise it (`tfs_wbuf w = {0}`)
 * or call tfs_wbuf_init; release with tfs_wbuf_free.  Read the members
 * freely; change them only through the functions below, except that the
 * materialised bytes p[0, len) may be edited in place (a mutation).
 * When the buffer has no hole, p[0, len) is the whole file (len == size) and
 * an index into p is a file offset.
 *
 * Errors are sticky: once an append fails, `err` holds TFS_ENOMEM or
 * TFS_EARG, every later append does nothing and returns it, so a writer may
 * check once at the end. */
typedef struct tfs_wbuf {
    uint8_t *p;     /* materialised bytes, in file order, holes left out */
    size_t len;     /* bytes in p */
    size_t cap;     /* bytes allocated for p */
    uint64_t size;  /* file size: materialised bytes + holes (bytes) */
    tfs_wseg *segs; /* segments in file order; adjacent ones of the same kind merge */
    size_t n_segs, segs_cap;
    tfs_field *fields; /* the field map, in the order written (by offset;
                           an enclosing field before the fields inside it) */
    size_t n_fields, fields_cap;
    tfs_status err; /* TFS_OK, or the first failure */
} tfs_wbuf;

/* Set every member to its empty state (same as `= {0}`). */
TFS_API void tfs_wbuf_init(tfs_wbuf *w);
/* Release the bytes, segments and fields and re-initialise; w may be NULL.
 * Pointers into w (p, segs, fields) become invalid. */
TFS_API void tfs_wbuf_free(tfs_wbuf *w);

/* Appends.  Each returns TFS_OK, TFS_ENOMEM (allocation failed), TFS_EARG
 * (w NULL, src NULL with n > 0, or the file size would pass UINT64_MAX or
 * the materialised bytes SIZE_MAX), or the sticky error.  All integers are
 * written little-endian, byte by byte. */
TFS_API tfs_status tfs_wbuf_bytes(tfs_wbuf *w, const void *src, size_t n);
TFS_API tfs_status tfs_wbuf_fill(tfs_wbuf *w, uint8_t byte, size_t n); /* n copies of byte */
TFS_API tfs_status tfs_wbuf_hole(tfs_wbuf *w, uint64_t n);             /* n zero bytes, not materialised */
TFS_API tfs_status tfs_wbuf_u8(tfs_wbuf *w, uint8_t v);
TFS_API tfs_status tfs_wbuf_u16(tfs_wbuf *w, uint16_t v);
TFS_API tfs_status tfs_wbuf_u32(tfs_wbuf *w, uint32_t v);
TFS_API tfs_status tfs_wbuf_u64(tfs_wbuf *w, uint64_t v);
/* Append one field to the map (kind: tfs_field_kind; offset, width in bytes;
 * need not lie inside what is written yet). */
TFS_API tfs_status tfs_wbuf_field(tfs_wbuf *w, uint32_t kind, int32_t record, uint32_t sub, uint64_t offset,
                                  uint64_t width);

/* Cut the file to `size` bytes (size <= w->size; TFS_EARG otherwise).
 * Segments and materialised bytes past it are dropped; fields are kept
 * (they may then extend past the end: a truncated file). */
TFS_API tfs_status tfs_wbuf_truncate(tfs_wbuf *w, uint64_t size);

/* Pointer to the `n` materialised bytes at file offset `offset`, or NULL when
 * any of them lies in a hole or past the end.  Valid until the next append;
 * writes through it edit the file. */
TFS_API uint8_t *tfs_wbuf_at(const tfs_wbuf *w, uint64_t offset, size_t n);

/* The first field of `kind` with this record and sub, or NULL. */
TFS_API const tfs_field *tfs_wbuf_find(const tfs_wbuf *w, uint32_t kind, int32_t record, uint32_t sub);

/* Copy the whole file, holes as zeros, into one malloc'd buffer of w->size
 * bytes (*out, caller frees; at least 1 byte is allocated).  Refuses
 * (TFS_EARG) when w->size > max_bytes or w->err != TFS_OK; TFS_ENOMEM. */
TFS_API tfs_status tfs_wbuf_flatten(const tfs_wbuf *w, uint64_t max_bytes, uint8_t **out, size_t *out_len);

#ifndef TFS_NO_POSIX /* posix_wbuf_file.c */
/* Write the file at offsets [0, size) of `fd` (pwrite; the fd's position is
 * not used), holes by leaving gaps and a final ftruncate, so
 * a file system with sparse files stores only the materialised bytes.  The
 * fd must be a regular file opened for writing; it stays owned by the caller.
 * Returns TFS_OK, TFS_EIO (*sys_errno = errno, may be NULL), TFS_EARG. */
TFS_API tfs_status tfs_wbuf_write_fd(const tfs_wbuf *w, int fd, int *sys_errno);
/* Create or truncate `path` (mode 0644) and write the file as above. */
TFS_API tfs_status tfs_wbuf_write_file(const tfs_wbuf *w, const char *path, int *sys_errno);
#endif

/* ============================================================ strings */

/* A string as written: `len` bytes at `ptr`, then `hole` further zero bytes
 * written as a hole (not materialised).  GGUF writes a u64 length field of
 * len + hole unless len_set, when it writes len_field instead (a declared
 * length different from the bytes).  safetensors uses ptr/len only. */
typedef struct tfs_wstr {
    const void *ptr;    /* may be NULL when len == 0 */
    size_t len;         /* bytes */
    uint64_t hole;      /* bytes */
    int len_set;        /* knob */
    uint64_t len_field; /* knob: the length field as written */
} tfs_wstr;

TFS_API tfs_wstr tfs_wstr_c(const char *s);             /* NUL-terminated text (borrowed) */
TFS_API tfs_wstr tfs_wstr_n(const void *p, size_t len); /* len bytes (borrowed) */
TFS_API tfs_wstr tfs_wstr_hole(uint64_t len);           /* len zero bytes, a hole */

/* ============================================================== GGUF */

/* A value as written after its type field.
 *   type     : value type id written (tfs_gg_vtype, or any u32: a raw id).
 *   STRING   : strs[0] (n_strs >= 1), else the raw bytes.
 *   ARRAY    : u32 elem_type, u64 count, then the n_strs strings of strs when
 *              strs != NULL, else raw_len bytes of raw (the elements as
 *              stored, little-endian).  For a valid array count equals the
 *              number of elements; any other count is a knob.
 *   other    : raw_len bytes of raw when raw != NULL, else the first
 *              tfs_gg_vtype_size(type) bytes of scalar (0 bytes for an
 *              unknown type id).
 * Pointers are borrowed and must stay valid until the write returns. */
typedef struct tfs_gg_wvalue {
    uint32_t type;
    uint32_t elem_type;
    uint64_t count;
    const uint8_t *raw;
    size_t raw_len;    /* bytes */
    uint8_t scalar[8]; /* little-endian scalar */
    const tfs_wstr *strs;
    size_t n_strs;
} tfs_gg_wvalue;

/* Value constructors (no allocation).  tfs_gg_wval_scalar writes the low
 * tfs_gg_vtype_size(type) bytes of `bits` (any fixed-size type; floats by
 * their IEEE bits). */
TFS_API tfs_gg_wvalue tfs_gg_wval_scalar(uint32_t type, uint64_t bits);
TFS_API tfs_gg_wvalue tfs_gg_wval_f32(float v);
TFS_API tfs_gg_wvalue tfs_gg_wval_f64(double v);
/* One string: count 1, strs = s, n_strs 1 (0 when s is NULL). */
TFS_API tfs_gg_wvalue tfs_gg_wval_str(const tfs_wstr *s);
/* Array of fixed-size elements: `raw` holds them as stored (raw_len bytes);
 * count is written as given. */
TFS_API tfs_gg_wvalue tfs_gg_wval_array(uint32_t elem_type, uint64_t count, const void *raw, size_t raw_len);
TFS_API tfs_gg_wvalue tfs_gg_wval_str_array(const tfs_wstr *strs, size_t n);

typedef struct tfs_gg_wkv {
    tfs_wstr key;
    tfs_gg_wvalue value;
} tfs_gg_wkv;

#define TFS_GG_WMAX_DIMS 8u /* ne values a tensor info can carry (ggml: 4) */

/* A tensor info and its data. */
typedef struct tfs_gg_wtensor {
    tfs_wstr name;
    uint32_t n_dims;               /* ne values written (<= TFS_GG_WMAX_DIMS) and,
                                        unless n_dims_set, the n_dims field */
    uint64_t ne[TFS_GG_WMAX_DIMS]; /* i64 bits as stored; ne[0] innermost */
    uint32_t type;                 /* ggml type id as written (any u32) */
    const void *data;              /* n_bytes of data; NULL: zeros, as a hole */
    /* knobs */
    int n_dims_set;
    uint32_t n_dims_field; /* n_dims field as written */
    int offset_set;
    uint64_t offset; /* offset field as written */
    int data_len_set;
    uint64_t data_len; /* bytes of data written instead of n_bytes
                                        (bytes from `data` up to n_bytes, then zeros) */
} tfs_gg_wtensor;

/* Model flags (knobs). */
#define TFS_GGW_NO_HEADER_PAD 1u /* no padding between tensor infos and data */
#define TFS_GGW_NO_DATA_PAD \
    2u                     /* no padding after each tensor's data (the
                                     offset fields still count it) */
#define TFS_GGW_NO_DATA 4u /* stop after the header padding (no tensor data) */

typedef struct tfs_gg_model {
    uint32_t version; /* written as is (2 and 3 are valid) */
    size_t n_kv;
    const tfs_gg_wkv *kv;
    size_t n_tensors;
    const tfs_gg_wtensor *tensors;
    uint32_t alignment; /* layout alignment (bytes); 0: the value of a
                                       u32 general.alignment KV when present and
                                       non-zero, else 32 (gguf.cpp GGUF_DEFAULT_ALIGNMENT) */
    /* knobs */
    const char *magic; /* 4 bytes written instead of "GGUF"; NULL: "GGUF" */
    int n_tensors_set;
    uint64_t n_tensors_field; /* n_tensors field as written */
    int n_kv_set;
    uint64_t n_kv_field; /* n_kv field as written */
    uint8_t pad_byte;    /* value of every padding byte (0 in valid files) */
    unsigned flags;      /* TFS_GGW_* */
} tfs_gg_model;

/* Data bytes of a tensor (ggml_nbytes for a row-major tensor: ne[0] / block
 * size * type size * ne[1] * ...).  Returns 0 and *out on success, -1 for an
 * unknown or removed type, a negative ne, ne[0] not a multiple of the block
 * size, or overflow. */
TFS_API int tfs_gg_tensor_nbytes(uint32_t type, uint32_t n_dims, const uint64_t *ne, uint64_t *out);

/* Serialise `m` to the end of `w` (normally empty: field offsets are file
 * offsets only then).  Layout as gguf.cpp gguf_write_to_buf: header, KV
 * pairs, tensor infos, padding to the alignment, then each tensor's data
 * padded to the alignment; unless offset_set, each tensor's offset field is
 * the running sum of the padded data sizes (first 0).  A tensor whose size
 * cannot be computed (tfs_gg_tensor_nbytes fails) counts 0 bytes unless
 * data_len_set.  Fields: every kind of the GGUF part of tfs/field.h.
 * Returns TFS_OK, TFS_EARG (m or w NULL, n_dims > TFS_GG_WMAX_DIMS, a NULL
 * pointer with a non-zero length), TFS_ENOMEM; w->err keeps it. */
TFS_API tfs_status tfs_gg_write(const tfs_gg_model *m, tfs_wbuf *w);

/* The parts tfs_gg_write is made of, for tests and mutators that write a
 * file piece by piece (record: KV or tensor index for the field map).
 * put_header: magic (NULL: "GGUF"), version, n_tensors, n_kv (24 bytes).
 * put_str: u64 length + body; len_kind / str_kind name the two fields.
 * put_key: key string + u32 value type (the value is not written).
 * put_value: the value after the type field (see tfs_gg_wvalue).
 * put_kv: put_key + put_value, and a TFS_FIELD_KV field around them.
 * put_tensor_info: name, n_dims, ne, type, `offset` (the field as written).
 * Errors as tfs_gg_write. */
TFS_API tfs_status tfs_gg_put_header(tfs_wbuf *w, const char *magic, uint32_t version, uint64_t n_tensors,
                                     uint64_t n_kv);
TFS_API tfs_status tfs_gg_put_str(tfs_wbuf *w, const tfs_wstr *s, uint32_t len_kind, uint32_t str_kind, int32_t record,
                                  uint32_t sub);
TFS_API tfs_status tfs_gg_put_key(tfs_wbuf *w, int32_t record, const tfs_wstr *key, uint32_t type);
TFS_API tfs_status tfs_gg_put_value(tfs_wbuf *w, int32_t record, const tfs_gg_wvalue *v);
TFS_API tfs_status tfs_gg_put_kv(tfs_wbuf *w, int32_t record, const tfs_gg_wkv *kv);
TFS_API tfs_status tfs_gg_put_tensor_info(tfs_wbuf *w, int32_t record, const tfs_gg_wtensor *t, uint64_t offset);

/* Build the model of a parsed GGUF file (view -> model), so that
 * tfs_gg_write(model) parses to an equal view.  Tensor offsets are left to
 * be computed (offset_set = 0); data is a hole; alignment is h->alignment.
 *   h        : a parsed GGUF header (TFS_OK), from any API; array values
 *              are taken whole as stored, other values with the accessors
 *              (tfs_kv_get*), copied into the model where they are not in
 *              memory.
 *   out      : receives the model, freed with tfs_gg_model_free.  It borrows
 *              key and tensor names (and, for tfs_parse_buffer, strings and
 *              arrays) from h and its buffer: free it before them.
 * Returns TFS_OK, TFS_EARG (NULL argument, not GGUF, n_dims above
 * TFS_GG_WMAX_DIMS, a key longer than TFS_KEY_KEEP parsed from a file or
 * reader, of which the view holds only the first bytes), TFS_ENOMEM, or an accessor's TFS_EIO (a forward-only
 * source cannot be re-read). */
TFS_API tfs_status tfs_gg_model_from_view(const tfs_header *h, tfs_gg_model **out);
TFS_API void tfs_gg_model_free(tfs_gg_model *m); /* NULL allowed */

/* ======================================================= safetensors */

/* One tensor entry.  Tokens default to what the crate's serializer writes
 * (serde_json); each *_raw knob replaces one token by the given text,
 * written verbatim (NULL: generated). */
typedef struct tfs_st_wentry {
    tfs_wstr name;  /* decoded name (UTF-8); escaped as needed */
    uint32_t dtype; /* tfs_st_dtype */
    uint32_t n_dims;
    const uint64_t *shape; /* n_dims sizes, outermost first */
    const void *data;      /* end - begin data bytes; NULL: data_fill */
    /* knobs */
    int offsets_set;
    uint64_t begin, end;     /* data_offsets as written */
    const char *name_raw;    /* the name token incl. quotes */
    const char *dtype_raw;   /* the dtype value token, e.g. "\"F99\"" or "{\"U8\":null}" */
    const char *shape_raw;   /* the whole shape value */
    const char *offsets_raw; /* the whole data_offsets value */
    const char *begin_raw;   /* the begin number token */
    const char *end_raw;     /* the end number token */
    const char *members;     /* member order, letters d(type) s(hape) o(ffsets)
                                    x(extra); NULL: "dso".  Repeating or leaving
                                    out a letter repeats or drops that member;
                                    with array_form, the array's elements in
                                    that order ("ds": 2 elements, ST204) */
    const char *extra;       /* raw member text for 'x', e.g. "\"x\":1"
                                    (an array element with array_form, e.g. "0") */
    int array_form;          /* write ["dtype",[shape],[begin,end]] */
} tfs_st_wentry;

/* One __metadata__ pair (string -> string). */
typedef struct tfs_st_wmeta {
    tfs_wstr key, value;   /* decoded text; escaped as needed */
    const char *key_raw;   /* knob: the key token incl. quotes */
    const char *value_raw; /* knob: the value token (e.g. "1" for a number) */
} tfs_st_wmeta;

/* How __metadata__ appears. */
typedef enum tfs_st_wmeta_mode {
    TFS_STW_META_ABSENT = 0, /* no __metadata__ member */
    TFS_STW_META_OBJECT = 1, /* an object of the n_meta pairs (may be {}) */
    TFS_STW_META_NULL = 2,   /* "__metadata__":null (MLX) */
} tfs_st_wmeta_mode;

typedef struct tfs_st_model {
    size_t n_entries;
    const tfs_st_wentry *entries;
    uint32_t metadata; /* tfs_st_wmeta_mode */
    size_t n_meta;
    const tfs_st_wmeta *meta;
    size_t meta_pos; /* entries written before __metadata__ (0: first;
                                    >= n_entries: last) */
    /* layout */
    unsigned indent;         /* 0: compact (serde_json to_string); n: one member
                                    per line, n spaces per level, ": " after keys */
    int ascii;               /* escape every non-ASCII character as \uXXXX */
    unsigned pad_to;         /* pad the JSON with trailing spaces to a multiple
                                    of this (bytes); 0: 8, as the crate's
                                    serializer; 1: no padding */
    const char *leading_ws;  /* raw text before '{' (NULL: none) */
    const char *trailing_ws; /* raw text after '}' and before the padding */
    /* knobs */
    const void *raw_json; /* the whole header text verbatim instead of the
                                    generated JSON (entries then only give data) */
    size_t raw_json_len;  /* bytes */
    int header_size_set;
    uint64_t header_size; /* the u64 N field as written */
    int data_len_set;
    uint64_t data_len; /* bytes of data buffer written (default: the
                                    largest end offset) */
    uint8_t data_fill; /* value of data bytes no entry provides; 0: a hole */
} tfs_st_model;

/* Serialise `m` to the end of `w` (normally empty): u64 N, the JSON header
 * padded with spaces, the data buffer.  Unless offsets_set, an entry's
 * data_offsets are the running sum of the byte sizes of the entries before it
 * (in model order), each size n_elements * bits / 8 (0 when that overflows).
 * Data: entries' bytes at their begin offsets, the rest data_fill.
 * Fields: HEADER_SIZE, JSON, ENTRY, NAME, MEMBER_KEY, DTYPE, SHAPE, DIM,
 * DATA_OFFSETS, BEGIN, END, METADATA, META_KEY, META_VALUE, PADDING, DATA
 * (record = entry or metadata pair index in model order).  With raw_json only
 * HEADER_SIZE, JSON, PADDING and DATA.
 * Returns TFS_OK, TFS_EARG (NULL pointer with a non-zero count, unknown dtype
 * without dtype_raw), TFS_ENOMEM. */
TFS_API tfs_status tfs_st_write(const tfs_st_model *m, tfs_wbuf *w);

/* Build the model of a parsed safetensors file (view -> model): entries in
 * view order with their offsets (offsets_set only when they differ from the
 * computed running sum), __metadata__ pairs, compact layout.  The model
 * borrows names and values from h: free it (tfs_st_model_free) before h.
 * Returns TFS_OK, TFS_EARG (NULL, not safetensors), TFS_ENOMEM. */
TFS_API tfs_status tfs_st_model_from_view(const tfs_header *h, tfs_st_model **out);
TFS_API void tfs_st_model_free(tfs_st_model *m); /* NULL allowed */

#ifdef __cplusplus
}
#endif
#endif /* TFS_WRITE_H */
