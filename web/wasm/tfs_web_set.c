/* tfs_web_set.c: several files dropped on the inspector at once, or a
 * folder chosen: checked as `tfs check DIR` checks a folder, by the same
 * library code (tfs_set_entries_io, tfs_set_check_io) and the same report
 * (set_check_report), with the files read through the host.
 *
 * The host provides three more functions, imported from env:
 *   int32_t tfs_web_file_open(const char *path, uint32_t len, uint64_t *size)
 *       the file at `path` (len bytes, UTF-8; the host ignores "./"
 *       components as it compares) among the files the user gave: its id
 *       (>= 0) and *size in bytes, or -44 (ENOENT in WASI's numbering)
 *       when there is none
 *   int32_t tfs_web_file_read(int32_t id, uint64_t offset, void *buf, uint32_t len)
 *       as tfs_web_read, of file `id`
 *   int32_t tfs_web_file_list(const char *dir, uint32_t len, uint32_t i, char *buf, uint32_t cap)
 *       the base name of the i-th file of folder `dir` into buf (no NUL),
 *       its length, or -1 past the last; a name longer than cap is skipped
 *       by the caller
 * Exports:
 *   tfs_web_entries(dir): the set entries and lone model files of folder
 *       `dir` (tfs_set_entries_io) as a JSON array of paths, one line
 *   tfs_web_set(path, flags): `tfs check --json --lint` of the set entry
 *       `path` (flags: TFS_STRICT | TFS_HEADER_ONLY), one line;
 *       {"file": path, "set": false} when path names no set entry (a lone
 *       file: the host checks it with tfs_web_check) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"
#include "tfs_web.h"

#define WEB_CONFIG_MAX (16u << 20) /* config.json bytes read at most (docs/lint.md) */
#define WEB_NAME_MAX 4096u         /* bytes of a file name listed at most */

__attribute__((import_module("env"), import_name("tfs_web_file_open"))) extern int32_t
tfs_web_file_open(const char *path, uint32_t len, uint64_t *size);
__attribute__((import_module("env"), import_name("tfs_web_file_read"))) extern int32_t
tfs_web_file_read(int32_t id, uint64_t offset, void *buf, uint32_t len);
__attribute__((import_module("env"), import_name("tfs_web_file_list"))) extern int32_t
tfs_web_file_list(const char *dir, uint32_t len, uint32_t i, char *buf, uint32_t cap);

/* ---- tfs_set_io over the host's files (ctx: the file id as a pointer) */
static int file_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    int32_t id = (int32_t)(intptr_t)ctx;
    size_t n = 0;
    while (n < len) {
        uint32_t want = len - n > 0x1000000u ? 0x1000000u : (uint32_t)(len - n);
        int32_t r = tfs_web_file_read(id, off + n, (uint8_t *)buf + n, want);
        if (r < 0) return EIO;
        if (r == 0) break;
        n += (size_t)r;
    }
    *got = n;
    return 0;
}

static int file_open(void *ctx, const char *path, tfs_source *src) {
    (void)ctx;
    uint64_t size = 0;
    int32_t id = tfs_web_file_open(path, (uint32_t)strlen(path), &size);
    if (id < 0) return -id;
    *src = (tfs_source){.read = file_read, .ctx = (void *)(intptr_t)id, .size = size, .forward = 0};
    return 0;
}

static void file_list(void *ctx, const char *dir, void (*each)(void *arg, const char *name), void *arg) {
    (void)ctx;
    static char name[WEB_NAME_MAX + 1];
    for (uint32_t i = 0;; i++) {
        int32_t n = tfs_web_file_list(dir, (uint32_t)strlen(dir), i, name, WEB_NAME_MAX);
        if (n < 0) break;
        if ((uint32_t)n > WEB_NAME_MAX || memchr(name, '\0', (size_t)n)) continue;
        name[n] = '\0';
        each(arg, name);
    }
}

static const tfs_set_io web_io = {.open = file_open, .list = file_list, .ctx = NULL};

int web_config_beside(const char *name, char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    const char *slash = strrchr(name, '/');
    size_t dl = slash ? (size_t)(slash - name) + 1u : 0;
    char *path = malloc(dl + sizeof "config.json");
    if (!path) return -1;
    memcpy(path, name, dl);
    memcpy(path + dl, "config.json", sizeof "config.json");
    tfs_source src;
    int rc = -1;
    if (file_open(NULL, path, &src) == 0 && src.size <= WEB_CONFIG_MAX) {
        char *buf = malloc((size_t)src.size + 1u);
        size_t got = 0;
        if (buf && file_read(src.ctx, 0, buf, (size_t)src.size, &got) == 0 && got == src.size) {
            buf[got] = '\0';
            *out = buf;
            *len = got;
            rc = 0;
        } else {
            free(buf);
        }
    }
    free(path);
    return rc;
}

WEB_EXPORT(tfs_web_entries) const char *tfs_web_entries(const char *dir) {
    char **v = NULL;
    size_t n = 0;
    tfs_status st = tfs_set_entries_io(dir, &web_io, &v, &n);
    FILE *f = st == TFS_OK ? result_open() : NULL;
    if (f) {
        fputc('[', f);
        for (size_t i = 0; i < n; i++) {
            if (i) fputc(',', f);
            json_cstr(f, v[i]);
        }
        fputs("]\n", f);
    }
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
    return f ? result_close(f) : NULL;
}

WEB_EXPORT(tfs_web_set) const char *tfs_web_set(const char *path, uint32_t flags) {
    check_opts o;
    memset(&o, 0, sizeof o);
    o.json = 1;
    o.lint = 1;
    o.flags = flags & (TFS_STRICT | TFS_HEADER_ONLY);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    tfs_status st = tfs_set_check_io(path, o.flags, 1, NULL, &web_io, &r);
    FILE *f = result_open();
    if (f && st == TFS_EARG) { /* no set entry by its name: the host checks it as one file */
        fputs("{\"file\":", f);
        json_cstr(f, path);
        fputs(",\"set\":false}\n", f);
    } else if (f) {
        set_check_report(f, path, st, &r, &o, 0);
    }
    tfs_lint_report_free(&r);
    return f ? result_close(f) : NULL;
}
