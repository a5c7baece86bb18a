/*
 * roundtrip.c: parse(write(model_from_view(parse(f)))) == parse(f) for every
 * valid file.
 *
 *   write_roundtrip [--manifest MANIFEST.tsv]... [--dir DIR]...
 *
 * --manifest: every row whose `expect` is `valid`, parsed with the row's mode
 * (default, header-only, strict).  --dir: every regular file below DIR (one
 * level of sub-directories) that parses with the default profile (the others
 * are counted as skipped).  For each: parse the bytes (tfs_parse_buffer),
 * build the model from the view, write it, parse the output with the same
 * flags: it must be valid and the views equal (wt_view_diff).  In the
 * header-only profile the GGUF data section is not written (a valid header
 * may declare exabytes of data).
 * Exit 0 all passed, 1 any failed, 77 when no input exists at all (skip),
 * 2 usage.
 */
#include "wt_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int n_pass, n_fail, n_skip;

static int read_all(const char *path, uint8_t **out, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *p = malloc(cap);
    for (;;) {
        if (!p) break;
        n += fread(p + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *q = realloc(p, cap * 2);
        if (!q) {
            free(p);
            p = NULL;
            break;
        }
        p = q;
        cap *= 2;
    }
    int bad = ferror(f) || !p;
    fclose(f);
    if (bad) {
        free(p);
        return -1;
    }
    *out = p;
    *len = n;
    return 0;
}

/* One file; must_parse: a manifest row that says valid. */
static void one(const char *path, unsigned flags, int must_parse) {
    uint8_t *buf;
    size_t len;
    if (read_all(path, &buf, &len) != 0) {
        printf("FAIL %s: unreadable\n", path);
        n_fail++;
        return;
    }
    tfs_format fmt = tfs_detect_format(buf, len, path);
    tfs_header *h = NULL;
    tfs_error e;
    /* the file API: values reach the model through the accessors' re-reads
     * (the rewritten file is parsed from a buffer: both modes compared) */
#ifndef TFS_NO_POSIX
    tfs_status pst = tfs_parse_file(path, fmt, flags, &h, &e);
    /* a GGUF key longer than TFS_KEY_KEEP: the file API keeps its first
     * bytes only (tfs.h, tfs_kv.key), no model can be made of that view:
     * such a file goes through the buffer API, which has the whole key */
    for (size_t i = 0; pst == TFS_OK && i < h->n_kv; i++)
        if (h->kv[i].key_size > h->kv[i].key.len) {
            tfs_header_free(h);
            h = NULL;
            pst = tfs_parse_buffer(buf, len, fmt, flags, &h, &e);
            break;
        }
#else
    tfs_status pst = tfs_parse_buffer(buf, len, fmt, flags, &h, &e);
#endif
    if (pst != TFS_OK) {
        if (must_parse) {
            printf("FAIL %s: not valid (%s)\n", path, tfs_rule_id(e.rule));
            n_fail++;
        } else {
            n_skip++;
        }
        free(buf);
        return;
    }
    tfs_wbuf w = {0};
    tfs_status st;
    if (fmt == TFS_FORMAT_GGUF) {
        tfs_gg_model *m = NULL;
        st = tfs_gg_model_from_view(h, &m);
        /* header-only: no data (a valid header may declare exabytes) */
        if (st == TFS_OK && (flags & TFS_HEADER_ONLY)) m->flags |= TFS_GGW_NO_DATA;
        if (st == TFS_OK) st = tfs_gg_write(m, &w);
        tfs_gg_model_free(m);
    } else {
        tfs_st_model *m = NULL;
        st = tfs_st_model_from_view(h, &m);
        if (st == TFS_OK) st = tfs_st_write(m, &w);
        tfs_st_model_free(m);
    }
    wt_file g;
    const char *diff = NULL;
    if (st != TFS_OK) {
        printf("FAIL %s: model/write: %s\n", path, tfs_status_name(st));
        n_fail++;
    } else if (wt_parse(&w, fmt, flags, &g) != 0) {
        printf("FAIL %s: flatten\n", path);
        n_fail++;
    } else {
        if (g.st != TFS_OK) {
            printf("FAIL %s: rewritten file invalid: %s at %llu [%lld]\n", path, tfs_rule_id(g.e.rule),
                   (unsigned long long)g.e.offset, (long long)g.e.index);
            n_fail++;
        } else if ((diff = wt_view_diff(h, g.h)) != NULL) {
            printf("FAIL %s: views differ: %s\n", path, diff);
            n_fail++;
        } else {
            n_pass++;
        }
        wt_file_free(&g);
    }
    tfs_wbuf_free(&w);
    tfs_header_free(h);
    free(buf);
}

static int manifest(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    char line[8192];
    int c_path = -1, c_expect = -1, c_mode = -1;
    for (int row = 0; fgets(line, sizeof line, f); row++) {
        line[strcspn(line, "\r\n")] = '\0';
        char *cols[16];
        int n = 0;
        for (char *p = line; n < 16;) {
            cols[n++] = p;
            char *t = strchr(p, '\t');
            if (!t) break;
            *t = '\0';
            p = t + 1;
        }
        if (row == 0) {
            for (int i = 0; i < n; i++) {
                if (!strcmp(cols[i], "path")) c_path = i;
                if (!strcmp(cols[i], "expect")) c_expect = i;
                if (!strcmp(cols[i], "mode")) c_mode = i;
            }
            if (c_path < 0 || c_expect < 0 || c_mode < 0) {
                fclose(f);
                return -1;
            }
            continue;
        }
        if (n <= c_path || n <= c_expect || n <= c_mode || strcmp(cols[c_expect], "valid") != 0) continue;
        unsigned flags = !strcmp(cols[c_mode], "strict")        ? TFS_STRICT
                         : !strcmp(cols[c_mode], "header-only") ? TFS_HEADER_ONLY
                                                                : 0;
        char file[8192];
        snprintf(file, sizeof file, "%s/%s", dir, cols[c_path]);
        one(file, flags, 1);
    }
    fclose(f);
    return 0;
}

static int is_dir(const char *p) {
    struct stat s;
    return stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

/* Regular files of dir and of its sub-directories (one level), sorted. */
static void walk(const char *dir, int depth) {
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, alphasort);
    if (n < 0) return;
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, name);
        if (name[0] != '.') {
            if (is_dir(p)) {
                if (depth == 0) walk(p, 1);
            } else if (strstr(name, ".gguf") || strstr(name, ".safetensors")) {
                one(p, 0, 0);
            }
        }
        free(ents[i]);
    }
    free(ents);
}

int main(int argc, char **argv) {
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: write_roundtrip [--manifest M]... [--dir D]...\n");
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(argv[i - 1], "--manifest")) {
            if (manifest(v) == 0)
                inputs++;
            else
                printf("skip %s: absent or not a manifest\n", v);
        } else if (!strcmp(argv[i - 1], "--dir")) {
            if (is_dir(v)) {
                walk(v, 0);
                inputs++;
            } else
                printf("skip %s: absent\n", v);
        } else {
            fprintf(stderr, "usage: write_roundtrip [--manifest M]... [--dir D]...\n");
            return 2;
        }
    }
    printf("%d round trips passed, %d failed, %d files not valid (skipped)\n", n_pass, n_fail, n_skip);
    if (!inputs) return 77;
    return n_fail ? 1 : 0;
}
