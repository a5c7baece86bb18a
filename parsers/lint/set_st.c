/* set_st.c: a safetensors index (NAME.safetensors.index.json, as
 * transformers and huggingface_hub write it: {"metadata": {"total_size":
 * N}, "weight_map": {tensor name: shard file name}}) against its shards.
 * total_size is the sum of the tensors' data bytes (huggingface_hub
 * split_torch_state_dict_into_shards: the sum of each stored tensor's
 * nbytes), which equals the sum of tfs_tensor.n_bytes over the shards. */
#include "lint_internal.h"

#include "set_common.h"
#include <stdlib.h>
#include <string.h>

typedef struct wm_name {
    const char *name;
    size_t len;
} wm_name;

static int cmp_wm(const void *pa, const void *pb) {
    const wm_name *a = pa, *b = pb;
    int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len < b->len ? -1 : a->len > b->len);
}

tfs_status tfs__set_st(const char *index_path, unsigned flags, int lint, const char *config_path, const tfs_set_io *io,
                       tfs_lint_report *r) {
    char *text = NULL;
    size_t len = 0;
    int e = 0;
    r->format = TFS_FORMAT_SAFETENSORS;
    tfs_status st = tfs__set_slurp(io, index_path, TFS_LINT_INDEX_MAX, &text, &len, &e);
    if (st == TFS_ENOMEM) return st;
    if (st != TFS_OK) return TFS_EIO;
    r->is_set = 1;
    const char *why = NULL;
    int oom = 0;
    lj_node *root = tfs__lj_parse(text, len, &why, &oom);
    free(text);
    if (!root) {
        if (oom) return TFS_ENOMEM;
        return tfs__lint_add(r, TFS_SET001, -1, -1, -1, "%s: not JSON (%s)", index_path, why);
    }
    const lj_node *wm = tfs__lj_get(root, "weight_map");
    if (!wm || wm->type != LJ_OBJ) {
        tfs__lj_free(root);
        return tfs__lint_add(r, TFS_SET001, -1, -1, -1, "%s: no \"weight_map\" object", index_path);
    }
    char *dir = tfs__lint_dirname(index_path);
    int *shard_of = calloc(wm->n ? wm->n : 1u, sizeof *shard_of);
    wm_name *names = calloc(wm->n ? wm->n : 1u, sizeof *names);
    tfs_header **hs = NULL;
    tn_index x = {0};
    set_series series = {0};
    if (!dir || !shard_of || !names) goto nomem;
    /* the shards, in order of first appearance */
    for (size_t i = 0; i < wm->n; i++) {
        const lj_node *v = &wm->kids[i];
        names[i].name = wm->keys[i].s;
        names[i].len = wm->keys[i].len;
        shard_of[i] = -1;
        /* one normal form for every spelling of a shard: "./s1" and "s1" are one file (shard_name.c) */
        char *norm = NULL;
        shard_name_kind sk = v->type == LJ_STR ? tfs__lint_shard_name(v->s, v->len, &norm) : SHARD_NOT_FILE;
        if (sk == SHARD_NOMEM) goto nomem;
        if (sk != SHARD_OK) {
            st |= tfs__lint_add(r, TFS_SET001, -1, -1, -1, "%s: weight_map[\"%.*s\"] is %s", index_path,
                                (int)(wm->keys[i].len > 200 ? 200 : wm->keys[i].len), wm->keys[i].s,
                                v->type != LJ_STR      ? "not a string"
                                : sk == SHARD_NOT_FILE ? "not a file name"
                                                       : "a path outside the index's folder");
            continue;
        }
        char *p = tfs__lint_join(dir, norm);
        free(norm);
        if (!p) goto nomem;
        int found = -1;
        for (size_t k = 0; k < r->n_files && found < 0; k++)
            if (strcmp(r->files[k].path, p) == 0) found = (int)k;
        if (found < 0) found = tfs__lint_add_file(r, p);
        free(p);
        if (found < 0) goto nomem;
        shard_of[i] = found;
    }
    hs = calloc(r->n_files ? r->n_files : 1u, sizeof *hs);
    if (!hs) goto nomem;
    st |= set_parse_files(r, flags, io, hs, "named by the index");
    if (!tfs__tn_build(&x, (const tfs_header *const *)hs, r->n_files)) goto nomem;

    /* every index tensor in the shard it names; the bytes of the tensors the
     * index names, each once (in the shard it names, else where it is found).
     * total_size may be that or the shards' tensors each once (a writer that
     * counted a tensor the index then left out): a duplicate (SET005) or a
     * tensor the index does not name (SET008) is its own finding, not also a
     * wrong total (SET007) */
    size_t n4 = 0;
    uint64_t named_bytes = 0;
    for (size_t i = 0; i < wm->n; i++) {
        int s = shard_of[i];
        size_t count = 0;
        const tn_entry *t = s < 0 ? NULL : tfs__tn_find(&x, names[i].name, names[i].len, &count);
        const tn_entry *at = t;
        for (size_t k = 0; t && k < count; k++)
            if ((int)t[k].part == s) at = &t[k];
        if (at && (i == 0 ||
                   !(names[i].len == names[i - 1].len && memcmp(names[i].name, names[i - 1].name, names[i].len) == 0)))
            named_bytes += hs[at->part]->tensors[at->index].n_bytes;
        if (s < 0 || !hs[s]) continue; /* not a name, or the shard is missing / invalid: reported */
        int in_named = 0;
        for (size_t k = 0; t && k < count; k++) in_named |= (int)t[k].part == s;
        if (in_named) continue;
        if (n4++ >= SET_PER_RULE) continue;
        if (t)
            st |= tfs__lint_add(r, TFS_SET004, (int)t->part, t->index, -1, "%.*s: the index names %s, found in %s",
                                (int)names[i].len, names[i].name, r->files[s].path, r->files[t->part].path);
        else {
            const char *where = NULL;
            if (tfs__series_find(&series, r, dir, io, names[i].name, names[i].len, &where) != TFS_OK) goto nomem;
            if (where)
                st |= tfs__lint_add(r, TFS_SET004, s, -1, -1,
                                    "%.*s: the index names %s, found in %s (a file of the same series the index "
                                    "does not name)",
                                    (int)names[i].len, names[i].name, r->files[s].path, where);
            else
                st |= tfs__lint_add(r, TFS_SET004, s, -1, -1, "%.*s: the index names %s, found in no shard",
                                    (int)names[i].len, names[i].name, r->files[s].path);
        }
    }
    if (n4 > SET_PER_RULE)
        st |= tfs__lint_add(r, TFS_SET004, -1, -1, -1, "%zu more tensors not in the shard the index names",
                            n4 - SET_PER_RULE);
    st |= set_duplicates(r, &x, hs);

    /* the shards' tensors, each name once (x is sorted by name) */
    uint64_t unique_bytes = 0;
    for (size_t i = 0; i < x.n; i++)
        if (i == 0 || x.v[i].len != x.v[i - 1].len || memcmp(x.v[i].name, x.v[i - 1].name, x.v[i].len) != 0)
            unique_bytes += hs[x.v[i].part]->tensors[x.v[i].index].n_bytes;

    /* shard tensors the index does not name */
    qsort(names, wm->n, sizeof *names, cmp_wm);
    size_t n8 = 0;
    for (size_t i = 0; i < x.n; i++) {
        wm_name key = {x.v[i].name, x.v[i].len};
        if (bsearch(&key, names, wm->n, sizeof *names, cmp_wm)) continue;
        if (n8++ < SET_PER_RULE)
            st |= tfs__lint_add(r, TFS_SET008, (int)x.v[i].part, x.v[i].index, -1,
                                "%.*s: in %s, not in the index's weight_map (loaders skip it)", (int)x.v[i].len,
                                x.v[i].name, r->files[x.v[i].part].path);
    }
    if (n8 > SET_PER_RULE)
        st |= tfs__lint_add(r, TFS_SET008, -1, -1, -1, "%zu more shard tensors not in the index", n8 - SET_PER_RULE);

    /* metadata.total_size */
    const lj_node *ts = tfs__lj_get(tfs__lj_get(root, "metadata"), "total_size");
    uint64_t total;
    int all = 1;
    for (size_t i = 0; i < r->n_files; i++) all &= hs[i] != NULL;
    if (!tfs__lj_u64(ts, &total))
        st |= tfs__lint_add(r, TFS_SET009, -1, -1, -1, "%s: metadata.total_size %s", index_path,
                            ts ? "is not a non-negative integer" : "is missing");
    else if (all && total != named_bytes && total != unique_bytes && named_bytes == unique_bytes)
        st |= tfs__lint_add(r, TFS_SET007, -1, -1, -1,
                            "metadata.total_size = %llu, the shards' tensors hold %llu bytes (each tensor once)",
                            (unsigned long long)total, (unsigned long long)named_bytes);
    else if (all && total != named_bytes && total != unique_bytes)
        st |=
            tfs__lint_add(r, TFS_SET007, -1, -1, -1,
                          "metadata.total_size = %llu; the tensors the index names hold %llu bytes, the shards' "
                          "tensors %llu (each tensor once)",
                          (unsigned long long)total, (unsigned long long)named_bytes, (unsigned long long)unique_bytes);
    else if (!all && total < named_bytes && total < unique_bytes)
        st |= tfs__lint_add(
            r, TFS_SET007, -1, -1, -1, "metadata.total_size = %llu, less than the %llu bytes of the shards present",
            (unsigned long long)total, (unsigned long long)(named_bytes < unique_bytes ? named_bytes : unique_bytes));

    if (lint) {
        for (size_t i = 0; i < r->n_files; i++) {
            if (!hs[i]) continue;
            uint8_t *head = NULL;
            size_t hl = 0;
            if (tfs__set_st_head(io, r->files[i].path, &head, &hl) == TFS_ENOMEM) goto nomem;
            st |= tfs__lint_st(hs[i], (int)i, head, hl, r);
            free(head);
        }
        char *config = NULL;
        size_t clen = 0;
        char *cp = config_path ? NULL : tfs__lint_join(dir, "config.json");
        if (!config_path && !cp) goto nomem;
        tfs_status cs = tfs__set_slurp(io, config_path ? config_path : cp, TFS_LINT_CONFIG_MAX, &config, &clen, NULL);
        free(cp);
        if (cs == TFS_ENOMEM) { /* not "no config.json": that would change the findings */
            st = cs;
        } else if (config_path && cs != TFS_OK) {
            st = TFS_EIO;
        } else {
            /* MLX across the shards (a .scales may lie in another shard than its weight) */
            st |= tfs__lint_mlx((const tfs_header *const *)hs, r->n_files, config, config ? clen : 0, r);
        }
        free(config);
    }
    if (tfs__lint_name_tensors(r, 0, (const tfs_header *const *)hs, r->n_files) != TFS_OK) goto nomem;
    goto done;
nomem:
    st = TFS_ENOMEM;
done:
    tfs__series_free(&series);
    tfs__tn_free(&x);
    for (size_t i = 0; hs && i < r->n_files; i++) tfs_header_free(hs[i]);
    free(hs);
    free(names);
    free(shard_of);
    free(dir);
    tfs__lj_free(root);
    return st == TFS_OK || st == TFS_EIO ? st : TFS_ENOMEM;
}
