/*
 * st_path_probe.c: print what libtfs makes of safetensors files, one line per
 * file and profile, for the fast-entry differential test
 * (tests/safetensors/test_st_fast_entry.py).  Built twice: st_probe_fast
 * links libtfs (the fast entry path on), st_probe_generic links tfs_generic
 * (compiled with TFS_ST_NO_FAST_ENTRY): both must print the same bytes.
 *
 * Usage: st_probe FILE...   (or "-": file paths, one per line, on stdin)
 * Per file and for each profile (default, strict), tfs_parse_buffer with
 * TFS_PARTIAL; the line holds the status, rule, offset and index, the header
 * fields, and the view: every tensor (name bytes in hex, dtype, shape, offset,
 * n_bytes, file offset) and every __metadata__ entry (key and value in hex).
 * Exit 0, or 2 when a file cannot be read.
 *
 * st_probe_fast is also linked with -Wl,--wrap=tfs_st_dtype_from_name and
 * compiled with ST_PROBE_LOOKUPS: each line then ends in "\tL n", the number
 * of dtype-name lookups the parse made.  The fast entry path looks a name up
 * only when it differs from the previous entry's; the generic parser looks up
 * every entry's dtype, so a canonical entry that the fast path gives up on
 * shows as one lookup more (test_st_fast_entry.py strips the field before
 * comparing with st_probe_generic and checks it on canonical-only headers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfs/field.h"
#include "tfs/tfs.h"

#ifdef ST_PROBE_LOOKUPS
static unsigned long n_lookups;
int __real_tfs_st_dtype_from_name(const char *name, size_t len, uint32_t *out);
int __wrap_tfs_st_dtype_from_name(const char *name, size_t len, uint32_t *out);
int __wrap_tfs_st_dtype_from_name(const char *name, size_t len, uint32_t *out) {
    n_lookups++;
    return __real_tfs_st_dtype_from_name(name, len, out);
}
#endif

static void hex(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) printf("%02x", (unsigned char)p[i]);
}

static int probe(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 2;
    size_t cap = 1u << 16, len = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (len == cap) {
            unsigned char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0) break;
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        return 2;
    }
    static const unsigned profiles[] = {TFS_PARTIAL, TFS_PARTIAL | TFS_STRICT};
    for (size_t k = 0; k < 2; k++) {
        tfs_header *h = NULL;
        tfs_error e;
#ifdef ST_PROBE_LOOKUPS
        n_lookups = 0;
#endif
        tfs_status st = tfs_parse_buffer(buf, len, TFS_FORMAT_SAFETENSORS, profiles[k], &h, &e);
        printf("%s\t%s\t%s\t%s\t%llu\t%lld", path, k ? "strict" : "default", tfs_status_name(st), tfs_rule_id(e.rule),
               (unsigned long long)e.offset, (long long)e.index);
        if (h) {
            printf("\th %llu %llu %llu %d %d %zu %zu %zu", (unsigned long long)h->header_size,
                   (unsigned long long)h->data_offset, (unsigned long long)h->data_size, h->has_metadata, h->complete,
                   h->n_tensors, h->n_kv, h->n_fail_fields);
            for (size_t i = 0; i < h->n_tensors; i++) {
                const tfs_tensor *t = &h->tensors[i];
                printf("\tt ");
                hex(t->name.ptr, t->name.len);
                printf(" %u %u", t->type, t->n_dims);
                for (uint32_t d = 0; d < t->n_dims; d++) printf(" %llu", (unsigned long long)t->shape[d]);
                printf(" %llu %llu %llu %llu", (unsigned long long)t->n_elements, (unsigned long long)t->n_bytes,
                       (unsigned long long)t->offset, (unsigned long long)t->file_offset);
            }
            for (size_t i = 0; i < h->n_kv; i++) {
                const tfs_kv *kv = &h->kv[i];
                char vb[256];
                tfs_str v = {0};
                tfs_status vs = tfs_kv_get_string(h, kv, 0, &v, vb, sizeof vb);
                printf("\tk ");
                hex(kv->key.ptr, kv->key.len);
                printf(" %u %llu %llu %s ", kv->type, (unsigned long long)kv->value_offset,
                       (unsigned long long)kv->value_len, tfs_status_name(vs));
                if (vs == TFS_OK) hex(v.ptr, v.len);
            }
            for (size_t i = 0; i < h->n_fail_fields; i++)
                printf("\tf %u %d %u %llu %llu", h->fail_fields[i].kind, h->fail_fields[i].record,
                       h->fail_fields[i].sub, (unsigned long long)h->fail_fields[i].offset,
                       (unsigned long long)h->fail_fields[i].width);
            tfs_header_free(h);
        }
#ifdef ST_PROBE_LOOKUPS
        printf("\tL %lu", n_lookups);
#endif
        printf("\n");
    }
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    int rc = 0;
    if (argc == 2 && strcmp(argv[1], "-") == 0) {
        char line[4096];
        while (fgets(line, sizeof line, stdin)) {
            line[strcspn(line, "\n")] = 0;
            if (*line && probe(line)) {
                fprintf(stderr, "st_probe: cannot read %s\n", line);
                rc = 2;
            }
        }
        return rc;
    }
    for (int i = 1; i < argc; i++)
        if (probe(argv[i])) {
            fprintf(stderr, "st_probe: cannot read %s\n", argv[i]);
            rc = 2;
        }
    return rc;
}
