/* test_st_json.c: the "JSON edge cases" table of spec/safetensors.md (the
 * upstream vectors, each row with its verdict and canonical category), then
 * serde_json grammar details: numbers, strings, escapes, whitespace. */
#include "st_test_util.h"

#define E "\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]"

typedef struct row {
    const char *json;
    size_t len;           /* 0: strlen(json) */
    tfs_rule rule;        /* TFS_RULE_NONE: valid */
    const char *category; /* spec verdict for invalid rows */
    const char *needle;   /* offending token: offset = 8 + its position */
    int occurrence;
    int delta; /* added to the needle's offset */
} row;

/* 8 + position of the k-th occurrence of needle in hay[0, len) */
static uint64_t find_nth(const char *hay, size_t len, const char *needle, int k) {
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= len; i++)
        if (memcmp(hay + i, needle, m) == 0 && k-- == 0) return 8u + i;
    fail_msg("'%s' not found", needle);
    return 0;
}

static void run_rows(const row *rows, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const row *r = &rows[i];
        size_t len = r->len ? r->len : strlen(r->json);
        stt_buf b = stt_make(r->json, len, len, 1);
        if (r->rule == TFS_RULE_NONE) {
            stt_expect_ok(&b, 0, 0);
        } else {
            assert_string_equal(tfs_rule_category(r->rule), r->category);
            uint64_t off = find_nth(r->json, len, r->needle, r->occurrence) + (uint64_t)r->delta;
            tfs_error e;
            tfs_status st = stt_parse(&b, 0, NULL, &e);
            if (st != TFS_INVALID || e.rule != r->rule || e.offset != off)
                fail_msg("row %zu: expected %s@%llu got %s@%llu", i, tfs_rule_id(r->rule), (unsigned long long)off,
                         tfs_rule_id(e.rule), (unsigned long long)e.offset);
        }
        stt_free(&b);
    }
}

static const char IHD[] = "InvalidHeaderDeserialization";

/* Every row of the spec's "JSON edge cases" table, in table order. */
static void test_spec_edge_table(void **state) {
    (void)state;
    char deep129[600], deep127[600];
    int n = snprintf(deep129, sizeof deep129, "{\"a\":{" E ",\"x\":");
    memset(deep129 + n, '[', 127);
    memset(deep129 + n + 127, ']', 127);
    memcpy(deep129 + n + 254, "}}", 3);
    n = snprintf(deep127, sizeof deep127, "{\"a\":{" E ",\"x\":");
    memset(deep127 + n, '[', 125);
    memset(deep127 + n + 125, ']', 125);
    memcpy(deep127 + n + 250, "}}", 3);
    static const char nul_tail[] = "{\"a\":{" E "}}\0";
    const row rows[] = {
        {"{\"a\":{" E ",\"x\":1e400}}", 0, TFS_ST117, IHD, "1e400", 0, 0},
        {"{\"a\":{" E ",\"x\":123456789012345678901234567890}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":{" E ",\"x\":-5}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":{" E ",\"x\":true}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":{" E ",\"x\":\"\\q\"}}", 0, TFS_ST115, IHD, "\\q", 0, 0},
        {"{\"a\":{" E ",\"x\":\"\\ud800\"}}", 0, TFS_ST116, IHD, "\\ud800", 0, 0},
        {"{\"\\ud83d\\ude00\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {deep129, 0, TFS_ST113, IHD, "[", 2 + 125, 0}, /* E holds 2 brackets */
        {deep127, 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1e0],\"data_offsets\":[0,1]}}", 0, TFS_ST222, IHD, "1e0", 0, 0},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":{\"0\":0,\"1\":1}}}", 0, TFS_ST221, IHD, "{\"0\"", 0,
         0},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1,2]}}", 0, TFS_ST221, IHD, ",2]", 0, 0},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551615],\"data_offsets\":[0,1]}}", 0, TFS_ST304,
         "ValidationOverflow", "{\"dtype", 0, 0},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551616],\"data_offsets\":[0,1]}}", 0, TFS_ST222, IHD,
         "18446744073709551616", 0, 0},
        {"{\"__metadata__\":{\"k\":\"a\",\"k\":\"b\"},\"a\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"__metadata__\":{\"k\":1},\"a\":{" E "}}", 0, TFS_ST402, IHD, "1}", 0, 0},
        {"{\"__metadata__\":{},\"a\":{" E "},\"__metadata__\":{}}", 0, TFS_ST403, IHD, "\"__metadata__\"", 1, 0},
        {"{\"a\":{" E "},\"__metadata__\":{\"k\":\"v\"}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"__metadata__\":null,\"a\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"__Metadata__\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":null}", 0, TFS_ST201, IHD, "null", 0, 0},
        {"[]", 0, TFS_ST118, IHD, "[", 0, 0},
        {"{\"a\":{\"shape\":[1],\"data_offsets\":[0,1]}}", 0, TFS_ST202, IHD, "{\"shape", 0, 0},
        {"{\"a\":{" E ",\"dtype\":\"U8\"}}", 0, TFS_ST203, IHD, "\"dtype\"", 1, 0},
        {"{\"a\":{\"dtype\":{\"U8\":null},\"shape\":[1],\"data_offsets\":[0,1]}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":{\"dtype\":{\"U8\":1},\"shape\":[1],\"data_offsets\":[0,1]}}", 0, TFS_ST211, IHD, "1}", 0, 0},
        {"{\"a\":[\"U8\",[1],[0,1]]}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\":[\"U8\",[1],[0,1],[0,1]]}", 0, TFS_ST204, IHD, "],[", 1, 1},
        {"{\"\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\x7f\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\tb\":{" E "}}", 0, TFS_ST114, IHD, "\t", 0, 0},
        {"{\"a\":{" E "}}\f", 0, TFS_ST112, IHD, "\f", 0, 0},
        {nul_tail, sizeof nul_tail - 1, TFS_ST112, IHD, "}}", 0, 2},
        {"\n{\"a\":{" E "}}", 0, TFS_RULE_NONE, NULL, NULL, 0, 0},
        {"{\"a\xC0\xAF\":{" E "}}", 0, TFS_ST101, "InvalidHeader", "\xC0", 0, 0},
    };
    run_rows(rows, sizeof rows / sizeof *rows);
}

/* The trailing-NUL row's offset: the NUL right after the object. */
static void test_trailing_nul_offset(void **state) {
    (void)state;
    static const char j[] = "{\"a\":{" E "}}\0";
    stt_buf b = stt_make(j, sizeof j - 1, sizeof j - 1, 1);
    stt_expect_rule(&b, 0, TFS_ST112, 8 + sizeof j - 2, -1);
    stt_free(&b);
}

/* Numbers as serde_json reads them: any number in an ignored field unless
 * it overflows f64 (f64_from_parts), plain integers only where a usize is. */
static void test_numbers_in_ignored_fields(void **state) {
    (void)state;
    static const char *const ok[] = {
        "0",
        "-0",
        "0.5",
        "-1.5e-3",
        "1E+2",
        "1e-400",
        "0e400",
        "1.7e308",
        "-1.7e308",
        "0e99999999999",
        "1e-99999999999",
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890.5",
        "0.00000000000000000000000000000000001e330",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":%s}}", ok[i]);
        stt_json_ok(j, 1, 0);
    }
    static const char *const big[] = {"1e400", "-1e400", "1.8e308", "1e309", "1e99999999999", "10e308"};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":%s}}", big[i]);
        stt_json_rule(j, 1, 0, TFS_ST117, stt_at(j, big[i], 0), 0);
    }
    /* a 400-digit integer: significand x 10^380 overflows */
    char j[600];
    int n = snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":");
    j[n] = '1';
    memset(j + n + 1, '0', 399);
    memcpy(j + n + 400, "}}", 3);
    stt_json_rule(j, 1, 0, TFS_ST117, 8u + (uint64_t)n, 0);
}

/* The edge of f64's range at every exponent of the power table (10^289 ..
 * 10^308): the largest significand whose f64 product stays finite, and the
 * next one.  Verdicts from the crate (st-oracle 0.1.0, safetensors
 * 24b0b28, serde_json without float_roundtrip), not from tfs: each pair was
 * one file, `st-oracle --runs 1` said OK 1 / ERR InvalidHeaderDeserialization.
 * The significands of 10^289 .. 10^291 have more than 53 bits, so their
 * rounding to f64 is pinned too.  An i386 build with x87 arithmetic (the
 * m32 preset) rounded the product twice and called 17976931348623157e292
 * (f64::MAX) out of range. */
static void test_f64_range_edges(void **state) {
    (void)state;
    static const struct {
        const char *in_range, *out_of_range;
    } edge[] = {
        {"17976931348623156224e289", "17976931348623156225e289"},
        {"1797693134862315648e290", "1797693134862315649e290"},
        {"179769313486231599e291", "179769313486231600e291"},
        {"17976931348623157e292", "17976931348623158e292"},
        {"1797693134862315e293", "1797693134862316e293"},
        {"179769313486231e294", "179769313486232e294"},
        {"17976931348623e295", "17976931348624e295"},
        {"1797693134862e296", "1797693134863e296"},
        {"179769313486e297", "179769313487e297"},
        {"17976931348e298", "17976931349e298"},
        {"1797693134e299", "1797693135e299"},
        {"179769313e300", "179769314e300"},
        {"17976931e301", "17976932e301"},
        {"1797693e302", "1797694e302"},
        {"179769e303", "179770e303"},
        {"17976e304", "17977e304"},
        {"1797e305", "1798e305"},
        {"179e306", "180e306"},
        {"17e307", "18e307"},
        {"1e308", "2e308"},
        {"1.7976931348623157e308", "1.7976931348623158e308"},
    };
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":%s}}", edge[i].in_range);
        stt_json_ok(j, 1, 0);
        snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":%s}}", edge[i].out_of_range);
        stt_json_rule(j, 1, 0, TFS_ST117, stt_at(j, edge[i].out_of_range, 0), 0);
    }
    /* in range, crate OK 1: the largest u64 just below the table (10^288, the
     * exponent guard's edge) and a 53-bit significand (2^53 - 1: exact, no
     * rounding) at its first exponent */
    static const char *const in_range[] = {"18446744073709551615e288", "9007199254740991e289"};
    for (size_t i = 0; i < sizeof in_range / sizeof *in_range; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":%s}}", in_range[i]);
        stt_json_ok(j, 1, 0);
    }
    /* no exponent: 17976931348623157 and 292 zeros keeps 20 digits
     * (17976931348623157000, past the edge of 10^289 above) and counts 289
     * dropped ones (crate: ERR InvalidHeaderDeserialization) */
    char j[600];
    int n = snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":17976931348623157");
    memset(j + n, '0', 292);
    memcpy(j + n + 292, "}}", 3);
    stt_json_rule(j, 1, 0, TFS_ST117, 8u + (uint64_t)n - 17u, 0);
}

static void test_number_grammar_errors(void **state) {
    (void)state;
    /* token, offending substring (offset = its first byte) */
    static const char *const bad[][2] = {
        {"01", "1"},  {"-01", "1"}, {"1.", "}"}, {"1.e5", "e"}, {".5", "."},       {"+1", "+"},   {"1e", "}"},
        {"1e+", "}"}, {"-", "}"},   {"-a", "a"}, {"NaN", "N"},  {"Infinity", "I"}, {"0x10", "x"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char j[256];
        int n = snprintf(j, sizeof j, "{\"a\":{" E ",\"x\":");
        snprintf(j + n, sizeof j - (size_t)n, "%s}}", bad[i][0]);
        const char *p = strstr(j + n, bad[i][1]);
        assert_non_null(p);
        stt_json_rule(j, 1, 0, TFS_ST110, 8u + (uint64_t)(p - j), 0);
    }
    /* a number cut by the end of the header */
    const char *cut = "{\"a\":{" E ",\"x\":1.";
    stt_json_rule(cut, 0, 0, TFS_ST111, 8 + strlen(cut), 0);
}

static void test_usize_positions(void **state) {
    (void)state;
    static const char *const bad[] = {"-1", "1.0", "1e0", "-0", "18446744073709551616", "1E2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{\"dtype\":\"U8\",\"shape\":[%s],\"data_offsets\":[0,1]}}", bad[i]);
        stt_json_rule(j, 1, 0, TFS_ST222, stt_at(j, bad[i], 0), 0);
        snprintf(j, sizeof j, "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,%s]}}", bad[i]);
        stt_json_rule(j, 1, 0, TFS_ST222, stt_at(j, ",", 2) + 1, 0);
    }
    /* the largest usize is accepted in data_offsets (then fails validation) */
    const char *j = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,18446744073709551615]}}";
    stt_json_rule(j, 1, 0, TFS_ST306, stt_at(j, "[0,", 0), 0);
    /* shape [] is a scalar, [0] has no elements */
    stt_json_ok("{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]}}", 4, 0);
    stt_json_ok("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}", 0, 0);
    stt_json_ok("{\"a\":{\"dtype\":\"F32\",\"shape\":[ 1 , 2 ],\"data_offsets\":[ 0 , 8 ]}}", 8, 0);
}

static void test_strings_and_escapes(void **state) {
    (void)state;
    /* every simple escape, \u in both cases, a surrogate pair, \u0000 */
    const char *j = "{\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\u00E9\\ud83d\\ude00\\u0000\":{" E "}}";
    stt_buf b = stt_json(j, 1);
    tfs_header *h = stt_expect_ok(&b, 0, 1);
    static const char want[] = "\"\\/\b\f\n\r\t\xC3\xA9\xC3\xA9\xF0\x9F\x98\x80";
    stt_assert_str(h->tensors[0].name, want, sizeof want); /* sizeof: includes the decoded NUL */
    tfs_header_free(h);
    stt_free(&b);

    /* escape errors and their offsets (the backslash) */
    static const char *const esc_bad[][2] = {
        {"\\x41", "\\x"},
        {"\\U0041", "\\U"},
        {"\\'", "\\'"},
        {"\\u00G0", "\\u"},
    };
    for (size_t i = 0; i < sizeof esc_bad / sizeof *esc_bad; i++) {
        char s[128];
        snprintf(s, sizeof s, "{\"a%s\":{" E "}}", esc_bad[i][0]);
        stt_json_rule(s, 1, 0, TFS_ST115, stt_at(s, esc_bad[i][1], 0), -1);
    }
    /* surrogate misuse */
    static const char *const sur_bad[] = {"\\ud800x", "\\ud800\\n", "\\ud800\\udbff", "\\ude00\\ud83d"};
    for (size_t i = 0; i < sizeof sur_bad / sizeof *sur_bad; i++) {
        char s[128];
        snprintf(s, sizeof s, "{\"a%s\":{" E "}}", sur_bad[i]);
        stt_json_rule(s, 1, 0, TFS_ST116, stt_at(s, "\\u", 0), -1);
    }
    /* the low half given with bad hex is an invalid escape at its backslash */
    const char *s = "{\"a\\ud800\\uZZZZ\":{" E "}}";
    stt_json_rule(s, 1, 0, TFS_ST115, stt_at(s, "\\uZ", 0), -1);
    /* end of header inside a string / an escape */
    const char *cut1 = "{\"ab";
    stt_json_rule(cut1, 0, 0, TFS_ST111, 8 + strlen(cut1), -1);
    const char *cut2 = "{\"a\\u00";
    stt_json_rule(cut2, 0, 0, TFS_ST111, 8 + strlen(cut2), -1);
    const char *cut3 = "{\"a\\ud800";
    stt_json_rule(cut3, 0, 0, TFS_ST111, 8 + strlen(cut3), -1);
    /* raw controls: NUL, LF, 0x1F; 0x7F is not a control for JSON */
    static const char raw_nul[] = "{\"a\0\":{" E "}}";
    stt_buf rb = stt_make(raw_nul, sizeof raw_nul - 1, sizeof raw_nul - 1, 1);
    stt_expect_rule(&rb, 0, TFS_ST114, 11, -1);
    stt_free(&rb);
    const char *lf = "{\"__metadata__\":{\"k\":\"a\nb\"},\"a\":{" E "}}";
    stt_json_rule(lf, 1, 0, TFS_ST114, stt_at(lf, "\n", 0), 0);
    const char *us = "{\"a\x1f\":{" E "}}";
    stt_json_rule(us, 1, 0, TFS_ST114, stt_at(us, "\x1f", 0), -1);
}

static void test_escaped_keywords(void **state) {
    (void)state;
    /* serde compares decoded strings: escaped field, dtype and __metadata__ */
    stt_json_ok("{\"a\":{\"dtyp\\u0065\":\"U\\u0038\",\"sha\\u0070e\":[1],\"data_\\u006Fffsets\":[0,1]}}", 1, 0);
    const char *j = "{\"__metadata\\u005f_\":{\"k\":1}}";
    stt_json_rule(j, 0, 0, TFS_ST402, stt_at(j, "1}", 0), 0);
    const char *j2 = "{\"__metadata__\":{},\"\\u005f_metadata__\":{}}";
    stt_json_rule(j2, 0, 0, TFS_ST403, stt_at(j2, "\"\\u005f", 0), -1);
    const char *j3 = "{\"a\":{\"dtype\":\"U\\u0038\",\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(j3, 1, 0, TFS_ST203, stt_at(j3, "\"dtype\"", 1), 0);
}

static void test_whitespace_and_syntax(void **state) {
    (void)state;
    stt_json_ok(
        " \t\r\n{ \"a\" \t:\r\n{ \"dtype\" : \"U8\" , \"shape\" : [ 1 ] , \"data_offsets\" : [ 0 , 1 ] } }\r\n\t ", 1,
        0);
    static const struct {
        const char *json;
        const char *at; /* offending token */
        int delta;      /* offset of the offending byte inside it */
        tfs_rule rule;
        int64_t index;
    } bad[] = {
        {"\f{}", "\f", 0, TFS_ST110, -1},
        {"\xEF\xBB\xBF{}", "\xEF", 0, TFS_ST110, -1}, /* BOM */
        {"\xC2\xA0{}", "\xC2", 0, TFS_ST110, -1},     /* NBSP */
        {"{\"a\":{" E "}\f}", "\f", 0, TFS_ST110, -1},
        {"{a:{" E "}}", "a", 0, TFS_ST110, -1},               /* unquoted key */
        {"{'a':{" E "}}", "'", 0, TFS_ST110, -1},             /* single quotes */
        {"{/*c*/\"a\":{" E "}}", "/", 0, TFS_ST110, -1},      /* comment */
        {"{\"a\":{" E ",}}", ",}", 1, TFS_ST110, 0},          /* trailing comma in entry */
        {"{\"a\":{" E ",\"x\":tru}}", "}}", 0, TFS_ST110, 0}, /* bad literal */
        {"{\"a\":{" E ",\"x\":[1,]}}", "]}}", 0, TFS_ST110, 0},
        {"{\"a\":{" E ",\"x\":{\"k\"}}}", "}}}", 0, TFS_ST110, 0},
        {"{\"a\":{" E ",\"x\":{1:2}}}", "1:", 0, TFS_ST110, 0},
        {"{,}", ",", 0, TFS_ST110, -1},
        {"{\"a\":{" E "}}}", "}}}", 2, TFS_ST112, -1},
        {"{}[]", "[", 0, TFS_ST112, -1},
        {"{} x", "x", 0, TFS_ST112, -1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        stt_json_rule(bad[i].json, 1, 0, bad[i].rule, stt_at(bad[i].json, bad[i].at, 0) + (uint64_t)bad[i].delta,
                      bad[i].index);
    /* end of header at every structural point (index: the entry being read) */
    static const struct {
        const char *json;
        int64_t index;
    } cut[] = {
        {"{", -1},
        {"{\"a\"", -1},
        {"{\"a\":", 0},
        {"{\"a\":{", 0},
        {"{\"a\":[", 0},
        {"{\"a\":{" E, 0},
        {"{\"a\":{" E "},", -1},
        {"{\"a\":{" E ",\"x\":[[", 0},
        {"{\"a\":{" E ",\"x\":nul", 0},
        {"{\"__metadata__\":{\"k\":", 0},
        {"{\"__metadata__\":", -1},
        /* __metadata__: the KV being read (a repeated key: its first index); none between KVs */
        {"{\"__metadata__\":{\"j\":\"a\",\"k\":", 1},
        {"{\"__metadata__\":{\"j\":\"a\",\"k\":\"b\",\"k\":", 1},
        {"{\"__metadata__\":{\"k\":\"v\"", -1},
        {"{\"__metadata__\":{\"k\":\"v\",", -1},
        {"{\"__metadata__\":{\"k\":\"v\"}", -1},
    };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++)
        stt_json_rule(cut[i].json, 0, 0, TFS_ST111, 8 + strlen(cut[i].json), cut[i].index);
}

static void test_dtype_forms(void **state) {
    (void)state;
    stt_json_ok("{\"a\":[{\"U8\":null},[1],[0,1]]}", 1, 0);
    stt_json_ok("{\"a\":{\"dtype\":{ \"U8\" : null },\"shape\":[1],\"data_offsets\":[0,1]}}", 1, 0);
    const char *two = "{\"a\":{\"dtype\":{\"U8\":null,\"I8\":null},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(two, 1, 0, TFS_ST211, stt_at(two, ",\"I8", 0), 0);
    const char *none = "{\"a\":{\"dtype\":{},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(none, 1, 0, TFS_ST211, stt_at(none, "{}", 0), 0);
    const char *unk = "{\"a\":{\"dtype\":{\"XX\":null},\"shape\":[1],\"data_offsets\":[0,1]}}";
    stt_json_rule(unk, 1, 0, TFS_ST210, stt_at(unk, "\"XX\"", 0), 0);
    static const char *const bad_names[] = {"", "U8 ", " U8", "uint8", "C128", "F8_E4M3FN", "I4", "bool", "0"};
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{\"dtype\":\"%s\",\"shape\":[1],\"data_offsets\":[0,1]}}", bad_names[i]);
        stt_json_rule(j, 1, 0, TFS_ST210, stt_at(j, ":\"", 0) + 1, 0);
    }
    static const char *const bad_types[] = {"null", "true", "1", "[\"U8\"]"};
    for (size_t i = 0; i < sizeof bad_types / sizeof *bad_types; i++) {
        char j[256];
        snprintf(j, sizeof j, "{\"a\":{\"dtype\":%s,\"shape\":[1],\"data_offsets\":[0,1]}}", bad_types[i]);
        stt_json_rule(j, 1, 0, TFS_ST211, stt_at(j, "dtype\":", 0) + 7, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_edge_table),           cmocka_unit_test(test_trailing_nul_offset),
        cmocka_unit_test(test_numbers_in_ignored_fields), cmocka_unit_test(test_f64_range_edges),
        cmocka_unit_test(test_number_grammar_errors),     cmocka_unit_test(test_usize_positions),
        cmocka_unit_test(test_strings_and_escapes),       cmocka_unit_test(test_escaped_keywords),
        cmocka_unit_test(test_whitespace_and_syntax),     cmocka_unit_test(test_dtype_forms),
    };
    return cmocka_run_group_tests_name("safetensors JSON", tests, NULL, NULL);
}
