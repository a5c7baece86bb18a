/* api.c: the public parse entry points without POSIX I/O: format detection
 * and dispatch to the format parsers for the buffer and reader sources
 * (posix_file.c adds paths and file descriptors).  It stands above core/ and
 * both format parsers: core/ knows no format. */
#include "dispatch.h"

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

tfs_format tfs_detect_format(const uint8_t *prefix, size_t len, const char *path) {
    if (prefix && len >= 4 && memcmp(prefix, "GGUF", 4) == 0) return TFS_FORMAT_GGUF;
    if (path && ends_with(path, ".gguf")) return TFS_FORMAT_GGUF;
    return TFS_FORMAT_SAFETENSORS;
}

tfs_status tfs__dispatch(tfs_src *src, const char *path, tfs_format format, unsigned flags, tfs_header **out,
                         tfs_error *err) {
    tfs_error local = {.index = -1};
    if (!err) err = &local; /* the parsers (and TFS_PARTIAL) always have a record to fill */
    if (format == TFS_FORMAT_UNKNOWN) {
        /* a file shorter than 4 bytes is detected by its path alone (tfs_detect_format): its bytes are not read
         * here, so detection and a forced format give the same answer for it */
        const uint8_t *p = tfs__src_get(src, 0, 4);
        if (!p && tfs_src_failed(src)) return tfs__fail_src(err, src);
        format = tfs_detect_format(p, p ? 4u : 0u, path);
    }
    tfs_status st;
    switch (format) {
    case TFS_FORMAT_SAFETENSORS: st = tfs__st_parse(src, flags, out, err); break;
    case TFS_FORMAT_GGUF: st = tfs__gg_parse(src, flags, out, err); break;
    default: return tfs__fail_status(err, TFS_EARG, 0);
    }
    if (out && *out) {
        tfs_priv *p = (*out)->priv_;
        p->buf = src->buf;
        if (!src->buf) {
            if (format == TFS_FORMAT_SAFETENSORS) { /* its views point into the header bytes; */
                p->window = src->win;               /* GGUF's into its own arena */
                src->win = NULL;
            }
            p->rd = src->rd;
            p->forward = src->forward;
        }
    }
    return st;
}

tfs_status tfs_parse_buffer(const uint8_t *buf, size_t len, tfs_format format, unsigned flags, tfs_header **out,
                            tfs_error *err) {
    tfs__clear_result(out, err);
    if (!buf && len) return tfs__fail_status(err, TFS_EARG, 0);
    static const uint8_t empty[1];
    tfs_src src = {.buf = buf ? buf : empty, .file_size = len, .size_known = true};
    return tfs__dispatch(&src, NULL, format, flags, out, err);
}

tfs_status tfs_parse_source(const tfs_source *rd, const char *path, tfs_format format, unsigned flags, tfs_header **out,
                            tfs_error *err) {
    tfs__clear_result(out, err);
    if (!rd || !rd->read) return tfs__fail_status(err, TFS_EARG, 0);
    tfs_src src = {.rd = *rd,
                   .file_size = rd->size,
                   .size_known = rd->size != TFS_SIZE_UNKNOWN,
                   .forward = rd->forward || rd->size == TFS_SIZE_UNKNOWN};
    tfs_status st = tfs__dispatch(&src, path, format, flags, out, err);
    tfs__src_close(&src);
    return st;
}
