/* ggml_api.h: the slice of ggml's C API (gguf.h / ggml.h) that tfs loads with
 * dlopen from the npm package's libggml-base.so: the differential oracle
 * (ggml_oracle.c), the ggml adapter of the conformance suite
 * (conformance/adapters/ggml_adapter.c) and the whole-process bench (bench/ggml_load.c).  Only
 * types: the symbols are looked up at run time. */
#ifndef TFS_GGML_API_H
#define TFS_GGML_API_H

#include <stdbool.h>
#include <stdint.h>

struct gguf_init_params {
    bool no_alloc;
    void **ctx; /* struct ggml_context ** */
};
typedef void *(*gguf_init_from_file_fn)(const char *fname, struct gguf_init_params params);
typedef int64_t (*gguf_get_n_fn)(const void *gctx);
typedef void (*gguf_free_fn)(void *gctx);
typedef void (*ggml_free_fn)(void *ctx);
typedef void (*ggml_log_callback)(int level, const char *text, void *user_data);
typedef void (*ggml_log_set_fn)(ggml_log_callback cb, void *user_data);
typedef const char *(*ggml_version_fn)(void); /* ggml_version(), ggml_commit() */

#endif
