/* walk.c: `tfs check -r DIR`: the files under DIR, depth first, names in
 * byte order (the same order on every machine).  Every regular file is a
 * candidate whatever its name (an Ollama store's blobs/sha256-..., a GGUF
 * named model.bin): check.c sniffs its content and skips what is not a model
 * file.  Other entries (FIFOs, devices) only under a model name. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define WALK_DEPTH_MAX 256 /* deeper directories are reported, not entered */

static int add_item(walk_list *l, const char *path, int err, int walked, int is_dir) {
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
    l->n++;
    return 0;
}

int walk_add(walk_list *l, const char *path, int err) { return add_item(l, path, err, 0, 0); }

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

static int walk_rec(walk_list *l, const char *dir, int depth) {
    if (depth > WALK_DEPTH_MAX) return add_item(l, dir, ELOOP, 1, 1);
    DIR *d = opendir(dir);
    if (!d) return add_item(l, dir, errno, 1, 1);
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
    if (rc == 0 && errno != 0) rc = add_item(l, dir, errno, 1, 1); /* readdir failed: say so, keep what was read */
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *p = join(dir, names[i]);
        if (!p) {
            rc = ENOMEM;
            break;
        }
        struct stat st;
        if (lstat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                rc = walk_rec(l, p, depth + 1);
            } else if (S_ISREG(st.st_mode)) {
                rc = add_item(l, p, 0, 1, 0);
            } else if (S_ISLNK(st.st_mode)) {
                /* a link to a file is followed (a Hugging Face cache); to a
                 * directory not entered (no loops); a dangling one, or one
                 * to a FIFO, only under a model name (reported, unread) */
                struct stat t;
                if (stat(p, &t) == 0 ? S_ISREG(t.st_mode) || (!S_ISDIR(t.st_mode) && model_ext(p) != TFS_FORMAT_UNKNOWN)
                                     : model_ext(p) != TFS_FORMAT_UNKNOWN)
                    rc = add_item(l, p, 0, 1, 0);
            } else if (model_ext(p) != TFS_FORMAT_UNKNOWN) {
                rc = add_item(l, p, 0, 1, 0); /* a FIFO or device with a model name: refused unread */
            }
        } else {
            rc = add_item(l, p, errno, 1, 0);
        }
        free(p);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    return rc;
}

int walk_dir(walk_list *l, const char *dir) { return walk_rec(l, dir, 0); }
