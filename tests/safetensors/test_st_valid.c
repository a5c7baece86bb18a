/* test_st_valid.c: valid inputs and the views they produce: all 22 dtypes,
 * the crate's own serialization vectors (rebuilt from their description in
 * tensor.rs test_serialization / test_empty / forced alignment), names with
 * escapes, shapes, offsets, metadata, duplicate merging, the real files of
 * ../shared/real/safetensors in both profiles, buffer vs file API. */
#include "st_test_util.h"

#include <dirent.h>

/* spec/safetensors.md "Dtypes and bit sizes", typed in independently of
 * include/tfs/st_dtypes.def. */
static const struct {
    const char *name;
    unsigned bits;
} k_spec_dtypes[] = {
    {"F4", 4},      {"F6_E2M3", 6}, {"F6_E3M2", 6}, {"BOOL", 8},        {"U8", 8},          {"I8", 8},
    {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8}, {"I16", 16},
    {"U16", 16},    {"F16", 16},    {"BF16", 16},   {"I32", 32},        {"U32", 32},        {"F32", 32},
    {"I64", 64},    {"U64", 64},    {"F64", 64},    {"C64", 64},
};
#define N_SPEC_DTYPES (sizeof k_spec_dtypes / sizeof *k_spec_dtypes)

static void test_all_22_dtypes_valid(void **state) {
    (void)state;
    assert_int_equal(N_SPEC_DTYPES, 22);
    assert_int_equal(TFS_ST_DTYPE_COUNT, 22);
    for (size_t i = 0; i < N_SPEC_DTYPES; i++) {
        /* shape [2,4]: 8 elements, so every dtype fills whole bytes */
        uint64_t nbytes = 8u * k_spec_dtypes[i].bits / 8u;
        char j[256];
        snprintf(j, sizeof j, "{\"t\":{\"dtype\":\"%s\",\"shape\":[2,4],\"data_offsets\":[0,%llu]}}",
                 k_spec_dtypes[i].name, (unsigned long long)nbytes);
        stt_buf b = stt_json(j, (size_t)nbytes);
        tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
        assert_int_equal(h->n_tensors, 1);
        assert_string_equal(tfs_st_dtype_name(h->tensors[0].type), k_spec_dtypes[i].name);
        assert_int_equal(tfs_st_dtype_bits(h->tensors[0].type), k_spec_dtypes[i].bits);
        assert_int_equal(h->tensors[0].n_elements, 8);
        assert_int_equal(h->tensors[0].n_bytes, nbytes);
        assert_int_equal(h->data_size, nbytes);
        tfs_header_free(h);
        stt_free(&b);
    }
}

static void test_subbyte_dtypes(void **state) {
    (void)state;
    /* F4: even counts only; F6: multiples of 4 (no rounding up) */
    stt_json_ok("{\"t\":{\"dtype\":\"F4\",\"shape\":[2],\"data_offsets\":[0,1]}}", 1, 0);
    stt_json_ok("{\"t\":{\"dtype\":\"F6_E3M2\",\"shape\":[4],\"data_offsets\":[0,3]}}", 3, 0);
    const char *f4 = "{\"t\":{\"dtype\":\"F4\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(f4, 1, 0, TFS_ST305, stt_at(f4, "{\"dtype", 0), 0);
    const char *f6 = "{\"t\":{\"dtype\":\"F6_E3M2\",\"shape\":[6],\"data_offsets\":[0,5]}}";
    stt_json_rule(f6, 5, 0, TFS_ST305, stt_at(f6, "{\"dtype", 0), 0);
    stt_json_ok("{\"t\":{\"dtype\":\"F4\",\"shape\":[0],\"data_offsets\":[0,0]}}", 0, 0);
}

/* Build a file the way the crate's serializer does: header JSON padded with
 * spaces to a multiple of 8 (Force alignment to 8 bytes), then the data. */
/* The crate's own layout (JSON padded with spaces to 8), from the writer. */
static stt_buf crate_file(const char *json, const void *data, size_t data_len) {
    return stt_crate(json, data, data_len);
}

static void f32_le(float v, uint8_t *out) {
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(u >> (8 * i));
}

/* tensor.rs test_serialization: "attn.0", F32 [1,2,3], values 0..5. */
static void test_crate_vector_serialization(void **state) {
    (void)state;
    uint8_t data[24];
    for (int i = 0; i < 6; i++) f32_le((float)i, data + 4 * i);
    stt_buf b = crate_file("{\"attn.0\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}", data, 24);
    assert_int_equal(b.len, 8 + 64 + 24); /* the crate's expected byte array: N = 64, no padding */
    assert_int_equal(b.p[0], 64);
    tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
    assert_int_equal(h->header_size, 64);
    assert_int_equal(h->data_offset, 72);
    assert_int_equal(h->n_tensors, 1);
    stt_assert_str(h->tensors[0].name, "attn.0", 6);
    assert_int_equal(h->tensors[0].type, TFS_ST_F32);
    assert_int_equal(h->tensors[0].n_dims, 3);
    assert_int_equal(h->tensors[0].shape[0], 1);
    assert_int_equal(h->tensors[0].shape[1], 2);
    assert_int_equal(h->tensors[0].shape[2], 3);
    assert_int_equal(h->tensors[0].n_bytes, 24);
    assert_int_equal(h->tensors[0].file_offset, 72);
    /* the data is where the view says: the 1.0f at index 1 */
    assert_memory_equal(b.p + h->tensors[0].file_offset + 4, data + 4, 4);
    tfs_header_free(h);
    stt_free(&b);
}

/* tensor.rs test_empty: no tensors, without and with __metadata__. */
static void test_crate_vector_empty(void **state) {
    (void)state;
    stt_buf b = crate_file("{}", NULL, 0);
    assert_int_equal(b.len, 16); /* "{}" + 6 spaces */
    tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
    assert_int_equal(h->n_tensors, 0);
    assert_int_equal(h->n_kv, 0);
    assert_int_equal(h->has_metadata, 0);
    assert_int_equal(h->data_size, 0);
    tfs_header_free(h);
    stt_free(&b);

    b = crate_file("{\"__metadata__\":{\"framework\":\"pt\"}}", NULL, 0);
    assert_int_equal(b.len, 8 + 40); /* 35 bytes + 5 spaces */
    h = stt_expect_ok(&b, TFS_STRICT, 1);
    assert_int_equal(h->n_tensors, 0);
    assert_int_equal(h->has_metadata, 1);
    assert_int_equal(h->n_kv, 1);
    stt_assert_str(h->kv[0].key, "framework", 9);
    assert_int_equal(h->kv[0].type, TFS_GG_STRING);
    assert_int_equal(h->kv[0].value_len, 4); /* the token "pt", quotes included */
    stt_assert_kv_string(h, 0, "pt", 2);
    tfs_header_free(h);
    stt_free(&b);
}

/* tensor.rs test_serialization_forced_alignement: "attn0", F32 [1,1,2,3]. */
static void test_crate_vector_forced_alignment(void **state) {
    (void)state;
    uint8_t data[24];
    for (int i = 0; i < 6; i++) f32_le((float)i, data + 4 * i);
    stt_buf b = crate_file("{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}", data, 24);
    assert_int_equal(b.p[0], 72); /* 65 bytes of JSON + 7 spaces */
    tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
    assert_int_equal(h->tensors[0].file_offset % 8, 0);
    assert_int_equal(h->tensors[0].n_dims, 4);
    assert_int_equal(h->tensors[0].n_elements, 6);
    tfs_header_free(h);
    stt_free(&b);
}

static void test_view_file_order_offsets(void **state) {
    (void)state;
    /* key order differs from offset order (MLX); view keeps file order */
    const char *j = "{\"__metadata__\":{\"format\":\"mlx\"},"
                    "\"z\":{\"dtype\":\"F16\",\"shape\":[3],\"data_offsets\":[10,16]},"
                    "\"y\":{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[9,10]},"
                    "\"x\":{\"dtype\":\"F64\",\"shape\":[1],\"data_offsets\":[1,9]},"
                    "\"w\":{\"dtype\":\"BOOL\",\"shape\":[1],\"data_offsets\":[0,1]},"
                    "\"v\":{\"dtype\":\"I32\",\"shape\":[0,5],\"data_offsets\":[16,16]}}";
    stt_buf b = stt_json(j, 16);
    tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
    uint64_t n = strlen(j);
    assert_int_equal(h->format, TFS_FORMAT_SAFETENSORS);
    assert_int_equal(h->version, 0);
    assert_int_equal(h->file_size, 8 + n + 16);
    assert_int_equal(h->header_size, n);
    assert_int_equal(h->data_offset, 8 + n);
    assert_int_equal(h->data_size, 16);
    assert_int_equal(h->n_tensors, 5);
    static const char names[] = "zyxwv";
    static const uint64_t starts[] = {10, 9, 1, 0, 16}, bytes[] = {6, 1, 8, 1, 0};
    static const uint32_t dims[] = {1, 0, 1, 1, 2};
    for (int i = 0; i < 5; i++) {
        const tfs_tensor *t = &h->tensors[i];
        stt_assert_str(t->name, names + i, 1);
        assert_int_equal(t->offset, starts[i]);
        assert_int_equal(t->file_offset, 8 + n + starts[i]);
        assert_int_equal(t->n_bytes, bytes[i]);
        assert_int_equal(t->n_dims, dims[i]);
        /* zero-copy: unescaped names point into the caller's buffer */
        assert_true((const uint8_t *)t->name.ptr > b.p && (const uint8_t *)t->name.ptr < b.p + 8 + n);
    }
    assert_int_equal(h->tensors[1].n_elements, 1); /* scalar */
    assert_null(h->tensors[1].shape);
    assert_int_equal(h->tensors[4].n_elements, 0);
    assert_int_equal(h->tensors[4].shape[0], 0);
    assert_int_equal(h->tensors[4].shape[1], 5);
    assert_int_equal(h->tensors[2].type, TFS_ST_F64); /* unaligned F64 at 1: fine */
    assert_int_equal(h->n_kv, 1);
    stt_assert_str(h->kv[0].key, "format", 6);
    assert_int_equal(h->kv[0].value_offset, stt_at(j, "\"mlx\"", 0));
    tfs_header_free(h);
    stt_free(&b);
}

static void test_view_escaped_names_owned(void **state) {
    (void)state;
    const char *j = "{\"a\\\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                    "\"\\u00e9\\ud83d\\ude00\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]},"
                    "\"__metadata__\":{\"k\\n\":\"v\\u0000w\",\"plain\":\"x\"}}";
    stt_buf b = stt_json(j, 2);
    tfs_header *h = stt_expect_ok(&b, 0, 1);
    assert_int_equal(h->n_tensors, 2);
    stt_assert_str(h->tensors[0].name, "a\"b", 3);
    stt_assert_str(h->tensors[1].name, "\xC3\xA9\xF0\x9F\x98\x80", 6);
    /* decoded names live in the header's storage, not in the buffer */
    for (int i = 0; i < 2; i++)
        assert_false((const uint8_t *)h->tensors[i].name.ptr >= b.p &&
                     (const uint8_t *)h->tensors[i].name.ptr < b.p + b.len);
    assert_int_equal(h->n_kv, 2);
    stt_assert_str(h->kv[0].key, "k\n", 2);
    stt_assert_kv_string(h, 0, "v\0w", 3);
    stt_assert_str(h->kv[1].key, "plain", 5);
    tfs_str sv;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[1], 0, &sv, NULL, 0), TFS_OK);
    assert_true((const uint8_t *)sv.ptr > b.p && (const uint8_t *)sv.ptr < b.p + b.len); /* zero-copy */
    tfs_header_free(h);
    stt_free(&b);
}

static void test_duplicates_last_wins(void **state) {
    (void)state;
    /* S1: the same name twice; the later entry wins, at the first position */
    const char *j = "{\"a\":{\"dtype\":\"F32\",\"shape\":[9],\"data_offsets\":[7,99]},"
                    "\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                    "\"a\":{\"dtype\":\"U16\",\"shape\":[1],\"data_offsets\":[1,3]},"
                    "\"__metadata__\":{\"k\":\"first\",\"j\":\"x\",\"k\":\"second\"}}";
    stt_buf b = stt_json(j, 3);
    tfs_header *h = stt_expect_ok(&b, 0, 1);
    assert_int_equal(h->n_tensors, 2);
    stt_assert_str(h->tensors[0].name, "a", 1);
    assert_int_equal(h->tensors[0].type, TFS_ST_U16);
    assert_int_equal(h->tensors[0].offset, 1);
    assert_int_equal(h->tensors[0].n_bytes, 2);
    stt_assert_str(h->tensors[1].name, "b", 1);
    assert_int_equal(h->n_kv, 2);
    stt_assert_str(h->kv[0].key, "k", 1);
    assert_int_equal(h->kv[0].value_len, 8);
    stt_assert_kv_string(h, 0, "second", 6);
    assert_int_equal(h->kv[0].value_offset, stt_at(j, "\"second\"", 0));
    tfs_header_free(h);
    stt_free(&b);
    /* strict: the second "a" is the violation, index of the first */
    stt_json_rule(j, 3, TFS_STRICT, TFS_ST501, stt_at(j, "\"a\"", 1), 0);
    /* duplicates still have to be well-formed entries */
    const char *bad = "{\"a\":{\"dtype\":\"X\",\"shape\":[1],\"data_offsets\":[0,1]},"
                      "\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(bad, 1, 0, TFS_ST210, stt_at(bad, "\"X\"", 0), 0);
}

static void test_tied_offsets_nondeterministic(void **state) {
    (void)state;
    /* S2: equal (start, end): the crate reports InvalidOffset or
     * TensorInvalidInfo depending on hash order; tfs keeps file order. */
    const char *j = "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                    "\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    stt_json_rule(j, 4, 0, TFS_ST301, stt_at(j, "[0,4]", 1), 1);
    const char *k = "{\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,4]},"
                    "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    stt_json_rule(k, 4, 0, TFS_ST306, stt_at(k, "[0,4]", 0), 0);
    /* zero-size tensors may share an offset */
    stt_json_ok("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},"
                "\"b\":{\"dtype\":\"U8\",\"shape\":[2,0],\"data_offsets\":[0,0]},"
                "\"c\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}",
                1, TFS_STRICT);
}

static void test_many_tensors_large_header(void **state) {
    (void)state;
    /* 5000 tensors in reverse offset order: > 64 KiB header, so the file API
     * grows its window several times, and the sort path is taken */
    enum { NT = 5000 };
    size_t cap = (size_t)NT * 96 + 64, n = 0;
    char *j = malloc(cap);
    assert_non_null(j);
    n += (size_t)snprintf(j + n, cap - n, "{");
    for (int i = NT - 1; i >= 0; i--)
        n += (size_t)snprintf(j + n, cap - n,
                              "%s\"layer.%d.weight\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[%d,%d]}",
                              i == NT - 1 ? "" : ",", i, 4 * i, 4 * i + 4);
    n += (size_t)snprintf(j + n, cap - n, "}");
    assert_true(n > 65536);
    stt_buf b = stt_json(j, 4 * NT);
    tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
    assert_int_equal(h->n_tensors, NT);
    stt_assert_str(h->tensors[0].name, "layer.4999.weight", 17);
    assert_int_equal(h->tensors[0].offset, 4 * (NT - 1));
    assert_int_equal(h->tensors[NT - 1].offset, 0);
    assert_int_equal(h->data_size, 4 * NT);
    tfs_header_free(h);
    stt_free(&b);
    /* the same with one byte missing at the end: the tensor that ends last */
    b = stt_json(j, 4 * NT - 1);
    stt_expect_rule(&b, 0, TFS_ST308, stt_at(j, "[19996,", 0), 0);
    stt_free(&b);
    free(j);
}

/* Offsets out of file order are sorted before the checks: insertion sort
 * up to 32 records, radix sort above (st_validate.c).  Both paths give the
 * same verdicts: every tensor in reverse order is valid; one range moved 2
 * bytes back overlaps its predecessor in offset order (ST301 there). */
static void test_sort_paths_agree(void **state) {
    (void)state;
    static const int sizes[] = {2, 5, 31, 32, 33, 34, 100};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int nt = sizes[s];
        for (int bad = -1; bad < nt; bad += (bad < 1 ? 2 : nt / 2)) { /* -1: none; else tensor `bad` overlaps */
            size_t cap = (size_t)nt * 96 + 64, n = 0;
            char *j = malloc(cap);
            assert_non_null(j);
            n += (size_t)snprintf(j + n, cap - n, "{");
            for (int i = nt - 1; i >= 0; i--) {
                int b = 4 * i - (i == bad ? 2 : 0);
                n += (size_t)snprintf(j + n, cap - n,
                                      "%s\"t%d\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[%d,%d]}",
                                      i == nt - 1 ? "" : ",", i, b, b + 4);
            }
            n += (size_t)snprintf(j + n, cap - n, "}");
            stt_buf b = stt_json(j, 4 * (size_t)nt);
            if (bad < 0) {
                tfs_header *h = stt_expect_ok(&b, TFS_STRICT, 1);
                assert_int_equal(h->n_tensors, nt);
                assert_int_equal(h->data_size, 4 * nt);
                tfs_header_free(h);
            } else {
                char needle[32];
                snprintf(needle, sizeof needle, "[%d,%d]", 4 * bad - 2, 4 * bad + 2);
                stt_expect_rule(&b, 0, TFS_ST301, stt_at(j, needle, 0), nt - 1 - bad);
            }
            stt_free(&b);
            free(j);
        }
    }
}

static void test_validate_only_and_args(void **state) {
    (void)state;
    const char *j = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_buf b = stt_json(j, 1);
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_SAFETENSORS, 0, NULL, &e), TFS_OK);
    assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_SAFETENSORS, 0, NULL, NULL), TFS_OK);
    /* format detection: no GGUF magic, so safetensors */
    tfs_header *h = NULL;
    assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    assert_int_equal(h->format, TFS_FORMAT_SAFETENSORS);
    tfs_header_free(h);
    /* TFS_HEADER_ONLY is ignored for safetensors: data size still checked */
    stt_buf short_b = stt_json(j, 0);
    assert_int_equal(tfs_parse_buffer(short_b.p, short_b.len, TFS_FORMAT_SAFETENSORS, TFS_HEADER_ONLY, NULL, &e),
                     TFS_INVALID);
    assert_int_equal(e.rule, TFS_ST308);
    stt_free(&short_b);
    stt_free(&b);
}

/* Every safetensors file in `dir` is valid in the default and strict
 * profiles; returns how many were checked, -1 if dir cannot be opened. */
static int check_real_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int count = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 12 || strcmp(de->d_name + l - 12, ".safetensors") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        stt_buf b = stt_read_file(path);
        for (unsigned fl = 0; fl <= TFS_STRICT; fl += TFS_STRICT) {
            tfs_header *h = NULL;
            tfs_error e;
            tfs_status st = stt_parse(&b, fl, &h, &e);
            if (st != TFS_OK)
                fail_msg("%s (%s): %s %s@%llu", de->d_name, fl ? "strict" : "default", tfs_status_name(st),
                         tfs_rule_id(e.rule), (unsigned long long)e.offset);
            assert_true(h->n_tensors > 0);
            assert_int_equal(h->data_offset + h->data_size, b.len);
            tfs_header_free(h);
        }
        stt_free(&b);
        count++;
    }
    closedir(d);
    return count;
}

/* The project's copies (corpus/real) always; the full set of ../shared/real
 * where it exists (CI), skipped in a user's clone. */
static void test_real_files_default_and_strict(void **state) {
    (void)state;
    assert_true(check_real_dir(TFS_SOURCE_DIR "/corpus/real/safetensors") >= 10);
}

static void test_shared_real_files_default_and_strict(void **state) {
    (void)state;
    int n = check_real_dir(TFS_SOURCE_DIR "/../shared/real/safetensors");
    if (n < 0) skip();
    assert_true(n >= 20);
}

/* Accessors refuse a kv that is not one of the header's own (also when the
 * header has none: no pointer arithmetic on its NULL kv array). */
static void test_accessors_foreign_kv(void **state) {
    (void)state;
    stt_buf b = stt_json("{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1);
    tfs_header *h = stt_expect_ok(&b, 0, 1);
    assert_int_equal(h->n_kv, 0);
    tfs_kv other = {0};
    tfs_value v;
    tfs_str s;
    assert_int_equal(tfs_kv_get(h, &other, 0, &v), TFS_EARG);
    assert_int_equal(tfs_kv_get_string(h, &other, 0, &s, NULL, 0), TFS_EARG);
    assert_null(tfs_find_kv(h, "a"));
    tfs_header_free(h);
    stt_free(&b);
    b = stt_json("{\"__metadata__\":{\"k\":\"v\",\"l\":\"w\"}}", 0);
    h = stt_expect_ok(&b, 0, 1);
    assert_int_equal(h->n_kv, 2);
    const tfs_kv *inside = (const tfs_kv *)(const void *)((const char *)h->kv + 1); /* not an element */
    assert_int_equal(tfs_kv_get(h, inside, 0, &v), TFS_EARG);
    assert_int_equal(tfs_kv_get(h, &h->kv[1], 0, &v), TFS_OK);
    assert_int_equal(tfs_kv_get(h, &h->kv[0] + 2, 0, &v), TFS_EARG); /* one past the end */
    tfs_header_free(h);
    stt_free(&b);
}

/* A tensor's file offset is 8 + N + its start, also when the start is past the header's own
 * size (here b at 300, N well below that), and its byte count the shape times the dtype size. */
static void test_file_offset_past_header_size(void **state) {
    (void)state;
    const char *json = "{\"a\":{\"dtype\":\"U8\",\"shape\":[300],\"data_offsets\":[0,300]},"
                       "\"b\":{\"dtype\":\"F32\",\"shape\":[25],\"data_offsets\":[300,400]}}";
    size_t jn = strlen(json);
    assert_true(8 + jn < 300);
    stt_buf b = stt_json(json, 400);
    tfs_header *h = stt_expect_ok(&b, 0, 1);
    assert_int_equal(h->data_offset, 8 + jn);
    assert_int_equal(h->tensors[0].file_offset, 8 + jn);
    assert_int_equal(h->tensors[1].file_offset, 8 + jn + 300);
    assert_int_equal(h->tensors[1].n_bytes, 100);
    tfs_header_free(h);
    stt_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accessors_foreign_kv),
        cmocka_unit_test(test_file_offset_past_header_size),
        cmocka_unit_test(test_all_22_dtypes_valid),
        cmocka_unit_test(test_subbyte_dtypes),
        cmocka_unit_test(test_crate_vector_serialization),
        cmocka_unit_test(test_crate_vector_empty),
        cmocka_unit_test(test_crate_vector_forced_alignment),
        cmocka_unit_test(test_view_file_order_offsets),
        cmocka_unit_test(test_view_escaped_names_owned),
        cmocka_unit_test(test_duplicates_last_wins),
        cmocka_unit_test(test_tied_offsets_nondeterministic),
        cmocka_unit_test(test_many_tensors_large_header),
        cmocka_unit_test(test_sort_paths_agree),
        cmocka_unit_test(test_validate_only_and_args),
        cmocka_unit_test(test_real_files_default_and_strict),
        cmocka_unit_test(test_shared_real_files_default_and_strict),
    };
    return cmocka_run_group_tests_name("safetensors valid inputs and views", tests, NULL, NULL);
}
