/* content.c: a reader's content compared with the expected content of a
 * valid fixture (design.md "Expected content"), with jansson.
 *
 * Compared, field by field: format, version, alignment, and every tensor
 * (name, type, shape, offsets) and KV (key, type, elem_type, value) in
 * order.  Keys the reader adds are ignored; a missing key equals null.
 * Numbers compare by value (an integer equals the same real); a u64/i64
 * decimal string equals the same integer; floats compare by "bits" when both
 * sides give them, else as f32 / f64 values. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "conform.h"

typedef struct cmp_ctx {
    char *why;
    size_t n;
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

static int numbers_equal(const json_t *e, const json_t *g, int f32) {
    if (json_is_integer(e) && json_is_integer(g)) return json_integer_value(e) == json_integer_value(g);
    double a = json_number_value(e), b = json_number_value(g);
    if (f32) return (float)a == (float)b;
    return a == b;
}

/* a decimal string (u64/i64) against an integer */
static int string_int_equal(const json_t *s, const json_t *i) {
    char buf[32];
    snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(i));
    return strcmp(json_string_value(s), buf) == 0;
}

static int deep(cmp_ctx *c, const json_t *e, const json_t *g, const char *path, int f32);

static int deep_object(cmp_ctx *c, const json_t *e, const json_t *g, const char *path) {
    const char *k;
    const json_t *ev;
    const json_t *type = json_object_get(e, "type"), *et = json_object_get(e, "elem_type");
    int f32 = (json_is_string(type) && strcmp(json_string_value(type), "f32") == 0) ||
              (json_is_string(et) && strcmp(json_string_value(et), "f32") == 0);
    int both_bits = json_object_get(e, "bits") && json_object_get(g, "bits");
    json_object_foreach((json_t *)e, k, ev) {
        if (both_bits && strcmp(k, "value") == 0) continue; /* the bits decide */
        char sub[256];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", k);
        if (deep(c, ev, json_object_get(g, k), sub, f32)) return 1;
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
        return 0;
    }
    if (json_is_number(e) && json_is_number(g)) {
        if (numbers_equal(e, g, f32)) return 0;
        goto mismatch;
    }
    if (json_is_string(e) && json_is_integer(g) && string_int_equal(e, g)) return 0;
    if (json_equal((json_t *)e, (json_t *)g)) return 0;
mismatch:
    show(g, a, sizeof a);
    show(e, b, sizeof b);
    snprintf(msg, sizeof msg, "%s, want %s", a, b);
    return differ(c, path, msg);
}

/* jansson keeps integers in 64 signed bits: a document with a larger one
 * (a u64 shape of 2^64-1) is read again with every integer as a double.
 * Strings may hold U+0000 (a GGUF key or value, a safetensors name with an
 * escaped NUL): JSON_ALLOW_NUL, compared by length (json_equal). */
json_t *cf_json_loadb(const char *text, size_t len, size_t flags, json_error_t *je) {
    flags |= JSON_ALLOW_NUL;
    json_t *j = json_loadb(text, len, flags, je);
    if (!j && json_error_code(je) == json_error_numeric_overflow) j = json_loadb(text, len, flags | JSON_DECODE_INT_AS_REAL, je);
    return j;
}

static json_t *load_file(const char *path, json_error_t *je) {
    json_t *j = json_load_file(path, JSON_ALLOW_NUL, je);
    if (!j && json_error_code(je) == json_error_numeric_overflow)
        j = json_load_file(path, JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, je);
    return j;
}

static int compare(const json_t *got, const char *expected_path, char *why, size_t n) {
    json_error_t je;
    json_t *exp = load_file(expected_path, &je);
    if (!exp) {
        snprintf(why, n, "expected content %s: %s (line %d)", expected_path, je.text, je.line);
        return -1;
    }
    cmp_ctx c = {why, n};
    int rc = 0;
    if (!json_is_object(got)) rc = differ(&c, "", "not a JSON object");
    static const char *const keys[] = {"format", "version", "alignment", "tensors", "kv"};
    for (int i = 0; rc == 0 && i < 5; i++)
        rc = deep(&c, json_object_get(exp, keys[i]), json_object_get(got, keys[i]), keys[i], 0);
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
    int rc = compare(g, expected_path, why, n);
    json_decref(g);
    return rc;
}

int cf_content_compare_json(const void *got, const char *expected_path, char *why, size_t n) {
    return compare((const json_t *)got, expected_path, why, n);
}
