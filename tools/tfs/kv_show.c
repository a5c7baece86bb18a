/* kv_show.c: short, printable text form of one metadata value. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int kv_key_is(const tfs_kv *kv, const char *s) {
    size_t n = strlen(s);
    return kv->key.len == n && memcmp(kv->key.ptr, s, n) == 0;
}

/* Append a quoted string, cut to max bytes, escaping non-printable bytes. */
static void put_quoted(char *buf, size_t n, const uint8_t *s, size_t len, size_t max, int cut) {
    size_t o = strlen(buf);
    size_t shown = len < max ? len : max;
    if (o + 1 < n) buf[o++] = '"';
    for (size_t i = 0; i < shown && o + 5 < n; i++) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') { buf[o++] = '\\'; buf[o++] = (char)c; }
        else if (c >= 0x20 && c != 0x7f) buf[o++] = (char)c; /* UTF-8 bytes pass through */
        else o += (size_t)snprintf(buf + o, n - o, "\\x%02x", c);
    }
    buf[o] = '\0';
    snprintf(buf + o, n - o, "\"%s", cut || shown < len ? "..." : "");
}

/* Text of one fixed-size GGUF scalar (decoded by tfs_kv_get). */
static void put_scalar(char *buf, size_t n, const tfs_value *v) {
    size_t o = strlen(buf);
    switch (v->type) {
    case TFS_GG_U8: case TFS_GG_U16: case TFS_GG_U32: case TFS_GG_U64:
        snprintf(buf + o, n - o, "%" PRIu64, v->u64);
        break;
    case TFS_GG_I8: case TFS_GG_I16: case TFS_GG_I32: case TFS_GG_I64:
        snprintf(buf + o, n - o, "%" PRId64, v->i64);
        break;
    case TFS_GG_F32: case TFS_GG_F64: snprintf(buf + o, n - o, "%g", v->f64); break;
    case TFS_GG_BOOL: snprintf(buf + o, n - o, "%s", v->u64 ? "true" : "false"); break;
    default: snprintf(buf + o, n - o, "?"); break;
    }
}

void kv_show(const tfs_header *h, const tfs_kv *kv, char *buf, size_t n, size_t max_str) {
    if (n == 0) return;
    buf[0] = '\0';
    if (kv->type == TFS_GG_STRING) {
        char tmp[256];
        tfs_str s;
        tfs_value v;
        size_t cap = max_str < sizeof tmp ? max_str : sizeof tmp;
        if (tfs_kv_get(h, kv, 0, &v) != TFS_OK || tfs_kv_get_string(h, kv, 0, &s, tmp, cap) != TFS_OK) {
            snprintf(buf, n, "?");
            return;
        }
        /* the full length decides the "..." */
        put_quoted(buf, n, (const uint8_t *)s.ptr, v.u64 > s.len ? s.len : (size_t)v.u64, max_str,
                   v.u64 > max_str);
        return;
    }
    if (kv->type == TFS_GG_ARRAY) {
        const char *et = tfs_gg_vtype_name(kv->elem_type);
        snprintf(buf, n, "[%s x %" PRIu64 "]", et ? et : "?", kv->count);
        return;
    }
    tfs_value v;
    if (tfs_kv_get(h, kv, 0, &v) != TFS_OK) { snprintf(buf, n, "?"); return; }
    put_scalar(buf, n, &v);
}

void fput_safe(FILE *out, const char *s, size_t len) {
    const uint8_t *p = (const uint8_t *)s;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = p[i];
        if (c < 0x20 || c == 0x7f) fprintf(out, "\\x%02x", c);
        else if (c == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) /* U+0080..U+009F (C1) */
            fprintf(out, "\\u%04x", p[++i]);
        else fputc(c, out);
    }
}
