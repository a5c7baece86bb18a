/* conform_cmd.c: `tfs conform`, the conformance runner (conformance/runner,
 * docs/conform.md).  This file only hands it our content renderer: the
 * expected-content JSON that `tfs dump --json` prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifdef TFS_HAVE_CONFORM
#include "conform.h"

static char *content_json(const char *path, const char *format, unsigned flags) {
    tfs_format f = strcmp(format, "gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_file(path, f, flags, &h, &e);
    char *buf = NULL;
    size_t len = 0, unavailable = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = -1;
    if (mem) {
        rc = print_content_json(mem, h, st, &e, NULL, &unavailable);
        rc |= fclose(mem);
    }
    tfs_header_free(h);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

int cmd_conform(int argc, char **argv, int first) {
    for (int i = first; i < argc; i++) /* the lint cases: lint_conform.c */
        if (strcmp(argv[i], "--lint") == 0) return lint_conform(argc, argv, first);
    return cf_main(argc, argv, first, TFS_CLI_VERSION_STR, content_json);
}
#else
int cmd_conform(int argc, char **argv, int first) {
    (void)argc;
    (void)argv;
    (void)first;
    fprintf(stderr, "tfs conform: not built in this tfs (it needs OpenSSL libcrypto and jansson at build time)\n");
    return 2;
}
#endif
