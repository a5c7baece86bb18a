/* set.c: what a path names as a model set, the set entries of a folder,
 * and tfs_set_check's dispatch to set_st.c (safetensors index) and
 * set_gg.c (GGUF split). */
#include "lint_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef TFS_NO_POSIX
#include <sys/stat.h>
#endif

static int has_suffix(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Any case, as the walk of `tfs check -r` (".GGUF" is a model file too). */
static int has_suffix_ci(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

bool tfs__split_name(const char *path, unsigned *no, unsigned *count, size_t *prefix_len) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len < 5 || strcmp(base + len - 5, ".gguf") != 0) return false;
    /* ...-NNNNN-of-NNNNN.gguf, scanned from the end: exactly five digits each,
     * as llama.cpp names and recognises parts ("%05d" of a u16 split.count,
     * whose largest value, 65535, has five digits) */
    size_t e = len - 5, i = e;
    while (i > 0 && base[i - 1] >= '0' && base[i - 1] <= '9') i--;
    if (e - i != 5 || i < 4 || memcmp(base + i - 4, "-of-", 4) != 0) return false;
    unsigned long c = strtoul(base + i, NULL, 10);
    size_t j = i - 4, k = j;
    while (k > 0 && base[k - 1] >= '0' && base[k - 1] <= '9') k--;
    if (j - k != 5 || k < 2 || base[k - 1] != '-') return false;
    unsigned long n = strtoul(base + k, NULL, 10);
    if (c == 0 || n == 0 || n > c || c > 65535u) return false;
    *no = (unsigned)n;
    *count = (unsigned)c;
    *prefix_len = (size_t)(base - path) + k - 1u;
    return true;
}

#ifndef TFS_NO_POSIX
tfs_set_kind tfs_set_kind_of(const char *path) {
    if (!path) return TFS_SET_NONE;
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) return TFS_SET_DIR;
    if (has_suffix(path, ".safetensors.index.json")) return TFS_SET_INDEX;
    unsigned no, count;
    size_t pl;
    if (tfs__split_name(path, &no, &count, &pl) && no == 1 && count > 1) return TFS_SET_SPLIT;
    return TFS_SET_NONE;
}

#endif

/* tfs_set_check through io (NULL: POSIX) */
static tfs_status set_check(const char *path, unsigned flags, int lint, const char *config_path, const tfs_set_io *io,
                            tfs_lint_report *r) {
    if (!path || !r) return TFS_EARG;
    if (has_suffix(path, ".safetensors.index.json")) return tfs__set_st(path, flags, lint, config_path, io, r);
    unsigned no, count;
    size_t pl;
    if (tfs__split_name(path, &no, &count, &pl) && no == 1 && count > 1) return tfs__set_gg(path, flags, lint, io, r);
    return TFS_EARG;
}

tfs_status tfs_set_check_io(const char *path, unsigned flags, int lint, const char *config_path, const tfs_set_io *io,
                            tfs_lint_report *r) {
    if (!io || !io->open) return TFS_EARG;
    return set_check(path, flags, lint, config_path, io, r);
}

#ifndef TFS_NO_POSIX
tfs_status tfs_set_check(const char *path, unsigned flags, int lint, const char *config_path, tfs_lint_report *r) {
    return set_check(path, flags, lint, config_path, NULL, r);
}
#endif

/* ---- tfs_set_entries ---- */

typedef struct strv {
    char **v;
    size_t n, cap;
} strv;

static int push(strv *s, char *p) {
    if (!p) return -1;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2u : 16u;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v) {
            free(p);
            return -1;
        }
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = p;
    return 0;
}

static void strv_free(strv *s) {
    for (size_t i = 0; i < s->n; i++) free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int contains(const strv *s, const char *x) {
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], x) == 0) return 1;
    return 0;
}

static char *dupstr(const char *s) {
    size_t n = strlen(s) + 1u;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

/* The shard names an index file gives (weight_map values, in their normal
 * form: "./s1.safetensors" is the folder's entry "s1.safetensors"), into
 * `named`. */
static int index_shards(const char *path, const tfs_set_io *io, strv *named) {
    char *text = NULL;
    size_t len = 0;
    tfs_status st = tfs__set_slurp(io, path, TFS_LINT_INDEX_MAX, &text, &len, NULL);
    if (st == TFS_ENOMEM) return -1; /* an index read as "no names" would list its shards as lone files */
    if (st != TFS_OK) return 0;
    int oom = 0;
    lj_node *root = tfs__lj_parse(text, len, NULL, &oom);
    free(text);
    if (oom) return -1;
    const lj_node *wm = tfs__lj_get(root, "weight_map");
    int rc = 0;
    for (size_t i = 0; wm && wm->type == LJ_OBJ && i < wm->n && rc == 0; i++) {
        char *norm = NULL;
        shard_name_kind k =
            wm->kids[i].type == LJ_STR ? tfs__lint_shard_name(wm->kids[i].s, wm->kids[i].len, &norm) : SHARD_NOT_FILE;
        if (k == SHARD_NOMEM)
            rc = -1;
        else if (k == SHARD_OK && !contains(named, norm))
            rc = push(named, norm);
        else
            free(norm);
    }
    tfs__lj_free(root);
    return rc;
}

/* a folder's names into a strv (arg: name_list) */
typedef struct name_list {
    strv v;
    int rc;
} name_list;

static void add_name(void *arg, const char *name) {
    name_list *l = arg;
    if (l->rc == 0) l->rc = push(&l->v, dupstr(name));
}

/* tfs_set_entries through io (NULL: POSIX) */
static tfs_status set_entries(const char *dir, const tfs_set_io *io, char ***out, size_t *n, int *sys_errno) {
    if (!dir || !out || !n) return TFS_EARG;
    *out = NULL;
    *n = 0;
    name_list l = {{0}, 0};
    int e = tfs__set_list(io, dir, add_name, &l);
    if (e) {
        strv_free(&l.v);
        if (sys_errno) *sys_errno = e;
        return TFS_EIO;
    }
    strv names = l.v, entries = {0}, named = {0};
    int rc = l.rc;
    if (rc == 0 && names.n > 1) qsort(names.v, names.n, sizeof *names.v, cmp_str); /* names.v is NULL when empty */
    /* set entries: indexes, first splits (also when the first part is missing) */
    for (size_t i = 0; rc == 0 && i < names.n; i++) {
        const char *nm = names.v[i];
        unsigned no, count;
        size_t pl;
        if (has_suffix(nm, ".safetensors.index.json")) {
            char *p = tfs__lint_join(dir, nm);
            if (!p)
                rc = -1;
            else if ((rc = index_shards(p, io, &named)) == 0)
                rc = push(&entries, p);
            else
                free(p);
        } else if (tfs__split_name(nm, &no, &count, &pl) && count > 1) {
            char first[4096];
            const char *of = strstr(nm + pl, "-of-");
            if (!of || pl >= 4000) continue;
            snprintf(first, sizeof first, "%.*s-%0*u%s", (int)pl, nm, (int)(of - (nm + pl) - 1), 1u, of);
            char *p = tfs__lint_join(dir, first);
            if (!p)
                rc = -1;
            else if (contains(&entries, p))
                free(p);
            else
                rc = push(&entries, p);
        }
    }
    /* lone model files: not a shard an index names, not a split part */
    for (size_t i = 0; rc == 0 && i < names.n; i++) {
        const char *nm = names.v[i];
        unsigned no, count;
        size_t pl;
        int gguf = has_suffix_ci(nm, ".gguf"), st = has_suffix_ci(nm, ".safetensors");
        if (!gguf && !st) continue;
        if (st && contains(&named, nm)) continue;
        if (gguf && tfs__split_name(nm, &no, &count, &pl) && count > 1) continue;
        rc = push(&entries, tfs__lint_join(dir, nm));
    }
    strv_free(&names);
    strv_free(&named);
    if (rc != 0) {
        strv_free(&entries);
        return TFS_ENOMEM;
    }
    *out = entries.v;
    *n = entries.n;
    return TFS_OK;
}
tfs_status tfs_set_entries_io(const char *dir, const tfs_set_io *io, char ***out, size_t *n) {
    if (!io || !io->open || !io->list) return TFS_EARG;
    return set_entries(dir, io, out, n, NULL);
}

#ifndef TFS_NO_POSIX
tfs_status tfs_set_entries(const char *dir, char ***out, size_t *n, int *sys_errno) {
    return set_entries(dir, NULL, out, n, sys_errno);
}

/* ---- tfs_set_members ---- */

tfs_status tfs_set_members(const char *path, char ***out, size_t *n) {
    if (!path || !out || !n) return TFS_EARG;
    *out = NULL;
    *n = 0;
    strv m = {0};
    int rc = 0;
    unsigned no, count;
    size_t pl;
    if (has_suffix(path, ".safetensors.index.json")) {
        strv named = {0};
        char *dir = tfs__lint_dirname(path);
        rc = dir ? index_shards(path, NULL, &named) : -1;
        for (size_t i = 0; rc == 0 && i < named.n; i++) rc = push(&m, tfs__lint_join(dir, named.v[i]));
        free(dir);
        strv_free(&named);
    } else if (tfs__split_name(path, &no, &count, &pl) && no == 1 && count > 1) {
        const char *of = strstr(path + pl, "-of-");
        int width = of ? (int)(of - (path + pl) - 1) : 5;
        size_t cap = pl + 64u; /* a part's name is pl + 20 bytes and its NUL */
        for (unsigned k = 1; rc == 0 && k <= count; k++) {
            char *p = malloc(cap);
            if (p) snprintf(p, cap, "%.*s-%0*u%s", (int)pl, path, width, k, of ? of : "");
            rc = push(&m, p);
        }
    } else {
        return TFS_EARG;
    }
    if (rc != 0) {
        strv_free(&m);
        return TFS_ENOMEM;
    }
    *out = m.v;
    *n = m.n;
    return TFS_OK;
}
#endif
