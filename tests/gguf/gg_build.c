/* gg_build.c: see gg_build.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gg_build.h"
#include "common/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every writer call must succeed (its error is sticky in b->err). */
static void ok(const gb *b) {
    assert_int_equal(b->err, TFS_OK);
    assert_int_equal(b->size, b->len); /* no holes: p[0, len) is the file */
}

void gb_free(gb *b) { tfs_wbuf_free(b); }
void gb_bytes(gb *b, const void *src, size_t n) { tfs_wbuf_bytes(b, src, n), ok(b); }
void gb_zeros(gb *b, size_t n) { tfs_wbuf_fill(b, 0, n), ok(b); }
void gb_u8(gb *b, uint8_t v) { tfs_wbuf_u8(b, v), ok(b); }
void gb_u16(gb *b, uint16_t v) { tfs_wbuf_u16(b, v), ok(b); }
void gb_u32(gb *b, uint32_t v) { tfs_wbuf_u32(b, v), ok(b); }
void gb_u64(gb *b, uint64_t v) { tfs_wbuf_u64(b, v), ok(b); }
void gb_truncate(gb *b, size_t len) { tfs_wbuf_truncate(b, len), ok(b); }

size_t gb_strn(gb *b, const void *s, size_t n) {
    size_t at = b->len;
    tfs_wstr str = tfs_wstr_n(s, n);
    tfs_gg_put_str(b, &str, TFS_FIELD_STR_LEN, TFS_FIELD_STR, -1, 0);
    ok(b);
    return at;
}
size_t gb_str(gb *b, const char *s) { return gb_strn(b, s, strlen(s)); }

void gb_pad(gb *b, size_t align) { gb_zeros(b, (size_t)(gg_pad(b->len, align) - b->len)); }

void gb_header(gb *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv) {
    tfs_gg_put_header(b, NULL, version, n_tensors, n_kv);
    ok(b);
}

gb_kv_at gb_kv(gb *b, const char *key, uint32_t type) {
    gb_kv_at at = {0};
    tfs_wstr k = tfs_wstr_c(key);
    at.start = b->len;
    tfs_gg_put_key(b, -1, &k, type);
    ok(b);
    at.type = b->len - 4u;
    at.value = b->len;
    return at;
}

static gb_kv_at put_kv(gb *b, const char *key, const tfs_gg_wvalue *v) {
    gb_kv_at at = {0};
    tfs_gg_wkv kv = {tfs_wstr_c(key), *v};
    at.start = b->len;
    tfs_gg_put_kv(b, -1, &kv);
    ok(b);
    at.type = at.start + 8u + strlen(key);
    at.value = at.type + 4u;
    if (v->type == TFS_GG_ARRAY) {
        at.elem = at.value;
        at.count = at.value + 4u;
        at.value += 12u;
    }
    return at;
}

gb_kv_at gb_kv_u32(gb *b, const char *key, uint32_t v) {
    tfs_gg_wvalue val = tfs_gg_wval_scalar(TFS_GG_U32, v);
    return put_kv(b, key, &val);
}

gb_kv_at gb_kv_str(gb *b, const char *key, const char *v) {
    tfs_wstr s = tfs_wstr_c(v);
    tfs_gg_wvalue val = tfs_gg_wval_str(&s);
    return put_kv(b, key, &val);
}

gb_kv_at gb_kv_arr(gb *b, const char *key, uint32_t elem_type, uint64_t count) {
    tfs_gg_wvalue val = tfs_gg_wval_array(elem_type, count, NULL, 0); /* elements: the caller */
    return put_kv(b, key, &val);
}

gb_ti_at gb_tin(gb *b, const void *name, size_t name_len, uint32_t n_dims, const int64_t *ne, int32_t type,
                uint64_t offset) {
    gb_ti_at at = {0};
    tfs_gg_wtensor t = {.name = tfs_wstr_n(name, name_len), .n_dims = n_dims, .type = (uint32_t)type};
    assert_true(n_dims <= TFS_GG_WMAX_DIMS);
    for (uint32_t j = 0; j < n_dims; j++) t.ne[j] = (uint64_t)ne[j];
    at.start = b->len;
    tfs_gg_put_tensor_info(b, -1, &t, offset);
    ok(b);
    at.n_dims = at.start + 8u + name_len;
    for (uint32_t j = 0; j < n_dims && j < 4; j++) at.ne[j] = at.n_dims + 4u + 8u * j;
    at.type = at.n_dims + 4u + 8u * n_dims;
    at.offset = at.type + 4u;
    return at;
}

gb_ti_at gb_ti(gb *b, const char *name, uint32_t n_dims, const int64_t *ne, int32_t type, uint64_t offset) {
    return gb_tin(b, name, strlen(name), n_dims, ne, type, offset);
}

void gg_expect_invalid_bytes(const uint8_t *p, size_t n, unsigned flags, tfs_rule rule, uint64_t offset,
                             int64_t index) {
    tfs_header *h = (tfs_header *)(uintptr_t)1;
    tfs_error e;
    tfs_status st = tfs_parse_buffer(p, n, TFS_FORMAT_GGUF, flags, &h, &e);
    if (st != TFS_INVALID || e.rule != rule || e.offset != offset || e.index != index)
        print_error("buffer API: status %s rule %s offset %llu index %lld; want %s offset %llu index %lld\n",
                    tfs_status_name(st), tfs_rule_id(e.rule), (unsigned long long)e.offset, (long long)e.index,
                    tfs_rule_id(rule), (unsigned long long)offset, (long long)index);
    assert_int_equal(st, TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), tfs_rule_id(rule));
    assert_int_equal(e.offset, offset);
    assert_int_equal(e.index, index);
    assert_null(h);
    assert_string_equal(e.message, tfs_rule_message(rule));

    tfs_error f;
    h = (tfs_header *)(uintptr_t)1;
    st = tfs_test_parse_second(p, n, TFS_FORMAT_GGUF, flags, &h, &f);
    assert_int_equal(st, TFS_INVALID);
    assert_string_equal(tfs_rule_id(f.rule), tfs_rule_id(rule));
    assert_int_equal(f.offset, offset);
    assert_int_equal(f.index, index);
    assert_null(h);
    tfs_test_sources_agree(p, n, TFS_FORMAT_GGUF, flags);
}

void gg_expect_invalid(const gb *b, unsigned flags, tfs_rule rule, uint64_t offset, int64_t index) {
    gg_expect_invalid_bytes(b->p, b->len, flags, rule, offset, index);
}


tfs_header *gg_expect_ok(const gb *b, unsigned flags) {
    tfs_header *h = NULL, *g = NULL;
    tfs_error e, f;
    tfs_status st = tfs_parse_buffer(b->p, b->len, TFS_FORMAT_GGUF, flags, &h, &e);
    if (st != TFS_OK)
        print_error("buffer API: status %s rule %s offset %llu index %lld\n", tfs_status_name(st), tfs_rule_id(e.rule),
                    (unsigned long long)e.offset, (long long)e.index);
    assert_int_equal(st, TFS_OK);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_non_null(h);
    /* validation only (out = NULL) gives the same verdict */
    assert_int_equal(tfs_parse_buffer(b->p, b->len, TFS_FORMAT_GGUF, flags, NULL, NULL), TFS_OK);

    st = tfs_test_parse_second(b->p, b->len, TFS_FORMAT_GGUF, flags, &g, &f);
    assert_int_equal(st, TFS_OK);
    assert_non_null(g);
    tfs_test_assert_same_view(h, g);
    tfs_test_sources_agree(b->p, b->len, TFS_FORMAT_GGUF, flags);
    /* the buffer view is zero-copy: it points into the caller's bytes */
    for (size_t i = 0; i < h->n_kv; i++) {
        const uint8_t *k = (const uint8_t *)h->kv[i].key.ptr;
        assert_true(k >= b->p && k + h->kv[i].key.len <= b->p + b->len);
        assert_true(h->kv[i].value_offset + h->kv[i].value_len <= b->len);
    }
    for (size_t i = 0; i < h->n_tensors; i++) {
        const uint8_t *n = (const uint8_t *)h->tensors[i].name.ptr;
        assert_true(n >= b->p && n + h->tensors[i].name.len <= b->p + b->len);
    }
    tfs_header_free(g);
    return h;
}
