/* sources.c: see sources.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/sources.h"

#ifndef TFS_NO_POSIX
#include <stdio.h>
#include <unistd.h>
#endif

void tfs_test_assert_same_values(const tfs_header *a, const tfs_header *b) {
    assert_int_equal(a->n_kv, b->n_kv);
    for (size_t i = 0; i < a->n_kv; i++) {
        const tfs_kv *x = &a->kv[i], *y = &b->kv[i];
        /* a key longer than TFS_KEY_KEEP: whole in a buffer's view, its
         * first TFS_KEY_KEEP bytes in a reader's */
        assert_int_equal(x->key_size, y->key_size);
        size_t kn = x->key.len < y->key.len ? x->key.len : y->key.len;
        assert_true(kn == x->key_size || kn == TFS_KEY_KEEP);
        if (kn) assert_memory_equal(x->key.ptr, y->key.ptr, kn);
        assert_int_equal(x->type, y->type);
        assert_int_equal(x->elem_type, y->elem_type);
        assert_int_equal(x->count, y->count);
        assert_int_equal(x->value_offset, y->value_offset);
        assert_int_equal(x->value_len, y->value_len);
        for (uint64_t k = 0; k < x->count; k++) {
            tfs_value u, v;
            tfs_status su = tfs_kv_get(a, x, k, &u), sv = tfs_kv_get(b, y, k, &v);
            assert_int_equal(su, sv);
            if (su != TFS_OK) continue; /* a stream's arrays: TFS_EIO on both */
            assert_int_equal(u.type, v.type);
            assert_int_equal(u.u64, v.u64);
            assert_int_equal(u.i64, v.i64);
            assert_memory_equal(&u.f64, &v.f64, sizeof u.f64);
            assert_int_equal(u.offset, v.offset);
            if (u.type != TFS_GG_STRING) continue;
            char bu[64], bv[64];
            tfs_str s, t;
            assert_int_equal(tfs_kv_get_string(a, x, k, &s, bu, sizeof bu), TFS_OK);
            assert_int_equal(tfs_kv_get_string(b, y, k, &t, bv, sizeof bv), TFS_OK);
            size_t m = s.len < t.len ? s.len : t.len; /* one may be cut at 64 bytes */
            assert_true(m == u.u64 || m == sizeof bu);
            if (m) assert_memory_equal(s.ptr, t.ptr, m);
        }
    }
}

static int stream_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    tfs_test_stream *st = ctx;
    assert_int_equal(off, st->next); /* never seeks */
    size_t k = off >= st->n ? 0 : st->n - (size_t)off < len ? st->n - (size_t)off : len;
    if (k) memcpy(buf, st->p + off, k);
    st->next += k;
    *got = k;
    return 0;
}

void tfs_test_stream_source(tfs_source *src, tfs_test_stream *st, const uint8_t *p, size_t n) {
    *st = (tfs_test_stream){.p = p, .n = n};
    *src = (tfs_source){.read = stream_read, .ctx = st, .size = TFS_SIZE_UNKNOWN, .forward = 1};
}

void tfs_test_assert_cursor_values(const tfs_header *ref, const tfs_header *h, int forward) {
    assert_int_equal(ref->n_kv, h->n_kv);
    for (size_t i = 0; i < ref->n_kv; i++) {
        const tfs_kv *x = &ref->kv[i], *y = &h->kv[i];
        /* a 16-byte block: refills at every few elements, longer strings cut */
        uint8_t ba[16], bb[16];
        tfs_kv_cursor ca, cb;
        assert_int_equal(tfs_kv_cursor_init(&ca, ref, x, ba, sizeof ba), TFS_OK);
        assert_int_equal(tfs_kv_cursor_init(&cb, h, y, bb, sizeof bb), TFS_OK);
        for (uint64_t k = 0; k < x->count; k++) {
            tfs_value u, v, g;
            tfs_str s = {0}, t = {0};
            assert_int_equal(tfs_kv_next(&ca, &u, &s), TFS_OK);
            /* the cursor gives what tfs_kv_get gives (tfs.h: "as tfs_kv_get"),
             * every field: a string element's i64 is its length, the f64 of
             * a value that is not a float is the same on both paths */
            assert_int_equal(tfs_kv_get(ref, x, k, &g), TFS_OK);
            assert_int_equal(g.type, u.type);
            assert_int_equal(g.u64, u.u64);
            assert_int_equal(g.i64, u.i64);
            assert_memory_equal(&g.f64, &u.f64, sizeof g.f64);
            assert_int_equal(g.offset, u.offset);
            tfs_status sb = tfs_kv_next(&cb, &v, &t);
            if (forward && sb == TFS_EIO) {
                /* a stream keeps the first TFS_ARRAY_KEEP bytes of an array
                 * (whole elements) and string scalars of up to 256 bytes */
                uint64_t end =
                    (u.offset - x->value_offset) + (u.type == TFS_GG_STRING ? u.u64 : tfs_gg_vtype_size(u.type));
                if (x->type == TFS_GG_ARRAY)
                    assert_true(end > TFS_ARRAY_KEEP);
                else
                    assert_true(u.type == TFS_GG_STRING && u.u64 > 256u);
                assert_int_equal(cb.i, k);
                break;
            }
            assert_int_equal(sb, TFS_OK);
            /* h's cursor gives what h's tfs_kv_get gives (a stream's kept
             * string elements: from its marks) */
            assert_int_equal(tfs_kv_get(h, y, k, &g), TFS_OK);
            assert_int_equal(g.u64, v.u64);
            assert_int_equal(g.offset, v.offset);
            assert_int_equal(u.type, v.type);
            assert_int_equal(u.u64, v.u64);
            assert_int_equal(u.i64, v.i64);
            assert_memory_equal(&u.f64, &v.f64, sizeof u.f64);
            assert_int_equal(u.offset, v.offset);
            if (u.type == TFS_GG_STRING) {
                size_t m = s.len < t.len ? s.len : t.len;
                assert_true(m == u.u64 || m == sizeof ba);
                if (m) assert_memory_equal(s.ptr, t.ptr, m);
            }
        }
        tfs_value end;
        if (ca.i == x->count) assert_int_equal(tfs_kv_next(&ca, &end, NULL), TFS_ERANGE);
    }
}

void tfs_test_assert_same_view(const tfs_header *a, const tfs_header *b) {
    assert_int_equal(a->format, b->format);
    assert_int_equal(a->version, b->version);
    assert_int_equal(a->file_size, b->file_size);
    assert_int_equal(a->header_size, b->header_size);
    assert_int_equal(a->data_offset, b->data_offset);
    assert_int_equal(a->data_size, b->data_size);
    assert_int_equal(a->alignment, b->alignment);
    assert_int_equal(a->has_metadata, b->has_metadata);
    assert_int_equal(a->n_tensors, b->n_tensors);
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
    tfs_test_assert_same_values(a, b);
}


static int mem_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    tfs_test_reader *r = ctx;
    assert_true(len > 0);
    if (r->forward) { assert_int_equal(off, r->next); /* never seeks */ }
    size_t k = 0;
    if (off < r->n) {
        k = r->n - (size_t)off;
        if (k > len) k = len;
        if (k > r->step) k = r->step;
        memcpy(buf, r->p + off, k);
    }
    r->next = off + k;
    *got = k;
    return 0;
}

void tfs_test_reader_source(tfs_source *src, tfs_test_reader *r, const uint8_t *p, size_t n, size_t step) {
    *r = (tfs_test_reader){.p = p, .n = n, .step = step};
    *src = (tfs_source){.read = mem_read, .ctx = r, .size = n};
}

void tfs_test_sources_agree(const uint8_t *p, size_t n, tfs_format format, unsigned flags) {
    tfs_header *ref = NULL;
    tfs_error e0;
    tfs_status s0 = tfs_parse_buffer(p, n, format, flags, &ref, &e0);
    static const size_t steps[] = {7, 65536};
    for (int forward = 0; forward <= 1; forward++) {
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            tfs_test_reader r = {.p = p, .n = n, .step = steps[k], .forward = forward};
            tfs_source src = {.read = mem_read, .ctx = &r, .size = forward ? TFS_SIZE_UNKNOWN : n, .forward = forward};
            tfs_header *h = NULL;
            tfs_error e;
            tfs_status s = tfs_parse_source(&src, NULL, format, flags, &h, &e);
            if (s != s0 || e.rule != e0.rule || e.offset != e0.offset || e.index != e0.index)
                print_error("reader (%s, %zu-byte reads): %s %s@%llu #%lld; buffer: %s %s@%llu #%lld\n",
                            forward ? "stream" : "random", steps[k], tfs_status_name(s), tfs_rule_id(e.rule),
                            (unsigned long long)e.offset, (long long)e.index, tfs_status_name(s0), tfs_rule_id(e0.rule),
                            (unsigned long long)e0.offset, (long long)e0.index);
            assert_int_equal(s, s0);
            assert_int_equal(e.rule, e0.rule);
            assert_int_equal(e.offset, e0.offset);
            assert_int_equal(e.index, e0.index);
            if (s == TFS_INVALID) { /* TFS_PARTIAL: the same partial view and failing fields */
                tfs_header *pa = NULL, *pb = NULL;
                r = (tfs_test_reader){.p = p, .n = n, .step = steps[k], .forward = forward};
                assert_int_equal(tfs_parse_buffer(p, n, format, flags | TFS_PARTIAL, &pa, NULL), TFS_INVALID);
                assert_int_equal(tfs_parse_source(&src, NULL, format, flags | TFS_PARTIAL, &pb, NULL), TFS_INVALID);
                assert_non_null(pa);
                assert_non_null(pb);
                assert_int_equal(pa->complete, 0);
                assert_int_equal(pb->complete, 0);
                assert_int_equal(pa->n_kv, pb->n_kv);
                assert_int_equal(pa->n_tensors, pb->n_tensors);
                assert_int_equal(pa->n_fail_fields, pb->n_fail_fields);
                for (size_t f = 0; f < pa->n_fail_fields; f++) {
                    assert_int_equal(pa->fail_fields[f].kind, pb->fail_fields[f].kind);
                    assert_int_equal(pa->fail_fields[f].offset, pb->fail_fields[f].offset);
                    assert_int_equal(pa->fail_fields[f].width, pb->fail_fields[f].width);
                    /* a field the parser read lies inside the file */
                    assert_true(pa->fail_fields[f].offset + pa->fail_fields[f].width <= n);
                }
                tfs_header_free(pa);
                tfs_header_free(pb);
            }
            if (s == TFS_OK) {
                assert_non_null(h);
                if (forward) { /* arrays and strings of a stream cannot be re-read */
                    assert_int_equal(h->n_kv, ref->n_kv);
                } else {
                    tfs_test_assert_same_view(ref, h);
                }
                /* read in order: the same values; a stream's up to what it kept */
                tfs_test_assert_cursor_values(ref, h, forward);
            }
            tfs_header_free(h);
        }
    }
    tfs_header_free(ref);
}

tfs_status tfs_test_parse_second(const uint8_t *p, size_t n, tfs_format format, unsigned flags, tfs_header **out,
                                 tfs_error *err) {
#ifndef TFS_NO_POSIX
    char path[] = "/tmp/tfs_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, p + done, n - done);
        assert_true(w > 0);
        done += (size_t)w;
    }
    close(fd);
    tfs_status st = tfs_parse_file(path, format, flags, out, err);
    unlink(path); /* the header keeps its own descriptor */
    return st;
#else
    static tfs_test_reader r;
    r = (tfs_test_reader){.p = p, .n = n, .step = 7};
    tfs_source src = {.read = mem_read, .ctx = &r, .size = n};
    return tfs_parse_source(&src, NULL, format, flags, out, err);
#endif
}
