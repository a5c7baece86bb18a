/* ext_replay.c: the main of a third-party reader's target outside an
 * engine: every variant of the reader on every file named (directories:
 * their regular files, not recursive), each in a malloc'd buffer of exactly
 * its size, so ASan sees any read past the input.
 * usage: TARGET PATH...   exit 0 when every input ran, 2 when a path cannot
 * be read; a finding aborts (sanitizer report) as under an engine. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ext_fuzz.h"

/* TFS_EXT_ENGINE_VARIANT=1 in the environment: each input runs only the
 * variant its last byte picks, as under an engine (for coverage replays of a
 * fuzzer's corpus: bench/fuzz/ext_cov.py --src-cov) */
static int g_engine_variant;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 2;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return 2;
            }
            buf = b;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    unsigned v0 = 0, v1 = tfs_ext_variants();
    if (g_engine_variant) { /* only the one an engine runs */
        v0 = tfs_ext_engine_variant(buf, n);
        v1 = v0 + 1;
    }
    for (unsigned v = v0; v < v1; v++) {
        uint8_t *exact = malloc(n ? n : 1);
        if (!exact) {
            free(buf);
            return 2;
        }
        memcpy(exact, buf, n);
        tfs_ext_run(exact, n, v);
        free(exact);
    }
    free(buf);
    return 0;
}

int main(int argc, char **argv) {
    int rc = 0;
    unsigned long files = 0;
    tfs_ext_setup();
    const char *ev = getenv("TFS_EXT_ENGINE_VARIANT");
    g_engine_variant = ev && *ev && strcmp(ev, "0") != 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            rc = 2;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            rc |= run_file(argv[i]);
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
                rc |= run_file(p);
                files++;
            }
        }
        if (d) closedir(d);
    }
    printf("replay: %lu inputs, %u variant%s each\n", files, g_engine_variant ? 1u : tfs_ext_variants(),
           g_engine_variant || tfs_ext_variants() == 1 ? "" : "s");
    return rc;
}
