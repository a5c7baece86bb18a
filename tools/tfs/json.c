/* json.c: JSON string output (RFC 8259): quotes, backslashes and control
 * characters escaped; bytes that are not valid UTF-8 become U+FFFD so that
 * the output is always valid JSON, whatever the file name or key holds. */
#include <string.h>

#include "cli.h"

/* Length of the valid UTF-8 sequence at s[0..len), or 0 if invalid
 * (overlongs, surrogates and code points above U+10FFFF are invalid). */
static size_t utf8_seq(const unsigned char *s, size_t len) {
    unsigned c = s[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (len < n) return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return n;
}

void json_str(FILE *out, const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c == '"') fputs("\\\"", out);
        else if (c == '\\') fputs("\\\\", out);
        else if (c == '\n') fputs("\\n", out);
        else if (c == '\r') fputs("\\r", out);
        else if (c == '\t') fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f) fprintf(out, "\\u%04x", c);
        else {
            size_t n = utf8_seq(s + i, len - i);
            if (n == 0) { fputs("\\ufffd", out); i++; continue; }
            fwrite(s + i, 1, n, out);
            i += n;
            continue;
        }
        i++;
    }
    fputc('"', out);
}

void json_cstr(FILE *out, const char *s) {
    if (!s) fputs("null", out);
    else json_str(out, s, strlen(s));
}
