/* test_gg_nomem.c: every allocation of a GGUF parse failing in turn.
 * The program is linked with --wrap for malloc, calloc, realloc and
 * aligned_alloc (tests/common/nomem.c): the N-th allocation of the parse
 * returns NULL.  For each N up
 * to the count of a whole parse, through the buffer, a random-access reader
 * and a forward-only stream, the parse must end in TFS_ENOMEM (no header,
 * no rule, offset 0, index -1, errno 0) or in exactly the verdict of the
 * parse without failures (same rule, offset and index, or the same view):
 * never a crash, a header built on a lost allocation, or another verdict.
 * This is what checks the `if (!p) return ...` paths of push, mark, the
 * arena and the window (docs/mutation-testing.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gguf/gg_build.h"
#include "common/nomem.h"
#include "common/sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two views of a forward-only source: every element gives the same status
 * from tfs_kv_get and tfs_kv_get_string (TFS_EIO past what a stream keeps)
 * and, when read, the same value (the marks of kept string elements). */
static void same_stream_values(const tfs_header *a, const tfs_header *b) {
    for (size_t i = 0; i < a->n_kv; i++) {
        for (uint64_t k = 0; k < a->kv[i].count; k++) {
            tfs_value u, v;
            tfs_status su = tfs_kv_get(a, &a->kv[i], k, &u), sv = tfs_kv_get(b, &b->kv[i], k, &v);
            assert_int_equal(su, sv);
            if (su != TFS_OK) continue;
            assert_int_equal(u.u64, v.u64);
            assert_int_equal(u.offset, v.offset);
            if (u.type != TFS_GG_STRING) continue;
            char bu[64], bv[64];
            tfs_str s, t;
            su = tfs_kv_get_string(a, &a->kv[i], k, &s, bu, sizeof bu);
            sv = tfs_kv_get_string(b, &b->kv[i], k, &t, bv, sizeof bv);
            assert_int_equal(su, sv);
            if (su != TFS_OK) continue;
            assert_int_equal(s.len, t.len);
            if (s.len) assert_memory_equal(s.ptr, t.ptr, s.len);
        }
    }
}

/* An accepted view after a failed allocation: a stream's arrays and
 * strings cannot be re-read, so its values are compared by cursor and
 * accessor; the other paths' views must equal the unfailed one. */
static void same_view(int how, const tfs_header *bref, const tfs_header *ref, const tfs_header *h) {
    if (how == TFS_TEST_STREAM) {
        assert_int_equal(h->n_kv, ref->n_kv);
        tfs_test_assert_cursor_values(bref, h, 1);
        same_stream_values(ref, h);
    } else {
        tfs_test_assert_same_view(ref, h);
    }
}

static void every_allocation_fails(const gb *b) {
    tfs_test_nomem_every_allocation(b->p, b->len, TFS_FORMAT_GGUF, 0, same_view);
}

/* A file that needs every kind of allocation: more KVs and tensors than a
 * first reservation (16), a string array past a few marks (every 64th
 * element) and past what a stream keeps, a long string scalar, a key longer
 * than TFS_KEY_KEEP, tensors. */
static void build(gb *b, uint64_t n_kv_extra, int dup) {
    char s[48];
    gb_header(b, 3, 40, 5 + n_kv_extra);
    gb_kv_u32(b, "general.alignment", 32);
    gb_kv_arr(b, "tokens", TFS_GG_STRING, 3000);
    for (int i = 0; i < 3000; i++) {
        int n = snprintf(s, sizeof s, "tok%d%.*s", i, i % 9, "zzzzzzzzz");
        gb_strn(b, s, (size_t)n);
    }
    gb_kv_arr(b, "scores", TFS_GG_F32, 5000);
    gb_zeros(b, 5000 * 4);
    char long_s[400];
    memset(long_s, 'q', sizeof long_s - 1);
    long_s[sizeof long_s - 1] = 0;
    gb_kv_str(b, "long", long_s);
    char *long_key = malloc(70000); /* longer than TFS_KEY_KEEP: read in windows by a reader */
    assert_non_null(long_key);
    memset(long_key, 'k', 70000);
    gb_strn(b, long_key, 70000);
    gb_u32(b, TFS_GG_U32);
    gb_u32(b, 5);
    free(long_key);
    for (uint64_t i = 0; i < n_kv_extra; i++) {
        snprintf(s, sizeof s, "k.%llu", (unsigned long long)(dup && i + 1u == n_kv_extra ? 0u : i));
        gb_kv_u32(b, s, (uint32_t)i);
    }
    int64_t ne[2] = {4, 2};
    for (int t = 0; t < 40; t++) {
        snprintf(s, sizeof s, "blk.%d.weight", t);
        gb_ti(b, s, 2, ne, 0 /* F32 */, (uint64_t)t * 32u);
    }
    gb_pad(b, 32);
    gb_zeros(b, 40 * 32);
}

static void test_valid_every_allocation_fails(void **state) {
    (void)state;
    gb b = {0};
    build(&b, 20, 0);
    tfs_header_free(gg_expect_ok(&b, 0));
    every_allocation_fails(&b);
    gb_free(&b);
}

static void test_GG111_every_allocation_fails(void **state) {
    (void)state; /* the last extra key repeats the first: GG111 once all is read */
    gb b = {0};
    build(&b, 20, 1);
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_GGUF, 0, &h, &e), TFS_INVALID);
    assert_string_equal(tfs_rule_id(e.rule), "GG111");
    assert_int_equal(e.index, 5 + 19);
    every_allocation_fails(&b);
    gb_free(&b);
}

/* The same with TFS_PARTIAL: an allocation failing while the partial view
 * is built (view.c) still gives the file's verdict, with no view. */
static void test_GG111_partial_every_allocation_fails(void **state) {
    (void)state;
    gb b = {0};
    build(&b, 20, 1);
    tfs_test_nomem_every_allocation(b.p, b.len, TFS_FORMAT_GGUF, TFS_PARTIAL, same_view);
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_every_allocation_fails),
        cmocka_unit_test(test_GG111_every_allocation_fails),
        cmocka_unit_test(test_GG111_partial_every_allocation_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
