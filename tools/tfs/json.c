/* json.c: JSON string output (RFC 8259): quotes, backslashes and control
 * characters escaped; bytes that are not valid UTF-8 become U+FFFD so that
 * the output is always valid JSON, whatever the file name or key holds. */
#include <string.h>

#include "cli.h"

void json_str(FILE *out, const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c == '"')
            fputs("\\\"", out);
        else if (c == '\\')
            fputs("\\\\", out);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else {
            size_t n = tfs_utf8_decode(s + i, len - i, NULL);
            if (n == 0) {
                fputs("\\ufffd", out);
                i++;
                continue;
            }
            fwrite(s + i, 1, n, out);
            i += n;
            continue;
        }
        i++;
    }
    fputc('"', out);
}

void json_cstr(FILE *out, const char *s) {
    if (!s)
        fputs("null", out);
    else
        json_str(out, s, strlen(s));
}
