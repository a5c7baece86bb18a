/* test_lint_bytes.c: bytes of a valid GGUF file that no structure owns
 * (parsers/lint/lint_bytes.c): LT113 (after the data section padded to the
 * alignment; tfs_unowned_tail) and LT114 (padding bytes that are not zero).
 * The files are made by the library's writers (tfs_gg_write; the one
 * safetensors file by tfs_st_write); every offset
 * below is counted by hand from the GGUF layout (24-byte fixed header, KV
 * pairs, tensor infos, padding to 32, each tensor's data padded to 32), and
 * the written sizes are checked against those counts:
 *   TWO: KV "a" u8 (24..38), tensor infos "t" f32 [3] and "u" f32 [1]
 *        (33 bytes each: 38..104), padding 104..128, t's data 128..140,
 *        padding 140..160, u's data 160..164, padding 164..192 (72 padding
 *        bytes in all);
 *   NONE: KV "a" u8 (24..38), no tensor: padding to 64 (26 bytes);
 *   ARR:  KV "a" array of 3 u8 (24..52), no tensor: padding to 64 (12). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/files.h"
#include "common/sources.h"
#include "tfs/lint.h"
#include "tfs/tfs.h"
#include "tfs/write.h"

#define BUF_CAP 512u

typedef struct bytes {
    uint8_t b[BUF_CAP]; /* zeros past what was put */
    size_t n;
} bytes;

/* x = the file tfs_gg_write makes of m (holes as zeros); its length must be
 * `size`, counted by hand above. */
static void write_model(bytes *x, const tfs_gg_model *m, size_t size) {
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_gg_write(m, &w), TFS_OK);
    uint8_t *p = NULL;
    size_t n = 0;
    assert_int_equal(tfs_wbuf_flatten(&w, BUF_CAP, &p, &n), TFS_OK);
    tfs_wbuf_free(&w);
    assert_int_equal(n, size);
    memset(x, 0, sizeof *x);
    memcpy(x->b, p, n);
    x->n = n;
    free(p);
}

/* "a" = u8 7: 14 bytes */
static tfs_gg_wkv kv_a_u8(void) { return (tfs_gg_wkv){tfs_wstr_c("a"), tfs_gg_wval_scalar(TFS_GG_U8, 7)}; }

static void file_two(bytes *x) {
    static const uint8_t t_data[12] = {0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f, 0x3f};
    const tfs_gg_wkv kv = kv_a_u8();
    /* f32 [3] and f32 [1]: 33-byte infos; data 1.0f-ish bytes, never padding */
    const tfs_gg_wtensor t[2] = {{.name = tfs_wstr_c("t"), .n_dims = 1, .ne = {3}, .type = 0, .data = t_data},
                                 {.name = tfs_wstr_c("u"), .n_dims = 1, .ne = {1}, .type = 0, .data = t_data}};
    const tfs_gg_model m = {.version = 3, .n_kv = 1, .kv = &kv, .n_tensors = 2, .tensors = t};
    write_model(x, &m, 192);
}
static void file_none(bytes *x) {
    const tfs_gg_wkv kv = kv_a_u8();
    const tfs_gg_model m = {.version = 3, .n_kv = 1, .kv = &kv};
    write_model(x, &m, 38); /* no tensor: the writer stops after the KVs */
    x->n = 64;              /* the padding, zeros */
}
static void file_arr(bytes *x) {
    static const uint8_t el[3] = {9, 9, 9};
    const tfs_gg_wkv kv = {tfs_wstr_c("a"), tfs_gg_wval_array(TFS_GG_U8, 3, el, sizeof el)};
    const tfs_gg_model m = {.version = 3, .n_kv = 1, .kv = &kv};
    write_model(x, &m, 52);
    x->n = 64;
}

static tfs_header *parse(const bytes *x, size_t len) {
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_buffer(x->b, len, TFS_FORMAT_GGUF, 0, &h, &e), TFS_OK);
    return h;
}

/* Lint the first len bytes of x through a random-access source (7-byte
 * reads); the findings of rule `rule` into r. */
static void lint_len(const bytes *x, size_t len, tfs_lint_report *r) {
    tfs_header *h = parse(x, len);
    tfs_test_reader rd;
    tfs_source src;
    tfs_test_reader_source(&src, &rd, x->b, len, 7);
    tfs_lint_options o = {.src = &src};
    tfs_lint_report_init(r);
    assert_int_equal(tfs_lint_header(h, &o, r), TFS_OK);
    tfs_header_free(h);
}

static const tfs_lint_finding *only(const tfs_lint_report *r, tfs_lint_rule rule) {
    const tfs_lint_finding *f = NULL;
    for (size_t i = 0; i < r->n_findings; i++)
        if (r->findings[i].rule == rule) {
            assert_null(f); /* one finding per rule */
            f = &r->findings[i];
        }
    return f;
}

static void test_tail(void **state) {
    (void)state;
    bytes x;
    uint64_t at = 99;
    file_two(&x);
    static const struct {
        size_t len;
        uint64_t tail, at;
    } two[] = {
        {164, 0, 192}, /* the last tensor unpadded */
        {191, 0, 192}, {192, 0, 192}, {193, 1, 192}, {BUF_CAP, BUF_CAP - 192, 192},
    };
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
        tfs_header *h = parse(&x, two[i].len);
        assert_int_equal(tfs_unowned_tail(h, &at), two[i].tail);
        assert_int_equal(at, two[i].at);
        assert_int_equal(tfs_unowned_tail(h, NULL), two[i].tail);
        tfs_header_free(h);
    }
    file_none(&x);
    static const struct {
        size_t len;
        uint64_t tail;
    } none[] = {{38, 0}, {63, 0}, {64, 0}, {65, 1}, {100, 36}};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        tfs_header *h = parse(&x, none[i].len);
        assert_int_equal(tfs_unowned_tail(h, &at), none[i].tail);
        assert_int_equal(at, 64);
        tfs_header_free(h);
    }
    /* no header, or a stream parsed header-only (file size unknown): 0 */
    assert_int_equal(tfs_unowned_tail(NULL, &at), 0);
    assert_int_equal(at, 0);
    tfs_header *h = parse(&x, 100), copy = *h;
    copy.file_size = 0;
    assert_int_equal(tfs_unowned_tail(&copy, &at), 0);
    copy.file_size = 100;
    copy.complete = 0; /* a TFS_PARTIAL header */
    assert_int_equal(tfs_unowned_tail(&copy, &at), 0);
    tfs_header_free(h);
    /* safetensors: trailing bytes are ST307, so a valid file has none */
    static const uint64_t shape[1] = {1};
    static const uint8_t byte = 5;
    const tfs_st_wentry e = {.name = tfs_wstr_c("a"), .dtype = TFS_ST_U8, .n_dims = 1, .shape = shape, .data = &byte};
    const tfs_st_model m = {.n_entries = 1, .entries = &e, .pad_to = 1}; /* no padding: nothing after the byte */
    tfs_wbuf w;
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_st_write(&m, &w), TFS_OK);
    uint8_t *sbuf = NULL;
    size_t slen = 0;
    assert_int_equal(tfs_wbuf_flatten(&w, BUF_CAP, &sbuf, &slen), TFS_OK);
    tfs_wbuf_free(&w);
    assert_int_equal(tfs_parse_buffer(sbuf, slen, TFS_FORMAT_SAFETENSORS, 0, &h, NULL), TFS_OK);
    assert_int_equal(h->file_size, slen);
    assert_int_equal(tfs_unowned_tail(h, &at), 0);
    tfs_header_free(h);
    free(sbuf);
}

/* LT113's finding: the count, where it starts, the file's end. */
static void test_tail_finding(void **state) {
    (void)state;
    bytes x;
    file_two(&x);
    tfs_lint_report r;
    lint_len(&x, 193, &r);
    const tfs_lint_finding *f = only(&r, TFS_LT113);
    assert_non_null(f);
    assert_int_equal(f->severity, TFS_LINT_WARNING);
    assert_int_equal(f->tensor, -1);
    assert_string_equal(f->text, "1 byte after the data section, from offset 192 to the end of the file at 193: no "
                                 "tensor owns them, and ggml and llama.cpp never read them");
    tfs_lint_report_free(&r);
    lint_len(&x, 192, &r);
    assert_null(only(&r, TFS_LT113));
    tfs_lint_report_free(&r);
    lint_len(&x, BUF_CAP, &r);
    f = only(&r, TFS_LT113);
    assert_non_null(f);
    assert_string_equal(f->text, "320 bytes after the data section, from offset 192 to the end of the file at 512: no "
                                 "tensor owns them, and ggml and llama.cpp never read them");
    tfs_lint_report_free(&r);
}

typedef struct pad_case {
    size_t pos;    /* the byte set to 0x01 */
    size_t len;    /* the file's length */
    int64_t where; /* LT114's tensor, -2: no finding */
    const char *text;
} pad_case;

static void run_pad(void (*make)(bytes *), const pad_case *c, size_t n) {
    for (size_t i = 0; i < n; i++) {
        bytes x;
        make(&x);
        x.b[c[i].pos] = 1;
        tfs_lint_report r;
        lint_len(&x, c[i].len, &r);
        const tfs_lint_finding *f = only(&r, TFS_LT114);
        if (c[i].where == -2) {
            if (f) print_error("byte %zu: unexpected %s\n", c[i].pos, f->text);
            assert_null(f);
        } else {
            if (!f) print_error("byte %zu: no LT114\n", c[i].pos);
            assert_non_null(f);
            assert_int_equal(f->severity, TFS_LINT_WARNING);
            assert_int_equal(f->tensor, c[i].where);
            assert_string_equal(f->text, c[i].text);
        }
        assert_null(only(&r, TFS_LT113));
        tfs_lint_report_free(&r);
    }
}

#define PRE ", between the tensor infos (end at 104) and the data section (at 128)"
static void test_padding_two(void **state) {
    (void)state;
    static const pad_case c[] = {
        {104, 192, -1, "padding bytes not zero: 1 of 72; the first at offset 104" PRE},
        {127, 192, -1, "padding bytes not zero: 1 of 72; the first at offset 127" PRE},
        {128, 192, -2, NULL}, /* t's data */
        {139, 192, -2, NULL},
        {140, 192, 0, "padding bytes not zero: 1 of 72; the first at offset 140, in the padding after tensor t"},
        {159, 192, 0, "padding bytes not zero: 1 of 72; the first at offset 159, in the padding after tensor t"},
        {160, 192, -2, NULL}, /* u's data */
        {163, 192, -2, NULL},
        {164, 192, 1, "padding bytes not zero: 1 of 72; the first at offset 164, in the padding after tensor u"},
        {191, 192, 1, "padding bytes not zero: 1 of 72; the first at offset 191, in the padding after tensor u"},
        /* the last tensor's padding cut by the end of the file: only what is there is read */
        {170, 171, 1, "padding bytes not zero: 1 of 51; the first at offset 170, in the padding after tensor u"},
        {190, 191, 1, "padding bytes not zero: 1 of 71; the first at offset 190, in the padding after tensor u"},
    };
    run_pad(file_two, c, sizeof c / sizeof c[0]);
    /* byte 192 of a 193-byte file: after the padding, LT113's, not LT114's */
    bytes x;
    file_two(&x);
    x.b[192] = 1;
    tfs_lint_report r;
    lint_len(&x, 193, &r);
    assert_null(only(&r, TFS_LT114));
    assert_non_null(only(&r, TFS_LT113));
    tfs_lint_report_free(&r);
    /* many: 24 bytes before the data and the last byte */
    file_two(&x);
    memset(x.b + 104, 0xff, 24);
    x.b[191] = 0x80;
    lint_len(&x, 192, &r);
    const tfs_lint_finding *f = only(&r, TFS_LT114);
    assert_non_null(f);
    assert_string_equal(f->text, "padding bytes not zero: 25 of 72; the first at offset 104" PRE);
    tfs_lint_report_free(&r);
}

static void test_padding_no_tensors(void **state) {
    (void)state;
    static const pad_case none[] = {
        {38, 64, -1,
         "padding bytes not zero: 1 of 26; the first at offset 38, between the tensor infos (end at 38) and "
         "the data section (at 38)"},
        {63, 64, -1,
         "padding bytes not zero: 1 of 26; the first at offset 63, between the tensor infos (end at 38) and "
         "the data section (at 38)"},
        {37, 64, -2, NULL}, /* the u8 value */
    };
    run_pad(file_none, none, sizeof none / sizeof none[0]);
    static const pad_case arr[] = {
        {52, 64, -1,
         "padding bytes not zero: 1 of 12; the first at offset 52, between the tensor infos (end at 52) and "
         "the data section (at 52)"},
        {51, 64, -2, NULL}, /* the array's last element */
    };
    run_pad(file_arr, arr, sizeof arr / sizeof arr[0]);
}

/* No random-access source: LT113 still (arithmetic), LT114 not read. */
static void test_no_source(void **state) {
    (void)state;
    bytes x;
    file_two(&x);
    x.b[140] = 1;
    tfs_header *h = parse(&x, 200);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_lint_header(h, NULL, &r), TFS_OK);
    assert_null(only(&r, TFS_LT114));
    assert_non_null(only(&r, TFS_LT113));
    tfs_lint_report_free(&r);
    tfs_test_stream ts;
    tfs_source src;
    tfs_test_stream_source(&src, &ts, x.b, 200);
    tfs_lint_options o = {.src = &src};
    assert_int_equal(tfs_lint_header(h, &o, &r), TFS_OK);
    assert_null(only(&r, TFS_LT114));
    assert_non_null(only(&r, TFS_LT113));
    tfs_lint_report_free(&r);
    tfs_header_free(h);
}

#ifndef TFS_NO_POSIX
/* tfs_lint_path reads the padding from the file; one whose size changed
 * since its parse is not read (LT113 from the header only). */
static void test_path(void **state) {
    (void)state;
    bytes x;
    file_two(&x);
    x.b[140] = 1;
    char dir[] = "/tmp/tfs_lint_bytes_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    tfs_test_put_file(dir, "two.gguf", x.b, 200, path, sizeof path);
    tfs_header *h = NULL;
    assert_int_equal(tfs_parse_file(path, TFS_FORMAT_GGUF, 0, &h, NULL), TFS_OK);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_lint_path(path, h, NULL, &r), TFS_OK);
    const tfs_lint_finding *f = only(&r, TFS_LT114);
    assert_non_null(f);
    assert_int_equal(f->tensor, 0);
    f = only(&r, TFS_LT113);
    assert_non_null(f);
    assert_non_null(strstr(f->text, "8 bytes after the data section, from offset 192 to the end of the file at 200"));
    tfs_lint_report_free(&r);
    tfs_test_put_file(dir, "two.gguf", x.b, 201, NULL, 0);
    assert_int_equal(tfs_lint_path(path, h, NULL, &r), TFS_OK);
    assert_null(only(&r, TFS_LT114));
    assert_non_null(only(&r, TFS_LT113));
    tfs_lint_report_free(&r);
    tfs_header_free(h);
    assert_int_equal(remove(path), 0);
    assert_int_equal(remove(dir), 0);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tail),        cmocka_unit_test(test_tail_finding),
        cmocka_unit_test(test_padding_two), cmocka_unit_test(test_padding_no_tensors),
        cmocka_unit_test(test_no_source),
#ifndef TFS_NO_POSIX
        cmocka_unit_test(test_path),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
