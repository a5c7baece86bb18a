/* dump_select.c: which records `tfs dump` shows and in what order:
 * --keys GLOB, --tensors GLOB, --no-tensors, --sort offset|size|name
 * (dump_view), and the per-type totals of the tensors shown. */
#include <inttypes.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int dump_sort_parse(const char *s, int *out) {
    static const char *const names[] = {"file", "offset", "size", "name"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}

int dump_glob_match(const char *glob, const char *s, size_t len) {
    if (!glob) return 1;
    char small[256];
    char *z = len < sizeof small ? small : malloc(len + 1);
    if (!z) return 0;
    memcpy(z, s, len);
    z[len] = 0;
    /* a name with a NUL byte is matched up to it, as a C string */
    int m = fnmatch(glob, z, 0) == 0;
    if (z != small) free(z);
    return m;
}

/* The header the sort compares through (qsort has no context argument;
 * the CLI is single-threaded). */
static const tfs_header *g_sort_h;
static int g_sort_key;

static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

static int cmp_tensor(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const tfs_tensor *x = &g_sort_h->tensors[a], *y = &g_sort_h->tensors[b];
    int c = 0;
    if (g_sort_key == DUMP_SORT_OFFSET)
        c = cmp_u64(x->offset, y->offset);
    else if (g_sort_key == DUMP_SORT_SIZE)
        c = -cmp_u64(x->n_bytes, y->n_bytes); /* largest first */
    else if (g_sort_key == DUMP_SORT_NAME) {
        size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
        c = n ? memcmp(x->name.ptr, y->name.ptr, n) : 0;
        if (c == 0) c = cmp_u64(x->name.len, y->name.len);
    }
    return c ? c : cmp_u64(a, b); /* ties in file order: a stable result */
}

size_t *dump_tensor_order(const tfs_header *h, const dump_view *v, size_t *n_out) {
    *n_out = 0;
    size_t *idx = malloc((h->n_tensors ? h->n_tensors : 1) * sizeof *idx);
    if (!idx) return NULL;
    size_t n = 0;
    for (size_t i = 0; !v->no_tensors && i < h->n_tensors; i++)
        if (dump_glob_match(v->tensors_glob, h->tensors[i].name.ptr, h->tensors[i].name.len)) idx[n++] = i;
    if (v->sort != DUMP_SORT_FILE && n > 1) {
        g_sort_h = h;
        g_sort_key = v->sort;
        qsort(idx, n, sizeof *idx, cmp_tensor);
    }
    *n_out = n;
    return idx;
}

void dump_totals(FILE *out, const tfs_header *h, const size_t *idx, size_t n) {
    uint64_t count[HIST_MAX + 1] = {0}, params[HIST_MAX + 1] = {0}, bytes[HIST_MAX + 1] = {0};
    uint64_t all_p = 0, all_b = 0;
    for (size_t k = 0; k < n; k++) {
        const tfs_tensor *t = &h->tensors[idx[k]];
        unsigned slot = t->type < HIST_MAX ? t->type : HIST_MAX;
        count[slot]++;
        if (__builtin_add_overflow(params[slot], t->n_elements, &params[slot])) params[slot] = UINT64_MAX;
        if (__builtin_add_overflow(bytes[slot], t->n_bytes, &bytes[slot])) bytes[slot] = UINT64_MAX;
        if (__builtin_add_overflow(all_p, t->n_elements, &all_p)) all_p = UINT64_MAX;
        if (__builtin_add_overflow(all_b, t->n_bytes, &all_b)) all_b = UINT64_MAX;
    }
    char p[32], b[32];
    fprintf(out, "  totals      %zu tensor%s, %s parameters, %s bytes\n", n, n == 1 ? "" : "s",
            group3(all_p, p, sizeof p), group3(all_b, b, sizeof b));
    int w_t = 1, w_c = 1, w_p = 1, w_b = 1, l;
    for (unsigned s = 0; s <= HIST_MAX; s++) {
        if (!count[s]) continue;
        if ((l = (int)strlen(s == HIST_MAX ? "?" : hist_type_name(h->format, s))) > w_t) w_t = l;
        if ((l = (int)strlen(group3(count[s], p, sizeof p))) > w_c) w_c = l;
        if ((l = (int)strlen(group3(params[s], p, sizeof p))) > w_p) w_p = l;
        if ((l = (int)strlen(group3(bytes[s], p, sizeof p))) > w_b) w_b = l;
    }
    for (unsigned s = 0; s <= HIST_MAX; s++) {
        if (!count[s]) continue;
        char c[32];
        fprintf(out, "    %-*s  %*s tensor%s  %*s parameters  %*s bytes\n", w_t,
                s == HIST_MAX ? "?" : hist_type_name(h->format, s), w_c, group3(count[s], c, sizeof c),
                count[s] == 1 ? " " : "s", w_p, group3(params[s], p, sizeof p), w_b, group3(bytes[s], b, sizeof b));
    }
}

const char *group3(uint64_t v, char *buf, size_t cap) {
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < cap; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = 0;
    return buf;
}
