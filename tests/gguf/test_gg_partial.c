/* test_gg_partial.c: TFS_PARTIAL views of GGUF files, every field checked
 * against the offsets the writer reports (gg_build.h), not the parser's:
 * the records read completely before the failing one, the failing record's
 * fields that were read whole (the record first, over its bytes read whole,
 * then each field in file order; a field the violation cut is not listed,
 * nor is a record of which no byte was read whole: a 0-byte field is a
 * whole empty one), and the header and data sizes, which a failure before
 * the data section leaves at 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"

#include <stdint.h>

typedef struct want_field {
    uint32_t kind;
    uint32_t sub;
    uint64_t offset, width;
} want_field;

/* Parse `b` with TFS_PARTIAL: TFS_INVALID with `rule` at `offset`, a header
 * with n_kv / n_tensors records and exactly the fields `want` (record
 * `record`). */
static tfs_header *expect_partial(const gb *b, tfs_rule rule, uint64_t offset, size_t n_kv, size_t n_tensors,
                                  int32_t record, const want_field *want, size_t n_want) {
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(b->p, b->len, TFS_FORMAT_GGUF, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), tfs_rule_id(rule));
    assert_int_equal(e.offset, offset);
    assert_non_null(h);
    assert_int_equal(h->complete, 0);
    assert_int_equal(h->n_kv, n_kv);
    assert_int_equal(h->n_tensors, n_tensors);
    assert_int_equal(h->n_fail_fields, n_want);
    if (n_want == 0) assert_null(h->fail_fields);
    for (size_t i = 0; i < n_want; i++) {
        assert_int_equal(h->fail_fields[i].kind, want[i].kind);
        assert_int_equal(h->fail_fields[i].record, record);
        assert_int_equal(h->fail_fields[i].sub, want[i].sub);
        assert_int_equal(h->fail_fields[i].offset, want[i].offset);
        assert_int_equal(h->fail_fields[i].width, want[i].width);
    }
    return h;
}

/* The fields of a failing tensor info read whole up to and including its
 * type (the violation is in the type): the record over those bytes, then
 * the name length, the name (name_len bytes), n_dims, each of its n_dims
 * dimensions and the type, at the offsets the writer reports in `at`.
 * Writes at most TI_WANT_MAX entries; returns how many. */
#define TI_WANT_MAX (4 + 4 + 1) /* record, name length, name, n_dims; 4 dimensions (gb_ti_at.ne); type */
static size_t ti_fields_to_type(const gb_ti_at *at, uint64_t name_len, uint32_t n_dims, want_field *want) {
    assert_true(n_dims <= sizeof at->ne / sizeof at->ne[0]);
    size_t k = 0;
    want[k++] = (want_field){TFS_FIELD_TENSOR_INFO, 0, at->start, at->type + 4u - at->start};
    want[k++] = (want_field){TFS_FIELD_NAME_LEN, 0, at->start, 8};
    want[k++] = (want_field){TFS_FIELD_NAME, 0, at->start + 8u, name_len};
    want[k++] = (want_field){TFS_FIELD_N_DIMS, 0, at->n_dims, 4};
    for (uint32_t j = 0; j < n_dims; j++) want[k++] = (want_field){TFS_FIELD_DIM, j, at->ne[j], 8};
    want[k++] = (want_field){TFS_FIELD_TYPE, 0, at->type, 4};
    return k;
}

/* The first KV's value type is 99 (GG120): no KV complete; the KV, its key
 * length, key and value type fields (read whole); no header size yet. */
static void test_partial_first_kv(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_at at = gb_kv(&b, "key", 99);
    gb_u32(&b, 0);
    const want_field want[] = {
        {TFS_FIELD_KV, 0, at.start, at.type + 4u - at.start},
        {TFS_FIELD_KEY_LEN, 0, at.start, 8},
        {TFS_FIELD_KEY, 0, at.start + 8u, 3},
        {TFS_FIELD_VALUE_TYPE, 0, at.type, 4},
    };
    tfs_header *h = expect_partial(&b, TFS_GG120, at.type, 0, 0, 0, want, 4);
    assert_int_equal(h->header_size, 0);
    assert_int_equal(h->data_offset, 0);
    tfs_header_free(h);
    gb_free(&b);
}

/* KV 1 is an array whose element type is 99 (GG121, judged after the count
 * was read, as ggml does): KV 0 complete, KV 1's fields up to its count. */
static void test_partial_array_kv(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    gb_kv_at at = gb_kv_arr(&b, "arr", 99, 2);
    gb_u64(&b, 0);
    const want_field want[] = {
        {TFS_FIELD_KV, 0, at.start, at.count + 8u - at.start},
        {TFS_FIELD_KEY_LEN, 0, at.start, 8},
        {TFS_FIELD_KEY, 0, at.start + 8u, 3},
        {TFS_FIELD_VALUE_TYPE, 0, at.type, 4},
        {TFS_FIELD_ELEM_TYPE, 0, at.elem, 4},
        {TFS_FIELD_COUNT, 0, at.count, 8},
    };
    tfs_header *h = expect_partial(&b, TFS_GG121, at.elem, 1, 0, 1, want, 6);
    assert_int_equal(h->kv[0].key.len, 1);
    assert_int_equal(h->header_size, 0);
    tfs_header_free(h);
    gb_free(&b);
}

/* Tensor info 1 has type 99 (GG208): info 0 complete, info 1's fields up to
 * its type (its offset is not read). */
static void test_partial_tensor_info(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 2, 1);
    gb_kv_u32(&b, "a", 7);
    const int64_t ne[2] = {32, 3};
    gb_ti(&b, "t0", 1, ne, 0, 0);
    gb_ti_at at = gb_ti(&b, "t1", 2, ne, 99, 0);
    want_field want[TI_WANT_MAX];
    size_t n_want = ti_fields_to_type(&at, 2, 2, want);
    assert_int_equal(n_want, 7);
    tfs_header *h = expect_partial(&b, TFS_GG208, at.type, 1, 1, 1, want, n_want);
    assert_int_equal(h->tensors[0].name.len, 2);
    assert_int_equal(h->tensors[0].shape[0], 32);
    assert_int_equal(h->header_size, 0);
    tfs_header_free(h);
    gb_free(&b);
}

/* The first tensor info fails (GG208, ggml type 99; four dimensions): no
 * tensor complete, and the failing info's fields read whole, each of its
 * four dimensions included. */
static void test_partial_first_tensor_info(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 0);
    const int64_t ne[4] = {32, 2, 3, 4};
    gb_ti_at at = gb_ti(&b, "t0", 4, ne, 99, 0);
    want_field want[TI_WANT_MAX];
    size_t n_want = ti_fields_to_type(&at, 2, 4, want);
    assert_int_equal(n_want, 9);
    tfs_header *h = expect_partial(&b, TFS_GG208, at.type, 0, 0, 0, want, n_want);
    assert_null(h->tensors);
    tfs_header_free(h);
    gb_free(&b);
}

/* Failures after the records: every record, no field.  Data missing (GG304,
 * after the layout): the header and data offset are the padded end of the
 * infos; a tensor offset not aligned (layout): still 0. */
static void test_partial_after_records(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 1, 1);
    gb_kv_u32(&b, "a", 7);
    const int64_t ne[1] = {32};
    gb_ti_at at = gb_ti(&b, "t", 1, ne, 0, 0);
    gb_pad(&b, 32);
    size_t data = b.len;
    gb_zeros(&b, 16); /* 32 F32 need 128 */
    tfs_header *h = expect_partial(&b, TFS_GG304, at.offset, 1, 1, -1, NULL, 0);
    assert_int_equal(h->header_size, data);
    assert_int_equal(h->data_offset, data);
    assert_int_equal(h->tensors[0].file_offset, data);
    tfs_header_free(h);
    gb_free(&b);
    gb_header(&b, 3, 1, 1);
    gb_kv_u32(&b, "a", 7);
    at = gb_ti(&b, "t", 1, ne, 0, 4);
    gb_pad(&b, 32);
    gb_zeros(&b, 160);
    h = expect_partial(&b, TFS_GG302, at.offset, 1, 1, -1, NULL, 0);
    assert_int_equal(h->header_size, 0);
    assert_int_equal(h->data_offset, 0);
    tfs_header_free(h);
    gb_free(&b);
}

/* The file ends 3 bytes into KV 1's key length (GG103): KV 0
 * complete; nothing of KV 1 was read whole: no field (err names it). */
static void test_partial_kv_cut_in_key_length(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    size_t start = b.len;
    gb_u8(&b, 1);
    gb_u8(&b, 0);
    gb_u8(&b, 0);
    tfs_header *h = expect_partial(&b, TFS_GG103, start, 1, 0, 1, NULL, 0);
    assert_int_equal(h->kv[0].key.len, 1);
    tfs_header_free(h);
    gb_free(&b);
}

/* KV 1 is a string array whose second element's length (1000) runs past
 * the file (GG102): the record over the bytes read whole, element 0 (8 + 2)
 * and element 1's length field (8) included; the fields up to its count; no
 * ARRAY_DATA (the array was cut). */
static void test_partial_array_elements(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    gb_kv_at at = gb_kv_arr(&b, "arr", TFS_GG_STRING, 2);
    gb_str(&b, "ab");
    size_t len1 = b.len;
    gb_u64(&b, 1000);
    gb_zeros(&b, 10);
    const want_field want[] = {
        {TFS_FIELD_KV, 0, at.start, len1 + 8u - at.start},
        {TFS_FIELD_KEY_LEN, 0, at.start, 8},
        {TFS_FIELD_KEY, 0, at.start + 8u, 3},
        {TFS_FIELD_VALUE_TYPE, 0, at.type, 4},
        {TFS_FIELD_ELEM_TYPE, 0, at.elem, 4},
        {TFS_FIELD_COUNT, 0, at.count, 8},
    };
    tfs_header *h = expect_partial(&b, TFS_GG102, len1, 1, 0, 1, want, 6);
    tfs_header_free(h);
    gb_free(&b);
}

/* KV 1 is a u64 scalar cut after 5 of its 8 bytes (GG103): its value field
 * is not listed (not read whole); the record ends where the value begins. */
static void test_partial_scalar_cut(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    gb_kv_at at = gb_kv(&b, "v", TFS_GG_U64);
    gb_zeros(&b, 5);
    const want_field want[] = {
        {TFS_FIELD_KV, 0, at.start, at.value - at.start},
        {TFS_FIELD_KEY_LEN, 0, at.start, 8},
        {TFS_FIELD_KEY, 0, at.start + 8u, 1},
        {TFS_FIELD_VALUE_TYPE, 0, at.type, 4},
    };
    tfs_header *h = expect_partial(&b, TFS_GG103, at.value, 1, 0, 1, want, 4);
    tfs_header_free(h);
    gb_free(&b);
}

/* KV 1 is a string of declared length 10 with 4 bytes there (GG102 at its
 * length field): the record spans its length field (read whole), no VALUE field. */
static void test_partial_string_cut(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    gb_kv_at at = gb_kv(&b, "s", TFS_GG_STRING);
    gb_u64(&b, 10);
    gb_zeros(&b, 4);
    const want_field want[] = {
        {TFS_FIELD_KV, 0, at.start, at.value + 8u - at.start},
        {TFS_FIELD_KEY_LEN, 0, at.start, 8},
        {TFS_FIELD_KEY, 0, at.start + 8u, 1},
        {TFS_FIELD_VALUE_TYPE, 0, at.type, 4},
    };
    tfs_header *h = expect_partial(&b, TFS_GG102, at.value, 1, 0, 1, want, 4);
    tfs_header_free(h);
    gb_free(&b);
}

/* KV 1 has an empty key (GG110, judged after the key was read): its key
 * field is listed, 0 bytes wide and whole; the only kind of 0-byte field. */
static void test_partial_empty_key(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_u32(&b, "a", 7);
    gb_kv_at at = gb_kv(&b, "", TFS_GG_U32);
    gb_u32(&b, 1);
    const want_field want[] = {
        {TFS_FIELD_KV, 0, at.start, 8},
        {TFS_FIELD_KEY_LEN, 0, at.start, 8},
        {TFS_FIELD_KEY, 0, at.start + 8u, 0},
    };
    tfs_header *h = expect_partial(&b, TFS_GG110, at.start, 1, 0, 1, want, 3);
    tfs_header_free(h);
    gb_free(&b);
}

/* The file ends 3 bytes into tensor info 1's name length (GG201): info 0
 * complete; nothing of info 1 was read whole: no field. */
static void test_partial_info_cut_in_name_length(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 2, 0);
    const int64_t ne[1] = {32};
    gb_ti(&b, "t0", 1, ne, 0, 0);
    size_t start = b.len;
    gb_bytes(&b, "\x02\x00\x00", 3); /* name length 2: its first 3 bytes (little-endian) */
    tfs_header *h = expect_partial(&b, TFS_GG201, start, 0, 1, 1, NULL, 0);
    assert_int_equal(h->tensors[0].name.len, 2);
    tfs_header_free(h);
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_first_kv),
        cmocka_unit_test(test_partial_array_kv),
        cmocka_unit_test(test_partial_array_elements),
        cmocka_unit_test(test_partial_scalar_cut),
        cmocka_unit_test(test_partial_string_cut),
        cmocka_unit_test(test_partial_empty_key),
        cmocka_unit_test(test_partial_kv_cut_in_key_length),
        cmocka_unit_test(test_partial_tensor_info),
        cmocka_unit_test(test_partial_first_tensor_info),
        cmocka_unit_test(test_partial_info_cut_in_name_length),
        cmocka_unit_test(test_partial_after_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
