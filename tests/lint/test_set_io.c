/* test_set_io.c: the set checks through a caller's file access
 * (tfs_set_check_io, tfs_set_entries_io; include/tfs/lint.h) give what the
 * POSIX ones give.  Every folder of corpus/lint/sets is loaded into memory
 * and served by an io that knows each file by the same path open(2) would
 * get ("DIR/name"): the entries of the folder, and per set entry the files,
 * their statuses and every finding (rule, severity, file, tensor, text),
 * must be equal.  Also: a NULL io or open is refused (TFS_EARG), a folder
 * listed by nobody has no entry, short reads are asked again, and a shard
 * whose reads fail is reported as unreadable (SET003), never as valid. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tfs/lint.h"

#define MAX_FILES 16u

typedef struct mem_file {
    char path[512];
    const char *name; /* base name, inside path */
    uint8_t *data;
    size_t size;
} mem_file;

typedef struct mem_dir {
    char dir[512];
    mem_file f[MAX_FILES];
    size_t n;
    int mode; /* 0 reads whole; 1 every file reads half of what is asked; 2 the shards' reads fail (EIO);
                 3 every file's reads fail */
} mem_dir;

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    const mem_file *f = ctx;
    size_t n = off >= f->size ? 0 : f->size - (size_t)off < len ? f->size - (size_t)off : len;
    if (n) memcpy(buf, f->data + off, n);
    *got = n;
    return 0;
}

static int short_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    int rc = mem_read(ctx, off, buf, len, got);
    if (*got > 1) *got /= 2; /* fewer bytes than asked for, before the end: the caller asks again */
    return rc;
}

static int failing_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    (void)ctx, (void)off, (void)buf, (void)len;
    *got = 0;
    return EIO;
}

typedef int (*read_fn)(void *ctx, uint64_t off, void *buf, size_t len, size_t *got);

static read_fn read_for(int mode, const char *path) {
    int shard = strstr(path, ".index.json") == NULL;
    if (mode == 3 || (mode == 2 && shard)) return failing_read;
    return mode == 1 ? short_read : mem_read;
}

static int mem_open(void *ctx, const char *path, tfs_source *src) {
    mem_dir *d = ctx;
    for (size_t i = 0; i < d->n; i++) {
        if (strcmp(d->f[i].path, path) != 0) continue;
        *src = (tfs_source){.read = read_for(d->mode, path), .ctx = &d->f[i], .size = d->f[i].size};
        return 0;
    }
    return ENOENT;
}

static void mem_list(void *ctx, const char *dir, void (*each)(void *arg, const char *name), void *arg) {
    mem_dir *d = ctx;
    if (strcmp(dir, d->dir) != 0) return;
    for (size_t i = 0; i < d->n; i++) each(arg, d->f[i].name);
}

static void load(mem_dir *d, const char *dir) {
    memset(d, 0, sizeof *d);
    snprintf(d->dir, sizeof d->dir, "%s", dir);
    DIR *dd = opendir(dir);
    assert_non_null(dd);
    struct dirent *de;
    while ((de = readdir(dd)) != NULL) {
        if (de->d_name[0] == '.') continue;
        assert_true(d->n < MAX_FILES);
        mem_file *f = &d->f[d->n++];
        int k = snprintf(f->path, sizeof f->path, "%s/%s", dir, de->d_name);
        assert_true(k > 0 && (size_t)k < sizeof f->path);
        f->name = f->path + strlen(dir) + 1;
        FILE *fp = fopen(f->path, "rb");
        assert_non_null(fp);
        assert_int_equal(fseek(fp, 0, SEEK_END), 0);
        long sz = ftell(fp);
        assert_true(sz >= 0);
        rewind(fp);
        f->size = (size_t)sz;
        f->data = malloc(f->size ? f->size : 1);
        assert_non_null(f->data);
        assert_int_equal(fread(f->data, 1, f->size, fp), f->size);
        fclose(fp);
    }
    closedir(dd);
}

static void unload(mem_dir *d) {
    for (size_t i = 0; i < d->n; i++) free(d->f[i].data);
}

static void free_list(char **v, size_t n) {
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

static void same_report(const tfs_lint_report *a, const tfs_lint_report *b) {
    assert_int_equal(a->n_files, b->n_files);
    assert_int_equal(a->n_tensors, b->n_tensors);
    assert_int_equal(a->tensor_bytes, b->tensor_bytes);
    for (size_t i = 0; i < a->n_files; i++) {
        assert_string_equal(a->files[i].path, b->files[i].path);
        assert_int_equal(a->files[i].status, b->files[i].status);
        assert_int_equal(a->files[i].err.rule, b->files[i].err.rule);
        assert_int_equal(a->files[i].err.sys_errno, b->files[i].err.sys_errno);
        assert_int_equal(a->files[i].n_tensors, b->files[i].n_tensors);
    }
    assert_int_equal(a->n_findings, b->n_findings);
    assert_int_equal(a->n_errors, b->n_errors);
    for (size_t i = 0; i < a->n_findings; i++) {
        assert_int_equal(a->findings[i].rule, b->findings[i].rule);
        assert_int_equal(a->findings[i].part, b->findings[i].part);
        assert_int_equal(a->findings[i].tensor, b->findings[i].tensor);
        assert_string_equal(a->findings[i].text, b->findings[i].text);
    }
}

/* every folder of corpus/lint/sets: entries and set reports as through POSIX */
static void test_corpus_sets_same(void **state) {
    (void)state;
    const char *root = TFS_SOURCE_DIR "/corpus/lint/sets";
    DIR *rd = opendir(root);
    assert_non_null(rd);
    struct dirent *de;
    size_t folders = 0, sets = 0, findings = 0;
    mem_dir *d = calloc(1, sizeof *d);
    assert_non_null(d);
    while ((de = readdir(rd)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", root, de->d_name);
        load(d, dir);
        tfs_set_io io = {.open = mem_open, .list = mem_list, .ctx = d};
        char **ep = NULL, **ei = NULL;
        size_t np = 0, ni = 0;
        assert_int_equal(tfs_set_entries(dir, &ep, &np, NULL), TFS_OK);
        assert_int_equal(tfs_set_entries_io(dir, &io, &ei, &ni), TFS_OK);
        assert_int_equal(np, ni);
        for (size_t i = 0; i < np; i++) {
            assert_string_equal(ep[i], ei[i]);
            if (tfs_set_kind_of(ep[i]) == TFS_SET_NONE) continue;
            tfs_lint_report a, b;
            tfs_lint_report_init(&a);
            tfs_lint_report_init(&b);
            assert_int_equal(tfs_set_check(ep[i], 0, 1, NULL, &a), TFS_OK);
            assert_int_equal(tfs_set_check_io(ep[i], 0, 1, NULL, &io, &b), TFS_OK);
            same_report(&a, &b);
            sets++;
            findings += b.n_findings;
            tfs_lint_report_free(&a);
            tfs_lint_report_free(&b);
        }
        free_list(ep, np);
        free_list(ei, ni);
        unload(d);
        folders++;
    }
    closedir(rd);
    free(d);
    printf("# %zu folders, %zu sets, %zu findings the same through io\n", folders, sets, findings);
    assert_true(folders >= 20 && sets >= 20 && findings >= 20);
}

static void test_refused(void **state) {
    (void)state;
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    char **v = NULL;
    size_t n = 0;
    tfs_set_io none = {0};
    assert_int_equal(tfs_set_check_io("m.safetensors.index.json", 0, 0, NULL, NULL, &r), TFS_EARG);
    assert_int_equal(tfs_set_check_io("m.safetensors.index.json", 0, 0, NULL, &none, &r), TFS_EARG);
    assert_int_equal(tfs_set_entries_io(".", NULL, &v, &n), TFS_EARG);
    mem_dir *d = calloc(1, sizeof *d);
    assert_non_null(d);
    tfs_set_io nolist = {.open = mem_open, .ctx = d};
    assert_int_equal(tfs_set_entries_io(".", &nolist, &v, &n), TFS_EARG);
    /* not a set entry by its name */
    assert_int_equal(tfs_set_check_io("model.safetensors", 0, 0, NULL, &nolist, &r), TFS_EARG);
    /* an index nobody serves: cannot be read */
    assert_int_equal(tfs_set_check_io("m.safetensors.index.json", 0, 0, NULL, &nolist, &r), TFS_EIO);
    /* a folder nobody lists: no entry */
    tfs_set_io io = {.open = mem_open, .list = mem_list, .ctx = d};
    assert_int_equal(tfs_set_entries_io("elsewhere", &io, &v, &n), TFS_OK);
    assert_int_equal(n, 0);
    free(v);
    tfs_lint_report_free(&r);
    free(d);
}

/* reads that give fewer bytes than asked are asked again; reads that fail
 * make a shard unreadable (SET003), an index a set that cannot be checked */
static void test_short_reads(void **state) {
    (void)state;
    mem_dir *d = calloc(1, sizeof *d);
    assert_non_null(d);
    load(d, TFS_SOURCE_DIR "/corpus/lint/sets/st-set-ok");
    tfs_set_io io = {.open = mem_open, .list = mem_list, .ctx = d};
    char idx[600];
    snprintf(idx, sizeof idx, "%s/model.safetensors.index.json", d->dir);
    tfs_lint_report r;
    tfs_lint_report_init(&r);
    assert_int_equal(tfs_set_check_io(idx, 0, 0, NULL, &io, &r), TFS_OK);
    assert_int_equal(r.n_errors, 0); /* the set is valid when read whole */
    assert_true(r.n_files >= 2);
    tfs_lint_report_free(&r);
    d->mode = 1;
    /* short reads are asked again: the same valid set */
    assert_int_equal(tfs_set_check_io(idx, 0, 0, NULL, &io, &r), TFS_OK);
    assert_int_equal(r.n_findings, 0);
    for (size_t i = 0; i < r.n_files; i++) assert_int_equal(r.files[i].status, TFS_OK);
    tfs_lint_report_free(&r);
    d->mode = 2;
    /* the shards cannot be read: each unreadable (SET003), the set not valid */
    assert_int_equal(tfs_set_check_io(idx, 0, 0, NULL, &io, &r), TFS_OK);
    size_t set003 = 0;
    for (size_t i = 0; i < r.n_findings; i++) set003 += strcmp(tfs_lint_id(r.findings[i].rule), "SET003") == 0;
    assert_int_equal(set003, r.n_files);
    for (size_t i = 0; i < r.n_files; i++) assert_int_equal(r.files[i].status, TFS_EIO);
    tfs_lint_report_free(&r);
    d->mode = 3;
    /* the index itself cannot be read */
    assert_int_equal(tfs_set_check_io(idx, 0, 0, NULL, &io, &r), TFS_EIO);
    tfs_lint_report_free(&r);
    unload(d);
    free(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_sets_same),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_short_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
