/* gguflib.c: fuzz target for antirez/gguf-tools' GGUF reader (gguflib.c),
 * built from a gguf-tools source folder the user passes
 * (-DTFS_EXT_GGUF_TOOLS_SRC; docs/fuzzing-third-party.md names the pinned
 * commit).  Written here; no gguf-tools code is copied.
 *
 * gguf_open() maps a file; here the context is made the same way over a
 * heap copy of exactly the input's size (the fields gguf_open fills: data,
 * size, header, alignment 32, then gguf_rewind), so ASan reports any read
 * past the input instead of a read into the mapping's page slack.  The
 * reader then runs as `gguf-tools show` drives it: every key with its value
 * walked by gguf_do_with_value, then every tensor info by gguf_get_tensor.
 * gguf_open's own checks come first: at least a header's bytes and the
 * "GGUF" magic.  Variants: 1. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gguflib.h"

#include "ext_fuzz.h"

static volatile uint64_t g_sink;

/* reads the value as a consumer would (gguf-tools prints it): a string's
 * last byte, a scalar's first; through bytes (the value may sit at any
 * address: gguflib's packed layout) */
static void on_value(void *priv, uint32_t type, union gguf_value *val, uint64_t in_array, uint64_t array_len) {
    (void)priv, (void)in_array, (void)array_len;
    const uint8_t *p = (const uint8_t *)val;
    g_sink += type;
    if (type == GGUF_VALUE_TYPE_STRING) {
        uint64_t len;
        memcpy(&len, p, 8); /* struct gguf_string: u64 length, then the bytes */
        if (len) g_sink += p[8 + len - 1];
    } else if (type != GGUF_VALUE_TYPE_ARRAY_START && type != GGUF_VALUE_TYPE_ARRAY_END) {
        g_sink += p[0];
    }
}

void tfs_ext_setup(void) {}

unsigned tfs_ext_variants(void) { return 1; }

void tfs_ext_run(const uint8_t *data, size_t size, unsigned variant) {
    (void)variant;
    if (size < sizeof(struct gguf_header) || memcmp(data, "GGUF", 4) != 0) return;
    uint8_t *copy = malloc(size);
    if (!copy) return;
    memcpy(copy, data, size);
    gguf_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.fd = -1;
    ctx.data = copy;
    ctx.size = size;
    ctx.header = (struct gguf_header *)copy;
    ctx.alignment = 32;
    gguf_rewind(&ctx);
    gguf_key key;
    while (gguf_get_key(&ctx, &key)) gguf_do_with_value(&ctx, key.type, key.val, NULL, 0, 0, on_value);
    gguf_tensor t;
    while (gguf_get_tensor(&ctx, &t)) g_sink += t.num_weights + t.bsize + t.offset;
    free(copy);
}
