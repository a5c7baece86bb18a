/* kv_show.c: short, printable text form of one metadata value. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int kv_key_is(const tfs_kv *kv, const char *s) {
    size_t n = strlen(s);
    return kv->key.len == n && memcmp(kv->key.ptr, s, n) == 0;
}

static uint64_t le(const uint8_t *p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Append a quoted string, cut to max bytes, escaping non-printable bytes. */
static void put_quoted(char *buf, size_t n, const uint8_t *s, size_t len, size_t max) {
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
    snprintf(buf + o, n - o, "\"%s", shown < len ? "..." : "");
}

/* Text of one fixed-size GGUF scalar. */
static void put_scalar(char *buf, size_t n, uint32_t vtype, const uint8_t *p) {
    size_t o = strlen(buf);
    union { uint32_t u; float f; } f32;
    union { uint64_t u; double d; } f64;
    switch (vtype) {
    case TFS_GG_U8: case TFS_GG_U16: case TFS_GG_U32: case TFS_GG_U64:
        snprintf(buf + o, n - o, "%" PRIu64, le(p, tfs_gg_vtype_size(vtype)));
        break;
    case TFS_GG_I8: snprintf(buf + o, n - o, "%d", (int)(int8_t)p[0]); break;
    case TFS_GG_I16: snprintf(buf + o, n - o, "%d", (int)(int16_t)le(p, 2)); break;
    case TFS_GG_I32: snprintf(buf + o, n - o, "%" PRId32, (int32_t)le(p, 4)); break;
    case TFS_GG_I64: snprintf(buf + o, n - o, "%" PRId64, (int64_t)le(p, 8)); break;
    case TFS_GG_F32: f32.u = (uint32_t)le(p, 4); snprintf(buf + o, n - o, "%g", (double)f32.f); break;
    case TFS_GG_F64: f64.u = le(p, 8); snprintf(buf + o, n - o, "%g", f64.d); break;
    case TFS_GG_BOOL: snprintf(buf + o, n - o, "%s", p[0] ? "true" : "false"); break;
    default: snprintf(buf + o, n - o, "?"); break;
    }
}

void kv_show(tfs_format f, const tfs_kv *kv, char *buf, size_t n, size_t max_str) {
    if (n == 0) return;
    buf[0] = '\0';
    if (f != TFS_FORMAT_GGUF) { /* safetensors __metadata__: decoded string */
        put_quoted(buf, n, kv->value, kv->value_len, max_str);
        return;
    }
    if (kv->type == TFS_GG_STRING) {
        if (kv->value_len < 8) { snprintf(buf, n, "?"); return; }
        uint64_t len = le(kv->value, 8);
        if (len > kv->value_len - 8) len = kv->value_len - 8;
        put_quoted(buf, n, kv->value + 8, (size_t)len, max_str);
        return;
    }
    if (kv->type == TFS_GG_ARRAY) {
        const char *et = tfs_gg_vtype_name(kv->elem_type);
        snprintf(buf, n, "[%s x %" PRIu64 "]", et ? et : "?", kv->count);
        return;
    }
    size_t sz = tfs_gg_vtype_size(kv->type);
    if (sz == 0 || kv->value_len < sz) { snprintf(buf, n, "?"); return; }
    put_scalar(buf, n, kv->type, kv->value);
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
