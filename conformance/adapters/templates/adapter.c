/*
 * adapter.c FILE: the C template of a conformance adapter (docs/adapters.md
 * "Adapter kit").  Copy it; replace read_gguf() by a call to your reader and
 * print what it returns in the content form.  Build (from the repository):
 *   cc -std=c11 -Iinclude -Iconformance/adapters/c adapter.c YOUR_READER.c
 * Exits: 0 accepted (first stdout line {"reader", "content"}; partial
 * content is fine), 1 rejected (your reader's error), 77 unsupported (a
 * format your reader does not read).  A crash stays a crash: never catch
 * SIGSEGV or an abort to turn it into a verdict (the runner reads a signal,
 * a sanitizer report or any other exit as a crash).  ta_exit() flushes
 * stdout.  Type tables: include/tfs/gg_vtypes.def (and gg_types.def,
 * st_dtypes.def) through X-macros, never retyped; JSON printing:
 * ../c/tfs_adapter.h.
 *
 * The reader below is a stand-in: a small GGUF reader (header and KVs, no
 * tensor infos), the same in every language of the kit (ctest
 * test_adapter_template_*).  It runs twice: once to find the verdict, once
 * to print the content of an accepted file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfs_adapter.h"

#define READER "toy-gguf (c template)"

typedef struct vtype {
    const char *name;
    size_t size;
} vtype;
static const vtype VTYPES[] = {
#define TFS_GG_VTYPE(id, val, name, size) [val] = {name, size},
#include "tfs/gg_vtypes.def"
#undef TFS_GG_VTYPE
};
#define N_VTYPES (sizeof VTYPES / sizeof VTYPES[0])

/* ---- the stand-in reader (replace by yours) ---------------------------- */
typedef struct rd {
    const unsigned char *p;
    size_t n, pos;
    FILE *out; /* NULL: check only */
    char why[160];
} rd;

static int fail(rd *r, const char *why) {
    snprintf(r->why, sizeof r->why, "%s (at byte %zu)", why, r->pos);
    return -1;
}
static int take(rd *r, uint64_t k, const unsigned char **at) {
    if (k > r->n - r->pos) return fail(r, "truncated");
    *at = r->p + r->pos;
    r->pos += (size_t)k;
    return 0;
}
static uint64_t le(const unsigned char *b, size_t size) {
    uint64_t v = 0;
    for (size_t i = size; i-- > 0;) v = v << 8 | b[i];
    return v;
}
static int u32(rd *r, uint32_t *v) {
    const unsigned char *b;
    if (take(r, 4, &b)) return -1;
    *v = (uint32_t)le(b, 4);
    return 0;
}
static int u64(rd *r, uint64_t *v) {
    const unsigned char *b;
    if (take(r, 8, &b)) return -1;
    *v = le(b, 8);
    return 0;
}
static int string(rd *r, const char *what, int print) {
    uint64_t n;
    const unsigned char *s;
    if (u64(r, &n) || take(r, n, &s)) return -1;
    for (size_t i = 0; i < n;) {
        size_t l = ta_utf8_len(s + i, (size_t)n - i);
        if (!l) return fail(r, what);
        i += l;
    }
    if (print && r->out) ta_str(r->out, (const char *)s, (size_t)n);
    return n == 0 ? 1 : 0; /* 1: empty */
}
static int vtype_of(rd *r, uint32_t *t) {
    if (u32(r, t)) return -1;
    if (*t >= N_VTYPES || !VTYPES[*t].name) return fail(r, "invalid value type");
    return 0;
}
/* one scalar: prints its value, "bits" for floats (the runner compares bits) */
static int scalar(rd *r, uint32_t t, int in_array) {
    const unsigned char *b;
    const vtype *v = &VTYPES[t];
    if (take(r, v->size, &b)) return -1;
    const char *name = v->name;
    if (!strcmp(name, "bool") && b[0] > 1) return fail(r, "bool not 0 or 1");
    if (!r->out) return 0;
    uint64_t u = le(b, v->size);
    if (!in_array) fputs(!strcmp(name, "f32") || !strcmp(name, "f64") ? ",\"bits\":" : ",\"value\":", r->out);
    if (!strcmp(name, "f32") || !strcmp(name, "f64"))
        fprintf(r->out, "\"0x%0*llx\"", (int)v->size * 2, (unsigned long long)u);
    else if (!strcmp(name, "bool"))
        fputs(b[0] ? "true" : "false", r->out);
    else if (name[0] == 'i') {
        int bits = (int)v->size * 8;
        int64_t s = bits == 64 ? (int64_t)u : (int64_t)(u ^ (1ull << (bits - 1))) - (int64_t)(1ull << (bits - 1));
        if (bits == 64)
            ta_i64(r->out, s);
        else
            fprintf(r->out, "%lld", (long long)s);
    } else if (v->size == 8)
        ta_u64(r->out, u);
    else
        fprintf(r->out, "%llu", (unsigned long long)u);
    return 0;
}
static int read_gguf(rd *r, uint32_t *version) {
    const unsigned char *m;
    uint64_t n_tensors, n_kv;
    if (r->n < 4 || memcmp(r->p, "GGUF", 4)) return fail(r, "bad magic");
    if (take(r, 4, &m) || u32(r, version)) return -1;
    if (*version != 2 && *version != 3) return fail(r, "unsupported version");
    if (u64(r, &n_tensors) || u64(r, &n_kv)) return -1;
    if (n_kv > (r->n - r->pos) / 12 || n_tensors > (r->n - r->pos) / 24)
        return fail(r, "more KVs or tensors than the file can hold");
    if (r->out) fprintf(r->out, "\"format\":\"gguf\",\"version\":%u,\"kv\":[", (unsigned)*version);
    for (uint64_t i = 0; i < n_kv; i++) {
        uint32_t t, et;
        if (r->out) fputs(i ? ",{\"key\":" : "{\"key\":", r->out);
        int e = string(r, "key is not UTF-8", 1);
        if (e < 0) return -1;
        if (e) return fail(r, "empty key");
        if (vtype_of(r, &t)) return -1;
        if (r->out) fprintf(r->out, ",\"type\":\"%s\"", VTYPES[t].name);
        if (!strcmp(VTYPES[t].name, "string")) {
            if (r->out) fputs(",\"value\":", r->out);
            if (string(r, "string value is not UTF-8", 1) < 0) return -1;
        } else if (!strcmp(VTYPES[t].name, "array")) {
            uint64_t n;
            if (vtype_of(r, &et) || u64(r, &n)) return -1;
            const char *en = VTYPES[et].name;
            if (!strcmp(en, "array")) return fail(r, "nested array");
            if (n > r->n - r->pos) return fail(r, "array longer than the file");
            if (r->out)
                fprintf(r->out, ",\"elem_type\":\"%s\",\"%s\":[", en,
                        !strcmp(en, "f32") || !strcmp(en, "f64") ? "bits" : "value");
            for (uint64_t j = 0; j < n; j++) {
                if (r->out && j) fputc(',', r->out);
                if (!strcmp(en, "string") ? string(r, "string element is not UTF-8", 1) < 0 : scalar(r, et, 1) != 0)
                    return -1;
            }
            if (r->out) fputc(']', r->out);
        } else if (scalar(r, t, 0))
            return -1;
        if (r->out) fputc('}', r->out);
    }
    if (r->out) fputs("]", r->out);
    return 0;
}
/* ------------------------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, len = 0, got;
    if (!f) return NULL;
    do {
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) break;
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got);
    fclose(f);
    *n = len;
    return buf ? buf : malloc(1);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fputs("usage: adapter FILE\n", stderr);
        return 2;
    }
    size_t len = strlen(argv[1]);
    if (len < 5 || strcmp(argv[1] + len - 5, ".gguf")) ta_exit(TA_UNSUPPORTED);
    if (getenv("TFS_TEMPLATE_SELFTEST") && !strcmp(getenv("TFS_TEMPLATE_SELFTEST"), "uncaught"))
        abort(); /* a bug in the reader: a crash, never a verdict */
    size_t n;
    unsigned char *buf = slurp(argv[1], &n);
    if (!buf) {
        perror(argv[1]);
        return 2;
    }
    rd r = {buf, n, 0, NULL, ""};
    uint32_t version;
    if (read_gguf(&r, &version)) { ta_exit(ta_reject(READER, r.why)); }
    fputs("{\"reader\":\"" READER "\",\"content\":{", stdout);
    rd p = {buf, n, 0, stdout, ""};
    read_gguf(&p, &version);
    fputs("}}\n", stdout);
    free(buf);
    ta_exit(TA_ACCEPT);
}
