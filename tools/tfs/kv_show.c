/* kv_show.c: printable text of untrusted bytes and of metadata values.
 * Everything a file holds (names, keys, values) and every file name reaches
 * the terminal through put_escaped, so no byte of a file can move the
 * cursor, recolour the screen, forge a line or pass for another text. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int kv_key_is(const tfs_kv *kv, const char *s) {
    size_t n = strlen(s);
    return kv->key.len == n && memcmp(kv->key.ptr, s, n) == 0;
}

/* Code points shown escaped although valid: C1 controls (U+0085 NEL,
 * U+009B CSI, ...) and the bidirectional overrides and isolates that make a
 * terminal show text in another order than it is stored. */
static int hidden_cp(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x2028 || cp == 0x2029;
}

void put_escaped(FILE *out, const char *str, size_t len, int quote) {
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0;
    while (i < len) {
        uint8_t c = s[i];
        if (c == '\\' || (quote && c == '"')) {
            fputc('\\', out);
            fputc(c, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\x%02x", c);
            i++;
        } else if (c < 0x80) {
            fputc(c, out);
            i++;
        } else {
            uint32_t cp;
            size_t n = tfs_utf8_decode(s + i, len - i, &cp);
            if (n == 0) { /* not UTF-8: a raw 0x9B would be CSI on an 8-bit terminal */
                fprintf(out, "\\x%02x", c);
                i++;
            } else if (hidden_cp(cp)) {
                fprintf(out, "\\u%04" PRIx32, cp);
                i += n;
            } else {
                fwrite(s + i, 1, n, out);
                i += n;
            }
        }
    }
}

void fput_safe(FILE *out, const char *s, size_t len) { put_escaped(out, s, len, 0); }

size_t utf8_cut(const char *str, size_t len, size_t max) {
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0;
    while (i < len) {
        size_t n = tfs_utf8_decode(s + i, len - i, NULL);
        if (n == 0) n = 1; /* an invalid byte is one unit (shown as \xNN) */
        if (i + n > max) break;
        i += n;
    }
    return i;
}

/* The string s of `len` bytes (s->len == len, or s holds at least max + 4
 * of them): quoted and escaped, cut to max bytes at a character boundary,
 * then `... (N bytes)` when cut. */
static void put_str_cut(FILE *out, const tfs_str *s, uint64_t len, size_t max) {
    int cut = len > max;
    size_t shown = cut ? utf8_cut(s->ptr, s->len, max) : s->len;
    fputc('"', out);
    put_escaped(out, s->ptr, shown, 1);
    fputc('"', out);
    if (cut) fprintf(out, "... (%" PRIu64 " bytes)", len);
}

/* String i of kv: quoted and escaped, cut to max bytes at a character
 * boundary (SIZE_MAX: whole), then `... (N bytes)` when cut. */
static void put_string(FILE *out, const tfs_header *h, const tfs_kv *kv, uint64_t i, size_t max) {
    tfs_value v;
    tfs_str s;
    if (tfs_kv_get(h, kv, i, &v) != TFS_OK) {
        fputs("?", out);
        return;
    }
    char small[512];
    char *buf = small;
    /* bytes to read: all (--full: its real length, parsed to lie within the
     * file), else enough to see where the character at the cut ends */
    uint64_t need = max == SIZE_MAX || v.u64 <= (uint64_t)max + 4 ? v.u64 : (uint64_t)max + 4;
    size_t cap = sizeof small;
    if (need > cap) {
        buf = need <= SIZE_MAX ? malloc((size_t)need) : NULL;
        if (!buf) {
            fprintf(out, "(string of %" PRIu64 " bytes: out of memory)", v.u64);
            return;
        }
        cap = (size_t)need;
    }
    tfs_status st = tfs_kv_get_string(h, kv, i, &s, buf, cap);
    if (st != TFS_OK) {
        fprintf(out, "(string of %" PRIu64 " bytes, not kept: a stream cannot be read again)", v.u64);
    } else {
        put_str_cut(out, &s, v.u64, max);
    }
    if (buf != small) free(buf);
}

/* One fixed-size GGUF scalar or element. */
static void put_scalar(FILE *out, const tfs_value *v) {
    switch (v->type) {
    case TFS_GG_U8:
    case TFS_GG_U16:
    case TFS_GG_U32:
    case TFS_GG_U64: fprintf(out, "%" PRIu64, v->u64); break;
    case TFS_GG_I8:
    case TFS_GG_I16:
    case TFS_GG_I32:
    case TFS_GG_I64: fprintf(out, "%" PRId64, v->i64); break;
    case TFS_GG_F32:
    case TFS_GG_F64: put_float_text(out, v->f64, v->type == TFS_GG_F32); break;
    case TFS_GG_BOOL: fputs(v->u64 ? "true" : "false", out); break;
    default: fputs("?", out); break;
    }
}

static void put_elem(FILE *out, const tfs_header *h, const tfs_kv *kv, uint64_t i, size_t max_str) {
    if (kv->elem_type == TFS_GG_STRING) {
        put_string(out, h, kv, i, max_str);
        return;
    }
    tfs_value v;
    if (tfs_kv_get(h, kv, i, &v) != TFS_OK)
        fputs("?", out);
    else
        put_scalar(out, &v);
}

void kv_put_elem(FILE *out, const tfs_header *h, const tfs_kv *kv, uint64_t i, const tfs_value *v, const tfs_str *s,
                 size_t max_str) {
    if (v->type != TFS_GG_STRING)
        put_scalar(out, v);
    else if (s->len == v->u64 || s->len >= (max_str > SIZE_MAX - 4 ? SIZE_MAX : max_str + 4))
        put_str_cut(out, s, v->u64, max_str);
    else /* longer than the block: read it whole */
        put_string(out, h, kv, i, max_str);
}

void kv_print(FILE *out, const tfs_header *h, const tfs_kv *kv, size_t max_str, uint64_t max_elems) {
    if (kv->type != TFS_GG_ARRAY) {
        put_elem(out, h, kv, 0, max_str);
        return;
    }
    const char *et = tfs_gg_vtype_name(kv->elem_type);
    fprintf(out, "[%s x %" PRIu64 "]", et ? et : "?", kv->count);
    if (max_elems == 0 || kv->count == 0) return;
    /* the elements in order, a block at a time (tfs_kv_cursor) */
    static uint8_t block[64u * 1024u]; /* the CLI is single-threaded */
    tfs_kv_cursor cur;
    tfs_value v;
    tfs_str s;
    uint64_t i = 0;
    if (tfs_kv_cursor_init(&cur, h, kv, block, sizeof block) != TFS_OK) return;
    for (; i < kv->count && i < max_elems; i++) {
        if (tfs_kv_next(&cur, &v, &s) != TFS_OK) break; /* a stream keeps the first TFS_ARRAY_KEEP bytes */
        fputs(i ? ", " : " [", out);
        kv_put_elem(out, h, kv, i, &v, &s, max_str);
    }
    if (i == 0) {
        fputs(" (not kept: a stream cannot be read again)", out);
        return;
    }
    if (i < kv->count && i < max_elems)
        fprintf(out, ", ... (+%" PRIu64 " more, not kept: a stream keeps the first %u bytes of an array)",
                kv->count - i, (unsigned)TFS_ARRAY_KEEP);
    else if (kv->count > max_elems)
        fprintf(out, ", ... (+%" PRIu64 " more)", kv->count - max_elems);
    fputc(']', out);
}
