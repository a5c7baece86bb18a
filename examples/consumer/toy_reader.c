/* toy_reader.c: see toy_reader.h (the gap: header only, GG304 never checked). */
#include "toy_reader.h"

#include <tfs/tfs.h>

int toy_read(const char *path, toy_model *m, const char **why) {
    tfs_header *h;
    tfs_error e;
    tfs_status st = tfs_parse_file(path, TFS_FORMAT_GGUF, TFS_HEADER_ONLY /* the gap */, &h, &e);
    if (st == TFS_INVALID) {
        *why = tfs_rule_category(e.rule);
        return 1;
    }
    if (st != TFS_OK) return 2;
    m->n_tensors = h->n_tensors;
    m->n_kv = h->n_kv;
    tfs_header_free(h);
    return 0;
}
