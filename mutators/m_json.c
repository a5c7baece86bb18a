/* m_json.c: json.* - safetensors JSON token edits through the writer's
 * knobs (raw tokens, member order, whitespace, raw header text): numbers
 * near 2^53 and 2^64, escapes, surrogates, nesting depth, whitespace outside
 * JSON's set, trailing garbage, duplicate / missing / unknown members, the
 * array entry form, map-form dtypes, control characters, invalid UTF-8,
 * non-object headers, __metadata__ value types. */
#include "mut.h"

#include <string.h>

static tfs_st_wentry *one(mut_ctx *c) {
    if (tfs__mut_st_need_entries(c, 1) < 1) return NULL;
    return &c->se[tfs__mut_below(&c->rng, c->n_se)];
}

/* a number token for begin or end */
static int number_m(mut_ctx *c, const char *const *v, size_t n) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    const char *t = v[tfs__mut_below(&c->rng, n)];
    switch (tfs__mut_below(&c->rng, 3)) {
    case 0: e->begin_raw = t; break;
    case 1: e->end_raw = t; break;
    default: {
        char *s = tfs__mut_printf(c, "[%s]", t);
        if (!s) return 0;
        e->shape_raw = s;
        break;
    }
    }
    return 1;
}

static int num53_m(mut_ctx *c) {
    static const char *const v[] = {"9007199254740991", "9007199254740992", "9007199254740993", "9007199254740993.0",
                                    "9.007199254740993e15"};
    return number_m(c, v, 5);
}

static int num64_m(mut_ctx *c) {
    static const char *const v[] = {"18446744073709551615", "18446744073709551616",    "18446744073709551617",
                                    "36893488147419103232", "99999999999999999999999", "-9223372036854775808",
                                    "9223372036854775808"};
    return number_m(c, v, 7);
}

static int numform_m(mut_ctx *c) {
    static const char *const v[] = {"1.0",
                                    "1e2",
                                    "1E+2",
                                    "-0",
                                    "01",
                                    "0x10",
                                    "+1",
                                    "1.",
                                    ".5",
                                    "Infinity",
                                    "NaN",
                                    "1e400",
                                    "0.0000000000000000000001"};
    return number_m(c, v, 13);
}

static int escape_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"\"\\u0041\\u0062c\"", "\"a\\/b\"",        "\"tab\\there\"", "\"\\\"q\\\"\"",
                                    "\"\\u00e9t\\u00E9\"", "\"\\b\\f\\n\\r\"", "\"\\\\\""};
    e->name_raw = v[tfs__mut_below(&c->rng, 7)];
    return 1;
}

static int bad_escape_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"\"a\\x41\"", "\"a\\u12\"",  "\"a\\u12G4\"", "\"a\\'\"",
                                    "\"a\\\"",    "\"\\U0041\"", "\"a\\0\""};
    e->name_raw = v[tfs__mut_below(&c->rng, 7)];
    return 1;
}

static int surrogate_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"\"\\ud800\"", "\"\\udc00x\"",       "\"\\ud83d\\ude00\"", "\"\\ud83d\\u0041\"",
                                    "\"\\ud83d\"", "\"\\ude00\\ud83d\"", "\"\\uDBFF\\uDFFF\""};
    e->name_raw = v[tfs__mut_below(&c->rng, 7)];
    return 1;
}

/* nesting inside an unknown member of an entry: 127 (deepest accepted), 128
 * (RecursionLimitExceeded), or far deeper (S7) */
static int depth_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const size_t depths[] = {126, 127, 128, 200, 5000};
    size_t d = depths[tfs__mut_below(&c->rng, 5)];
    if (d * 2 + 8 > c->max_size) d = c->max_size > 16 ? (c->max_size - 16) / 2 : 1;
    char *x = tfs__mut_alloc(c, d * 2 + 8);
    if (!x) return 0;
    memcpy(x, "\"x\":", 4);
    size_t k = 4;
    /* the header object and the entry object are two levels: d - 2 inside */
    size_t inner = d > 2 ? d - 2 : 1;
    for (size_t i = 0; i < inner; i++) x[k++] = '[';
    for (size_t i = 0; i < inner; i++) x[k++] = ']';
    x[k] = '\0';
    e->extra = x;
    e->members = "dsox";
    return 1;
}

static int ws_m(mut_ctx *c) {
    static const char *const bad[] = {"\v", "\f", "\xc2\xa0", "\xe2\x80\x8b", "\x1c"};
    static const char *const ok[] = {" \t\r\n", "\n"};
    if (tfs__mut_below(&c->rng, 4) == 0) {
        c->sm.leading_ws = ok[tfs__mut_below(&c->rng, 2)];
        c->sm.indent = (unsigned)tfs__mut_below(&c->rng, 3);
        return 1;
    }
    const char *w = bad[tfs__mut_below(&c->rng, 5)];
    if (tfs__mut_below(&c->rng, 2))
        c->sm.leading_ws = w;
    else
        c->sm.trailing_ws = w;
    return 1;
}

static int trailing_m(mut_ctx *c) {
    static const char *const v[] = {"x", "}", "{}", ",", "0", "\"\"", "//", "/* */", "null"};
    c->sm.trailing_ws = v[tfs__mut_below(&c->rng, 9)];
    return 1;
}

static int dup_field_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"ddso", "dsso", "dsoo", "dsod", "odsd"};
    e->members = v[tfs__mut_below(&c->rng, 5)];
    return 1;
}

static int missing_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"ds", "so", "do", "", "x"};
    e->members = v[tfs__mut_below(&c->rng, 5)];
    e->extra = "\"x\":1";
    return 1;
}

static int unknown_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"\"x\":1", "\"Dtype\":\"F32\"", "\"offsets\":[0,0]", "\"\":null",
                                    "\"__metadata__\":{}"};
    e->extra = v[tfs__mut_below(&c->rng, 5)];
    e->members = tfs__mut_below(&c->rng, 2) ? "xdso" : "dsox";
    return 1;
}

static int array_form_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    e->array_form = 1;
    /* one in three: the wrong number of elements (ST204) */
    static const char *const arity[] = {"", "d", "ds", "dsox", "dsoo"};
    if (tfs__mut_below(&c->rng, 3) == 0) {
        e->members = arity[tfs__mut_below(&c->rng, 5)];
        e->extra = "0";
    }
    return 1;
}

/* data_offsets of the wrong arity or element type (the crate's (usize, usize)) */
static int offsets_shape_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"[0]",    "[]",        "[0,4,8]", "0",         "null",
                                    "[0,-4]", "[0,\"4\"]", "[0,4.5]", "[[0],[4]]", "{\"begin\":0,\"end\":4}"};
    e->offsets_raw = v[tfs__mut_below(&c->rng, 10)];
    return 1;
}

static int map_dtype_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    const char *name = tfs_st_dtype_name(e->dtype);
    char *t = tfs__mut_printf(c, "{\"%s\":null}", name ? name : "F32");
    if (!t) return 0;
    e->dtype_raw = t;
    return 1;
}

static int control_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"\"a\nb\"", "\"\t\"", "\"\x01\"", "\"\x1f\"", "\"a\rb\""};
    e->name_raw = v[tfs__mut_below(&c->rng, 5)];
    return 1;
}

static int utf8_m(mut_ctx *c) {
    tfs_st_wentry *e = one(c);
    if (!e) return 0;
    static const char *const v[] = {"\"\xff\"",  "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
                                    "\"a\x80\"", "\"\xe2\x82\""};
    e->name_raw = v[tfs__mut_below(&c->rng, 6)];
    return 1;
}

static int not_object_m(mut_ctx *c) {
    static const char *const v[] = {"[]", "null", "1", "\"x\"", "true", "[{}]", ""};
    const char *t = v[tfs__mut_below(&c->rng, 7)];
    c->sm.raw_json = t;
    c->sm.raw_json_len = strlen(t);
    return 1;
}

static int meta_type_m(mut_ctx *c) {
    switch (tfs__mut_below(&c->rng, 3)) {
    case 0:
        c->sm.metadata = TFS_STW_META_NULL; /* MLX writes null: accepted */
        return 1;
    case 1: {
        if (tfs__mut_st_need_meta(c, 1) < 1) return 0;
        static const char *const v[] = {"1", "null", "true", "[\"a\"]", "{\"a\":\"b\"}", "1.5"};
        c->meta[tfs__mut_below(&c->rng, c->n_meta)].value_raw = v[tfs__mut_below(&c->rng, 6)];
        return 1;
    }
    default: {
        /* __metadata__ itself not an object: an array-form entry of that name */
        tfs_st_wentry *e = tfs__mut_st_add_entry(c);
        if (!e) return 0;
        static const uint64_t one[1] = {1};
        e->name = tfs_wstr_c("__metadata__");
        e->dtype = TFS_ST_U8;
        e->n_dims = 1;
        e->shape = one;
        e->array_form = 1;
        c->sm.metadata = TFS_STW_META_ABSENT;
        return 1;
    }
    }
}

const mut_def tfs__mut_json[] = {
    {"json.num_2p53", MUT_ST, num53_m, NULL, "a begin, end or shape number near 2^53 (2^53 +- 1, as float)"},
    {"json.num_2p64", MUT_ST, num64_m, NULL, "a begin, end or shape number at 2^64 - 1, 2^64, 2^65, 2^63, negative"},
    {"json.num_form", MUT_ST, numform_m, NULL, "a number as 1.0, 1e2, -0, 01, 0x10, +1, NaN, 1e400, ..."},
    {"json.escape", MUT_ST, escape_m, NULL, "a tensor name with valid escapes (\\u0041, \\/, \\t, \\\")"},
    {"json.bad_escape", MUT_ST, bad_escape_m, NULL, "a tensor name with an invalid escape (\\x41, \\u12, \\', ...)"},
    {"json.surrogate", MUT_ST, surrogate_m, NULL, "a name with lone, reversed or valid surrogate pairs"},
    {"json.depth", MUT_ST, depth_m, NULL, "nesting 126, 127, 128, 200 or 5000 levels in an unknown member (S7)"},
    {"json.ws", MUT_ST, ws_m, NULL,
     "whitespace outside JSON's set (\\v, \\f, U+00A0, U+200B) around the object; or indented"},
    {"json.trailing", MUT_ST, trailing_m, NULL, "garbage after the closing brace (x, }, {}, ',', null, ...)"},
    {"json.dup_field", MUT_ST, dup_field_m, NULL, "an entry repeating dtype, shape or data_offsets"},
    {"json.missing_field", MUT_ST, missing_m, NULL, "an entry without dtype, shape or data_offsets"},
    {"json.unknown_field", MUT_ST, unknown_m, NULL, "an entry with an unknown member"},
    {"json.array_form", MUT_ST, array_form_m, NULL,
     "an entry written as [dtype, shape, offsets] (one in three: 0, 1, 2 or 4 elements)"},
    {"json.map_dtype", MUT_ST, map_dtype_m, NULL, "a dtype written as {\"F32\":null}"},
    {"json.offsets_shape", MUT_ST, offsets_shape_m, NULL,
     "data_offsets of 1 or 3 numbers, empty, not an array, negative, a string, a float, nested"},
    {"json.control", MUT_ST, control_m, NULL, "a raw control character inside a name string"},
    {"json.utf8", MUT_ST, utf8_m, NULL, "invalid UTF-8 inside a name string"},
    {"json.not_object", MUT_ST, not_object_m, NULL, "the header is [], null, 1, a string, true or empty"},
    {"json.meta_type", MUT_ST, meta_type_m, NULL,
     "__metadata__ null, a non-string value, or __metadata__ not an object"},
};
const size_t tfs__mut_json_n = sizeof tfs__mut_json / sizeof tfs__mut_json[0];
