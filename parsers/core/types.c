/* types.c: safetensors dtype, ggml type and GGUF value type tables (st_dtypes.def, gg_types.def, gg_vtypes.def). */
#include "internal.h"

typedef struct st_dtype_row {
    const char *name;
    unsigned char len;
    unsigned char bits;
} st_dtype_row;
static const st_dtype_row k_st[] = {
#define TFS_ST_DTYPE(sym, name, bits) {name, (unsigned char)(sizeof(name) - 1), bits},
#include "tfs/st_dtypes.def"
#undef TFS_ST_DTYPE
};

const char *tfs_st_dtype_name(uint32_t d) { return d < TFS_ST_DTYPE_COUNT ? k_st[d].name : NULL; }
unsigned tfs_st_dtype_bits(uint32_t d) { return d < TFS_ST_DTYPE_COUNT ? k_st[d].bits : 0; }

int tfs_st_dtype_from_name(const char *name, size_t len, uint32_t *out) {
    if (!name || len == 0) return -1;
    for (uint32_t i = 0; i < TFS_ST_DTYPE_COUNT; i++) {
        /* length and first byte first: a memcmp call only for a likely match */
        if (k_st[i].len == len && k_st[i].name[0] == name[0] && memcmp(k_st[i].name, name, len) == 0) {
            if (out) *out = i;
            return 0;
        }
    }
    return -1;
}

typedef struct gg_type_row {
    const char *name;
    uint32_t blck;
    uint32_t size;
} gg_type_row;
static const gg_type_row k_gg[TFS_GG_TYPE_COUNT] = {
#define TFS_GG_TYPE(id, name, blck, size) [id] = {name, blck, size},
#include "tfs/gg_types.def"
#undef TFS_GG_TYPE
};

const char *tfs_gg_type_name(uint32_t t) { return t < TFS_GG_TYPE_COUNT ? k_gg[t].name : NULL; }
uint32_t tfs_gg_type_block_size(uint32_t t) { return t < TFS_GG_TYPE_COUNT ? k_gg[t].blck : 0; }
uint32_t tfs_gg_type_size(uint32_t t) { return t < TFS_GG_TYPE_COUNT ? k_gg[t].size : 0; }

static const char *const k_vt_names[TFS_GG_VTYPE_COUNT] = {
#define TFS_GG_VTYPE(sym, id, name, size) [id] = name,
#include "tfs/gg_vtypes.def"
#undef TFS_GG_VTYPE
};
static const unsigned char k_vt_size[TFS_GG_VTYPE_COUNT] = {
#define TFS_GG_VTYPE(sym, id, name, size) [id] = size,
#include "tfs/gg_vtypes.def"
#undef TFS_GG_VTYPE
};

const char *tfs_gg_vtype_name(uint32_t v) { return v < TFS_GG_VTYPE_COUNT ? k_vt_names[v] : NULL; }
size_t tfs_gg_vtype_size(uint32_t v) { return v < TFS_GG_VTYPE_COUNT ? k_vt_size[v] : 0; }
