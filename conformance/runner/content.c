/* content.c: a reader's content compared with the expected content of a
 * valid fixture (design.md "Expected content", "Adapter protocol"), with
 * jansson.
 *
 * Compared, field by field: format, version, alignment, and every tensor
 * (name, type, shape, offsets) and KV (key, type, elem_type, value) in
 * order (safetensors: matched by name, see by_name).  Lenient in spelling,
 * strict in meaning:
 *   - partial content: a key the reader leaves out is not compared (keys
 *     without types, tensors without offsets); an array it gives must have
 *     every element; what was left out is counted (cf_content_cov);
 *   - a 64-bit integer may be a JSON number or a decimal string on either
 *     side (exact up to 64 bits; beyond, compared as doubles);
 *   - floats compare by "bits" (hex, any case) when both sides give them,
 *     else by value (as f32 for an f32 value); a missing "bits" is not a
 *     difference;
 *   - "data_offset" and a tensor's "file_offset" are compared only when the
 *     reader gives them, and never count as left out (optional_key);
 *   - keys the reader adds are ignored. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "conform.h"

typedef struct cmp_ctx {
    char *why;
    size_t n;
    cf_content_cov *cov;
} cmp_ctx;

static int differ(cmp_ctx *c, const char *path, const char *what) {
    snprintf(c->why, c->n, "content differs at %s: %s", *path ? path : "(top)", what);
    return 1;
}

static void show(const json_t *v, char *buf, size_t n) {
    char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    snprintf(buf, n, "%.80s%s", s ? s : "missing", s && strlen(s) > 80 ? "..." : "");
    free(s);
}

/* A number as the comparison sees it: an exact 64-bit integer (signed or
 * unsigned) or a double.  A JSON integer, a JSON real, or a decimal string
 * ("-123", "18446744073709551615"). */
typedef struct num {
    enum { N_NONE, N_INT, N_UINT, N_REAL } kind;
    int64_t i;
    uint64_t u;
    double d;
} num;

static num as_num(const json_t *v) {
    num r = {N_NONE, 0, 0, 0};
    if (json_is_integer(v)) {
        r.kind = N_INT;
        r.i = json_integer_value(v);
        r.d = (double)r.i;
    } else if (json_is_real(v)) {
        r.kind = N_REAL;
        r.d = json_real_value(v);
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v), *p = s;
        size_t len = json_string_length(v);
        if (*p == '-') p++;
        if (!*p || len != strlen(s) || len > 40) return r;
        for (const char *q = p; *q; q++)
            if (*q < '0' || *q > '9') return r;
        char *end;
        errno = 0;
        if (*s == '-') {
            long long x = strtoll(s, &end, 10);
            if (errno == 0) {
                r.kind = N_INT;
                r.i = x;
                r.d = (double)x;
                return r;
            }
        } else {
            unsigned long long x = strtoull(s, &end, 10);
            if (errno == 0) {
                r.kind = N_UINT;
                r.u = x;
                r.d = (double)x;
                return r;
            }
        }
        r.kind = N_REAL; /* beyond 64 bits: as a double */
        r.d = strtod(s, &end);
    }
    return r;
}

/* exact for 64-bit integers of either sign and spelling; else as doubles
 * (as f32 values when f32) */
static int numbers_equal(num a, num b, int f32) {
    if (a.kind != N_REAL && b.kind != N_REAL) {
        if (a.kind == N_INT && a.i < 0) return b.kind == N_INT && b.i == a.i;
        if (b.kind == N_INT && b.i < 0) return 0;
        uint64_t ua = a.kind == N_INT ? (uint64_t)a.i : a.u, ub = b.kind == N_INT ? (uint64_t)b.i : b.u;
        return ua == ub;
    }
    if (f32) return (float)a.d == (float)b.d;
    return a.d == b.d;
}

/* "0x3fc00000" against "0x3FC00000", or arrays of them */
static int bits_equal(const json_t *e, const json_t *g) {
    if (json_is_array(e) && json_is_array(g)) {
        if (json_array_size(e) != json_array_size(g)) return 0;
        for (size_t i = 0; i < json_array_size(e); i++)
            if (!bits_equal(json_array_get(e, i), json_array_get(g, i))) return 0;
        return 1;
    }
    if (!json_is_string(e) || !json_is_string(g)) return json_equal((json_t *)e, (json_t *)g);
    char *x, *y;
    errno = 0;
    unsigned long long a = strtoull(json_string_value(e), &x, 16), b = strtoull(json_string_value(g), &y, 16);
    if (errno || *x || *y) return strcasecmp(json_string_value(e), json_string_value(g)) == 0;
    return a == b;
}

static int deep(cmp_ctx *c, const json_t *e, const json_t *g, const char *path, int f32);

/* Where the data section starts (top-level "data_offset") and each tensor's
 * absolute start ("file_offset", null past 2^64 - 1): compared when a reader
 * gives them, and a reader that does not is not reporting partial content
 * (most readers give offsets relative to the data section only). */
static int optional_key(const char *k) { return strcmp(k, "data_offset") == 0 || strcmp(k, "file_offset") == 0; }

static int deep_object(cmp_ctx *c, const json_t *e, const json_t *g, const char *path) {
    const char *k;
    const json_t *ev;
    const json_t *type = json_object_get(e, "type"), *et = json_object_get(e, "elem_type");
    int f32 = (json_is_string(type) && strcmp(json_string_value(type), "f32") == 0) ||
              (json_is_string(et) && strcmp(json_string_value(et), "f32") == 0);
    const json_t *eb = json_object_get(e, "bits"), *gb = json_object_get(g, "bits");
    int both_bits = eb && gb && !json_is_null(gb);
    json_object_foreach((json_t *)e, k, ev) {
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
        if (strcmp(k, "bits") == 0) {
            if (!both_bits) continue; /* spelling: the value decides */
            c->cov->compared++;
            if (!bits_equal(ev, gb)) {
                char a[100], b[100], msg[256];
                show(gb, a, sizeof a);
                show(ev, b, sizeof b);
                snprintf(msg, sizeof msg, "%s, want %s", a, b);
                return differ(c, sub, msg);
            }
            continue;
        }
        if (both_bits && strcmp(k, "value") == 0) continue; /* the bits decide */
        const json_t *gv = json_object_get(g, k);
        if (!gv) { /* partial content: not given, not compared */
            if (!optional_key(k)) c->cov->skipped++;
            continue;
        }
        if (deep(c, ev, gv, sub, f32)) return 1;
    }
    return 0;
}

static int deep(cmp_ctx *c, const json_t *e, const json_t *g, const char *path, int f32) {
    char a[100], b[100], msg[256];
    if (!g) g = json_null();
    if (json_is_object(e)) {
        if (!json_is_object(g)) goto mismatch;
        return deep_object(c, e, g, path);
    }
    if (json_is_array(e)) {
        if (!json_is_array(g)) goto mismatch;
        if (json_array_size(e) != json_array_size(g)) {
            snprintf(msg, sizeof msg, "%zu elements, want %zu", json_array_size(g), json_array_size(e));
            return differ(c, path, msg);
        }
        for (size_t i = 0; i < json_array_size(e); i++) {
            char sub[256];
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            if (deep(c, json_array_get(e, i), json_array_get(g, i), sub, f32)) return 1;
        }
        if (json_array_size(e) == 0) c->cov->compared++;
        return 0;
    }
    c->cov->compared++;
    num ne = as_num(e), ng = as_num(g);
    /* a number on one side at least: numbers and decimal strings compare by value */
    if ((json_is_number(e) || json_is_number(g)) && ne.kind != N_NONE && ng.kind != N_NONE) {
        if (numbers_equal(ne, ng, f32)) return 0;
        goto mismatch;
    }
    if (json_equal((json_t *)e, (json_t *)g)) return 0;
    /* u64 / i64 strings spelt differently ("007"): by value too */
    if (json_is_string(e) && json_is_string(g) && ne.kind != N_NONE && ng.kind != N_NONE && ne.kind != N_REAL &&
        ng.kind != N_REAL && numbers_equal(ne, ng, 0))
        return 0;
mismatch:
    show(g, a, sizeof a);
    show(e, b, sizeof b);
    snprintf(msg, sizeof msg, "%s, want %s", a, b);
    return differ(c, path, msg);
}

/* jansson keeps integers in 64 signed bits: a document with a larger one
 * (a u64 value or shape above 2^63 - 1) is read again with each such
 * integer as a decimal string, which the comparison reads exactly (u64) or,
 * beyond 64 bits, as a double.  Strings may hold U+0000 (a GGUF key or
 * value, a safetensors name with an escaped NUL): JSON_ALLOW_NUL, compared
 * by length (json_equal). */
static char *quote_big_integers(const char *text, size_t len, size_t *out_len) {
    char *out = malloc(len + len / 2 + 3), *o = out;
    if (!out) return NULL;
    int in_str = 0;
    for (size_t i = 0; i < len;) {
        char ch = text[i];
        if (in_str) {
            *o++ = ch;
            i++;
            if (ch == '\\' && i < len)
                *o++ = text[i++];
            else if (ch == '"')
                in_str = 0;
            continue;
        }
        if (ch == '"') {
            in_str = 1;
            *o++ = ch;
            i++;
            continue;
        }
        if (ch == '-' || (ch >= '0' && ch <= '9')) {
            size_t j = i + (ch == '-'), digits = 0;
            while (j < len && text[j] >= '0' && text[j] <= '9') j++, digits++;
            int integer = digits && (j == len || !strchr(".eE", text[j]));
            int big = 0;
            if (integer && digits >= 19) {
                char buf[64];
                size_t tl = j - i;
                if (tl >= sizeof buf)
                    big = 1;
                else {
                    memcpy(buf, text + i, tl);
                    buf[tl] = '\0';
                    errno = 0;
                    (void)strtoll(buf, NULL, 10);
                    big = errno == ERANGE;
                }
            }
            if (big) *o++ = '"';
            memcpy(o, text + i, j - i);
            o += j - i;
            if (big) *o++ = '"';
            i = j;
            continue;
        }
        *o++ = ch;
        i++;
    }
    *out_len = (size_t)(o - out);
    return out;
}

json_t *cf_json_loadb(const char *text, size_t len, size_t flags, json_error_t *je) {
    flags |= JSON_ALLOW_NUL;
    json_t *j = json_loadb(text, len, flags, je);
    if (!j && json_error_code(je) == json_error_numeric_overflow) {
        size_t ql;
        char *q = quote_big_integers(text, len, &ql);
        if (q) j = json_loadb(q, ql, flags, je);
        free(q);
        if (!j && json_error_code(je) == json_error_numeric_overflow)
            j = json_loadb(text, len, flags | JSON_DECODE_INT_AS_REAL, je);
    }
    return j;
}

static json_t *load_file(const char *path, json_error_t *je) {
    json_t *j = json_load_file(path, JSON_ALLOW_NUL, je);
    if (j || json_error_code(je) != json_error_numeric_overflow) return j;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 65536 > cap) {
            char *nb = realloc(buf, cap = cap * 2 + 65536);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got);
    fclose(f);
    j = cf_json_loadb(buf, len, 0, je);
    free(buf);
    return j;
}

/* safetensors content has no order: the crate keeps tensors and
 * __metadata__ in hash maps, and a JavaScript reader enumerates an
 * integer-like name ("1") before the others.  So for safetensors the
 * reader's `tensors` / `kv` elements are matched to the expected ones by
 * `name` / `key` (each used once) before the comparison.  Returns that
 * reordered array (a new reference), or NULL to compare in the reader's own
 * order: already in order, sizes differ, or a name is not found (the
 * comparison then shows the difference). */
static json_t *by_name(const json_t *e, const json_t *g, const char *field) {
    if (!json_is_array(e) || !json_is_array(g) || json_array_size(e) != json_array_size(g)) return NULL;
    size_t n = json_array_size(e), i = 0;
    while (i < n &&
           json_equal(json_object_get(json_array_get(e, i), field), json_object_get(json_array_get(g, i), field)))
        i++;
    if (i == n) return NULL;
    json_t *out = json_array();
    char *used = calloc(n, 1);
    if (!out || !used) goto fail;
    for (i = 0; i < n; i++) {
        const json_t *name = json_object_get(json_array_get(e, i), field);
        if (!json_is_string(name)) goto fail;
        size_t j = 0;
        while (j < n && (used[j] || !json_equal((json_t *)name, json_object_get(json_array_get(g, j), field)))) j++;
        if (j == n) goto fail;
        used[j] = 1;
        json_array_append(out, json_array_get(g, j));
    }
    free(used);
    return out;
fail:
    free(used);
    json_decref(out);
    return NULL;
}

static int compare(const json_t *got, const char *expected_path, char *why, size_t n, cf_content_cov *cov) {
    cf_content_cov dummy;
    if (!cov) cov = &dummy;
    memset(cov, 0, sizeof *cov);
    json_error_t je;
    json_t *exp = load_file(expected_path, &je);
    if (!exp) {
        snprintf(why, n, "expected content %s: %s (line %d)", expected_path, je.text, je.line);
        return -1;
    }
    cmp_ctx c = {why, n, cov};
    int rc = 0;
    if (!json_is_object(got)) rc = differ(&c, "", "not a JSON object");
    static const char *const keys[] = {"format", "version", "alignment", "tensors", "kv"};
    const json_t *fmt = json_object_get(exp, "format");
    int unordered = json_is_string(fmt) && strcmp(json_string_value(fmt), "safetensors") == 0;
    for (int i = 0; rc == 0 && i < 5; i++) {
        const json_t *gv = json_object_get(got, keys[i]);
        json_t *sorted = NULL;
        if (unordered && i >= 3) sorted = by_name(json_object_get(exp, keys[i]), gv, i == 3 ? "name" : "key");
        if (!gv)
            cov->skipped++; /* partial content */
        else
            rc = deep(&c, json_object_get(exp, keys[i]), sorted ? sorted : gv, keys[i], 0);
        json_decref(sorted);
    }
    json_decref(exp);
    return rc;
}

int cf_content_compare_text(const char *got, size_t len, const char *expected_path, char *why, size_t n) {
    json_error_t je;
    json_t *g = cf_json_loadb(got, len, JSON_DECODE_ANY, &je);
    if (!g) {
        snprintf(why, n, "content is not JSON: %s", je.text);
        return 1;
    }
    int rc = compare(g, expected_path, why, n, NULL);
    json_decref(g);
    return rc;
}

int cf_content_compare_json(const void *got, const char *expected_path, char *why, size_t n) {
    return compare((const json_t *)got, expected_path, why, n, NULL);
}

int cf_content_check(const void *got, const char *expected_path, char *why, size_t n, cf_content_cov *cov) {
    return compare((const json_t *)got, expected_path, why, n, cov);
}

const char *cf_content_state_name(int s) {
    static const char *const names[] = {NULL, "not_checked", "partial", "full"};
    return s >= 0 && s <= CF_CONTENT_FULL ? names[s] : NULL;
}

int cf_content_state_of(const cf_content_cov *cov) {
    if (!cov->compared) return CF_CONTENT_NOT_CHECKED;
    return cov->skipped ? CF_CONTENT_PARTIAL : CF_CONTENT_FULL;
}
