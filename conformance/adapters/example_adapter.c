/* example_adapter.c: a conformance adapter in C; copy it and call your reader instead of libtfs. */
#include <stdio.h>
#include <tfs/tfs.h>
int main(int argc, char **argv) {
    tfs_header *h;
    tfs_error e;
    if (argc != 2) return 2;                                                /* usage: a crash for the runner */
    tfs_status st = tfs_parse_file(argv[1], TFS_FORMAT_UNKNOWN, 0, &h, &e); /* <- your reader here */
    if (st == TFS_OK) {
        tfs_header_free(h);
        return 0;
    }                                                             /* 0: accepted */
    if (st != TFS_INVALID) return 2;                              /* cannot read the file */
    printf("{\"category\":\"%s\"}\n", tfs_rule_category(e.rule)); /* optional, finer matching */
    return 1;                                                     /* 1: rejected (77: unsupported) */
}
