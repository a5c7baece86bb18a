/* conform_exec.c: `tfs conform` runs the program tfs-conform (conform_main.c)
 * with the same options, so that tfs itself links neither OpenSSL nor
 * jansson and every other command starts with libc alone.  tfs-conform is
 * looked for beside the running tfs first (the build tree's tools/, an
 * installed bindir), then on PATH. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define CONFORM_PROGRAM "tfs-conform"

/* The directory of the running executable (/proc/self/exe, else argv0 when
 * it holds a slash) into dir; false when neither tells. */
static int self_dir(const char *argv0, char *dir, size_t n) {
    ssize_t len = readlink("/proc/self/exe", dir, n - 1);
    if (len > 0) {
        dir[len] = '\0';
    } else if (argv0 && strchr(argv0, '/') && strlen(argv0) < n) {
        strcpy(dir, argv0);
    } else {
        return 0;
    }
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = '\0';
    return 1;
}

int cmd_conform(int argc, char **argv, int first) {
    /* argv for tfs-conform: its path, then the options of `tfs conform` */
    char **av = calloc((size_t)(argc - first) + 2u, sizeof *av);
    if (!av) {
        fprintf(stderr, "tfs conform: out of memory\n");
        return 2;
    }
    for (int i = first; i < argc; i++) av[1 + i - first] = argv[i];
    fflush(NULL);
    char dir[PATH_MAX], path[PATH_MAX + sizeof CONFORM_PROGRAM + 1];
    if (self_dir(argv[0], dir, sizeof dir)) {
        snprintf(path, sizeof path, "%s/%s", dir, CONFORM_PROGRAM);
        if (access(path, X_OK) == 0) {
            av[0] = path;
            execv(path, av);
            fprintf(stderr, "tfs conform: cannot run %s: %s\n", path, strerror(errno));
            free(av);
            return 2;
        }
    }
    av[0] = (char *)CONFORM_PROGRAM;
    execvp(CONFORM_PROGRAM, av);
    int e = errno;
    free(av);
    if (e == ENOENT)
        fprintf(stderr,
                "tfs conform: %s not found beside tfs nor on PATH (it is built when OpenSSL libcrypto and "
                "jansson are found at build time, and installed beside tfs)\n",
                CONFORM_PROGRAM);
    else
        fprintf(stderr, "tfs conform: cannot run %s: %s\n", CONFORM_PROGRAM, strerror(e));
    return 2;
}
