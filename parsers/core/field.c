/*
 * field.c: names of the field kinds of tfs/field.h (the field map shared by
 * the writer and the parsers' partial results).
 */
#include "tfs/field.h"

#include <stddef.h>

static const char *const kind_names[TFS_FIELD_KIND_COUNT] = {
    [TFS_FIELD_MAGIC] = "magic",
    [TFS_FIELD_VERSION] = "version",
    [TFS_FIELD_N_TENSORS] = "n_tensors",
    [TFS_FIELD_N_KV] = "n_kv",
    [TFS_FIELD_KEY_LEN] = "key_len",
    [TFS_FIELD_KEY] = "key",
    [TFS_FIELD_VALUE_TYPE] = "value_type",
    [TFS_FIELD_ELEM_TYPE] = "elem_type",
    [TFS_FIELD_COUNT] = "count",
    [TFS_FIELD_STR_LEN] = "str_len",
    [TFS_FIELD_STR] = "str",
    [TFS_FIELD_VALUE] = "value",
    [TFS_FIELD_NAME_LEN] = "name_len",
    [TFS_FIELD_NAME] = "name",
    [TFS_FIELD_N_DIMS] = "n_dims",
    [TFS_FIELD_DIM] = "dim",
    [TFS_FIELD_TYPE] = "type",
    [TFS_FIELD_OFFSET] = "offset",
    [TFS_FIELD_PADDING] = "padding",
    [TFS_FIELD_DATA] = "data",
    [TFS_FIELD_HEADER_SIZE] = "header_size",
    [TFS_FIELD_JSON] = "json",
    [TFS_FIELD_ENTRY] = "entry",
    [TFS_FIELD_DTYPE] = "dtype",
    [TFS_FIELD_SHAPE] = "shape",
    [TFS_FIELD_DATA_OFFSETS] = "data_offsets",
    [TFS_FIELD_BEGIN] = "begin",
    [TFS_FIELD_END] = "end",
    [TFS_FIELD_METADATA] = "metadata",
    [TFS_FIELD_META_KEY] = "meta_key",
    [TFS_FIELD_META_VALUE] = "meta_value",
    [TFS_FIELD_MEMBER_KEY] = "member_key",
    [TFS_FIELD_KV] = "kv",
    [TFS_FIELD_TENSOR_INFO] = "tensor_info",
    [TFS_FIELD_DATA_PADDING] = "data_padding",
    [TFS_FIELD_ARRAY_DATA] = "array_data",
};

const char *tfs_field_kind_name(uint32_t kind) {
    if (kind >= TFS_FIELD_KIND_COUNT || kind_names[kind] == NULL) return "?";
    return kind_names[kind];
}
