/* src.c: the byte source.  Buffer mode hands out pointers into the caller's
 * buffer.  Reader mode keeps a window of file bytes filled by the caller's
 * reader (or pread): a request outside the window moves it, keeping the
 * bytes it still covers, and reads max(request, TFS_WINDOW) bytes, so a run
 * of small sequential reads costs one read() per TFS_WINDOW bytes and a
 * skipped string body costs nothing.  The window grows past TFS_WINDOW only
 * for one request that is larger (a key, a safetensors header). */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>

/* Read exactly n bytes at off into dst through the reader, as far as the
 * file goes: returns the count read (< n only at the end of the file), or
 * SIZE_MAX on failure (io_errno set). */
static size_t rd_fill(tfs_src *s, uint64_t off, uint8_t *dst, size_t n) {
    if (s->forward && off != s->rd_pos) {
        s->io_errno = ESPIPE;
        return SIZE_MAX;
    }
    size_t done = 0;
    while (done < n) {
        size_t got = 0;
        int e = s->rd.read(s->rd.ctx, off + done, dst + done, n - done, &got);
        if (e != 0) {
            s->io_errno = e > 0 ? e : EIO;
            return SIZE_MAX;
        }
        if (got > n - done) {
            s->io_errno = EIO;
            return SIZE_MAX;
        } /* reader overran buf */
        if (got == 0) break;
        done += got;
    }
    if (s->forward) s->rd_pos += done;
    return done;
}

/* A short read at `end`: the end of a stream (its size is now known), or a
 * file that is shorter than it said (EIO). */
static void short_read(tfs_src *s, uint64_t end) {
    if (s->size_known)
        s->io_errno = EIO;
    else {
        s->file_size = end;
        s->size_known = true;
    }
}

static bool reserve(tfs_src *s, size_t cap) {
    if (cap <= s->win_cap) return true;
    uint8_t *p;
    if (cap >= (size_t)1 << 20) { /* a large header: huge pages, one copy of what was read */
        p = tfs__alloc_big(cap, false);
        if (p && s->win) memcpy(p, s->win, s->win_len);
        if (p) free(s->win);
    } else {
        p = realloc(s->win, cap);
    }
    if (!p) {
        s->nomem = true;
        return false;
    }
    s->win = p;
    s->win_cap = cap;
    return true;
}

/* Discard a stream's bytes up to `off` (forward mode, off > rd_pos), through
 * a scratch buffer so the window keeps what it holds. */
static bool skip_to(tfs_src *s, uint64_t off) {
    uint8_t scratch[32768];
    while (s->rd_pos < off) {
        uint64_t want = off - s->rd_pos;
        size_t n = want < sizeof scratch ? (size_t)want : sizeof scratch;
        uint64_t at = s->rd_pos;
        size_t got = rd_fill(s, at, scratch, n);
        if (got == SIZE_MAX) return false;
        if (got < n) {
            short_read(s, at + got);
            return false;
        }
    }
    return true;
}

/* Move the window so that it starts at `off` and holds at least n bytes (as
 * far as the file goes).  Returns false on failure or when the file ends
 * before off + n. */
static bool load(tfs_src *s, uint64_t off, size_t n) {
    uint64_t win_end = s->win_off + s->win_len;
    size_t keep = 0;
    if (off >= s->win_off && off < win_end && (!s->forward || win_end == s->rd_pos)) {
        keep = (size_t)(win_end - off); /* still-useful tail of the window */
        memmove(s->win, s->win + (off - s->win_off), keep);
    } else if (s->forward) {
        if (off < s->rd_pos) {
            s->io_errno = ESPIPE;
            return false;
        }
        if (off > s->rd_pos && !skip_to(s, off)) return false;
    }
    s->win_off = off;
    s->win_len = keep;
    size_t want = n > TFS_WINDOW ? n : TFS_WINDOW;
    if (s->size_known) {
        uint64_t left = tfs_src_left(s, off);
        if (want > left) want = (size_t)left;
    }
    if (want < n) want = n; /* a known size has been checked by the caller */
    if (!reserve(s, want)) return false;
    size_t got = rd_fill(s, off + keep, s->win + keep, want - keep);
    if (got == SIZE_MAX) return false;
    s->win_len = keep + got;
    if (s->win_len < want) short_read(s, off + s->win_len);
    return s->win_len >= n;
}

const uint8_t *tfs__src_get(tfs_src *s, uint64_t off, size_t n) {
    static const uint8_t k_empty[1];
    uint64_t end;
    if (tfs_add_overflow_u64(off, n, &end)) return NULL;
    if (s->size_known && end > s->file_size) return NULL;
    if (s->buf) return s->buf + off;
    if (off >= s->win_off && end <= s->win_off + s->win_len) return n ? s->win + (off - s->win_off) : k_empty;
    if (n == 0) return tfs__src_has(s, off) ? k_empty : NULL;
    if (!load(s, off, n)) return NULL;
    return s->win;
}

bool tfs__src_copy(tfs_src *s, uint64_t off, size_t n, uint8_t *dst) {
    /* in window-sized pieces, so a large copy never grows the window */
    while (n > 0) {
        size_t k = n < TFS_WINDOW ? n : TFS_WINDOW;
        const uint8_t *p = tfs__src_get(s, off, k);
        if (!p) return false;
        memcpy(dst, p, k);
        dst += k;
        off += k;
        n -= k;
    }
    return true;
}

bool tfs__src_has(tfs_src *s, uint64_t end) {
    if (s->size_known || s->buf) return end <= s->file_size;
    if (end <= s->win_off + s->win_len) return true;
    /* a stream: read forward to `end` (or its end) */
    if (end > s->rd_pos && !skip_to(s, end)) return false;
    return true;
}

bool tfs__src_learn_size(tfs_src *s) {
    if (s->size_known || s->buf) return true;
    tfs__src_has(s, UINT64_MAX);
    return s->size_known && !tfs_src_failed(s);
}

const uint8_t *tfs__src_prefix(tfs_src *s, size_t n) {
    if (s->buf) return s->buf;
    if (s->win_off != 0 || (s->forward && s->rd_pos != s->win_len)) { /* only before anything else was read */
        s->io_errno = ESPIPE;
        return NULL;
    }
    if (s->win_len >= n) return s->win;
    if (!reserve(s, n ? n : 1u)) return NULL;
    size_t got = rd_fill(s, s->win_len, s->win + s->win_len, n - s->win_len);
    if (got == SIZE_MAX) return NULL;
    s->win_len += got;
    if (s->win_len < n) {
        short_read(s, s->win_len);
        return NULL;
    }
    return s->win;
}

void tfs__src_close(tfs_src *s) {
    free(s->win);
    s->win = NULL;
    s->win_len = s->win_cap = 0;
}
