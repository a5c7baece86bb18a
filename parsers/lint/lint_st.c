/* lint_st.c: safetensors conventions beyond the crate's verdict (LT3xx):
 * what the crate's own serializer writes (header padded with spaces so the
 * data starts at a multiple of 8), what zero-copy readers need (each
 * tensor's data aligned to its element size), and the __metadata__ "format"
 * values that loaders know (transformers: pt, tf, flax, mlx). */
#include "lint_internal.h"

#include <string.h>

static const char *const known_formats[] = {"pt", "tf", "flax", "mlx", "np", "numpy", "paddle"};

tfs_status tfs__lint_st(const tfs_header *h, int part, const uint8_t *head, size_t head_len, tfs_lint_report *r) {
    tfs_status st = TFS_OK;
    uint64_t hdr = h->data_offset; /* 8 + N */
    if (hdr % 8u != 0)
        st |= tfs__lint_add(r, TFS_LT301, part, -1, -1,
                            "header is 8 + %llu = %llu bytes; the crate's serializer pads it to a multiple of 8",
                            (unsigned long long)h->header_size, (unsigned long long)hdr);
    if (head && head_len >= hdr && hdr > 8u) {
        /* the JSON ends at its last '}'; what follows is the padding */
        size_t end = (size_t)hdr;
        while (end > 8u && head[end - 1] != '}') end--;
        for (size_t i = end; i < (size_t)hdr; i++) {
            if (head[i] != ' ') {
                st |= tfs__lint_add(
                    r, TFS_LT302, part, -1, -1,
                    "byte 0x%02x at offset %zu in the padding after the JSON; the serializer pads with spaces", head[i],
                    i);
                break;
            }
        }
    }
    size_t misaligned = 0;
    int64_t first = -1;
    for (size_t i = 0; i < h->n_tensors; i++) {
        unsigned bits = tfs_st_dtype_bits(h->tensors[i].type);
        if (bits < 16 || h->tensors[i].n_bytes == 0) continue;
        if (h->tensors[i].file_offset % (bits / 8u) != 0) {
            if (first < 0) first = (int64_t)i;
            misaligned++;
        }
    }
    if (first >= 0) {
        const tfs_tensor *t = &h->tensors[first];
        const char *dn = tfs_st_dtype_name(t->type);
        st |= tfs__lint_add(r, TFS_LT303, part, first, -1,
                            "%.*s: %s data at file offset %llu, not a multiple of %u (%zu tensor%s misaligned)",
                            (int)t->name.len, t->name.ptr, dn ? dn : "?", (unsigned long long)t->file_offset,
                            tfs_st_dtype_bits(t->type) / 8u, misaligned, misaligned == 1 ? "" : "s");
    }
    const tfs_kv *fmt = tfs_find_kv(h, "format");
    tfs_str v;
    if (fmt && tfs_kv_get_string(h, fmt, 0, &v, NULL, 0) == TFS_OK) {
        int known = 0;
        for (size_t k = 0; k < sizeof known_formats / sizeof known_formats[0]; k++)
            if (strlen(known_formats[k]) == v.len && memcmp(known_formats[k], v.ptr, v.len) == 0) known = 1;
        if (!known)
            st |= tfs__lint_add(r, TFS_LT304, part, -1, (int64_t)(fmt - h->kv),
                                "__metadata__ format \"%.*s\": not pt, tf, flax, mlx, np, numpy or paddle",
                                (int)(v.len > 64 ? 64 : v.len), v.ptr);
    }
    return st;
}
