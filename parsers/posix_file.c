/* posix_file.c: paths and file descriptors as byte sources (pread on a
 * descriptor the header keeps, so string and array values can be re-read by
 * the accessors).  Left out of TFS_POSIX=OFF builds. */
#include "dispatch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int fd_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    int fd = (int)(intptr_t)ctx;
    if (off > (uint64_t)INT64_MAX) {
        *got = 0;
        return 0;
    }
    for (;;) {
        ssize_t r = pread(fd, buf, len, (off_t)off);
        if (r >= 0) {
            *got = (size_t)r;
            return 0;
        }
        if (errno != EINTR) return errno;
    }
}

static void fd_release(tfs_priv *p) {
    if (p->fd >= 0) close(p->fd);
    p->fd = -1;
}

tfs_status tfs_parse_fd(int fd, const char *path, tfs_format format, unsigned flags, tfs_header **out, tfs_error *err) {
    tfs__clear_result(out, err);
    if (fd < 0) return tfs__fail_status(err, TFS_EARG, 0);
    struct stat st;
    if (fstat(fd, &st) != 0) return tfs__fail_status(err, TFS_EIO, errno);
    if (!S_ISREG(st.st_mode)) return tfs__fail_status(err, TFS_EIO, S_ISDIR(st.st_mode) ? EISDIR : EINVAL);
    tfs_src src = {.rd = {.read = fd_read, .ctx = (void *)(intptr_t)fd, .size = (uint64_t)st.st_size},
                   .file_size = (uint64_t)st.st_size,
                   .size_known = true};
    tfs_status rc = tfs__dispatch(&src, path, format, flags, out, err);
    tfs__src_close(&src);
    if (out && *out) {
        /* the header re-reads string and array values through its own descriptor */
        tfs_priv *p = (*out)->priv_;
        p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        p->rd.ctx = (void *)(intptr_t)p->fd;
        p->release = fd_release;
        if (p->fd < 0) p->rd.read = NULL; /* accessors then report TFS_EIO */
    }
    return rc;
}

tfs_status tfs_parse_file(const char *path, tfs_format format, unsigned flags, tfs_header **out, tfs_error *err) {
    tfs__clear_result(out, err);
    if (!path) return tfs__fail_status(err, TFS_EARG, 0);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then
     * refused as not a regular file); no effect on reads of regular files. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return tfs__fail_status(err, TFS_EIO, errno);
    tfs_status rc = tfs_parse_fd(fd, path, format, flags, out, err);
    close(fd);
    return rc;
}
