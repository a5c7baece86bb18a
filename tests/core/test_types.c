/* test_types.c: the type tables' lookups (parsers/core/types.c) at and past
 * their ends, and the safetensors dtype names against near misses.  The GGUF
 * value types' names and sizes are written here from the GGUF spec
 * (gguf_metadata_value_type: uint8 .. float64, string and array without a
 * fixed size), not from gg_vtypes.def. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/tfs.h"

static void test_st_dtype_lookups(void **state) {
    (void)state;
    for (uint32_t d = 0; d < TFS_ST_DTYPE_COUNT; d++) {
        const char *name = tfs_st_dtype_name(d);
        assert_non_null(name);
        size_t len = strlen(name);
        unsigned bits = tfs_st_dtype_bits(d);
        assert_true(bits >= 1 && bits <= 64);
        uint32_t got = 999;
        assert_int_equal(tfs_st_dtype_from_name(name, len, &got), 0);
        assert_int_equal(got, d);
        assert_int_equal(tfs_st_dtype_from_name(name, len, NULL), 0);
        /* near misses: shorter, longer, first or last byte changed, lower case */
        char buf[32];
        assert_true(len + 2 < sizeof buf);
        memcpy(buf, name, len);
        buf[len] = 'X';
        got = 999;
        assert_int_equal(tfs_st_dtype_from_name(buf, len + 1, &got), -1);
        assert_int_equal(got, 999);
        if (len > 1) {
            uint32_t other;
            int r = tfs_st_dtype_from_name(name, len - 1, &other);
            /* a prefix that is itself a name (none today) would be found as that name */
            if (r == 0) assert_int_equal(strlen(tfs_st_dtype_name(other)), len - 1);
        }
        memcpy(buf, name, len);
        buf[0] = (char)(buf[0] ^ 0x20);
        assert_int_equal(tfs_st_dtype_from_name(buf, len, &got), -1);
        memcpy(buf, name, len);
        buf[len - 1] = (char)(buf[len - 1] + 1);
        int r = tfs_st_dtype_from_name(buf, len, &got);
        if (r == 0) assert_string_not_equal(tfs_st_dtype_name(got), name);
    }
    assert_null(tfs_st_dtype_name(TFS_ST_DTYPE_COUNT));
    assert_null(tfs_st_dtype_name(UINT32_MAX));
    assert_int_equal(tfs_st_dtype_bits(TFS_ST_DTYPE_COUNT), 0);
    assert_int_equal(tfs_st_dtype_bits(UINT32_MAX), 0);
    uint32_t got = 7;
    assert_int_equal(tfs_st_dtype_from_name(NULL, 3, &got), -1);
    assert_int_equal(tfs_st_dtype_from_name("F32", 0, &got), -1);
    assert_int_equal(tfs_st_dtype_from_name("", 0, &got), -1);
    assert_int_equal(got, 7);
    /* the last name of the table is found too (a loop that stops one short) */
    const char *last = tfs_st_dtype_name(TFS_ST_DTYPE_COUNT - 1);
    assert_int_equal(tfs_st_dtype_from_name(last, strlen(last), &got), 0);
    assert_int_equal(got, TFS_ST_DTYPE_COUNT - 1);
    /* a few names from the spec's dtype list, with their bit sizes */
    static const struct {
        const char *name;
        unsigned bits;
    } spec[] = {{"BOOL", 8}, {"U8", 8},    {"I8", 8},      {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"I16", 16}, {"U16", 16},
                {"F16", 16}, {"BF16", 16}, {"I32", 32},    {"U32", 32},    {"F32", 32},    {"F64", 64}, {"I64", 64},
                {"U64", 64}, {"F4", 4},    {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"F8_E8M0", 8}, {"C64", 64}};
    for (size_t i = 0; i < sizeof spec / sizeof spec[0]; i++) {
        assert_int_equal(tfs_st_dtype_from_name(spec[i].name, strlen(spec[i].name), &got), 0);
        assert_string_equal(tfs_st_dtype_name(got), spec[i].name);
        assert_int_equal(tfs_st_dtype_bits(got), spec[i].bits);
    }
}

static void test_gg_vtypes_from_spec(void **state) {
    (void)state;
    static const struct {
        const char *name;
        size_t size;
    } spec[13] = {{"u8", 1},   {"i8", 1},     {"u16", 2},   {"i16", 2}, {"u32", 4}, {"i32", 4}, {"f32", 4},
                  {"bool", 1}, {"string", 0}, {"array", 0}, {"u64", 8}, {"i64", 8}, {"f64", 8}};
    assert_int_equal(TFS_GG_VTYPE_COUNT, 13);
    for (uint32_t v = 0; v < 13; v++) {
        assert_string_equal(tfs_gg_vtype_name(v), spec[v].name);
        assert_int_equal(tfs_gg_vtype_size(v), spec[v].size);
    }
    assert_null(tfs_gg_vtype_name(13));
    assert_int_equal(tfs_gg_vtype_size(13), 0);
    assert_null(tfs_gg_vtype_name(UINT32_MAX));
    assert_int_equal(tfs_gg_vtype_size(UINT32_MAX), 0);
}

static void test_gg_types_ends(void **state) {
    (void)state;
    /* type 0 is f32 (1 element, 4 bytes) in ggml.h's enum ggml_type */
    assert_string_equal(tfs_gg_type_name(0), "f32");
    assert_int_equal(tfs_gg_type_block_size(0), 1);
    assert_int_equal(tfs_gg_type_size(0), 4);
    /* the last id of the table is known, the next is not */
    assert_non_null(tfs_gg_type_name(TFS_GG_TYPE_COUNT - 1));
    assert_true(tfs_gg_type_block_size(TFS_GG_TYPE_COUNT - 1) > 0);
    assert_true(tfs_gg_type_size(TFS_GG_TYPE_COUNT - 1) > 0);
    assert_null(tfs_gg_type_name(TFS_GG_TYPE_COUNT));
    assert_int_equal(tfs_gg_type_block_size(TFS_GG_TYPE_COUNT), 0);
    assert_int_equal(tfs_gg_type_size(TFS_GG_TYPE_COUNT), 0);
    assert_null(tfs_gg_type_name(UINT32_MAX));
    assert_int_equal(tfs_gg_type_size(UINT32_MAX), 0);
    /* removed ids (4, 5: the old q4_2 / q4_3): no name, no size */
    assert_null(tfs_gg_type_name(4));
    assert_int_equal(tfs_gg_type_size(4), 0);
    assert_int_equal(tfs_gg_type_block_size(5), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_dtype_lookups),
        cmocka_unit_test(test_gg_vtypes_from_spec),
        cmocka_unit_test(test_gg_types_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
