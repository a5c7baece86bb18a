/* test_rule_index.c: the FORMAT and INDEX columns of rules.def as the library
 * reports them (tfs_rule_format, tfs_rule_index_kind, include/tfs/rules.h),
 * checked against what the parsers actually put in tfs_error.index on every
 * invalid fixture of corpus/safetensors and corpus/gguf.
 *
 * Files are read with stdio and parsed with tfs_parse_buffer, so the test
 * also runs in TFS_POSIX=OFF builds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/rules.h"
#include "tfs/tfs.h"

static void test_table_columns(void **state) {
    (void)state;
    size_t n_kind[6] = {0};
    for (size_t i = 0; i < tfs_rule_count(); i++) {
        tfs_rule r = tfs_rule_at(i);
        const char *id = tfs_rule_id(r);
        /* FORMAT column agrees with the id's prefix */
        tfs_format want = strncmp(id, "ST", 2) == 0 ? TFS_FORMAT_SAFETENSORS : TFS_FORMAT_GGUF;
        assert_int_equal(tfs_rule_format(r), want);
        tfs_index_kind k = tfs_rule_index_kind(r);
        assert_true((unsigned)k < 6u);
        n_kind[k]++;
        /* a KV pair exists only in GGUF, a __metadata__ entry only in safetensors */
        if (k == TFS_INDEX_KV || k == TFS_INDEX_KV_OR_TENSOR) assert_int_equal(want, TFS_FORMAT_GGUF);
        if (k == TFS_INDEX_METADATA || k == TFS_INDEX_TENSOR_OR_METADATA)
            assert_int_equal(want, TFS_FORMAT_SAFETENSORS);
    }
    for (int k = 0; k < 6; k++) assert_true(n_kind[k] > 0);
    /* examples, one per kind */
    assert_int_equal(tfs_rule_index_kind(TFS_GG002), TFS_INDEX_NONE);
    assert_int_equal(tfs_rule_index_kind(TFS_GG111), TFS_INDEX_KV);
    assert_int_equal(tfs_rule_index_kind(TFS_GG204), TFS_INDEX_TENSOR);
    assert_int_equal(tfs_rule_index_kind(TFS_ST301), TFS_INDEX_TENSOR);
    assert_int_equal(tfs_rule_index_kind(TFS_ST402), TFS_INDEX_METADATA);
    assert_int_equal(tfs_rule_index_kind(TFS_GG101), TFS_INDEX_KV_OR_TENSOR);
    assert_int_equal(tfs_rule_index_kind(TFS_ST115), TFS_INDEX_TENSOR_OR_METADATA);
    assert_int_equal(tfs_rule_index_kind(TFS_ST307), TFS_INDEX_NONE);
    /* outside the table */
    assert_int_equal(tfs_rule_format(TFS_RULE_NONE), TFS_FORMAT_UNKNOWN);
    assert_int_equal(tfs_rule_format((tfs_rule)1999), TFS_FORMAT_UNKNOWN);
    assert_int_equal(tfs_rule_index_kind(TFS_RULE_NONE), TFS_INDEX_NONE);
    assert_int_equal(tfs_rule_index_kind((tfs_rule)2999), TFS_INDEX_NONE);
    assert_string_equal(tfs_index_kind_name(TFS_INDEX_NONE), "none");
    assert_string_equal(tfs_index_kind_name(TFS_INDEX_KV), "kv");
    assert_string_equal(tfs_index_kind_name(TFS_INDEX_TENSOR), "tensor");
    assert_string_equal(tfs_index_kind_name(TFS_INDEX_METADATA), "metadata");
    assert_string_equal(tfs_index_kind_name(TFS_INDEX_KV_OR_TENSOR), "kv-or-tensor");
    assert_string_equal(tfs_index_kind_name(TFS_INDEX_TENSOR_OR_METADATA), "tensor-or-metadata");
    assert_string_equal(tfs_index_kind_name((tfs_index_kind)6), "?");
}

static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static uint64_t le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Counts over one corpus folder. */
typedef struct tally {
    size_t invalid;       /* fixtures the parser rejected */
    size_t by_kind[6];    /* ... by the index kind of their rule */
    size_t with_index[6]; /* ... of which reported an index >= 0 */
} tally;

/* Every invalid fixture of corpus/<part>/MANIFEST.tsv: the rule's format is
 * the format parsed, and the index is what the rule's INDEX column says. */
static void check_corpus(const char *part, tfs_format fmt, tally *t) {
    char path[1024];
    snprintf(path, sizeof path, "%s/corpus/%s/MANIFEST.tsv", TFS_SOURCE_DIR, part);
    FILE *m = fopen(path, "r");
    assert_non_null(m);
    char line[8192];
    assert_non_null(fgets(line, sizeof line, m)); /* header row */
    while (fgets(line, sizeof line, m)) {
        char *col[11] = {0};
        int nc = 0;
        for (char *s = line, *tab; nc < 11 && s; s = tab ? tab + 1 : NULL) {
            tab = strchr(s, '\t');
            if (tab) *tab = 0;
            col[nc++] = s;
        }
        assert_true(nc >= 9);
        const char *mode = col[8];
        unsigned flags = strcmp(mode, "strict") == 0        ? TFS_STRICT
                         : strcmp(mode, "header-only") == 0 ? TFS_HEADER_ONLY
                                                            : 0;
        snprintf(path, sizeof path, "%s/corpus/%s/%s", TFS_SOURCE_DIR, part, col[1]);
        size_t len = 0;
        uint8_t *buf = slurp(path, &len);
        assert_non_null(buf);
        tfs_error e;
        /* implementation-defined fixtures are rejected in the strict profile */
        if (strcmp(col[5], "implementation_defined") == 0) flags |= TFS_STRICT;
        tfs_status st = tfs_parse_buffer(buf, len, fmt, flags, NULL, &e);
        if (st == TFS_INVALID) {
            tfs_index_kind k = tfs_rule_index_kind(e.rule);
            if (tfs_rule_format(e.rule) != fmt) fail_msg("%s: %s is not a %s rule", col[0], tfs_rule_id(e.rule), part);
            t->invalid++;
            t->by_kind[k]++;
            if (e.index >= 0) t->with_index[k]++;
            switch (k) {
            case TFS_INDEX_NONE:
                if (e.index != -1)
                    fail_msg("%s: %s has INDEX NONE but reports index %lld", col[0], tfs_rule_id(e.rule),
                             (long long)e.index);
                break;
            case TFS_INDEX_KV:
            case TFS_INDEX_TENSOR:
            case TFS_INDEX_METADATA:
            case TFS_INDEX_KV_OR_TENSOR:
                if (e.index < 0)
                    fail_msg("%s: %s (%s) reports no index", col[0], tfs_rule_id(e.rule), tfs_index_kind_name(k));
                break;
            case TFS_INDEX_TENSOR_OR_METADATA: break;
            }
            /* GGUF: the index lies below the count the header declares */
            if (fmt == TFS_FORMAT_GGUF && len >= 24 && e.index >= 0) {
                uint64_t n_tensors = le64(buf + 8), n_kv = le64(buf + 16);
                if (k == TFS_INDEX_KV && (uint64_t)e.index >= n_kv)
                    fail_msg("%s: KV index %lld >= n_kv %llu", col[0], (long long)e.index, (unsigned long long)n_kv);
                if (k == TFS_INDEX_TENSOR && (uint64_t)e.index >= n_tensors)
                    fail_msg("%s: tensor index %lld >= n_tensors %llu", col[0], (long long)e.index,
                             (unsigned long long)n_tensors);
            }
        }
        free(buf);
    }
    fclose(m);
}

static void test_corpus_indexes(void **state) {
    (void)state;
    tally st = {0}, gg = {0};
    check_corpus("safetensors", TFS_FORMAT_SAFETENSORS, &st);
    check_corpus("gguf", TFS_FORMAT_GGUF, &gg);
    static const char *const names[6] = {"none", "kv", "tensor", "metadata", "kv-or-tensor", "tensor-or-metadata"};
    for (int k = 0; k < 6; k++)
        printf("index kind %-18s: %3zu safetensors + %3zu gguf invalid fixtures (%zu + %zu with an index)\n", names[k],
               st.by_kind[k], gg.by_kind[k], st.with_index[k], gg.with_index[k]);
    /* the corpus exercises every kind it can (not vacuous) */
    assert_true(st.invalid > 100 && gg.invalid > 80);
    assert_true(st.by_kind[TFS_INDEX_NONE] > 0 && gg.by_kind[TFS_INDEX_NONE] > 0);
    assert_true(gg.by_kind[TFS_INDEX_KV] > 0 && gg.by_kind[TFS_INDEX_TENSOR] > 0 &&
                gg.by_kind[TFS_INDEX_KV_OR_TENSOR] > 0);
    assert_true(st.by_kind[TFS_INDEX_TENSOR] > 0 && st.by_kind[TFS_INDEX_METADATA] > 0);
    assert_true(st.with_index[TFS_INDEX_TENSOR_OR_METADATA] > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_columns),
        cmocka_unit_test(test_corpus_indexes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
