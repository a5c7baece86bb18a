/* afl.c: AFL++ custom mutator (shared library tfs_afl_mutator), for
 *   AFL_CUSTOM_MUTATOR_LIBRARY=.../libtfs_afl_mutator.so [AFL_CUSTOM_MUTATOR_ONLY=1] afl-fuzz ...
 * The prototypes follow AFL++'s documented C API (docs/custom_mutators.md of
 * afl++ 4.04c); no AFL header is used: the afl_state_t pointer is opaque here.
 * Buffers handed to AFL++ belong to this mutator and stay valid until the
 * next call.  TFS_MUTATOR_QUICK=P (0..100, default 90): P percent of the
 * calls that are not crossovers make one tfs_mutate_quick edit (a header
 * field found by a bounded scan; described as "tfs:quick.value" and so
 * on), the rest, and inputs in which the scan finds no field, tfs_mutate. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mut.h"

#if defined(__GNUC__)
#define AFL_API __attribute__((visibility("default")))
#else
#define AFL_API
#endif

typedef struct afl_mut {
    uint64_t rng;
    uint8_t *buf; /* output of afl_custom_fuzz */
    size_t cap;
    int last;       /* mutation index of the last output; -2 crossover; -3 quick (qname); -1 none */
    unsigned quick; /* TFS_MUTATOR_QUICK: percent of calls made by tfs_mutate_quick */
    char qname[16];
    char desc[96];
    /* trimming: the current good input, the candidate, the step */
    uint8_t *base;
    size_t base_len, base_cap;
    uint8_t *cand;
    size_t cand_len, cand_cap;
    size_t step, removed, total;
} afl_mut;

AFL_API void *afl_custom_init(void *afl, unsigned int seed);
AFL_API size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                               size_t add_buf_size, size_t max_size);
AFL_API const char *afl_custom_describe(void *data, size_t max_description_len);
AFL_API int32_t afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size);
AFL_API size_t afl_custom_trim(void *data, uint8_t **out_buf);
AFL_API int32_t afl_custom_post_trim(void *data, uint8_t success);
AFL_API void afl_custom_deinit(void *data);

static int reserve(uint8_t **p, size_t *cap, size_t n) {
    if (n <= *cap) return 0;
    uint8_t *q = realloc(*p, n ? n : 1);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

void *afl_custom_init(void *afl, unsigned int seed) {
    (void)afl;
    afl_mut *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->rng = 0x61666c2bu ^ ((uint64_t)seed << 20);
    m->last = -1;
    tfs_mutation_disable(getenv("TFS_MUTATOR_DISABLE")); /* ablation: family[,family...] off */
    m->quick = tfs__mut_env_percent(getenv("TFS_MUTATOR_QUICK"), TFS_MUTATOR_QUICK_DEFAULT);
    return m;
}

static uint64_t next(afl_mut *m) {
    mut_rng r = {m->rng};
    uint64_t v = tfs__mut_next(&r);
    m->rng = r.s;
    return v;
}

/* a mutation applying to the input's format (by its magic) */
static int choose(afl_mut *m, const uint8_t *buf, size_t size) {
    unsigned fbit = 1u << tfs_detect_format(buf, size, NULL);
    int n = tfs_mutation_count();
    for (int tries = 0; tries < 64; tries++) {
        int i = (int)(next(m) % (uint64_t)n);
        if (tfs_mutation_formats(i) & fbit) return i;
    }
    return -1;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size) {
    afl_mut *m = data;
    if (max_size == 0) max_size = 1;
    if (buf_size > max_size) buf_size = max_size;
    if (reserve(&m->buf, &m->cap, max_size) != 0) {
        *out_buf = buf; /* no memory: the input unchanged */
        m->last = -1;
        return buf_size ? buf_size : 0;
    }
    uint64_t seed = next(m);
    size_t n;
    if (add_buf && add_buf_size && (seed & 7) == 0) {
        n = tfs_crossover(buf, buf_size, add_buf, add_buf_size, m->buf, max_size, seed >> 3);
        m->last = -2;
    } else {
        if (buf_size) memcpy(m->buf, buf, buf_size);
        /* a quick edit (no parse, no write) when drawn and the scan finds a field */
        n = m->quick && (seed >> 3) % 100u < m->quick
                ? tfs_mutate_quick(m->buf, buf_size, max_size, seed, m->qname, sizeof m->qname)
                : 0;
        if (n) {
            m->last = -3;
        } else {
            m->last = choose(m, buf, buf_size);
            n = tfs_mutate_one(m->buf, buf_size, max_size, seed, m->last);
        }
    }
    if (n == 0) { /* AFL++ needs a non-empty output */
        m->buf[0] = buf_size ? buf[0] : 0;
        n = 1;
    }
    *out_buf = m->buf;
    return n;
}

const char *afl_custom_describe(void *data, size_t max_description_len) {
    afl_mut *m = data;
    const char *what = m->last == -2   ? "crossover"
                       : m->last == -3 ? m->qname
                       : m->last >= 0  ? tfs_mutation_name(m->last)
                                       : "none";
    snprintf(m->desc, sizeof m->desc, "tfs:%s", what);
    if (max_description_len < sizeof m->desc) m->desc[max_description_len] = '\0';
    return m->desc;
}

/* Trimming: remove one record at a time (step counts records tried,
 * removed those dropped with the coverage unchanged). */
int32_t afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size) {
    afl_mut *m = data;
    m->step = m->removed = m->total = 0;
    m->base_len = 0;
    if (reserve(&m->base, &m->base_cap, buf_size) != 0 || reserve(&m->cand, &m->cand_cap, buf_size + 1) != 0) return 0;
    if (buf_size) memcpy(m->base, buf, buf_size);
    m->base_len = buf_size;
    size_t r = tfs__mut_count_records(buf, buf_size);
    m->total = r > INT32_MAX ? INT32_MAX : r;
    return (int32_t)m->total;
}

size_t afl_custom_trim(void *data, uint8_t **out_buf) {
    afl_mut *m = data;
    /* the rewrite is never longer than the input plus padding: room for it */
    size_t cap = m->base_len + 4096;
    if (reserve(&m->cand, &m->cand_cap, cap) != 0) cap = m->cand_cap;
    size_t n = tfs__mut_drop_record(m->base, m->base_len, m->step, m->cand, cap);
    if (n == 0) { /* cannot rewrite: offer the current input (AFL++ then keeps it) */
        if (m->base_len) memcpy(m->cand, m->base, m->base_len);
        n = m->base_len;
    }
    m->cand_len = n;
    *out_buf = m->cand;
    return n;
}

int32_t afl_custom_post_trim(void *data, uint8_t success) {
    afl_mut *m = data;
    if (success && m->cand_len && reserve(&m->base, &m->base_cap, m->cand_len) == 0) {
        memcpy(m->base, m->cand, m->cand_len);
        m->base_len = m->cand_len;
        m->removed++; /* the same index is now the next record */
    } else {
        m->step++;
    }
    size_t k = m->step + m->removed;
    return (int32_t)(k > m->total ? m->total : k);
}

void afl_custom_deinit(void *data) {
    afl_mut *m = data;
    if (!m) return;
    free(m->buf);
    free(m->base);
    free(m->cand);
    free(m);
}
