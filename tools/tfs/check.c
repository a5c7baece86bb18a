/* check.c: `tfs check`: one parse per file (header only), report, exit status. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Standard input as a forward-only source (a pipe, a socket, a terminal). */
static int stdin_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    (void)ctx;
    (void)off; /* forward-only: each call continues where the last ended */
    for (;;) {
        ssize_t r = read(STDIN_FILENO, buf, len);
        if (r >= 0) { *got = (size_t)r; return 0; }
        if (errno != EINTR) return errno;
    }
}

static tfs_status parse_stdin(const check_opts *o, tfs_header **h, tfs_error *err) {
    struct stat st;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) /* `< file`: random access */
        return tfs_parse_fd(STDIN_FILENO, NULL, o->format, o->flags, h, err);
    tfs_source src = {.read = stdin_read, .size = TFS_SIZE_UNKNOWN, .forward = 1};
    return tfs_parse_source(&src, NULL, o->format, o->flags, h, err);
}

tfs_status parse_one(const char *path, const check_opts *o, unsigned flags, tfs_header **h, tfs_error *err) {
    *h = NULL;
    if (strcmp(path, "-") == 0) {
        check_opts so = *o;
        so.flags = flags;
        return parse_stdin(&so, h, err);
    }
    /* O_NONBLOCK: a FIFO must not block the batch; tfs_parse_fd refuses
     * anything that is not a regular file (EISDIR / EINVAL) without reading. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        memset(err, 0, sizeof *err);
        err->index = -1;
        err->sys_errno = errno;
        return TFS_EIO;
    }
    tfs_status st = tfs_parse_fd(fd, path, o->format, flags, h, err);
    close(fd);
    return st;
}

static void check_one(const char *path, const check_opts *o, check_result *r, tfs_header **h) {
    memset(r, 0, sizeof *r);
    r->file = path;
    r->flags = o->flags;
    r->format = o->format;
    r->err.index = -1;
    r->status = parse_one(path, o, o->flags, h, &r->err);
    if (r->status == TFS_EIO) r->sys_errno = r->err.sys_errno;
    /* the parser that ran: the header's format, or the rule's (FORMAT column) */
    if (r->status == TFS_OK) r->format = (*h)->format;
    else if (r->status == TFS_INVALID) r->format = tfs_rule_format(r->err.rule);
    switch (r->status) {
    case TFS_OK: r->verdict = V_VALID; r->h = *h; break;
    case TFS_INVALID: r->verdict = V_PARSER_ERROR; break;
    case TFS_EIO: r->verdict = V_IO_ERROR; r->sys_errno = r->err.sys_errno; break;
    default: r->verdict = V_INTERNAL; break;
    }
}

int cmd_check(int argc, char **argv, int first) {
    check_opts o;
    int rc = check_parse_args(argc, argv, first, &o);
    if (rc == 1) return 0;
    if (rc != 0) return 2;
    int any_invalid = 0, any_error = 0;
    size_t n_valid = 0, n_invalid = 0, n_error = 0;
    for (int i = o.first_file; i < argc; i++) {
        check_result r;
        tfs_header *h;
        check_one(argv[i], &o, &r, &h);
        if (o.json) print_json(stdout, &r);
        else print_human(stdout, &r);
        tfs_header_free(h);
        if (r.verdict == V_VALID) n_valid++;
        else if (r.verdict == V_PARSER_ERROR) { n_invalid++; any_invalid = 1; }
        else { n_error++; any_error = 1; }
    }
    if (!o.json && argc - o.first_file > 1)
        printf("%d files: %zu valid, %zu invalid, %zu errors\n", argc - o.first_file, n_valid, n_invalid, n_error);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "tfs check: cannot write output: %s\n", strerror(errno));
        return 2;
    }
    return any_error ? 2 : any_invalid ? 1 : 0;
}
