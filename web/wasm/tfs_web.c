/* tfs_web.c: libtfs for the browser inspector (web/): a WebAssembly reactor
 * whose two entry points give the same JSON as `tfs check --json` and
 * `tfs dump --json --content-only`, produced by the command line's own code
 * (tools/tfs/out_json.c, dump_json.c, sniff.c, verdict.c, detail.c) over a byte
 * source that the host (a Web Worker reading File.slice, or node) serves.
 *
 * The host provides one function, imported as env.tfs_web_read:
 *   int32_t tfs_web_read(uint64_t offset, void *buf, uint32_t len)
 * copies up to len bytes of the file from `offset` (bytes) into the
 * module's memory at buf and returns how many it copied (fewer only at the
 * end of the file), or -1 when the file could not be read (TFS_EIO).
 *
 * Exports (all sizes and offsets in bytes):
 *   tfs_web_alloc(n) / tfs_web_free(p): memory for the file name
 *   tfs_web_seed(lo, hi): 64 bits from the host's CSPRNG
 *       (crypto.getRandomValues), the root of the per-parse hash seeds
 *   tfs_web_check(name, size, flags): `tfs check --json FILE` of a file of
 *       `size` bytes named by the NUL-terminated UTF-8 name (the name
 *       decides the format as the command line's sniff.c does);
 *       flags: TFS_STRICT | TFS_HEADER_ONLY (tfs/tfs.h), and TFS_WEB_LINT
 *       (256): `--lint` too, a valid file linted from its header, the
 *       safetensors header bytes (LT302) and the GGUF padding (LT114) read
 *       through the host, and for MLX the config.json beside the file
 *       when the user gave one with it (tfs_web_set.c), else the
 *       parameters from __metadata__ or inferred, as tfs_lint_path
 *   tfs_web_dump(name, size, flags): `tfs dump --json FILE`
 *   tfs_web_view(name, size, flags): the page's form (print_view_json):
 *       as tfs_web_dump, each KV with "text", what `tfs dump` shows for it,
 *       an array by "count", "offset", "bytes" and "text" (its first
 *       elements) instead of every element; the header is kept for
 *       tfs_web_elems
 *   tfs_web_elems(k, start, n): elements start .. start + n - 1 (n at most
 *       WEB_ELEMS_MAX) of the k-th KV of the file of the last
 *       tfs_web_view, each as `tfs dump` shows it (print_elems_json), read
 *       through the host then; 0 when there is no such KV
 *   all return the JSON line (NUL-terminated, newline included), valid
 *   until the next call, or 0 when out of memory;
 *   tfs_web_result_len(): its length.
 * The module is single-threaded; one call at a time. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tfs/platform.h"

#include "tfs/lint.h"
#include "tfs_web.h"
#define TFS_WEB_LINT 256u           /* tfs_web_check: lint a valid file */
#define WEB_ST_HEAD_MAX (16u << 20) /* safetensors header bytes read for LT302 at most */
#define WEB_ELEMS_MAX 10000u        /* array elements per tfs_web_elems call at most */

__attribute__((import_module("env"), import_name("tfs_web_read"))) extern int32_t tfs_web_read(uint64_t offset,
                                                                                               void *buf, uint32_t len);

/* ---- the per-parse hash seeds (tfs/platform.h): a counter through
 * splitmix64, rooted in the host's 64 random bits */
static uint64_t seed_state;

WEB_EXPORT(tfs_web_seed) void tfs_web_seed(uint32_t lo, uint32_t hi) { seed_state = ((uint64_t)hi << 32) | lo; }

uint64_t tfs_platform_hash_seed(void) {
    uint64_t z = (seed_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* ---- memory for the host */
WEB_EXPORT(tfs_web_alloc) void *tfs_web_alloc(uint32_t n) { return malloc(n ? n : 1); }
WEB_EXPORT(tfs_web_free) void tfs_web_free(void *p) { free(p); }

/* ---- the byte source: random access through the host */
static int host_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    (void)ctx;
    size_t n = 0;
    while (n < len) {
        uint32_t want = len - n > 0x1000000u ? 0x1000000u : (uint32_t)(len - n);
        int32_t r = tfs_web_read(off + n, (uint8_t *)buf + n, want);
        if (r < 0) return EIO;
        if (r == 0) break;
        n += (size_t)r;
    }
    *got = n;
    return 0;
}

/* ---- the JSON result, kept until the next call */
static char *result;
static size_t result_len;

WEB_EXPORT(tfs_web_result_len) uint32_t tfs_web_result_len(void) { return (uint32_t)result_len; }

FILE *result_open(void) {
    free(result);
    result = NULL;
    result_len = 0;
    return open_memstream(&result, &result_len);
}

const char *result_close(FILE *f) {
    if (fclose(f) != 0) {
        free(result);
        result = NULL;
        result_len = 0;
    }
    return result;
}

/* parse_one (tools/tfs/input.c) for a random-access file of `size` bytes:
 * the first SNIFF_PREFIX bytes decide the format, then the library parses. */
static tfs_status parse_web(const char *name, uint64_t size, unsigned flags, tfs_header **h, tfs_error *err,
                            const char **not_model, const char **hint) {
    static uint8_t pre[SNIFF_PREFIX];
    const char *hint_local = NULL;
    *h = NULL;
    *not_model = NULL;
    *hint = NULL;
    memset(err, 0, sizeof *err);
    err->index = -1;
    size_t n = 0;
    if (size > 0 && host_read(NULL, 0, pre, size < sizeof pre ? (size_t)size : sizeof pre, &n) != 0) {
        err->sys_errno = EIO;
        return TFS_EIO;
    }
    tfs_format f = sniff_decide(TFS_FORMAT_UNKNOWN, pre, n, size, 1, name, not_model, &hint_local);
    if (f == TFS_FORMAT_UNKNOWN) return TFS_INVALID;
    tfs_source src = {.read = host_read, .ctx = NULL, .size = size, .forward = 0};
    tfs_status st = tfs_parse_source(&src, name, f, flags, h, err);
    *hint = st == TFS_INVALID ? hint_local : NULL;
    return st;
}

WEB_EXPORT(tfs_web_check) const char *tfs_web_check(const char *name, uint64_t size, uint32_t flags) {
    check_result r;
    tfs_header *h = NULL;
    memset(&r, 0, sizeof r);
    r.file = name;
    r.flags = flags & (TFS_STRICT | TFS_HEADER_ONLY);
    r.format = TFS_FORMAT_UNKNOWN;
    r.err.index = -1;
    /* as check_one (tools/tfs/check.c): TFS_PARTIAL for the numbers of the
     * detail line, re-read through the same host source */
    r.status = parse_web(name, size, r.flags | TFS_PARTIAL, &h, &r.err, &r.not_model, &r.hint);
    if (r.status == TFS_INVALID && !r.not_model) {
        tfs_source src = {.read = host_read, .ctx = NULL, .size = size, .forward = 0};
        violation_detail(&src, h, &r.err, r.detail, sizeof r.detail);
    }
    check_verdict_set(&r, h);
    tfs_lint_report lr;
    tfs_lint_report_init(&lr);
    uint8_t *head = NULL;
    char *config = NULL;
    if ((flags & TFS_WEB_LINT) && r.verdict == V_VALID) {
        tfs_source src = {.read = host_read, .ctx = NULL, .size = size, .forward = 0};
        tfs_lint_options o = {.src = &src};
        size_t want =
            h->format == TFS_FORMAT_SAFETENSORS && h->data_offset <= WEB_ST_HEAD_MAX ? (size_t)h->data_offset : 0;
        size_t got = 0;
        if (want && (head = malloc(want)) != NULL && host_read(NULL, 0, head, want, &got) == 0 && got == want) {
            o.head = head;
            o.head_len = want;
        }
        if (h->format == TFS_FORMAT_SAFETENSORS && web_config_beside(name, &config, &o.config_len) == 0)
            o.config_json = config;
        if (tfs_lint_header(h, &o, &lr) == TFS_OK)
            r.lint = &lr;
        else
            r.lint_error = "out of memory";
    }
    FILE *f = result_open();
    if (!f) {
        free(head);
        free(config);
        tfs_lint_report_free(&lr);
        tfs_header_free(h);
        return NULL;
    }
    print_json(f, &r);
    free(head);
    free(config);
    tfs_lint_report_free(&lr);
    tfs_header_free(h);
    return result_close(f);
}

WEB_EXPORT(tfs_web_dump) const char *tfs_web_dump(const char *name, uint64_t size, uint32_t flags) {
    tfs_header *h = NULL;
    tfs_error e;
    const char *not_model, *hint;
    unsigned fl = (flags & (TFS_STRICT | TFS_HEADER_ONLY)) | TFS_PARTIAL;
    tfs_status st = parse_web(name, size, fl, &h, &e, &not_model, &hint);
    FILE *f = result_open();
    if (!f) {
        tfs_header_free(h);
        return NULL;
    }
    uint64_t unavailable = 0;
    print_content_json_hint(f, h, st, &e, not_model, hint, &unavailable);
    tfs_header_free(h);
    return result_close(f);
}

/* the header of the last tfs_web_view, for tfs_web_elems */
static tfs_header *view_h;

WEB_EXPORT(tfs_web_view) const char *tfs_web_view(const char *name, uint64_t size, uint32_t flags) {
    tfs_error e;
    const char *not_model, *hint;
    unsigned fl = (flags & (TFS_STRICT | TFS_HEADER_ONLY)) | TFS_PARTIAL;
    tfs_header_free(view_h);
    view_h = NULL;
    tfs_status st = parse_web(name, size, fl, &view_h, &e, &not_model, &hint);
    FILE *f = result_open();
    if (!f) return NULL;
    print_view_json(f, view_h, st, &e, not_model, hint);
    return result_close(f);
}

WEB_EXPORT(tfs_web_elems) const char *tfs_web_elems(uint32_t k, uint64_t start, uint32_t n) {
    if (!view_h || k >= view_h->n_kv) return NULL;
    FILE *f = result_open();
    if (!f) return NULL;
    print_elems_json(f, view_h, k, start, n < WEB_ELEMS_MAX ? n : WEB_ELEMS_MAX);
    return result_close(f);
}
