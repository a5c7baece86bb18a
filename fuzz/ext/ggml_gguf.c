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

#ifdef TFS_EXT_MEASURE
/* Measurement builds (-DTFS_EXT_NO_SANITIZE, bench/fuzz/ext_cov.py,
 * bench/fuzz/mutator_speed.py): with no_alloc = false ggml allocates the
 * tensor data its header declares before it checks that the file holds it, a
 * known finding (docs/findings.md, GG212-q8_K-ne0-2-56: ASan
 * allocation-size-too-big, or libFuzzer's malloc limit) that ends a fuzzing
 * process within seconds.  Such an input runs in ggml's metadata mode
 * instead (same parse, no data read), in both fuzzer forms alike, so the
 * forms run in one process; the data mode runs only where this bounded scan
 * of the header shows the declared data (each tensor's size padded to the
 * alignment, as gguf.cpp sums it) within the input.  A header the scan
 * cannot follow (cut, an unknown type, more than MEASURE_STEPS records)
 * runs in metadata mode too: ggml rejects it before that point, or it is
 * too long to scan. */
#define MEASURE_STEPS 4096u

typedef struct mscan {
    const uint8_t *d;
    size_t size, pos;
    unsigned steps;
} mscan;

static int m_u(mscan *m, unsigned width, uint64_t *v) {
    if (m->size - m->pos < width) return 0;
    *v = 0;
    for (unsigned i = 0; i < width; i++) *v |= (uint64_t)m->d[m->pos + i] << (8u * i);
    m->pos += width;
    return 1;
}

/* a GGUF string: u64 length, bytes; *at receives where its bytes start */
static int m_str(mscan *m, uint64_t *len, size_t *at) {
    if (++m->steps > MEASURE_STEPS || !m_u(m, 8, len) || *len > m->size - m->pos) return 0;
    *at = m->pos;
    m->pos += (size_t)*len;
    return 1;
}

/* 1: the header's declared tensor data fits in the input */
static int data_fits(const uint8_t *d, size_t size) {
    mscan m = {d, size, 4, 0};
    uint64_t version, n_tensors, n_kv, len, type, v, alignment = 32;
    size_t at;
    int have_alignment = 0;
    if (size < 4 || !m_u(&m, 4, &version) || !m_u(&m, 8, &n_tensors) || !m_u(&m, 8, &n_kv)) return 0;
    for (uint64_t k = 0; k < n_kv; k++) {
        if (!m_str(&m, &len, &at) || !m_u(&m, 4, &type)) return 0;
        int is_alignment = !have_alignment && len >= 17 && memcmp(d + at, "general.alignment", 17) == 0 &&
                           (len == 17 || d[at + 17] == 0);
        if (type == GGUF_TYPE_STRING) {
            if (!m_str(&m, &len, &at)) return 0;
        } else if (type == GGUF_TYPE_ARRAY) {
            uint64_t et, count;
            if (!m_u(&m, 4, &et) || !m_u(&m, 8, &count)) return 0;
            if (et == GGUF_TYPE_STRING) {
                for (uint64_t i = 0; i < count; i++)
                    if (!m_str(&m, &len, &at)) return 0;
            } else if (elem_size(et) > 0 && count <= (size - m.pos) / elem_size(et)) {
                m.pos += (size_t)count * elem_size(et);
            } else {
                return 0;
            }
        } else if (elem_size(type) > 0) {
            if (!m_u(&m, (unsigned)elem_size(type), &v)) return 0;
            if (is_alignment) alignment = type == GGUF_TYPE_UINT32 ? v : 0;
        } else {
            return 0;
        }
        if (is_alignment) have_alignment = 1;
    }
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) return 0;
    uint64_t total = 0;
    for (uint64_t t = 0; t < n_tensors; t++) {
        uint64_t n_dims, ne, ggml_type, offset, n = 1;
        if (!m_str(&m, &len, &at) || !m_u(&m, 4, &n_dims) || n_dims > GGML_MAX_DIMS) return 0;
        for (uint64_t j = 0; j < n_dims; j++) {
            if (!m_u(&m, 8, &ne)) return 0;
            if (ne != 0 && n > UINT64_MAX / ne) return 0; /* more elements than any input holds */
            n *= ne;
        }
        if (!m_u(&m, 4, &ggml_type) || ggml_type >= GGML_TYPE_COUNT || !m_u(&m, 8, &offset)) return 0;
        int64_t blck = ggml_blck_size((enum ggml_type)ggml_type);
        uint64_t type_size = ggml_type_size((enum ggml_type)ggml_type);
        if (blck <= 0 || n / (uint64_t)blck > (uint64_t)size / (type_size ? type_size : 1)) return 0;
        total += (n / (uint64_t)blck * type_size + alignment - 1) / alignment * alignment;
        if (total > size) return 0;
    }
    if (n_tensors == 0) return 1; /* no data section: ggml neither seeks nor allocates */
    size_t data_offset = (m.pos + (size_t)alignment - 1) / (size_t)alignment * (size_t)alignment;
    return data_offset <= size && total <= size - data_offset;
}
#endif

static void run(const uint8_t *data, size_t size, unsigned variant) {
#ifdef TFS_EXT_MEASURE
    if ((variant & 1) == 1 && !data_fits(data, size)) variant &= ~1u;
#endif
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
