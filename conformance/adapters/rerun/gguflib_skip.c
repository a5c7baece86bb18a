/*
 * rerun/gguflib_skip.c FILE: second adapter of the gguflib column,
 * antirez/gguf-tools gguflib.c at the commit of the source folder given to
 * rerun/build.sh (the same as the column's).  Entry point: gguf_open, then
 * the library's own gguf_skip_key_values_section (the first adapter,
 * ../c/gguflib_adapter.c, walks every KV with gguf_get_key +
 * gguf_do_with_value), then gguf_get_tensor for every tensor.  Content:
 * tensors (name, shape, offsets relative to the data section the library
 * computes), no KVs.  gguf_open maps the file read-write: it reads a private
 * copy in $TMPDIR.  Exit 0 / 1 / 77; 3 the copy failed (a crash).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gguflib.h"
#include "jsonout.h"

#ifndef TFS_READER_COMMIT
#define TFS_READER_COMMIT "unknown commit"
#endif

static int copy_to(const char *src, char *tmpl) {
    FILE *in = fopen(src, "rb");
    int fd = mkstemp(tmpl);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    char buf[65536];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = 0;
    return ok ? 0 : -1;
}

int main(int argc, char **argv) {
    const char *reader = "gguflib.c skip_key_values_section " TFS_READER_COMMIT;
    if (argc != 2) return fputs("usage: gguflib-skip FILE\n", stderr), 2;
    size_t n = strlen(argv[1]);
    if (n < 5 || strcmp(argv[1] + n - 5, ".gguf") != 0) return 77;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s/rerun-gguflib-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (copy_to(argv[1], tmp) != 0) return perror("gguflib-skip: copy"), unlink(tmp), 3;
    gguf_ctx *ctx = gguf_open(tmp);
    unlink(tmp);
    if (!ctx) return jo_reject(reader, "gguf_open failed");
    gguf_skip_key_values_section(ctx);
    /* a tensor info takes at least 24 bytes: more than size / 24 of them
     * cannot be in the file; those past that are read into a scratch entry
     * (the library then reads out of bounds, as it would for any caller) */
    uint64_t count = ctx->left_tensors, got = 0, cap = ctx->size / 24 + 1;
    if (cap > count) cap = count;
    gguf_tensor *t = calloc(cap + 1, sizeof *t);
    if (!t) return gguf_close(ctx), jo_reject(reader, "cannot hold the tensor list");
    while (got < count && gguf_get_tensor(ctx, &t[got < cap ? got : cap])) got++;
    if (got > cap) got = count = cap; /* not reached on a file the library reads in bounds */
    if (got < count) {
        gguf_close(ctx);
        free(t);
        return jo_reject(reader, "gguf_get_tensor failed");
    }
    fputs("{\"reader\":", stdout);
    jo_str(reader, strlen(reader));
    fputs(",\"content\":{\"format\":\"gguf\",\"tensors\":[", stdout);
    for (uint64_t i = 0; i < got; i++) {
        printf("%s{\"name\":", i ? "," : "");
        jo_str(t[i].name, t[i].namelen);
        fputs(",\"shape\":[", stdout);
        for (uint32_t d = 0; d < t[i].ndim && d < GGUF_TENSOR_MAX_DIM; d++)
            printf(d ? ",\"%llu\"" : "\"%llu\"", (unsigned long long)t[i].dim[d]);
        uint64_t b = t[i].offset - ctx->data_off;
        printf("],\"offsets\":[\"%llu\",\"%llu\"]}", (unsigned long long)b, (unsigned long long)(b + t[i].bsize));
    }
    fputs("]}}\n", stdout);
    fflush(stdout);
    gguf_close(ctx);
    free(t);
    return 0;
}
