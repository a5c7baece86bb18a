/* input.c: one FILE ("-" = standard input) to a parse: the byte source
 * (a file by positioned reads; a pipe, a FIFO, a character device or a
 * /proc file forward only), the first bytes for the not-a-model test (sniff.c), then the
 * library. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define PREFIX_MAX SNIFF_PREFIX /* bytes looked at to tell what a file is (cli.h) */

/* A forward-only source: the prefix already read, then the descriptor. */
typedef struct stream {
    int fd;
    uint8_t pre[PREFIX_MAX];
    size_t pre_len, pre_pos;
} stream;

static int read_some(int fd, void *buf, size_t len, size_t *got) {
    for (;;) {
        ssize_t r = read(fd, buf, len);
        if (r >= 0) {
            *got = (size_t)r;
            return 0;
        }
        if (errno != EINTR) return errno;
    }
}

/* Fill buf with up to len bytes (short only at the end of the stream). */
static int read_full(int fd, uint8_t *buf, size_t len, size_t *got) {
    size_t n = 0;
    while (n < len) {
        size_t k = 0;
        int e = read_some(fd, buf + n, len - n, &k);
        if (e) return e;
        if (k == 0) break;
        n += k;
    }
    *got = n;
    return 0;
}

static int stream_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    stream *s = ctx;
    (void)off; /* forward-only: each call continues where the last ended */
    if (s->pre_pos < s->pre_len) {
        size_t k = s->pre_len - s->pre_pos < len ? s->pre_len - s->pre_pos : len;
        memcpy(buf, s->pre + s->pre_pos, k);
        s->pre_pos += k;
        *got = k;
        return 0;
    }
    return read_some(s->fd, buf, len, got);
}

static tfs_status io_fail(tfs_error *err, int e) {
    memset(err, 0, sizeof *err);
    err->index = -1;
    err->sys_errno = e;
    return TFS_EIO;
}

/* A stream (pipe, terminal, or a regular file that says it is empty but is
 * not, as /proc files): the prefix, then forward-only reads. */
static int g_streamed; /* the last parse_one read a stream (input_streamed) */

int input_streamed(void) { return g_streamed; }

static tfs_status parse_stream(int fd, const char *path, const check_opts *o, unsigned flags, tfs_header **h,
                               tfs_error *err, const char **not_model, const char **hint) {
    stream s = {.fd = fd};
    g_streamed = 1;
    int e = read_full(fd, s.pre, sizeof s.pre, &s.pre_len);
    if (e) return io_fail(err, e);
    /* a stream shorter than the prefix has a known size */
    int known = s.pre_len < sizeof s.pre;
    tfs_format f = sniff_decide(o->format, s.pre, s.pre_len, s.pre_len, known, path, not_model, hint);
    if (f == TFS_FORMAT_UNKNOWN) return TFS_INVALID;
    tfs_source src = {.read = stream_read, .ctx = &s, .size = TFS_SIZE_UNKNOWN, .forward = 1};
    return tfs_parse_source(&src, path, f, flags, h, err);
}

/* An open descriptor: a regular file by positioned reads; a pipe, a FIFO or
 * a character device (standard input, /dev/stdin, `<(cmd)`) as a stream; a
 * directory, or any file that is not regular when o->no_special (a file a
 * walk found: it must not block the batch), refused without a read
 * (tfs.h). */
static tfs_status parse_open(int fd, const char *path, const check_opts *o, unsigned flags, tfs_header **h,
                             tfs_error *err, const char **not_model, const char **hint) {
    struct stat st;
    if (fstat(fd, &st) != 0) return io_fail(err, errno);
    if (!S_ISREG(st.st_mode)) {
        int streamable = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
        if (path && (!streamable || o->no_special)) return tfs_parse_fd(fd, path, o->format, flags, h, err);
        if (path) {
            /* opened without blocking (a terminal, a device); now read as
             * `-` is: a read waits for the bytes */
            int fl = fcntl(fd, F_GETFL);
            if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) return io_fail(err, errno);
        }
        return parse_stream(fd, path, o, flags, h, err, not_model, hint);
    }
    uint8_t pre[PREFIX_MAX];
    size_t n = 0;
    if (st.st_size > 0) {
        size_t want = (uint64_t)st.st_size < sizeof pre ? (size_t)st.st_size : sizeof pre;
        while (n < want) {
            ssize_t r = pread(fd, pre + n, want - n, (off_t)n);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) return io_fail(err, errno);
            if (r == 0) break;
            n += (size_t)r;
        }
    } else {
        /* size 0: empty, or a file whose size the kernel does not know
         * (/proc, /sys): read it as a stream if it has content */
        size_t k = 0;
        int e = read_some(fd, pre, 1, &k);
        if (e) return io_fail(err, e);
        if (k == 1) {
            if (lseek(fd, 0, SEEK_SET) != 0) return io_fail(err, errno);
            return parse_stream(fd, path, o, flags, h, err, not_model, hint);
        }
    }
    tfs_format f = sniff_decide(o->format, pre, n, (uint64_t)st.st_size, 1, path, not_model, hint);
    if (f == TFS_FORMAT_UNKNOWN) return TFS_INVALID;
    return tfs_parse_fd(fd, path, f, flags, h, err);
}

tfs_status parse_one(const char *path, const check_opts *o, unsigned flags, tfs_header **h, tfs_error *err,
                     const char **not_model, const char **hint) {
    const char *hint_local = NULL;
    if (hint) *hint = NULL;
    *h = NULL;
    *not_model = NULL;
    g_streamed = 0;
    memset(err, 0, sizeof *err);
    err->index = -1;
    tfs_status st;
    if (strcmp(path, "-") == 0) {
        st = parse_open(STDIN_FILENO, NULL, o, flags, h, err, not_model, &hint_local);
    } else {
        /* a named FIFO is opened as cat opens it: waiting for its writer
         * (opened without blocking and read, it would look empty when its
         * writer comes a moment later).  Anything else, and a FIFO a walk
         * found (refused unread), without blocking. */
        struct stat pst;
        int wait_writer = !o->no_special && stat(path, &pst) == 0 && S_ISFIFO(pst.st_mode);
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (wait_writer ? 0 : O_NONBLOCK));
        if (fd < 0) return io_fail(err, errno);
        st = parse_open(fd, path, o, flags, h, err, not_model, &hint_local);
        close(fd);
    }
    if (hint) *hint = st == TFS_INVALID && !*not_model ? hint_local : NULL;
    return st;
}
