/*
 * field.h: the field map of a model file.  A field is one contiguous run of
 * bytes of the file that holds one syntactic item (a count, a length, a type
 * id, one dimension, one offset, one JSON token, ...), identified by its kind,
 * the record it belongs to and a sub-index.  The writer (tfs/write.h) returns
 * the map of everything it wrote; the parser's partial results use the same
 * type.  A mutator edits exactly one field by rewriting the bytes
 * [offset, offset + width) of the file.
 *
 * Fields may nest: a record-level field (TFS_FIELD_KV, TFS_FIELD_TENSOR_INFO,
 * TFS_FIELD_ENTRY, TFS_FIELD_JSON, ...) covers the fields inside it.  In a
 * map, fields are ordered by offset; an enclosing field comes before the
 * fields it contains.
 */
#ifndef TFS_FIELD_H
#define TFS_FIELD_H

#include <stdint.h>

#include "tfs/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a field holds.  Values are stable (append only).
 * `record` and `sub` of tfs_field are given for each kind; "header" means
 * record = -1.  Widths are bytes; GGUF integers are little-endian. */
typedef enum tfs_field_kind {
    /* ---------------------------------------------------------- GGUF */
    TFS_FIELD_MAGIC = 0,      /* "GGUF", 4 bytes; header */
    TFS_FIELD_VERSION = 1,    /* u32; header */
    TFS_FIELD_N_TENSORS = 2,  /* u64 (v2/v3); header */
    TFS_FIELD_N_KV = 3,       /* u64; header */
    TFS_FIELD_KEY_LEN = 4,    /* u64 key length; record = KV index */
    TFS_FIELD_KEY = 5,        /* key bytes; record = KV index */
    TFS_FIELD_VALUE_TYPE = 6, /* u32 gguf_type of the value; record = KV index */
    TFS_FIELD_ELEM_TYPE = 7,  /* u32 element type of an array; record = KV index */
    TFS_FIELD_COUNT = 8,      /* u64 element count of an array; record = KV index */
    TFS_FIELD_STR_LEN = 9,    /* u64 string length; record = KV index,
                                  sub = element index (0 for a scalar string) */
    TFS_FIELD_STR = 10,       /* string bytes; record, sub as STR_LEN */
    TFS_FIELD_VALUE = 11,     /* one fixed-size value (1..8 bytes); record =
                                  KV index, sub = element index (0 scalar) */
    TFS_FIELD_NAME_LEN = 12,  /* u64 tensor name length; record = tensor index */
    TFS_FIELD_NAME = 13,      /* tensor name bytes; record = tensor index.
                                  safetensors: the entry's name token, a JSON
                                  string with its quotes, as written */
    TFS_FIELD_N_DIMS = 14,    /* u32; record = tensor index */
    TFS_FIELD_DIM = 15,       /* GGUF: i64 ne[sub]; safetensors: the number
                                  token shape[sub]; record = tensor index */
    TFS_FIELD_TYPE = 16,      /* u32 ggml type id; record = tensor index */
    TFS_FIELD_OFFSET = 17,    /* u64 data offset; record = tensor index */
    TFS_FIELD_PADDING = 18,   /* header padding: GGUF the bytes between the last
                                  tensor info and the data section; safetensors
                                  the trailing spaces of the JSON header; header */
    TFS_FIELD_DATA = 19,      /* tensor data bytes; record = tensor index */
    /* --------------------------------------------------- safetensors */
    TFS_FIELD_HEADER_SIZE = 20,  /* u64 N, 8 bytes; header */
    TFS_FIELD_JSON = 21,         /* the JSON text (N bytes incl. padding); header */
    TFS_FIELD_ENTRY = 22,        /* one tensor member `"name": {...}`; record =
                                    entry index in JSON order (as written) */
    TFS_FIELD_DTYPE = 23,        /* the dtype value token ("F32" with quotes);
                                    record = entry index */
    TFS_FIELD_SHAPE = 24,        /* the shape array token [..]; record = entry index */
    TFS_FIELD_DATA_OFFSETS = 25, /* the data_offsets array token; record = entry index */
    TFS_FIELD_BEGIN = 26,        /* data_offsets[0] number token; record = entry index */
    TFS_FIELD_END = 27,          /* data_offsets[1] number token; record = entry index */
    TFS_FIELD_METADATA = 28,     /* the `"__metadata__": {...}` member; header */
    TFS_FIELD_META_KEY = 29,     /* a __metadata__ key token (quoted); record =
                                    index in the __metadata__ object */
    TFS_FIELD_META_VALUE = 30,   /* a __metadata__ value token; record as META_KEY */
    TFS_FIELD_MEMBER_KEY = 31,   /* a key token inside an entry ("dtype",
                                    "shape", "data_offsets" or another);
                                    record = entry index, sub = member position */
    /* ---------------------------------------------- records (GGUF) */
    TFS_FIELD_KV = 32,           /* a whole KV pair; record = KV index */
    TFS_FIELD_TENSOR_INFO = 33,  /* a whole tensor info; record = tensor index */
    TFS_FIELD_DATA_PADDING = 34, /* GGUF: pad bytes after tensor `record`'s data
                                    up to the next aligned offset */
    TFS_FIELD_ARRAY_DATA = 35,   /* GGUF: all elements of an array value (after
                                    elem type and count); record = KV index */
    TFS_FIELD_KIND_COUNT = 36
} tfs_field_kind;

/* One field: bytes [offset, offset + width) of the file. */
typedef struct tfs_field {
    uint32_t kind;   /* tfs_field_kind */
    int32_t record;  /* KV, tensor or entry index in file order; -1 header */
    uint32_t sub;    /* dim index for DIM, element index for array elements
                        and strings, member position for MEMBER_KEY, else 0 */
    uint64_t offset; /* file offset (bytes) */
    uint64_t width;  /* bytes (may exceed what is materialised: a string body
                        written as a hole is still one field) */
} tfs_field;

/* Static lower-case name of a field kind ("n_kv", "key_len", "dtype", ...);
 * "?" for an unknown value.  Never NULL; no ownership. */
TFS_API const char *tfs_field_kind_name(uint32_t kind);

#ifdef __cplusplus
}
#endif
#endif /* TFS_FIELD_H */
