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
#include <unistd.h>

void gb_free(gb *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

void gb_bytes(gb *b, const void *src, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        assert_non_null(p);
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, src, n);
    b->len += n;
}

void gb_zeros(gb *b, size_t n) {
    static const uint8_t z[64];
    while (n) {
        size_t k = n < sizeof z ? n : sizeof z;
        gb_bytes(b, z, k);
        n -= k;
    }
}

void gb_u8(gb *b, uint8_t v) { gb_bytes(b, &v, 1); }
void gb_u16(gb *b, uint16_t v) {
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    gb_bytes(b, x, 2);
}
void gb_u32(gb *b, uint32_t v) {
    uint8_t x[4];
    for (int i = 0; i < 4; i++) x[i] = (uint8_t)(v >> (8 * i));
    gb_bytes(b, x, 4);
}
void gb_u64(gb *b, uint64_t v) {
    uint8_t x[8];
    for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> (8 * i));
    gb_bytes(b, x, 8);
}

size_t gb_strn(gb *b, const void *s, size_t n) {
    size_t at = b->len;
    gb_u64(b, n);
    gb_bytes(b, s, n);
    return at;
}
size_t gb_str(gb *b, const char *s) { return gb_strn(b, s, strlen(s)); }

void gb_pad(gb *b, size_t align) {
    while (b->len % align) gb_u8(b, 0);
}

void gb_header(gb *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv) {
    gb_bytes(b, "GGUF", 4);
    gb_u32(b, version);
    gb_u64(b, n_tensors);
    gb_u64(b, n_kv);
}

gb_kv_at gb_kv(gb *b, const char *key, uint32_t type) {
    gb_kv_at at = {0};
    at.start = gb_str(b, key);
    at.type = b->len;
    gb_u32(b, type);
    at.value = b->len;
    return at;
}

gb_kv_at gb_kv_u32(gb *b, const char *key, uint32_t v) {
    gb_kv_at at = gb_kv(b, key, TFS_GG_U32);
    gb_u32(b, v);
    return at;
}

gb_kv_at gb_kv_str(gb *b, const char *key, const char *v) {
    gb_kv_at at = gb_kv(b, key, TFS_GG_STRING);
    gb_str(b, v);
    return at;
}

gb_kv_at gb_kv_arr(gb *b, const char *key, uint32_t elem_type, uint64_t count) {
    gb_kv_at at = gb_kv(b, key, TFS_GG_ARRAY);
    at.elem = b->len;
    gb_u32(b, elem_type);
    at.count = b->len;
    gb_u64(b, count);
    at.value = b->len;
    return at;
}

gb_ti_at gb_tin(gb *b, const void *name, size_t name_len, uint32_t n_dims, const int64_t *ne, int32_t type,
                uint64_t offset) {
    gb_ti_at at = {0};
    at.start = gb_strn(b, name, name_len);
    at.n_dims = b->len;
    gb_u32(b, n_dims);
    for (uint32_t j = 0; j < n_dims; j++) {
        if (j < 4) at.ne[j] = b->len;
        gb_u64(b, (uint64_t)ne[j]);
    }
    at.type = b->len;
    gb_u32(b, (uint32_t)type);
    at.offset = b->len;
    gb_u64(b, offset);
    return at;
}

gb_ti_at gb_ti(gb *b, const char *name, uint32_t n_dims, const int64_t *ne, int32_t type, uint64_t offset) {
    return gb_tin(b, name, strlen(name), n_dims, ne, type, offset);
}

/* Write bytes to a fresh temporary file; returns its path (static buffer). */
static const char *to_temp_file(const uint8_t *p, size_t n) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/tfs_gg_test_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        assert_true(w > 0);
        done += (size_t)w;
    }
    close(fd);
    return path;
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

    const char *path = to_temp_file(p, n);
    tfs_error f;
    h = (tfs_header *)(uintptr_t)1;
    st = tfs_parse_file(path, TFS_FORMAT_GGUF, flags, &h, &f);
    unlink(path);
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

static void assert_same_view(const tfs_header *a, const tfs_header *b) {
    assert_int_equal(a->format, TFS_FORMAT_GGUF);
    assert_int_equal(b->format, TFS_FORMAT_GGUF);
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->file_size, b->file_size);
    assert_int_equal(a->header_size, b->header_size);
    assert_int_equal(a->data_offset, b->data_offset);
    assert_int_equal(a->data_size, b->data_size);
    assert_int_equal(a->alignment, b->alignment);
    assert_int_equal(a->n_kv, b->n_kv);
    assert_int_equal(a->n_tensors, b->n_tensors);
    for (size_t i = 0; i < a->n_kv; i++) {
        const tfs_kv *x = &a->kv[i], *y = &b->kv[i];
        assert_int_equal(x->key.len, y->key.len);
        assert_memory_equal(x->key.ptr, y->key.ptr, x->key.len);
        assert_int_equal(x->type, y->type);
        assert_int_equal(x->elem_type, y->elem_type);
        assert_int_equal(x->count, y->count);
        assert_int_equal(x->value_len, y->value_len);
        assert_int_equal(x->value_offset, y->value_offset);
    }
    tfs_test_assert_same_values(a, b);
    for (size_t i = 0; i < a->n_tensors; i++) {
        const tfs_tensor *x = &a->tensors[i], *y = &b->tensors[i];
        assert_int_equal(x->name.len, y->name.len);
        if (x->name.len) assert_memory_equal(x->name.ptr, y->name.ptr, x->name.len);
        assert_int_equal(x->type, y->type);
        assert_int_equal(x->n_dims, y->n_dims);
        for (uint32_t j = 0; j < x->n_dims; j++) assert_int_equal(x->shape[j], y->shape[j]);
        assert_int_equal(x->n_elements, y->n_elements);
        assert_int_equal(x->n_bytes, y->n_bytes);
        assert_int_equal(x->offset, y->offset);
        assert_int_equal(x->file_offset, y->file_offset);
    }
}

tfs_header *gg_expect_ok(const gb *b, unsigned flags) {
    tfs_header *h = NULL, *g = NULL;
    tfs_error e, f;
    tfs_status st = tfs_parse_buffer(b->p, b->len, TFS_FORMAT_GGUF, flags, &h, &e);
    if (st != TFS_OK)
        print_error("buffer API: status %s rule %s offset %llu index %lld\n", tfs_status_name(st),
                    tfs_rule_id(e.rule), (unsigned long long)e.offset, (long long)e.index);
    assert_int_equal(st, TFS_OK);
    assert_int_equal(e.rule, TFS_RULE_NONE);
    assert_non_null(h);
    /* validation only (out = NULL) gives the same verdict */
    assert_int_equal(tfs_parse_buffer(b->p, b->len, TFS_FORMAT_GGUF, flags, NULL, NULL), TFS_OK);

    const char *path = to_temp_file(b->p, b->len);
    st = tfs_parse_file(path, TFS_FORMAT_GGUF, flags, &g, &f);
    unlink(path);
    assert_int_equal(st, TFS_OK);
    assert_non_null(g);
    assert_same_view(h, g);
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
