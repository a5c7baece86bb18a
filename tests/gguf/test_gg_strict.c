/* test_gg_strict.c: strict-profile rules GG501-GG504 (implementation-defined
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

#ifndef TFS_GG_REAL_DIR
#define TFS_GG_REAL_DIR "/work/shared/real"
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
    const struct { const char *key; size_t len; size_t bad_at; } cases[] = {
        {"ab\xFF", 3, 2},          /* invalid byte */
        {"a\xC0\x80", 3, 1},       /* overlong NUL */
        {"\xED\xA0\x80x", 4, 0},   /* UTF-16 surrogate */
        {"k\xE2\x82", 3, 1},       /* cut sequence */
        {"\xF4\x90\x80\x80", 4, 0}, /* above U+10FFFF */
        {"x\x80", 2, 1},           /* lone continuation byte */
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

static void test_valid_strict_utf8_keys(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 3);
    gb_kv_u32(&b, "caf\xC3\xA9", 0);
    gb_kv_u32(&b, "\xE2\x82\xAC.\xF0\x9F\x98\x80", 0);
    gb_kv_u32(&b, "\xF4\x8F\xBF\xBF", 0); /* U+10FFFF */
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
        cmocka_unit_test(test_valid_strict_utf8_keys),
        cmocka_unit_test(test_strict_reports_canonical_rule_first),
        cmocka_unit_test(test_real_files_default_and_strict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
