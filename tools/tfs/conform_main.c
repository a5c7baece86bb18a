/* conform_main.c: main of `tfs-conform`, the program `tfs conform` runs
 * (conform_exec.c): the conformance runner (conformance/runner,
 * docs/conform.md) with our content renderer, the expected-content JSON that
 * `tfs dump --json` prints.  A program of its own so that only it loads
 * OpenSSL libcrypto and jansson; `tfs check`, `dump` and `rules` load libc
 * alone. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "conform.h"

static char *content_json(const char *path, const char *format, unsigned flags) {
    tfs_format f = strcmp(format, "gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_file(path, f, flags, &h, &e);
    char *buf = NULL;
    size_t len = 0;
    uint64_t unavailable = 0;
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

/* tfs-conform [OPTION]...: the options of `tfs conform` (argv[1..]). */
int main(int argc, char **argv) {
#ifdef SIGPIPE
    signal(SIGPIPE, SIG_IGN); /* the runner writes to adapters: a closed pipe is a write error, not a death */
#endif
    for (int i = 1; i < argc; i++) /* the lint cases of corpus/lint: lint_conform.c */
        if (strcmp(argv[i], "--lint") == 0) return lint_conform(argc, argv, 1);
    return cf_main(argc, argv, 1, TFS_CLI_VERSION_STR, content_json);
}
