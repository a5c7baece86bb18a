/* src.c: the byte source: a caller buffer, or a pread window over a file
 * that grows as the parser asks for more (never past what is asked, rounded
 * up to at least double the window, capped by the file size). */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define TFS_WINDOW_MIN 4096u

static bool grow(tfs_src *s, uint64_t need) {
    /* need <= file_size is guaranteed by the caller. */
    uint64_t want = s->win_len * 2u;
    if (want < TFS_WINDOW_MIN) want = TFS_WINDOW_MIN;
    if (want < need) want = need;
    if (want > s->file_size) want = s->file_size;
    if (want > SIZE_MAX) { s->nomem = true; return false; }
    if (want > s->win_cap) {
        uint8_t *p = realloc(s->win, (size_t)want ? (size_t)want : 1u);
        if (!p) { s->nomem = true; return false; }
        s->win = p;
        s->win_cap = (size_t)want;
    }
    while (s->win_len < want) {
        ssize_t r = pread(s->fd, s->win + s->win_len, (size_t)want - s->win_len, (off_t)s->win_len);
        if (r < 0) {
            if (errno == EINTR) continue;
            s->io_errno = errno;
            return false;
        }
        if (r == 0) { /* file shrank under us */
            s->io_errno = EIO;
            return false;
        }
        s->win_len += (size_t)r;
    }
    return true;
}

const uint8_t *tfs_src_get(tfs_src *s, uint64_t off, size_t n) {
    uint64_t end;
    if (tfs_add_overflow_u64(off, n, &end) || end > s->file_size) return NULL;
    if (s->fd < 0) return s->buf + off;
    if (n == 0) /* nothing to read: a pointer into the window, or any valid one (never NULL + 0) */
        return s->win && off <= s->win_len ? s->win + off : (const uint8_t *)"";
    if (end > s->win_len && !grow(s, end)) return NULL;
    return s->win + off;
}
