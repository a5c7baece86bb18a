/* test_st_manifest.c: coverage of corpus/safetensors/MANIFEST.tsv (the
 * verdicts themselves are checked by tests/corpus/run_manifest):
 *   - at least 150 lines, ids unique and sorted, each id starting with its
 *     rule id (or "valid-"), file bytes matching size and sha256;
 *   - every non-retired ST rule of rules.def has a fixture;
 *   - buglog rows S1..S8, every spec dtype (valid), strict rules marked
 *     implementation_defined in mode strict;
 *   - every .safetensors file in the folder is listed (no orphans);
 *   - each fixture, parsed here with the buffer API, gives the line's verdict
 *     and rule (a second implementation of the runner's check). */
#include "st_test_util.h"

#include <dirent.h>

#define MAX_LINES 2048

typedef struct line {
    char *col[13]; /* the 11 columns, and the optional offset and index columns */
} line;

static char *g_text;
static line g_lines[MAX_LINES];
static size_t g_n;

static const char *corpus_dir(void) { return TFS_SOURCE_DIR "/corpus/safetensors"; }

static int setup(void **state) {
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/MANIFEST.tsv", corpus_dir());
    stt_buf b = stt_read_file(path);
    g_text = realloc(b.p, b.len + 1);
    assert_non_null(g_text);
    g_text[b.len] = '\0';
    char *save = NULL, *ln = strtok_r(g_text, "\n", &save);
    assert_non_null(ln);
#define BASE_COLUMNS "id\tpath\tsha256\tsize\tformat\texpect\trule\tcategory\tmode\tdescription\tprovenance"
    int n_cols = 11;
    if (strcmp(ln, BASE_COLUMNS) != 0) { /* docs/fixtures.md: the optional offset and index columns last */
        assert_string_equal(ln, BASE_COLUMNS "\toffset\tindex");
        n_cols = 13;
    }
    g_n = 0;
    while ((ln = strtok_r(NULL, "\n", &save)) != NULL) {
        assert_true(g_n < MAX_LINES);
        line *l = &g_lines[g_n++];
        char *p = ln;
        for (int c = 0; c < n_cols; c++) {
            l->col[c] = p;
            char *tab = strchr(p, '\t');
            if (c < n_cols - 1) {
                if (!tab) fail_msg("line %zu has %d columns", g_n, c + 1);
                *tab = '\0';
                p = tab + 1;
            } else {
                assert_null(tab);
            }
        }
    }
    return 0;
}

static int teardown(void **state) {
    (void)state;
    free(g_text);
    return 0;
}

enum { ID, PATH, SHA, SIZE, FORMAT, EXPECT, RULE, CATEGORY, MODE, DESC, PROV };

static int lists(const char *alts, const char *word) {
    size_t n = strlen(word);
    for (const char *p = alts; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) return 1;
        if (!bar) break;
        p = bar + 1;
    }
    return 0;
}

static void test_manifest_shape(void **state) {
    (void)state;
    assert_true(g_n >= 150);
    for (size_t i = 0; i < g_n; i++) {
        const line *l = &g_lines[i];
        if (i) assert_true(strcmp(g_lines[i - 1].col[ID], l->col[ID]) < 0);
        assert_string_equal(l->col[FORMAT], "safetensors");
        int valid = strcmp(l->col[EXPECT], "valid") == 0;
        int perr = strcmp(l->col[EXPECT], "parser_error") == 0;
        int idef = strcmp(l->col[EXPECT], "implementation_defined") == 0;
        assert_true(valid + perr + idef == 1);
        if (valid) {
            assert_string_equal(l->col[RULE], "-");
            assert_string_equal(l->col[CATEGORY], "-");
            assert_memory_equal(l->col[ID], "valid-", 6);
        } else {
            /* id starts with (the first of) its rule ids */
            assert_memory_equal(l->col[ID], l->col[RULE], 5);
        }
        /* strict lines: implementation_defined files, and the strict line
         * (parser_error, a strict-only rule) of a file valid by default */
        int strict_rule = perr && tfs_rule_profile_of(tfs_rule_from_id(l->col[RULE])) == TFS_PROFILE_STRICT;
        if (idef || strict_rule)
            assert_string_equal(l->col[MODE], "strict");
        else
            assert_string_equal(l->col[MODE], "default");
        /* categories are those of the listed rules, in order */
        if (!valid) {
            char cats[256] = "";
            char rules[64];
            snprintf(rules, sizeof rules, "%s", l->col[RULE]);
            char *save = NULL;
            for (char *r = strtok_r(rules, "|", &save); r; r = strtok_r(NULL, "|", &save)) {
                tfs_rule rule = tfs_rule_from_id(r);
                assert_int_not_equal(rule, TFS_RULE_NONE);
                if (cats[0]) strcat(cats, "|");
                strcat(cats, tfs_rule_category(rule));
            }
            assert_string_equal(l->col[CATEGORY], cats);
        }
        assert_true(strlen(l->col[DESC]) > 0);
        assert_non_null(strstr(l->col[PROV], "generators/st_fixtures.py"));
    }
}

static void test_every_st_rule_has_a_fixture(void **state) {
    (void)state;
    for (size_t i = 0; i < tfs_rule_count(); i++) {
        tfs_rule r = tfs_rule_at(i);
        const char *id = tfs_rule_id(r);
        if (id[0] != 'S' || tfs_rule_profile_of(r) == TFS_PROFILE_RETIRED) continue;
        int found = 0;
        for (size_t k = 0; k < g_n && !found; k++) {
            /* a strict rule needs an implementation_defined fixture (its
             * other lines may be strict lines of default-valid files) */
            found = lists(g_lines[k].col[RULE], id) && (tfs_rule_profile_of(r) != TFS_PROFILE_STRICT ||
                                                        strcmp(g_lines[k].col[EXPECT], "implementation_defined") == 0);
        }
        if (!found) fail_msg("no fixture for %s", id);
    }
}

static void test_buglog_and_dtypes_covered(void **state) {
    (void)state;
    for (int s = 1; s <= 8; s++) {
        char tag[16];
        snprintf(tag, sizeof tag, "buglog S%d", s);
        int found = 0;
        for (size_t k = 0; k < g_n; k++) found |= strstr(g_lines[k].col[PROV], tag) != NULL;
        if (!found) fail_msg("no fixture for %s", tag);
    }
    for (uint32_t d = 0; d < TFS_ST_DTYPE_COUNT; d++) {
        char id[64];
        snprintf(id, sizeof id, "valid-dtype-%s", tfs_st_dtype_name(d));
        int found = 0;
        for (size_t k = 0; k < g_n; k++) found |= strcmp(g_lines[k].col[ID], id) == 0;
        if (!found) fail_msg("no fixture %s", id);
    }
    /* the nondeterministic tie lists both categories */
    int tie = 0;
    for (size_t k = 0; k < g_n; k++) tie |= strcmp(g_lines[k].col[CATEGORY], "InvalidOffset|TensorInvalidInfo") == 0;
    assert_true(tie);
}

static void test_files_match_and_parse(void **state) {
    (void)state;
    for (size_t k = 0; k < g_n; k++) {
        const line *l = &g_lines[k];
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus_dir(), l->col[PATH]);
        stt_buf b = stt_read_file(path);
        char sz[32], hex[65];
        snprintf(sz, sizeof sz, "%zu", b.len);
        assert_string_equal(sz, l->col[SIZE]);
        stt_sha256_hex(b.p, b.len, hex);
        assert_string_equal(hex, l->col[SHA]);
        unsigned flags = strcmp(l->col[MODE], "strict") == 0 ? TFS_STRICT : 0;
        tfs_error e;
        tfs_status st = tfs_parse_buffer(b.p, b.len, TFS_FORMAT_SAFETENSORS, flags, NULL, &e);
        if (strcmp(l->col[EXPECT], "valid") == 0) {
            if (st != TFS_OK) fail_msg("%s: %s", l->col[ID], tfs_rule_id(e.rule));
        } else {
            if (st != TFS_INVALID || !lists(l->col[RULE], tfs_rule_id(e.rule)))
                fail_msg("%s: got %s %s, want %s", l->col[ID], tfs_status_name(st), tfs_rule_id(e.rule), l->col[RULE]);
            assert_true(e.offset <= b.len); /* offsets are inside the file */
        }
        if (strcmp(l->col[EXPECT], "implementation_defined") == 0) /* tfs's default profile is the crate's */
            assert_int_equal(tfs_parse_buffer(b.p, b.len, TFS_FORMAT_SAFETENSORS, 0, NULL, &e), TFS_OK);
        stt_free(&b);
    }
}

static void test_no_orphan_files(void **state) {
    (void)state;
    DIR *d = opendir(corpus_dir());
    assert_non_null(d);
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(d)) != NULL) {
        /* expected/: the expected contents of the valid fixtures (ctest test_expected_content) */
        if (de->d_name[0] == '.' || strcmp(de->d_name, "MANIFEST.tsv") == 0 || strcmp(de->d_name, "expected") == 0)
            continue;
        int found = 0;
        for (size_t k = 0; k < g_n && !found; k++) found = strcmp(g_lines[k].col[PATH], de->d_name) == 0;
        if (!found) fail_msg("%s is not in MANIFEST.tsv", de->d_name);
        files++;
    }
    closedir(d);
    assert_true(files >= 150);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_manifest_shape),
        cmocka_unit_test(test_every_st_rule_has_a_fixture),
        cmocka_unit_test(test_buglog_and_dtypes_covered),
        cmocka_unit_test(test_files_match_and_parse),
        cmocka_unit_test(test_no_orphan_files),
    };
    return cmocka_run_group_tests_name("safetensors manifest", tests, setup, teardown);
}
