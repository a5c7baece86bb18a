/* test_write_st.c: the safetensors writer (tfs/write.h).  write -> parse
 * equals the model for every dtype and the layout options; the field map's
 * tokens decode to the model; each knob gives the expected rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "write/wt_util.h"
#include "write/wt_expect.h"
#include "internal.h" /* tfs_le64 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t shape24[2] = {2, 4}; /* 8 elements: whole bytes for every dtype */
static tfs_st_wentry ents[TFS_ST_DTYPE_COUNT];
static const char *const names[] = {"a", "q\"uote\\back",        "nl\nctl\x01", "\xc3\xa9t\xc3\xa9", "\xf0\x9f\x98\x80",
                                    "",  "model.layers.0.weight"};
#define N_NAMES (sizeof names / sizeof names[0])
static tfs_st_wmeta meta[2];

static size_t make_entries(void) {
    for (uint32_t d = 0; d < TFS_ST_DTYPE_COUNT; d++) {
        static char nm[TFS_ST_DTYPE_COUNT][48];
        snprintf(nm[d], sizeof nm[d], "%s%s", names[d % N_NAMES], tfs_st_dtype_name(d));
        ents[d] = (tfs_st_wentry){.name = tfs_wstr_c(nm[d]), .dtype = d, .n_dims = 2, .shape = shape24};
    }
    ents[4].n_dims = 0; /* a scalar (U8) */
    meta[0] = (tfs_st_wmeta){.key = tfs_wstr_c("format"), .value = tfs_wstr_c("pt")};
    meta[1] = (tfs_st_wmeta){.key = tfs_wstr_c("k\"\xc3\xa9"), .value = tfs_wstr_c("tab\there \xf0\x9f\x98\x80")};
    return TFS_ST_DTYPE_COUNT;
}

static uint64_t nbytes(const tfs_st_wentry *e) {
    uint64_t n = 1;
    for (uint32_t j = 0; j < e->n_dims; j++) n *= e->shape[j];
    return n * tfs_st_dtype_bits(e->dtype) / 8u;
}

static void check(const tfs_st_model *m, unsigned flags, tfs_wbuf *w, wt_file *f) {
    assert_int_equal(tfs_st_write(m, w), TFS_OK);
    assert_int_equal(wt_parse(w, TFS_FORMAT_SAFETENSORS, flags, f), 0);
    if (f->st != TFS_OK) fail_msg("%s at %llu", tfs_rule_id(f->e.rule), (unsigned long long)f->e.offset);
    const tfs_header *h = f->h;
    assert_int_equal(h->n_tensors, m->n_entries);
    uint64_t running = 0;
    for (size_t i = 0; i < m->n_entries; i++) {
        const tfs_tensor *t = &h->tensors[i];
        const tfs_st_wentry *e = &m->entries[i];
        assert_int_equal(t->name.len, e->name.len);
        if (e->name.len) assert_memory_equal(t->name.ptr, e->name.ptr, e->name.len);
        assert_int_equal(t->type, e->dtype);
        assert_int_equal(t->n_dims, e->n_dims);
        for (uint32_t j = 0; j < e->n_dims; j++) assert_int_equal(t->shape[j], e->shape[j]);
        assert_int_equal(t->n_bytes, nbytes(e));
        assert_int_equal(t->offset, running);
        running += nbytes(e);
    }
    assert_int_equal(h->data_size, running);
    assert_int_equal(h->has_metadata, m->metadata == TFS_STW_META_OBJECT);
    assert_int_equal(h->n_kv, m->metadata == TFS_STW_META_OBJECT ? m->n_meta : 0);
    for (size_t i = 0; i < h->n_kv; i++) {
        assert_int_equal(h->kv[i].key.len, m->meta[i].key.len);
        assert_memory_equal(h->kv[i].key.ptr, m->meta[i].key.ptr, m->meta[i].key.len);
        tfs_str v;
        assert_int_equal(tfs_kv_get_string(h, &h->kv[i], 0, &v, NULL, 0), TFS_OK);
        assert_int_equal(v.len, m->meta[i].value.len);
        if (v.len) assert_memory_equal(v.ptr, m->meta[i].value.ptr, v.len);
    }
    if (m->pad_to != 1) assert_int_equal(h->header_size % (m->pad_to ? m->pad_to : 8u), 0);
    assert_int_equal(tfs_le64(f->p), h->header_size);
}

static void test_every_dtype_and_layout(void **state) {
    (void)state;
    static const struct {
        unsigned indent;
        int ascii;
        size_t meta_pos;
        uint32_t metadata;
        const char *members;
        int array_form;
        unsigned pad_to;
    } layouts[] = {
        {0, 0, 0, TFS_STW_META_OBJECT, NULL, 0, 0},   {2, 0, 3, TFS_STW_META_OBJECT, "sod", 0, 0},
        {4, 1, 99, TFS_STW_META_OBJECT, "osd", 0, 1}, {0, 1, 5, TFS_STW_META_NULL, "dos", 0, 16},
        {0, 0, 0, TFS_STW_META_ABSENT, NULL, 1, 0},
    };
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        size_t n = make_entries();
        for (size_t i = 0; i < n; i++) ents[i].members = layouts[l].members, ents[i].array_form = layouts[l].array_form;
        tfs_st_model m = {.n_entries = n,
                          .entries = ents,
                          .metadata = layouts[l].metadata,
                          .n_meta = 2,
                          .meta = meta,
                          .meta_pos = layouts[l].meta_pos,
                          .indent = layouts[l].indent,
                          .ascii = layouts[l].ascii,
                          .pad_to = layouts[l].pad_to};
        tfs_wbuf w = {0};
        wt_file f;
        check(&m, 0, &w, &f);
        if (layouts[l].ascii) /* no byte above 0x7F in the JSON */
            for (uint64_t i = 8; i < 8 + f.h->header_size; i++) assert_true(f.p[i] < 0x80);
        /* view -> model -> write -> parse: equal view */
        tfs_st_model *back = NULL;
        assert_int_equal(tfs_st_model_from_view(f.h, &back), TFS_OK);
        tfs_wbuf w2 = {0};
        wt_file g;
        assert_int_equal(tfs_st_write(back, &w2), TFS_OK);
        assert_int_equal(wt_parse(&w2, TFS_FORMAT_SAFETENSORS, 0, &g), 0);
        assert_int_equal(g.st, TFS_OK);
        const char *diff = wt_view_diff(f.h, g.h);
        if (diff) fail_msg("layout %zu: %s", l, diff);
        tfs_st_model_free(back);
        wt_file_free(&g);
        tfs_wbuf_free(&w2);
        wt_file_free(&f);
        tfs_wbuf_free(&w);
    }
}

static void test_crate_layout_bytes(void **state) {
    (void)state; /* compact JSON padded with spaces to 8, as the crate serializes */
    static const uint64_t s[1] = {2};
    tfs_st_wentry e = {.name = tfs_wstr_c("t"), .dtype = TFS_ST_F32, .n_dims = 1, .shape = s};
    tfs_st_wmeta kv = {.key = tfs_wstr_c("format"), .value = tfs_wstr_c("pt")};
    tfs_st_model m = {.n_entries = 1, .entries = &e, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = &kv};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    static const char want[] = "{\"__metadata__\":{\"format\":\"pt\"},\"t\":{\"dtype\":\"F32\",\"shape\":[2],"
                               "\"data_offsets\":[0,8]}}";
    size_t jl = sizeof want - 1, padded = (jl + 7) / 8 * 8;
    assert_int_equal(w.size, 8 + padded + 8);
    assert_int_equal(tfs_le64(w.p), padded);
    assert_memory_equal(w.p + 8, want, jl);
    for (size_t i = jl; i < padded; i++) assert_int_equal(w.p[8 + i], ' ');
    tfs_wbuf_free(&w);
}

/* The writer stages JSON in blocks: names of every length around the block
 * size (512 bytes) and hundreds of entries still give a field map whose
 * every name, dim and offset field holds its token. */
static void test_field_map_across_blocks(void **state) {
    (void)state;
    enum { N = 300 };
    static char bnames[N][1100];
    static tfs_st_wentry es[N];
    static const uint64_t shape[2] = {3, 5};
    for (size_t i = 0; i < N; i++) {
        size_t len = i < 40 ? 490 + i : i == 41 ? 1050 : 1 + i % 7; /* a name of 1,050 bytes: more than a block */
        for (size_t j = 0; j < len; j++) bnames[i][j] = (char)('a' + (i + j) % 26);
        bnames[i][len] = 0;
        es[i] = (tfs_st_wentry){.name = tfs_wstr_c(bnames[i]), .dtype = TFS_ST_F32, .n_dims = 2, .shape = shape};
    }
    tfs_st_model m = {.n_entries = N, .entries = es};
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    assert_true(w.len > 20000);
    size_t bnames_seen = 0, ends_seen = 0;
    for (size_t i = 0; i < w.n_fields; i++) {
        const tfs_field *x = &w.fields[i];
        const char *p = (const char *)w.p + x->offset;
        assert_true(x->offset + x->width <= w.size);
        if (x->kind == TFS_FIELD_NAME) {
            const char *name = bnames[x->record];
            assert_int_equal(x->width, strlen(name) + 2);
            assert_int_equal(p[0], '"');
            assert_memory_equal(p + 1, name, strlen(name));
            assert_int_equal(p[x->width - 1], '"');
            bnames_seen++;
        } else if (x->kind == TFS_FIELD_DIM) {
            assert_int_equal(strtoull(p, NULL, 10), shape[x->sub]);
        } else if (x->kind == TFS_FIELD_END) {
            assert_int_equal(strtoull(p, NULL, 10), 60u * ((uint64_t)x->record + 1u));
            ends_seen++;
        } else if (x->kind == TFS_FIELD_JSON) {
            assert_int_equal(x->offset, 8);
            assert_int_equal(x->width, tfs_le64(w.p));
        }
    }
    assert_int_equal(bnames_seen, N);
    assert_int_equal(ends_seen, N);
    tfs_wbuf_free(&w);
}

static void test_field_map_tokens(void **state) {
    (void)state;
    size_t n = make_entries();
    tfs_st_model m = {.n_entries = n,
                      .entries = ents,
                      .metadata = TFS_STW_META_OBJECT,
                      .n_meta = 2,
                      .meta = meta,
                      .meta_pos = 2,
                      .indent = 2};
    tfs_wbuf w = {0};
    wt_file f;
    check(&m, 0, &w, &f);
    const tfs_header *h = f.h;
    size_t seen[TFS_FIELD_KIND_COUNT] = {0};
    for (size_t i = 0; i < w.n_fields; i++) {
        const tfs_field *x = &w.fields[i];
        const char *p = (const char *)f.p + x->offset;
        char tok[64] = "";
        if (x->width < sizeof tok) memcpy(tok, p, (size_t)x->width);
        assert_true(x->offset + x->width <= f.len);
        seen[x->kind]++;
        int32_t r = x->record;
        switch (x->kind) {
        case TFS_FIELD_HEADER_SIZE:
            assert_int_equal(x->offset, 0);
            assert_int_equal(tfs_le64(f.p), h->header_size);
            break;
        case TFS_FIELD_JSON:
            assert_int_equal(x->offset, 8);
            assert_int_equal(x->width, h->header_size);
            break;
        case TFS_FIELD_PADDING:
            assert_int_equal(x->offset + x->width, h->data_offset);
            for (uint64_t j = 0; j < x->width; j++) assert_int_equal(p[j], ' ');
            break;
        case TFS_FIELD_ENTRY:
            assert_int_equal(p[0], '"');
            assert_int_equal(p[x->width - 1], '}');
            break;
        case TFS_FIELD_NAME:
            assert_int_equal(p[0], '"');
            assert_int_equal(p[x->width - 1], '"');
            if (r == 0) assert_string_equal(tok, "\"aBOOL\"");
            break;
        case TFS_FIELD_MEMBER_KEY:
            assert_string_equal(tok, x->sub == 0 ? "\"dtype\"" : x->sub == 1 ? "\"shape\"" : "\"data_offsets\"");
            break;
        case TFS_FIELD_DTYPE: {
            char want[32];
            snprintf(want, sizeof want, "\"%s\"", tfs_st_dtype_name(h->tensors[r].type));
            assert_string_equal(tok, want);
            break;
        }
        case TFS_FIELD_SHAPE: assert_string_equal(tok, r == 4 ? "[]" : "[2, 4]"); break;
        case TFS_FIELD_DIM: assert_int_equal(strtoull(tok, NULL, 10), h->tensors[r].shape[x->sub]); break;
        case TFS_FIELD_DATA_OFFSETS: assert_int_equal(p[0], '['); break;
        case TFS_FIELD_BEGIN: assert_int_equal(strtoull(tok, NULL, 10), h->tensors[r].offset); break;
        case TFS_FIELD_END:
            assert_int_equal(strtoull(tok, NULL, 10), h->tensors[r].offset + h->tensors[r].n_bytes);
            break;
        case TFS_FIELD_METADATA:
            assert_memory_equal(p, "\"__metadata__\"", 14);
            assert_int_equal(p[x->width - 1], '}');
            break;
        case TFS_FIELD_META_KEY: assert_string_equal(tok, r == 0 ? "\"format\"" : "\"k\\\"\xc3\xa9\""); break;
        case TFS_FIELD_META_VALUE:
            assert_int_equal(h->kv[r].value_offset, x->offset);
            assert_string_equal(tok, r == 0 ? "\"pt\"" : "\"tab\\there \xf0\x9f\x98\x80\"");
            break;
        case TFS_FIELD_DATA:
            assert_int_equal(x->offset, h->tensors[r].file_offset);
            assert_int_equal(x->width, h->tensors[r].n_bytes);
            break;
        default: fail_msg("unexpected field kind %s", tfs_field_kind_name(x->kind));
        }
    }
    assert_int_equal(seen[TFS_FIELD_ENTRY], n);
    assert_int_equal(seen[TFS_FIELD_DIM], 2 * (n - 1));
    assert_int_equal(seen[TFS_FIELD_MEMBER_KEY], 3 * n);
    assert_int_equal(seen[TFS_FIELD_META_KEY], 2);
    assert_int_equal(seen[TFS_FIELD_METADATA], 1);
    wt_file_free(&f);
    tfs_wbuf_free(&w);
}

/* ---------------------------------------------------------- knobs */

static const uint64_t s2[1] = {2};
static tfs_st_wentry ke[2];

static tfs_st_model base(void) {
    ke[0] = (tfs_st_wentry){.name = tfs_wstr_c("a"), .dtype = TFS_ST_F32, .n_dims = 1, .shape = s2};
    ke[1] = (tfs_st_wentry){.name = tfs_wstr_c("b"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = s2};
    meta[0] = (tfs_st_wmeta){.key = tfs_wstr_c("format"), .value = tfs_wstr_c("pt")};
    return (tfs_st_model){.n_entries = 2, .entries = ke, .metadata = TFS_STW_META_OBJECT, .n_meta = 1, .meta = meta};
}

/* Assert rule at the offset of field (kind, record, sub 0) of the map (kind < 0: not checked). */
static void expect_rule(const tfs_st_model *m, unsigned flags, tfs_rule rule, int kind, int32_t record) {
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(m, &w), TFS_OK);
    wt_expect(&w, TFS_FORMAT_SAFETENSORS, flags, rule, kind, record, -2);
}

static void expect_ok(const tfs_st_model *m, unsigned flags) {
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(m, &w), TFS_OK);
    wt_expect(&w, TFS_FORMAT_SAFETENSORS, flags, TFS_RULE_NONE, -1, 0, -2);
}

static void test_ST002_ST003_header_size(void **state) {
    (void)state;
    tfs_st_model m = base();
    expect_ok(&m, TFS_STRICT);
    m.header_size_set = 1, m.header_size = 100000001u;
    expect_rule(&m, 0, TFS_ST002, -1, -1);
    m.header_size = 1u << 20;
    expect_rule(&m, 0, TFS_ST003, -1, -1);
}

static void test_ST110_to_ST222_tokens(void **state) {
    (void)state;
    tfs_st_model m = base();
    ke[1].dtype_raw = "\"F99\"";
    expect_rule(&m, 0, TFS_ST210, TFS_FIELD_DTYPE, 1);
    m = base();
    ke[1].members = "ds"; /* data_offsets left out */
    expect_rule(&m, 0, TFS_ST202, -1, 1);
    ke[1].members = "dsod"; /* dtype twice */
    expect_rule(&m, 0, TFS_ST203, -1, 1);
    m = base();
    ke[1].begin_raw = "8.0";
    expect_rule(&m, 0, TFS_ST222, TFS_FIELD_BEGIN, 1);
    m = base();
    ke[0].members = "dsox", ke[0].extra = "\"x\":1";
    expect_ok(&m, 0);
    expect_rule(&m, TFS_STRICT, TFS_ST504, -1, 0);
    m = base();
    ke[1].array_form = 1; /* ["U8",[2],[8,10]]: valid, strict ST505 */
    expect_ok(&m, 0);
    expect_rule(&m, TFS_STRICT, TFS_ST505, -1, 1);
    ke[1].members = "ds"; /* 2 elements */
    expect_rule(&m, 0, TFS_ST204, -1, 1);
    ke[1].members = "", ke[1].array_form = 1; /* [] */
    expect_rule(&m, 0, TFS_ST204, -1, 1);
    ke[1].members = "dsox", ke[1].extra = "0"; /* 4 elements */
    expect_rule(&m, 0, TFS_ST204, -1, 1);
    m = base();
    meta[0].value_raw = "1";
    expect_rule(&m, 0, TFS_ST402, TFS_FIELD_META_VALUE, 0);
    m = base();
    m.trailing_ws = "\f";
    expect_rule(&m, 0, TFS_ST112, -1, -1);
    m = base();
    m.leading_ws = "\n";
    expect_ok(&m, 0);
    expect_rule(&m, TFS_STRICT, TFS_ST502, -1, -1);
}

static void test_ST301_to_ST308_offsets_and_data(void **state) {
    (void)state;
    tfs_st_model m = base();
    ke[1].offsets_set = 1, ke[1].begin = 9, ke[1].end = 11; /* gap after a */
    expect_rule(&m, 0, TFS_ST301, -1, 1);
    ke[1].begin = 8, ke[1].end = 7;
    expect_rule(&m, 0, TFS_ST302, -1, 1);
    ke[1].begin = 8, ke[1].end = 11; /* 3 bytes for 2 u8 */
    expect_rule(&m, 0, TFS_ST306, -1, 1);
    m = base();
    m.data_len_set = 1, m.data_len = 11; /* one trailing byte */
    expect_rule(&m, 0, TFS_ST307, -1, -1);
    m.data_len = 9; /* one byte short */
    expect_rule(&m, 0, TFS_ST308, -1, -1);
    m = base();
    static const uint64_t huge[3] = {UINT64_C(1) << 32, UINT64_C(1) << 32, 2};
    ke[1].shape = huge, ke[1].n_dims = 3, ke[1].offsets_set = 1, ke[1].begin = 8, ke[1].end = 10;
    expect_rule(&m, 0, TFS_ST303, -1, 1);
}

static void test_raw_json_and_data_bytes(void **state) {
    (void)state;
    static const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    tfs_st_model m = base();
    ke[0].data = bytes;
    m.data_fill = 0xA5;
    tfs_wbuf w = {0};
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    const tfs_field *d0 = tfs_wbuf_find(&w, TFS_FIELD_DATA, 0, 0), *d1 = tfs_wbuf_find(&w, TFS_FIELD_DATA, 1, 0);
    assert_memory_equal(tfs_wbuf_at(&w, d0->offset, 8), bytes, 8);
    assert_int_equal(tfs_wbuf_at(&w, d1->offset, 2)[1], 0xA5);
    tfs_wbuf_free(&w);
    /* raw_json: verbatim, N as given */
    tfs_st_model r = {.raw_json = "{}  ", .raw_json_len = 4, .pad_to = 1, .header_size_set = 1, .header_size = 5};
    assert_int_equal(tfs_st_write(&r, &w), TFS_OK);
    assert_int_equal(w.size, 12);
    assert_int_equal(tfs_le64(w.p), 5);
    assert_memory_equal(w.p + 8, "{}  ", 4);
    tfs_wbuf_free(&w);
    tfs_st_wentry bad = {.name = tfs_wstr_c("x"), .dtype = TFS_ST_DTYPE_COUNT};
    tfs_st_model b = {.n_entries = 1, .entries = &bad};
    assert_int_equal(tfs_st_write(&b, &w), TFS_EARG); /* unknown dtype without dtype_raw */
    tfs_wbuf_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dtype_and_layout),
        cmocka_unit_test(test_crate_layout_bytes),
        cmocka_unit_test(test_field_map_tokens),
        cmocka_unit_test(test_field_map_across_blocks),
        cmocka_unit_test(test_ST002_ST003_header_size),
        cmocka_unit_test(test_ST110_to_ST222_tokens),
        cmocka_unit_test(test_ST301_to_ST308_offsets_and_data),
        cmocka_unit_test(test_raw_json_and_data_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
