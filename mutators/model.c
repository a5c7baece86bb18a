/* model.c: one mutation run's state: the arena, loading an input into a
 * mutable model (or a skeleton), writing it with the C writer, copying out. */
#include "mut.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arena */

/* Arena blocks are MUT_BLOCK bytes unless an allocation needs more.  One
 * block and one set of writer buffers of the last run are kept per thread
 * for the next (a mutation run allocates the same sizes again and again). */
#define MUT_BLOCK 16384u
#define MUT_KEEP_WBUF ((size_t)4 << 20) /* writer buffers kept up to this many bytes */
static _Thread_local mut_block *g_spare_block;
static _Thread_local tfs_wbuf g_spare_wbuf;

/* c->w emptied; its buffers kept for the next write when not too large */
static void wbuf_release(tfs_wbuf *w) {
    if (!g_spare_wbuf.p && !g_spare_wbuf.segs && !g_spare_wbuf.fields && w->cap <= MUT_KEEP_WBUF &&
        w->fields_cap <= MUT_KEEP_WBUF / sizeof(tfs_field) && w->segs_cap <= MUT_KEEP_WBUF / sizeof(tfs_wseg)) {
        g_spare_wbuf.p = w->p;
        g_spare_wbuf.cap = w->cap;
        g_spare_wbuf.segs = w->segs;
        g_spare_wbuf.segs_cap = w->segs_cap;
        g_spare_wbuf.fields = w->fields;
        g_spare_wbuf.fields_cap = w->fields_cap;
        tfs_wbuf_init(w);
        return;
    }
    tfs_wbuf_free(w);
}

/* an empty c->w on the kept buffers, if any */
static void wbuf_adopt(tfs_wbuf *w) {
    tfs_wbuf_init(w);
    w->p = g_spare_wbuf.p;
    w->cap = g_spare_wbuf.cap;
    w->segs = g_spare_wbuf.segs;
    w->segs_cap = g_spare_wbuf.segs_cap;
    w->fields = g_spare_wbuf.fields;
    w->fields_cap = g_spare_wbuf.fields_cap;
    tfs_wbuf_init(&g_spare_wbuf);
}

void *tfs__mut_alloc(mut_ctx *c, size_t n) {
    if (n == 0) n = 1;
    n = (n + 15u) & ~(size_t)15u;
    if (n == 0) { /* wrapped */
        c->nomem = 1;
        return NULL;
    }
    mut_block *b = c->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > MUT_BLOCK ? n : MUT_BLOCK;
        if (cap > SIZE_MAX - sizeof(mut_block) - 16) {
            c->nomem = 1;
            return NULL;
        }
        if (cap == MUT_BLOCK && g_spare_block) { /* the last run's first block */
            b = g_spare_block;
            g_spare_block = NULL;
        } else {
            b = malloc(sizeof(mut_block) + 16 + cap);
        }
        if (!b) {
            c->nomem = 1;
            return NULL;
        }
        b->cap = cap;
        b->used = 0;
        b->next = c->arena;
        c->arena = b;
    }
    /* 16-byte aligned start after the header */
    uint8_t *base = (uint8_t *)(b + 1);
    base += (16u - ((uintptr_t)base & 15u)) & 15u;
    void *p = base + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *tfs__mut_strdup(mut_ctx *c, const char *s) {
    size_t n = strlen(s);
    char *p = tfs__mut_alloc(c, n + 1);
    if (p) memcpy(p, s, n + 1);
    return p;
}

char *tfs__mut_printf(mut_ctx *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *p = tfs__mut_alloc(c, (size_t)n + 1);
    if (!p) return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* ---------------------------------------------------------- parse cache */

/* The last MUT_CACHE_N inputs loaded by this thread: a copy of the bytes
 * (the parse borrows from it), the parse and the writer model of its view.
 * libFuzzer starts each chain of mutations from a unit of its corpus and
 * crosses over with corpus units, AFL++ calls the custom mutator many times
 * on one queue entry: the parse of an input seen before is taken from here.  An entry in use by a
 * live mut_ctx (busy) is never evicted. */
#define MUT_CACHE_N 8
#define MUT_CACHE_MAX_BYTES ((size_t)64 << 20) /* larger inputs are not kept */
typedef struct mut_cache_entry {
    uint8_t *copy;
    size_t size, cap;
    uint64_t sig; /* signature(copy, size): tested before the bytes */
    int valid, busy;
    uint64_t stamp;
    tfs_status st; /* the parse's status */
    tfs_header *h;
    int model_done; /* model_from_view ran: mst, gsrc/ssrc */
    tfs_status mst;
    tfs_gg_model *gsrc;
    tfs_st_model *ssrc;
} mut_cache_entry;

static _Thread_local mut_cache_entry g_cache[MUT_CACHE_N];
static _Thread_local uint64_t g_cache_clock;

static void entry_drop(mut_cache_entry *e) {
    tfs_gg_model_free(e->gsrc);
    tfs_st_model_free(e->ssrc);
    tfs_header_free(e->h);
    e->gsrc = NULL;
    e->ssrc = NULL;
    e->h = NULL;
    e->valid = e->model_done = 0;
}

void tfs__mut_cache_clear(void) {
    free(g_spare_block);
    g_spare_block = NULL;
    tfs_wbuf_free(&g_spare_wbuf);
    for (size_t i = 0; i < MUT_CACHE_N; i++) {
        if (g_cache[i].busy) continue;
        entry_drop(&g_cache[i]);
        free(g_cache[i].copy);
        g_cache[i].copy = NULL;
        g_cache[i].size = g_cache[i].cap = 0;
    }
}

static uint64_t signature(const uint8_t *p, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15u ^ (uint64_t)n;
    size_t k = n < 64 ? n : 64;
    for (size_t i = 0; i < k; i++) h = (h ^ p[i]) * 0x100000001b3u;
    for (size_t i = n - k; i < n; i++) h = (h ^ p[i]) * 0x100000001b3u;
    return h | 1u; /* never 0 (an empty slot) */
}

/* the entry holding data[0, size), or NULL (*sig: the input's signature) */
static mut_cache_entry *cache_find(const uint8_t *data, size_t size, uint64_t *sig) {
    *sig = 0;
    for (size_t i = 0; i < MUT_CACHE_N; i++) {
        mut_cache_entry *e = &g_cache[i];
        if (!e->valid || e->size != size) continue;
        if (!*sig) *sig = signature(data, size);
        if (e->sig == *sig && memcmp(e->copy, data, size) == 0) {
            e->stamp = ++g_cache_clock;
            return e;
        }
    }
    return NULL;
}

/* Inputs are copied into the cache when they come back within MUT_SEEN_N
 * parses (1: right after themselves, as in AFL++'s calls on one queue
 * entry): the signatures (size, and a hash of the first and last 64 bytes)
 * of the last MUT_SEEN_N inputs parsed.
 * An input seen once, such as the previous output in libFuzzer's chain of
 * mutations, or a corpus unit that comes back only after many others (more
 * than the cache holds: copying it would only evict), costs no copy. */
#define MUT_SEEN_N 1
static _Thread_local uint64_t g_seen[MUT_SEEN_N];
static _Thread_local size_t g_seen_at;


/* 1 when an input of signature s was parsed recently (and records it) */
static int seen_before(uint64_t s) {
    for (size_t i = 0; i < MUT_SEEN_N; i++)
        if (g_seen[i] == s) return 1;
    g_seen[g_seen_at] = s;
    g_seen_at = (g_seen_at + 1) % MUT_SEEN_N;
    return 0;
}

/* an entry holding a copy of data[0, size), its parse not yet made; NULL
 * when the input was not seen before, is too large, or memory is short */
static mut_cache_entry *cache_take(const uint8_t *data, size_t size, uint64_t sig) {
    if (!sig) sig = signature(data, size);
    if (size > MUT_CACHE_MAX_BYTES || !seen_before(sig)) return NULL;
    mut_cache_entry *v = NULL;
    for (size_t i = 0; i < MUT_CACHE_N; i++) {
        mut_cache_entry *e = &g_cache[i];
        if (e->busy) continue;
        if (!v || !e->valid || (v->valid && e->stamp < v->stamp)) v = e;
        if (!e->valid) break;
    }
    if (!v) return NULL;
    entry_drop(v);
    if (size > v->cap) {
        uint8_t *p = malloc(size);
        if (!p) return NULL;
        free(v->copy);
        v->copy = p;
        v->cap = size;
    }
    memcpy(v->copy, data, size);
    v->size = size;
    v->sig = sig;
    v->stamp = ++g_cache_clock;
    return v;
}

void tfs__mut_free(mut_ctx *c) {
    wbuf_release(&c->w);
    if (c->cached) {
        c->cached->busy = 0; /* the parse stays in the cache */
    } else {
        tfs_gg_model_free(c->gsrc);
        tfs_st_model_free(c->ssrc);
        tfs_header_free(c->h);
    }
    while (c->arena) {
        mut_block *n = c->arena->next;
        if (!n && c->arena->cap == MUT_BLOCK && !g_spare_block) /* the first block */
            g_spare_block = c->arena;
        else
            free(c->arena);
        c->arena = n;
    }
    memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------- records */

/* Grow an arena array of `size`-byte items to hold one more; returns the new
 * array (the old one stays in the arena, unused). */
static void *grow(mut_ctx *c, void *arr, size_t n, size_t *cap, size_t size) {
    if (n < *cap) return arr;
    size_t ncap = *cap ? *cap * 2 : 8;
    if (ncap > SIZE_MAX / size) return NULL;
    void *p = tfs__mut_alloc(c, ncap * size);
    if (!p) return NULL;
    if (n) memcpy(p, arr, n * size);
    *cap = ncap;
    return p;
}

tfs_gg_wkv *tfs__mut_gg_add_kv(mut_ctx *c) {
    tfs_gg_wkv *p = grow(c, c->kv, c->n_kv, &c->cap_kv, sizeof *p);
    if (!p) return NULL;
    c->kv = p;
    memset(&p[c->n_kv], 0, sizeof *p);
    return &p[c->n_kv++];
}

tfs_gg_wtensor *tfs__mut_gg_add_tensor(mut_ctx *c) {
    tfs_gg_wtensor *p = grow(c, c->gt, c->n_gt, &c->cap_gt, sizeof *p);
    if (!p) return NULL;
    c->gt = p;
    memset(&p[c->n_gt], 0, sizeof *p);
    return &p[c->n_gt++];
}

tfs_st_wentry *tfs__mut_st_add_entry(mut_ctx *c) {
    tfs_st_wentry *p = grow(c, c->se, c->n_se, &c->cap_se, sizeof *p);
    if (!p) return NULL;
    c->se = p;
    memset(&p[c->n_se], 0, sizeof *p);
    return &p[c->n_se++];
}

tfs_st_wmeta *tfs__mut_st_add_meta(mut_ctx *c) {
    tfs_st_wmeta *p = grow(c, c->meta, c->n_meta, &c->cap_meta, sizeof *p);
    if (!p) return NULL;
    c->meta = p;
    memset(&p[c->n_meta], 0, sizeof *p);
    return &p[c->n_meta++];
}

/* ------------------------------------------------------------ skeletons */

static const char *const sk_tokens[] = {"<s>", "a", "b"};
static const uint8_t sk_scores[12] = {0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}; /* f32 0, 1, 2 */

static void gg_add_tensor(mut_ctx *c, const char *name, uint32_t type, uint32_t n_dims, uint64_t ne0, uint64_t ne1) {
    tfs_gg_wtensor *t = tfs__mut_gg_add_tensor(c);
    if (!t) return;
    t->name = tfs_wstr_c(name);
    t->type = type;
    t->n_dims = n_dims;
    t->ne[0] = ne0;
    t->ne[1] = ne1;
}

static void gg_skeleton(mut_ctx *c) {
    c->format = TFS_FORMAT_GGUF;
    c->gm.version = 3;
    tfs_gg_wkv *kv;
    if ((kv = tfs__mut_gg_add_kv(c))) {
        kv->key = tfs_wstr_c("general.architecture");
        static const tfs_wstr arch = {"llama", 5, 0, 0, 0};
        kv->value = tfs_gg_wval_str(&arch);
    }
    if ((kv = tfs__mut_gg_add_kv(c))) {
        kv->key = tfs_wstr_c("general.alignment");
        kv->value = tfs_gg_wval_scalar(TFS_GG_U32, 32);
    }
    if ((kv = tfs__mut_gg_add_kv(c))) {
        tfs_wstr *s = tfs__mut_alloc(c, 3 * sizeof *s);
        if (s) {
            for (size_t i = 0; i < 3; i++) s[i] = tfs_wstr_c(sk_tokens[i]);
            kv->key = tfs_wstr_c("tokenizer.ggml.tokens");
            kv->value = tfs_gg_wval_str_array(s, 3);
        }
    }
    if ((kv = tfs__mut_gg_add_kv(c))) {
        kv->key = tfs_wstr_c("tokenizer.ggml.scores");
        kv->value = tfs_gg_wval_array(TFS_GG_F32, 3, sk_scores, sizeof sk_scores);
    }
    if ((kv = tfs__mut_gg_add_kv(c))) {
        kv->key = tfs_wstr_c("llama.block_count");
        kv->value = tfs_gg_wval_scalar(TFS_GG_U32, 1);
    }
    gg_add_tensor(c, "token_embd.weight", 0 /* f32 */, 2, 4, 2);
    gg_add_tensor(c, "blk.0.attn_q.weight", 8 /* q8_0 */, 2, 32, 1);
    gg_add_tensor(c, "output_norm.weight", 1 /* f16 */, 1, 8, 0);
}

static const uint64_t sk_shape_a[2] = {2, 2}, sk_shape_b[1] = {3}, sk_shape_c[1] = {4};

static void st_skeleton(mut_ctx *c) {
    c->format = TFS_FORMAT_SAFETENSORS;
    static const struct {
        const char *name;
        uint32_t dtype, n_dims;
        const uint64_t *shape;
    } e[3] = {{"a", TFS_ST_F32, 2, sk_shape_a}, {"b", TFS_ST_I8, 1, sk_shape_b}, {"c", TFS_ST_BF16, 1, sk_shape_c}};
    for (size_t i = 0; i < 3; i++) {
        tfs_st_wentry *o = tfs__mut_st_add_entry(c);
        if (!o) return;
        o->name = tfs_wstr_c(e[i].name);
        o->dtype = e[i].dtype;
        o->n_dims = e[i].n_dims;
        o->shape = e[i].shape;
    }
    tfs_st_wmeta *m = tfs__mut_st_add_meta(c);
    if (m) {
        m->key = tfs_wstr_c("format");
        m->value = tfs_wstr_c("pt");
    }
    c->sm.metadata = TFS_STW_META_OBJECT;
}

/* ----------------------------------------------------------------- load */

static int take_gg(mut_ctx *c, const tfs_gg_model *m) {
    c->format = TFS_FORMAT_GGUF;
    c->gm.version = m->version;
    for (size_t i = 0; i < m->n_kv; i++) {
        tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
        if (!kv) return -1;
        *kv = m->kv[i];
    }
    for (size_t i = 0; i < m->n_tensors; i++) {
        tfs_gg_wtensor *t = tfs__mut_gg_add_tensor(c);
        if (!t) return -1;
        *t = m->tensors[i];
    }
    /* alignment 0: the writer follows a u32 general.alignment KV, so edits
     * of that KV move the layout (recomputed) unless a mutation pins it */
    c->gm.alignment = 0;
    return 0;
}

static int take_st(mut_ctx *c, const tfs_st_model *m) {
    c->format = TFS_FORMAT_SAFETENSORS;
    for (size_t i = 0; i < m->n_entries; i++) {
        tfs_st_wentry *e = tfs__mut_st_add_entry(c);
        if (!e) return -1;
        *e = m->entries[i];
    }
    for (size_t i = 0; i < m->n_meta; i++) {
        tfs_st_wmeta *e = tfs__mut_st_add_meta(c);
        if (!e) return -1;
        *e = m->meta[i];
    }
    c->sm.metadata = m->metadata;
    return 0;
}

/* Take the records of a parse (st: its status, c->h: its header or NULL)
 * into the model, or fall back to a skeleton of format `want`. */
static int load_parsed(mut_ctx *c, tfs_status st, int want) {
    if (st == TFS_ENOMEM) return -1;
    const tfs_header *h = c->h;
    if (h && (st == TFS_OK || h->n_kv + h->n_tensors > 0)) {
        mut_cache_entry *e = c->cached;
        if (e && e->model_done) {
            st = e->mst;
        } else {
            st = h->format == TFS_FORMAT_GGUF ? tfs_gg_model_from_view(h, &c->gsrc)
                                              : tfs_st_model_from_view(h, &c->ssrc);
            if (e && st != TFS_ENOMEM) {
                e->model_done = 1;
                e->mst = st;
                e->gsrc = c->gsrc;
                e->ssrc = c->ssrc;
            } else if (e) { /* not kept: freed here, the entry owns nothing of it */
                tfs_gg_model_free(c->gsrc);
                tfs_st_model_free(c->ssrc);
                c->gsrc = NULL;
                c->ssrc = NULL;
            }
        }
        if (st == TFS_OK && (h->format == TFS_FORMAT_GGUF ? take_gg(c, c->gsrc) : take_st(c, c->ssrc)) != 0) return -1;
        if (st == TFS_ENOMEM) return -1;
        if (st == TFS_OK) return c->nomem ? -1 : 0;
        /* a view the writer's model cannot hold: start over */
        c->n_kv = c->n_gt = c->n_se = c->n_meta = 0;
    }
    if (want != TFS_FORMAT_GGUF && want != TFS_FORMAT_SAFETENSORS)
        want = (tfs__mut_next(&c->rng) & 1) ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
    c->skeleton = 1;
    if (want == TFS_FORMAT_GGUF)
        gg_skeleton(c);
    else
        st_skeleton(c);
    return c->nomem ? -1 : 0;
}

int tfs__mut_load(mut_ctx *c, const uint8_t *data, size_t size, int want) {
    tfs_status st = TFS_INVALID;
    if (size > 0) {
        uint64_t sig;
        mut_cache_entry *e = cache_find(data, size, &sig);
        if (e) {
            st = e->st;
        } else {
            e = cache_take(data, size, sig);
            const uint8_t *bytes = e ? e->copy : data;
            tfs_format f = tfs_detect_format(bytes, size, NULL);
            tfs_error err;
            tfs_header *h = NULL;
            st = tfs_parse_buffer(bytes, size, f, TFS_PARTIAL, &h, &err);
            if (e && st != TFS_ENOMEM) {
                e->valid = 1;
                e->st = st;
                e->h = h;
            } else if (e) {
                tfs_header_free(h);
                h = NULL;
                e = NULL;
            }
            if (!e) c->h = h;
        }
        if (e) {
            e->busy = 1;
            c->cached = e;
            c->h = e->h;
            c->gsrc = e->gsrc;
            c->ssrc = e->ssrc;
        }
    }
    return load_parsed(c, st, want);
}

int tfs__mut_load_source(mut_ctx *c, const tfs_source *src, int want, int *io_errno) {
    tfs_status st = TFS_INVALID;
    *io_errno = 0;
    if (src->size > 0) {
        /* as tfs_detect_format(bytes, size, NULL): the magic, else safetensors */
        uint8_t magic[4];
        size_t got = 0;
        int e = src->read(src->ctx, 0, magic, sizeof magic, &got);
        if (e) {
            *io_errno = e;
            return -1;
        }
        tfs_format f = tfs_detect_format(magic, got, NULL);
        tfs_error err;
        st = tfs_parse_source(src, NULL, f, TFS_PARTIAL, &c->h, &err);
        if (st == TFS_EIO) {
            *io_errno = err.sys_errno ? err.sys_errno : 5 /* EIO */;
            return -1;
        }
    }
    return load_parsed(c, st, want);
}

/* ---------------------------------------------------------------- write */

uint64_t tfs__mut_gg_align(const mut_ctx *c) {
    if (c->gm.alignment) return c->gm.alignment;
    for (size_t i = 0; i < c->n_kv; i++) {
        const tfs_gg_wkv *kv = &c->kv[i];
        if (kv->key.len == 17 && kv->key.hole == 0 && memcmp(kv->key.ptr, "general.alignment", 17) == 0 &&
            kv->value.type == TFS_GG_U32) {
            const uint8_t *p = kv->value.raw ? (kv->value.raw_len >= 4 ? kv->value.raw : NULL) : kv->value.scalar;
            uint32_t a = p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
            if (a) return a;
        }
    }
    return 32;
}

static uint64_t gg_size(const tfs_gg_wtensor *t) {
    uint64_t nb;
    if (t->n_dims > TFS_GG_WMAX_DIMS || tfs_gg_tensor_nbytes(t->type, t->n_dims, t->ne, &nb) != 0) return 0;
    return nb;
}

uint64_t *tfs__mut_gg_offsets(mut_ctx *c) {
    uint64_t *o = tfs__mut_alloc(c, (c->n_gt + 1) * sizeof *o);
    if (!o) return NULL;
    uint64_t a = tfs__mut_gg_align(c), running = 0;
    for (size_t i = 0; i < c->n_gt; i++) {
        o[i] = c->gt[i].offset_set ? c->gt[i].offset : running;
        uint64_t nb = gg_size(&c->gt[i]), r = nb % a, padded = nb;
        if (r && __builtin_add_overflow(nb, a - r, &padded)) padded = UINT64_MAX;
        if (__builtin_add_overflow(running, padded, &running)) running = UINT64_MAX;
    }
    o[c->n_gt] = running;
    return o;
}

uint64_t tfs__mut_st_nbytes(const tfs_st_wentry *e) {
    uint64_t n = 1, bits;
    for (uint32_t i = 0; i < e->n_dims; i++)
        if (__builtin_mul_overflow(n, e->shape[i], &n)) return 0;
    if (__builtin_mul_overflow(n, (uint64_t)tfs_st_dtype_bits(e->dtype), &bits)) return 0;
    return bits / 8;
}

void tfs__mut_st_pin_offsets(mut_ctx *c) {
    uint64_t running = 0;
    for (size_t i = 0; i < c->n_se; i++) {
        tfs_st_wentry *e = &c->se[i];
        if (!e->offsets_set) {
            e->begin = running;
            e->end = running + tfs__mut_st_nbytes(e);
            if (e->end < running) e->end = UINT64_MAX;
            e->offsets_set = 1;
        }
        running = e->end;
    }
}

uint64_t *tfs__mut_st_own_shape(mut_ctx *c, tfs_st_wentry *e, uint32_t n_dims) {
    uint64_t *s = tfs__mut_alloc(c, (n_dims ? n_dims : 1) * sizeof *s);
    if (!s) return NULL;
    for (uint32_t i = 0; i < n_dims && i < e->n_dims; i++) s[i] = e->shape[i];
    for (uint32_t i = e->n_dims; i < n_dims; i++) s[i] = 1;
    e->shape = s;
    e->n_dims = n_dims;
    return s;
}

/* Keep what the writer materialises bounded: padding is written as bytes,
 * data as holes, and only max_size bytes are kept. */
static int write_gg(mut_ctx *c) {
    tfs_gg_model m = c->gm;
    tfs_gg_wtensor *t = c->n_gt ? tfs__mut_alloc(c, c->n_gt * sizeof *t) : NULL;
    if (c->n_gt && !t) return -1;
    if (c->n_gt) memcpy(t, c->gt, c->n_gt * sizeof *t);
    uint64_t a = tfs__mut_gg_align(c);
    if (a > MUT_MAX_LAYOUT_ALIGN || a > (uint64_t)c->max_size + 64u) {
        m.alignment = 32; /* the KV keeps its value; the layout does not follow it */
        a = 32;
    }
    /* every tensor's data padding is materialised: bound their number */
    uint64_t pads = 0;
    if (__builtin_mul_overflow((uint64_t)c->n_gt, a, &pads) || pads > 4u * (uint64_t)c->max_size + (1u << 20))
        m.flags |= TFS_GGW_NO_DATA;
    /* data past max_size is cut anyway: clamp the holes so sizes never wrap */
    uint64_t budget = (uint64_t)c->max_size + 1u, used = 0;
    for (size_t i = 0; i < c->n_gt; i++) {
        uint64_t nb = t[i].data_len_set ? t[i].data_len : gg_size(&t[i]);
        if (nb > budget - used) {
            t[i].data_len_set = 1;
            t[i].data_len = budget - used;
            nb = budget - used;
        }
        used += nb;
    }
    m.kv = c->kv;
    m.n_kv = c->n_kv;
    m.tensors = t;
    m.n_tensors = c->n_gt;
    return tfs_gg_write(&m, &c->w) == TFS_OK ? 0 : -1;
}

static int write_st(mut_ctx *c) {
    tfs_st_model m = c->sm;
    m.entries = c->se;
    m.n_entries = c->n_se;
    m.meta = c->meta;
    m.n_meta = c->n_meta;
    uint64_t data_len = m.data_len;
    if (!m.data_len_set) {
        uint64_t running = 0, top = 0;
        for (size_t i = 0; i < c->n_se; i++) {
            const tfs_st_wentry *e = &c->se[i];
            uint64_t end = e->offsets_set ? e->end : running + tfs__mut_st_nbytes(e);
            if (!e->offsets_set && end < running) end = UINT64_MAX;
            running = end;
            if (end > top) top = end;
        }
        data_len = top;
    }
    if (data_len > (uint64_t)c->max_size + 1u) {
        m.data_len_set = 1;
        m.data_len = (uint64_t)c->max_size + 1u;
    }
    m.data_fill = 0; /* a hole */
    return tfs_st_write(&m, &c->w) == TFS_OK ? 0 : -1;
}

int tfs__mut_write(mut_ctx *c) {
    wbuf_release(&c->w);
    if (c->nomem) return -1;
    wbuf_adopt(&c->w);
    return c->format == TFS_FORMAT_GGUF ? write_gg(c) : write_st(c);
}

size_t tfs__mut_copy_out(const mut_ctx *c, uint8_t *out, size_t max) {
    uint64_t total = c->w.size < max ? c->w.size : max;
    for (size_t i = 0; i < c->w.n_segs; i++) {
        const tfs_wseg *s = &c->w.segs[i];
        if (s->offset >= total) break;
        uint64_t n = s->len;
        if (n > total - s->offset) n = total - s->offset;
        if (s->hole)
            memset(out + s->offset, 0, (size_t)n);
        else
            memcpy(out + s->offset, c->w.p + s->pos, (size_t)n);
    }
    return (size_t)total;
}

/* ------------------------------------------------------- model helpers */

size_t tfs__mut_gg_need_tensors(mut_ctx *c, size_t n) {
    static const char *const names[] = {"x.0", "x.1", "x.2", "x.3"};
    while (c->n_gt < n) {
        size_t k = c->n_gt;
        tfs_gg_wtensor *t = tfs__mut_gg_add_tensor(c);
        if (!t) return 0;
        const char *name = k < 4 ? names[k] : tfs__mut_printf(c, "x.%zu", k);
        t->name = tfs_wstr_c(name ? name : "x");
        t->type = 0;
        t->n_dims = 1;
        t->ne[0] = 4 + k;
    }
    return c->n_gt;
}

size_t tfs__mut_gg_need_kv(mut_ctx *c, size_t n) {
    while (c->n_kv < n) {
        size_t k = c->n_kv;
        tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
        if (!kv) return 0;
        char *key = tfs__mut_printf(c, "mut.k%zu", k);
        if (!key) return 0;
        kv->key = tfs_wstr_c(key);
        kv->value = tfs_gg_wval_scalar(TFS_GG_U32, k);
    }
    return c->n_kv;
}

size_t tfs__mut_st_need_entries(mut_ctx *c, size_t n) {
    static const uint64_t shape[1] = {2};
    while (c->n_se < n) {
        size_t k = c->n_se;
        char *name = tfs__mut_printf(c, "x.%zu", k);
        tfs_st_wentry *e = tfs__mut_st_add_entry(c);
        if (!e || !name) return 0;
        e->name = tfs_wstr_c(name);
        e->dtype = TFS_ST_F32;
        e->n_dims = 1;
        e->shape = shape;
        if (k > 0 && c->se[k - 1].offsets_set) {
            e->offsets_set = 1;
            e->begin = c->se[k - 1].end;
            e->end = e->begin + 8;
        }
    }
    return c->n_se;
}

size_t tfs__mut_st_need_meta(mut_ctx *c, size_t n) {
    while (c->n_meta < n) {
        size_t k = c->n_meta;
        char *key = tfs__mut_printf(c, "k%zu", k);
        tfs_st_wmeta *m = tfs__mut_st_add_meta(c);
        if (!m || !key) return 0;
        m->key = tfs_wstr_c(key);
        m->value = tfs_wstr_c("v");
    }
    if (c->sm.metadata != TFS_STW_META_OBJECT) c->sm.metadata = TFS_STW_META_OBJECT;
    return c->n_meta;
}

int tfs__mut_gg_header_pad(mut_ctx *c) {
    if (tfs__mut_gg_need_tensors(c, 1) < 1 || tfs__mut_write(c) != 0) return 0;
    const tfs_field *p = tfs_wbuf_find(&c->w, TFS_FIELD_PADDING, -1, 0);
    int has = p && p->width > 0;
    tfs_wbuf_free(&c->w);
    if (has) return 1;
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c); /* 8 + 7 + 4 + 1 = 20 bytes more */
    if (!kv) return 0;
    kv->key = tfs_wstr_c("mut.pad");
    kv->value = tfs_gg_wval_scalar(TFS_GG_U8, 0);
    return 1;
}

int tfs__mut_gg_find_kv(const mut_ctx *c, const char *key) {
    size_t n = strlen(key);
    for (size_t i = 0; i < c->n_kv; i++)
        if (c->kv[i].key.len == n && c->kv[i].key.hole == 0 && memcmp(c->kv[i].key.ptr, key, n) == 0) return (int)i;
    return -1;
}

int tfs__mut_gg_array_kv(mut_ctx *c) {
    size_t k = 0, n = 0;
    for (size_t i = 0; i < c->n_kv; i++)
        if (c->kv[i].value.type == TFS_GG_ARRAY) n++;
    if (n) {
        k = (size_t)tfs__mut_below(&c->rng, n);
        for (size_t i = 0; i < c->n_kv; i++)
            if (c->kv[i].value.type == TFS_GG_ARRAY && k-- == 0) return (int)i;
    }
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (!kv) return -1;
    kv->key = tfs_wstr_c("mut.array");
    kv->value = tfs_gg_wval_array(TFS_GG_F32, 3, sk_scores, sizeof sk_scores);
    return (int)(c->n_kv - 1);
}

int tfs__mut_gg_string_kv(mut_ctx *c) {
    size_t n = 0;
    for (size_t i = 0; i < c->n_kv; i++)
        if (c->kv[i].value.type == TFS_GG_STRING && c->kv[i].value.n_strs >= 1) n++;
    if (n) {
        size_t k = (size_t)tfs__mut_below(&c->rng, n);
        for (size_t i = 0; i < c->n_kv; i++)
            if (c->kv[i].value.type == TFS_GG_STRING && c->kv[i].value.n_strs >= 1 && k-- == 0) return (int)i;
    }
    tfs_gg_wkv *kv = tfs__mut_gg_add_kv(c);
    if (!kv) return -1;
    tfs_wstr *s = tfs__mut_alloc(c, sizeof *s);
    if (!s) return -1;
    *s = tfs_wstr_c("hello");
    kv->key = tfs_wstr_c("mut.string");
    kv->value = tfs_gg_wval_str(s);
    return (int)(c->n_kv - 1);
}
