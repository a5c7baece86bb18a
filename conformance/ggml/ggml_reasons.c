/* ggml_reasons.c: see ggml_reasons.h. */
#include "ggml_reasons.h"

#include <stddef.h>
#include <string.h>

static const struct {
    const char *needle, *category;
} reasons[] = {
    /* data mode only: the context for the declared data cannot be sized or
     * allocated (not a category of ours: tfs says GG304, data missing) */
    {"memory size overflow while allocating ggml context", "ALLOC"},
    {"failed to initialize ggml context", "ALLOC"},
    {"failed to read magic", "TRUNCATED"},
    {"invalid magic characters", "BAD_MAGIC"},
    {"bad GGUF version", "BAD_VERSION"},
    {"is extremely large", "BAD_VERSION"},
    {"no longer supported", "BAD_VERSION"},
    {"only supports up to version", "BAD_VERSION"},
    {"number of tensors is", "BAD_N_TENSORS"},
    {"number of key value pairs is", "BAD_N_KV"},
    {"failed to read header", "TRUNCATED"},
    {"exceeds maximum", "STRING_TOO_LONG"},
    {"exceeds remaining file size", "STRING_TOO_LONG"},
    {"is empty", "EMPTY_KEY"},
    {"duplicate key", "DUPLICATE_KEY"},
    {"has invalid GGUF type", "BAD_KV_TYPE"},
    {"failed to read key-value pairs", "TRUNCATED"},
    {"must be of type", "BAD_ALIGN_TYPE"},
    {"is not a power of 2", "BAD_ALIGN"},
    {"is too long", "NAME_TOO_LONG"},
    {"duplicate tensor name", "DUPLICATE_NAME"},
    {"invalid number of dimensions", "BAD_N_DIMS"},
    {"has invalid number of elements", "NEGATIVE_DIM"},
    {"total number of elements", "NE_TOO_BIG"},
    {"invalid ggml type", "BAD_TYPE"},
    {"not a multiple of block size", "BLOCK_SIZE"},
    {"size in bytes >", "NBYTES_TOO_BIG"},
    {"failed to read tensor info", "TRUNCATED"},
    {"failed to seek to beginning of data section", "DATA_START_PAST_EOF"},
    {"has offset", "BAD_OFFSET"},
    {"size overflow", "SIZE_OVERFLOW"},
    {"failed to read tensor data binary blob", "DATA_MISSING"},
};

const char *ggml_reason_category(const char *msg) {
    if (!msg || strcmp(msg, "-") == 0) return NULL;
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strstr(msg, reasons[i].needle)) return reasons[i].category;
    return NULL;
}
