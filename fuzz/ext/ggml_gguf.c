/* ggml_gguf.c: fuzz target for ggml's GGUF reader (ggml/src/gguf.cpp, with
 * the part of ggml-base it needs), built from a ggml source folder the user
 * passes (-DTFS_EXT_GGML_SRC; docs/fuzzing-third-party.md names the pinned
 * commit).  Written here; no ggml code is copied.
 *
 * The input's last byte picks the variant (an engine runs one per input,
 * the replay main every one):
 *   bit 0: no_alloc (ggml's metadata mode) or the tensor data read into a
 *          ggml context
 *   bit 1: gguf_init_from_buffer or gguf_init_from_file_ptr over fmemopen
 *          (the FILE reader llama.cpp uses)
 * The whole input is the file.  An accepted context is then read through
 * the public API within its documented contract (every KV by type, every
 * array element, every tensor's name, type, offset and size, the metadata
 * written back with gguf_get_meta_data): an abort, a sanitizer report or a
 * hang anywhere is a finding.  ggml's log goes nowhere. */
#define _GNU_SOURCE /* fmemopen */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml.h"
#include "gguf.h"

#include "ext_fuzz.h"

static void quiet(enum ggml_log_level level, const char *text, void *user) { (void)level, (void)text, (void)user; }

static volatile size_t g_sink;

/* bytes of one element of a fixed-size GGUF value type (the GGUF spec's
 * table, typed here: gguf.h does not export ggml's) */
static size_t elem_size(enum gguf_type t) {
    static const size_t size[] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return (unsigned)t < sizeof size / sizeof size[0] ? size[t] : 0;
}

static void walk(const struct gguf_context *g) {
    int64_t n_kv = gguf_get_n_kv(g);
    for (int64_t k = 0; k < n_kv; k++) {
        g_sink += strlen(gguf_get_key(g, k));
        enum gguf_type t = gguf_get_kv_type(g, k);
        if (t == GGUF_TYPE_ARRAY) {
            enum gguf_type et = gguf_get_arr_type(g, k);
            size_t n = gguf_get_arr_n(g, k);
            if (et == GGUF_TYPE_STRING) {
                for (size_t i = 0; i < n; i++) g_sink += strlen(gguf_get_arr_str(g, k, i));
            } else if (elem_size(et) > 0 && n > 0) {
                const uint8_t *d = gguf_get_arr_data(g, k);
                g_sink += d[0] + d[n * elem_size(et) - 1];
            }
        } else if (t == GGUF_TYPE_STRING) {
            g_sink += strlen(gguf_get_val_str(g, k));
        } else {
            g_sink += ((const uint8_t *)gguf_get_val_data(g, k))[0];
        }
    }
    int64_t n_t = gguf_get_n_tensors(g);
    for (int64_t i = 0; i < n_t; i++) {
        g_sink += strlen(gguf_get_tensor_name(g, i));
        g_sink += gguf_get_tensor_offset(g, i) + gguf_get_tensor_size(g, i) + (size_t)gguf_get_tensor_type(g, i);
    }
    g_sink += gguf_get_data_offset(g) + gguf_get_alignment(g);
#ifdef TFS_EXT_MEASURE
    /* measurement builds (-DTFS_EXT_NO_SANITIZE, bench/fuzz/ext_cov.py): ggml
     * pads the written-back metadata to the alignment one byte at a time, a
     * known slow path (docs/findings.md, valid-alignment-2-31-no-tensors);
     * above 1 MiB it is left out, in both fuzzer forms alike */
    if (gguf_get_alignment(g) > ((size_t)1 << 20)) return;
#endif
    size_t meta = gguf_get_meta_size(g);
    if (meta > 0 && meta < ((size_t)1 << 28)) {
        void *buf = malloc(meta);
        if (buf) {
            gguf_get_meta_data(g, buf);
            g_sink += ((uint8_t *)buf)[meta - 1];
            free(buf);
        }
    }
}

static void run(const uint8_t *data, size_t size, unsigned variant) {
    struct ggml_context *ctx = NULL;
    struct gguf_init_params p = {(variant & 1) == 0, &ctx};
    struct gguf_context *g = NULL;
    if (variant & 2) {
        FILE *f = size ? fmemopen((void *)data, size, "rb") : NULL;
        if (!f) return;
        g = gguf_init_from_file_ptr(f, p);
        fclose(f);
    } else {
        g = gguf_init_from_buffer(data, size, p);
    }
    if (g) {
        walk(g);
        gguf_free(g);
    }
    if (ctx) ggml_free(ctx);
}

void tfs_ext_setup(void) { ggml_log_set(quiet, NULL); }

unsigned tfs_ext_variants(void) { return 4; }

void tfs_ext_run(const uint8_t *data, size_t size, unsigned variant) { run(data, size, variant); }
