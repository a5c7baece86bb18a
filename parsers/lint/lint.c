/* lint.c: the lint entry points (tfs_lint_header, tfs_lint_path) and the
 * small file helpers the set checks share. */
#include "lint_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef TFS_NO_POSIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

tfs_status tfs_lint_header(const tfs_header *h, const tfs_lint_options *opt, tfs_lint_report *r) {
    if (!h || !r || !h->complete) return TFS_EARG;
    tfs_lint_options none = {0};
    if (!opt) opt = &none;
    const tfs_header *const hs[1] = {h};
    tfs_status st = TFS_OK;
    size_t from = r->n_findings;
    if (h->format == TFS_FORMAT_GGUF) {
        st = tfs__lint_gguf(hs, 1, r);
        if (st == TFS_OK) st = tfs__lint_bytes(h, 0, opt->src, r);
    } else if (h->format == TFS_FORMAT_SAFETENSORS) {
        st = tfs__lint_st(h, 0, opt->head, opt->head_len, r);
        if (st == TFS_OK) st = tfs__lint_mlx(hs, 1, opt->config_json, opt->config_len, r);
    } else {
        return TFS_EARG;
    }
    if (st == TFS_OK) st = tfs__lint_name_tensors(r, from, hs, 1);
    return st == TFS_OK ? TFS_OK : TFS_ENOMEM;
}

char *tfs__lint_dirname(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (slash && n == 0) n = 1; /* "/file" */
    char *d = malloc(n ? n + 1u : 2u);
    if (!d) return NULL;
    if (n) {
        memcpy(d, path, n);
        d[n] = '\0';
    } else {
        strcpy(d, ".");
    }
    return d;
}

char *tfs__lint_join(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2u);
    if (!p) return NULL;
    memcpy(p, dir, a);
    size_t k = a;
    if (a && dir[a - 1] != '/') p[k++] = '/';
    memcpy(p + k, name, b + 1u);
    return p;
}

#ifndef TFS_NO_POSIX
tfs_status tfs__lint_slurp(const char *path, size_t max, char **out, size_t *len, int *e) {
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (e) *e = errno;
        return TFS_EIO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        if (e) *e = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
        close(fd);
        return TFS_EIO;
    }
    if ((uint64_t)sb.st_size > max) {
        if (e) *e = EFBIG;
        close(fd);
        return TFS_EARG;
    }
    size_t n = (size_t)sb.st_size;
    char *buf = malloc(n + 1u);
    if (!buf) {
        close(fd);
        return TFS_ENOMEM;
    }
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, buf + got, n - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    close(fd);
    buf[got] = '\0';
    *out = buf;
    *len = got;
    return TFS_OK;
}

tfs_status tfs__lint_st_head(const char *path, uint8_t **out, size_t *len) {
    *out = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return TFS_EIO;
    uint8_t n8[8];
    if (pread(fd, n8, 8, 0) != 8) {
        close(fd);
        return TFS_EIO;
    }
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = (n << 8) | n8[i];
    if (n > 100000000u) { /* ST002: the crate refuses more */
        close(fd);
        return TFS_EIO;
    }
    uint8_t *buf = malloc((size_t)n + 8u);
    if (!buf) {
        close(fd);
        return TFS_ENOMEM;
    }
    memcpy(buf, n8, 8);
    size_t got = 8;
    while (got < (size_t)n + 8u) {
        ssize_t k = pread(fd, buf + got, (size_t)n + 8u - got, (off_t)got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    close(fd);
    *out = buf;
    *len = got;
    return TFS_OK;
}

/* positioned reads of an open file (ctx: its descriptor) */
static int fd_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    size_t n = 0;
    while (n < len) {
        ssize_t k = pread(*(const int *)ctx, (char *)buf + n, len - n, (off_t)(off + n));
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return errno;
        if (k == 0) break;
        n += (size_t)k;
    }
    *got = n;
    return 0;
}

tfs_status tfs__lint_bytes_path(const char *path, const tfs_header *h, int part, tfs_lint_report *r) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat sb;
    tfs_source src = {.read = fd_read, .ctx = &fd, .forward = 0};
    int ok = fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size == h->file_size;
    if (ok) src.size = (uint64_t)sb.st_size;
    /* a file changed since its parse, or not a regular file: no padding read */
    tfs_status st = tfs__lint_bytes(h, part, ok ? &src : NULL, r);
    if (fd >= 0) close(fd);
    return st == TFS_OK ? st : TFS_ENOMEM;
}

#define CONFIG_MAX (16u * 1024u * 1024u)

tfs_status tfs_lint_path(const char *path, const tfs_header *h, const char *config_path, tfs_lint_report *r) {
    if (!path || !h || !r || !h->complete) return TFS_EARG;
    if (h->format == TFS_FORMAT_GGUF) {
        const tfs_header *const hs[1] = {h};
        size_t from = r->n_findings;
        tfs_status st = tfs__lint_gguf(hs, 1, r);
        if (st == TFS_OK) st = tfs__lint_bytes_path(path, h, 0, r);
        if (st == TFS_OK) st = tfs__lint_name_tensors(r, from, hs, 1);
        return st == TFS_OK ? st : TFS_ENOMEM;
    }
    if (h->format != TFS_FORMAT_SAFETENSORS) return tfs_lint_header(h, NULL, r);
    tfs_lint_options o = {0};
    uint8_t *head = NULL;
    char *config = NULL;
    size_t head_len = 0, config_len = 0;
    tfs_status st = tfs__lint_st_head(path, &head, &head_len);
    if (st != TFS_OK) return st;
    if (config_path) {
        st = tfs__lint_slurp(config_path, CONFIG_MAX, &config, &config_len, NULL);
        if (st != TFS_OK) {
            free(head);
            return st == TFS_ENOMEM ? st : TFS_EIO;
        }
    } else {
        char *dir = tfs__lint_dirname(path);
        char *beside = dir ? tfs__lint_join(dir, "config.json") : NULL;
        free(dir);
        if (!beside) {
            free(head);
            return TFS_ENOMEM;
        }
        st = tfs__lint_slurp(beside, CONFIG_MAX, &config, &config_len, NULL);
        free(beside);
        if (st == TFS_ENOMEM) { /* not "no config.json": that would change the findings */
            free(head);
            return st;
        }
        if (st != TFS_OK) config = NULL;
    }
    o.head = head;
    o.head_len = head_len;
    o.config_json = config;
    o.config_len = config_len;
    st = tfs_lint_header(h, &o, r);
    free(head);
    free(config);
    return st;
}
#endif
