/* test_gg_find.c: tfs_find_kvn / tfs_find_kv / tfs_find_tensor
 * (parsers/core/access.c) on a GGUF file written by the test: every key
 * and name is found at its own index (keys and names of equal length, one
 * byte long, sharing prefixes), absent ones and NULL arguments give NULL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gguf/gg_build.h"
#include "tfs/tfs.h"

static const char *const KEYS[] = {"a", "b", "ab", "ba", "abc", "x.y"};
static const char *const NAMES[] = {"t", "u", "tu", "ut", "w.x", "w.y"};
enum { NK = 6, NT = 6 };

static void test_find(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, NT, NK);
    for (uint32_t i = 0; i < NK; i++) gb_kv_u32(&b, KEYS[i], 100 + i);
    static const int64_t ne[1] = {8};
    for (uint32_t i = 0; i < NT; i++) gb_ti(&b, NAMES[i], 1, ne, 0, 32u * i);
    gb_pad(&b, 32);
    gb_zeros(&b, 32u * NT);
    tfs_header *h = gg_expect_ok(&b, 0);
    assert_int_equal(h->n_kv, NK);
    assert_int_equal(h->n_tensors, NT);
    for (size_t i = 0; i < NK; i++) {
        assert_ptr_equal(tfs_find_kv(h, KEYS[i]), &h->kv[i]);
        assert_ptr_equal(tfs_find_kvn(h, KEYS[i], strlen(KEYS[i])), &h->kv[i]);
        uint32_t v = 0;
        assert_int_equal(tfs_kv_get_u32(h, tfs_find_kv(h, KEYS[i]), 0, &v), TFS_OK);
        assert_int_equal(v, 100 + i);
    }
    for (size_t i = 0; i < NT; i++) assert_ptr_equal(tfs_find_tensor(h, NAMES[i]), &h->tensors[i]);
    /* a prefix of a key by length */
    assert_ptr_equal(tfs_find_kvn(h, "abc", 2), &h->kv[2]);
    assert_ptr_equal(tfs_find_kvn(h, "bx", 1), &h->kv[1]);
    /* absent */
    assert_null(tfs_find_kv(h, "c"));
    assert_null(tfs_find_kv(h, "abd"));
    assert_null(tfs_find_kv(h, ""));
    assert_null(tfs_find_kvn(h, "x", 0));
    assert_null(tfs_find_kvn(h, NULL, 0));
    assert_null(tfs_find_tensor(h, "v"));
    assert_null(tfs_find_tensor(h, "tt"));
    assert_null(tfs_find_tensor(h, ""));
    /* NULL arguments */
    assert_null(tfs_find_kvn(h, NULL, 1));
    assert_null(tfs_find_kvn(NULL, "a", 1));
    assert_null(tfs_find_kv(NULL, "a"));
    assert_null(tfs_find_kv(h, NULL));
    assert_null(tfs_find_tensor(NULL, "t"));
    assert_null(tfs_find_tensor(h, NULL));
    tfs_header_free(h);
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
