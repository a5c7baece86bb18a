/* st_test_util.c: see st_test_util.h. */
#include "st_test_util.h"
#include "common/sources.h"


stt_buf stt_make(const void *hdr, size_t hlen, uint64_t n_field, size_t data_len) {
    /* the writer with a verbatim header: no padding, N as given, data 0xA5 */
    tfs_st_model m = {.raw_json = hlen ? hdr : "",
                      .raw_json_len = hlen,
                      .pad_to = 1,
                      .header_size_set = 1,
                      .header_size = n_field,
                      .data_len_set = 1,
                      .data_len = data_len,
                      .data_fill = 0xA5};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    stt_buf b;
    assert_int_equal(tfs_wbuf_flatten(&w, SIZE_MAX, &b.p, &b.len), TFS_OK);
    assert_int_equal(b.len, 8 + hlen + data_len);
    tfs_wbuf_free(&w);
    return b;
}

stt_buf stt_json(const char *json, size_t data_len) { return stt_make(json, strlen(json), strlen(json), data_len); }

stt_buf stt_crate(const char *json, const void *data, size_t data_len) {
    /* the writer with the crate's layout: JSON padded with spaces to 8 */
    tfs_st_model m = {.raw_json = json, .raw_json_len = strlen(json), .data_len_set = 1, .data_len = data_len};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    stt_buf b;
    assert_int_equal(tfs_wbuf_flatten(&w, SIZE_MAX, &b.p, &b.len), TFS_OK);
    if (data_len) memcpy(b.p + b.len - data_len, data, data_len);
    tfs_wbuf_free(&w);
    return b;
}

void stt_free(stt_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = 0;
}

uint64_t stt_at(const char *json, const char *needle, int k) {
    const char *p = json;
    for (int i = 0;; i++) {
        p = strstr(p, needle);
        if (!p) fail_msg("'%s' (occurrence %d) not in %s", needle, k, json);
        if (i == k) return 8u + (uint64_t)(p - json);
        p++;
    }
}

void stt_assert_str(tfs_str got, const void *s, size_t len) {
    assert_int_equal(got.len, len);
    if (len) assert_memory_equal(got.ptr, s, len);
}


tfs_status stt_parse(const stt_buf *b, unsigned flags, tfs_header **out, tfs_error *err) {
    tfs_header *h1 = NULL, *h2 = NULL;
    tfs_error e1, e2;
    tfs_status s1 = tfs_parse_buffer(b->p, b->len, TFS_FORMAT_SAFETENSORS, flags, &h1, &e1);

    tfs_status s2 = tfs_test_parse_second(b->p, b->len, TFS_FORMAT_SAFETENSORS, flags, &h2, &e2);
    tfs_test_sources_agree(b->p, b->len, TFS_FORMAT_SAFETENSORS, flags);

    if (s1 != s2 || e1.rule != e2.rule || e1.offset != e2.offset || e1.index != e2.index)
        fail_msg("buffer API %s %s@%llu[%lld] != file API %s %s@%llu[%lld]", tfs_status_name(s1), tfs_rule_id(e1.rule),
                 (unsigned long long)e1.offset, (long long)e1.index, tfs_status_name(s2), tfs_rule_id(e2.rule),
                 (unsigned long long)e2.offset, (long long)e2.index);
    if (s1 == TFS_OK) {
        assert_non_null(h1);
        assert_non_null(h2);
        tfs_test_assert_same_view(h1, h2);
        assert_int_equal(e1.rule, TFS_RULE_NONE);
    } else {
        assert_non_null(e1.message);
        assert_null(h1);
        assert_null(h2);
    }
    tfs_header_free(h2);
    if (out)
        *out = h1;
    else
        tfs_header_free(h1);
    if (err) *err = e1;
    return s1;
}

void stt_expect_rule(const stt_buf *b, unsigned flags, tfs_rule rule, uint64_t off, int64_t index) {
    tfs_error e;
    tfs_status st = stt_parse(b, flags, NULL, &e);
    if (st != TFS_INVALID || e.rule != rule || e.offset != off || e.index != index)
        fail_msg("expected %s@%llu[%lld], got %s %s@%llu[%lld]", tfs_rule_id(rule), (unsigned long long)off,
                 (long long)index, tfs_status_name(st), tfs_rule_id(e.rule), (unsigned long long)e.offset,
                 (long long)e.index);
    assert_string_equal(e.message, tfs_rule_message(rule));
    if (!(flags & TFS_STRICT) && tfs_rule_profile_of(rule) == TFS_PROFILE_CANON) {
        tfs_error es;
        assert_int_equal(stt_parse(b, flags | TFS_STRICT, NULL, &es), TFS_INVALID);
        assert_int_equal(es.rule, rule);
        assert_int_equal(es.offset, off);
        assert_int_equal(es.index, index);
    }
}

tfs_header *stt_expect_ok(const stt_buf *b, unsigned flags, int want) {
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = stt_parse(b, flags, &h, &e);
    if (st != TFS_OK)
        fail_msg("expected ok, got %s %s@%llu[%lld]", tfs_status_name(st), tfs_rule_id(e.rule),
                 (unsigned long long)e.offset, (long long)e.index);
    if (!want) {
        tfs_header_free(h);
        return NULL;
    }
    return h;
}

void stt_json_rule(const char *json, size_t data_len, unsigned flags, tfs_rule rule, uint64_t off, int64_t index) {
    stt_buf b = stt_json(json, data_len);
    stt_expect_rule(&b, flags, rule, off, index);
    stt_free(&b);
}

void stt_json_ok(const char *json, size_t data_len, unsigned flags) {
    stt_buf b = stt_json(json, data_len);
    stt_expect_ok(&b, flags, 0);
    stt_free(&b);
}

stt_buf stt_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    stt_buf b = {NULL, 0};
    size_t cap = 0;
    for (;;) {
        if (b.len == cap) {
            cap = cap ? cap * 2 : 65536;
            b.p = realloc(b.p, cap);
            assert_non_null(b.p);
        }
        size_t r = fread(b.p + b.len, 1, cap - b.len, f);
        if (r == 0) break;
        b.len += r;
    }
    fclose(f);
    return b;
}

void stt_assert_kv_string(const tfs_header *h, size_t i, const void *s, size_t len) {
    assert_true(i < h->n_kv);
    tfs_str v;
    tfs_value tv;
    assert_int_equal(tfs_kv_get_string(h, &h->kv[i], 0, &v, NULL, 0), TFS_OK);
    stt_assert_str(v, s, len);
    assert_int_equal(tfs_kv_get(h, &h->kv[i], 0, &tv), TFS_OK);
    assert_int_equal(tv.type, TFS_GG_STRING);
    assert_int_equal(tv.u64, len);
    uint32_t u;
    assert_int_equal(tfs_kv_get_u32(h, &h->kv[i], 0, &u), TFS_ETYPE);
    assert_int_equal(tfs_kv_get(h, &h->kv[i], 1, &tv), TFS_ERANGE);
}
