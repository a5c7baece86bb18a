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
#include "internal.h"
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

/* tfs__kv_stored (internal.h; the GGUF writer's copy of a parsed value):
 * the value's bytes as stored, in place for the buffer API, else read into
 * dst; TFS_EARG for a missing out, a kv not of h, a non-GGUF header, a dst
 * too small */
static int mem_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    const gb *b = ctx;
    size_t k = off >= b->len ? 0 : b->len - (size_t)off;
    if (k > len) k = len;
    memcpy(buf, b->p + off, k);
    *got = k;
    return 0;
}

static void test_kv_stored(void **state) {
    (void)state;
    gb b = {0};
    gb_header(&b, 3, 0, 2);
    gb_kv_at a0 = gb_kv_u32(&b, "a", 0x01020304u);
    gb_kv_at a1 = gb_kv_arr(&b, "b", TFS_GG_U16, 3);
    for (uint16_t i = 0; i < 3; i++) gb_u16(&b, (uint16_t)(0x1111u * (i + 1)));
    tfs_header *h = gg_expect_ok(&b, 0);
    const uint8_t *out = NULL;
    assert_int_equal(tfs__kv_stored(h, &h->kv[0], NULL, 0, &out), TFS_OK);
    assert_ptr_equal(out, b.p + a0.value);
    assert_int_equal(tfs__kv_stored(h, &h->kv[1], NULL, 0, &out), TFS_OK);
    assert_ptr_equal(out, b.p + a1.value);
    assert_int_equal(tfs__kv_stored(h, &h->kv[0], NULL, 0, NULL), TFS_EARG);
    tfs_kv copy = h->kv[0];
    assert_int_equal(tfs__kv_stored(h, &copy, NULL, 0, &out), TFS_EARG);
    assert_int_equal(tfs__kv_stored(NULL, &h->kv[0], NULL, 0, &out), TFS_EARG);
    tfs_header_free(h);
    /* through a reader: copied into dst */
    tfs_source src = {.read = mem_read, .ctx = &b, .size = b.len};
    tfs_error e;
    assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    uint8_t dst[16];
    memset(dst, 0xEE, sizeof dst);
    assert_int_equal(tfs__kv_stored(h, &h->kv[1], dst, 6, &out), TFS_OK);
    assert_ptr_equal(out, dst);
    assert_memory_equal(dst, b.p + a1.value, 6);
    assert_int_equal(dst[6], 0xEE);
    assert_int_equal(tfs__kv_stored(h, &h->kv[1], dst, 5, &out), TFS_EARG); /* too small */
    assert_int_equal(tfs__kv_stored(h, &h->kv[1], NULL, 6, &out), TFS_EARG);
    tfs_header_free(h);
    /* a safetensors header: not a GGUF KV */
    static const char st[] = "{\"__metadata__\":{\"k\":\"v\"}}";
    uint8_t file[8 + sizeof st - 1];
    uint64_t n = sizeof st - 1;
    for (int i = 0; i < 8; i++) file[i] = (uint8_t)(n >> (8 * i));
    memcpy(file + 8, st, n);
    assert_int_equal(tfs_parse_buffer(file, sizeof file, TFS_FORMAT_SAFETENSORS, 0, &h, &e), TFS_OK);
    assert_int_equal(h->n_kv, 1);
    assert_int_equal(tfs__kv_stored(h, &h->kv[0], dst, sizeof dst, &out), TFS_EARG);
    /* its value: a string whose first byte is the 'v' after the key's colon and quote */
    tfs_value v;
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 0, &v), TFS_OK);
    assert_int_equal(v.type, TFS_GG_STRING);
    assert_int_equal(v.u64, 1);
    assert_int_equal(v.offset, 8u + (uint64_t)(strstr(st, ":\"v\"") - st) + 2u);
    assert_int_equal(tfs_kv_get(h, &h->kv[0], 0, NULL), TFS_EARG);
    tfs_kv other = h->kv[0];
    assert_int_equal(tfs_kv_get(h, &other, 0, &v), TFS_EARG);
    tfs_header_free(h);
    gb_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_kv_stored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
