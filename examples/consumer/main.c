/* main.c: the smallest complete libtfs program.  For each FILE: read it,
 * parse its header, print the verdict (and the violated rule, what its
 * index counts, and the library version).  Reads with stdio and parses the
 * buffer, so it works with every build of libtfs (TFS_POSIX=OFF too).
 * Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <tfs/tfs.h>
#include <tfs/rules.h>
#include <tfs/version.h>

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, r;
    unsigned char *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            unsigned char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...\n", argv[0]);
        return 2;
    }
    /* headers and library agree (a program built against one release may load another) */
    printf("libtfs %s (headers %s)\n", tfs_version(), TFS_VERSION_STRING);
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        unsigned char *buf = slurp(argv[i], &len);
        if (!buf) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            rc = 2;
            continue;
        }
        tfs_header *h = NULL;
        tfs_error e;
        tfs_status st = tfs_parse_buffer(buf, len, TFS_FORMAT_UNKNOWN, 0, &h, &e);
        if (st == TFS_OK) {
            printf("%s: valid %s, %zu tensors, %zu metadata entries\n", argv[i], tfs_format_name(h->format),
                   h->n_tensors, h->n_kv);
        } else if (st == TFS_INVALID) {
            printf("%s: invalid %s: %s %s at offset %" PRIu64 " (index %" PRId64 ", counts %s): %s\n", argv[i],
                   tfs_format_name(tfs_rule_format(e.rule)), tfs_rule_id(e.rule), tfs_rule_category(e.rule), e.offset,
                   e.index, tfs_index_kind_name(tfs_rule_index_kind(e.rule)), e.message);
            if (rc == 0) rc = 1;
        } else {
            printf("%s: %s\n", argv[i], tfs_status_name(st));
            rc = 2;
        }
        tfs_header_free(h);
        free(buf);
    }
    return rc;
}
