/* test_mutate_calc.c: the computed mutations (calc.*, mutators/m_calc.c)
 * and the public API of <tfs/mutate.h> around them.
 *  - every calc.* output is decoded by an independent decoder written here
 *    (GGUF tensor infos and header fields; safetensors shape and
 *    data_offsets numbers), not by libtfs, and the computed quantity is
 *    checked against the boundary in exact 128-bit-free arithmetic:
 *    calc.elements: product of dims is 2^32, 2^63 or 2^64 (+-1);
 *    calc.nbytes / calc.padded / calc.sum: byte size, padded size, running
 *    sum at or just past the boundary; calc.count_elem: count x size
 *    crosses it; calc.end_wrap: chained offsets whose end wraps past 2^64;
 *    calc.surrogate: a \uD8xx-\uDBxx escape followed by another token;
 *    calc.len_left: the length is the bytes left after it -1, 0, +1;
 *  - tfs_mutate options: the chain names what ran, families restrict the
 *    picks, max_stack, format of a skeleton; tfs_mutate_format;
 *    tfs_mutation_family;
 *  - the libFuzzer front end's TFS_MUTATOR_TRACE file names the chain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mut_seeds.h"
#include "tfs/mutate.h"
#include "tfs/tfs.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

#define CAP 200000u
#define GG_BIT (1u << TFS_FORMAT_GGUF)
#define ST_BIT (1u << TFS_FORMAT_SAFETENSORS)

/* ------------------------------------------------ a 128-bit value as hi:lo */
typedef struct u128 {
    uint64_t hi, lo;
} u128;

static u128 mul64(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    u128 r;
    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

static u128 mul128(u128 a, uint64_t b) /* a * b, a.hi * b must stay small */
{
    u128 r = mul64(a.lo, b);
    r.hi += a.hi * b;
    return r;
}

static u128 add128(u128 a, uint64_t b) {
    u128 r = {a.hi + (a.lo + b < a.lo), a.lo + b};
    return r;
}

/* distance of v from T in {2^32, 2^63, 2^64}: the smallest |v - T| */
static uint64_t dist_to_boundary(u128 v) {
    const u128 t[3] = {{0, (uint64_t)1 << 32}, {0, (uint64_t)1 << 63}, {1, 0}};
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t d;
        if (v.hi == t[i].hi)
            d = v.lo > t[i].lo ? v.lo - t[i].lo : t[i].lo - v.lo;
        else if (v.hi == t[i].hi + 1 && v.lo < ((uint64_t)1 << 62))
            d = v.lo + (0 - t[i].lo); /* just past 2^64 from below it */
        else if (v.hi + 1 == t[i].hi && v.lo > ((uint64_t)1 << 62))
            d = 0 - v.lo; /* just under 2^64 */
        else
            continue;
        if (d < best) best = d;
    }
    return best;
}

/* ------------------------------------------- an independent GGUF decoder */
typedef struct gti {
    uint32_t n_dims, type;
    uint64_t ne[8], offset;
    uint64_t name_len_at; /* file offset of the name length field */
} gti;

typedef struct gfile {
    uint64_t n_tensors, n_kv, alignment;
    uint64_t key_len_at, key_len; /* the first KV's key length field */
    gti t[16];
    size_t nt;
    int ok;
} gfile;

static int rd(const uint8_t *d, size_t n, size_t *at, void *out, size_t w) {
    if (*at > n || n - *at < w) return -1;
    memcpy(out, d + *at, w);
    *at += w;
    return 0;
}

static const size_t vsize[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

static int skip_value(const uint8_t *d, size_t n, size_t *at, uint32_t type, int depth) {
    if (type == 8) {
        uint64_t len;
        if (rd(d, n, at, &len, 8) || len > n - *at) return -1;
        *at += len;
        return 0;
    }
    if (type == 9 && depth == 0) {
        uint32_t et;
        uint64_t cnt;
        if (rd(d, n, at, &et, 4) || rd(d, n, at, &cnt, 8) || et > 12 || cnt > n) return -1;
        for (uint64_t i = 0; i < cnt; i++)
            if (skip_value(d, n, at, et, 1)) return -1;
        return 0;
    }
    if (type > 12 || vsize[type] == 0 || *at + vsize[type] > n) return -1;
    *at += vsize[type];
    return 0;
}

static gfile gdecode(const uint8_t *d, size_t n) {
    gfile g;
    memset(&g, 0, sizeof g);
    g.alignment = 32;
    size_t at = 8;
    if (n < 24 || memcmp(d, "GGUF", 4) || rd(d, n, &at, &g.n_tensors, 8) || rd(d, n, &at, &g.n_kv, 8)) return g;
    for (uint64_t k = 0; k < g.n_kv; k++) {
        uint64_t klen;
        uint32_t type;
        if (k == 0) g.key_len_at = at;
        if (rd(d, n, &at, &klen, 8) || klen > n - at) return g;
        if (k == 0) g.key_len = klen;
        int is_align = klen == 17 && memcmp(d + at, "general.alignment", 17) == 0;
        at += klen;
        if (rd(d, n, &at, &type, 4)) return g;
        if (is_align && type == 4) {
            uint32_t a;
            memcpy(&a, d + at, 4);
            g.alignment = a;
        }
        if (skip_value(d, n, &at, type, 0)) return g;
    }
    for (uint64_t i = 0; i < g.n_tensors && g.nt < 16; i++) {
        gti *t = &g.t[g.nt];
        uint64_t nlen;
        t->name_len_at = at;
        if (rd(d, n, &at, &nlen, 8) || nlen > n - at) return g;
        at += nlen;
        if (rd(d, n, &at, &t->n_dims, 4) || t->n_dims > 8) return g;
        for (uint32_t j = 0; j < t->n_dims; j++)
            if (rd(d, n, &at, &t->ne[j], 8)) return g;
        if (rd(d, n, &at, &t->type, 4) || rd(d, n, &at, &t->offset, 8)) return g;
        g.nt++;
    }
    g.ok = 1;
    return g;
}

/* ggml block size and type size of the types the mutations use (ggml's
 * table, typed here independently: f32, f16, q4_0, q8_0, i8, bf16) */
static int ggml_sizes(uint32_t type, uint64_t *bs, uint64_t *ts) {
    switch (type) {
    case 0: *bs = 1, *ts = 4; return 1;
    case 1: *bs = 1, *ts = 2; return 1;
    case 2: *bs = 32, *ts = 18; return 1;
    case 8: *bs = 32, *ts = 34; return 1;
    case 24: *bs = 1, *ts = 1; return 1;
    case 30: *bs = 1, *ts = 2; return 1;
    default: return 0;
    }
}

static u128 elements(const gti *t) {
    u128 p = {0, 1};
    for (uint32_t j = 0; j < t->n_dims; j++) p = mul128(p, t->ne[j]);
    return p;
}

/* ----------------------------------------------------------------- seeds */
static uint8_t *seed_gg(size_t *len) { return mut_seed_gguf("a", len); }
static uint8_t *seed_st(size_t *len) { return mut_seed_st("a", len); }

static size_t run(const char *name, uint8_t *buf, const uint8_t *seed, size_t len, uint64_t s) {
    int i = tfs_mutation_find(name);
    assert_true(i >= 0);
    memcpy(buf, seed, len);
    return tfs_mutate_one(buf, len, CAP, s, i);
}

/* ----------------------------------------------------------------- tests */
static void test_elements(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = seed_gg(&len), *buf = malloc(CAP);
    int hit = 0;
    for (uint64_t s = 1; s <= 24; s++) {
        size_t n = run("calc.elements", buf, seed, len, s);
        gfile g = gdecode(buf, n);
        assert_true(g.ok);
        for (size_t i = 0; i < g.nt; i++) {
            if (g.t[i].n_dims != 2) continue;
            u128 e = elements(&g.t[i]);
            if (dist_to_boundary(e) <= 1) {
                hit++;
                assert_true(g.t[i].ne[0] < ((uint64_t)1 << 63) && g.t[i].ne[1] < ((uint64_t)1 << 63));
            }
        }
    }
    assert_true(hit >= 24); /* every seed made one */
    free(seed);
    free(buf);
}

static void test_nbytes_padded_sum(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = seed_gg(&len), *buf = malloc(CAP);
    const char *names[] = {"calc.nbytes", "calc.padded", "calc.sum"};
    for (int m = 0; m < 3; m++) {
        int hit = 0;
        for (uint64_t s = 1; s <= 24; s++) {
            size_t n = run(names[m], buf, seed, len, s);
            gfile g = gdecode(buf, n);
            assert_true(g.ok);
            uint64_t a = g.alignment ? g.alignment : 32;
            u128 sum = {0, 0};
            int found = 0;
            for (size_t i = 0; i < g.nt && !found; i++) {
                uint64_t bs, ts;
                if (!ggml_sizes(g.t[i].type, &bs, &ts)) break;
                u128 e = elements(&g.t[i]);
                /* bytes = e / bs * ts; e is a multiple of bs here */
                u128 blocks = e;
                if (bs > 1) {
                    assert_int_equal(g.t[i].ne[0] % bs, 0);
                    blocks = mul128(elements(&(gti){.n_dims = 1, .ne = {g.t[i].ne[0] / bs}}), 1);
                    for (uint32_t j = 1; j < g.t[i].n_dims; j++) blocks = mul128(blocks, g.t[i].ne[j]);
                }
                u128 bytes = mul128(blocks, ts);
                /* padded: bytes rounded up to a (a power of two) */
                u128 padded = add128(bytes, (a - bytes.lo % a) % a);
                if (m == 0 && dist_to_boundary(bytes) <= ts) found = 1;
                if (m == 1 && dist_to_boundary(padded) <= a && dist_to_boundary(bytes) < a + ts) found = 1;
                u128 after = {sum.hi + padded.hi + (sum.lo + padded.lo < sum.lo), sum.lo + padded.lo};
                if (m == 2 && i + 1 == g.nt && dist_to_boundary(after) <= a + ts) found = 1;
                sum = after;
            }
            hit += found;
        }
        if (hit < 20) fail_msg("%s: %d of 24 seeds landed on a boundary", names[m], hit);
    }
    free(seed);
    free(buf);
}

static void test_count_elem_and_len_left(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = seed_gg(&len), *buf = malloc(CAP);
    int changed = 0, left_hits = 0;
    for (uint64_t s = 1; s <= 24; s++) {
        size_t n = run("calc.count_elem", buf, seed, len, s);
        if (n != len || memcmp(buf, seed, len) != 0) changed++;
        /* n_kv or n_tensors changed: count x some record size >= 2^32 */
        uint64_t nt, nk;
        memcpy(&nt, buf + 8, 8);
        memcpy(&nk, buf + 16, 8);
        gfile g0 = gdecode(seed, len);
        if (nt != g0.n_tensors || nk != g0.n_kv) {
            uint64_t c = nt != g0.n_tensors ? nt : nk;
            assert_true(c >= ((uint64_t)1 << 32) / 352 - 1);
        }
        n = run("calc.len_left", buf, seed, len, s);
        /* the first KV's key length or a tensor name length: compare with the seed's fields */
        gfile g = gdecode(seed, len);
        uint64_t v;
        memcpy(&v, buf + g.key_len_at, 8);
        uint64_t left = n - (g.key_len_at + 8);
        if (v != g.key_len && v + 1 >= left && v <= left + 1) left_hits++;
        for (size_t i = 0; i < g.nt; i++) {
            memcpy(&v, buf + g.t[i].name_len_at, 8);
            uint64_t l2 = n - (g.t[i].name_len_at + 8);
            if (v + 1 >= l2 && v <= l2 + 1) left_hits++;
        }
    }
    assert_true(changed >= 22);
    assert_true(left_hits >= 3);
    free(seed);
    free(buf);
}

/* safetensors: "name":{"dtype":..,"shape":[..],"data_offsets":[b,e]} */
static int st_numbers(const uint8_t *d, size_t n, const char *member, size_t which, uint64_t *out, size_t max) {
    if (n < 8) return -1;
    uint64_t hl;
    memcpy(&hl, d, 8);
    if (hl > n - 8) return -1;
    char *j = malloc(hl + 1);
    memcpy(j, d + 8, hl);
    j[hl] = '\0';
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", member);
    char *p = j;
    for (size_t k = 0; p && k <= which; k++) {
        p = strstr(p, key);
        if (p && k < which) p += strlen(key);
    }
    int cnt = -1;
    if (p && (p = strchr(p, '[')) != NULL) {
        cnt = 0;
        p++;
        while (*p && *p != ']' && (size_t)cnt < max) {
            char *e;
            out[cnt++] = strtoull(p, &e, 10);
            p = e;
            while (*p == ',' || *p == ' ') p++;
        }
    }
    free(j);
    return cnt;
}

static int has(const uint8_t *d, size_t n, const char *s) {
    size_t k = strlen(s);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(d + i, s, k) == 0) return 1;
    return 0;
}

static void test_st_calc(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = seed_st(&len), *buf = malloc(CAP);
    int el = 0, wrap = 0, sur = 0;
    for (uint64_t s = 1; s <= 16; s++) {
        size_t n = run("calc.elements", buf, seed, len, s);
        for (size_t w = 0; w < 8; w++) {
            uint64_t sh[8];
            int k = st_numbers(buf, n, "shape", w, sh, 8);
            if (k == 2 && dist_to_boundary(mul64(sh[0], sh[1])) <= 1) el++;
        }
        n = run("calc.end_wrap", buf, seed, len, s);
        /* entries chain (begin = the previous end) until one's end is
         * below its begin: begin + size wrapped past 2^64 */
        uint64_t o[2], prev_end = 0;
        for (size_t w = 0; w < 6 && st_numbers(buf, n, "data_offsets", w, o, 2) == 2; w++) {
            assert_true(o[0] == prev_end);
            if (o[1] < o[0]) {
                assert_true(o[0] >= ((uint64_t)1 << 62));
                wrap++;
                break;
            }
            prev_end = o[1];
        }
        n = run("calc.surrogate", buf, seed, len, s);
        if (has(buf, n, "\\uD800") || has(buf, n, "\\uDBFF")) sur++;
    }
    assert_int_equal(el >= 16, 1);
    assert_int_equal(wrap, 16);
    assert_int_equal(sur, 16);
    free(seed);
    free(buf);
}

static void test_gg_end_wrap(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = seed_gg(&len), *buf = malloc(CAP);
    for (uint64_t s = 1; s <= 8; s++) {
        size_t n = run("calc.end_wrap", buf, seed, len, s);
        gfile g = gdecode(buf, n);
        assert_true(g.ok && g.nt >= 3);
        /* the last copies chain: offset[i+1] = offset[i] + padded size (mod
         * 2^64), and some end (offset + size) is past 2^64 */
        int wrapped = 0;
        for (size_t i = 0; i < g.nt; i++) {
            if (g.t[i].type != 0 || g.t[i].ne[0] < ((uint64_t)1 << 60)) continue;
            uint64_t bytes = g.t[i].ne[0] * 4;
            if (g.t[i].offset + bytes < g.t[i].offset) wrapped++;
            if (i + 1 < g.nt && g.t[i + 1].ne[0] == g.t[i].ne[0]) {
                uint64_t pad = (bytes + g.alignment - 1) / g.alignment * g.alignment;
                assert_true(g.t[i + 1].offset == g.t[i].offset + pad);
            }
        }
        assert_true(wrapped >= 1);
    }
    free(seed);
    free(buf);
}

static void test_options(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = seed_gg(&len), *buf = malloc(CAP);
    /* families: every pick is a calc.* one; the chain names them */
    for (uint64_t s = 1; s <= 40; s++) {
        char chain[256];
        tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
        o.families = "calc";
        o.max_stack = 5;
        o.chain = chain;
        o.chain_size = sizeof chain;
        memcpy(buf, seed, len);
        tfs_mutate(buf, len, CAP, s, &o);
        assert_true(strncmp(chain, "calc.", 5) == 0);
        for (char *p = strchr(chain, '+'); p; p = strchr(p + 1, '+')) assert_true(strncmp(p + 1, "calc.", 5) == 0);
        int parts = 1;
        for (char *p = chain; *p; p++) parts += *p == '+';
        assert_true(parts <= 5);
    }
    /* the chain of an explicit mutation is its name; a cut chain stays terminated */
    char small[6];
    tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
    o.mutation = tfs_mutation_find("offset.swap");
    o.chain = small;
    o.chain_size = sizeof small;
    memcpy(buf, seed, len);
    tfs_mutate(buf, len, CAP, 3, &o);
    assert_string_equal(small, "");
    char chain[64];
    o.chain = chain;
    o.chain_size = sizeof chain;
    memcpy(buf, seed, len);
    tfs_mutate(buf, len, CAP, 3, &o);
    assert_string_equal(chain, "offset.swap");
    /* NULL options = defaults = tfs_mutate_one(-1) */
    uint8_t *b2 = malloc(CAP);
    memcpy(buf, seed, len);
    memcpy(b2, seed, len);
    size_t n1 = tfs_mutate(buf, len, CAP, 9, NULL), n2 = tfs_mutate_one(b2, len, CAP, 9, -1);
    assert_int_equal(n1, n2);
    assert_memory_equal(buf, b2, n1);
    /* format of the skeleton for an unknown input */
    for (int f = TFS_FORMAT_SAFETENSORS; f <= TFS_FORMAT_GGUF; f++) {
        tfs_mutate_options of = TFS_MUTATE_OPTIONS_INIT;
        of.format = f;
        of.families = "offset";
        memset(buf, 'x', 40);
        size_t n = tfs_mutate(buf, 40, CAP, 5, &of);
        assert_int_equal(tfs_mutate_format(buf, n), f);
    }
    /* format detection */
    assert_int_equal(tfs_mutate_format(seed, len), TFS_FORMAT_GGUF);
    size_t sl;
    uint8_t *st = seed_st(&sl);
    assert_int_equal(tfs_mutate_format(st, sl), TFS_FORMAT_SAFETENSORS);
    assert_int_equal(tfs_mutate_format((const uint8_t *)"GGU", 3), TFS_FORMAT_UNKNOWN);
    assert_int_equal(tfs_mutate_format(NULL, 0), TFS_FORMAT_UNKNOWN);
    /* families: names in table order, calc among them, out of range NULL */
    int nf = tfs_mutation_family_count(), saw_calc = 0;
    assert_true(nf >= 14);
    for (int i = 0; i < nf; i++) {
        const char *f = tfs_mutation_family(i);
        assert_non_null(f);
        saw_calc |= strcmp(f, "calc") == 0;
    }
    assert_true(saw_calc);
    assert_null(tfs_mutation_family(nf));
    assert_null(tfs_mutation_family(-1));
    free(st);
    free(b2);
    free(seed);
    free(buf);
}

/* the libFuzzer front end keeps the chain of the current input in
 * TFS_MUTATOR_TRACE; an input equal to the last output continues it */
static void test_trace_file(void **state) {
    (void)state;
    char path[] = "/tmp/tfs-trace-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    setenv("TFS_MUTATOR_TRACE", path, 1);
    size_t len;
    uint8_t *seed = seed_gg(&len), *buf = malloc(CAP);
    memcpy(buf, seed, len);
    size_t n = LLVMFuzzerCustomMutator(buf, len, CAP, 1234);
    char line[4096] = {0};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    /* one to three names of the table */
    size_t parts = 1;
    for (char *p = line; *p; p++) parts += *p == '+';
    assert_true(parts >= 1 && parts <= 3);
    char first[128];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(line, "+"), line);
    /* a name of the table, or of the quick path (tfs_mutate_quick) */
    assert_true(tfs_mutation_find(first) >= 0 || strcmp(first, "none") == 0 || strcmp(first, "quick.value") == 0 ||
                strcmp(first, "quick.number") == 0 || strcmp(first, "quick.flip") == 0 ||
                strcmp(first, "quick.cut") == 0);
    /* continue on the output: the chain grows */
    LLVMFuzzerCustomMutator(buf, n, CAP, 99);
    char line2[4096] = {0};
    f = fopen(path, "r");
    assert_non_null(fgets(line2, sizeof line2, f));
    fclose(f);
    assert_true(strncmp(line2, line, strlen(line)) == 0 && line2[strlen(line)] == '+');
    /* another input: a new chain */
    memcpy(buf, seed, len);
    buf[len - 1] ^= 1;
    LLVMFuzzerCustomMutator(buf, len, CAP, 7);
    f = fopen(path, "r");
    assert_non_null(fgets(line2, sizeof line2, f));
    fclose(f);
    parts = 1;
    for (char *p = line2; *p && *p != '\n'; p++) parts += *p == '+';
    assert_true(parts <= 3);
    close(fd);
    unlink(path);
    free(seed);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elements),
        cmocka_unit_test(test_nbytes_padded_sum),
        cmocka_unit_test(test_count_elem_and_len_left),
        cmocka_unit_test(test_st_calc),
        cmocka_unit_test(test_gg_end_wrap),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_trace_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
