/* test_afl_mutator.c: the AFL++ custom mutator as afl-fuzz uses it: dlopen
 * the shared library, look up the afl_custom_* functions, run init, fuzz
 * (with and without a second input), describe, the trimming protocol and
 * deinit; only afl_custom_* symbols are exported. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mut_seeds.h"
#include "tfs/tfs.h"

typedef void *(*init_fn)(void *, unsigned int);
typedef size_t (*fuzz_fn)(void *, uint8_t *, size_t, uint8_t **, uint8_t *, size_t, size_t);
typedef const char *(*describe_fn)(void *, size_t);
typedef int32_t (*init_trim_fn)(void *, uint8_t *, size_t);
typedef size_t (*trim_fn)(void *, uint8_t **);
typedef int32_t (*post_trim_fn)(void *, uint8_t);
typedef void (*deinit_fn)(void *);

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (!p) fail_msg("%s missing: %s", name, dlerror());
    return p;
}

static void test_afl_protocol(void **state) {
    (void)state;
    void *h = dlopen(TFS_AFL_MUTATOR_SO, RTLD_NOW | RTLD_LOCAL);
    if (!h) fail_msg("dlopen: %s", dlerror());
    init_fn init = (init_fn)sym(h, "afl_custom_init");
    fuzz_fn fuzz = (fuzz_fn)sym(h, "afl_custom_fuzz");
    describe_fn describe = (describe_fn)sym(h, "afl_custom_describe");
    init_trim_fn init_trim = (init_trim_fn)sym(h, "afl_custom_init_trim");
    trim_fn trim = (trim_fn)sym(h, "afl_custom_trim");
    post_trim_fn post_trim = (post_trim_fn)sym(h, "afl_custom_post_trim");
    deinit_fn deinit = (deinit_fn)sym(h, "afl_custom_deinit");
    /* libtfs and the core stay inside the library */
    assert_null(dlsym(h, "tfs_mutate"));
    assert_null(dlsym(h, "tfs_parse_buffer"));

    void *m = init(NULL, 42);
    assert_non_null(m);
    size_t la, lb;
    uint8_t *a = mut_seed_gguf("a", &la), *b = mut_seed_st("b", &lb);
    int changed = 0, described = 0;
    for (int i = 0; i < 400; i++) {
        uint8_t *out = NULL;
        uint8_t *in = (i & 1) ? b : a;
        size_t len = (i & 1) ? lb : la;
        size_t n = fuzz(m, in, len, &out, (i % 3 == 0) ? a : NULL, (i % 3 == 0) ? la : 0, 1u << 20);
        assert_non_null(out);
        assert_true(n > 0 && n <= (1u << 20));
        changed += n != len || memcmp(out, in, len) != 0;
        const char *d = describe(m, 64);
        assert_non_null(d);
        assert_true(strlen(d) < 64);
        assert_memory_equal(d, "tfs:", 4);
        described += strcmp(d, "tfs:none") != 0;
    }
    assert_true(changed > 300);
    assert_true(described == 400);
    /* a tiny max size is respected */
    uint8_t *out = NULL;
    assert_true(fuzz(m, a, la, &out, NULL, 0, 16) <= 16);

    /* trimming: steps = records (4 KV pairs + 3 tensors); success on every
     * step that keeps a tensor named a.0 (our stand-in for coverage) */
    int32_t steps = init_trim(m, a, la);
    assert_int_equal(steps, 7);
    int32_t k = 0, rounds = 0;
    size_t last = la;
    while (k < steps && rounds++ < 100) {
        uint8_t *t = NULL;
        size_t n = trim(m, &t);
        assert_non_null(t);
        assert_true(n > 0);
        tfs_header *hd = NULL;
        tfs_error e;
        int keep = 0;
        if (tfs_parse_buffer(t, n, TFS_FORMAT_GGUF, 0, &hd, &e) == TFS_OK) {
            for (size_t i = 0; i < hd->n_tensors; i++)
                keep |= hd->tensors[i].name.len == 3 && memcmp(hd->tensors[i].name.ptr, "a.0", 3) == 0;
            tfs_header_free(hd);
        }
        if (keep) last = n;
        int32_t next = post_trim(m, (uint8_t)keep);
        assert_true(next > k);
        k = next;
    }
    assert_int_equal(k, steps);
    assert_true(last < la); /* records were dropped */
    assert_int_equal(init_trim(m, (uint8_t *)"junk", 4), 0);
    deinit(m);
    free(a);
    free(b);
    dlclose(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_afl_protocol)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
