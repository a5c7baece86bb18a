/* set_series.c: the files of a safetensors set's series that its index does
 * not name.  Shards are named PREFIX-NNNNN-of-MMMMM.safetensors
 * (transformers, huggingface_hub); a tensor the index places in a shard
 * that lacks it may lie in another file of the same series left beside the
 * index (an older cut, a shard the index forgot).  SET004 then says where
 * it is instead of "in no shard".  Only headers are read. */
#include "lint_internal.h"

#include <stdlib.h>
#include <string.h>

#define SERIES_FILES_MAX 64u /* unnamed files of a series read at most */

/* The length of PREFIX when base is PREFIX-<digits>-of-<digits>.safetensors,
 * else 0. */
static size_t series_prefix(const char *base) {
    static const char ext[] = ".safetensors";
    size_t n = strlen(base), e = sizeof ext - 1u;
    if (n <= e || strcmp(base + n - e, ext) != 0) return 0;
    size_t i = n - e, j = i;
    while (j > 0 && base[j - 1] >= '0' && base[j - 1] <= '9') j--;
    if (j == i || j < 4 || memcmp(base + j - 4, "-of-", 4) != 0) return 0;
    i = j - 4;
    j = i;
    while (j > 0 && base[j - 1] >= '0' && base[j - 1] <= '9') j--;
    if (j == i || j < 2 || base[j - 1] != '-') return 0;
    return j - 1u;
}

static const char *base_of(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void tfs__series_free(set_series *s) {
    for (size_t i = 0; i < s->n; i++) {
        free(s->paths[i]);
        tfs_header_free(s->hs[i]);
    }
    free(s->paths);
    free(s->hs);
    memset(s, 0, sizeof *s);
}

/* One entry of the folder: read its header when it is a file of the
 * series of s->r's files that they do not hold (arg: the set_series). */
static void series_add(void *arg, const char *name) {
    set_series *s = arg;
    if (s->oom || s->n >= SERIES_FILES_MAX) return;
    size_t pl = series_prefix(name);
    if (!pl) return;
    bool same = false, named = false;
    for (size_t k = 0; k < s->r->n_files; k++) {
        const char *b = base_of(s->r->files[k].path);
        same |= series_prefix(b) == pl && memcmp(b, name, pl) == 0;
        named |= strcmp(b, name) == 0;
    }
    if (!same || named) return;
    char *p = tfs__lint_join(s->dir, name);
    char **pv = p ? realloc(s->paths, (s->n + 1u) * sizeof *pv) : NULL;
    if (pv) s->paths = pv;
    tfs_header **hv = pv ? realloc(s->hs, (s->n + 1u) * sizeof *hv) : NULL;
    if (hv) s->hs = hv;
    if (!p || !pv || !hv) {
        free(p);
        s->oom = true;
        return;
    }
    tfs_header *h = NULL;
    tfs_status st = tfs__set_parse(s->io, p, TFS_FORMAT_SAFETENSORS, 0, &h, NULL);
    if (st == TFS_ENOMEM) {
        free(p);
        s->oom = true;
    } else if (st != TFS_OK) {
        free(p); /* unreadable or invalid: not a place to look */
    } else {
        s->paths[s->n] = p;
        s->hs[s->n++] = h;
    }
}

/* Read the headers of the folder's files of the series of r->files that
 * r->files does not hold.  false: out of memory. */
static bool series_load(set_series *s, const tfs_lint_report *r, const char *dir, const tfs_set_io *io) {
    s->loaded = true;
    s->r = r;
    s->dir = dir;
    s->io = io;
    (void)tfs__set_list(io, dir, series_add, s); /* a folder that cannot be read: nowhere to look */
    return !s->oom;
}

tfs_status tfs__series_find(set_series *s, const tfs_lint_report *r, const char *dir, const tfs_set_io *io,
                            const char *name, size_t len, const char **where) {
    *where = NULL;
    if (!s->loaded && !series_load(s, r, dir, io)) return TFS_ENOMEM;
    for (size_t i = 0; i < s->n && !*where; i++)
        for (size_t k = 0; k < s->hs[i]->n_tensors; k++) {
            const tfs_str *t = &s->hs[i]->tensors[k].name;
            if (t->len == len && memcmp(t->ptr, name, len) == 0) {
                *where = s->paths[i];
                break;
            }
        }
    return TFS_OK;
}
