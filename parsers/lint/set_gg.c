/* set_gg.c: a GGUF split, PREFIX-00001-of-0000N.gguf .. -0000N-of-0000N.gguf,
 * as llama.cpp's gguf-split writes it and llama-model-loader.cpp reads it:
 *  - every part carries split.no (u16, 0-based: part k of the names has
 *    split.no k - 1), split.count (u16) and split.tensors.count (i32, the
 *    tensors of all parts).  The loader reads split.count and
 *    split.tensors.count from the first part, opens PREFIX-%05d-of-%05d.gguf
 *    for the others, refuses a part whose split.no differs from its index
 *    ("invalid split file idx"), a tensor in two parts ("tensor '%s' is
 *    duplicated") and a total that differs ("corrupted model: %d tensors
 *    expected but %d found");
 *  - gguf-split writes the model's metadata into the first part only; the
 *    loader reads it from there (SET104 warns about metadata elsewhere).
 * A split.count that differs in a later part is not read by the loader, but
 * makes the set ambiguous for every other tool: an error here too. */
#include "lint_internal.h"

#include "set_common.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_split_key(const tfs_kv *kv) { return kv->key.len >= 6 && memcmp(kv->key.ptr, "split.", 6) == 0; }

static tfs_status check_u16(tfs_lint_report *r, const tfs_header *h, int part, const char *key, uint64_t want,
                            tfs_lint_rule rule, const char *want_what) {
    const tfs_kv *kv = tfs_find_kv(h, key);
    uint16_t v;
    if (!kv) return tfs__lint_add(r, rule, part, -1, -1, "%s: no %s", r->files[part].path, key);
    if (kv->type != TFS_GG_U16 || tfs_kv_get_u16(h, kv, 0, &v) != TFS_OK)
        return tfs__lint_add(r, rule, part, -1, (int64_t)(kv - h->kv), "%s: %s is a %s, llama.cpp reads a u16",
                             r->files[part].path, key, tfs_gg_vtype_name(kv->type) ? tfs_gg_vtype_name(kv->type) : "?");
    if (v != want)
        return tfs__lint_add(r, rule, part, -1, (int64_t)(kv - h->kv), "%s: %s = %u, expected %llu (%s)",
                             r->files[part].path, key, v, (unsigned long long)want, want_what);
    return TFS_OK;
}

tfs_status tfs__set_gg(const char *first_path, unsigned flags, int lint, const tfs_set_io *io, tfs_lint_report *r) {
    unsigned no, count;
    size_t pl;
    r->format = TFS_FORMAT_GGUF;
    if (!tfs__split_name(first_path, &no, &count, &pl) || no != 1) return TFS_EARG;
    r->is_set = 1;
    const char *of = strstr(first_path + pl, "-of-");
    int width = of ? (int)(of - (first_path + pl) - 1) : 5;
    tfs_status st = TFS_OK;
    const size_t path_cap = pl + 64u; /* a part's name is pl + 20 bytes and its NUL */
    char *path = malloc(path_cap);
    if (!path) return TFS_ENOMEM;
    for (unsigned k = 1; k <= count; k++) {
        snprintf(path, path_cap, "%.*s-%0*u%s", (int)pl, first_path, width, k, of);
        if (tfs__lint_add_file(r, path) < 0) {
            free(path);
            return TFS_ENOMEM;
        }
    }
    free(path);
    tfs_header **hs = calloc(count, sizeof *hs);
    tn_index x = {0};
    if (!hs) return TFS_ENOMEM;
    st |= set_parse_files(r, flags, io, hs, "a part of the split");

    int all = 1; /* every part parsed: the totals are known */
    for (unsigned k = 0; k < count; k++) all &= hs[k] != NULL;
    char what[64];
    int kind0 = -1;     /* the first part's SET103 finding: 0 none, 1 missing, 2 wrong type, 3 wrong value; -1 absent */
    int32_t tc0 = 0;    /* its value (3) */
    uint32_t type0 = 0; /* its type (2) */
    for (unsigned k = 0; k < count; k++) {
        const tfs_header *h = hs[k];
        if (!h) continue;
        snprintf(what, sizeof what, "the file names say -of-%0*u", width, count);
        st |= check_u16(r, h, (int)k, "split.count", count, TFS_SET101, what);
        snprintf(what, sizeof what, "the file name says part %u, 0-based %u", k + 1, k);
        st |= check_u16(r, h, (int)k, "split.no", k, TFS_SET102, what);
        const tfs_kv *kv = tfs_find_kv(h, "split.tensors.count");
        int32_t tc = 0;
        /* one fault, one finding: a later part with the first part's wrong
         * value adds nothing (llama.cpp reads the first part's) */
        int kind = !kv ? 1 : kv->type != TFS_GG_I32 || tfs_kv_get_i32(h, kv, 0, &tc) != TFS_OK ? 2 : 3;
        if (kind == 3 && !(tc < 0 || (all ? (uint64_t)tc != r->n_tensors : (uint64_t)tc < r->n_tensors))) kind = 0;
        if (k == 0) {
            kind0 = kind;
            tc0 = kind == 3 ? tc : 0;
        } else if (kind != 0 && kind == kind0 && (kind != 3 || tc == tc0) && (kind != 2 || kv->type == type0)) {
            kind = 0;
        }
        if (k == 0 && kv) type0 = kv->type;
        if (kind == 1)
            st |= tfs__lint_add(r, TFS_SET103, (int)k, -1, -1, "%s: no split.tensors.count", r->files[k].path);
        else if (kind == 2)
            st |= tfs__lint_add(r, TFS_SET103, (int)k, -1, (int64_t)(kv - h->kv),
                                "%s: split.tensors.count is a %s, llama.cpp reads an i32", r->files[k].path,
                                tfs_gg_vtype_name(kv->type) ? tfs_gg_vtype_name(kv->type) : "?");
        else if (kind == 3)
            st |= tfs__lint_add(r, TFS_SET103, (int)k, -1, (int64_t)(kv - h->kv),
                                "%s: split.tensors.count = %d, the %s hold %zu tensor%s", r->files[k].path, tc,
                                all ? "parts" : "parts present", r->n_tensors, r->n_tensors == 1 ? "" : "s");
        if (k > 0) {
            size_t extra = 0;
            int64_t first = -1;
            for (size_t i = 0; i < h->n_kv; i++) {
                if (is_split_key(&h->kv[i]) ||
                    (h->kv[i].key.len == 17 && memcmp(h->kv[i].key.ptr, "general.alignment", 17) == 0))
                    continue;
                if (first < 0) first = (int64_t)i;
                extra++;
            }
            if (extra)
                st |= tfs__lint_add(
                    r, TFS_SET104, (int)k, -1, first,
                    "%s: %zu metadata key%s besides split.* (first: %.*s); llama.cpp reads the first part's",
                    r->files[k].path, extra, extra == 1 ? "" : "s",
                    (int)(h->kv[first].key.len > 100 ? 100 : h->kv[first].key.len), h->kv[first].key.ptr);
        }
    }
    if (!tfs__tn_build(&x, (const tfs_header *const *)hs, count)) {
        st = TFS_ENOMEM;
    } else {
        st |= set_duplicates(r, &x, hs);
        /* lint needs the whole model (file_type against every tensor) */
        if (lint && all) st |= tfs__lint_gguf((const tfs_header *const *)hs, count, r);
        /* bytes no structure owns, per part (LT113, LT114) */
        for (unsigned k = 0; lint && k < count; k++)
            if (hs[k]) st |= tfs__set_bytes(io, r->files[k].path, hs[k], (int)k, r);
    }
    tfs__tn_free(&x);
    if (st == TFS_OK) st = tfs__lint_name_tensors(r, 0, (const tfs_header *const *)hs, count);
    for (unsigned k = 0; k < count; k++) tfs_header_free(hs[k]);
    free(hs);
    return st == TFS_OK ? st : TFS_ENOMEM;
}
