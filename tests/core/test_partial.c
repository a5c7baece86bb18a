/* test_partial.c: TFS_PARTIAL.  On TFS_INVALID the caller still gets the
 * header of what was read before the violation (complete = 0), and for GGUF
 * the fields of the failing record, at the offsets the writer's field map
 * gives for them.  Files come from the writer (tfs/write.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/tfs.h"
#include "tfs/write.h"
#include "common/sources.h"

/* A GGUF with two good KVs, then a KV whose value type is 99 (GG120). */
static void write_bad_kv(tfs_wbuf *w) {
    tfs_wbuf_init(w);
    assert_int_equal(tfs_gg_put_header(w, NULL, 3, 0, 3), TFS_OK);
    tfs_wstr s = tfs_wstr_c("llama");
    tfs_gg_wkv a = {tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&s)};
    tfs_gg_wkv b = {tfs_wstr_c("n"), tfs_gg_wval_scalar(TFS_GG_U32, 7)};
    assert_int_equal(tfs_gg_put_kv(w, 0, &a), TFS_OK);
    assert_int_equal(tfs_gg_put_kv(w, 1, &b), TFS_OK);
    tfs_wstr k = tfs_wstr_c("bad");
    assert_int_equal(tfs_gg_put_key(w, 2, &k, 99), TFS_OK);
}

static const tfs_field *find(const tfs_header *h, uint32_t kind) {
    for (size_t i = 0; i < h->n_fail_fields; i++)
        if (h->fail_fields[i].kind == kind) return &h->fail_fields[i];
    return NULL;
}

static void test_gguf_partial_kvs_and_failing_record(void **state) {
    (void)state;
    tfs_wbuf w;
    write_bad_kv(&w);
    uint8_t *p;
    size_t n;
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p, &n), TFS_OK);
    const tfs_field *type_field = tfs_wbuf_find(&w, TFS_FIELD_VALUE_TYPE, 2, 0);
    assert_non_null(type_field);

    tfs_header *h = (tfs_header *)1;
    tfs_error e;
    /* without the flag: no header */
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, 0, &h, &e), TFS_INVALID);
    assert_null(h);
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_GG120);
    assert_int_equal(e.offset, type_field->offset);
    assert_non_null(h);
    assert_int_equal(h->complete, 0);
    assert_int_equal(h->version, 3);
    assert_int_equal(h->n_kv, 2); /* the two before the bad one, readable */
    tfs_str arch;
    assert_int_equal(tfs_kv_get_string(h, tfs_find_kv(h, "general.architecture"), 0, &arch, NULL, 0), TFS_OK);
    assert_int_equal(arch.len, 5);
    assert_memory_equal(arch.ptr, "llama", 5);
    uint32_t v = 0;
    assert_int_equal(tfs_kv_get_u32(h, &h->kv[1], 0, &v), TFS_OK);
    assert_int_equal(v, 7);
    /* the failing record's fields, where the writer put them */
    const tfs_field *f = find(h, TFS_FIELD_VALUE_TYPE);
    assert_non_null(f);
    assert_int_equal(f->record, 2);
    assert_int_equal(f->offset, type_field->offset);
    assert_int_equal(f->width, 4);
    f = find(h, TFS_FIELD_KEY);
    assert_non_null(f);
    assert_int_equal(f->offset, tfs_wbuf_find(&w, TFS_FIELD_KEY, 2, 0)->offset);
    assert_int_equal(f->width, 3);
    assert_null(find(h, TFS_FIELD_COUNT)); /* not an array: never read */
    tfs_header_free(h);
    free(p);
    tfs_wbuf_free(&w);
}

static void test_gguf_partial_tensor_info(void **state) {
    (void)state;
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_gg_put_header(&w, NULL, 3, 2, 0), TFS_OK);
    tfs_gg_wtensor a = {.name = tfs_wstr_c("a"), .n_dims = 1, .ne = {32}, .type = 0};
    tfs_gg_wtensor b = {.name = tfs_wstr_c("b"), .n_dims = 5, .ne = {1, 1, 1, 1, 1}, .type = 0}; /* GG204 */
    assert_int_equal(tfs_gg_put_tensor_info(&w, 0, &a, 0), TFS_OK);
    assert_int_equal(tfs_gg_put_tensor_info(&w, 1, &b, 128), TFS_OK);
    uint8_t *p;
    size_t n;
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p, &n), TFS_OK);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_GG204);
    assert_non_null(h);
    assert_int_equal(h->n_tensors, 1);
    assert_int_equal(h->tensors[0].name.len, 1);
    assert_int_equal(h->tensors[0].shape[0], 32);
    const tfs_field *f = find(h, TFS_FIELD_N_DIMS);
    assert_non_null(f);
    assert_int_equal(f->offset, tfs_wbuf_find(&w, TFS_FIELD_N_DIMS, 1, 0)->offset);
    assert_null(find(h, TFS_FIELD_TYPE)); /* after the violation: not read */
    tfs_header_free(h);
    free(p);
    tfs_wbuf_free(&w);
}

static void test_safetensors_partial(void **state) {
    (void)state;
    /* entries a (good) and b (unknown dtype, ST210): the partial view keeps a */
    static const char json[] = "{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
                               "\"b\":{\"dtype\":\"X9\",\"shape\":[],\"data_offsets\":[2,2]},"
                               "\"__metadata__\":{\"k\":\"v\"}}";
    size_t jn = sizeof json - 1, n;
    tfs_st_model m = {.raw_json = json, .raw_json_len = jn, .pad_to = 1, .data_len_set = 1, .data_len = 2};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    uint8_t *p;
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p, &n), TFS_OK);
    tfs_wbuf_free(&w);
    assert_int_equal(n, 8 + jn + 2);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST210);
    assert_int_equal(e.index, 1);
    assert_non_null(h);
    assert_int_equal(h->complete, 0);
    assert_int_equal(h->n_tensors, 1);
    assert_memory_equal(h->tensors[0].name.ptr, "a", 1);
    assert_int_equal(h->tensors[0].n_bytes, 2);
    assert_int_equal(h->n_kv, 1);
    tfs_str v;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[0], 0, &v, NULL, 0), TFS_OK);
    assert_int_equal(v.len, 1);
    assert_int_equal(h->n_fail_fields, 2);
    assert_int_equal(h->fail_fields[1].kind, TFS_FIELD_JSON);
    assert_int_equal(h->fail_fields[1].width, jn);
    tfs_header_free(h);
    /* framing violations: an empty partial header */
    assert_int_equal(tfs_parse_buffer(p, 5, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST001);
    assert_non_null(h);
    assert_int_equal(h->n_tensors, 0);
    assert_int_equal(h->n_fail_fields, 0);
    tfs_header_free(h);
    /* the same 5 bytes from a stream of unknown size: the size field was not read whole, so it is not listed */
    tfs_source src5;
    tfs_test_stream st5;
    tfs_test_stream_source(&src5, &st5, p, 5);
    assert_int_equal(tfs_parse_source(&src5, NULL, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST001);
    assert_non_null(h);
    assert_int_equal(h->n_fail_fields, 0);
    tfs_header_free(h);
    /* 7 bytes, one short of the size field: not listed either (the bound is 8) */
    assert_int_equal(tfs_parse_buffer(p, 7, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST001);
    assert_non_null(h);
    assert_int_equal(h->n_fail_fields, 0);
    tfs_header_free(h);
    free(p);
}

/* [N][json][data_len bytes] through the safetensors writer (raw JSON, no padding) */
static uint8_t *st_file(const char *json, size_t data_len, size_t *n) {
    size_t jn = strlen(json);
    tfs_st_model m = {.raw_json = json, .raw_json_len = jn, .pad_to = 1, .data_len_set = 1, .data_len = data_len};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    uint8_t *p;
    assert_int_equal(tfs_wbuf_flatten(&w, 2u << 20, &p, n), TFS_OK);
    tfs_wbuf_free(&w);
    assert_int_equal(*n, 8 + jn + data_len);
    return p;
}

/* The partial view's tensor list: cut before a held entry violation (here the first entry's,
 * index 0: no tensor), but whole when the violation came later (ST301 in validation: every
 * entry was read); no data section in either; the file size only when the source knows it. */
static void test_safetensors_partial_cuts(void **state) {
    (void)state;
    size_t n;
    tfs_header *h = NULL;
    tfs_error e;
    uint8_t *p = st_file("{\"b\":{\"dtype\":\"X9\",\"shape\":[],\"data_offsets\":[0,0]},"
                         "\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}",
                         1u << 20, &n); /* 1 MiB of data: a stream has not reached its end at ST210 */
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST210);
    assert_int_equal(e.index, 0);
    assert_non_null(h);
    assert_int_equal(h->n_tensors, 0);
    assert_null(h->tensors);
    assert_int_equal(h->data_size, 0);
    assert_int_equal(h->file_size, n);
    tfs_header_free(h);
    /* the same through a forward-only source of unknown size: file size 0 */
    tfs_source src;
    tfs_test_stream st;
    tfs_test_stream_source(&src, &st, p, n);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST210);
    assert_non_null(h);
    assert_int_equal(h->n_tensors, 0);
    assert_int_equal(h->file_size, 0);
    tfs_header_free(h);
    free(p);
    /* a header that is not UTF-8 (ST101, before the JSON): unknown size stays 0 too */
    p = st_file("{\"\xff\":1}", 1u << 20, &n);
    tfs_test_stream_source(&src, &st, p, n);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST101);
    assert_non_null(h);
    assert_int_equal(h->file_size, 0);
    tfs_header_free(h);
    free(p);
    /* exactly the 8-byte size field (N = 1, nothing after it: ST003): the failing field is the
     * size field, bytes [0, 8), no record */
    tfs_st_model m8 = {.raw_json = "", .raw_json_len = 0, .pad_to = 1, .header_size_set = 1, .header_size = 1};
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_st_write(&m8, &w), TFS_OK);
    assert_int_equal(tfs_wbuf_flatten(&w, 64, &p, &n), TFS_OK);
    tfs_wbuf_free(&w);
    assert_int_equal(n, 8);
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST003);
    assert_non_null(h);
    assert_int_equal(h->n_fail_fields, 1);
    assert_int_equal(h->fail_fields[0].kind, TFS_FIELD_HEADER_SIZE);
    assert_int_equal(h->fail_fields[0].record, -1);
    assert_int_equal(h->fail_fields[0].offset, 0);
    assert_int_equal(h->fail_fields[0].width, 8);
    tfs_header_free(h);
    free(p);
    /* N = 2^20 with 64 KiB of header bytes, through a stream of unknown size: the header cannot
     * be read whole, ST003 at 0 (as from the buffer, where the size is known at once) */
    size_t big = 1u << 16;
    char *text = malloc(big);
    assert_non_null(text);
    memset(text, ' ', big);
    text[0] = '{';
    tfs_st_model mbig = {
        .raw_json = text, .raw_json_len = big, .pad_to = 1, .header_size_set = 1, .header_size = 1u << 20};
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_st_write(&mbig, &w), TFS_OK);
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p, &n), TFS_OK);
    tfs_wbuf_free(&w);
    free(text);
    assert_int_equal(n, 8 + big);
    tfs_test_stream_source(&src, &st, p, n);
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_SAFETENSORS, 0, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST003);
    assert_int_equal(e.offset, 0);
    assert_int_equal(e.index, -1);
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_SAFETENSORS, 0, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST003);
    free(p);
    /* a [0,2], b [3,5]: ST301 on b (index 1) in validation: both tensors in the view */
    p = st_file("{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
                "\"b\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[3,5]}}",
                5, &n);
    assert_int_equal(tfs_parse_buffer(p, n, TFS_FORMAT_SAFETENSORS, TFS_PARTIAL, &h, &e), TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST301);
    assert_int_equal(e.index, 1);
    assert_non_null(h);
    assert_int_equal(h->n_tensors, 2);
    /* the failing fields: the size field [0, 8) and the JSON text [8, 8 + N), no record */
    assert_int_equal(h->n_fail_fields, 2);
    assert_int_equal(h->fail_fields[0].kind, TFS_FIELD_HEADER_SIZE);
    assert_int_equal(h->fail_fields[1].kind, TFS_FIELD_JSON);
    assert_int_equal(h->fail_fields[1].record, -1);
    assert_int_equal(h->fail_fields[1].offset, 8);
    assert_int_equal(h->fail_fields[1].width, n - 8 - 5);
    assert_int_equal(h->data_size, 0);
    assert_int_equal(h->file_size, n);
    tfs_header_free(h);
    free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gguf_partial_kvs_and_failing_record),
        cmocka_unit_test(test_gguf_partial_tensor_info),
        cmocka_unit_test(test_safetensors_partial),
        cmocka_unit_test(test_safetensors_partial_cuts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
