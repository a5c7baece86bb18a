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
    for (unsigned v = 0; v < tfs_ext_variants(); v++) {
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
    printf("replay: %lu inputs, %u variants each\n", files, tfs_ext_variants());
    return rc;
}
