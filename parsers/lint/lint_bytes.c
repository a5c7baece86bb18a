/* lint_bytes.c: bytes of a valid GGUF file that no structure owns, where a
 * payload can hide from every reader (LT113, LT114).
 *
 * A GGUF file is, with nothing in between: the 24-byte fixed header, the KV
 * pairs, the tensor infos, padding to general.alignment, the tensors' data,
 * each padded to the alignment.  ggml reads the records one after the
 * other, so no byte between the KV section's end and the tensor infos' end
 * can escape a structure; what remains is the padding (ggml never reads it:
 * spec/gguf.md) and whatever follows the data section (ggml and llama.cpp
 * ignore it).  LT113 is arithmetic on the header; LT114 reads the padding
 * bytes and nothing else, so a 16 GB file costs a few small reads.
 *
 * safetensors needs no rule here: bytes after the data are ST307, gaps
 * between tensors ST301, and the padding after the JSON is LT302. */
#include "lint_internal.h"

#include <stdio.h>
#include <string.h>

#define GG_FIXED_HEADER 24u /* magic, version, n_tensors, n_kv (v2, v3) */
#define SCAN_CHUNK 4096u

/* a + b into *r; true when it wraps. */
static bool add_ovf(uint64_t a, uint64_t b, uint64_t *r) {
    *r = a + b;
    return *r < a;
}

uint64_t tfs_unowned_tail(const tfs_header *h, uint64_t *offset) {
    if (offset) *offset = 0;
    if (!h || !h->complete || h->format != TFS_FORMAT_GGUF || h->file_size == 0 || h->alignment == 0) return 0;
    uint64_t end, a = h->alignment;
    /* with tensors data_offset is aligned and data_size a sum of padded
     * sizes; without, data_offset is the tensor infos' end: pad it */
    if (add_ovf(h->data_offset, h->data_size, &end) || add_ovf(end, a - 1u, &end)) return 0;
    end &= ~(a - 1u);
    if (offset) *offset = end;
    return h->file_size > end ? h->file_size - end : 0;
}

/* Where the tensor infos end: the KV section's end (the last value's end,
 * else the fixed header) plus each info's name, n_dims, dims, type and
 * offset fields.  false when it does not fit 64 bits (never for a header
 * that parsed). */
static bool infos_end(const tfs_header *h, uint64_t *out) {
    uint64_t e = GG_FIXED_HEADER;
    if (h->n_kv && add_ovf(h->kv[h->n_kv - 1].value_offset, h->kv[h->n_kv - 1].value_len, &e)) return false;
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        uint64_t one = 8u + 4u + 4u + 8u + 8u * (uint64_t)t->n_dims;
        if (add_ovf(one, t->name.len, &one) || add_ovf(e, one, &e)) return false;
    }
    *out = e;
    return true;
}

typedef struct scan {
    const tfs_source *src;
    uint64_t nonzero; /* bytes that are not zero */
    uint64_t first;   /* offset of the first, UINT64_MAX: none */
    int64_t where;    /* the tensor whose padding holds it, -1: before the data section */
    uint64_t padding; /* padding bytes read */
    bool failed;      /* a read failed: no finding */
} scan;

/* Count the non-zero bytes of [begin, end) clipped to the file. */
static void scan_range(scan *s, uint64_t begin, uint64_t end, int64_t where) {
    uint8_t buf[SCAN_CHUNK];
    if (end > s->src->size) end = s->src->size;
    while (begin < end && !s->failed) {
        size_t n = end - begin < SCAN_CHUNK ? (size_t)(end - begin) : SCAN_CHUNK;
        for (size_t have = 0, got; have < n; have += got) { /* a reader may give fewer bytes per call */
            got = 0;
            if (s->src->read(s->src->ctx, begin + have, buf + have, n - have, &got) != 0 || got == 0 ||
                got > n - have) {
                s->failed = true;
                return;
            }
        }
        for (size_t k = 0; k < n; k++) {
            if (!buf[k]) continue;
            if (s->first == UINT64_MAX) {
                s->first = begin + k;
                s->where = where;
            }
            s->nonzero++;
        }
        s->padding += n;
        begin += n;
    }
}

static void human_size(char *buf, size_t cap, uint64_t n) {
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double d = (double)n;
    int u = -1;
    while (d >= 1024.0 && u < 5) {
        d /= 1024.0;
        u++;
    }
    if (u < 0)
        buf[0] = '\0';
    else
        snprintf(buf, cap, " (%.1f %s)", d, unit[u]);
}

tfs_status tfs__lint_bytes(const tfs_header *h, int part, const tfs_source *src, tfs_lint_report *r) {
    if (h->format != TFS_FORMAT_GGUF) return TFS_OK;
    tfs_status st = TFS_OK;
    uint64_t at, tail = tfs_unowned_tail(h, &at);
    if (tail) {
        char hs[32];
        human_size(hs, sizeof hs, tail);
        st |= tfs__lint_add(r, TFS_LT113, part, -1, -1,
                            "%llu byte%s%s after the data section, from offset %llu to the end of the file at %llu: "
                            "no tensor owns them, and ggml and llama.cpp never read them",
                            (unsigned long long)tail, tail == 1 ? "" : "s", hs, (unsigned long long)at,
                            (unsigned long long)h->file_size);
    }
    uint64_t ie, a = h->alignment;
    if (!src || src->forward || !src->read || a == 0 || !infos_end(h, &ie)) return st;
    scan s = {.src = src, .first = UINT64_MAX, .where = -1};
    if (h->n_tensors == 0) {
        uint64_t pad_end;
        if (!add_ovf(ie, a - 1u, &pad_end)) scan_range(&s, ie, pad_end & ~(a - 1u), -1);
    } else {
        scan_range(&s, ie, h->data_offset, -1);
    }
    for (size_t i = 0; i < h->n_tensors && !s.failed; i++) {
        const tfs_tensor *t = &h->tensors[i];
        uint64_t begin, end;
        if (add_ovf(t->file_offset, t->n_bytes, &begin) || add_ovf(begin, a - 1u, &end)) break;
        scan_range(&s, begin, end & ~(a - 1u), (int64_t)i);
    }
    if (s.failed || s.nonzero == 0) return st;
    if (s.where < 0)
        return st | tfs__lint_add(r, TFS_LT114, part, -1, -1,
                                  "padding bytes not zero: %llu of %llu; the first at offset %llu, between the "
                                  "tensor infos (end at %llu) and the data section (at %llu)",
                                  (unsigned long long)s.nonzero, (unsigned long long)s.padding,
                                  (unsigned long long)s.first, (unsigned long long)ie,
                                  (unsigned long long)h->data_offset);
    const tfs_tensor *t = &h->tensors[s.where];
    return st | tfs__lint_add(r, TFS_LT114, part, s.where, -1,
                              "padding bytes not zero: %llu of %llu; the first at offset %llu, in the padding "
                              "after tensor %.*s",
                              (unsigned long long)s.nonzero, (unsigned long long)s.padding, (unsigned long long)s.first,
                              (int)(t->name.len > 100 ? 100 : t->name.len), t->name.ptr);
}
