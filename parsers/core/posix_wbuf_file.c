/*
 * wbuf_file.c: write a tfs_wbuf to a file as a sparse file (POSIX pwrite +
 * ftruncate); holes are never written, so a 40 GiB declared header costs
 * only its materialised bytes on disk.
 */
#include "tfs/write.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

static tfs_status io_fail(int *sys_errno, int e) {
    if (sys_errno) *sys_errno = e;
    return TFS_EIO;
}

tfs_status tfs_wbuf_write_fd(const tfs_wbuf *w, int fd, int *sys_errno) {
    if (sys_errno) *sys_errno = 0;
    if (!w || fd < 0 || w->err != TFS_OK || w->size > (uint64_t)INT64_MAX) return TFS_EARG;
    if (ftruncate(fd, 0) != 0) return io_fail(sys_errno, errno);
    for (size_t i = 0; i < w->n_segs; i++) {
        const tfs_wseg *s = &w->segs[i];
        if (s->hole) continue;
        uint64_t done = 0;
        while (done < s->len) {
            size_t chunk = s->len - done > (1u << 30) ? (1u << 30) : (size_t)(s->len - done);
            ssize_t n = pwrite(fd, w->p + s->pos + done, chunk, (off_t)(s->offset + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return io_fail(sys_errno, n < 0 ? errno : EIO);
            done += (uint64_t)n;
        }
    }
    if (ftruncate(fd, (off_t)w->size) != 0) return io_fail(sys_errno, errno);
    return TFS_OK;
}

tfs_status tfs_wbuf_write_file(const tfs_wbuf *w, const char *path, int *sys_errno) {
    if (sys_errno) *sys_errno = 0;
    if (!w || !path) return TFS_EARG;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return io_fail(sys_errno, errno);
    tfs_status st = tfs_wbuf_write_fd(w, fd, sys_errno);
    if (close(fd) != 0 && st == TFS_OK) st = io_fail(sys_errno, errno);
    return st;
}
