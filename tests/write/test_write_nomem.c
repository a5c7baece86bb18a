/* test_write_nomem.c: the writers and view -> model with each allocation
 * failing in turn (tests/common/nomem.h): every call ends in TFS_OK with the
 * bytes of the run without failures (a failed reservation is only a hint),
 * or in TFS_ENOMEM kept in w->err (write.h: errors are sticky); a model
 * build that fails returns no model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "common/nomem.h"
#include "tfs/write.h"

#include <stdlib.h>
#include <string.h>

typedef tfs_status (*write_fn)(const void *m, tfs_wbuf *w);
static tfs_status gg_write(const void *m, tfs_wbuf *w) { return tfs_gg_write(m, w); }
static tfs_status st_write(const void *m, tfs_wbuf *w) { return tfs_st_write(m, w); }

/* The file, flattened (cmocka assertions); caller frees. */
static uint8_t *flat(const tfs_wbuf *w, size_t *n) {
    uint8_t *p = NULL;
    assert_int_equal(tfs_wbuf_flatten(w, 1u << 20, &p, n), TFS_OK);
    return p;
}

static void every_allocation(write_fn write, const void *m) {
    tfs_wbuf w = {0};
    tfs_test_nomem_arm(-1);
    assert_int_equal(write(m, &w), TFS_OK);
    long allocs = tfs_test_nomem_disarm();
    assert_true(allocs > 0);
    size_t n_ref;
    uint8_t *ref = flat(&w, &n_ref);
    tfs_wbuf_free(&w);
    int failed = 0;
    for (long k = 0; k < allocs; k++) {
        tfs_test_nomem_arm(k);
        tfs_status st = write(m, &w);
        tfs_test_nomem_disarm();
        assert_int_equal(w.err, st);
        if (st == TFS_OK) {
            size_t n;
            uint8_t *p = flat(&w, &n);
            assert_int_equal(n, n_ref);
            assert_memory_equal(p, ref, n);
            free(p);
        } else {
            assert_int_equal(st, TFS_ENOMEM);
            failed++;
        }
        tfs_wbuf_free(&w);
    }
    assert_true(failed > 0);
    free(ref);
}

static void test_gg_write(void **state) {
    (void)state;
    static const uint8_t u8s[3] = {1, 2, 3};
    tfs_wstr s = tfs_wstr_c("llama"), strs[2] = {tfs_wstr_c("a"), tfs_wstr_c("bc")};
    tfs_gg_wkv kv[3] = {{tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&s)},
                        {tfs_wstr_c("u8s"), tfs_gg_wval_array(TFS_GG_U8, 3, u8s, 3)},
                        {tfs_wstr_c("strs"), tfs_gg_wval_str_array(strs, 2)}};
    tfs_gg_wtensor t[2] = {{.name = tfs_wstr_c("a"), .n_dims = 1, .ne = {5}, .type = 0, .data = "0123456789abcdefghij"},
                           {.name = tfs_wstr_c("b"), .n_dims = 2, .ne = {2, 3}, .type = 0}};
    tfs_gg_model m = {.version = 3, .n_kv = 3, .kv = kv, .n_tensors = 2, .tensors = t};
    every_allocation(gg_write, &m);
}

static void test_st_write(void **state) {
    (void)state;
    static const uint64_t two[1] = {2};
    tfs_st_wentry e[2] = {{.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two, .data = "xy"},
                          {.name = tfs_wstr_c("b"), .dtype = TFS_ST_F32, .n_dims = 1, .shape = two}};
    tfs_st_wmeta kv = {.key = tfs_wstr_c("format"), .value = tfs_wstr_c("pt")};
    tfs_st_model m = {.n_entries = 2, .entries = e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &kv};
    every_allocation(st_write, &m);
    tfs_st_model none = {0}; /* no entries: still an allocation for the offsets */
    every_allocation(st_write, &none);
    /* an earlier error stays the buffer's error when an allocation fails too */
    tfs_wbuf w = {.err = TFS_EARG};
    tfs_test_nomem_arm(0);
    tfs_status st = tfs_st_write(&m, &w);
    tfs_test_nomem_disarm();
    assert_int_equal(st, TFS_EARG);
    assert_int_equal(w.err, TFS_EARG);
    tfs_wbuf_free(&w);
}

/* view -> model with each allocation failing: TFS_ENOMEM and no model, or
 * a model that writes the same file. */
static void from_view(tfs_format fmt, const uint8_t *p, size_t n) {
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(p, n, fmt, 0, &h, &e), TFS_OK);
    int failed = 0;
    for (long k = 0;; k++) {
        void *m = NULL;
        tfs_test_nomem_arm(k);
        tfs_status st = fmt == TFS_FORMAT_GGUF ? tfs_gg_model_from_view(h, (tfs_gg_model **)&m)
                                               : tfs_st_model_from_view(h, (tfs_st_model **)&m);
        long allocs = tfs_test_nomem_disarm();
        if (st == TFS_ENOMEM) {
            assert_null(m);
            failed++;
            continue;
        }
        assert_int_equal(st, TFS_OK);
        tfs_wbuf w = {0};
        assert_int_equal(fmt == TFS_FORMAT_GGUF ? tfs_gg_write(m, &w) : tfs_st_write(m, &w), TFS_OK);
        size_t n2;
        uint8_t *p2 = flat(&w, &n2);
        assert_int_equal(n2, n);
        assert_memory_equal(p2, p, n);
        free(p2);
        tfs_wbuf_free(&w);
        if (fmt == TFS_FORMAT_GGUF)
            tfs_gg_model_free(m);
        else
            tfs_st_model_free(m);
        if (allocs <= k) break; /* allocation k was not reached: every one has failed once */
    }
    assert_true(failed > 0);
    tfs_header_free(h);
}

static void test_model_from_view(void **state) {
    (void)state;
    static const uint8_t u16s[4] = {1, 0, 2, 0};
    tfs_wstr s = tfs_wstr_c("llama"), strs[2] = {tfs_wstr_c("a"), tfs_wstr_c("bc")};
    tfs_gg_wkv kv[4] = {{tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&s)},
                        {tfs_wstr_c("u16s"), tfs_gg_wval_array(TFS_GG_U16, 2, u16s, 4)},
                        {tfs_wstr_c("strs"), tfs_gg_wval_str_array(strs, 2)},
                        {tfs_wstr_c("n"), tfs_gg_wval_scalar(TFS_GG_U32, 7)}};
    tfs_gg_wtensor t[1] = {{.name = tfs_wstr_c("a"), .n_dims = 1, .ne = {5}, .type = 0}};
    tfs_gg_model gm = {.version = 3, .n_kv = 4, .kv = kv, .n_tensors = 1, .tensors = t};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_write(&gm, &w), TFS_OK);
    size_t n;
    uint8_t *p = flat(&w, &n);
    tfs_wbuf_free(&w);
    from_view(TFS_FORMAT_GGUF, p, n);
    free(p);
    static const uint64_t two[1] = {2};
    tfs_st_wentry e[2] = {{.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = two},
                          {.name = tfs_wstr_c("b"), .dtype = TFS_ST_F32, .n_dims = 1, .shape = two}};
    tfs_st_wmeta meta = {.key = tfs_wstr_c("format"), .value = tfs_wstr_c("pt")};
    tfs_st_model sm = {.n_entries = 2, .entries = e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &meta};
    assert_int_equal(tfs_st_write(&sm, &w), TFS_OK);
    p = flat(&w, &n);
    tfs_wbuf_free(&w);
    from_view(TFS_FORMAT_SAFETENSORS, p, n);
    free(p);
}

/* A C library whose malloc(0) returns NULL (C allows it): models with no
 * records (no tensors, no KV pairs, no entries, no __metadata__) still
 * write the same bytes, turn into models and parse the same through every
 * byte path; a zero-byte request taken for a failed allocation would be a
 * TFS_ENOMEM with plenty of memory. */
static void test_zero_size_null(void **state) {
    (void)state;
    tfs_gg_model gm = {.version = 3};
    tfs_st_model sm = {0};
    const void *models[2] = {&gm, &sm};
    for (int f = 0; f < 2; f++) {
        tfs_format fmt = f ? TFS_FORMAT_SAFETENSORS : TFS_FORMAT_GGUF;
        tfs_wbuf w = {0};
        assert_int_equal(f ? tfs_st_write(&sm, &w) : tfs_gg_write(&gm, &w), TFS_OK);
        size_t n_ref;
        uint8_t *ref = flat(&w, &n_ref);
        tfs_wbuf_free(&w);
        tfs_test_nomem_zero_null(1);
        tfs_status st = f ? tfs_st_write(models[f], &w) : tfs_gg_write(models[f], &w);
        tfs_test_nomem_zero_null(0);
        assert_int_equal(st, TFS_OK);
        size_t n;
        uint8_t *p = flat(&w, &n);
        tfs_wbuf_free(&w);
        assert_int_equal(n, n_ref);
        assert_memory_equal(p, ref, n);
        free(p);
        for (int how = TFS_TEST_BUFFER; how <= TFS_TEST_STREAM; how++) {
            tfs_header *h;
            tfs_error e;
            tfs_test_nomem_zero_null(1);
            st = tfs_test_nomem_parse(how, ref, n_ref, fmt, 0, -1, NULL, &h, &e);
            tfs_test_nomem_zero_null(0);
            if (st != TFS_OK)
                fail_msg("format %d path %d: %s, rule %s", f, how, tfs_status_name(st), tfs_rule_id(e.rule));
            assert_int_equal(h->n_tensors, 0);
            void *m = NULL;
            tfs_test_nomem_zero_null(1);
            st = f ? tfs_st_model_from_view(h, (tfs_st_model **)&m) : tfs_gg_model_from_view(h, (tfs_gg_model **)&m);
            tfs_test_nomem_zero_null(0);
            assert_int_equal(st, TFS_OK);
            if (f)
                tfs_st_model_free(m);
            else
                tfs_gg_model_free(m);
            tfs_header_free(h);
        }
        free(ref);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gg_write),
        cmocka_unit_test(test_st_write),
        cmocka_unit_test(test_model_from_view),
        cmocka_unit_test(test_zero_size_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
