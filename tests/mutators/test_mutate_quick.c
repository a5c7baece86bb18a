/* test_mutate_quick.c: tfs_mutate_quick and tfs_crossover_quick
 * (mutators/quick.c), and the libFuzzer front end's TFS_MUTATOR_QUICK share.
 *  - GGUF: every edit lands inside one integer field of the writer's field
 *    map (the map of tfs_gg_write, not the scan's own notion), a cut at a
 *    field's start, inside it or at its end; every kind of field, the
 *    tensor infos' too, is reached;
 *  - the scan is bounded: behind a 100,000-string array no byte is edited;
 *  - safetensors: only the header size and digits of number tokens change;
 *  - no field found (not a model, empty, NULL): 0 and the input unchanged;
 *    every prefix of a model: an output within the prefix;
 *  - crossover: a prefix of a, then a suffix of b, within max_out;
 *  - TFS_MUTATOR_QUICK: the front end's share of quick edits (a child
 *    process per setting: the front end reads the environment once). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "mut.h"
#include "mutators/mut_seeds.h"
#include "tfs/mutate.h"
#include "tfs/write.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define CAP (4u << 20)

/* A GGUF written by tfs_gg_write with its field map: general.alignment
 * (u32), general.name (string), tokenizer.ggml.tokens (n_tokens strings),
 * tokenizer.ggml.scores (3 f32), two tensors.  *ti_start: the first tensor
 * info's offset. */
static uint8_t *gguf_with_map(size_t n_tokens, size_t *len, tfs_wbuf *w, uint64_t *ti_start) {
    tfs_wstr *toks = calloc(n_tokens ? n_tokens : 1, sizeof *toks);
    assert_non_null(toks);
    for (size_t i = 0; i < n_tokens; i++) toks[i] = tfs_wstr_c(i % 2 ? "ab" : "c");
    static const tfs_wstr name = {"toy", 3, 0, 0, 0};
    static const uint8_t scores[12] = {0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
    tfs_gg_wkv kv[4];
    memset(kv, 0, sizeof kv);
    kv[0].key = tfs_wstr_c("general.alignment");
    kv[0].value = tfs_gg_wval_scalar(TFS_GG_U32, 32);
    kv[1].key = tfs_wstr_c("general.name");
    kv[1].value = tfs_gg_wval_str(&name);
    kv[2].key = tfs_wstr_c("tokenizer.ggml.tokens");
    kv[2].value = tfs_gg_wval_str_array(toks, n_tokens);
    kv[3].key = tfs_wstr_c("tokenizer.ggml.scores");
    kv[3].value = tfs_gg_wval_array(TFS_GG_F32, 3, scores, sizeof scores);
    tfs_gg_wtensor t[2];
    memset(t, 0, sizeof t);
    t[0].name = tfs_wstr_c("w.0");
    t[0].type = 0;
    t[0].n_dims = 2;
    t[0].ne[0] = 4;
    t[0].ne[1] = 2;
    t[1].name = tfs_wstr_c("w.1");
    t[1].type = 1;
    t[1].n_dims = 1;
    t[1].ne[0] = 8;
    tfs_gg_model m;
    memset(&m, 0, sizeof m);
    m.version = 3;
    m.kv = kv;
    m.n_kv = 4;
    m.tensors = t;
    m.n_tensors = 2;
    tfs_wbuf_init(w);
    uint8_t *out = NULL;
    assert_int_equal(tfs_gg_write(&m, w), TFS_OK);
    assert_int_equal(tfs_wbuf_flatten(w, CAP, &out, len), TFS_OK);
    *ti_start = UINT64_MAX;
    for (size_t i = 0; i < w->n_fields; i++)
        if (w->fields[i].kind == TFS_FIELD_TENSOR_INFO && w->fields[i].offset < *ti_start)
            *ti_start = w->fields[i].offset;
    free(toks);
    return out;
}

/* the integer fields the scan may edit */
static int int_kind(uint32_t k) {
    switch (k) {
    case TFS_FIELD_VERSION:
    case TFS_FIELD_N_TENSORS:
    case TFS_FIELD_N_KV:
    case TFS_FIELD_KEY_LEN:
    case TFS_FIELD_VALUE_TYPE:
    case TFS_FIELD_ELEM_TYPE:
    case TFS_FIELD_COUNT:
    case TFS_FIELD_STR_LEN:
    case TFS_FIELD_VALUE:
    case TFS_FIELD_NAME_LEN:
    case TFS_FIELD_N_DIMS:
    case TFS_FIELD_DIM:
    case TFS_FIELD_TYPE:
    case TFS_FIELD_OFFSET: return 1;
    default: return 0;
    }
}

/* the integer field of the map holding bytes [lo, hi], or NULL */
static const tfs_field *field_holding(const tfs_wbuf *w, uint64_t lo, uint64_t hi) {
    for (size_t i = 0; i < w->n_fields; i++) {
        const tfs_field *f = &w->fields[i];
        if (int_kind(f->kind) && f->offset <= lo && hi < f->offset + f->width) return f;
    }
    return NULL;
}

static int is_name(const char *chain, const char *name) { return strcmp(chain, name) == 0; }

static void test_gguf_edits_inside_fields(void **state) {
    (void)state;
    tfs_wbuf w;
    size_t len;
    uint64_t ti;
    uint8_t *seed = gguf_with_map(3, &len, &w, &ti);
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    int seen_kind[64] = {0};
    unsigned n_value = 0, n_flip = 0, n_cut = 0;
    for (uint64_t s = 0; s < 4000; s++) {
        memcpy(buf, seed, len);
        char chain[32];
        size_t q = tfs_mutate_quick(buf, len, len, s, chain, sizeof chain);
        assert_true(q > 0 && q <= len);
        if (is_name(chain, "quick.cut")) {
            n_cut++;
            assert_true(q < len);
            /* a field's start, a byte inside it or its end */
            assert_true(field_holding(&w, q, q) != NULL || field_holding(&w, q - 1, q - 1) != NULL);
            continue;
        }
        assert_int_equal(q, len);
        assert_true(is_name(chain, "quick.value") || is_name(chain, "quick.flip"));
        n_value += is_name(chain, "quick.value");
        n_flip += is_name(chain, "quick.flip");
        uint64_t lo = UINT64_MAX, hi = 0;
        for (size_t i = 0; i < len; i++)
            if (buf[i] != seed[i]) {
                if (lo == UINT64_MAX) lo = i;
                hi = i;
            }
        if (lo == UINT64_MAX) continue; /* a value equal to the old one */
        const tfs_field *f = field_holding(&w, lo, hi);
        assert_non_null(f); /* every changed byte in one integer field */
        seen_kind[f->kind] = 1;
    }
    /* every kind the file has, the tensor infos' among them */
    static const uint32_t kinds[] = {TFS_FIELD_N_TENSORS, TFS_FIELD_N_KV,   TFS_FIELD_KEY_LEN, TFS_FIELD_VALUE_TYPE,
                                     TFS_FIELD_ELEM_TYPE, TFS_FIELD_COUNT,  TFS_FIELD_STR_LEN, TFS_FIELD_VALUE,
                                     TFS_FIELD_NAME_LEN,  TFS_FIELD_N_DIMS, TFS_FIELD_DIM,     TFS_FIELD_TYPE,
                                     TFS_FIELD_OFFSET,    TFS_FIELD_VERSION};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (!seen_kind[kinds[k]]) fprintf(stderr, "field kind %u never edited\n", (unsigned)kinds[k]);
        assert_true(seen_kind[kinds[k]]);
    }
    assert_true(n_value > 1000 && n_flip > 300 && n_cut > 300);
    /* same input and seed: same output */
    uint8_t *again = malloc(len);
    assert_non_null(again);
    memcpy(buf, seed, len);
    memcpy(again, seed, len);
    assert_int_equal(tfs_mutate_quick(buf, len, len, 77, NULL, 0), tfs_mutate_quick(again, len, len, 77, NULL, 0));
    assert_memory_equal(buf, again, len);
    free(again);
    free(buf);
    free(seed);
    tfs_wbuf_free(&w);
}

/* the scan stops after 1,024 records and string elements: of an array of
 * 100,000 strings only the first ~1,020 are reached (nothing past element
 * 1,100), and no cut lands behind them */
static void test_gguf_scan_bounded(void **state) {
    (void)state;
    tfs_wbuf w;
    size_t len;
    uint64_t ti;
    uint8_t *seed = gguf_with_map(100000, &len, &w, &ti);
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    assert_true(ti > 200000 && ti < len);
    /* the string length field of element 1,100 of the array (KV 2) */
    uint64_t bound = 0;
    for (size_t i = 0; i < w.n_fields; i++)
        if (w.fields[i].kind == TFS_FIELD_STR_LEN && w.fields[i].record == 2 && w.fields[i].sub == 1100)
            bound = w.fields[i].offset;
    assert_true(bound > 1000 && bound < ti);
    ti = bound;
    uint64_t last = 0;
    for (uint64_t s = 0; s < 3000; s++) {
        memcpy(buf, seed, len);
        size_t q = tfs_mutate_quick(buf, len, len, s, NULL, 0);
        assert_true(q > 0);
        if (q < len) {
            assert_true(q < ti);
            continue;
        }
        for (size_t i = len; i-- > 0;)
            if (buf[i] != seed[i]) {
                assert_true(i < ti);
                if (i > last) last = i;
                break;
            }
    }
    /* and the array's strings are reached: edits past its first 100 bytes */
    assert_true(last > 100);
    free(buf);
    free(seed);
    tfs_wbuf_free(&w);
}

static int is_digit(uint8_t b) { return b >= '0' && b <= '9'; }

static void test_safetensors_edits(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = mut_seed_st("a", &len);
    assert_non_null(seed);
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    unsigned n_number = 0, n_header = 0;
    for (uint64_t s = 0; s < 3000; s++) {
        memcpy(buf, seed, len);
        char chain[32];
        size_t q = tfs_mutate_quick(buf, len, len, s, chain, sizeof chain);
        assert_true(q > 0 && q <= len);
        if (q < len) {
            assert_string_equal(chain, "quick.cut");
            continue;
        }
        for (size_t i = 0; i < len; i++) {
            if (buf[i] == seed[i]) continue;
            if (i < 8) { /* the header size */
                n_header++;
                continue;
            }
            /* inside the JSON: a digit of a number token, rewritten (number: to a digit) */
            assert_true(is_digit(seed[i]));
            if (is_name(chain, "quick.number")) assert_true(is_digit(buf[i]));
            n_number++;
        }
    }
    assert_true(n_number > 300 && n_header > 300);
    free(buf);
    free(seed);
}

static void test_no_field(void **state) {
    (void)state;
    uint8_t text[] = "hello, not a model at all";
    uint8_t keep[sizeof text];
    memcpy(keep, text, sizeof text);
    char chain[32] = "x";
    assert_int_equal(tfs_mutate_quick(text, sizeof text - 1, sizeof text, 1, chain, sizeof chain), 0);
    assert_memory_equal(text, keep, sizeof text);
    assert_string_equal(chain, "");
    assert_int_equal(tfs_mutate_quick(NULL, 0, 0, 1, NULL, 0), 0);
    assert_int_equal(tfs_mutate_quick(text, 0, sizeof text, 1, NULL, 0), 0);
    /* "GGUF" and too short for the version: no field */
    uint8_t magic[4] = {'G', 'G', 'U', 'F'};
    assert_int_equal(tfs_mutate_quick(magic, 4, 4, 1, NULL, 0), 0);
}

/* every prefix of both seeds, 16 seeds each: an output within the prefix
 * (the sanitizer builds check the reads) */
static void test_every_prefix(void **state) {
    (void)state;
    for (int fmt = 0; fmt < 2; fmt++) {
        size_t len;
        uint8_t *seed = fmt ? mut_seed_gguf("a", &len) : mut_seed_st("a", &len);
        assert_non_null(seed);
        for (size_t n = 0; n <= len; n++) {
            for (uint64_t s = 0; s < 16; s++) {
                uint8_t *buf = malloc(n ? n : 1); /* exactly n bytes: a read past them is a report */
                assert_non_null(buf);
                if (n) memcpy(buf, seed, n);
                size_t q = tfs_mutate_quick(buf, n, n, s, NULL, 0);
                assert_true(q <= n);
                free(buf);
            }
        }
        free(seed);
    }
}

static void test_crossover_quick(void **state) {
    (void)state;
    size_t na, nb;
    uint8_t *a = mut_seed_gguf("a", &na), *b = mut_seed_gguf("b", &nb);
    assert_non_null(a);
    assert_non_null(b);
    uint8_t *out = malloc(na + nb);
    assert_non_null(out);
    for (uint64_t s = 0; s < 500; s++) {
        size_t max = s % 2 ? na + nb : 1 + (size_t)(s % 97);
        size_t n = tfs_crossover_quick(a, na, b, nb, out, max, s);
        assert_true(n <= max);
        /* some split x: out = a[0, x) then b[y, y + n - x) with y + n - x = nb unless cut at max */
        int found = 0;
        for (size_t x = 0; x <= n && x <= na && !found; x++) {
            if (memcmp(out, a, x) != 0) break;
            size_t rest = n - x;
            if (rest > nb) continue;
            if (n == max) { /* cut: the tail is any run of b */
                for (size_t y = 0; y + rest <= nb && !found; y++) found = memcmp(out + x, b + y, rest) == 0;
            } else {
                found = memcmp(out + x, b + nb - rest, rest) == 0;
            }
        }
        assert_true(found);
    }
    assert_int_equal(tfs_crossover_quick(a, na, b, nb, NULL, 10, 1), 0);
    assert_int_equal(tfs_crossover_quick(a, na, b, nb, out, 0, 1), 0);
    assert_int_equal(tfs_crossover_quick(NULL, 3, b, nb, out, 10, 1), 0);
    free(out);
    free(a);
    free(b);
}

static void test_env_percent(void **state) {
    (void)state;
    assert_int_equal(tfs__mut_env_percent(NULL, 75), 75);
    assert_int_equal(tfs__mut_env_percent("", 75), 75);
    assert_int_equal(tfs__mut_env_percent("0", 75), 0);
    assert_int_equal(tfs__mut_env_percent("100", 75), 100);
    assert_int_equal(tfs__mut_env_percent("42", 75), 42);
    assert_int_equal(tfs__mut_env_percent("101", 75), 75);
    assert_int_equal(tfs__mut_env_percent("-5", 75), 75);
    assert_int_equal(tfs__mut_env_percent("50x", 75), 75);
    assert_int_equal(tfs__mut_env_percent("99999999999999999999", 75), 75);
}

/* In a child: TFS_MUTATOR_QUICK=q (NULL: unset), 1,000 front-end calls on
 * the GGUF seed; exit 0 when the calls traced "quick.*" are within [lo, hi]. */
static int quick_child(const char *q, unsigned lo, unsigned hi) {
    char path[] = "/tmp/tfs-quick-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 2;
    close(fd);
    setenv("TFS_MUTATOR_TRACE", path, 1);
    if (q)
        setenv("TFS_MUTATOR_QUICK", q, 1);
    else
        unsetenv("TFS_MUTATOR_QUICK");
    size_t len;
    uint8_t *seed = mut_seed_gguf("a", &len), *buf = malloc(CAP);
    if (!seed || !buf) return 2;
    unsigned quick = 0;
    uint32_t x = 2463534242u;
    for (unsigned i = 0; i < 1000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        memcpy(buf, seed, len);
        LLVMFuzzerCustomMutator(buf, len, CAP, x);
        char line[256] = {0};
        FILE *f = fopen(path, "r");
        if (!f || !fgets(line, sizeof line, f)) return 2;
        fclose(f);
        quick += strncmp(line, "quick.", 6) == 0;
    }
    unlink(path);
    free(seed);
    free(buf);
    if (quick < lo || quick > hi) {
        fprintf(stderr, "TFS_MUTATOR_QUICK=%s: %u of 1000 calls quick, want %u..%u\n", q ? q : "(unset)", quick, lo,
                hi);
        return 1;
    }
    return 0;
}

static void test_front_end_share(void **state) {
    (void)state;
    static const struct {
        const char *q;
        unsigned lo, hi;
    } cases[] = {{NULL, 850, 950}, {"0", 0, 0}, {"100", 1000, 1000}, {"30", 220, 380}, {"abc", 850, 950}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fflush(stdout);
        pid_t p = fork();
        assert_true(p >= 0);
        if (p == 0) _exit(quick_child(cases[i].q, cases[i].lo, cases[i].hi));
        int st;
        assert_int_equal(waitpid(p, &st, 0), p);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gguf_edits_inside_fields),
        cmocka_unit_test(test_gguf_scan_bounded),
        cmocka_unit_test(test_safetensors_edits),
        cmocka_unit_test(test_no_field),
        cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_crossover_quick),
        cmocka_unit_test(test_env_percent),
        cmocka_unit_test(test_front_end_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
