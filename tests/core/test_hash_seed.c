/* test_hash_seed.c (TFS_POSIX=OFF builds): libtfs takes its per-parse hash
 * seed from the application's tfs_platform_hash_seed (tfs/platform.h, here
 * tests/core/test_seed.c), calls it for parses that detect duplicates, and
 * gives the same verdict, rule, offset and index whatever the seed is,
 * including a constant seed where every name hashes alike only by chance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/test_seed.h"
#include "tfs/tfs.h"

#ifndef TFS_NO_POSIX
#error "test_hash_seed is for TFS_POSIX=OFF builds"
#endif

static uint8_t *slurp(const char *rel, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TFS_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long n = ftell(f);
    assert_true(n >= 0);
    rewind(f);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

typedef struct outcome {
    tfs_status st;
    tfs_error err;
    size_t n_kv, n_tensors;
} outcome;

static outcome parse(const char *rel, tfs_format fmt, unsigned flags) {
    size_t len;
    uint8_t *buf = slurp(rel, &len);
    outcome o = {0};
    tfs_header *h = NULL;
    o.st = tfs_parse_buffer(buf, len, fmt, flags, &h, &o.err);
    if (h) {
        o.n_kv = h->n_kv;
        o.n_tensors = h->n_tensors;
    }
    tfs_header_free(h);
    free(buf);
    return o;
}

static const struct {
    const char *file;
    tfs_format fmt;
    unsigned flags;
    tfs_status want;
    tfs_rule rule;
} k_cases[] = {
    {"corpus/gguf/GG111-duplicate-key.gguf", TFS_FORMAT_GGUF, 0, TFS_INVALID, TFS_GG111},
    {"corpus/gguf/valid-every-type.gguf", TFS_FORMAT_GGUF, 0, TFS_OK, TFS_RULE_NONE},
    {"corpus/real/gguf/ratchet-dummy.gguf", TFS_FORMAT_GGUF, 0, TFS_OK, TFS_RULE_NONE},
    {"corpus/safetensors/ST501-duplicate-last-wins.safetensors", TFS_FORMAT_SAFETENSORS, TFS_STRICT, TFS_INVALID,
     TFS_ST501},
    {"corpus/safetensors/valid-1000-tensors.safetensors", TFS_FORMAT_SAFETENSORS, 0, TFS_OK, TFS_RULE_NONE},
};

static void test_hook_called_and_seed_irrelevant(void **state) {
    (void)state;
    static const uint64_t seeds[] = {0, 1, UINT64_MAX, UINT64_C(0x0123456789ABCDEF)};
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        test_seed_set(0, 0);
        unsigned long before = test_seed_calls();
        outcome ref = parse(k_cases[c].file, k_cases[c].fmt, k_cases[c].flags);
        assert_true(test_seed_calls() > before); /* the application's hook gave the seed */
        assert_int_equal(ref.st, k_cases[c].want);
        assert_int_equal(ref.err.rule, k_cases[c].rule);
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
            test_seed_set(seeds[s], 1);
            outcome o = parse(k_cases[c].file, k_cases[c].fmt, k_cases[c].flags);
            assert_int_equal(o.st, ref.st);
            assert_int_equal(o.err.rule, ref.err.rule);
            assert_int_equal(o.err.offset, ref.err.offset);
            assert_int_equal(o.err.index, ref.err.index);
            assert_int_equal(o.n_kv, ref.n_kv);
            assert_int_equal(o.n_tensors, ref.n_tensors);
        }
    }
    test_seed_set(0, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_called_and_seed_irrelevant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
