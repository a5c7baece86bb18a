/* test_lint_nomem.c: the lint and model-set entry points with each of their
 * allocations failing in turn (tests/common/nomem.h).  Every run ends in
 * TFS_ENOMEM (for tfs_set_entries: TFS_ENOMEM and no entries; for the JSON
 * reader: NULL with *oom set) or in the result of the run without failures:
 * same status, same findings (rule, file, tensor, key, text), same files.
 * An allocation failure must never pass for a different answer (a config.json
 * or an index that "could not be read" changes the findings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/files.h"
#include "common/nomem.h"
#include "lint_internal.h"
#include "tfs/lint.h"
#include "tfs/tfs.h"

#define C TFS_SOURCE_DIR "/corpus/lint/"

/* A report as text: status, then one line per finding and per file. */
static char *report_text(tfs_status st, const tfs_lint_report *r) {
    size_t cap = 4096 + r->n_findings * 1200 + r->n_files * 600, o = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    o += (size_t)snprintf(t + o, cap - o, "status %d, %zu errors, %zu warnings, %zu tensors, %llu bytes\n", (int)st,
                          r->n_errors, r->n_warnings, r->n_tensors, (unsigned long long)r->tensor_bytes);
    for (size_t i = 0; i < r->n_findings; i++) {
        const tfs_lint_finding *f = &r->findings[i];
        o += (size_t)snprintf(t + o, cap - o, "%s %d %lld %s %lld %s\n", tfs_lint_id(f->rule), f->part,
                              (long long)f->tensor, f->tensor_name ? f->tensor_name : "-", (long long)f->kv, f->text);
    }
    for (size_t i = 0; i < r->n_files; i++)
        o += (size_t)snprintf(t + o, cap - o, "file %s %d %zu %llu\n", r->files[i].path, (int)r->files[i].status,
                              r->files[i].n_tensors, (unsigned long long)r->files[i].tensor_bytes);
    return t;
}

typedef tfs_status (*run_fn)(const void *arg, tfs_lint_report *r);

/* run(arg) once without failures, then with allocation 0, 1, ... failing */
static void every_allocation(run_fn run, const void *arg, const char *what) {
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    tfs_test_nomem_arm(-1);
    tfs_status st = run(arg, &r);
    long total = tfs_test_nomem_disarm();
    char *ref = report_text(st, &r);
    tfs_lint_report_free(&r);
    assert_true(total > 0);
    for (long k = 0; k < total; k++) {
        tfs_lint_report_init(&r);
        tfs_test_nomem_arm(k);
        st = run(arg, &r);
        tfs_test_nomem_disarm();
        if (st != TFS_ENOMEM) {
            char *got = report_text(st, &r);
            if (strcmp(got, ref) != 0)
                print_error("%s, allocation %ld of %ld failing:\n%s\nwithout failures:\n%s\n", what, k, total, got,
                            ref);
            assert_string_equal(got, ref);
            free(got);
        }
        tfs_lint_report_free(&r);
    }
    free(ref);
}

typedef struct lint_arg {
    const tfs_header *h;
    const char *path, *config;
} lint_arg;

static tfs_status run_header(const void *arg, tfs_lint_report *r) {
    const lint_arg *a = arg;
    tfs_lint_options o = {.config_json = a->config, .config_len = a->config ? strlen(a->config) : 0};
    return tfs_lint_header(a->h, &o, r);
}

static tfs_status run_path(const void *arg, tfs_lint_report *r) {
    const lint_arg *a = arg;
    return tfs_lint_path(a->path, a->h, a->config, r);
}

static tfs_status run_set(const void *arg, tfs_lint_report *r) { return tfs_set_check(arg, 0, 1, NULL, r); }

static tfs_header *parse(const char *path) {
    tfs_header *h = NULL;
    tfs_error e;
    assert_int_equal(tfs_parse_file(path, TFS_FORMAT_UNKNOWN, 0, &h, &e), TFS_OK);
    return h;
}

static void test_lint_one_file(void **state) {
    (void)state;
    static const char *const files[] = {
        C "files/LT205-mlx-scales-shape.safetensors",  C "files/LT210-mlx-inferred.safetensors",
        C "files/LT208-mlx-orphan-scales.safetensors", C "files/LT109-gguf-blk-5.gguf",
        C "files/LT112-gguf-file-type-q6_k.gguf",      C "files/LT105-gguf-scores-short.gguf",
        C "files/LT303-st-f32-misaligned.safetensors",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        tfs_header *h = parse(files[i]);
        lint_arg a = {h, files[i], NULL};
        every_allocation(run_header, &a, files[i]);
        a.config =
            "{\"quantization\": {\"group_size\": 64, \"bits\": 4, \"model.layers.0.mlp.up_proj\": {\"bits\": 8}}}";
        every_allocation(run_header, &a, files[i]);
        a.config = NULL;
        every_allocation(run_path, &a, files[i]);
        tfs_header_free(h);
    }
    /* config.json beside the file (the MLX set's first shard: its scales are elsewhere, LT202) */
    const char *shard = C "sets/mlx-set-q4/model-00001-of-00003.safetensors";
    tfs_header *h = parse(shard);
    lint_arg a = {h, shard, NULL};
    every_allocation(run_path, &a, shard);
    a.config = C "sets/mlx-set-q4/config.json";
    every_allocation(run_path, &a, shard);
    tfs_header_free(h);
}

static void test_lint_sets(void **state) {
    (void)state;
    static const char *const sets[] = {
        C "sets/SET-st-three-errors/model.safetensors.index.json",
        C "sets/SET006-st-dtype-differs/model.safetensors.index.json",
        C "sets/SET008-st-unlisted-tensor/model.safetensors.index.json",
        C "sets/mlx-set-q4/model.safetensors.index.json",
        C "sets/LT205-mlx-set-scales-shape/model.safetensors.index.json",
        C "sets/SET103-gg-tensors-count/model-00001-of-00003.gguf",
        C "sets/SET104-gg-metadata-in-part-2/model-00001-of-00003.gguf",
        C "sets/SET005-gg-duplicate/model-00001-of-00003.gguf",
        C "sets/SET002-gg-part-missing/model-00001-of-00003.gguf",
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) every_allocation(run_set, sets[i], sets[i]);
    /* a shard whose header padding holds a tab (LT302, read from the header's bytes): their buffer failing is
     * TFS_ENOMEM, not a lint without them */
    char dir[] = "/tmp/tfs_lint_pad_XXXXXX", index[128], shard[128];
    assert_non_null(mkdtemp(dir));
    static const char text[] = "{\"weight_map\": {\"x\": \"s.safetensors\"}}";
    tfs_test_put_file(dir, "model.safetensors.index.json", text, sizeof text - 1u, index, sizeof index);
    snprintf(shard, sizeof shard, "%s/s.safetensors", dir);
    assert_int_equal(symlink(C "files/LT302-st-padding-tab.safetensors", shard), 0);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    assert_int_equal(run_set(index, &r), TFS_OK);
    size_t n302 = 0;
    for (size_t i = 0; i < r.n_findings; i++) n302 += r.findings[i].rule == TFS_LT302;
    assert_int_equal(n302, 1);
    tfs_lint_report_free(&r);
    every_allocation(run_set, index, index);
    assert_int_equal(unlink(shard), 0);
    assert_int_equal(unlink(index), 0);
    assert_int_equal(rmdir(dir), 0);
}

typedef tfs_status (*list_fn)(const char *arg, char ***v, size_t *n);
static tfs_status set_entries(const char *dir, char ***v, size_t *n) { return tfs_set_entries(dir, v, n, NULL); }
static tfs_status set_members(const char *entry, char ***v, size_t *n) { return tfs_set_members(entry, v, n); }

/* list(arg) with each of its allocations failing in turn: TFS_ENOMEM with nothing
 * returned, or TFS_OK with the same strings as an unfailed call.  Returns the
 * unfailed call's count. */
static size_t every_allocation_list(list_fn list, const char *arg) {
    char **ref = NULL;
    size_t n_ref = 0;
    tfs_test_nomem_arm(-1);
    assert_int_equal(list(arg, &ref, &n_ref), TFS_OK);
    long total = tfs_test_nomem_disarm();
    for (long k = 0; k < total; k++) {
        char **v = NULL;
        size_t n = 0;
        tfs_test_nomem_arm(k);
        tfs_status st = list(arg, &v, &n);
        tfs_test_nomem_disarm();
        if (st == TFS_ENOMEM) {
            assert_null(v);
            assert_int_equal(n, 0);
            continue;
        }
        assert_int_equal(st, TFS_OK);
        if (n != n_ref) print_error("%s, allocation %ld failing: %zu entries, %zu without\n", arg, k, n, n_ref);
        assert_int_equal(n, n_ref);
        for (size_t i = 0; i < n; i++) {
            assert_string_equal(v[i], ref[i]);
            free(v[i]);
        }
        free(v);
    }
    for (size_t i = 0; i < n_ref; i++) free(ref[i]);
    free(ref);
    return n_ref;
}

static void test_set_entries_nomem(void **state) {
    (void)state;
    /* and a folder whose index names its one shard once (no other entry names it again) */
    char one[] = "/tmp/tfs_lint_entries_XXXXXX", path[128];
    assert_non_null(mkdtemp(one));
    static const char *const files[2][2] = {
        {"only.safetensors", ""}, {"model.safetensors.index.json", "{\"weight_map\": {\"a\": \"only.safetensors\"}}"}};
    for (int i = 0; i < 2; i++) {
        tfs_test_put_file(one, files[i][0], files[i][1], strlen(files[i][1]), path, sizeof path);
    }
    /* and a folder with one part of a split, not the first: only that name gives the set's entry */
    char part[] = "/tmp/tfs_lint_part_XXXXXX", ppath[128];
    assert_non_null(mkdtemp(part));
    tfs_test_put_file(part, "m-00002-of-00002.gguf", "", 0, ppath, sizeof ppath);
    const char *const dirs[] = {C "sets/st-set-ok", C "sets/gg-split-ok", C "files", one, part};
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) every_allocation_list(set_entries, dirs[d]);
    /* tfs_set_members: TFS_ENOMEM and nothing, or the same paths */
    const char *const entries[] = {C "sets/st-set-dot-names/model.safetensors.index.json",
                                   C "sets/gg-split-ok/model-00001-of-00003.gguf"};
    for (size_t d = 0; d < sizeof entries / sizeof entries[0]; d++) {
        assert_int_equal(every_allocation_list(set_members, entries[d]), 3);
    }
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", one, files[i][0]);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(one), 0);
    assert_int_equal(unlink(ppath), 0);
    assert_int_equal(rmdir(part), 0);
}

static void test_json_nomem(void **state) {
    (void)state;
    const char *text = "{\"a\": [1, 2, {\"b\": \"\\u00e9x\"}], \"c\": {\"d\": null, \"e\": [true, false, -1.5e3]}, "
                       "\"f\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}";
    tfs_test_nomem_arm(-1);
    lj_node *ref = tfs__lj_parse(text, strlen(text), NULL, NULL);
    long total = tfs_test_nomem_disarm();
    assert_non_null(ref);
    tfs__lj_free(ref);
    for (long k = 0; k < total; k++) {
        const char *why = NULL;
        int oom = 0;
        tfs_test_nomem_arm(k);
        lj_node *n = tfs__lj_parse(text, strlen(text), &why, &oom);
        tfs_test_nomem_disarm();
        assert_null(n);
        assert_int_equal(oom, 1);
        assert_string_equal(why, "out of memory");
        /* why and oom are optional (lint_internal.h): the same failure with both NULL is the same NULL */
        tfs_test_nomem_arm(k);
        n = tfs__lj_parse(text, strlen(text), NULL, NULL);
        tfs_test_nomem_disarm();
        assert_null(n);
    }
}

/* tfs__lint_add_file (lint_internal.h: "its index, or -1 (no memory)"): 20 files added, each first with every one
 * of its allocations failing in turn: -1 and the report as it was, then the next index.  A new record is a file
 * not yet parsed: path copied, status TFS_OK and its tfs_error as tfs.h gives it for TFS_OK (zeroed, index -1). */
static void test_add_file_nomem(void **state) {
    (void)state;
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    char path[32];
    for (int i = 0; i < 20; i++) {
        snprintf(path, sizeof path, "dir/part-%02d.gguf", i);
        int rc = -1;
        long k = 0;
        for (; k < 100 && rc < 0; k++) {
            tfs_test_nomem_arm(k);
            rc = tfs__lint_add_file(&r, path);
            tfs_test_nomem_disarm();
            if (rc < 0) {
                assert_int_equal(rc, -1);
                assert_int_equal(r.n_files, (size_t)i);
            }
        }
        assert_true(k > 1); /* at least the copy of the path was made to fail */
        assert_int_equal(rc, i);
        assert_int_equal(r.n_files, (size_t)i + 1u);
        for (int j = 0; j <= i; j++) {
            const tfs_lint_file *f = &r.files[j];
            char want[32];
            snprintf(want, sizeof want, "dir/part-%02d.gguf", j);
            assert_string_equal(f->path, want);
            assert_int_equal(f->status, TFS_OK);
            assert_int_equal(f->err.rule, TFS_RULE_NONE);
            assert_int_equal(f->err.offset, 0);
            assert_int_equal(f->err.index, -1);
            assert_null(f->err.message);
            assert_int_equal(f->err.sys_errno, 0);
            assert_int_equal(f->n_tensors, 0);
            assert_int_equal(f->tensor_bytes, 0);
        }
        assert_ptr_not_equal(r.files[i].path, path);
    }
    assert_int_equal(r.n_findings, 0);
    tfs_lint_report_free(&r);
}

/* an index whose weight_map is empty (no shard) with malloc(0) / calloc(0, n) returning NULL, as C allows: a
 * zero-byte request that returns NULL is no shortage, the check runs (no finding) */
static void test_set_zero_null(void **state) {
    (void)state;
    char dir[] = "/tmp/tfs_lint_nomem_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    static const char index[] = "{\"metadata\": {\"total_size\": 0}, \"weight_map\": {}}";
    tfs_test_put_file(dir, "model.safetensors.index.json", index, sizeof index - 1u, path, sizeof path);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    tfs_test_nomem_zero_null(1);
    tfs_status st = tfs_set_check(path, 0, 1, NULL, &r);
    tfs_test_nomem_zero_null(0);
    assert_int_equal(st, TFS_OK);
    assert_int_equal(r.n_findings, 0);
    assert_int_equal(r.n_files, 0);
    tfs_lint_report_free(&r);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_nomem),     cmocka_unit_test(test_set_zero_null),
        cmocka_unit_test(test_add_file_nomem), cmocka_unit_test(test_lint_one_file),
        cmocka_unit_test(test_lint_sets),      cmocka_unit_test(test_set_entries_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
