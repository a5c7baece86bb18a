/* table.c: the one table of named mutations (the families' tables in a
 * fixed order: indices and names are stable) and tfs_mutate itself. */
#include "mut.h"

#include <string.h>

typedef struct fam {
    const mut_def *defs;
    const size_t *n;
} fam;

/* Append only: a new family goes at the end, a new mutation at the end of
 * its family's table would shift the later indices, so indices are only
 * stable within one build; names are the stable handle. */
static const fam families[] = {
    {tfs__mut_offset, &tfs__mut_offset_n}, {tfs__mut_trunc, &tfs__mut_trunc_n}, {tfs__mut_align, &tfs__mut_align_n},
    {tfs__mut_hdr, &tfs__mut_hdr_n},       {tfs__mut_count, &tfs__mut_count_n}, {tfs__mut_strlen, &tfs__mut_strlen_n},
    {tfs__mut_type, &tfs__mut_type_n},     {tfs__mut_shape, &tfs__mut_shape_n}, {tfs__mut_dup, &tfs__mut_dup_n},
    {tfs__mut_kv, &tfs__mut_kv_n},         {tfs__mut_json, &tfs__mut_json_n},   {tfs__mut_bug, &tfs__mut_bug_n},
    {tfs__mut_byte, &tfs__mut_byte_n},     {tfs__mut_calc, &tfs__mut_calc_n},
};
#define N_FAMILIES (sizeof families / sizeof families[0])

const mut_def *tfs__mut_def(int i) {
    if (i < 0) return NULL;
    size_t k = (size_t)i;
    for (size_t f = 0; f < N_FAMILIES; f++) {
        if (k < *families[f].n) return &families[f].defs[k];
        k -= *families[f].n;
    }
    return NULL;
}

int tfs_mutation_count(void) {
    size_t n = 0;
    for (size_t f = 0; f < N_FAMILIES; f++) n += *families[f].n;
    return (int)n;
}

const char *tfs_mutation_name(int i) {
    const mut_def *d = tfs__mut_def(i);
    return d ? d->name : NULL;
}

const char *tfs_mutation_doc(int i) {
    const mut_def *d = tfs__mut_def(i);
    return d ? d->doc : NULL;
}

unsigned tfs_mutation_formats(int i) {
    const mut_def *d = tfs__mut_def(i);
    return d ? d->formats : 0u;
}

int tfs_mutation_find(const char *name) {
    if (!name) return -1;
    int n = tfs_mutation_count();
    for (int i = 0; i < n; i++)
        if (strcmp(tfs__mut_def(i)->name, name) == 0) return i;
    return -1;
}

/* Families switched off (tfs_mutation_disable): one flag per table entry. */
#define MAX_MUTATIONS 1024
static unsigned char g_off[MAX_MUTATIONS];
static int g_any_off;

static int is_off(int i) { return g_any_off && i >= 0 && i < MAX_MUTATIONS && g_off[i]; }

int tfs_mutation_disable(const char *list) {
    int n = tfs_mutation_count(), off = 0;
    memset(g_off, 0, sizeof g_off);
    g_any_off = 0;
    for (const char *p = list; p && *p;) {
        while (*p == ',' || *p == ' ') p++;
        size_t len = strcspn(p, ", ");
        for (int i = 0; len > 0 && i < n && i < MAX_MUTATIONS; i++) {
            const char *name = tfs__mut_def(i)->name;
            if (strncmp(name, p, len) == 0 && name[len] == '.' && !g_off[i]) {
                g_off[i] = 1;
                off++;
            }
        }
        p += len;
    }
    g_any_off = off > 0;
    return off;
}

/* 1 when mutation i belongs to one of the families of `list` (',' or ' '
 * separated); 1 for every i when list is NULL or empty. */
static int in_families(int i, const char *list) {
    if (!list || !*list) return 1;
    const char *name = tfs__mut_def(i)->name;
    size_t flen = strcspn(name, ".");
    for (const char *p = list; *p;) {
        while (*p == ',' || *p == ' ') p++;
        size_t len = strcspn(p, ", ");
        if (len > 0 && len == flen && strncmp(name, p, len) == 0) return 1;
        p += len;
    }
    return 0;
}

/* Whether mutation i may be picked for format bit fbit within `only`;
 * memo (MEMO_N entries, 0 = not yet known, 1 yes, -1 no) keeps the answers
 * of one call, so stacked picks and retries test each name once. */
#define MEMO_N 256
static int eligible(int i, unsigned fbit, const char *only, signed char *memo) {
    if (i < MEMO_N && memo[i]) return memo[i] > 0;
    int ok = (tfs__mut_def(i)->formats & fbit) && !is_off(i) && in_families(i, only);
    if (i < MEMO_N) memo[i] = ok ? 1 : -1;
    return ok;
}

/* A random mutation for format f (MUT_* bit) within `families`, or -1. */
static int pick(mut_rng *r, unsigned fbit, const char *only, signed char *memo) {
    int n = tfs_mutation_count();
    for (int tries = 0; tries < 64; tries++) {
        int i = (int)tfs__mut_below(r, (uint64_t)n);
        if (eligible(i, fbit, only, memo)) return i;
    }
    for (int i = 0; i < n; i++)
        if (eligible(i, fbit, only, memo)) return i;
    return -1;
}

mut_prof *tfs__mut_prof;

/* the phase timer: t = the last mark; adds the time since it to phase ph */
static void lap(uint64_t *t, int ph) {
    mut_prof *p = tfs__mut_prof;
    if (!p) return;
    uint64_t n = p->now();
    p->ns[ph] += n - *t;
    *t = n;
}

#define MAX_STACK 8
#define DEFAULT_STACK 3

int tfs_mutation_family_count(void) { return (int)N_FAMILIES; }

const char *tfs_mutation_family(int i) {
    if (i < 0 || (size_t)i >= N_FAMILIES || *families[i].n == 0) return NULL;
    /* the family of its first entry; names are "family.member" */
    static char names[N_FAMILIES][16];
    if (!names[i][0]) {
        const char *n = families[i].defs[0].name;
        size_t len = strcspn(n, ".");
        if (len >= sizeof names[i]) len = sizeof names[i] - 1;
        memcpy(names[i], n, len);
        names[i][len] = '\0';
    }
    return names[i];
}

int tfs_mutate_format(const uint8_t *data, size_t size) {
    if (!data || size == 0) return TFS_FORMAT_UNKNOWN;
    if (size >= 4 && memcmp(data, "GGUF", 4) == 0) return TFS_FORMAT_GGUF;
    if (size >= 9 && data[8] == '{') return TFS_FORMAT_SAFETENSORS;
    return TFS_FORMAT_UNKNOWN;
}

/* the chain of names applied, joined by '+', into opt->chain */
static void put_chain(const tfs_mutate_options *opt, const int *picks, int n) {
    if (!opt || !opt->chain || opt->chain_size == 0) return;
    size_t at = 0, cap = opt->chain_size;
    opt->chain[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *name = tfs__mut_def(picks[i])->name;
        size_t len = strlen(name);
        if (at + (i > 0) + len + 1 > cap) break;
        if (i > 0) opt->chain[at++] = '+';
        memcpy(opt->chain + at, name, len + 1);
        at += len;
    }
}

size_t tfs_mutate_one(uint8_t *data, size_t size, size_t max_size, uint64_t seed, int mutation) {
    tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
    o.mutation = mutation;
    return tfs_mutate(data, size, max_size, seed, &o);
}

/* Load (buffer, or source when src is not NULL), pick, run the model and
 * bytes phases: c->w then holds the written mutant and picks[0, *n) the
 * mutations applied.  Returns 0; 1 when the mutation does not apply (other
 * format, off, out of range) or the write made nothing; -1 on allocation
 * failure; a positive errno on a read error of the source. */
static int run(mut_ctx *c, const uint8_t *data, size_t size, const tfs_source *src, size_t max_size, uint64_t seed,
               const tfs_mutate_options *opt, int *picks, int *n) {
    *n = 0;
    int mutation = opt->mutation;
    if (mutation < -1 || mutation >= tfs_mutation_count() || is_off(mutation)) return 1;
    int max_stack = opt->max_stack <= 0 ? DEFAULT_STACK : opt->max_stack > MAX_STACK ? MAX_STACK : opt->max_stack;
    c->rng.s = seed ^ 0x74667320u; /* "tfs " */
    c->max_size = max_size;
    uint64_t t = tfs__mut_prof ? tfs__mut_prof->now() : 0;
    int want = opt->format;
    if (mutation >= 0) {
        unsigned f = tfs__mut_def(mutation)->formats;
        if (f == MUT_GG)
            want = TFS_FORMAT_GGUF;
        else if (f == MUT_ST)
            want = TFS_FORMAT_SAFETENSORS;
    }
    if (src) {
        int e = 0;
        if (tfs__mut_load_source(c, src, want, &e) != 0) return e ? e : -1;
    } else if (tfs__mut_load(c, data, size, want) != 0) {
        return -1;
    }
    lap(&t, MUT_PH_LOAD);
    unsigned fbit = 1u << c->format;
    if (mutation >= 0) {
        if (!(tfs__mut_def(mutation)->formats & fbit)) return 1;
        picks[(*n)++] = mutation;
    } else {
        /* 1 three times in four; otherwise 2 .. max_stack */
        int k = 1;
        if (max_stack > 1 && tfs__mut_below(&c->rng, 4) == 0)
            k += 1 + (int)tfs__mut_below(&c->rng, (uint64_t)(max_stack - 1));
        signed char memo[MEMO_N];
        memset(memo, 0, sizeof memo);
        for (int i = 0; i < k; i++) {
            int p = pick(&c->rng, fbit, opt->families, memo);
            if (p >= 0) picks[(*n)++] = p;
        }
    }
    for (int i = 0; i < *n; i++) {
        const mut_def *d = tfs__mut_def(picks[i]);
        if (d->model) d->model(c);
    }
    lap(&t, MUT_PH_MODEL);
    if (c->nomem || tfs__mut_write(c) != 0) return -1;
    lap(&t, MUT_PH_WRITE);
    for (int i = 0; i < *n; i++) {
        const mut_def *d = tfs__mut_def(picks[i]);
        if (d->bytes) d->bytes(c);
    }
    lap(&t, MUT_PH_BYTES);
    if (c->nomem || c->w.err == TFS_ENOMEM) return -1;
    if (c->w.err != TFS_OK || c->w.size == 0) return 1;
    return 0;
}

size_t tfs_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, const tfs_mutate_options *opt) {
    static const tfs_mutate_options defaults = TFS_MUTATE_OPTIONS_INIT;
    put_chain(opt, NULL, 0);
    if (!opt) opt = &defaults;
    if (!data || max_size == 0) return 0;
    if (size > max_size) size = max_size;
    mut_ctx c;
    memset(&c, 0, sizeof c);
    int picks[MAX_STACK], n = 0;
    size_t out = size;
    if (run(&c, data, size, NULL, max_size, seed, opt, picks, &n) == 0) {
        uint64_t t = tfs__mut_prof ? tfs__mut_prof->now() : 0;
        out = tfs__mut_copy_out(&c, data, max_size);
        put_chain(opt, picks, n);
        tfs__mut_free(&c);
        lap(&t, MUT_PH_COPY);
    } else {
        tfs__mut_free(&c);
    }
    if (tfs__mut_prof) tfs__mut_prof->calls++;
    return out;
}

int tfs_mutate_source(const tfs_source *src, uint64_t max_size, uint64_t seed, const tfs_mutate_options *opt,
                      tfs_mutate_sink sink, void *ctx, uint64_t *out_size, tfs_mutate_info *info) {
    static const tfs_mutate_options defaults = TFS_MUTATE_OPTIONS_INIT;
    if (out_size) *out_size = 0;
    if (info) memset(info, 0, sizeof *info);
    put_chain(opt, NULL, 0);
    if (!opt) opt = &defaults;
    if (!src || !src->read || src->forward || src->size == TFS_SIZE_UNKNOWN || !sink || max_size == 0) return -2;
    size_t cap = max_size > (uint64_t)SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)max_size;
    mut_ctx c;
    memset(&c, 0, sizeof c);
    int picks[MAX_STACK], n = 0;
    int rc = run(&c, NULL, 0, src, cap, seed, opt, picks, &n);
    if (info) {
        info->format = c.format;
        info->skeleton = c.skeleton;
        info->n = n;
        for (int i = 0; i < n; i++) info->mutation[i] = picks[i];
    }
    if (rc == 0) {
        /* the segments, cut at cap: bytes from c.w.p, holes as NULL */
        uint64_t total = c.w.size < cap ? c.w.size : cap;
        for (size_t i = 0; i < c.w.n_segs && rc == 0; i++) {
            const tfs_wseg *sg = &c.w.segs[i];
            if (sg->offset >= total) break;
            uint64_t len = sg->len;
            if (len > total - sg->offset) len = total - sg->offset;
            if (len) rc = sink(ctx, sg->offset, sg->hole ? NULL : c.w.p + sg->pos, len) ? -3 : 0;
        }
        if (rc == 0) {
            if (out_size) *out_size = total;
            put_chain(opt, picks, n);
        }
    }
    tfs__mut_free(&c);
    return rc;
}
