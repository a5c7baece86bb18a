/* set_common.h: what set_st.c and set_gg.c share (static inline helpers). */
#ifndef TFS_SET_COMMON_H
#define TFS_SET_COMMON_H

#include "lint_internal.h"

#include <errno.h>
#include <string.h>

/* Findings of one per-tensor rule are reported one by one up to this many;
 * then one more finding counts the rest, so a broken 100,000-tensor set
 * gives a readable report. */
#define SET_PER_RULE 10u

/* Parse every file of r->files[first..] into hs[] (NULL when not TFS_OK);
 * a missing file is SET002, an invalid one SET003. */
static inline tfs_status set_parse_files(tfs_lint_report *r, unsigned flags, const tfs_set_io *io, tfs_header **hs,
                                         const char *what) {
    tfs_status st = TFS_OK;
    for (size_t i = 0; i < r->n_files; i++) {
        tfs_lint_file *f = &r->files[i];
        hs[i] = NULL;
        f->status = tfs__set_parse(io, f->path, TFS_FORMAT_UNKNOWN, flags, &hs[i], &f->err);
        if (f->status == TFS_OK) {
            f->n_tensors = hs[i]->n_tensors;
            for (size_t k = 0; k < hs[i]->n_tensors; k++) f->tensor_bytes += hs[i]->tensors[k].n_bytes;
            r->n_tensors += f->n_tensors;
            r->tensor_bytes += f->tensor_bytes;
            if (hs[i]->format != r->format) {
                st |= tfs__lint_add(r, TFS_SET003, (int)i, -1, -1, "%s: a %s file in a %s set", f->path,
                                    tfs_format_name(hs[i]->format), tfs_format_name(r->format));
                tfs_header_free(hs[i]);
                hs[i] = NULL;
                f->status = TFS_INVALID;
            }
        } else if (f->status == TFS_EIO && f->err.sys_errno == ENOENT) {
            st |= tfs__lint_add(r, TFS_SET002, (int)i, -1, -1, "%s: missing (%s)", f->path, what);
        } else if (f->status == TFS_INVALID) {
            st |= tfs__lint_add(r, TFS_SET003, (int)i, -1, -1, "%s: %s %s at offset %llu", f->path,
                                tfs_rule_id(f->err.rule), tfs_rule_message(f->err.rule),
                                (unsigned long long)f->err.offset);
        } else if (f->status == TFS_ENOMEM) {
            st = TFS_ENOMEM;
        } else {
            st |= tfs__lint_add(r, TFS_SET003, (int)i, -1, -1, "%s: cannot be read (%s)", f->path,
                                f->err.sys_errno ? strerror(f->err.sys_errno) : tfs_status_name(f->status));
        }
    }
    return st;
}

/* Tensors in two files (SET005) and with different dtype / shape (SET006). */
static inline tfs_status set_duplicates(tfs_lint_report *r, const tn_index *x, tfs_header *const *hs) {
    tfs_status st = TFS_OK;
    size_t n5 = 0, n6 = 0;
    for (size_t i = 0; i + 1 < x->n;) {
        size_t j = i + 1;
        while (j < x->n && x->v[j].len == x->v[i].len && memcmp(x->v[j].name, x->v[i].name, x->v[i].len) == 0) j++;
        for (size_t k = i + 1; k < j; k++) {
            const tn_entry *a = &x->v[i], *b = &x->v[k];
            if (a->part == b->part) continue; /* within one file: the format rules' business */
            const tfs_tensor *ta = &hs[a->part]->tensors[a->index], *tb = &hs[b->part]->tensors[b->index];
            if (n5++ < SET_PER_RULE)
                st |= tfs__lint_add(r, TFS_SET005, (int)b->part, b->index, -1, "%.*s: in %s and in %s", (int)a->len,
                                    a->name, r->files[a->part].path, r->files[b->part].path);
            int same = ta->type == tb->type && ta->n_dims == tb->n_dims;
            for (uint32_t d = 0; same && d < ta->n_dims; d++) same = ta->shape[d] == tb->shape[d];
            if (!same && n6++ < SET_PER_RULE) {
                char sa[160], sb[160];
                tfs__lint_shape(sa, sizeof sa, ta->shape, ta->n_dims);
                tfs__lint_shape(sb, sizeof sb, tb->shape, tb->n_dims);
                st |= tfs__lint_add(r, TFS_SET006, (int)b->part, b->index, -1,
                                    "%.*s: type %u shape %s in %s, type %u shape %s in %s", (int)a->len, a->name,
                                    ta->type, sa, r->files[a->part].path, tb->type, sb, r->files[b->part].path);
            }
        }
        i = j;
    }
    if (n5 > SET_PER_RULE)
        st |= tfs__lint_add(r, TFS_SET005, -1, -1, -1, "%zu more tensors in two files", n5 - SET_PER_RULE);
    if (n6 > SET_PER_RULE)
        st |= tfs__lint_add(r, TFS_SET006, -1, -1, -1, "%zu more tensors with different dtype or shape",
                            n6 - SET_PER_RULE);
    return st;
}

#endif
