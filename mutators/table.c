/* table.c: the one table of named mutations (the families' tables in a
 * fixed order: indices and names are stable) and tfs_mutate itself. */
#include "mut.h"

#include <string.h>

typedef struct fam {
    const mut_def *defs;
    const size_t *n;
} fam;

/* Append only: a new family goes at the end, a new mutation at the end of
 * its family's table would shift the later indices, so indices are only
 * stable within one build; names are the stable handle. */
static const fam families[] = {
    {tfs__mut_offset, &tfs__mut_offset_n}, {tfs__mut_trunc, &tfs__mut_trunc_n},
    {tfs__mut_align, &tfs__mut_align_n},   {tfs__mut_hdr, &tfs__mut_hdr_n},
    {tfs__mut_count, &tfs__mut_count_n},   {tfs__mut_strlen, &tfs__mut_strlen_n},
    {tfs__mut_type, &tfs__mut_type_n},     {tfs__mut_shape, &tfs__mut_shape_n},
    {tfs__mut_dup, &tfs__mut_dup_n},       {tfs__mut_kv, &tfs__mut_kv_n},
    {tfs__mut_json, &tfs__mut_json_n},     {tfs__mut_bug, &tfs__mut_bug_n},
    {tfs__mut_byte, &tfs__mut_byte_n},
};
#define N_FAMILIES (sizeof families / sizeof families[0])

const mut_def *tfs__mut_def(int i)
{
    if (i < 0)
        return NULL;
    size_t k = (size_t)i;
    for (size_t f = 0; f < N_FAMILIES; f++) {
        if (k < *families[f].n)
            return &families[f].defs[k];
        k -= *families[f].n;
    }
    return NULL;
}

int tfs_mutation_count(void)
{
    size_t n = 0;
    for (size_t f = 0; f < N_FAMILIES; f++)
        n += *families[f].n;
    return (int)n;
}

const char *tfs_mutation_name(int i)
{
    const mut_def *d = tfs__mut_def(i);
    return d ? d->name : NULL;
}

const char *tfs_mutation_doc(int i)
{
    const mut_def *d = tfs__mut_def(i);
    return d ? d->doc : NULL;
}

unsigned tfs_mutation_formats(int i)
{
    const mut_def *d = tfs__mut_def(i);
    return d ? d->formats : 0u;
}

int tfs_mutation_find(const char *name)
{
    if (!name)
        return -1;
    int n = tfs_mutation_count();
    for (int i = 0; i < n; i++)
        if (strcmp(tfs__mut_def(i)->name, name) == 0)
            return i;
    return -1;
}

/* Families switched off (tfs_mutation_disable): one flag per table entry. */
#define MAX_MUTATIONS 1024
static unsigned char g_off[MAX_MUTATIONS];
static int g_any_off;

static int is_off(int i)
{
    return g_any_off && i >= 0 && i < MAX_MUTATIONS && g_off[i];
}

int tfs_mutation_disable(const char *list)
{
    int n = tfs_mutation_count(), off = 0;
    memset(g_off, 0, sizeof g_off);
    g_any_off = 0;
    for (const char *p = list; p && *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        size_t len = strcspn(p, ", ");
        for (int i = 0; len > 0 && i < n && i < MAX_MUTATIONS; i++) {
            const char *name = tfs__mut_def(i)->name;
            if (strncmp(name, p, len) == 0 && name[len] == '.' && !g_off[i]) {
                g_off[i] = 1;
                off++;
            }
        }
        p += len;
    }
    g_any_off = off > 0;
    return off;
}

/* A random mutation for format f (MUT_* bit), or -1. */
static int pick(mut_rng *r, unsigned fbit)
{
    int n = tfs_mutation_count();
    for (int tries = 0; tries < 64; tries++) {
        int i = (int)tfs__mut_below(r, (uint64_t)n);
        if ((tfs__mut_def(i)->formats & fbit) && !is_off(i))
            return i;
    }
    for (int i = 0; i < n; i++)
        if ((tfs__mut_def(i)->formats & fbit) && !is_off(i))
            return i;
    return -1;
}

#define MAX_STACK 3

size_t tfs_mutate(uint8_t *data, size_t size, size_t max_size, uint64_t seed, int mutation)
{
    if (!data || max_size == 0)
        return 0;
    if (size > max_size)
        size = max_size;
    if (mutation < -1 || mutation >= tfs_mutation_count() || is_off(mutation))
        return size;
    mut_ctx c;
    memset(&c, 0, sizeof c);
    c.rng.s = seed ^ 0x74667320u; /* "tfs " */
    c.max_size = max_size;
    int want = TFS_FORMAT_UNKNOWN;
    if (mutation >= 0) {
        unsigned f = tfs__mut_def(mutation)->formats;
        if (f == MUT_GG)
            want = TFS_FORMAT_GGUF;
        else if (f == MUT_ST)
            want = TFS_FORMAT_SAFETENSORS;
    }
    size_t out = size;
    if (tfs__mut_load(&c, data, size, want) != 0)
        goto done;
    unsigned fbit = 1u << c.format;
    int picks[MAX_STACK], n = 0;
    if (mutation >= 0) {
        if (!(tfs__mut_def(mutation)->formats & fbit))
            goto done;
        picks[n++] = mutation;
    } else {
        int k = 1;
        if (tfs__mut_below(&c.rng, 4) == 0)
            k += 1 + (int)tfs__mut_below(&c.rng, 2);
        for (int i = 0; i < k; i++) {
            int p = pick(&c.rng, fbit);
            if (p >= 0)
                picks[n++] = p;
        }
    }
    for (int i = 0; i < n; i++) {
        const mut_def *d = tfs__mut_def(picks[i]);
        if (d->model)
            d->model(&c);
    }
    if (c.nomem || tfs__mut_write(&c) != 0)
        goto done;
    for (int i = 0; i < n; i++) {
        const mut_def *d = tfs__mut_def(picks[i]);
        if (d->bytes)
            d->bytes(&c);
    }
    if (c.nomem || c.w.err != TFS_OK || c.w.size == 0)
        goto done;
    out = tfs__mut_copy_out(&c, data, max_size);
done:
    tfs__mut_free(&c);
    return out;
}
