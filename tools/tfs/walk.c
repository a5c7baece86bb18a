/* walk.c: the files and model sets `tfs check DIR` checks (cli.h walk_dir).
 * Per folder, its sets first (tfs_set_entries), then its files, names in
 * byte order (the same order on every machine).  With -r every regular file
 * is a candidate whatever its name (an Ollama store's blobs/sha256-..., a
 * GGUF named model.bin): check.c sniffs its content and skips what is not a
 * model file; other entries (FIFOs, devices) only under a model name.
 * Without -r only model files by name, and a folder without any is entered
 * (a folder of model folders).  walk_dedupe then keeps one item per file. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "tfs/lint.h"

#define WALK_DEPTH_MAX 256 /* deeper directories are reported, not entered */

static int add_item(walk_list *l, const char *path, int err, int walked, int is_dir, int is_set) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        walk_item *v = cap > SIZE_MAX / sizeof *v ? NULL : realloc(l->v, cap * sizeof *v);
        if (!v) return ENOMEM;
        l->v = v;
        l->cap = cap;
    }
    char *p = strdup(path);
    if (!p) return ENOMEM;
    l->v[l->n].path = p;
    l->v[l->n].err = err;
    l->v[l->n].walked = walked;
    l->v[l->n].is_dir = is_dir;
    l->v[l->n].is_set = is_set;
    l->n++;
    return 0;
}

int walk_add(walk_list *l, const char *path, int err) { return add_item(l, path, err, 0, 0, 0); }

void walk_free(walk_list *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i].path);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* dir/name, or NULL when out of memory. */
static char *join(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    int slash = a > 0 && dir[a - 1] != '/';
    char *p = malloc(a + (size_t)slash + b + 1);
    if (!p) return NULL;
    memcpy(p, dir, a);
    if (slash) p[a] = '/';
    memcpy(p + a + (size_t)slash, name, b + 1);
    return p;
}

static void free_names(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* The names in dir, sorted, into *out (n); 0, ENOMEM, or the errno of
 * opendir / readdir (what was read is kept). */
static int read_names(const char *dir, char ***out, size_t *n_out) {
    DIR *d = opendir(dir);
    *out = NULL;
    *n_out = 0;
    if (!d) return errno ? errno : EIO;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (errno = 0, e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (n == cap) {
            size_t c = cap ? cap * 2 : 32;
            char **v = realloc(names, c * sizeof *v);
            if (!v) {
                rc = ENOMEM;
                break;
            }
            names = v;
            cap = c;
        }
        if (!(names[n] = strdup(e->d_name)))
            rc = ENOMEM;
        else
            n++;
    }
    if (rc == 0 && errno != 0) rc = errno;
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    *out = names;
    *n_out = n;
    return rc;
}

/* A name ending in .gguf or .safetensors in any case (as tfs_set_entries
 * takes lone model files), not under .part / .partial. */
static int plain_model_name(const char *name) {
    size_t n = strlen(name);
    return (n >= 5 && strcasecmp(name + n - 5, ".gguf") == 0) ||
           (n >= 12 && strcasecmp(name + n - 12, ".safetensors") == 0);
}

/* Is path one of the n strings v? */
static int listed(char *const *v, size_t n, const char *path) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], path) == 0) return 1;
    return 0;
}

static int walk_rec(walk_list *l, const char *dir, int depth, int recursive) {
    if (depth > WALK_DEPTH_MAX) return add_item(l, dir, ELOOP, 1, 1, 0);
    char **names;
    size_t n;
    int rc = read_names(dir, &names, &n);
    if (rc == ENOMEM) {
        free_names(names, n);
        return rc;
    }
    if (rc != 0) { /* say so, keep what was read */
        int e = rc;
        rc = add_item(l, dir, e, 1, 1, 0);
        if (n == 0 || rc) {
            free_names(names, n);
            return rc;
        }
    }
    /* the folder's sets and lone model files (by name) */
    char **ent = NULL;
    size_t ne = 0;
    int se = 0;
    tfs_status st = tfs_set_entries(dir, &ent, &ne, &se);
    if (st == TFS_ENOMEM) rc = ENOMEM;
    size_t before = l->n;
    for (size_t i = 0; i < ne && rc == 0; i++) {
        tfs_set_kind k = tfs_set_kind_of(ent[i]);
        if (k == TFS_SET_INDEX || k == TFS_SET_SPLIT) rc = add_item(l, ent[i], 0, 1, 0, 1);
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *p = join(dir, names[i]);
        if (!p) {
            rc = ENOMEM;
            break;
        }
        /* a file named .gguf / .safetensors that is no entry of the folder
         * is one a set holds: reported under the set (tfs_set_entries
         * leaves out hidden names); a set entry was added above */
        int in_ent = listed(ent, ne, p);
        int member = names[i][0] != '.' && plain_model_name(names[i]) && !in_ent;
        tfs_set_kind k = in_ent ? tfs_set_kind_of(p) : TFS_SET_NONE;
        struct stat sb;
        if (k == TFS_SET_INDEX || k == TFS_SET_SPLIT) {
            /* added above */
        } else if (lstat(p, &sb) != 0) {
            if (recursive) rc = add_item(l, p, errno, 1, 0, 0);
        } else if (S_ISDIR(sb.st_mode)) {
            if (recursive) rc = walk_rec(l, p, depth + 1, 1);
        } else if (!recursive) {
            if (in_ent) rc = add_item(l, p, 0, 1, 0, 0);
        } else if (member) {
            /* held by a set of this folder */
        } else if (S_ISREG(sb.st_mode)) {
            rc = add_item(l, p, 0, 1, 0, 0);
        } else if (S_ISLNK(sb.st_mode)) {
            /* a link to a file is followed (a Hugging Face cache); to a
             * directory not entered (no loops); a dangling one, or one
             * to a FIFO, only under a model name (reported, unread) */
            struct stat t;
            if (stat(p, &t) == 0 ? S_ISREG(t.st_mode) || (!S_ISDIR(t.st_mode) && model_ext(p) != TFS_FORMAT_UNKNOWN)
                                 : model_ext(p) != TFS_FORMAT_UNKNOWN)
                rc = add_item(l, p, 0, 1, 0, 0);
        } else if (model_ext(p) != TFS_FORMAT_UNKNOWN) {
            rc = add_item(l, p, 0, 1, 0, 0); /* a FIFO or device with a model name: refused unread */
        }
        free(p);
    }
    /* without -r: a folder with nothing of its own to check is a folder of
     * model folders; its subfolders (not hidden, not through links) in turn */
    for (size_t i = 0; i < n && rc == 0 && !recursive && l->n == before; i++) {
        if (names[i][0] == '.') continue;
        char *p = join(dir, names[i]);
        struct stat sb;
        if (!p)
            rc = ENOMEM;
        else if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            rc = walk_rec(l, p, depth + 1, 0);
        free(p);
        if (l->n > before) { /* found some: the other subfolders too */
            for (size_t k = i + 1; k < n && rc == 0; k++) {
                if (names[k][0] == '.') continue;
                char *q = join(dir, names[k]);
                if (!q)
                    rc = ENOMEM;
                else if (lstat(q, &sb) == 0 && S_ISDIR(sb.st_mode))
                    rc = walk_rec(l, q, depth + 1, 0);
                free(q);
            }
            break;
        }
    }
    free_names(ent, ne);
    free_names(names, n);
    return rc;
}

int walk_dir(walk_list *l, const char *dir, int recursive) {
    size_t before = l->n;
    int rc = walk_rec(l, dir, 0, recursive);
    if (rc == 0 && !recursive && l->n == before) rc = add_item(l, dir, EISDIR, 0, 0, 0); /* the -r hint */
    return rc;
}

/* ---- one item per file ---- */

typedef struct file_id {
    dev_t dev;
    ino_t ino;
    size_t item; /* index in the list; SIZE_MAX: a set's member */
} file_id;

static int by_id(const void *a, const void *b) {
    const file_id *x = a, *y = b;
    if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
    if (x->ino != y->ino) return x->ino < y->ino ? -1 : 1;
    return x->item < y->item ? -1 : x->item > y->item;
}

static int push_id(file_id **v, size_t *n, size_t *cap, const char *path, size_t item) {
    struct stat sb;
    if (stat(path, &sb) != 0) return 0; /* missing: nothing to meet twice */
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        file_id *w = c > SIZE_MAX / sizeof *w ? NULL : realloc(*v, c * sizeof *w);
        if (!w) return ENOMEM;
        *v = w;
        *cap = c;
    }
    (*v)[(*n)++] = (file_id){sb.st_dev, sb.st_ino, item};
    return 0;
}

int walk_dedupe(walk_list *l) {
    file_id *ids = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        const walk_item *it = &l->v[i];
        if (it->err || it->is_dir) continue;
        rc = push_id(&ids, &n, &cap, it->path, i);
        if (!it->is_set || rc) continue;
        char **m = NULL;
        size_t nm = 0;
        if (tfs_set_members(it->path, &m, &nm) == TFS_ENOMEM) rc = ENOMEM;
        for (size_t k = 0; k < nm; k++) {
            if (rc == 0) rc = push_id(&ids, &n, &cap, m[k], SIZE_MAX);
            free(m[k]);
        }
        free(m);
    }
    if (rc) {
        free(ids);
        return rc;
    }
    if (n > 1) qsort(ids, n, sizeof *ids, by_id);
    char *drop = calloc(l->n ? l->n : 1, 1);
    if (!drop) {
        free(ids);
        return ENOMEM;
    }
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && ids[b].dev == ids[a].dev && ids[b].ino == ids[a].ino) b++;
        /* ids[a, b) name one file, items in list order, a set's members last */
        int held = ids[b - 1].item == SIZE_MAX;
        size_t keep_set = SIZE_MAX, keep_file = SIZE_MAX;
        for (size_t k = a; k < b && ids[k].item != SIZE_MAX; k++) {
            const walk_item *it = &l->v[ids[k].item];
            if (it->is_set) {
                if (keep_set == SIZE_MAX) keep_set = ids[k].item;
            } else if (!held && (keep_file == SIZE_MAX || (model_ext(l->v[keep_file].path) == TFS_FORMAT_UNKNOWN &&
                                                           model_ext(it->path) != TFS_FORMAT_UNKNOWN))) {
                keep_file = ids[k].item;
            }
        }
        for (size_t k = a; k < b && ids[k].item != SIZE_MAX; k++)
            if (ids[k].item != keep_set && ids[k].item != keep_file && l->v[ids[k].item].walked) drop[ids[k].item] = 1;
        a = b;
    }
    size_t o = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (drop[i]) {
            free(l->v[i].path);
            continue;
        }
        l->v[o++] = l->v[i];
    }
    l->n = o;
    free(drop);
    free(ids);
    return 0;
}
