/* test_write_gguf.c: the GGUF writer (tfs/write.h).  write -> parse equals
 * the model for every value type and array element type, both versions and
 * several alignments; the field map decodes to the model; each knob gives
 * the expected rule; holes keep declared sizes out of memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "write/wt_util.h"
#include "write/wt_expect.h"
#include "internal.h" /* tfs_le32 / tfs_le64 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TFS_NO_POSIX
#include <sys/stat.h>
#include <unistd.h>
#endif

/* ---------------------------------------------------------- the model */

/* Element bytes of the arrays, one per fixed-size type (3 elements each). */
static uint8_t arr_raw[13][24];
static tfs_wstr strs[3];
static tfs_wstr one_str, empty_str, nul_str;
static const uint32_t fixed_types[] = {TFS_GG_U8,  TFS_GG_I8,   TFS_GG_U16, TFS_GG_I16, TFS_GG_U32, TFS_GG_I32,
                                       TFS_GG_F32, TFS_GG_BOOL, TFS_GG_U64, TFS_GG_I64, TFS_GG_F64};
#define N_FIXED (sizeof fixed_types / sizeof fixed_types[0])
static char keys[64][32];

/* KVs: [alignment], each fixed scalar, each fixed array, strings, string
 * array, empty array.  Returns the count. */
static size_t make_kvs(tfs_gg_wkv *kv, uint32_t alignment) {
    size_t n = 0;
    if (alignment) kv[n++] = (tfs_gg_wkv){tfs_wstr_c("general.alignment"), tfs_gg_wval_scalar(TFS_GG_U32, alignment)};
    for (size_t i = 0; i < N_FIXED; i++) {
        uint32_t t = fixed_types[i];
        snprintf(keys[i], sizeof keys[i], "scalar.%s", tfs_gg_vtype_name(t));
        uint64_t bits = t == TFS_GG_BOOL ? 1u : UINT64_C(0x8877665544332211) + i;
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c(keys[i]), tfs_gg_wval_scalar(t, bits)};
        size_t esz = tfs_gg_vtype_size(t);
        for (size_t j = 0; j < 3 * esz; j++)
            arr_raw[t][j] = t == TFS_GG_BOOL ? (uint8_t)(j & 1) : (uint8_t)(17 * j + i);
        snprintf(keys[32 + i], sizeof keys[32 + i], "array.%s", tfs_gg_vtype_name(t));
        kv[n++] = (tfs_gg_wkv){tfs_wstr_c(keys[32 + i]), tfs_gg_wval_array(t, 3, arr_raw[t], 3 * esz)};
    }
    one_str = tfs_wstr_c("llama");
    empty_str = tfs_wstr_c("");
    nul_str = tfs_wstr_n("a\0b", 3);
    strs[0] = tfs_wstr_c("<s>"), strs[1] = tfs_wstr_c(""), strs[2] = tfs_wstr_n("\xe2\x96\x81x\0", 5);
    kv[n++] = (tfs_gg_wkv){tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&one_str)};
    kv[n++] = (tfs_gg_wkv){tfs_wstr_c("empty.string"), tfs_gg_wval_str(&empty_str)};
    kv[n++] = (tfs_gg_wkv){tfs_wstr_c("nul.string"), tfs_gg_wval_str(&nul_str)};
    kv[n++] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.tokens"), tfs_gg_wval_str_array(strs, 3)};
    kv[n++] = (tfs_gg_wkv){tfs_wstr_c("empty.array"), tfs_gg_wval_array(TFS_GG_I32, 0, NULL, 0)};
    return n;
}

static size_t make_tensors(tfs_gg_wtensor *t) {
    t[0] = (tfs_gg_wtensor){.name = tfs_wstr_c("tok_embd.weight"), .n_dims = 2, .ne = {3, 2}, .type = 0}; /* f32 24 B */
    t[1] = (tfs_gg_wtensor){.name = tfs_wstr_c("blk.0.q4_0"), .n_dims = 1, .ne = {64}, .type = 2};        /* 36 B */
    t[2] = (tfs_gg_wtensor){.name = tfs_wstr_c("scalar.i8"), .n_dims = 0, .type = 24};                    /* 1 B */
    t[3] = (tfs_gg_wtensor){.name = tfs_wstr_c(""), .n_dims = 4, .ne = {5, 1, 1, 1}, .type = 1};          /* f16 10 B */
    return 4;
}

static uint64_t pad(uint64_t x, uint64_t a) { return (x + a - 1u) / a * a; }

/* The value bytes a model value stores (elements for arrays). */
static void check_value(const tfs_kv *kv, const uint8_t *file, const tfs_gg_wvalue *v) {
    const uint8_t *p = file + kv->value_offset;
    assert_int_equal(kv->type, v->type);
    if (v->type == TFS_GG_STRING) {
        assert_int_equal(kv->value_len, 8 + v->strs[0].len);
        assert_int_equal(tfs_le64(p), v->strs[0].len);
        if (v->strs[0].len) assert_memory_equal(p + 8, v->strs[0].ptr, v->strs[0].len);
    } else if (v->type == TFS_GG_ARRAY && v->strs) {
        assert_int_equal(kv->elem_type, TFS_GG_STRING);
        assert_int_equal(kv->count, v->n_strs);
        size_t at = 0;
        for (size_t i = 0; i < v->n_strs; i++) {
            assert_int_equal(tfs_le64(p + at), v->strs[i].len);
            if (v->strs[i].len) assert_memory_equal(p + at + 8, v->strs[i].ptr, v->strs[i].len);
            at += 8 + v->strs[i].len;
        }
        assert_int_equal(kv->value_len, at);
    } else if (v->type == TFS_GG_ARRAY) {
        assert_int_equal(kv->elem_type, v->elem_type);
        assert_int_equal(kv->count, v->count);
        assert_int_equal(kv->value_len, v->raw_len);
        if (v->raw_len) assert_memory_equal(p, v->raw, v->raw_len);
    } else {
        size_t sz = tfs_gg_vtype_size(v->type);
        assert_int_equal(kv->count, 1);
        assert_int_equal(kv->value_len, sz);
        assert_memory_equal(p, v->scalar, sz);
    }
}

/* write -> parse equals the model; returns the parse (caller frees). */
static void check_model(const tfs_gg_model *m, uint32_t align, tfs_wbuf *w, wt_file *f) {
    assert_int_equal(tfs_gg_write(m, w), TFS_OK);
    assert_int_equal(wt_parse(w, TFS_FORMAT_GGUF, 0, f), 0);
    if (f->st != TFS_OK) fail_msg("%s at %llu", tfs_rule_id(f->e.rule), (unsigned long long)f->e.offset);
    const tfs_header *h = f->h;
    assert_int_equal(h->version, m->version);
    assert_int_equal(h->alignment, align);
    if (m->n_tensors) assert_int_equal(h->data_offset % align, 0); /* ggml aligns only then */
    assert_int_equal(h->n_kv, m->n_kv);
    for (size_t i = 0; i < m->n_kv; i++) {
        assert_int_equal(h->kv[i].key.len, m->kv[i].key.len);
        assert_memory_equal(h->kv[i].key.ptr, m->kv[i].key.ptr, m->kv[i].key.len);
        check_value(&h->kv[i], f->p, &m->kv[i].value);
    }
    assert_int_equal(h->n_tensors, m->n_tensors);
    uint64_t running = 0;
    for (size_t i = 0; i < m->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        const tfs_gg_wtensor *x = &m->tensors[i];
        uint64_t nb;
        assert_int_equal(tfs_gg_tensor_nbytes(x->type, x->n_dims, x->ne, &nb), 0);
        assert_int_equal(t->name.len, x->name.len);
        if (x->name.len) assert_memory_equal(t->name.ptr, x->name.ptr, x->name.len);
        assert_int_equal(t->type, x->type);
        assert_int_equal(t->n_dims, x->n_dims);
        for (uint32_t j = 0; j < x->n_dims; j++) assert_int_equal(t->shape[j], x->ne[j]);
        assert_int_equal(t->n_bytes, nb);
        assert_int_equal(t->offset, running);
        assert_int_equal(t->file_offset, h->data_offset + running);
        running += pad(nb, align);
    }
    assert_int_equal(h->data_size, running);
    if (m->n_tensors) assert_int_equal(f->len, h->data_offset + running);
}

static void test_every_value_type_versions_alignments(void **state) {
    (void)state;
    static const uint32_t aligns[] = {0, 1, 8, 64, 4096};
    tfs_gg_wkv kv[64];
    tfs_gg_wtensor t[4];
    for (uint32_t version = 2; version <= 3; version++)
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
            tfs_gg_model m = {.version = version,
                              .kv = kv,
                              .n_kv = make_kvs(kv, aligns[a]),
                              .tensors = t,
                              .n_tensors = make_tensors(t)};
            tfs_wbuf w = {0};
            wt_file f;
            check_model(&m, aligns[a] ? aligns[a] : 32, &w, &f);
            /* view -> model -> write gives the same bytes */
            tfs_gg_model *back = NULL;
            assert_int_equal(tfs_gg_model_from_view(f.h, &back), TFS_OK);
            tfs_wbuf w2 = {0};
            assert_int_equal(tfs_gg_write(back, &w2), TFS_OK);
            uint8_t *p2;
            size_t n2;
            assert_int_equal(tfs_wbuf_flatten(&w2, 1u << 20, &p2, &n2), TFS_OK);
            assert_int_equal(n2, f.len);
            assert_memory_equal(p2, f.p, n2);
            free(p2);
            tfs_gg_model_free(back);
            tfs_wbuf_free(&w2);
            wt_file_free(&f);
            tfs_wbuf_free(&w);
        }
}

/* A reader over bytes in memory; counts its calls. */
typedef struct mem_rd {
    const uint8_t *p;
    size_t len;
    int calls;
} mem_rd;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    mem_rd *r = ctx;
    r->calls++;
    size_t n = off >= r->len ? 0 : (r->len - (size_t)off < len ? r->len - (size_t)off : len);
    if (n) memcpy(buf, r->p + off, n);
    *got = n;
    return 0;
}

/* tfs_gg_model_from_view over a reader: a random-access one gives the same
 * bytes again (arrays read whole through the reader, copied into the model:
 * names are borrowed from h, no value from the reader's bytes);
 * a forward-only one from the array bytes the parser kept. */
static void test_model_from_view_over_readers(void **state) {
    (void)state;
    tfs_gg_wkv kv[64];
    tfs_gg_wtensor t[4];
    tfs_gg_model m = {.version = 3, .kv = kv, .n_kv = make_kvs(kv, 0), .tensors = t, .n_tensors = make_tensors(t)};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    uint8_t *p;
    size_t n;
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p, &n), TFS_OK);
    for (int forward = 1; forward >= 0; forward--) { /* random access last: it overwrites p */
        mem_rd r = {p, n, 0};
        tfs_source src = {.read = mem_read, .ctx = &r, .size = forward ? TFS_SIZE_UNKNOWN : n, .forward = forward};
        tfs_header *h = NULL;
        tfs_error e;
        assert_int_equal(tfs_parse_source(&src, NULL, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
        int parse_calls = r.calls;
        tfs_gg_model *back = NULL;
        tfs_status st = tfs_gg_model_from_view(h, &back);
        /* a forward-only reader: every array here fits in what a stream
         * keeps (TFS_ARRAY_KEEP bytes each), so the model comes from the
         * kept bytes (test_gg_kv: arrays past that bound) */
        assert_int_equal(st, TFS_OK);
        {
            if (!forward) {
                assert_true(r.calls > parse_calls); /* the arrays came through the reader */
                memset(p + 24, 0xEE, n - 24);       /* the model holds copies, not the reader's bytes */
            }
            tfs_wbuf w2 = {0};
            assert_int_equal(tfs_gg_write(back, &w2), TFS_OK);
            uint8_t *p2;
            size_t n2;
            assert_int_equal(tfs_wbuf_flatten(&w2, 1u << 20, &p2, &n2), TFS_OK);
            uint8_t *p1;
            size_t n1;
            assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p1, &n1), TFS_OK);
            assert_int_equal(n2, n1);
            assert_memory_equal(p2, p1, n1);
            free(p1);
            free(p2);
            tfs_wbuf_free(&w2);
            tfs_gg_model_free(back);
        }
        tfs_header_free(h);
    }
    free(p);
    tfs_wbuf_free(&w);
}

static void test_empty_file_and_no_tensors(void **state) {
    (void)state;
    tfs_gg_model m = {.version = 3};
    tfs_wbuf w = {0};
    wt_file f;
    check_model(&m, 32, &w, &f);
    assert_int_equal(f.len, 24); /* no padding without tensors (ggml seeks only then) */
    wt_file_free(&f);
    tfs_wbuf_free(&w);
}

/* ---------------------------------------------------------- field map */

static uint64_t le(const uint8_t *p, uint64_t n) {
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void test_field_map_decodes_to_model(void **state) {
    (void)state;
    tfs_gg_wkv kv[64];
    tfs_gg_wtensor t[4];
    tfs_gg_model m = {.version = 3, .kv = kv, .n_kv = make_kvs(kv, 64), .tensors = t, .n_tensors = make_tensors(t)};
    tfs_wbuf w = {0};
    wt_file f;
    check_model(&m, 64, &w, &f);
    const tfs_header *h = f.h;
    size_t seen[TFS_FIELD_KIND_COUNT] = {0};
    uint64_t prev = 0;
    for (size_t i = 0; i < w.n_fields; i++) {
        const tfs_field *x = &w.fields[i];
        const uint8_t *p = f.p + x->offset;
        assert_true(x->offset >= prev); /* in file order */
        prev = x->offset;
        assert_true(x->offset + x->width <= f.len);
        assert_string_not_equal(tfs_field_kind_name(x->kind), "?");
        seen[x->kind]++;
        const tfs_gg_wkv *k = x->record >= 0 && (size_t)x->record < m.n_kv ? &kv[x->record] : NULL;
        const tfs_gg_wtensor *ti = x->record >= 0 && (size_t)x->record < m.n_tensors ? &t[x->record] : NULL;
        switch (x->kind) {
        case TFS_FIELD_MAGIC: assert_memory_equal(p, "GGUF", 4); break;
        case TFS_FIELD_VERSION: assert_int_equal(le(p, x->width), 3); break;
        case TFS_FIELD_N_TENSORS: assert_int_equal(le(p, x->width), m.n_tensors); break;
        case TFS_FIELD_N_KV: assert_int_equal(le(p, x->width), m.n_kv); break;
        case TFS_FIELD_KV: assert_int_equal(x->offset, h->kv[x->record].key.ptr - (const char *)f.p - 8); break;
        case TFS_FIELD_KEY_LEN: assert_int_equal(le(p, 8), k->key.len); break;
        case TFS_FIELD_KEY:
            assert_int_equal(x->width, k->key.len);
            assert_memory_equal(p, k->key.ptr, x->width);
            break;
        case TFS_FIELD_VALUE_TYPE: assert_int_equal(le(p, 4), k->value.type); break;
        case TFS_FIELD_ELEM_TYPE: assert_int_equal(le(p, 4), k->value.elem_type); break;
        case TFS_FIELD_COUNT: assert_int_equal(le(p, 8), k->value.count); break;
        case TFS_FIELD_ARRAY_DATA:
            assert_int_equal(x->offset, h->kv[x->record].value_offset);
            assert_int_equal(x->width, h->kv[x->record].value_len);
            break;
        case TFS_FIELD_STR_LEN: assert_int_equal(le(p, 8), k->value.strs[x->sub].len); break;
        case TFS_FIELD_STR:
            assert_int_equal(x->width, k->value.strs[x->sub].len);
            if (x->width) assert_memory_equal(p, k->value.strs[x->sub].ptr, x->width);
            break;
        case TFS_FIELD_VALUE:
            if (k->value.type == TFS_GG_ARRAY)
                assert_memory_equal(p, k->value.raw + x->sub * x->width, x->width);
            else
                assert_memory_equal(p, k->value.scalar, x->width);
            assert_int_equal(x->width,
                             tfs_gg_vtype_size(k->value.type == TFS_GG_ARRAY ? k->value.elem_type : k->value.type));
            break;
        case TFS_FIELD_TENSOR_INFO:
            assert_int_equal(x->offset, h->tensors[x->record].name.ptr - (const char *)f.p - 8);
            break;
        case TFS_FIELD_NAME_LEN: assert_int_equal(le(p, 8), ti->name.len); break;
        case TFS_FIELD_NAME:
            assert_int_equal(x->width, ti->name.len);
            if (x->width) assert_memory_equal(p, ti->name.ptr, x->width);
            break;
        case TFS_FIELD_N_DIMS: assert_int_equal(le(p, 4), ti->n_dims); break;
        case TFS_FIELD_DIM: assert_int_equal(le(p, 8), ti->ne[x->sub]); break;
        case TFS_FIELD_TYPE: assert_int_equal(le(p, 4), ti->type); break;
        case TFS_FIELD_OFFSET: assert_int_equal(le(p, 8), h->tensors[x->record].offset); break;
        case TFS_FIELD_PADDING:
            assert_int_equal(x->offset + x->width, h->data_offset);
            for (uint64_t j = 0; j < x->width; j++) assert_int_equal(p[j], 0);
            break;
        case TFS_FIELD_DATA:
            assert_int_equal(x->offset, h->tensors[x->record].file_offset);
            assert_int_equal(x->width, h->tensors[x->record].n_bytes);
            break;
        case TFS_FIELD_DATA_PADDING:
            assert_int_equal(x->offset, h->tensors[x->record].file_offset + h->tensors[x->record].n_bytes);
            assert_int_equal((x->offset + x->width - h->data_offset) % 64, 0);
            break;
        default: fail_msg("unexpected field kind %u", x->kind);
        }
    }
    assert_int_equal(seen[TFS_FIELD_KV], m.n_kv);
    assert_int_equal(seen[TFS_FIELD_TENSOR_INFO], m.n_tensors);
    assert_int_equal(seen[TFS_FIELD_DIM], 2 + 1 + 0 + 4);
    assert_int_equal(seen[TFS_FIELD_DATA], m.n_tensors);
    assert_int_equal(seen[TFS_FIELD_PADDING], 1);
    assert_int_equal(seen[TFS_FIELD_STR_LEN], 3 + 3);
    const tfs_field *nkv = tfs_wbuf_find(&w, TFS_FIELD_N_KV, -1, 0);
    assert_non_null(nkv);
    assert_int_equal(nkv->offset, 16);
    assert_string_equal(tfs_field_kind_name(TFS_FIELD_N_KV), "n_kv");
    assert_string_equal(tfs_field_kind_name(TFS_FIELD_KIND_COUNT), "?");
    wt_file_free(&f);
    tfs_wbuf_free(&w);
}

/* ---------------------------------------------------------- knobs */

static tfs_gg_wtensor kt[2];
static tfs_gg_wkv kkv[2];

/* A small valid model: 1 KV (general.architecture), 2 tensors. */
static tfs_gg_model base(void) {
    one_str = tfs_wstr_c("llama");
    kkv[0] = (tfs_gg_wkv){tfs_wstr_c("general.architecture"), tfs_gg_wval_str(&one_str)};
    kt[0] = (tfs_gg_wtensor){.name = tfs_wstr_c("a"), .n_dims = 1, .ne = {5}, .type = 0}; /* 20 B */
    kt[1] = (tfs_gg_wtensor){.name = tfs_wstr_c("b"), .n_dims = 2, .ne = {2, 3}, .type = 0};
    return (tfs_gg_model){.version = 3, .n_kv = 1, .kv = kkv, .n_tensors = 2, .tensors = kt};
}

/* Write m, parse with flags; assert `rule` at the offset of field
 * (kind, record, sub) of the map plus `delta` (kind < 0: skip the offset). */
static void expect_rule(const tfs_gg_model *m, unsigned flags, tfs_rule rule, int kind, int32_t record, int64_t index) {
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_write(m, &w), TFS_OK);
    wt_expect(&w, TFS_FORMAT_GGUF, flags, rule, kind, record, index);
}

static void expect_ok(const tfs_gg_model *m, unsigned flags) {
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_write(m, &w), TFS_OK);
    wt_expect(&w, TFS_FORMAT_GGUF, flags, TFS_RULE_NONE, -1, 0, -2);
}

static void test_GG002_GG012_GG013_magic_version(void **state) {
    (void)state;
    tfs_gg_model m = base();
    expect_ok(&m, 0);
    m.magic = "GGUX";
    expect_rule(&m, 0, TFS_GG002, TFS_FIELD_MAGIC, -1, -1);
    m = base();
    m.version = 1;
    expect_rule(&m, 0, TFS_GG012, TFS_FIELD_VERSION, -1, -1);
    m.version = 4;
    expect_rule(&m, 0, TFS_GG013, TFS_FIELD_VERSION, -1, -1);
}

static void test_GG020_GG103_GG201_counts(void **state) {
    (void)state;
    tfs_gg_model m = base();
    m.n_tensors_set = 1, m.n_tensors_field = UINT64_MAX; /* negative as i64 */
    expect_rule(&m, 0, TFS_GG020, TFS_FIELD_N_TENSORS, -1, -1);
    m = base();
    m.n_tensors = 0, m.n_kv_set = 1, m.n_kv_field = 2; /* a second KV that is not there */
    expect_rule(&m, 0, TFS_GG103, -1, 0, 1);
    m = base();
    m.n_tensors_set = 1, m.n_tensors_field = 3, m.flags = TFS_GGW_NO_DATA | TFS_GGW_NO_HEADER_PAD;
    expect_rule(&m, 0, TFS_GG201, -1, 0, 2);
}

static void test_GG101_GG102_GG110_GG111_strings(void **state) {
    (void)state;
    tfs_gg_model m = base();
    kkv[0].key.len_set = 1, kkv[0].key.len_field = (UINT64_C(1) << 30) + 1u;
    expect_rule(&m, 0, TFS_GG101, TFS_FIELD_KEY_LEN, 0, 0);
    m = base();
    one_str.len_set = 1, one_str.len_field = 1u << 20; /* declared longer than the file */
    expect_rule(&m, 0, TFS_GG102, TFS_FIELD_STR_LEN, 0, 0);
    m = base();
    kkv[0].key = tfs_wstr_c("");
    expect_rule(&m, 0, TFS_GG110, TFS_FIELD_KV, 0, 0);
    m = base();
    kkv[1] = kkv[0];
    m.n_kv = 2;
    expect_rule(&m, 0, TFS_GG111, TFS_FIELD_KV, 1, 1);
}

static void test_GG120_GG121_GG130_GG501_values(void **state) {
    (void)state;
    tfs_gg_model m = base();
    kkv[0].value.type = 13; /* raw id out of range */
    expect_rule(&m, 0, TFS_GG120, TFS_FIELD_VALUE_TYPE, 0, 0);
    m = base();
    kkv[0].value = tfs_gg_wval_array(TFS_GG_ARRAY, 0, NULL, 0); /* nested array */
    expect_rule(&m, 0, TFS_GG121, TFS_FIELD_ELEM_TYPE, 0, 0);
    m = base();
    static const uint8_t u8s[3] = {1, 2, 3};
    kkv[0].value = tfs_gg_wval_array(TFS_GG_U8, (UINT64_C(1) << 30) + 1u, u8s, 3);
    expect_rule(&m, 0, TFS_GG130, TFS_FIELD_COUNT, 0, 0);
    m = base();
    kkv[0].value = tfs_gg_wval_scalar(TFS_GG_BOOL, 2);
    expect_ok(&m, 0);
    expect_rule(&m, TFS_STRICT, TFS_GG501, TFS_FIELD_VALUE, 0, 0);
}

static void test_GG140_GG141_alignment(void **state) {
    (void)state;
    tfs_gg_model m = base();
    kkv[1] = (tfs_gg_wkv){tfs_wstr_c("general.alignment"), tfs_gg_wval_scalar(TFS_GG_U8, 32)};
    m.n_kv = 2;
    expect_rule(&m, 0, TFS_GG140, -1, 1, 1);
    kkv[1].value = tfs_gg_wval_scalar(TFS_GG_U32, 48);
    m.alignment = 32; /* layout knob: the KV's value is not used */
    expect_rule(&m, 0, TFS_GG141, -1, 1, 1);
}

static void test_GG202_to_GG210_tensor_info(void **state) {
    (void)state;
    tfs_gg_model m = base();
    kt[1].name = tfs_wstr_c("0123456789012345678901234567890123456789012345678901234567890123"); /* 64 */
    expect_rule(&m, 0, TFS_GG202, TFS_FIELD_TENSOR_INFO, 1, 1);
    m = base();
    kt[1].name = kt[0].name;
    expect_rule(&m, 0, TFS_GG203, TFS_FIELD_TENSOR_INFO, 1, 1);
    m = base();
    kt[1].n_dims_set = 1, kt[1].n_dims_field = 5;
    expect_rule(&m, 0, TFS_GG204, TFS_FIELD_N_DIMS, 1, 1);
    m = base();
    kt[1].ne[1] = (uint64_t)-1;
    expect_rule(&m, 0, TFS_GG205, -1, 1, 1);
    m = base();
    kt[1].type = 43;
    expect_rule(&m, 0, TFS_GG208, TFS_FIELD_TYPE, 1, 1);
    kt[1].type = 4; /* removed q4_2 */
    expect_rule(&m, 0, TFS_GG209, TFS_FIELD_TYPE, 1, 1);
    kt[1].type = 2; /* q4_0: ne[0] = 2 is not a multiple of 32 */
    expect_rule(&m, 0, TFS_GG210, TFS_FIELD_TYPE, 1, 1);
}

static void test_GG301_GG302_GG304_GG503_layout(void **state) {
    (void)state;
    tfs_gg_model m = base();
    kt[1].offset_set = 1, kt[1].offset = 20; /* packed would be 32 */
    expect_rule(&m, 0, TFS_GG302, TFS_FIELD_OFFSET, 1, 1);
    m = base();
    m.flags = TFS_GGW_NO_DATA;
    expect_rule(&m, 0, TFS_GG304, TFS_FIELD_OFFSET, 0, 0);
    expect_ok(&m, TFS_HEADER_ONLY);
    m.flags = TFS_GGW_NO_DATA | TFS_GGW_NO_HEADER_PAD;
    expect_rule(&m, TFS_HEADER_ONLY, TFS_GG301, -1, 0, -1);
    m = base();
    kt[1].data_len_set = 1, kt[1].data_len = 23; /* one byte short */
    m.flags = TFS_GGW_NO_DATA_PAD;
    expect_rule(&m, 0, TFS_GG304, TFS_FIELD_OFFSET, 1, 1);
    m = base();
    m.pad_byte = 0xFF;
    expect_ok(&m, 0);
    expect_rule(&m, TFS_STRICT, TFS_GG503, TFS_FIELD_PADDING, -1, -1);
}

/* ---------------------------------------------------------- holes */

static void test_holes_declare_gigabytes_without_memory(void **state) {
    (void)state;
    tfs_wstr big[40];
    for (int i = 0; i < 40; i++) big[i] = tfs_wstr_hole(UINT64_C(1) << 30);
    kkv[0] = (tfs_gg_wkv){tfs_wstr_c("tokenizer.ggml.tokens"), tfs_gg_wval_str_array(big, 40)};
    tfs_gg_model m = {.version = 3, .n_kv = 1, .kv = kkv};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_int_equal(w.size, 24u + 8u + 21u + 4u + 4u + 8u + 40u * (8u + (UINT64_C(1) << 30)));
    assert_true(w.len < 1024); /* 40 GiB declared, < 1 KB materialised */
    const tfs_field *s39 = tfs_wbuf_find(&w, TFS_FIELD_STR, 0, 39);
    assert_non_null(s39);
    assert_int_equal(s39->width, UINT64_C(1) << 30);
    assert_null(tfs_wbuf_at(&w, s39->offset, 1));         /* a hole */
    assert_non_null(tfs_wbuf_at(&w, s39->offset - 8, 8)); /* its length field is not */
    assert_int_equal(tfs_le64(tfs_wbuf_at(&w, s39->offset - 8, 8)), UINT64_C(1) << 30);
    uint8_t *p;
    size_t n;
    assert_int_equal(tfs_wbuf_flatten(&w, 1u << 20, &p, &n), TFS_EARG); /* too big to flatten */
#ifndef TFS_NO_POSIX
    /* as a sparse file: 40 GiB long, a few blocks on disk */
    char path[] = "/tmp/tfs_write_sparse_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int err = -1;
    assert_int_equal(tfs_wbuf_write_fd(&w, fd, &err), TFS_OK);
    assert_int_equal(err, 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_int_equal((uint64_t)st.st_size, w.size);
    assert_true((uint64_t)st.st_blocks * 512u < (UINT64_C(1) << 20));
    uint8_t head[32];
    assert_int_equal(pread(fd, head, sizeof head, 0), (ssize_t)sizeof head);
    assert_memory_equal(head, w.p, sizeof head);
    close(fd);
    unlink(path);
#endif
    tfs_wbuf_free(&w);

    /* a small hole parses as zero bytes */
    tfs_wstr small = tfs_wstr_hole(5000);
    kkv[0] = (tfs_gg_wkv){tfs_wstr_c("k"), tfs_gg_wval_str(&small)};
    wt_file f;
    assert_int_equal(tfs_gg_write(&m, &w), TFS_OK);
    assert_int_equal(wt_parse(&w, TFS_FORMAT_GGUF, 0, &f), 0);
    assert_int_equal(f.st, TFS_OK);
    assert_int_equal(f.h->kv[0].value_len, 8 + 5000);
    for (size_t i = 0; i < 5000; i++) assert_int_equal(f.p[f.h->kv[0].value_offset + 8 + i], 0);
    wt_file_free(&f);
    tfs_wbuf_free(&w);
}

static void test_wbuf_truncate_and_errors(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    assert_int_equal(tfs_wbuf_bytes(&w, "abc", 3), TFS_OK);
    assert_int_equal(tfs_wbuf_hole(&w, 10), TFS_OK);
    assert_int_equal(tfs_wbuf_u16(&w, 0x0201), TFS_OK);
    assert_int_equal(w.n_segs, 3);
    assert_int_equal(w.size, 15);
    assert_int_equal(tfs_wbuf_truncate(&w, 5), TFS_OK);
    assert_int_equal(w.n_segs, 2);
    assert_int_equal(w.len, 3);
    assert_int_equal(tfs_wbuf_u8(&w, 7), TFS_OK);
    assert_int_equal(*tfs_wbuf_at(&w, 5, 1), 7);
    assert_int_equal(tfs_wbuf_truncate(&w, 100), TFS_EARG); /* past the end: sticky */
    assert_int_equal(tfs_wbuf_u8(&w, 1), TFS_EARG);
    tfs_wbuf_free(&w);
    assert_int_equal(tfs_wbuf_hole(&w, UINT64_MAX), TFS_OK);
    assert_int_equal(tfs_wbuf_u8(&w, 1), TFS_EARG); /* file size past 2^64 */
    tfs_wbuf_free(&w);
    assert_int_equal(tfs_gg_write(NULL, &w), TFS_EARG);
    tfs_wbuf_free(&w);
    tfs_gg_wtensor big = {.n_dims = TFS_GG_WMAX_DIMS + 1};
    tfs_gg_model m = {.version = 3, .n_tensors = 1, .tensors = &big};
    assert_int_equal(tfs_gg_write(&m, &w), TFS_EARG);
    tfs_wbuf_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_value_type_versions_alignments),
        cmocka_unit_test(test_model_from_view_over_readers),
        cmocka_unit_test(test_empty_file_and_no_tensors),
        cmocka_unit_test(test_field_map_decodes_to_model),
        cmocka_unit_test(test_GG002_GG012_GG013_magic_version),
        cmocka_unit_test(test_GG020_GG103_GG201_counts),
        cmocka_unit_test(test_GG101_GG102_GG110_GG111_strings),
        cmocka_unit_test(test_GG120_GG121_GG130_GG501_values),
        cmocka_unit_test(test_GG140_GG141_alignment),
        cmocka_unit_test(test_GG202_to_GG210_tensor_info),
        cmocka_unit_test(test_GG301_GG302_GG304_GG503_layout),
        cmocka_unit_test(test_holes_declare_gigabytes_without_memory),
        cmocka_unit_test(test_wbuf_truncate_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
