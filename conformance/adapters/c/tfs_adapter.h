/*
 * tfs_adapter.h: what a C or C++ adapter of the conformance protocol prints
 * (docs/adapters.md; ../shared/design.md "Adapter protocol"), header only,
 * no dependency.  The first stdout line is one JSON object:
 *   accepted: {"reader": "...", "content": {"format", "version", "alignment",
 *              "tensors": [...], "kv": [...]}}   then exit TA_ACCEPT (0)
 *   rejected: {"reader": "...", "message": "..."} then exit TA_REJECT (1)
 *   unsupported (a format the reader does not read): exit TA_UNSUPPORTED (77)
 * A crash stays a crash: never catch SIGSEGV or an abort to turn it into a
 * verdict.  ta_exit() flushes stdout (a buffered line lost at exit would make
 * a misread look like a pass).
 *
 * Strings: ta_str() writes bytes as a JSON string: valid UTF-8 copied,
 * control bytes escaped, an invalid byte as U+FFFD.  Numbers: 64-bit
 * integers as decimal strings (exact for any JSON reader), f32 / f64 as a
 * readable value plus their bit pattern ("bits": "0x3fc00000").
 */
#ifndef TFS_ADAPTER_H
#define TFS_ADAPTER_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TA_ACCEPT = 0, TA_REJECT = 1, TA_UNSUPPORTED = 77 };

/* length of the valid UTF-8 sequence at p (at most n bytes), or 0 */
static inline size_t ta_utf8_len(const unsigned char *p, size_t n) {
    unsigned c = p[0];
    size_t len;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (n < len) return 0;
    unsigned cp = c & (0x3f >> (len - 1));
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

/* bytes [s, s+n) as a JSON string */
static inline void ta_str(FILE *f, const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c), i++;
        else if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\u%04x", c), i++;
        else if (c < 0x80)
            fputc((int)c, f), i++;
        else {
            size_t l = ta_utf8_len(p + i, n - i);
            if (l)
                fwrite(p + i, 1, l, f), i += l;
            else
                fputs("\\ufffd", f), i++;
        }
    }
    fputc('"', f);
}

static inline void ta_cstr(FILE *f, const char *s) { ta_str(f, s, strlen(s)); }
static inline void ta_u64(FILE *f, uint64_t v) { fprintf(f, "\"%" PRIu64 "\"", v); }
static inline void ta_i64(FILE *f, int64_t v) { fprintf(f, "\"%" PRId64 "\"", v); }

/* "value": x, "bits": "0x..." (value left out when JSON cannot hold it: inf, nan) */
static inline void ta_f32_fields(FILE *f, float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    if (x == x && x - x == 0) fprintf(f, "\"value\":%.9g,", (double)x);
    fprintf(f, "\"bits\":\"0x%08" PRIx32 "\"", b);
}
static inline void ta_f64_fields(FILE *f, double x) {
    uint64_t b;
    memcpy(&b, &x, 8);
    if (x == x && x - x == 0) fprintf(f, "\"value\":%.17g,", x);
    fprintf(f, "\"bits\":\"0x%016" PRIx64 "\"", b);
}

/* {"reader": R, "message": M}, then the exit; M may be NULL */
static inline int ta_reject(const char *reader, const char *message) {
    fputs("{\"reader\":", stdout);
    ta_cstr(stdout, reader);
    if (message) {
        fputs(",\"message\":", stdout);
        ta_cstr(stdout, message);
    }
    fputs("}\n", stdout);
    return TA_REJECT;
}

/* flush stdout, then exit with code: an unwritable stdout is an error (2) */
static inline void ta_exit(int code) {
    if (fflush(stdout) != 0 || ferror(stdout)) code = 2;
    exit(code);
}

#endif
