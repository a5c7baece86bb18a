/* test_mutation_disable.c: tfs_mutation_disable (mutators/tfs_mutate.h), the
 * family switch of the fuzzing benchmark's ablation (bench/fuzz/run.sh,
 * TFS_MUTATOR_DISABLE): counts, explicit mutations of a family that is off
 * leave the input as it is, random picks never choose one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mutators/mut_seeds.h"
#include "tfs_mutate.h"

static const char *const k_families[] = {"offset", "trunc", "align", "hdr",  "count", "strlen", "type",
                                         "shape",  "dup",   "kv",    "json", "bug",   "byte",   "calc"};
#define N_FAMILIES (sizeof k_families / sizeof k_families[0])

/* mutations whose name starts with "<family>." */
static int count_family(const char *family) {
    int n = 0;
    size_t len = strlen(family);
    for (int i = 0; i < tfs_mutation_count(); i++)
        if (strncmp(tfs_mutation_name(i), family, len) == 0 && tfs_mutation_name(i)[len] == '.') n++;
    return n;
}

static void test_counts(void **state) {
    (void)state;
    int total = 0;
    for (size_t f = 0; f < N_FAMILIES; f++) {
        int n = count_family(k_families[f]);
        assert_true(n > 0);
        assert_int_equal(tfs_mutation_disable(k_families[f]), n);
        total += n;
    }
    assert_int_equal(total, tfs_mutation_count()); /* the families cover the table */
    assert_int_equal(tfs_mutation_disable("bug,json"), count_family("bug") + count_family("json"));
    assert_int_equal(tfs_mutation_disable(" bug , bug "), count_family("bug"));
    assert_int_equal(tfs_mutation_disable("bu"), 0); /* whole family names only */
    assert_int_equal(tfs_mutation_disable("nosuch"), 0);
    assert_int_equal(tfs_mutation_disable(""), 0);
    assert_int_equal(tfs_mutation_disable(NULL), 0);
}

static void test_explicit_off(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = mut_seed_gguf("a", &len);
    assert_non_null(seed);
    size_t cap = len + 4096;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    int g1 = tfs_mutation_find("bug.G1");
    assert_true(g1 >= 0);

    assert_int_equal(tfs_mutation_disable("bug"), count_family("bug"));
    memcpy(buf, seed, len);
    assert_int_equal(tfs_mutate_one(buf, len, cap, 7, g1), len);
    assert_memory_equal(buf, seed, len);

    assert_int_equal(tfs_mutation_disable(NULL), 0); /* on again: the mutation changes the file */
    memcpy(buf, seed, len);
    size_t n = tfs_mutate_one(buf, len, cap, 7, g1);
    assert_true(n != len || memcmp(buf, seed, len) != 0);
    free(buf);
    free(seed);
}

static void test_random_off(void **state) {
    (void)state;
    char all[256] = "";
    for (size_t f = 0; f < N_FAMILIES; f++) {
        strcat(all, k_families[f]);
        strcat(all, ",");
    }
    assert_int_equal(tfs_mutation_disable(all), tfs_mutation_count());
    size_t len;
    uint8_t *seed = mut_seed_st("s", &len);
    assert_non_null(seed);
    size_t cap = len + 4096;
    uint8_t *buf = malloc(cap);
    assert_non_null(buf);
    int changed = 0;
    for (uint64_t s = 0; s < 200; s++) { /* nothing left to pick: the input stays */
        memcpy(buf, seed, len);
        size_t n = tfs_mutate_one(buf, len, cap, s, -1);
        changed += n != len || memcmp(buf, seed, len) != 0;
    }
    assert_int_equal(changed, 0);
    assert_int_equal(tfs_mutation_disable(NULL), 0);
    for (uint64_t s = 0; s < 200; s++) {
        memcpy(buf, seed, len);
        size_t n = tfs_mutate_one(buf, len, cap, s, -1);
        changed += n != len || memcmp(buf, seed, len) != 0;
    }
    assert_true(changed > 150); /* all on: nearly every pick changes the file */
    free(buf);
    free(seed);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_explicit_off),
        cmocka_unit_test(test_random_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
