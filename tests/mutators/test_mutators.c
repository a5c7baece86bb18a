/* test_mutators.c: the mutation core (mutators/tfs_mutate.h).
 *  - names: unique, found again, every one documented;
 *  - determinism: same input, seed, mutation and max size give the same bytes;
 *  - claims: every named mutation, applied to a GGUF and/or a safetensors
 *    seed (written by the C writer), changes the file and gives the verdict
 *    it claims (a rule of the expected family, or valid and a strict rule, or
 *    a shorter file for trunc.*), for seeds 1..8;
 *  - bounds: outputs never exceed max_size, also for tiny max sizes;
 *  - robustness: random bytes and damaged seeds through mutation -1 and
 *    every named mutation (run under ASan + UBSan in that preset);
 *  - crossover: a child holds records of both parents;
 *  - the libFuzzer front end (LLVMFuzzerCustomMutator / CustomCrossOver).
 * TFS_MUT_TEST_DUMP=1 prints every outcome (to write the table). */
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
#include "tfs_mutate.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2, uint8_t *out,
                                 size_t max_out_size, unsigned int seed);

#define GG_BIT (1u << TFS_FORMAT_GGUF)
#define ST_BIT (1u << TFS_FORMAT_SAFETENSORS)
#define CAP 200000u
#define N_SEEDS 8

/* What each mutation claims, per format: '|'-separated alternatives, each
 * a prefix of the outcome: a rule id ("GG302"), "valid", "strict:ST501"
 * (valid by default, rejected by --strict), "short" (a shorter file, any
 * verdict), "long" (a longer file). */
typedef struct claim {
    const char *name;
    const char *gguf;
    const char *st;
} claim;

static const claim claims[] = {
    {"offset.swap", "GG302", "ST306|ST301"},
    {"offset.overlap", "GG302", "ST301"},
    {"offset.hole", "GG302", "ST301"},
    {"offset.off_by_one", "GG302", "ST301|ST306|ST302"},
    {"offset.reorder", "GG302", "valid"},
    {"offset.share", "GG302", "ST301"},
    {"trunc.prefix", "short", "short"},
    {"trunc.header", "short", "short"},
    {"trunc.data_start", "short", "short"},
    {"trunc.last_tensor", "short", "short"},
    {"trunc.after_last", "short", "ST307"},
    {"trunc.padding", "short", "ST003"},
    {"align.odd", "GG141", NULL},
    {"align.zero", "GG141", NULL},
    {"align.huge", "GG301|GG302|GG304|valid", NULL},
    {"align.type", "GG140", NULL},
    {"align.unpadded", "GG304|GG302|GG301", "valid"},
    {"align.misaligned", "GG302", "valid"},
    {"align.pad_byte", "strict:GG503", "strict:ST507|ST112"},
    {"hdr.size_plus", NULL, "ST112|ST110|ST111|ST003|ST307|ST308"},
    {"hdr.size_minus", NULL, "ST111|ST307|ST110|ST308"},
    {"hdr.size_huge", NULL, "ST002|ST003"},
    {"hdr.size_tiny", NULL, "ST111"},
    {"hdr.version", "GG01", NULL},
    {"hdr.magic", "GG002", NULL},
    {"count.n_tensors", "GG0|GG1|GG2", NULL},
    {"count.n_kv", "GG0|GG1|GG2", NULL},
    {"count.array", "GG1", NULL},
    {"count.deflate", "GG|valid", NULL},
    {"strlen.key", "GG1|GG2", NULL},
    {"strlen.value", "GG1|GG2", NULL},
    {"strlen.element", "GG1|GG2", NULL},
    {"strlen.name", "GG2|GG1", NULL},
    {"type.valid", "valid", "valid"},
    {"type.stale", "GG302|GG210|GG304", "ST306|ST305"},
    {"type.removed", "GG209", "ST210"},
    {"type.out_of_range", "GG208", "ST211|ST210"},
    {"shape.zero", "valid", "valid"},
    {"shape.overflow", "GG206|GG207|GG205", "ST303"},
    {"shape.wrap0", "GG211|GG305|GG303", "ST303|ST304"},
    {"shape.wrap_match", "GG206|GG207", "ST303"},
    {"shape.ndims", "GG204", "ST306|valid"},
    {"shape.ndims_field", "GG2|GG1|GG3", NULL},
    {"shape.negative", "GG205", "ST220|ST222|ST110"},
    {"shape.block", "GG210", "ST305"},
    {"shape.scalar", "valid", "valid"},
    {"dup.key", "GG111", "strict:ST503"},
    {"dup.name", "GG203", "strict:ST501"},
    {"dup.alias", "GG203", "strict:ST501"},
    {"dup.metadata", NULL, "ST403"},
    {"kv.type_confusion", "GG", NULL},
    {"kv.bad_type", "GG120", NULL},
    {"kv.bad_elem", "GG121", NULL},
    {"kv.nested_array", "GG121", NULL},
    {"kv.bool", "strict:GG501", NULL},
    {"kv.empty_key", "GG110", NULL},
    {"kv.key_utf8", "strict:GG504", NULL},
    {"kv.key_long", "strict:GG505|valid", NULL},
    {"json.num_2p53", NULL, "ST222|ST301|ST306|ST302|ST308"},
    {"json.num_2p64", NULL, "ST222|ST117|ST301|ST306"},
    {"json.num_form", NULL, "ST110|ST222|ST117"},
    {"json.escape", NULL, "valid"},
    {"json.bad_escape", NULL, "ST115|ST110|ST111"},
    {"json.surrogate", NULL, "ST116|valid"},
    {"json.depth", NULL, "ST113|strict:ST504"},
    {"json.ws", NULL, "ST110|ST112|strict:ST502|valid"},
    {"json.trailing", NULL, "ST112"},
    {"json.dup_field", NULL, "ST203"},
    {"json.missing_field", NULL, "ST202"},
    {"json.unknown_field", NULL, "strict:ST504"},
    {"json.array_form", NULL, "strict:ST505|ST204"},
    {"json.map_dtype", NULL, "strict:ST506"},
    {"json.offsets_shape", NULL, "ST221|ST222"},
    {"json.control", NULL, "ST114"},
    {"json.utf8", NULL, "ST101"},
    {"json.not_object", NULL, "ST118|ST111"},
    {"json.meta_type", NULL, "ST401|ST402|valid"},
    {"bug.G1", "GG204", NULL},
    {"bug.G2", "GG303", NULL},
    {"bug.G3", "GG305", NULL},
    {"bug.G4", "GG304|GG212", NULL},
    {"bug.G5", "GG101|GG102", NULL},
    {"bug.G6", "GG110", NULL},
    {"bug.G7", "valid", NULL},
    {"bug.G8", "GG140", NULL},
    {"bug.G9", "valid", NULL},
    {"bug.G10", "valid", NULL},
    {"bug.G11", "GG304|GG302", NULL},
    {"bug.G12", "GG205", NULL},
    {"bug.G13", "GG204", NULL},
    {"bug.G14", "GG012", NULL},
    {"bug.G15", "GG302", NULL},
    {"bug.G16", "GG", NULL},
    {"bug.S1", NULL, "strict:ST501"},
    {"bug.S2", NULL, "ST301"},
    {"bug.S3", NULL, "ST002|ST003"},
    {"bug.S4", NULL, "valid"},
    {"bug.S5", NULL, "ST302|ST301|ST308"},
    {"bug.S6", NULL, "ST301"},
    {"bug.S7", NULL, "ST113"},
    {"bug.S8", NULL, "ST303"},
    {"byte.field", "GG|valid|strict", "ST|valid|strict"},
    {"byte.flip", "GG|valid|strict", "ST|valid|strict"},
    {"byte.interesting", "GG|valid|strict", "ST|valid|strict"},
    {"calc.elements", "GG206|GG207|GG211|GG304", "ST303|ST304|ST308"},
    {"calc.nbytes", "GG211|GG304|GG305", "ST304|ST308"},
    {"calc.padded", "GG211|GG304|GG305", NULL},
    {"calc.sum", "GG303|GG304", NULL},
    {"calc.count_elem", "GG0|GG1", NULL},
    {"calc.end_wrap", "GG303", "ST304"},
    {"calc.surrogate", NULL, "ST116|ST1|valid"},
    {"calc.len_left", "GG1|GG2", "ST003|ST112"},
};
#define N_CLAIMS (sizeof claims / sizeof claims[0])

static const claim *claim_of(const char *name) {
    for (size_t i = 0; i < N_CLAIMS; i++)
        if (strcmp(claims[i].name, name) == 0) return &claims[i];
    return NULL;
}

/* "GG302", "valid", "strict:ST501" */
static void outcome(const uint8_t *p, size_t n, tfs_format f, char *out, size_t cap) {
    tfs_error e;
    tfs_status st = tfs_parse_buffer(p, n, f, 0, NULL, &e);
    if (st == TFS_INVALID) {
        snprintf(out, cap, "%s", tfs_rule_id(e.rule));
        return;
    }
    assert_int_equal(st, TFS_OK);
    st = tfs_parse_buffer(p, n, f, TFS_STRICT, NULL, &e);
    if (st == TFS_INVALID)
        snprintf(out, cap, "strict:%s", tfs_rule_id(e.rule));
    else
        snprintf(out, cap, "valid");
}

static int matches(const char *alts, const char *got, size_t in_len, size_t out_len) {
    const char *p = alts;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if ((n == 5 && strncmp(p, "short", 5) == 0 && out_len < in_len) ||
            (n == 4 && strncmp(p, "long", 4) == 0 && out_len > in_len) || strncmp(got, p, n) == 0)
            return 1;
        p += n + (bar ? 1 : 0);
    }
    return 0;
}

static uint8_t *seed_of(unsigned fbit, size_t *len) {
    return fbit == GG_BIT ? mut_seed_gguf("a", len) : mut_seed_st("a", len);
}

static void test_names(void **state) {
    (void)state;
    int n = tfs_mutation_count();
    assert_true(n >= 100);
    for (int i = 0; i < n; i++) {
        const char *name = tfs_mutation_name(i);
        assert_non_null(name);
        assert_int_equal(tfs_mutation_find(name), i);
        assert_non_null(tfs_mutation_doc(i));
        assert_true(strlen(tfs_mutation_doc(i)) > 5);
        unsigned f = tfs_mutation_formats(i);
        assert_true(f != 0 && (f & ~(GG_BIT | ST_BIT)) == 0);
        const claim *c = claim_of(name);
        if (!c) fail_msg("mutation %s has no claim in this test", name);
        assert_int_equal(c->gguf != NULL, (f & GG_BIT) != 0);
        assert_int_equal(c->st != NULL, (f & ST_BIT) != 0);
    }
    assert_null(tfs_mutation_name(n));
    assert_null(tfs_mutation_name(-1));
    assert_int_equal(tfs_mutation_find("no.such"), -1);
    assert_int_equal(tfs_mutation_formats(n), 0);
}

static void test_determinism(void **state) {
    (void)state;
    unsigned bits[2] = {GG_BIT, ST_BIT};
    for (int b = 0; b < 2; b++) {
        size_t len;
        uint8_t *seed = seed_of(bits[b], &len);
        assert_non_null(seed);
        uint8_t *x = malloc(CAP), *y = malloc(CAP);
        for (int i = -1; i < tfs_mutation_count(); i++) {
            for (uint64_t s = 1; s <= 3; s++) {
                memcpy(x, seed, len);
                memcpy(y, seed, len);
                size_t nx = tfs_mutate_one(x, len, CAP, s * 7919u, i);
                size_t ny = tfs_mutate_one(y, len, CAP, s * 7919u, i);
                assert_int_equal(nx, ny);
                assert_memory_equal(x, y, nx);
            }
        }
        /* another seed, another output (for mutation -1, over a few seeds) */
        int differ = 0;
        memcpy(x, seed, len);
        size_t n0 = tfs_mutate_one(x, len, CAP, 1, -1);
        for (uint64_t s = 2; s < 10 && !differ; s++) {
            memcpy(y, seed, len);
            size_t n1 = tfs_mutate_one(y, len, CAP, s, -1);
            differ = n1 != n0 || memcmp(x, y, n0) != 0;
        }
        assert_true(differ);
        free(x);
        free(y);
        free(seed);
    }
}

/* tfs_mutate_source (header read through a byte source, output as segments
 * with holes: `tfs mutate`) gives the bytes tfs_mutate gives for the whole
 * file in a buffer, for every mutation and a few seeds, on both seeds and
 * on their copies with a data section grown by 1 MiB of holes-to-be. */
typedef struct img {
    uint8_t *p;
    size_t cap, size;
    int holes;
} img;
static int img_sink(void *ctx, uint64_t off, const uint8_t *bytes, uint64_t len) {
    img *m = ctx;
    if (off != m->size || off + len > m->cap) return 1; /* segments in order, contiguous, within the cap */
    if (bytes)
        memcpy(m->p + off, bytes, (size_t)len);
    else {
        memset(m->p + off, 0, (size_t)len);
        m->holes++;
    }
    m->size = (size_t)(off + len);
    return 0;
}
typedef struct buf_src {
    const uint8_t *p;
    size_t n;
} buf_src;
static int buf_read(void *ctx, uint64_t off, void *out, size_t len, size_t *got) {
    const buf_src *b = ctx;
    *got = 0;
    if (off >= b->n) return 0;
    *got = len < b->n - off ? len : (size_t)(b->n - off);
    memcpy(out, b->p + off, *got);
    return 0;
}
static void test_source_equals_buffer(void **state) {
    (void)state;
    unsigned bits[2] = {GG_BIT, ST_BIT};
    uint8_t *x = malloc(CAP);
    img m = {malloc(CAP), CAP, 0, 0};
    assert_non_null(x);
    assert_non_null(m.p);
    int compared = 0, with_holes = 0;
    for (int b = 0; b < 2; b++) {
        size_t len;
        uint8_t *seed = seed_of(bits[b], &len);
        assert_non_null(seed);
        for (int i = -1; i < tfs_mutation_count(); i++) {
            for (uint64_t s = 1; s <= 3; s++) {
                memcpy(x, seed, len);
                char chain_x[128], chain_m[128];
                tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
                o.mutation = i;
                o.chain = chain_x;
                o.chain_size = sizeof chain_x;
                size_t nx = tfs_mutate(x, len, CAP, s * 104729u, &o);
                buf_src bs = {seed, len};
                tfs_source src = {buf_read, &bs, len, 0};
                tfs_mutate_info info;
                uint64_t out_size = 0;
                m.size = 0;
                m.holes = 0;
                o.chain = chain_m;
                int rc = tfs_mutate_source(&src, CAP, s * 104729u, &o, img_sink, &m, &out_size, &info);
                if (rc == 1) { /* not applicable: tfs_mutate left the input as it was */
                    assert_int_equal(nx, len);
                    assert_memory_equal(x, seed, len);
                    continue;
                }
                assert_int_equal(rc, 0);
                assert_int_equal(out_size, m.size);
                assert_int_equal(nx, m.size);
                assert_memory_equal(x, m.p, nx);
                assert_true(info.n >= 1 && info.n <= 3);
                assert_string_equal(chain_x, chain_m); /* same mutations named */
                if (i >= 0) assert_int_equal(info.mutation[0], i);
                compared++;
                with_holes += m.holes > 0;
            }
        }
        free(seed);
    }
    assert_true(compared > 100);
    assert_true(with_holes > 0); /* the data sections came as holes */
    /* a forward-only source is refused */
    buf_src bs = {x, 16};
    tfs_source fwd = {buf_read, &bs, 16, 1};
    assert_int_equal(tfs_mutate_source(&fwd, CAP, 1, NULL, img_sink, &m, NULL, NULL), -2);
    free(x);
    free(m.p);
}

static void test_claims(void **state) {
    (void)state;
    int dump = getenv("TFS_MUT_TEST_DUMP") != NULL;
    unsigned bits[2] = {GG_BIT, ST_BIT};
    uint8_t *buf = malloc(CAP);
    int failures = 0;
    for (int b = 0; b < 2; b++) {
        size_t len;
        uint8_t *seed = seed_of(bits[b], &len);
        tfs_format f = bits[b] == GG_BIT ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
        char got[64];
        outcome(seed, len, f, got, sizeof got);
        assert_string_equal(got, "valid");
        for (int i = 0; i < tfs_mutation_count(); i++) {
            if (!(tfs_mutation_formats(i) & bits[b])) continue;
            const claim *c = claim_of(tfs_mutation_name(i));
            assert_non_null(c);
            const char *want = b == 0 ? c->gguf : c->st;
            for (uint64_t s = 1; s <= N_SEEDS; s++) {
                memcpy(buf, seed, len);
                size_t n = tfs_mutate_one(buf, len, CAP, s, i);
                assert_true(n <= CAP && n > 0);
                /* the mutation changed the file */
                if (n == len && memcmp(buf, seed, len) == 0) {
                    printf("%s seed %u: unchanged\n", c->name, (unsigned)s);
                    failures++;
                    continue;
                }
                outcome(buf, n, f, got, sizeof got);
                if (dump) printf("%-20s %s s%u %s (%zu -> %zu)\n", c->name, b ? "st" : "gg", (unsigned)s, got, len, n);
                if (!matches(want, got, len, n)) {
                    printf("%s on %s seed %u: got %s (%zu -> %zu bytes), claimed %s\n", c->name,
                           b ? "safetensors" : "gguf", (unsigned)s, got, len, n, want);
                    failures++;
                }
            }
        }
        /* a mutation of the other format leaves the input as it is */
        int other = tfs_mutation_find(b == 0 ? "json.trailing" : "kv.bool");
        memcpy(buf, seed, len);
        assert_int_equal(tfs_mutate_one(buf, len, CAP, 1, other), len);
        assert_memory_equal(buf, seed, len);
        free(seed);
    }
    free(buf);
    assert_int_equal(failures, 0);
}

static void test_max_size(void **state) {
    (void)state;
    unsigned bits[2] = {GG_BIT, ST_BIT};
    uint8_t *buf = malloc(CAP);
    for (int b = 0; b < 2; b++) {
        size_t len;
        uint8_t *seed = seed_of(bits[b], &len);
        size_t caps[] = {1, 7, 24, len / 2, len, len + 1, len + 100, 4096};
        for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            size_t cap = caps[k], in = len < cap ? len : cap;
            for (int i = -1; i < tfs_mutation_count(); i++) {
                for (uint64_t s = 1; s <= 2; s++) {
                    memset(buf, 0xaa, CAP);
                    memcpy(buf, seed, in);
                    size_t n = tfs_mutate_one(buf, in, cap, s, i);
                    assert_true(n <= cap);
                    assert_int_equal(buf[cap], 0xaa); /* nothing written past the capacity */
                }
            }
        }
        free(seed);
    }
    /* an empty input becomes a skeleton of the mutation's format */
    memset(buf, 0, 16);
    size_t n = tfs_mutate_one(buf, 0, CAP, 3, tfs_mutation_find("kv.bool"));
    assert_true(n > 24);
    assert_memory_equal(buf, "GGUF", 4);
    free(buf);
}

static uint64_t rnd(uint64_t *s) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

static void test_random_inputs(void **state) {
    (void)state;
    uint8_t *buf = malloc(CAP);
    uint64_t r = 12345;
    size_t lens[2];
    uint8_t *seeds[2] = {mut_seed_gguf("a", &lens[0]), mut_seed_st("a", &lens[1])};
    int n = tfs_mutation_count();
    for (int it = 0; it < 3000; it++) {
        size_t len, cap = 64 + rnd(&r) % 8192;
        int kind = (int)(rnd(&r) % 3);
        if (kind == 2) { /* random bytes, sometimes with a GGUF magic */
            len = rnd(&r) % cap;
            for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)rnd(&r);
            if (len >= 4 && rnd(&r) % 2) memcpy(buf, "GGUF", 4);
        } else { /* a damaged seed: cut and bit-flipped */
            const uint8_t *s = seeds[kind];
            len = lens[kind] < cap ? lens[kind] : cap;
            memcpy(buf, s, len);
            len = len ? rnd(&r) % (len + 1) : 0;
            for (int k = 0, m = (int)(rnd(&r) % 8); k < m && len; k++)
                buf[rnd(&r) % len] ^= (uint8_t)(1u << (rnd(&r) % 8));
        }
        int mutation = (it & 1) ? -1 : (int)(rnd(&r) % (uint64_t)n);
        size_t out = tfs_mutate_one(buf, len, cap, rnd(&r), mutation);
        assert_true(out <= cap);
        /* and the output once more: a mutant of a mutant */
        out = tfs_mutate_one(buf, out, cap, rnd(&r), -1);
        assert_true(out <= cap);
    }
    free(seeds[0]);
    free(seeds[1]);
    free(buf);
}

/* names of the tensors of a parsed file that start with tag */
static int has_tensor_of(const uint8_t *p, size_t n, char tag) {
    tfs_header *h = NULL;
    tfs_error e;
    if (tfs_parse_buffer(p, n, TFS_FORMAT_UNKNOWN, TFS_PARTIAL, &h, &e) != TFS_OK && !h) return 0;
    int found = 0;
    for (size_t i = 0; h && i < h->n_tensors; i++)
        if (h->tensors[i].name.len > 0 && h->tensors[i].name.ptr[0] == tag) found = 1;
    tfs_header_free(h);
    return found;
}

static void test_crossover(void **state) {
    (void)state;
    uint8_t *out = malloc(CAP);
    for (int fmt = 0; fmt < 2; fmt++) {
        size_t la, lb;
        uint8_t *a = fmt ? mut_seed_st("a", &la) : mut_seed_gguf("a", &la);
        uint8_t *b = fmt ? mut_seed_st("b", &lb) : mut_seed_gguf("b", &lb);
        int both = 0, from_b = 0;
        for (uint64_t s = 1; s <= 32; s++) {
            size_t n = tfs_crossover(a, la, b, lb, out, CAP, s);
            assert_true(n > 0 && n <= CAP);
            int ha = has_tensor_of(out, n, 'a'), hb = has_tensor_of(out, n, 'b');
            both += ha && hb;
            from_b += hb;
            /* deterministic */
            uint8_t *again = malloc(CAP);
            assert_int_equal(tfs_crossover(a, la, b, lb, again, CAP, s), n);
            assert_memory_equal(again, out, n);
            free(again);
            /* bounded */
            assert_true(tfs_crossover(a, la, b, lb, out, 40, s) <= 40);
        }
        assert_true(both > 0);
        assert_true(from_b > 0);
        /* different formats: a byte splice, never empty */
        size_t lc;
        uint8_t *c = fmt ? mut_seed_gguf("b", &lc) : mut_seed_st("b", &lc);
        for (uint64_t s = 1; s <= 8; s++) {
            size_t n = tfs_crossover(a, la, c, lc, out, CAP, s);
            assert_true(n > 0 && n <= la + lc);
        }
        free(a);
        free(b);
        free(c);
    }
    free(out);
}

/* Length control (mutators/libfuzzer.c): from a small input, outputs stay
 * within 4 KiB (1.5 x the input when that is more), except the calls whose
 * seed lets them use all of max_size (one in 16: (seed >> 8) % 16 == 0). */
static void test_libfuzzer_length_control(void **state) {
    (void)state;
    uint8_t *buf = malloc(CAP), *out = malloc(CAP);
    for (int fmt = 0; fmt < 2; fmt++) {
        size_t len;
        uint8_t *seed = fmt ? mut_seed_gguf("a", &len) : mut_seed_st("a", &len);
        size_t budget = len + len / 2 > 4096 ? len + len / 2 : 4096;
        size_t longest = 0, longest_free = 0;
        for (unsigned s = 0; s < 8u * 16u * 256u; s += 5) {
            memcpy(buf, seed, len);
            size_t n = LLVMFuzzerCustomMutator(buf, len, CAP, s);
            size_t m = LLVMFuzzerCustomCrossOver(seed, len, seed, len, out, CAP, s);
            assert_true(n > 0 && n <= CAP && m <= CAP);
            if ((s >> 8) % 16u != 0) {
                assert_true(n <= budget);
                assert_true(m <= budget);
                if (n > longest) longest = n;
            } else if (n > longest_free) {
                longest_free = n;
            }
        }
        /* the cap binds: without it, outputs get larger (safetensors: bug.S4,
         * a header of max_size / 2) */
        assert_true(longest > len);
        if (fmt == 0) assert_true(longest_free > budget);
        free(seed);
    }
    free(buf);
    free(out);
}

static void test_libfuzzer_front_end(void **state) {
    (void)state;
    size_t len;
    uint8_t *seed = mut_seed_gguf("a", &len);
    uint8_t *buf = malloc(CAP), *out = malloc(CAP);
    int changed = 0;
    for (unsigned s = 1; s <= 16; s++) {
        memcpy(buf, seed, len);
        size_t n = LLVMFuzzerCustomMutator(buf, len, CAP, s);
        assert_true(n > 0 && n <= CAP);
        changed += n != len || memcmp(buf, seed, len) != 0;
        n = LLVMFuzzerCustomCrossOver(seed, len, seed, len, out, CAP, s);
        assert_true(n > 0 && n <= CAP);
    }
    assert_true(changed >= 12);
    free(seed);
    free(buf);
    free(out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_claims),
        cmocka_unit_test(test_max_size),
        cmocka_unit_test(test_random_inputs),
        cmocka_unit_test(test_crossover),
        cmocka_unit_test(test_libfuzzer_front_end),
        cmocka_unit_test(test_source_equals_buffer),
        cmocka_unit_test(test_libfuzzer_length_control),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
