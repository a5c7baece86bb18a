/* roundtrip.c: fuzz target for the writer round trip, one format.
 * An accepted input (GGUF: in the header-only profile, the widest; the
 * writer supplies the data as holes) is turned into a model
 * (tfs_gg_model_from_view / tfs_st_model_from_view) and written
 * (tfs_gg_write / tfs_st_write).  The written file must be accepted in the
 * default profile and give an equal view: every header field the layout does
 * not decide, every tensor, every KV value.  Writing that second view must
 * give the same bytes again (the writer is a fixed point).  The written
 * file is read through the byte source over the writer's segments, so
 * data holes of any declared size cost no memory; a key longer than
 * TFS_KEY_KEEP is compared by its first TFS_KEY_KEEP bytes there, as the
 * byte source keeps no more of it. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tfs/write.h"

/* random-access reader over a tfs_wbuf: materialised bytes and holes */
static int wbuf_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    const tfs_wbuf *w = ctx;
    TFS_FUZZ_ASSERT(len > 0, "reader called with len 0");
    size_t done = 0;
    for (size_t i = 0; i < w->n_segs && done < len; i++) {
        const tfs_wseg *s = &w->segs[i];
        uint64_t at = off + done;
        if (at < s->offset || at - s->offset >= s->len) continue;
        uint64_t in_seg = s->len - (at - s->offset);
        size_t k = len - done < in_seg ? len - done : (size_t)in_seg;
        if (s->hole)
            memset((uint8_t *)buf + done, 0, k);
        else
            memcpy((uint8_t *)buf + done, w->p + s->pos + (size_t)(at - s->offset), k);
        done += k;
    }
    *got = done;
    return 0;
}

static void write_view(const tfs_header *h, tfs_wbuf *w) {
    tfs_status st;
    if (h->format == TFS_FORMAT_GGUF) {
        tfs_gg_model *m = NULL;
        st = tfs_gg_model_from_view(h, &m);
        TFS_FUZZ_ASSERT(st == TFS_OK, "tfs_gg_model_from_view: %s", tfs_status_name(st));
        st = tfs_gg_write(m, w);
        tfs_gg_model_free(m);
        TFS_FUZZ_ASSERT(st == TFS_OK, "tfs_gg_write: %s", tfs_status_name(st));
    } else {
        tfs_st_model *m = NULL;
        st = tfs_st_model_from_view(h, &m);
        TFS_FUZZ_ASSERT(st == TFS_OK, "tfs_st_model_from_view: %s", tfs_status_name(st));
        st = tfs_st_write(m, w);
        tfs_st_model_free(m);
        TFS_FUZZ_ASSERT(st == TFS_OK, "tfs_st_write: %s", tfs_status_name(st));
    }
}

/* the written file through the byte source; must be accepted (default profile) */
static tfs_header *parse_written(const tfs_wbuf *w, const char *what) {
    tfs_source src = {.read = wbuf_read, .ctx = (void *)w, .size = w->size, .forward = 0};
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_source(&src, NULL, TFS_FUZZ_FORMAT, 0, &h, &e);
    TFS_FUZZ_ASSERT(st == TFS_OK, "%s: the written file is rejected: %s %s at %llu (#%lld): %s", what,
                    tfs_status_name(st), tfs_rule_id(e.rule), (unsigned long long)e.offset, (long long)e.index,
                    e.message ? e.message : "");
    return h;
}

/* the content of two views is equal; the layout (JSON text, trailing bytes) may differ */
static void same_content(const tfs_header *a, const tfs_header *b) {
    const int gguf = a->format == TFS_FORMAT_GGUF;
    TFS_FUZZ_ASSERT(a->format == b->format && a->version == b->version && a->alignment == b->alignment &&
                        a->has_metadata == b->has_metadata && a->n_tensors == b->n_tensors && a->n_kv == b->n_kv &&
                        a->data_size == b->data_size,
                    "round trip: header fields differ (tensors %zu/%zu, kv %zu/%zu, data %llu/%llu)", a->n_tensors,
                    b->n_tensors, a->n_kv, b->n_kv, (unsigned long long)a->data_size, (unsigned long long)b->data_size);
    if (gguf) /* GGUF has one encoding of a header: the same bytes */
        TFS_FUZZ_ASSERT(a->data_offset == b->data_offset, "round trip: data offset %llu vs %llu",
                        (unsigned long long)a->data_offset, (unsigned long long)b->data_offset);
    for (size_t i = 0; i < a->n_tensors; i++) {
        const tfs_tensor *x = &a->tensors[i], *y = &b->tensors[i];
        TFS_FUZZ_ASSERT(x->name.len == y->name.len && (!x->name.len || !memcmp(x->name.ptr, y->name.ptr, x->name.len)),
                        "round trip: tensor %zu: names differ", i);
        TFS_FUZZ_ASSERT(x->type == y->type && x->n_dims == y->n_dims && x->n_elements == y->n_elements &&
                            x->n_bytes == y->n_bytes && x->offset == y->offset,
                        "round trip: tensor %zu: type/dims/size/offset differ", i);
        for (uint32_t d = 0; d < x->n_dims; d++)
            TFS_FUZZ_ASSERT(x->shape[d] == y->shape[d], "round trip: tensor %zu: dim %u differs", i, d);
    }
    for (size_t i = 0; i < a->n_kv; i++) {
        const tfs_kv *x = &a->kv[i], *y = &b->kv[i];
        /* a key longer than TFS_KEY_KEEP: whole in the buffer's view, its
         * first TFS_KEY_KEEP bytes in the byte source's (tfs.h) */
        size_t kn = x->key.len < y->key.len ? x->key.len : y->key.len;
        TFS_FUZZ_ASSERT(x->key_size == y->key_size && (kn == x->key_size || kn == TFS_KEY_KEEP) &&
                            (!kn || !memcmp(x->key.ptr, y->key.ptr, kn)),
                        "round trip: KV %zu: keys differ", i);
        TFS_FUZZ_ASSERT(x->type == y->type && x->elem_type == y->elem_type && x->count == y->count,
                        "round trip: KV %zu: type/count differ", i);
        if (gguf)
            TFS_FUZZ_ASSERT(x->value_offset == y->value_offset && x->value_len == y->value_len,
                            "round trip: KV %zu: value position differs", i);
        for (uint64_t k = 0; k < x->count; k++) {
            if (k == 16 && x->count > 17) k = x->count - 1; /* the first 16 and the last */
            tfs_value u, v;
            tfs_status su = tfs_kv_get(a, x, k, &u), sv = tfs_kv_get(b, y, k, &v);
            TFS_FUZZ_ASSERT(su == TFS_OK && sv == TFS_OK, "round trip: KV %zu[%llu]: accessors %s / %s", i,
                            (unsigned long long)k, tfs_status_name(su), tfs_status_name(sv));
            TFS_FUZZ_ASSERT(u.type == v.type && u.u64 == v.u64 && u.i64 == v.i64 &&
                                !memcmp(&u.f64, &v.f64, sizeof u.f64) && (!gguf || u.offset == v.offset),
                            "round trip: KV %zu[%llu]: values differ", i, (unsigned long long)k);
            if (u.type != TFS_GG_STRING) continue;
            char bu[64], bv[64];
            tfs_str s, t;
            su = tfs_kv_get_string(a, x, k, &s, bu, sizeof bu);
            sv = tfs_kv_get_string(b, y, k, &t, bv, sizeof bv);
            TFS_FUZZ_ASSERT(su == TFS_OK && sv == TFS_OK, "round trip: KV %zu[%llu]: string accessors %s / %s", i,
                            (unsigned long long)k, tfs_status_name(su), tfs_status_name(sv));
            size_t m = s.len < t.len ? s.len : t.len;
            TFS_FUZZ_ASSERT(!m || !memcmp(s.ptr, t.ptr, m), "round trip: KV %zu[%llu]: strings differ", i,
                            (unsigned long long)k);
        }
    }
}

static void same_bytes(const tfs_wbuf *a, const tfs_wbuf *b) {
    TFS_FUZZ_ASSERT(a->size == b->size && a->len == b->len && a->n_segs == b->n_segs,
                    "writer not a fixed point: %llu/%llu bytes, %zu/%zu materialised, %zu/%zu segments",
                    (unsigned long long)a->size, (unsigned long long)b->size, a->len, b->len, a->n_segs, b->n_segs);
    TFS_FUZZ_ASSERT(!a->len || !memcmp(a->p, b->p, a->len), "writer not a fixed point: bytes differ");
    for (size_t i = 0; i < a->n_segs; i++)
        TFS_FUZZ_ASSERT(a->segs[i].offset == b->segs[i].offset && a->segs[i].len == b->segs[i].len &&
                            a->segs[i].hole == b->segs[i].hole,
                        "writer not a fixed point: segment %zu differs", i);
}

/* A key of which the view holds only the first TFS_KEY_KEEP bytes (a byte
 * source's view of a key longer than that): such a view has no model
 * (tfs_gg_model_from_view: TFS_EARG). */
static int has_cut_key(const tfs_header *h) {
    for (size_t i = 0; i < h->n_kv; i++)
        if (h->kv[i].key.len < h->kv[i].key_size) return 1;
    return 0;
}

/* The second write must give the first one's bytes (the writer is a fixed
 * point).  Written from the byte source's view h1; when h1 holds a cut key,
 * from a buffer parse of the written file instead (files up to 16 MiB, holes
 * as zeros; larger ones are left out). */
static void fixed_point(const tfs_header *h1, const tfs_wbuf *w1) {
    tfs_wbuf w2 = {0};
    if (!has_cut_key(h1)) {
        write_view(h1, &w2);
        same_bytes(w1, &w2);
        tfs_wbuf_free(&w2);
        return;
    }
    uint8_t *flat = NULL;
    size_t n = 0;
    if (tfs_wbuf_flatten(w1, (uint64_t)16 << 20, &flat, &n) != TFS_OK) return;
    tfs_header *h2 = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_buffer(flat, n, TFS_FUZZ_FORMAT, 0, &h2, &e);
    TFS_FUZZ_ASSERT(st == TFS_OK, "round trip: the written file is rejected by the buffer API: %s %s",
                    tfs_status_name(st), tfs_rule_id(e.rule));
    write_view(h2, &w2);
    same_bytes(w1, &w2);
    tfs_header_free(h2);
    free(flat);
    tfs_wbuf_free(&w2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    const unsigned flags = TFS_FUZZ_FORMAT == TFS_FORMAT_GGUF ? TFS_HEADER_ONLY : 0;
    tfs_header *h = NULL;
    tfs_error e;
    if (tfs_fuzz_parse_buffer(&in, flags, &h, &e) != TFS_OK) return 0;
    uint64_t end;
    if (__builtin_add_overflow(h->data_offset, h->data_size, &end)) {
        /* header-only accepts tensors no file can hold: the writer refuses
         * a file past 2^64 bytes (TFS_EARG) */
        tfs_header_free(h);
        return 0;
    }
    tfs_wbuf w1 = {0};
    write_view(h, &w1);
    tfs_header *h1 = parse_written(&w1, "first write");
    same_content(h, h1);
    fixed_point(h1, &w1);
    tfs_header_free(h1);
    tfs_header_free(h);
    tfs_wbuf_free(&w1);
    return 0;
}
