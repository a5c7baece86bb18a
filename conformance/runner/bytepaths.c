/* bytepaths.c: a fixture through tfs_parse_file, tfs_parse_buffer and a
 * forward-only tfs_parse_source, outcomes compared (bytepaths.h). */
#include "bytepaths.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file in an allocation of exactly its size (1 byte for an empty
 * file, so that the pointer is not NULL).  NULL when it cannot be read. */
static uint8_t *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, used = 0;
    for (;;) {
        if (used == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb, cap = ncap;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    uint8_t *exact = malloc(used ? used : 1); /* exact size: an overread is a sanitizer report */
    if (exact && used) memcpy(exact, buf, used);
    free(buf);
    *len = used;
    return exact;
}

/* A forward-only reader over bytes in memory: each read must start where the
 * previous one ended. */
typedef struct stream_ctx {
    const uint8_t *buf;
    size_t len;
    uint64_t pos;
    int refused; /* a read was asked for at another offset */
} stream_ctx;

static int stream_read(void *ctx, uint64_t offset, void *buf, size_t len, size_t *got) {
    stream_ctx *s = ctx;
    if (offset != s->pos) {
        s->refused = 1;
        return ESPIPE;
    }
    size_t left = s->pos < s->len ? s->len - (size_t)s->pos : 0;
    size_t k = len < left ? len : left;
    if (k) memcpy(buf, s->buf + s->pos, k);
    s->pos += k;
    *got = k;
    return 0;
}

static int str_eq(tfs_str a, tfs_str b) { return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0); }

/* Keys agree: a key longer than TFS_KEY_KEEP is whole in a buffer's view
 * (zero-copy) and its first TFS_KEY_KEEP bytes in a file's or reader's
 * (tfs.h, tfs_kv.key): the bytes both give must be equal, and each must give
 * all of it or that many. */
static int same_key(const tfs_kv *a, const tfs_kv *b) {
    size_t n = a->key.len < b->key.len ? a->key.len : b->key.len;
    int whole_or_kept = (a->key.len == a->key_size || a->key.len == TFS_KEY_KEEP) &&
                        (b->key.len == b->key_size || b->key.len == TFS_KEY_KEEP);
    return whole_or_kept && (n == 0 || memcmp(a->key.ptr, b->key.ptr, n) == 0);
}

/* 0 when the two accepted headers agree (bytepaths.h lists what is compared);
 * else 1 with the first difference in why. */
static int same_header(const tfs_header *a, const tfs_header *b, const char *bname, char *why, size_t n) {
#define DIFF(cond, what, ...)                                       \
    do {                                                            \
        if (cond) {                                                 \
            snprintf(why, n, "%s path: " what, bname, __VA_ARGS__); \
            return 1;                                               \
        }                                                           \
    } while (0)
    DIFF(a->version != b->version, "version %" PRIu32 " vs %" PRIu32, b->version, a->version);
    DIFF(a->file_size && b->file_size && a->file_size != b->file_size, "file_size %" PRIu64 " vs %" PRIu64,
         b->file_size, a->file_size);
    DIFF(a->header_size != b->header_size, "header_size %" PRIu64 " vs %" PRIu64, b->header_size, a->header_size);
    DIFF(a->data_offset != b->data_offset, "data_offset %" PRIu64 " vs %" PRIu64, b->data_offset, a->data_offset);
    DIFF(a->data_size != b->data_size, "data_size %" PRIu64 " vs %" PRIu64, b->data_size, a->data_size);
    DIFF(a->alignment != b->alignment, "alignment %" PRIu32 " vs %" PRIu32, b->alignment, a->alignment);
    DIFF(a->has_metadata != b->has_metadata, "has_metadata %d vs %d", b->has_metadata, a->has_metadata);
    DIFF(a->n_tensors != b->n_tensors, "n_tensors %zu vs %zu", b->n_tensors, a->n_tensors);
    DIFF(a->n_kv != b->n_kv, "n_kv %zu vs %zu", b->n_kv, a->n_kv);
    for (size_t i = 0; i < a->n_tensors; i++) {
        const tfs_tensor *x = &a->tensors[i], *y = &b->tensors[i];
        int same = str_eq(x->name, y->name) && x->type == y->type && x->n_dims == y->n_dims &&
                   x->n_elements == y->n_elements && x->n_bytes == y->n_bytes && x->offset == y->offset &&
                   x->file_offset == y->file_offset;
        for (uint32_t d = 0; same && d < x->n_dims; d++) same = x->shape[d] == y->shape[d];
        DIFF(!same, "tensor %zu differs", i);
    }
    for (size_t i = 0; i < a->n_kv; i++) {
        const tfs_kv *x = &a->kv[i], *y = &b->kv[i];
        int same = same_key(x, y) && x->key_size == y->key_size && x->type == y->type && x->elem_type == y->elem_type &&
                   x->count == y->count && x->value_offset == y->value_offset && x->value_len == y->value_len;
        DIFF(!same, "KV %zu differs", i);
    }
#undef DIFF
    return 0;
}

/* What a forward-only source keeps of the string and array values
 * (tfs.h, tfs_parse_source "Memory"): string scalars of at most
 * CF_STRING_KEEP bytes; of each array its first TFS_ARRAY_KEEP bytes of whole
 * elements (a string element: its 8-byte length and its body), at most
 * CF_ARRAY_KEEP_TOTAL bytes for all arrays together, in file order. */
#define CF_STRING_KEEP 256u
#define CF_ARRAY_KEEP_TOTAL (64u * 1024u * 1024u)
#define CF_BLOCK (64u * 1024u)

/* Whether a forward-only source keeps element va of kv (the file path's
 * element), given *used bytes of this array kept so far and lim bytes it may
 * keep; counts the element in *used when it does. */
static int stream_keeps(const tfs_header *a, const tfs_kv *kv, const tfs_value *va, uint64_t *used, uint64_t lim) {
    if (a->format != TFS_FORMAT_GGUF) return 1; /* safetensors: the whole header is kept */
    if (kv->type != TFS_GG_ARRAY) return kv->type != TFS_GG_STRING || va->u64 <= CF_STRING_KEEP;
    uint64_t size = kv->elem_type == TFS_GG_STRING ? 8u + va->u64 : tfs_gg_vtype_size(kv->elem_type);
    if (size > lim - *used) return 0; /* *used <= lim; a string is at most 2^30 bytes (GG101) */
    *used += size;
    return 1;
}

/* 0 when every value b gives equals a's (the file path's), and b gives as
 * many elements as it must: all of them (random access), or what a
 * forward-only source keeps (stream_keeps, decided element by element while
 * the file path's values are read); else 1 with why. */
static int same_values(const tfs_header *a, const tfs_header *b, int forward, const char *bname, char *why, size_t n) {
    uint8_t *blk = malloc(2u * CF_BLOCK);
    if (!blk) {
        snprintf(why, n, "%s path: out of memory for the value comparison", bname);
        return 1;
    }
    int rc = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < a->n_kv && !rc; i++) {
        const tfs_kv *ka = &a->kv[i], *kb = &b->kv[i];
        uint64_t room = CF_ARRAY_KEEP_TOTAL - total, used = 0;
        uint64_t lim = room < TFS_ARRAY_KEEP ? room : TFS_ARRAY_KEEP; /* bytes of this array a stream keeps */
        tfs_kv_cursor ca, cb;
        if (tfs_kv_cursor_init(&ca, a, ka, blk, CF_BLOCK) != TFS_OK ||
            tfs_kv_cursor_init(&cb, b, kb, blk + CF_BLOCK, CF_BLOCK) != TFS_OK) {
            snprintf(why, n, "%s path: KV %zu: no cursor", bname, i);
            rc = 1;
            break;
        }
        for (uint64_t j = 0; j < ka->count && !rc; j++) {
            tfs_value va, vb;
            tfs_str sa = {"", 0}, sb = {"", 0};
            tfs_status xa = tfs_kv_next(&ca, &va, &sa), xb = tfs_kv_next(&cb, &vb, &sb);
            if (xa != TFS_OK) {
                snprintf(why, n, "file path: KV %zu element %" PRIu64 ": %s", i, j, tfs_status_name(xa));
                rc = 1;
            } else if (forward && !stream_keeps(a, ka, &va, &used, lim)) {
                if (xb != TFS_EIO) {
                    snprintf(why, n, "%s path: KV %zu element %" PRIu64 ": %s, want io_error (not kept)", bname, i, j,
                             tfs_status_name(xb));
                    rc = 1;
                }
                break; /* the rest is not there */
            } else if (xb != TFS_OK) {
                snprintf(why, n, "%s path: KV %zu element %" PRIu64 ": %s", bname, i, j, tfs_status_name(xb));
                rc = 1;
            } else {
                size_t common = sa.len < sb.len ? sa.len : sb.len, whole = va.u64 < CF_BLOCK ? va.u64 : CF_BLOCK;
                int same = va.type == vb.type && va.u64 == vb.u64 && va.i64 == vb.i64 &&
                           memcmp(&va.f64, &vb.f64, sizeof va.f64) == 0 && va.offset == vb.offset;
                if (same && va.type == TFS_GG_STRING)
                    same = common >= whole && (common == 0 || memcmp(sa.ptr, sb.ptr, common) == 0);
                if (!same) {
                    snprintf(why, n, "%s path: KV %zu element %" PRIu64 " differs", bname, i, j);
                    rc = 1;
                }
            }
        }
        total += used;
    }
    free(blk);
    return rc;
}

static int same_outcome(tfs_status sa, const tfs_error *ea, tfs_status sb, const tfs_error *eb, const char *bname,
                        char *why, size_t n) {
    if (sa == sb && ea->rule == eb->rule && ea->offset == eb->offset && ea->index == eb->index) return 0;
    snprintf(why, n,
             "%s path gives %s %s offset %" PRIu64 " index %" PRId64 ", file path %s %s offset %" PRIu64
             " index %" PRId64,
             bname, tfs_status_name(sb), tfs_rule_id(eb->rule), eb->offset, eb->index, tfs_status_name(sa),
             tfs_rule_id(ea->rule), ea->offset, ea->index);
    return 1;
}

int cf_parse_all_paths(const char *path, tfs_format fmt, unsigned flags, tfs_status *st, tfs_error *err, char *why,
                       size_t n) {
    tfs_header *hf = NULL, *hb = NULL, *hs = NULL;
    tfs_error eb, es;
    memset(err, 0, sizeof *err);
    memset(&eb, 0, sizeof eb);
    memset(&es, 0, sizeof es);
    if (n) why[0] = '\0';
    *st = tfs_parse_file(path, fmt, flags, &hf, err);

    size_t len = 0;
    uint8_t *buf = slurp(path, &len);
    if (!buf) {
        snprintf(why, n, "cannot read %s for the buffer path: %s", path, strerror(errno));
        tfs_header_free(hf);
        return -1;
    }
    int rc = 0;
    tfs_status sb = tfs_parse_buffer(buf, len, fmt, flags, &hb, &eb);
    if (same_outcome(*st, err, sb, &eb, "buffer", why, n))
        rc = 1;
    else if (*st == TFS_OK && (same_header(hf, hb, "buffer", why, n) || same_values(hf, hb, 0, "buffer", why, n)))
        rc = 1;

    stream_ctx sc = {buf, len, 0, 0};
    tfs_source src = {stream_read, &sc, TFS_SIZE_UNKNOWN, 1};
    tfs_status ss = tfs_parse_source(&src, path, fmt, flags, &hs, &es);
    if (!rc && sc.refused) {
        snprintf(why, n, "stream path: the parser asked a forward-only reader to go back");
        rc = 1;
    }
    if (!rc && same_outcome(*st, err, ss, &es, "stream", why, n))
        rc = 1;
    else if (!rc && *st == TFS_OK &&
             (same_header(hf, hs, "stream", why, n) || same_values(hf, hs, 1, "stream", why, n)))
        rc = 1;

    tfs_header_free(hs);
    tfs_header_free(hb);
    tfs_header_free(hf);
    free(buf);
    return rc;
}
