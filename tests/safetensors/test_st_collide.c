/* test_st_collide.c: duplicate tensor names and __metadata__ keys when their
 * hashes collide.  Names and keys go into a hash set keyed per parse
 * (tfs__hash_seed); a slot holds only the low 32 bits of a hash, and
 * st_entries.c's name_eq (length, then bytes) decides.  Distinct names
 * almost never collide with a random seed, so that comparison is tested here
 * with a fixed one: the program is linked with --wrap=tfs__hash_seed
 * (tests/safetensors/tests.cmake) and searches for two distinct names of the
 * same length whose hashes share their low 32 bits (a birthday search,
 * ~10^5 candidates), as tests/gguf/test_gg_collide.c does for GGUF.  Such
 * files are valid (the crate's HashMap compares the strings): two tensors,
 * two __metadata__ entries, no duplicate in the strict profile. */
#include "safetensors/st_test_util.h"

#include "internal.h"

#define SEED UINT64_C(0x5EED5EED12345678)

uint64_t __wrap_tfs__hash_seed(void);
uint64_t __wrap_tfs__hash_seed(void) { return SEED; }

static int name_of(uint32_t i, char *k) { return sprintf(k, "t.%08x", i); }

/* Two names (same length) whose hashes have equal low 32 bits and differ in
 * the full 64. */
static void find_pair(uint32_t *a, uint32_t *b) {
    enum { CAP = 1u << 21 };
    uint32_t *hs = calloc(CAP, sizeof *hs), *ix = calloc(CAP, sizeof *ix);
    uint64_t *full = calloc(CAP, sizeof *full);
    char k[32];
    assert_true(hs && ix && full);
    for (uint32_t i = 0; i < 8000000u; i++) {
        int n = name_of(i, k);
        uint64_t h64 = tfs__hash_bytes(SEED, (const uint8_t *)k, (size_t)n);
        uint32_t h = (uint32_t)h64;
        size_t j = h & (CAP - 1u);
        for (; ix[j]; j = (j + 1u) & (CAP - 1u)) {
            if (hs[j] == h && full[j] != h64) {
                *a = ix[j] - 1u;
                *b = i;
                free(hs), free(ix), free(full);
                return;
            }
        }
        hs[j] = h, ix[j] = i + 1u, full[j] = h64;
    }
    fail_msg("no 32-bit collision found");
}

static uint32_t x, y;

static int setup(void **state) {
    (void)state;
    find_pair(&x, &y);
    return 0;
}

/* The file before a between b after (a, b: the colliding names) with
 * n_data data bytes is valid in the default and the strict profile; `check`
 * looks at each view. */
static void expect_valid_pair(const char *before, const char *between, const char *after, size_t n_data,
                              void (*check)(const tfs_header *h, const char *a, const char *b)) {
    char a[32], b[32], json[256];
    name_of(x, a);
    name_of(y, b);
    snprintf(json, sizeof json, "%s%s%s%s%s", before, a, between, b, after);
    stt_buf f = stt_json(json, n_data);
    for (unsigned flags = 0; flags <= TFS_STRICT; flags += TFS_STRICT) {
        tfs_header *h = stt_expect_ok(&f, flags, 1);
        check(h, a, b);
        tfs_header_free(h);
    }
    stt_free(&f);
}

static void two_tensors(const tfs_header *h, const char *a, const char *b) {
    assert_int_equal(h->n_tensors, 2);
    stt_assert_str(h->tensors[0].name, a, strlen(a));
    stt_assert_str(h->tensors[1].name, b, strlen(b));
    assert_int_equal(h->tensors[1].offset, 1);
}

static void test_valid_colliding_tensor_names(void **state) {
    (void)state;
    expect_valid_pair("{\"", "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},\"",
                      "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}}", 2, two_tensors);
}

static void two_keys(const tfs_header *h, const char *a, const char *b) {
    assert_int_equal(h->n_kv, 2);
    stt_assert_str(h->kv[0].key, a, strlen(a));
    stt_assert_str(h->kv[1].key, b, strlen(b));
    stt_assert_kv_string(h, 0, "1", 1);
    stt_assert_kv_string(h, 1, "2", 1);
}

static void test_valid_colliding_metadata_keys(void **state) {
    (void)state;
    expect_valid_pair("{\"__metadata__\":{\"", "\":\"1\",\"",
                      "\":\"2\"},\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}", 1, two_keys);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_colliding_tensor_names),
        cmocka_unit_test(test_valid_colliding_metadata_keys),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
