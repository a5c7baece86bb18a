/*
 * ggml_adapter.c: ggml's own GGUF reader (gguf.cpp in libggml-base.so, loaded
 * with dlopen) as an adapter of the conformance protocol (conformance/README.md).
 *
 *   ggml-adapter [--meta | --data] [--lib PATH] [--mem MIB] FILE
 *   ggml-adapter --version [--lib PATH]
 *
 *   --meta   metadata mode (default): gguf_init_from_file(FILE, {no_alloc = true,
 *            ctx = NULL}); compare with the header-only profile
 *   --data   data mode: gguf_init_from_file(FILE, {no_alloc = false, ctx = &ctx}),
 *            which allocates a context for the declared data and reads it;
 *            compare with the default profile
 *   --lib    libggml-base.so (default: $TFS_GGML_LIB)
 *   --mem    address-space limit (RLIMIT_AS) in MiB, default 1024 as in the
 *            differential test (docs/divergences.md): a file declaring more data
 *            than that makes ggml's data mode abort (GGML_ASSERT), a crash
 *
 * Exit status (the protocol): 0 ggml returned a context (accepted), 1 it
 * returned NULL (rejected), 2 usage or setup error (the library cannot be
 * loaded; a crash for the runner, never a verdict).  An abort inside ggml
 * stays an abort (SIGABRT): the runner counts it as a crash.
 * First stdout line, one JSON object: "reader" (ggml version and commit,
 * mode); on rejection "message" (the first error ggml logged, control bytes
 * and non-ASCII as '?') and "category" (ggml_reasons.h; absent when the
 * message is not one of a category, e.g. data mode's context allocation).
 * GGML_NO_BACKTRACE=1 is set so that an abort does not start gdb; ggml's log
 * is not printed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ggml_api.h"
#include "ggml_reasons.h"

static char first_error[512];

static void log_cb(int level, const char *text, void *user) {
    (void)user;
    if (level != 4 /* GGML_LOG_LEVEL_ERROR */ || first_error[0] || !text) return;
    const char *p = strstr(text, ": ");
    p = p && p - text < 40 ? p + 2 : text; /* drop the "function: " prefix */
    snprintf(first_error, sizeof first_error, "%s", p);
    size_t n = strlen(first_error);
    while (n > 0 && first_error[n - 1] == '\n') first_error[--n] = 0;
}

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) fprintf(stderr, "ggml-adapter: the library lacks %s\n", name);
    return p;
}

/* A JSON string of ASCII text: bytes outside 0x20..0x7e become '?'. */
static void put_ascii(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else
            putchar(c >= 0x20 && c < 0x7f ? c : '?');
    }
    putchar('"');
}

/* "release b4234" from _nlcBuildMetadata.json beside the library (npm
 * @node-llama-cpp), else "(version unknown)" */
static const char *build_release(const char *lib_path, char *out, size_t n) {
    char path[4096], buf[4096];
    const char *slash = strrchr(lib_path, '/');
    snprintf(out, n, "(version unknown)");
    snprintf(path, sizeof path, "%.*s_nlcBuildMetadata.json", slash ? (int)(slash - lib_path + 1) : 0, lib_path);
    FILE *f = fopen(path, "r");
    if (!f) return out;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    const char *r = strstr(buf, "\"release\":\"");
    if (r) {
        r += 11;
        size_t k = strcspn(r, "\"");
        if (k < 30) snprintf(out, n, "release %.*s", (int)k, r);
    }
    return out;
}

static int usage(void) {
    fputs("usage: ggml-adapter [--meta | --data] [--lib PATH] [--mem MIB] FILE\n"
          "       ggml-adapter --version [--lib PATH]\n",
          stderr);
    return 2;
}

int main(int argc, char **argv) {
    const char *lib_path = getenv("TFS_GGML_LIB"), *file = NULL;
    bool data = false, version = false;
    unsigned long mem_mib = 1024;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--meta") == 0)
            data = false;
        else if (strcmp(argv[i], "--data") == 0)
            data = true;
        else if (strcmp(argv[i], "--version") == 0)
            version = true;
        else if (strcmp(argv[i], "--lib") == 0 && i + 1 < argc)
            lib_path = argv[++i];
        else if (strcmp(argv[i], "--mem") == 0 && i + 1 < argc)
            mem_mib = strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--") != 0)
            return usage();
        else {
            if (strcmp(argv[i], "--") == 0 && ++i == argc) return usage();
            if (file || i + 1 != argc) return usage();
            file = argv[i];
        }
    }
    if ((!file && !version) || mem_mib < 64) return usage();
    if (!lib_path || !*lib_path) {
        fputs("ggml-adapter: no libggml-base.so (--lib or TFS_GGML_LIB)\n", stderr);
        return 2;
    }
    setenv("GGML_NO_BACKTRACE", "1", 1);
    void *lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "ggml-adapter: cannot load %s: %s\n", lib_path, dlerror());
        return 2;
    }
    gguf_init_from_file_fn init;
    gguf_free_fn gguf_free;
    ggml_free_fn ggml_free;
    ggml_log_set_fn log_set;
    ggml_version_fn ver = NULL, commit = NULL;
    void *p[4] = {sym(lib, "gguf_init_from_file"), sym(lib, "gguf_free"), sym(lib, "ggml_free"),
                  sym(lib, "ggml_log_set")};
    for (int i = 0; i < 4; i++)
        if (!p[i]) return 2;
    memcpy(&init, &p[0], sizeof init);
    memcpy(&gguf_free, &p[1], sizeof gguf_free);
    memcpy(&ggml_free, &p[2], sizeof ggml_free);
    memcpy(&log_set, &p[3], sizeof log_set);
    /* ggml_version / ggml_commit came in 2025: an older library (b4234, npm
     * @node-llama-cpp/linux-x64 3.3.0) lacks them; its llama.cpp release is
     * then read from the package's _nlcBuildMetadata.json beside it */
    void *pv = dlsym(lib, "ggml_version"), *pc = dlsym(lib, "ggml_commit");
    if (pv && pc) {
        memcpy(&ver, &pv, sizeof ver);
        memcpy(&commit, &pc, sizeof commit);
    }
    char reader[160], release[40];
    if (ver)
        snprintf(reader, sizeof reader, "ggml %s (%s) %s mode", ver(), commit(), data ? "data" : "metadata");
    else
        snprintf(reader, sizeof reader, "ggml %s %s mode", build_release(lib_path, release, sizeof release),
                 data ? "data" : "metadata");
    if (version) {
        printf("%s\n", reader);
        return 0;
    }
    log_set(log_cb, NULL);

    struct rlimit as = {mem_mib << 20, mem_mib << 20}, core = {0, 0};
    setrlimit(RLIMIT_AS, &as);
    setrlimit(RLIMIT_CORE, &core);
    void *ctx = NULL;
    struct gguf_init_params params = {!data, data ? &ctx : NULL};
    void *g = init(file, params);
    fputs("{\"reader\":", stdout);
    put_ascii(reader);
    if (!g) {
        const char *cat = ggml_reason_category(first_error);
        if (cat && strcmp(cat, "ALLOC") != 0) printf(",\"category\":\"%s\"", cat);
        fputs(",\"message\":", stdout);
        put_ascii(first_error);
    }
    fputs("}\n", stdout);
    fflush(stdout);
    /* only on success: on failure ggml has freed the data context itself
     * (old ggml leaves *params.ctx pointing at it: freeing it again was a
     * double free, an abort counted as a crash) */
    if (g) {
        gguf_free(g);
        if (ctx) ggml_free(ctx);
    }
    return g ? 0 : 1;
}
