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

static void every_allocation_fails(const stt_buf *b) {
    tfs_test_nomem_every_allocation(b->p, b->len, TFS_FORMAT_SAFETENSORS, flags, NULL);
}

/* A header that needs every kind of allocation: 20 __metadata__ entries
 * (some escaped: the arena), 40 tensors listed backwards (the radix sort:
 * records and counters), escaped names, shapes of several dimensions.
 * gap != 0 moves tensor t20 one byte up: ST301 in the sorted walk.
 * spaced == 1 writes a space after each entry field's colon: every entry then
 * takes the generic entry parser (st_entries.c), not the fast path, whose
 * failed allocation is retried by the generic parser; and __metadata__ comes
 * last, so the first escaped string (the arena) is a tensor name.  spaced == 2:
 * the canonical layout, but __metadata__'s first key is plain, so the arena is
 * first allocated for a value. */
static size_t metadata(char *j, size_t n, size_t cap, int key_escape) {
    n += (size_t)snprintf(j + n, cap - n, "%s\"__metadata__\":{", n > 1 ? "," : "");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(j + n, cap - n, "%s\"key%d%s\":\"value \\u00e9 %d\"", k ? "," : "", k,
                              k % 3 == key_escape ? "\\t" : "", k);
    return n + (size_t)snprintf(j + n, cap - n, "}");
}

static char *header(int gap, int spaced, size_t *data_len) {
    size_t cap = 16384, n = 0;
    char *j = malloc(cap);
    assert_non_null(j);
    n += (size_t)snprintf(j + n, cap - n, "{");
    if (spaced != 1) n = metadata(j, n, cap, spaced == 2); /* 2: key 0 plain, value 0 first escaped */
    for (int i = 39; i >= 0; i--) {
        unsigned start = (unsigned)i * 24u + (gap && i == 20), end = (unsigned)i * 24u + 24u;
        if (gap && i == 20) end++;
        n += (size_t)snprintf(j + n, cap - n,
                              spaced == 1
                                  ? "%s\"t%02d%s\":{\"dtype\": \"F16\",\"shape\": [2,3,2],\"data_offsets\": [%u,%u]}"
                                  : "%s\"t%02d%s\":{\"dtype\":\"F16\",\"shape\":[2,3,2],\"data_offsets\":[%u,%u]}",
                              n > 1 ? "," : "", i, i % 4 ? "" : "\\u0041", start, end);
    }
    if (spaced == 1) n = metadata(j, n, cap, 0);
    n += (size_t)snprintf(j + n, cap - n, "}");
    assert_true(n < cap);
    *data_len = 40u * 24u;
    return j;
}

static void test_valid_every_allocation_fails(void **state) {
    (void)state;
    size_t data_len;
    for (int spaced = 0; spaced <= 2; spaced++) {
        char *json = header(0, spaced, &data_len);
        stt_buf b = stt_json(json, data_len);
        tfs_header *h = stt_expect_ok(&b, 0, 1);
        assert_int_equal(h->n_tensors, 40);
        assert_int_equal(h->n_kv, 20);
        assert_int_equal(h->tensors[0].n_dims, 3);
        tfs_header_free(h);
        every_allocation_fails(&b);
        stt_free(&b);
        free(json);
    }
}

static void test_ST301_every_allocation_fails(void **state) {
    (void)state;
    size_t data_len;
    char *json = header(1, 0, &data_len);
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

/* Headers longer than the first 64 KiB window of a reader or stream: the
 * window grows to the whole header (tfs__src_prefix), by realloc below 1 MiB
 * and by tfs__alloc_big from 1 MiB on, which copies what the window held;
 * that allocation failing must leave the window alone (ENOMEM, nothing read
 * into it, nothing copied to NULL).  One tensor and a __metadata__ value of
 * `len` bytes. */
static void test_long_header_every_allocation_fails(void **state) {
    (void)state;
    static const size_t lens[] = {100000, 1100000};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i], cap = len + 128;
        char *json = malloc(cap);
        assert_non_null(json);
        int k = snprintf(json, cap,
                         "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                         "\"__metadata__\":{\"k\":\"");
        memset(json + k, 'v', len);
        snprintf(json + k + len, cap - (size_t)k - len, "\"}}");
        stt_buf b = stt_json(json, 1);
        tfs_header *h = stt_expect_ok(&b, 0, 1);
        assert_int_equal(h->header_size, (uint64_t)k + len + 3u);
        assert_int_equal(h->n_kv, 1);
        tfs_header_free(h);
        every_allocation_fails(&b);
        stt_free(&b);
        free(json);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_every_allocation_fails),
        cmocka_unit_test(test_ST301_every_allocation_fails),
        cmocka_unit_test(test_long_header_every_allocation_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
