/* api.c: public entry points: format detection and dispatch. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

tfs_format tfs_detect_format(const uint8_t *prefix, size_t len, const char *path) {
    if (prefix && len >= 4 && memcmp(prefix, "GGUF", 4) == 0) return TFS_FORMAT_GGUF;
    if (path && ends_with(path, ".gguf")) return TFS_FORMAT_GGUF;
    return TFS_FORMAT_SAFETENSORS;
}

tfs_header *tfs_header_new(tfs_format format, uint64_t file_size) {
    tfs_header *h = calloc(1, sizeof *h);
    tfs_priv *p = calloc(1, sizeof *p);
    if (!h || !p) { free(h); free(p); return NULL; }
    h->format = format;
    h->file_size = file_size;
    h->priv_ = p;
    return h;
}

void tfs_header_free(tfs_header *h) {
    if (!h) return;
    tfs_priv *p = h->priv_;
    if (p) {
        free(p->window);
        for (size_t i = 0; i < sizeof p->blocks / sizeof p->blocks[0]; i++) free(p->blocks[i]);
        free(p);
    }
    free(h);
}

static tfs_status dispatch(tfs_src *src, const char *path, tfs_format format, unsigned flags,
                           tfs_header **out, tfs_error *err) {
    if (format == TFS_FORMAT_UNKNOWN) {
        size_t n = src->file_size < 4 ? (size_t)src->file_size : 4u;
        const uint8_t *p = tfs_src_get(src, 0, n);
        if (!p && tfs_src_failed(src)) return tfs_fail_src(err, src);
        format = tfs_detect_format(p, p ? n : 0, path);
    }
    switch (format) {
    case TFS_FORMAT_SAFETENSORS: return tfs_st_parse(src, flags, out, err);
    case TFS_FORMAT_GGUF: return tfs_gg_parse(src, flags, out, err);
    default: return tfs_fail_status(err, TFS_EARG, 0);
    }
}

static void clear(tfs_header **out, tfs_error *err) {
    if (out) *out = NULL;
    if (err) {
        memset(err, 0, sizeof *err);
        err->index = -1;
    }
}

tfs_status tfs_parse_buffer(const uint8_t *buf, size_t len, tfs_format format, unsigned flags,
                            tfs_header **out, tfs_error *err) {
    clear(out, err);
    if (!buf && len) return tfs_fail_status(err, TFS_EARG, 0);
    static const uint8_t empty[1];
    tfs_src src = {.buf = buf ? buf : empty, .file_size = len, .fd = -1};
    return dispatch(&src, NULL, format, flags, out, err);
}

tfs_status tfs_parse_fd(int fd, const char *path, tfs_format format, unsigned flags,
                        tfs_header **out, tfs_error *err) {
    clear(out, err);
    if (fd < 0) return tfs_fail_status(err, TFS_EARG, 0);
    struct stat st;
    if (fstat(fd, &st) != 0) return tfs_fail_status(err, TFS_EIO, errno);
    if (!S_ISREG(st.st_mode)) return tfs_fail_status(err, TFS_EIO, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    tfs_src src = {.file_size = (uint64_t)st.st_size, .fd = fd};
    tfs_status rc = dispatch(&src, path, format, flags, out, err);
    if (rc == TFS_OK && out && *out) {
        tfs_priv *p = (*out)->priv_;
        p->window = src.win; /* views point into it */
    } else {
        free(src.win);
    }
    return rc;
}

tfs_status tfs_parse_file(const char *path, tfs_format format, unsigned flags,
                          tfs_header **out, tfs_error *err) {
    clear(out, err);
    if (!path) return tfs_fail_status(err, TFS_EARG, 0);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then
     * refused as not a regular file); no effect on reads of regular files. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return tfs_fail_status(err, TFS_EIO, errno);
    tfs_status rc = tfs_parse_fd(fd, path, format, flags, out, err);
    close(fd);
    return rc;
}
