/*
 * gguflib_adapter.c: antirez/gguf-tools' gguflib.c (the GGUF library behind
 * `gguf-tools`) as a conformance adapter.  No registry ships it: it is built
 * from a source folder the user passes (build_readers.sh --gguf-tools DIR,
 * commit pinned in docs/adapters.md), with ASan + UBSan; no third-party
 * source is in this repository.
 *
 *   gguflib-adapter FILE.gguf      (a .safetensors file: exit 77)
 *
 * What a careful user of the library does: gguf_open (rejects a file that is
 * shorter than the 24-byte header or lacks the magic), every KV through
 * gguf_get_key + gguf_do_with_value, every tensor info through
 * gguf_get_tensor (rejects an unknown ggml type); accepted when all of them
 * were read.  The library checks nothing else (no bounds): a malformed file
 * is read out of bounds, which the sanitizers report (a crash).  Metadata
 * only: compare with --profile header-only.  The content is the library's
 * view: tensor offsets relative to its data section, end = offset + its
 * bsize (its block sizes).  The fixture is read from a private copy
 * (gguf_open maps the file read-write).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguflib.h"
#include "tfs_adapter.h"

/* the type tables, from include/tfs/*.def (never retyped) */
static const char *vtype_name(uint32_t t) {
    switch (t) {
#define TFS_GG_VTYPE(sym, id, name, size) \
    case id:                              \
        return name;
#include "tfs/gg_vtypes.def"
#undef TFS_GG_VTYPE
    default: return NULL;
    }
}

static const char *ggml_type_name(uint32_t t) {
    switch (t) {
#define TFS_GG_TYPE(id, name, block, size) \
    case id:                               \
        return name;
#include "tfs/gg_types.def"
#undef TFS_GG_TYPE
    default: return NULL;
    }
}

/* a value (scalar or array) as the content form's "value" (and "bits") */
typedef struct walk {
    FILE *v, *b; /* value text, bits text (float arrays) */
    int depth;
    int first[64];      /* per depth: no element written yet */
    uint32_t top_etype; /* the outer array's element type */
} walk;

static void sep(walk *w) {
    if (w->depth > 0) {
        if (!w->first[w->depth]) {
            fputc(',', w->v);
            if (w->b) fputc(',', w->b);
        }
        w->first[w->depth] = 0;
    }
}

static void on_value(void *priv, uint32_t type, union gguf_value *val, uint64_t in_array, uint64_t array_len) {
    walk *w = priv;
    (void)in_array;
    (void)array_len;
    if (type == GGUF_VALUE_TYPE_ARRAY_START) {
        sep(w);
        fputc('[', w->v);
        if (w->depth < 63) w->first[++w->depth] = 1;
        return;
    }
    if (type == GGUF_VALUE_TYPE_ARRAY_END) {
        fputc(']', w->v);
        if (w->depth > 0) w->depth--;
        return;
    }
    sep(w);
    FILE *f = w->v;
    switch (type) {
    case GGUF_VALUE_TYPE_UINT8: fprintf(f, "%u", val->uint8); break;
    case GGUF_VALUE_TYPE_INT8: fprintf(f, "%d", val->int8); break;
    case GGUF_VALUE_TYPE_UINT16: fprintf(f, "%u", val->uint16); break;
    case GGUF_VALUE_TYPE_INT16: fprintf(f, "%d", val->int16); break;
    case GGUF_VALUE_TYPE_UINT32: fprintf(f, "%" PRIu32, val->uint32); break;
    case GGUF_VALUE_TYPE_INT32: fprintf(f, "%" PRId32, val->int32); break;
    case GGUF_VALUE_TYPE_UINT64: ta_u64(f, val->uint64); break;
    case GGUF_VALUE_TYPE_INT64: ta_i64(f, val->int64); break;
    case GGUF_VALUE_TYPE_BOOL: fputs(val->boolval ? "true" : "false", f); break;
    case GGUF_VALUE_TYPE_STRING: ta_str(f, val->string.string, val->string.len); break;
    case GGUF_VALUE_TYPE_FLOAT32:
    case GGUF_VALUE_TYPE_FLOAT64: {
        double x = type == GGUF_VALUE_TYPE_FLOAT32 ? (double)val->float32 : val->float64;
        uint64_t bits = 0;
        if (type == GGUF_VALUE_TYPE_FLOAT32) {
            uint32_t b32;
            memcpy(&b32, &val->float32, 4);
            bits = b32;
        } else {
            memcpy(&bits, &val->float64, 8);
        }
        if (x == x && x - x == 0)
            fprintf(f, type == GGUF_VALUE_TYPE_FLOAT32 ? "%.9g" : "%.17g", x);
        else
            fputs("null", f);
        if (w->b) fprintf(w->b, type == GGUF_VALUE_TYPE_FLOAT32 ? "\"0x%08" PRIx64 "\"" : "\"0x%016" PRIx64 "\"", bits);
        break;
    }
    default: fputs("null", f);
    }
}

/* the fixture copied to a private file (gguf_open maps it read-write) */
static int private_copy(const char *path, char *tmpl) {
    int in = open(path, O_RDONLY), out = mkstemp(tmpl);
    if (in < 0 || out < 0) return -1;
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) return -1;
    close(in);
    close(out);
    return n < 0 ? -1 : 0;
}

int main(int argc, char **argv) {
    const char *reader = "antirez/gguf-tools gguflib.c " TFS_READER_COMMIT;
    if (argc != 2) {
        fputs("usage: gguflib-adapter FILE.gguf\n", stderr);
        return 2;
    }
    size_t n = strlen(argv[1]);
    if (n < 5 || strcmp(argv[1] + n - 5, ".gguf") != 0) return TA_UNSUPPORTED;
    const char *tmpdir = getenv("TMPDIR");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/tfs-gguflib-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (private_copy(argv[1], tmp) != 0) {
        perror("gguflib-adapter: copying the fixture");
        return 2;
    }
    gguf_ctx *ctx = gguf_open(tmp);
    unlink(tmp);
    if (!ctx) ta_exit(ta_reject(reader, "gguf_open failed"));

    char *kv_text = NULL, *t_text = NULL;
    size_t kv_len = 0, t_len = 0;
    FILE *kv = open_memstream(&kv_text, &kv_len), *tf = open_memstream(&t_text, &t_len);
    gguf_key key;
    int first = 1;
    while (gguf_get_key(ctx, &key)) {
        fputs(first ? "{\"key\":" : ",{\"key\":", kv);
        first = 0;
        ta_str(kv, key.name, key.namelen);
        const char *tn = vtype_name(key.type);
        fputs(",\"type\":", kv);
        if (tn)
            ta_cstr(kv, tn);
        else
            fprintf(kv, "\"%" PRIu32 "\"", key.type);
        char *vt = NULL, *bt = NULL;
        size_t vl = 0, bl = 0;
        int is_array = key.type == GGUF_VALUE_TYPE_ARRAY;
        uint32_t et = is_array ? key.val->array.type : key.type;
        int floats = et == GGUF_VALUE_TYPE_FLOAT32 || et == GGUF_VALUE_TYPE_FLOAT64;
        walk w = {open_memstream(&vt, &vl), floats ? open_memstream(&bt, &bl) : NULL, 0, {0}, et};
        if (is_array && floats) fputc('[', w.b);
        gguf_do_with_value(ctx, key.type, key.val, &w, 0, 0, on_value);
        if (is_array && floats) fputc(']', w.b);
        fclose(w.v);
        if (w.b) fclose(w.b);
        if (is_array) {
            const char *en = vtype_name(et);
            fputs(",\"elem_type\":", kv);
            if (en)
                ta_cstr(kv, en);
            else
                fprintf(kv, "\"%" PRIu32 "\"", et);
        }
        fprintf(kv, ",\"value\":%s", vt);
        if (bt) fprintf(kv, ",\"bits\":%s", bt);
        fputc('}', kv);
        free(vt);
        free(bt);
    }
    gguf_tensor t;
    uint64_t declared = ctx->header->tensor_count, got = 0;
    first = 1;
    while (gguf_get_tensor(ctx, &t)) {
        got++;
        fputs(first ? "{\"name\":" : ",{\"name\":", tf);
        first = 0;
        ta_str(tf, t.name, t.namelen);
        const char *tn = ggml_type_name(t.type);
        fputs(",\"type\":", tf);
        if (tn)
            ta_cstr(tf, tn);
        else
            fprintf(tf, "\"%" PRIu32 "\"", t.type);
        fputs(",\"shape\":[", tf);
        for (uint32_t d = 0; d < t.ndim; d++) fprintf(tf, "%s\"%" PRIu64 "\"", d ? "," : "", t.dim[d]);
        uint64_t rel = t.offset - ctx->data_off;
        fprintf(tf, "],\"offsets\":[\"%" PRIu64 "\",\"%" PRIu64 "\"]}", rel, rel + t.bsize);
    }
    fclose(kv);
    fclose(tf);
    if (got != declared) { /* gguf_get_tensor refused one: an unknown ggml type */
        free(kv_text);
        free(t_text);
        gguf_close(ctx);
        ta_exit(ta_reject(reader, "gguf_get_tensor failed (unknown tensor type)"));
    }
    fputs("{\"reader\":", stdout);
    ta_cstr(stdout, reader);
    printf(",\"content\":{\"format\":\"gguf\",\"version\":%" PRIu32 ",\"alignment\":\"%" PRIu64
           "\",\"tensors\":[%s],\"kv\":[%s]}}\n",
           ctx->header->version, ctx->alignment, t_text, kv_text);
    free(kv_text);
    free(t_text);
    gguf_close(ctx);
    ta_exit(TA_ACCEPT);
}
