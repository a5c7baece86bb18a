/* json.c: a small JSON reader for the JSON files beside model files
 * (NAME.safetensors.index.json, config.json).  Recursive descent with a
 * depth limit; every container grows with what it holds, never with a
 * declared count; strings are decoded (\uXXXX with surrogate pairs to
 * UTF-8; a lone surrogate becomes U+FFFD).  Not the safetensors header
 * parser (parsers/safetensors/st_json.c), which mirrors serde_json's
 * verdicts: this one only has to read well-formed files. */
#include "lint_internal.h"

#include <stdlib.h>
#include <string.h>

#define LJ_MAX_DEPTH 64u

typedef struct lj_ctx {
    const unsigned char *p;
    size_t n, pos;
    const char *why;
    int oom;
} lj_ctx;

static void ws(lj_ctx *c) {
    while (c->pos < c->n &&
           (c->p[c->pos] == ' ' || c->p[c->pos] == '\t' || c->p[c->pos] == '\n' || c->p[c->pos] == '\r'))
        c->pos++;
}

static bool fail(lj_ctx *c, const char *why) {
    if (!c->why) c->why = why;
    return false;
}

static bool nomem(lj_ctx *c) {
    c->oom = 1;
    return fail(c, "out of memory");
}

static int hexv(unsigned char b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

static bool hex4(lj_ctx *c, size_t at, uint32_t *v) {
    if (at + 4u > c->n) return false;
    uint32_t x = 0;
    for (size_t i = 0; i < 4u; i++) {
        int h = hexv(c->p[at + i]);
        if (h < 0) return false;
        x = (x << 4) | (uint32_t)h;
    }
    *v = x;
    return true;
}

static size_t put_utf8(char *d, uint32_t cp) {
    if (cp < 0x80u) {
        d[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800u) {
        d[0] = (char)(0xc0u | (cp >> 6));
        d[1] = (char)(0x80u | (cp & 0x3fu));
        return 2;
    }
    if (cp < 0x10000u) {
        d[0] = (char)(0xe0u | (cp >> 12));
        d[1] = (char)(0x80u | ((cp >> 6) & 0x3fu));
        d[2] = (char)(0x80u | (cp & 0x3fu));
        return 3;
    }
    d[0] = (char)(0xf0u | (cp >> 18));
    d[1] = (char)(0x80u | ((cp >> 12) & 0x3fu));
    d[2] = (char)(0x80u | ((cp >> 6) & 0x3fu));
    d[3] = (char)(0x80u | (cp & 0x3fu));
    return 4;
}

/* A string at c->pos ('"'); decoded into a new buffer (never longer than the
 * escaped text: \uXXXX is 6 bytes for at most 3, a pair 12 for 4). */
static bool string(lj_ctx *c, lj_node *out) {
    size_t start = ++c->pos, end = start;
    while (end < c->n && c->p[end] != '"') {
        if (c->p[end] < 0x20u) return fail(c, "control character in a string");
        end += c->p[end] == '\\' ? 2u : 1u;
    }
    if (end >= c->n) return fail(c, "unterminated string");
    char *d = malloc(end - start + 1u);
    if (!d) return nomem(c);
    size_t k = 0;
    for (size_t i = start; i < end;) {
        unsigned char b = c->p[i];
        if (b != '\\') {
            d[k++] = (char)b;
            i++;
            continue;
        }
        unsigned char e = c->p[i + 1u];
        i += 2u;
        switch (e) {
        case '"': d[k++] = '"'; break;
        case '\\': d[k++] = '\\'; break;
        case '/': d[k++] = '/'; break;
        case 'b': d[k++] = '\b'; break;
        case 'f': d[k++] = '\f'; break;
        case 'n': d[k++] = '\n'; break;
        case 'r': d[k++] = '\r'; break;
        case 't': d[k++] = '\t'; break;
        case 'u': {
            uint32_t cp, lo;
            if (i + 4u > end || !hex4(c, i, &cp)) {
                free(d);
                return fail(c, "bad \\u escape");
            }
            i += 4u;
            if (cp >= 0xd800u && cp < 0xdc00u && i + 6u <= end && c->p[i] == '\\' && c->p[i + 1u] == 'u' &&
                hex4(c, i + 2u, &lo) && lo >= 0xdc00u && lo < 0xe000u) {
                cp = 0x10000u + ((cp - 0xd800u) << 10) + (lo - 0xdc00u);
                i += 6u;
            } else if (cp >= 0xd800u && cp < 0xe000u) {
                cp = 0xfffdu;
            }
            k += put_utf8(d + k, cp);
            break;
        }
        default: free(d); return fail(c, "bad escape");
        }
    }
    d[k] = '\0';
    out->type = LJ_STR;
    out->s = d;
    out->len = k;
    c->pos = end + 1u;
    return true;
}

static bool number(lj_ctx *c, lj_node *out) {
    size_t start = c->pos;
    if (c->pos < c->n && c->p[c->pos] == '-') c->pos++;
    size_t digits = c->pos;
    while (c->pos < c->n && c->p[c->pos] >= '0' && c->p[c->pos] <= '9') c->pos++;
    if (c->pos == digits) return fail(c, "bad number");
    if (c->pos < c->n && c->p[c->pos] == '.') {
        c->pos++;
        size_t f = c->pos;
        while (c->pos < c->n && c->p[c->pos] >= '0' && c->p[c->pos] <= '9') c->pos++;
        if (c->pos == f) return fail(c, "bad number");
    }
    if (c->pos < c->n && (c->p[c->pos] == 'e' || c->p[c->pos] == 'E')) {
        c->pos++;
        if (c->pos < c->n && (c->p[c->pos] == '+' || c->p[c->pos] == '-')) c->pos++;
        size_t f = c->pos;
        while (c->pos < c->n && c->p[c->pos] >= '0' && c->p[c->pos] <= '9') c->pos++;
        if (c->pos == f) return fail(c, "bad number");
    }
    size_t len = c->pos - start;
    char *s = malloc(len + 1u);
    if (!s) return nomem(c);
    memcpy(s, c->p + start, len);
    s[len] = '\0';
    out->type = LJ_NUM;
    out->s = s;
    out->len = len;
    return true;
}

static bool literal(lj_ctx *c, const char *word, lj_type t, lj_node *out) {
    size_t len = strlen(word);
    if (c->n - c->pos < len || memcmp(c->p + c->pos, word, len) != 0) return fail(c, "not JSON");
    c->pos += len;
    out->type = t;
    return true;
}

static void node_free(lj_node *n) {
    free(n->s);
    for (size_t i = 0; i < n->n; i++) {
        node_free(&n->kids[i]);
        if (n->keys) node_free(&n->keys[i]);
    }
    free(n->kids);
    free(n->keys);
}

static bool value(lj_ctx *c, lj_node *out, unsigned depth);

/* An array or object at c->pos; members appended to growing arrays. */
static bool container(lj_ctx *c, lj_node *out, unsigned depth, bool obj) {
    if (depth >= LJ_MAX_DEPTH) return fail(c, "nested too deep");
    out->type = obj ? LJ_OBJ : LJ_ARR;
    c->pos++;
    ws(c);
    char close = obj ? '}' : ']';
    if (c->pos < c->n && c->p[c->pos] == (unsigned char)close) {
        c->pos++;
        return true;
    }
    size_t cap = 0;
    for (;;) {
        if (out->n == cap) {
            cap = cap ? cap * 2u : 8u;
            lj_node *k = realloc(out->kids, cap * sizeof *k);
            if (!k) return nomem(c);
            out->kids = k;
            if (obj) {
                lj_node *y = realloc(out->keys, cap * sizeof *y);
                if (!y) return nomem(c);
                out->keys = y;
            }
        }
        lj_node *key = obj ? &out->keys[out->n] : NULL, *val = &out->kids[out->n];
        memset(val, 0, sizeof *val);
        if (key) memset(key, 0, sizeof *key);
        out->n++; /* counted before parsing, so a failure frees what was made (a key without its value too) */
        if (key) {
            ws(c);
            if (c->pos >= c->n || c->p[c->pos] != '"') return fail(c, "object key is not a string");
            if (!string(c, key)) return false;
            ws(c);
            if (c->pos >= c->n || c->p[c->pos] != ':') return fail(c, "':' expected");
            c->pos++;
        }
        if (!value(c, val, depth + 1u)) return false;
        ws(c);
        if (c->pos < c->n && c->p[c->pos] == ',') {
            c->pos++;
            continue;
        }
        if (c->pos < c->n && c->p[c->pos] == (unsigned char)close) {
            c->pos++;
            return true;
        }
        return fail(c, obj ? "',' or '}' expected" : "',' or ']' expected");
    }
}

static bool value(lj_ctx *c, lj_node *out, unsigned depth) {
    ws(c);
    if (c->pos >= c->n) return fail(c, "value expected");
    switch (c->p[c->pos]) {
    case '{': return container(c, out, depth, true);
    case '[': return container(c, out, depth, false);
    case '"': return string(c, out);
    case 't': return literal(c, "true", LJ_TRUE, out);
    case 'f': return literal(c, "false", LJ_FALSE, out);
    case 'n': return literal(c, "null", LJ_NULL, out);
    default: return number(c, out);
    }
}

lj_node *tfs__lj_parse(const char *text, size_t len, const char **why, int *oom) {
    lj_ctx c = {.p = (const unsigned char *)text, .n = len};
    lj_node *root = calloc(1, sizeof *root);
    if (!root) {
        if (why) *why = "out of memory";
        if (oom) *oom = 1;
        return NULL;
    }
    bool ok = text && value(&c, root, 0);
    if (ok) {
        ws(&c);
        if (c.pos != c.n) ok = fail(&c, "text after the JSON value");
    }
    if (!ok) {
        tfs__lj_free(root);
        if (why) *why = c.why ? c.why : "not JSON";
        if (oom) *oom = c.oom;
        return NULL;
    }
    return root;
}

void tfs__lj_free(lj_node *n) {
    if (!n) return;
    node_free(n);
    free(n);
}

const lj_node *tfs__lj_get(const lj_node *obj, const char *key) {
    if (!obj || obj->type != LJ_OBJ) return NULL;
    size_t len = strlen(key);
    for (size_t i = obj->n; i-- > 0;)
        if (obj->keys[i].len == len && memcmp(obj->keys[i].s, key, len) == 0) return &obj->kids[i];
    return NULL;
}

bool tfs__lj_u64(const lj_node *n, uint64_t *out) {
    if (!n || n->type != LJ_NUM || n->len == 0) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n->len; i++) {
        char ch = n->s[i];
        if (ch < '0' || ch > '9') return false;
        if (v > (UINT64_MAX - (uint64_t)(ch - '0')) / 10u) return false;
        v = v * 10u + (uint64_t)(ch - '0');
    }
    *out = v;
    return true;
}
