/*
 * ggml_load.c: one call of ggml's GGUF reader, as a whole process to time
 * beside `tfs check` (bench/whole.sh).
 *
 *   tfs_ggml_load [-L LIB] FILE
 *
 * dlopens libggml-base.so (LIB, default $TFS_GGML_LIB; the npm package
 * @node-llama-cpp/linux-x64, see conformance/ggml/CMakeLists.txt), then calls
 * gguf_init_from_file(FILE, {no_alloc = true, ctx = NULL}) (ggml's
 * "metadata mode": header, KVs and tensor infos, no tensor data; what
 * `tfs check` does) and gguf_free.  ggml's log is silenced and
 * GGML_NO_BACKTRACE=1 is set so an abort does not start gdb.
 * Prints "OK <n_tensors> <n_kv>" (exit 0) or "REJECT" (exit 1); exit 2 if
 * the library or a symbol is missing or on a usage error.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../conformance/ggml/ggml_api.h"

static void quiet_log(int level, const char *text, void *user_data) {
    (void)level;
    (void)text;
    (void)user_data;
}

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (!p) fprintf(stderr, "tfs_ggml_load: %s not found: %s\n", name, dlerror());
    return p;
}

int main(int argc, char **argv) {
    const char *lib = getenv("TFS_GGML_LIB"), *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-L") == 0 && i + 1 < argc)
            lib = argv[++i];
        else if (!file && argv[i][0] != '-')
            file = argv[i];
        else
            file = NULL, i = argc;
    }
    if (!file || !lib || !*lib) {
        fprintf(stderr, "usage: tfs_ggml_load [-L LIBGGML_BASE_SO] FILE   (or TFS_GGML_LIB=...)\n");
        return 2;
    }
    setenv("GGML_NO_BACKTRACE", "1", 1);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "tfs_ggml_load: cannot load %s: %s\n", lib, dlerror());
        return 2;
    }
    gguf_init_from_file_fn init = (gguf_init_from_file_fn)sym(h, "gguf_init_from_file");
    gguf_get_n_fn n_tensors = (gguf_get_n_fn)sym(h, "gguf_get_n_tensors");
    gguf_get_n_fn n_kv = (gguf_get_n_fn)sym(h, "gguf_get_n_kv");
    gguf_free_fn gfree = (gguf_free_fn)sym(h, "gguf_free");
    ggml_log_set_fn log_set = (ggml_log_set_fn)sym(h, "ggml_log_set");
    if (!init || !n_tensors || !n_kv || !gfree || !log_set) return 2;
    log_set(quiet_log, NULL);
    struct gguf_init_params p = {true, NULL};
    void *g = init(file, p);
    if (!g) {
        printf("REJECT\n");
        return 1;
    }
    printf("OK %lld %lld\n", (long long)n_tensors(g), (long long)n_kv(g));
    gfree(g);
    return 0;
}
