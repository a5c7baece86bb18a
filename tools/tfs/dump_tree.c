/* dump_tree.c: `tfs dump --tree`: the tensors grouped by layer.  A name with
 * a dot-separated all-digit component (blk.12.attn_q.weight,
 * model.layers.3.mlp.up_proj.weight) belongs to the group of its prefix
 * (blk.N., model.layers.N.); within a group each suffix is one line with the
 * number of layers that have it; other tensors are listed as they are. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct suffix {
    const char *s;
    size_t len;
    uint64_t count;
    const tfs_tensor *first; /* type and shape shown */
    int mixed;               /* another layer's tensor differs in type or shape */
} suffix;

typedef struct group {
    const char *prefix;
    size_t len;
    uint64_t *layers; /* layer numbers, one per tensor (sorted and counted at the end) */
    size_t n;
    uint64_t params, bytes;
    suffix *sfx;
    size_t n_sfx;
} group;

/* The first dot-separated all-digit component of name: its prefix length
 * (up to and with the dot before it), number and the suffix after its dot.
 * 0 when there is none. */
static int layer_of(const char *s, size_t len, size_t *pre, uint64_t *num, size_t *sfx) {
    for (size_t i = 0; i < len; i++) {
        if (i && s[i - 1] != '.') continue;
        size_t j = i;
        uint64_t v = 0;
        while (j < len && s[j] >= '0' && s[j] <= '9' && j - i < 18) v = v * 10u + (uint64_t)(s[j++] - '0');
        if (j > i && j < len && s[j] == '.' && i > 0) {
            *pre = i;
            *num = v;
            *sfx = j + 1;
            return 1;
        }
    }
    return 0;
}

static int same_shape(const tfs_tensor *a, const tfs_tensor *b) {
    if (a->type != b->type || a->n_dims != b->n_dims) return 0;
    for (uint32_t d = 0; d < a->n_dims; d++)
        if (a->shape[d] != b->shape[d]) return 0;
    return 1;
}

static void put_shape(FILE *out, const tfs_tensor *t) {
    fputc('[', out);
    for (uint32_t d = 0; d < t->n_dims; d++) fprintf(out, "%s%" PRIu64, d ? ", " : "", t->shape[d]);
    fputc(']', out);
}

static int cmp_u64p(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void put_group(FILE *out, const tfs_header *h, group *g) {
    qsort(g->layers, g->n, sizeof *g->layers, cmp_u64p);
    size_t distinct = 0;
    for (size_t k = 0; k < g->n; k++) distinct += k == 0 || g->layers[k] != g->layers[k - 1];
    char p[32], b[32];
    fputs("    ", out);
    fput_safe(out, g->prefix, g->len);
    fprintf(out, "N.  layers %" PRIu64 "..%" PRIu64 " (%zu), %zu tensors, %s parameters, %s bytes\n", g->layers[0],
            g->layers[g->n - 1], distinct, g->n, group3(g->params, p, sizeof p), group3(g->bytes, b, sizeof b));
    size_t w = 0;
    for (size_t k = 0; k < g->n_sfx; k++)
        if (g->sfx[k].len > w) w = g->sfx[k].len;
    for (size_t k = 0; k < g->n_sfx; k++) {
        const suffix *x = &g->sfx[k];
        fputs("      ", out);
        fput_safe(out, x->s, x->len);
        for (size_t pad = x->len; pad < w; pad++) fputc(' ', out);
        fprintf(out, "  x%-4" PRIu64 " %s ", x->count, hist_type_name(h->format, x->first->type));
        put_shape(out, x->first);
        fputs(x->mixed ? " (types or shapes differ between layers)\n" : "\n", out);
    }
}

int dump_tree(FILE *out, const tfs_header *h, const size_t *idx, size_t n) {
    group *g = NULL;
    size_t n_g = 0, others = 0;
    int rc = -1;
    /* at most one group per tensor, one suffix per tensor: allocated as they come */
    for (size_t k = 0; k < n; k++) {
        const tfs_tensor *t = &h->tensors[idx[k]];
        size_t pre, sfx;
        uint64_t num;
        if (!layer_of(t->name.ptr, t->name.len, &pre, &num, &sfx)) {
            others++;
            continue;
        }
        size_t gi = 0;
        while (gi < n_g && !(g[gi].len == pre && memcmp(g[gi].prefix, t->name.ptr, pre) == 0)) gi++;
        if (gi == n_g) {
            group *ng = realloc(g, (n_g + 1) * sizeof *g);
            if (!ng) goto done;
            g = ng;
            g[n_g++] = (group){.prefix = t->name.ptr, .len = pre};
            if (!(g[gi].layers = malloc(n * sizeof *g[gi].layers)) || !(g[gi].sfx = malloc(n * sizeof *g[gi].sfx)))
                goto done;
        }
        group *G = &g[gi];
        G->layers[G->n++] = num;
        if (__builtin_add_overflow(G->params, t->n_elements, &G->params)) G->params = UINT64_MAX;
        if (__builtin_add_overflow(G->bytes, t->n_bytes, &G->bytes)) G->bytes = UINT64_MAX;
        const char *s = t->name.ptr + sfx;
        size_t sl = t->name.len - sfx;
        size_t si = 0;
        while (si < G->n_sfx && !(G->sfx[si].len == sl && memcmp(G->sfx[si].s, s, sl) == 0)) si++;
        if (si == G->n_sfx) G->sfx[G->n_sfx++] = (suffix){.s = s, .len = sl, .first = t};
        G->sfx[si].count++;
        if (!same_shape(G->sfx[si].first, t)) G->sfx[si].mixed = 1;
    }
    size_t in_groups = n - others;
    fprintf(out, "  tree        %zu tensor%s in %zu layer group%s, %zu other%s\n", in_groups, in_groups == 1 ? "" : "s",
            n_g, n_g == 1 ? "" : "s", others, others == 1 ? "" : "s");
    for (size_t gi = 0; gi < n_g; gi++) put_group(out, h, &g[gi]);
    for (size_t k = 0; k < n; k++) {
        const tfs_tensor *t = &h->tensors[idx[k]];
        size_t pre, sfx;
        uint64_t num;
        if (layer_of(t->name.ptr, t->name.len, &pre, &num, &sfx)) continue;
        fputs("    ", out);
        fput_safe(out, t->name.ptr, t->name.len);
        fprintf(out, "  %s ", hist_type_name(h->format, t->type));
        put_shape(out, t);
        fputc('\n', out);
    }
    rc = 0;
done:
    for (size_t gi = 0; gi < n_g; gi++) {
        free(g[gi].layers);
        free(g[gi].sfx);
    }
    free(g);
    return rc;
}
