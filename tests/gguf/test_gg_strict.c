/* test_gg_strict.c: strict-profile rules GG501-GG508 (implementation-defined
 * cases of spec/gguf.md), their precedence, and real files: every valid file
 * of shared/real/gguf must pass --strict (skipped when the folder is absent). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifndef TFS_GG_REAL_DIR /* set by tests/gguf/tests.cmake */
#error "TFS_GG_REAL_DIR: the folder of the real files (../shared/real beside the project)"
#endif

static void test_GG501_bool_scalar_2(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv(&b, "ok", TFS_GG_BOOL);
    gb_u8(&b, 1);
    gb_kv_at at = gb_kv(&b, "tokenizer.ggml.add_bos_token", TFS_GG_BOOL);
    gb_u8(&b, 2);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG501, at.value, 1);
    gg_expect_invalid(&b, TFS_STRICT | TFS_HEADER_ONLY, TFS_GG501, at.value, 1);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
}

static void test_GG501_bool_array_element(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_arr(&b, "flags", TFS_GG_BOOL, 4);
    gb_u8(&b, 0);
    gb_u8(&b, 1);
    gb_u8(&b, 0x80);
    gb_u8(&b, 1);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG501, at.value + 2u, 0);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
}

static void test_GG502_alignment_not_multiple_of_8(void **state) {
    (void)state;
    const uint32_t bad[] = {1u, 2u, 4u};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_u32(&b, "a", 0);
        gb_kv_at at = gb_kv_u32(&b, "general.alignment", bad[i]);
        gg_expect_invalid(&b, TFS_STRICT, TFS_GG502, at.value, 1);
        tfs_header *h = gg_expect_ok(&b, 0);
        assert_int_equal(h->alignment, bad[i]);
        tfs_header_free(h);
        gb_free(&b);
    }
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_u32(&b, "general.alignment", 8);
    tfs_header_free(gg_expect_ok(&b, TFS_STRICT));
    gb_free(&b);
}

static void test_GG503_nonzero_padding(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[1] = {8};
    gb_ti(&b, "t", 1, ne, 0, 0);
    size_t end = b.len;
    gb_pad(&b, 32);
    gb_zeros(&b, 32);
    assert_true(end + 3u < b.len - 32u);
    b.p[end + 3u] = 0xAA;
    b.p[end + 5u] = 0x01;
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG503, end + 3u, -1);
    gg_expect_invalid(&b, TFS_STRICT | TFS_HEADER_ONLY, TFS_GG503, end + 3u, -1);
    tfs_header_free(gg_expect_ok(&b, 0));
    /* bytes inside the data section are not padding */
    b.p[end + 3u] = b.p[end + 5u] = 0;
    b.p[b.len - 1u] = 0xFF;
    tfs_header_free(gg_expect_ok(&b, TFS_STRICT));
    gb_free(&b);
}

static void test_GG504_key_not_utf8(void **state) {
    (void)state;
    const struct {
        const char *key;
        size_t len;
        size_t bad_at;
    } cases[] = {
        {"ab\xFF", 3, 2},           /* invalid byte */
        {"a\xC0\x80", 3, 1},        /* overlong NUL */
        {"\xED\xA0\x80x", 4, 0},    /* UTF-16 surrogate */
        {"k\xE2\x82", 3, 1},        /* cut sequence */
        {"\xF4\x90\x80\x80", 4, 0}, /* above U+10FFFF */
        {"x\x80", 2, 1},            /* lone continuation byte */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_u32(&b, "fine", 0);
        size_t start = gb_strn(&b, cases[i].key, cases[i].len);
        gb_u32(&b, TFS_GG_U8);
        gb_u8(&b, 0);
        gg_expect_invalid(&b, TFS_STRICT, TFS_GG504, start + 8u + cases[i].bad_at, 1);
        tfs_header_free(gg_expect_ok(&b, 0));
        gb_free(&b);
    }
}

static void test_valid_strict_keys(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 4);
    gb_kv_u32(&b, "general.base_model.0.name", 0);
    gb_kv_u32(&b, "_", 0);
    gb_kv_u32(&b, "a1.b_2.c", 0);
    uint8_t *k = malloc(65535);
    assert_non_null(k);
    memset(k, 'k', 65535);
    gb_strn(&b, k, 65535); /* the spec's maximum */
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 0);
    tfs_header_free(gg_expect_ok(&b, TFS_STRICT));
    free(k);
    gb_free(&b);
}

static void test_GG505_key_longer_than_65535(void **state) {
    (void)state;
    uint8_t *k = malloc(65536);
    assert_non_null(k);
    memset(k, 'k', 65536);
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "fine", 0);
    size_t at = gb_strn(&b, k, 65536);
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 0);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG505, at, 1);
    gg_expect_invalid(&b, TFS_STRICT | TFS_HEADER_ONLY, TFS_GG505, at, 1);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
    /* not UTF-8 as well: GG504 first */
    k[70000 - 65536 + 100] = 0xFF;
    gb_header(&b, 3, 0, 1);
    at = gb_strn(&b, k, 65536);
    gb_u32(&b, TFS_GG_U8);
    gb_u8(&b, 0);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG504, at + 8u + (70000u - 65536u + 100u), 0);
    gb_free(&b);
    free(k);
}

/* A key longer than TFS_KEY_KEEP: a reader keeps its first TFS_KEY_KEEP
 * bytes and checks the rest as it reads (key_bad); the buffer checks it
 * whole.  Both must name the same first bad byte, before, at and past the
 * kept prefix's end, and a valid one must reach GG505. */
static void test_GG504_key_longer_than_kept(void **state) {
    (void)state;
    const size_t len = TFS_KEY_KEEP + 4465u;
    const size_t bad_at[] = {100u, TFS_KEY_KEEP - 1u, TFS_KEY_KEEP, len - 100u, len - 1u};
    uint8_t *k = malloc(len);
    assert_non_null(k);
    for (size_t i = 0; i < sizeof bad_at / sizeof bad_at[0] + 1u; i++) {
        memset(k, 'k', len);
        if (i < sizeof bad_at / sizeof bad_at[0]) k[bad_at[i]] = 0xFF;
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_u32(&b, "fine", 0);
        size_t at = gb_strn(&b, k, len);
        gb_u32(&b, TFS_GG_U8);
        gb_u8(&b, 0);
        if (i < sizeof bad_at / sizeof bad_at[0])
            gg_expect_invalid(&b, TFS_STRICT, TFS_GG504, at + 8u + bad_at[i], 1);
        else
            gg_expect_invalid(&b, TFS_STRICT, TFS_GG505, at, 1);
        tfs_header_free(gg_expect_ok(&b, 0));
        gb_free(&b);
    }
    free(k);
}

static void test_GG506_key_not_snake_case(void **state) {
    (void)state;
    const struct {
        const char *key;
        size_t bad_at;
    } cases[] = {
        {"General.name", 0}, /* capital */
        {"general.Name", 8},
        {"general name", 7},   /* space */
        {"tokenizer-ggml", 9}, /* dash */
        {".general", 0},       /* empty first segment */
        {"general..name", 8},  /* empty segment */
        {"general.", 7},       /* empty last segment */
        {".", 0},
        {"caf\xC3\xA9", 3}, /* UTF-8, not ASCII */
        {"a\x7F", 1},       /* DEL */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 2);
        gb_kv_u32(&b, "fine", 0);
        gb_kv_at at = gb_kv_u32(&b, cases[i].key, 0);
        gg_expect_invalid(&b, TFS_STRICT, TFS_GG506, at.start + 8u + cases[i].bad_at, 1);
        tfs_header_free(gg_expect_ok(&b, 0));
        gb_free(&b);
    }
    /* GG504 (not UTF-8) comes first */
    gb b = {0};
    gb_header(&b, 3, 0, 1);
    gb_kv_at at = gb_kv_u32(&b, "A\xFF", 0);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG504, at.start + 9u, 0);
    gb_free(&b);
}

/* A string of n bytes: 'v' with `bad` (len bytes) at `at` */
static void put_str_with(gb *b, size_t n, size_t at, const char *bad, size_t len) {
    uint8_t *s = malloc(n);
    assert_non_null(s);
    memset(s, 'v', n);
    memcpy(s + at, bad, len);
    gb_strn(b, s, n);
    free(s);
}

static void test_GG507_string_value_not_utf8(void **state) {
    (void)state;
    /* short (kept) and long (read through the window) values, a sequence
     * across the 64 KiB window */
    const struct {
        size_t n, at;
        const char *bad;
        size_t len;
        size_t bad_at;
    } cases[] = {
        {5, 2, "\xFF", 1, 2},
        {3, 1, "\xC0\x80", 2, 1},             /* overlong NUL */
        {300, 297, "\xED\xA0\x80", 3, 297},   /* encoded surrogate */
        {70000, 65535, "\xE2\x82", 2, 65535}, /* cut sequence across the window */
        {70000, 69999, "\xF0", 1, 69999},     /* cut at the end */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb b = {0};
        gb_header(&b, 3, 0, 3);
        gb_kv_str(&b, "fine", "ok");
        gb_kv_u32(&b, "n", 1);
        gb_kv_at at = gb_kv(&b, "general.description", TFS_GG_STRING);
        put_str_with(&b, cases[i].n, cases[i].at, cases[i].bad, cases[i].len);
        gg_expect_invalid(&b, TFS_STRICT, TFS_GG507, at.value + 8u + cases[i].bad_at, 2);
        gg_expect_invalid(&b, TFS_STRICT | TFS_HEADER_ONLY, TFS_GG507, at.value + 8u + cases[i].bad_at, 2);
        tfs_header_free(gg_expect_ok(&b, 0));
        gb_free(&b);
    }
    /* valid: a 3-byte and a 4-byte sequence across the window */
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv(&b, "a", TFS_GG_STRING);
    put_str_with(&b, 70000, 65535, "\xE2\x82\xAC", 3);
    gb_kv(&b, "b", TFS_GG_STRING);
    put_str_with(&b, 70000, 65533, "\xF0\x9F\x98\x80", 4);
    tfs_header_free(gg_expect_ok(&b, TFS_STRICT));
    gb_free(&b);
}

static void test_GG507_string_array_element(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_arr(&b, "tokenizer.ggml.merges", TFS_GG_STRING, 1);
    gb_str(&b, "a b");
    gb_kv_arr(&b, "tokenizer.ggml.tokens", TFS_GG_STRING, 4);
    gb_str(&b, "<s>");
    gb_str(&b, "\xE2\x96\x81the");
    size_t third = gb_strn(&b, "x\x80", 2);
    gb_str(&b, "\xFF");
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG507, third + 9u, 1);
    tfs_header_free(gg_expect_ok(&b, 0));
    gb_free(&b);
    /* a bad key after a bad value: the value's KV comes first; in one KV
     * the key comes first */
    gb_header(&b, 3, 0, 2);
    gb_kv_at v = gb_kv_str(&b, "s", "\xFF");
    gb_kv_u32(&b, "BAD", 0);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG507, v.value + 8u, 0);
    gb_free(&b);
    gb_header(&b, 3, 0, 1);
    gb_kv_at k = gb_kv_str(&b, "Key", "\xFF");
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG506, k.start + 8u, 0);
    gb_free(&b);
    /* a bool 2 before a bad string: GG501 (its KV first) */
    gb_header(&b, 3, 0, 2);
    gb_kv_at bo = gb_kv(&b, "b", TFS_GG_BOOL);
    gb_u8(&b, 2);
    gb_kv_str(&b, "s", "\xFF");
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG501, bo.value, 0);
    gb_free(&b);
}

static void test_GG508_tensor_name_not_utf8(void **state) {
    (void)state;
    const int64_t ne[1] = {8};
    gb b = {0};
    gb_header(&b, 3, 2, 1);
    gb_kv_u32(&b, "general.alignment", 32);
    gb_ti(&b, "token_embd.weight", 1, ne, 0, 0);
    gb_ti_at t = gb_tin(&b, "blk.0.\xC3", 7, 1, ne, 0, 32);
    size_t end = b.len;
    gb_pad(&b, 32);
    gb_zeros(&b, 64);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG508, t.start + 8u + 6u, 1);
    gg_expect_invalid(&b, TFS_STRICT | TFS_HEADER_ONLY, TFS_GG508, t.start + 8u + 6u, 1);
    tfs_header_free(gg_expect_ok(&b, 0));
    /* nonzero padding after it: GG508 first (file order) */
    assert_true(end < b.len - 64u);
    b.p[end] = 1;
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG508, t.start + 8u + 6u, 1);
    gb_free(&b);
    /* UTF-8 names (any case, any characters) pass */
    gb_header(&b, 3, 1, 0);
    gb_ti(&b, "Blk 0/\xE2\x82\xAC", 1, ne, 0, 0);
    gb_pad(&b, 32);
    gb_zeros(&b, 32);
    tfs_header_free(gg_expect_ok(&b, TFS_STRICT));
    gb_free(&b);
}

static void test_strict_reports_canonical_rule_first(void **state) {
    (void)state;
    /* bool 2 (strict) at KV 0, duplicate key (canonical) at KV 2 */
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv(&b, "b", TFS_GG_BOOL);
    gb_u8(&b, 2);
    gb_kv_u32(&b, "x", 0);
    gb_kv_at at = gb_kv_u32(&b, "x", 0);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG111, at.start, 2);
    gb_free(&b);
    /* bad UTF-8 key (strict) + data missing (default): GG304 first */
    gb_header(&b, 3, 1, 1);
    gb_kv_u32(&b, "\xFF", 0);
    const int64_t ne[1] = {8};
    gb_ti_at t = gb_ti(&b, "t", 1, ne, 0, 0);
    gb_pad(&b, 32);
    gg_expect_invalid(&b, TFS_STRICT, TFS_GG304, t.offset, 0);
    gg_expect_invalid(&b, TFS_STRICT | TFS_HEADER_ONLY, TFS_GG504, 32, 0);
    gb_free(&b);
}

/* Real files: parse shared/real/MANIFEST.tsv; every gguf line's canonical
 * verdict must match ours in the default and the strict profile. */
static void test_real_files_default_and_strict(void **state) {
    (void)state;
    char path[8192];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", TFS_GG_REAL_DIR);
    FILE *f = fopen(path, "r");
    if (!f) skip();
    char line[4096];
    int n_valid = 0, n_invalid = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "gguf", 4) != 0) continue;
        char *cols[10] = {0};
        char *s = line;
        for (int i = 0; i < 10 && s; i++) {
            cols[i] = s;
            s = strchr(s, '\t');
            if (s) *s++ = 0;
        }
        if (!cols[7]) continue;
        bool valid = strcmp(cols[7], "valid") == 0;
        snprintf(path, sizeof path, "%s/%s", TFS_GG_REAL_DIR, cols[0]);
        const unsigned profiles[] = {0, TFS_STRICT, TFS_HEADER_ONLY, TFS_STRICT | TFS_HEADER_ONLY};
        for (size_t p = 0; p < 4; p++) {
            tfs_header *h = NULL;
            tfs_error e;
            tfs_status st = tfs_parse_file(path, TFS_FORMAT_GGUF, profiles[p], &h, &e);
            if ((st == TFS_OK) != valid)
                print_error("%s flags %u: %s %s\n", cols[0], profiles[p], tfs_status_name(st), tfs_rule_id(e.rule));
            assert_int_equal(st, valid ? TFS_OK : TFS_INVALID);
            tfs_header_free(h);
        }
        valid ? n_valid++ : n_invalid++;
    }
    fclose(f);
    assert_true(n_valid >= 19);
    assert_true(n_invalid >= 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_GG501_bool_scalar_2),
        cmocka_unit_test(test_GG501_bool_array_element),
        cmocka_unit_test(test_GG502_alignment_not_multiple_of_8),
        cmocka_unit_test(test_GG503_nonzero_padding),
        cmocka_unit_test(test_GG504_key_not_utf8),
        cmocka_unit_test(test_valid_strict_keys),
        cmocka_unit_test(test_GG505_key_longer_than_65535),
        cmocka_unit_test(test_GG504_key_longer_than_kept),
        cmocka_unit_test(test_GG506_key_not_snake_case),
        cmocka_unit_test(test_GG507_string_value_not_utf8),
        cmocka_unit_test(test_GG507_string_array_element),
        cmocka_unit_test(test_GG508_tensor_name_not_utf8),
        cmocka_unit_test(test_strict_reports_canonical_rule_first),
        cmocka_unit_test(test_real_files_default_and_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
