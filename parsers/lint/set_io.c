/* set_io.c: how the set checks (set.c, set_st.c, set_gg.c, set_series.c)
 * reach their files: through a caller's tfs_set_io (the browser inspector
 * serves the files dropped on its page), or, with no io, through POSIX
 * (open, pread, opendir: the command line).  One set of rules, two ways to
 * read. */
#include "lint_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef TFS_NO_POSIX
#include <dirent.h>
#endif

/* ---- through io */

/* Open path through io into *src; 0 or an errno value. */
static int io_open(const tfs_set_io *io, const char *path, tfs_source *src) {
    memset(src, 0, sizeof *src);
    int e = io->open(io->ctx, path, src);
    if (e == 0 && (!src->read || src->forward || src->size == TFS_SIZE_UNKNOWN)) e = EINVAL;
    return e;
}

/* len bytes at off into buf, all of them (a read that gives fewer is asked
 * again for the rest): 0, else an errno value (EIO: the file ended early). */
static int io_read_all(const tfs_source *src, uint64_t off, void *buf, size_t len) {
    size_t n = 0;
    while (n < len) {
        size_t got = 0;
        int e = src->read(src->ctx, off + n, (uint8_t *)buf + n, len - n, &got);
        if (e) return e;
        if (got == 0 || got > len - n) return EIO;
        n += got;
    }
    return 0;
}

static tfs_status io_slurp(const tfs_set_io *io, const char *path, size_t max, char **out, size_t *len, int *e) {
    tfs_source src;
    int err = io_open(io, path, &src);
    if (err) {
        if (e) *e = err;
        return TFS_EIO;
    }
    if (src.size > max) {
        if (e) *e = EFBIG;
        return TFS_EARG;
    }
    size_t n = (size_t)src.size;
    char *buf = malloc(n + 1u);
    if (!buf) return TFS_ENOMEM;
    if ((err = io_read_all(&src, 0, buf, n)) != 0) {
        free(buf);
        if (e) *e = err;
        return TFS_EIO;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return TFS_OK;
}

static tfs_status io_st_head(const tfs_set_io *io, const char *path, uint8_t **out, size_t *len) {
    tfs_source src;
    uint8_t n8[8];
    if (io_open(io, path, &src) != 0 || src.size < 8 || io_read_all(&src, 0, n8, 8) != 0) return TFS_EIO;
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = (n << 8) | n8[i];
    if (n > 100000000u || n + 8u > src.size) return TFS_EIO; /* ST002: the crate refuses more */
    uint8_t *buf = malloc((size_t)n + 8u);
    if (!buf) return TFS_ENOMEM;
    if (io_read_all(&src, 0, buf, (size_t)n + 8u) != 0) {
        free(buf);
        return TFS_EIO;
    }
    *out = buf;
    *len = (size_t)n + 8u;
    return TFS_OK;
}

/* ---- either way */

tfs_status tfs__set_slurp(const tfs_set_io *io, const char *path, size_t max, char **out, size_t *len, int *e) {
    *out = NULL;
    *len = 0;
    if (io) return io_slurp(io, path, max, out, len, e);
#ifndef TFS_NO_POSIX
    return tfs__lint_slurp(path, max, out, len, e);
#else
    if (e) *e = ENOSYS;
    return TFS_EIO;
#endif
}

tfs_status tfs__set_st_head(const tfs_set_io *io, const char *path, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    if (io) return io_st_head(io, path, out, len);
#ifndef TFS_NO_POSIX
    return tfs__lint_st_head(path, out, len);
#else
    return TFS_EIO;
#endif
}

tfs_status tfs__set_bytes(const tfs_set_io *io, const char *path, const tfs_header *h, int part, tfs_lint_report *r) {
    if (io) {
        tfs_source src;
        /* a file that cannot be opened, or changed since its parse: no padding read (LT113 only) */
        int ok = io_open(io, path, &src) == 0 && src.size == h->file_size;
        tfs_status st = tfs__lint_bytes(h, part, ok ? &src : NULL, r);
        return st == TFS_OK ? st : TFS_ENOMEM;
    }
#ifndef TFS_NO_POSIX
    return tfs__lint_bytes_path(path, h, part, r);
#else
    tfs_status st = tfs__lint_bytes(h, part, NULL, r);
    return st == TFS_OK ? st : TFS_ENOMEM;
#endif
}

tfs_status tfs__set_parse(const tfs_set_io *io, const char *path, tfs_format format, unsigned flags, tfs_header **out,
                          tfs_error *err) {
    if (io) {
        tfs_source src;
        int e = io_open(io, path, &src);
        if (e == 0) return tfs_parse_source(&src, path, format, flags, out, err);
        *out = NULL;
        if (err) {
            memset(err, 0, sizeof *err);
            err->index = -1;
            err->sys_errno = e;
        }
        return TFS_EIO;
    }
#ifndef TFS_NO_POSIX
    return tfs_parse_file(path, format, flags, out, err);
#else
    *out = NULL;
    if (err) {
        memset(err, 0, sizeof *err);
        err->index = -1;
        err->sys_errno = ENOSYS;
    }
    return TFS_EIO;
#endif
}

/* io->list's names, those not starting with '.' */
typedef struct list_filter {
    void (*each)(void *arg, const char *name);
    void *arg;
} list_filter;

static void list_visible(void *arg, const char *name) {
    const list_filter *f = arg;
    if (name[0] != '.') f->each(f->arg, name);
}

int tfs__set_list(const tfs_set_io *io, const char *dir, void (*each)(void *arg, const char *name), void *arg) {
    if (io) {
        list_filter f = {each, arg};
        if (io->list) io->list(io->ctx, dir, list_visible, &f);
        return 0;
    }
#ifndef TFS_NO_POSIX
    DIR *d = opendir(dir);
    if (!d) return errno ? errno : EIO;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.') each(arg, de->d_name);
    closedir(d);
    return 0;
#else
    return ENOSYS;
#endif
}
