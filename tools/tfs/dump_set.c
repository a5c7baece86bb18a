/* dump_set.c: `tfs dump` of a model set (an index, the first part of a GGUF
 * split): the whole model, shard by shard (verdict, tensors, parameters,
 * bytes), then its totals per type.  The shards are the files the entry
 * names (tfs_set_members), each parsed header only. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

typedef struct shard {
    const char *path;
    tfs_status st;
    tfs_error err;
    size_t n_tensors;
    uint64_t params, bytes;
} shard;

static const char *shard_verdict(const shard *s) {
    if (s->st == TFS_OK) return "valid";
    if (s->st == TFS_INVALID) return "parser_error";
    return s->st == TFS_EIO && s->err.sys_errno == ENOENT ? "missing" : "io_error";
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* A number for JSON: exact up to 2^53 - 1, a decimal string beyond. */
static void json_u64(FILE *out, uint64_t v) {
    fprintf(out, v > UINT64_C(9007199254740991) ? "\"%" PRIu64 "\"" : "%" PRIu64, v);
}

int dump_set(FILE *out, const char *path, const check_opts *o, int json) {
    char **m = NULL;
    size_t n = 0;
    tfs_status st = tfs_set_members(path, &m, &n);
    if (st == TFS_ENOMEM) {
        fprintf(stderr, "tfs dump: out of memory\n");
        return 2;
    }
    if (st != TFS_OK) return -1; /* not a set entry */
    tfs_format format = strstr(path, ".safetensors.index.json") ? TFS_FORMAT_SAFETENSORS : TFS_FORMAT_GGUF;
    shard *s = calloc(n ? n : 1, sizeof *s);
    type_hist total;
    memset(&total, 0, sizeof total);
    size_t n_tensors = 0, bad = 0;
    int rc = 0;
    for (size_t i = 0; s && i < n; i++) {
        tfs_header *h = NULL;
        s[i].path = m[i];
        s[i].st = tfs_parse_file(m[i], format, o->flags, &h, &s[i].err);
        if (s[i].st == TFS_ENOMEM) rc = 2;
        if (s[i].st != TFS_OK) {
            bad++;
            continue;
        }
        type_hist th;
        hist_build(h, &th);
        s[i].n_tensors = h->n_tensors;
        s[i].params = th.params;
        for (unsigned t = 0; t <= HIST_MAX; t++) {
            s[i].bytes = sat_add(s[i].bytes, th.bytes[t]);
            total.count[t] += th.count[t];
            total.bytes[t] = sat_add(total.bytes[t], th.bytes[t]);
        }
        total.params = sat_add(total.params, th.params);
        n_tensors += h->n_tensors;
        tfs_header_free(h);
    }
    if (!s) {
        fprintf(stderr, "tfs dump: out of memory\n");
        rc = 2;
    }
    uint64_t bytes = 0;
    for (unsigned t = 0; t <= HIST_MAX; t++) bytes = sat_add(bytes, total.bytes[t]);
    if (s && json) {
        fputs("{\"file\":", out);
        json_cstr(out, path);
        fputs(",\"set\":true,\"format\":", out);
        json_cstr(out, tfs_format_name(format));
        fputs(",\"complete\":", out);
        fputs(bad ? "false" : "true", out);
        fprintf(out, ",\"n_files\":%zu,\"n_tensors\":%zu,\"params\":", n, n_tensors);
        json_u64(out, total.params);
        fputs(",\"tensor_bytes\":", out);
        json_u64(out, bytes);
        fputs(",\"types\":{", out);
        const char *sep = "";
        for (unsigned t = 0; t <= HIST_MAX; t++) {
            if (!total.count[t]) continue;
            fputs(sep, out);
            json_cstr(out, t < HIST_MAX ? hist_type_name(format, t) : "?");
            fprintf(out, ":{\"tensors\":%" PRIu64 ",\"bytes\":", total.count[t]);
            json_u64(out, total.bytes[t]);
            fputc('}', out);
            sep = ",";
        }
        fputs("},\"files\":[", out);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ",{\"file\":" : "{\"file\":", out);
            json_cstr(out, s[i].path);
            fputs(",\"verdict\":", out);
            json_cstr(out, shard_verdict(&s[i]));
            fputs(",\"rule\":", out);
            json_cstr(out, s[i].st == TFS_INVALID ? tfs_rule_id(s[i].err.rule) : NULL);
            fprintf(out, ",\"n_tensors\":%zu,\"params\":", s[i].n_tensors);
            json_u64(out, s[i].params);
            fputs(",\"tensor_bytes\":", out);
            json_u64(out, s[i].bytes);
            fputc('}', out);
        }
        fputs("]}\n", out);
    } else if (s) {
        char a[32], b[32], c[32];
        fput_safe(out, path, strlen(path));
        fprintf(out, ": %s, %zu file%s%s\n", format == TFS_FORMAT_GGUF ? "gguf split" : "safetensors index", n,
                n == 1 ? "" : "s", bad ? " (not all readable: totals of those that are)" : "");
        int w = 4;
        for (size_t i = 0; i < n; i++) {
            int l = (int)strlen(s[i].path);
            if (l > w) w = l > 72 ? 72 : l;
        }
        fprintf(out, "  %3s  %-*s  %-12s %8s %16s %16s\n", "#", w, "file", "verdict", "tensors", "parameters", "bytes");
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "  %3zu  ", i + 1);
            size_t l = strlen(s[i].path);
            fput_safe(out, s[i].path, l);
            for (size_t k = l; k < (size_t)w; k++) fputc(' ', out);
            if (s[i].st == TFS_OK)
                fprintf(out, "  %-12s %8zu %16s %16s", shard_verdict(&s[i]), s[i].n_tensors,
                        group3(s[i].params, a, sizeof a), group3(s[i].bytes, b, sizeof b));
            else if (s[i].st == TFS_INVALID)
                fprintf(out, "  %s %s", shard_verdict(&s[i]), tfs_rule_id(s[i].err.rule));
            else
                fprintf(out, "  %s", shard_verdict(&s[i]));
            fputc('\n', out);
        }
        fprintf(out, "totals      %zu tensor%s, %s parameters, %s bytes\n", n_tensors, n_tensors == 1 ? "" : "s",
                group3(total.params, a, sizeof a), group3(bytes, b, sizeof b));
        for (unsigned t = 0; t <= HIST_MAX; t++)
            if (total.count[t])
                fprintf(out, "  %-10s %" PRIu64 " tensor%s, %s bytes\n", t < HIST_MAX ? hist_type_name(format, t) : "?",
                        total.count[t], total.count[t] == 1 ? "" : "s", group3(total.bytes[t], c, sizeof c));
    }
    for (size_t i = 0; i < n; i++) free(m[i]);
    free(m);
    free(s);
    if (rc) return rc;
    return bad ? 1 : 0;
}
