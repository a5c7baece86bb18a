/* mutant.c: a mutant image (mutant.h): collected from tfs_mutate_source,
 * classified through a byte source, written sparse. */
#include "mutant.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const mutant_profile_names[MUTANT_N_PROFILES] = {"default", "strict", "header-only"};
const unsigned mutant_profile_flags[MUTANT_N_PROFILES] = {0, TFS_STRICT, TFS_HEADER_ONLY};

int mutant_profile_find(const char *name) {
    for (int i = 0; i < MUTANT_N_PROFILES; i++)
        if (strcmp(name, mutant_profile_names[i]) == 0) return i;
    return -1;
}

int mutant_sink(void *ctx, uint64_t offset, const uint8_t *bytes, uint64_t len) {
    mutant *m = ctx;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        mutant_seg *s = realloc(m->segs, cap * sizeof *s);
        if (!s) {
            m->nomem = 1;
            return 1;
        }
        m->segs = s;
        m->cap = cap;
    }
    mutant_seg *s = &m->segs[m->n];
    s->offset = offset;
    s->len = len;
    s->bytes = NULL;
    if (bytes) {
        if (len > SIZE_MAX || !(s->bytes = malloc((size_t)len))) {
            m->nomem = 1;
            return 1;
        }
        memcpy(s->bytes, bytes, (size_t)len);
    }
    m->n++;
    if (offset + len > m->size) m->size = offset + len;
    return 0;
}

void mutant_clear(mutant *m) {
    for (size_t i = 0; i < m->n; i++) free(m->segs[i].bytes);
    free(m->segs);
    memset(m, 0, sizeof *m);
}

/* tfs_source read over the segments (binary search by offset) */
static int image_read(void *ctx, uint64_t offset, void *buf, size_t len, size_t *got) {
    const mutant *m = ctx;
    *got = 0;
    if (offset >= m->size) return 0;
    if (len > m->size - offset) len = (size_t)(m->size - offset);
    size_t lo = 0, hi = m->n;
    while (hi - lo > 1) { /* last segment with segs[k].offset <= offset */
        size_t mid = lo + (hi - lo) / 2;
        if (m->segs[mid].offset <= offset)
            lo = mid;
        else
            hi = mid;
    }
    uint8_t *out = buf;
    for (size_t k = lo; k < m->n && *got < len; k++) {
        const mutant_seg *s = &m->segs[k];
        uint64_t at = offset + *got;
        if (at < s->offset || at >= s->offset + s->len) continue;
        uint64_t n = s->offset + s->len - at;
        if (n > len - *got) n = len - *got;
        if (s->bytes)
            memcpy(out + *got, s->bytes + (at - s->offset), (size_t)n);
        else
            memset(out + *got, 0, (size_t)n);
        *got += (size_t)n;
    }
    return 0;
}

void mutant_classify(const mutant *m, tfs_format format, unsigned flags, mutant_verdict *v) {
    tfs_source src = {image_read, (void *)m, m->size, 0};
    v->status = tfs_parse_source(&src, NULL, format, flags, NULL, &v->err);
}

static int write_all(int fd, const uint8_t *p, uint64_t n, int seekable, uint64_t at) {
    while (n) {
        size_t k = n > (1u << 30) ? (1u << 30) : (size_t)n;
        ssize_t w = seekable ? pwrite(fd, p, k, (off_t)at) : write(fd, p, k);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        p += w;
        n -= (uint64_t)w;
        at += (uint64_t)w;
    }
    return 0;
}

int mutant_write_fd(const mutant *m, int fd) {
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (regular) {
        if (ftruncate(fd, 0) != 0) return errno;
        for (size_t i = 0; i < m->n; i++)
            if (m->segs[i].bytes) {
                int e = write_all(fd, m->segs[i].bytes, m->segs[i].len, 1, m->segs[i].offset);
                if (e) return e;
            }
        if (ftruncate(fd, (off_t)m->size) != 0) return errno; /* trailing hole */
        return 0;
    }
    static const uint8_t zeros[65536];
    for (size_t i = 0; i < m->n; i++) {
        const mutant_seg *s = &m->segs[i];
        if (s->bytes) {
            int e = write_all(fd, s->bytes, s->len, 0, 0);
            if (e) return e;
        } else {
            for (uint64_t left = s->len; left;) {
                uint64_t k = left > sizeof zeros ? sizeof zeros : left;
                int e = write_all(fd, zeros, k, 0, 0);
                if (e) return e;
                left -= k;
            }
        }
    }
    return 0;
}
