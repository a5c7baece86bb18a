/* test_st_nomem.c: every allocation of a safetensors parse failing in turn
 * (the safetensors twin of tests/gguf/test_gg_nomem.c).  The program is
 * linked with --wrap for malloc, calloc, realloc and aligned_alloc
 * (tests/common/nomem.c): the N-th allocation of the parse returns NULL.  For each N up to the count of a whole parse,
 * through the buffer, a random-access reader and a forward-only stream, the
 * parse must end in TFS_ENOMEM (no header, no rule, offset 0, index -1,
 * errno 0) or in exactly the verdict of the parse without failures (same
 * rule, offset and index, or the same view).  This checks the `if (!p)`
 * paths of the entry and shape arrays, the arena of decoded strings, the
 * name sets, the sort's records and counters and the view
 * (docs/mutation-testing.md). */
#include "st_test_util.h"

#include "common/nomem.h"
#include "common/sources.h"

static unsigned flags; /* parse flags (TFS_PARTIAL: the partial view of an invalid file) */

enum { BUFFER = TFS_TEST_BUFFER, READER = TFS_TEST_READER, STREAM = TFS_TEST_STREAM };

static long n_allocs; /* allocations of the last parse */

/* One parse of p[0, n) through `how`, allocation number `fail` failing. */
static tfs_status parse(int how, const uint8_t *p, size_t n, long fail, tfs_header **h, tfs_error *e) {
    return tfs_test_nomem_parse(how, p, n, TFS_FORMAT_SAFETENSORS, flags, fail, &n_allocs, h, e);
}

static void every_allocation_fails(const stt_buf *b) {
    for (int how = BUFFER; how <= STREAM; how++) {
        tfs_header *ref, *h;
        tfs_error re, e;
        tfs_status want = parse(how, b->p, b->len, -1, &ref, &re);
        long total = n_allocs;
        assert_true(total > 3);
        for (long k = 0; k <= total; k++) {
            tfs_status st = parse(how, b->p, b->len, k, &h, &e);
            if (k == total || st != TFS_ENOMEM) {
                if (st != want) print_error("source %d, allocation %ld failing: %s\n", how, k, tfs_status_name(st));
                assert_int_equal(st, want);
                assert_int_equal(e.rule, re.rule);
                assert_int_equal(e.offset, re.offset);
                assert_int_equal(e.index, re.index);
                if (st == TFS_OK) tfs_test_assert_same_view(ref, h);
                tfs_header_free(h); /* TFS_PARTIAL: an invalid file's partial view, or NULL */
                continue;
            }
            assert_null(h);
            assert_int_equal(e.rule, TFS_RULE_NONE);
            assert_int_equal(e.offset, 0);
            assert_int_equal(e.index, -1);
            assert_int_equal(e.sys_errno, 0);
        }
        tfs_header_free(ref);
    }
}

/* A header that needs every kind of allocation: 20 __metadata__ entries
 * (some escaped: the arena), 40 tensors listed backwards (the radix sort:
 * records and counters), escaped names, shapes of several dimensions.
 * gap != 0 moves tensor t20 one byte up: ST301 in the sorted walk. */
static char *header(int gap, size_t *data_len) {
    size_t cap = 16384, n = 0;
    char *j = malloc(cap);
    assert_non_null(j);
    n += (size_t)snprintf(j + n, cap - n, "{\"__metadata__\":{");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(j + n, cap - n, "%s\"key%d%s\":\"value \\u00e9 %d\"", k ? "," : "", k, k % 3 ? "" : "\\t",
                              k);
    n += (size_t)snprintf(j + n, cap - n, "}");
    for (int i = 39; i >= 0; i--) {
        unsigned start = (unsigned)i * 24u + (gap && i == 20), end = (unsigned)i * 24u + 24u;
        if (gap && i == 20) end++;
        n += (size_t)snprintf(j + n, cap - n,
                              ",\"t%02d%s\":{\"dtype\":\"F16\",\"shape\":[2,3,2],\"data_offsets\":[%u,%u]}", i,
                              i % 4 ? "" : "\\u0041", start, end);
    }
    n += (size_t)snprintf(j + n, cap - n, "}");
    assert_true(n < cap);
    *data_len = 40u * 24u;
    return j;
}

static void test_valid_every_allocation_fails(void **state) {
    (void)state;
    size_t data_len;
    char *json = header(0, &data_len);
    stt_buf b = stt_json(json, data_len);
    tfs_header *h = stt_expect_ok(&b, 0, 1);
    assert_int_equal(h->n_tensors, 40);
    assert_int_equal(h->n_kv, 20);
    tfs_header_free(h);
    every_allocation_fails(&b);
    stt_free(&b);
    free(json);
}

static void test_ST301_every_allocation_fails(void **state) {
    (void)state;
    size_t data_len;
    char *json = header(1, &data_len);
    stt_buf b = stt_json(json, data_len);
    /* t20 [481,505] after t19 [456,480]: ST301 at t20's data_offsets (file position 19) */
    stt_expect_rule(&b, 0, TFS_ST301, stt_at(json, "[481,505]", 0), 19);
    every_allocation_fails(&b);
    flags = TFS_PARTIAL; /* the partial view's allocations failing too */
    every_allocation_fails(&b);
    flags = 0;
    stt_free(&b);
    free(json);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_every_allocation_fails),
        cmocka_unit_test(test_ST301_every_allocation_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
