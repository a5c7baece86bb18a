/* fuzz.c: the invariant checks, view comparison and memory reader shared by
 * every fuzz target (see fuzz.h). */
#include "fuzz.h"
#include "tfs/write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t g_input_size; /* for the failure message */

void tfs_fuzz_fail(const char *fmt, ...) {
    va_list ap;
    fputs("tfs-fuzz: invariant violated: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (input: %zu bytes)\n", g_input_size);
    fflush(stderr);
    abort();
}

const char *tfs_fuzz_api_name(tfs_fuzz_api api) {
    switch (api) {
    case TFS_FUZZ_BUFFER: return "buffer";
    case TFS_FUZZ_RANDOM: return "reader(random)";
    case TFS_FUZZ_STREAM: return "reader(stream)";
    case TFS_FUZZ_FORWARD_SIZED: return "reader(forward, sized)";
    }
    return "?";
}

const char *tfs_fuzz_flags_name(unsigned flags) {
    static const char *const names[8] = {
        "default",         "strict",         "header-only",         "strict+header-only",
        "default+partial", "strict+partial", "header-only+partial", "strict+header-only+partial"};
    return flags < 8 ? names[flags] : "?";
}

/* -------------------------------------------------------------- variants */

int tfs_fuzz_thorough;

unsigned tfs_fuzz_tail(const uint8_t *data, size_t size) { return size ? data[size - 1] : 0u; }

unsigned tfs_fuzz_first(unsigned count, const uint8_t *data, size_t size) {
    return tfs_fuzz_thorough ? 0u : tfs_fuzz_tail(data, size) % count;
}

unsigned tfs_fuzz_end(unsigned count, const uint8_t *data, size_t size) {
    return tfs_fuzz_thorough ? count : tfs_fuzz_first(count, data, size) + 1u;
}

/* ----------------------------------------------------------- rule report */

#define RULE_SLOTS 3000u /* codes: 1000 + n (ST), 2000 + n (GG) */
static uint64_t g_rule_counts[RULE_SLOTS];

void tfs_fuzz_rule_seen(tfs_rule rule) {
    if ((unsigned)rule < RULE_SLOTS) g_rule_counts[rule]++;
}

uint64_t tfs_fuzz_rule_count(tfs_rule rule) { return (unsigned)rule < RULE_SLOTS ? g_rule_counts[rule] : 0; }

/* ------------------------------------------------------------ invariants */

static int add_ovf(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r); }

static void check_index(const tfs_fuzz_in *in, const char *where, const tfs_error *e, const tfs_header *h) {
    tfs_index_kind kind = tfs_rule_index_kind(e->rule);
    switch (kind) {
    case TFS_INDEX_NONE:
        TFS_FUZZ_ASSERT(e->index == -1, "%s: %s reported with index %lld, its index kind is none", where,
                        tfs_rule_id(e->rule), (long long)e->index);
        break;
    case TFS_INDEX_KV:
    case TFS_INDEX_TENSOR:
    case TFS_INDEX_METADATA:
    case TFS_INDEX_KV_OR_TENSOR:
        TFS_FUZZ_ASSERT(e->index >= 0, "%s: %s reported with index %lld, its index kind is %s", where,
                        tfs_rule_id(e->rule), (long long)e->index, tfs_index_kind_name(kind));
        break;
    case TFS_INDEX_TENSOR_OR_METADATA:
        TFS_FUZZ_ASSERT(e->index >= -1, "%s: %s index %lld", where, tfs_rule_id(e->rule), (long long)e->index);
        break;
    }
    /* a record index names a record of the input: at most one per byte */
    TFS_FUZZ_ASSERT(e->index < 0 || (uint64_t)e->index <= in->n, "%s: %s index %lld on a %zu-byte input", where,
                    tfs_rule_id(e->rule), (long long)e->index, in->n);
    if (!h) return;
    /* partial header: a kept record is found at its index; the failing one
     * is the next (or, after the records, one of them) */
    if (kind == TFS_INDEX_KV)
        TFS_FUZZ_ASSERT((uint64_t)e->index <= h->n_kv, "%s: %s at KV %lld, partial view has %zu KV pairs", where,
                        tfs_rule_id(e->rule), (long long)e->index, h->n_kv);
    if (kind == TFS_INDEX_TENSOR && in->format == TFS_FORMAT_GGUF)
        TFS_FUZZ_ASSERT((uint64_t)e->index <= h->n_tensors, "%s: %s at tensor %lld, partial view has %zu tensors",
                        where, tfs_rule_id(e->rule), (long long)e->index, h->n_tensors);
}

static void check_header(const tfs_fuzz_in *in, const char *where, tfs_fuzz_api api, unsigned flags,
                         const tfs_header *h) {
    const int gguf = in->format == TFS_FORMAT_GGUF;
    const int header_only = gguf && (flags & TFS_HEADER_ONLY);
    TFS_FUZZ_ASSERT(h->format == in->format, "%s: header format %s", where, tfs_format_name(h->format));
    TFS_FUZZ_ASSERT(h->complete == 1, "%s: TFS_OK with complete = %d", where, h->complete);
    TFS_FUZZ_ASSERT(h->fail_fields == NULL && h->n_fail_fields == 0, "%s: TFS_OK with failing fields", where);
    /* a stream read header-only may stop before its end: size 0 (unknown) */
    const int size_known = !(api == TFS_FUZZ_STREAM && header_only) || h->file_size != 0;
    if (size_known)
        TFS_FUZZ_ASSERT(h->file_size == in->n, "%s: file_size %llu, input %zu bytes", where,
                        (unsigned long long)h->file_size, in->n);
    TFS_FUZZ_ASSERT(h->n_tensors == 0 || h->tensors, "%s: %zu tensors, NULL array", where, h->n_tensors);
    TFS_FUZZ_ASSERT(h->n_kv == 0 || h->kv, "%s: %zu KV pairs, NULL array", where, h->n_kv);
    if (gguf) {
        TFS_FUZZ_ASSERT(h->version == 2 || h->version == 3, "%s: version %u accepted", where, h->version);
        TFS_FUZZ_ASSERT(h->alignment && !(h->alignment & (h->alignment - 1)), "%s: alignment %u", where, h->alignment);
        /* ggml pads to the data section only when there are tensors */
        TFS_FUZZ_ASSERT(h->n_tensors == 0 || h->data_offset % h->alignment == 0,
                        "%s: data offset %llu not aligned to %u", where, (unsigned long long)h->data_offset,
                        h->alignment);
        TFS_FUZZ_ASSERT(h->header_size == h->data_offset, "%s: header_size %llu != data_offset %llu", where,
                        (unsigned long long)h->header_size, (unsigned long long)h->data_offset);
        if (size_known)
            TFS_FUZZ_ASSERT(h->data_offset <= in->n, "%s: data section at %llu, input %zu bytes", where,
                            (unsigned long long)h->data_offset, in->n);
    } else {
        TFS_FUZZ_ASSERT(h->version == 0 && h->alignment == 0, "%s: safetensors version/alignment set", where);
        TFS_FUZZ_ASSERT(h->data_offset == 8 + h->header_size, "%s: data_offset %llu, header %llu", where,
                        (unsigned long long)h->data_offset, (unsigned long long)h->header_size);
        TFS_FUZZ_ASSERT(h->data_offset + h->data_size == in->n,
                        "%s: data [%llu, +%llu) does not end at the end of the %zu-byte input", where,
                        (unsigned long long)h->data_offset, (unsigned long long)h->data_size, in->n);
    }
    for (size_t i = 0; i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        TFS_FUZZ_ASSERT(t->n_dims == 0 || t->shape, "%s: tensor %zu: %u dims, NULL shape", where, i, t->n_dims);
        uint64_t prod = 1;
        int zero = 0; /* a 0 dim makes the product 0, whatever the others */
        for (uint32_t d = 0; d < t->n_dims; d++) zero |= t->shape[d] == 0;
        for (uint32_t d = 0; d < t->n_dims && !zero; d++)
            TFS_FUZZ_ASSERT(!__builtin_mul_overflow(prod, t->shape[d], &prod),
                            "%s: tensor %zu: shape product overflows in an accepted file", where, i);
        if (zero) prod = 0;
        TFS_FUZZ_ASSERT(prod == t->n_elements, "%s: tensor %zu: n_elements %llu, shape product %llu", where, i,
                        (unsigned long long)t->n_elements, (unsigned long long)prod);
        uint64_t end;
        if (gguf) {
            TFS_FUZZ_ASSERT(t->n_dims <= 4, "%s: tensor %zu: n_dims %u accepted", where, i, t->n_dims);
            uint64_t nb;
            if (zero) /* tfs_gg_tensor_nbytes refuses a product that overflows before the 0 */
                nb = tfs_gg_type_size(t->type) ? 0 : 1;
            TFS_FUZZ_ASSERT((zero || tfs_gg_tensor_nbytes(t->type, t->n_dims, t->shape, &nb) == 0) && nb == t->n_bytes,
                            "%s: tensor %zu: n_bytes %llu disagrees with type %u and shape", where, i,
                            (unsigned long long)t->n_bytes, t->type);
            TFS_FUZZ_ASSERT(t->offset % h->alignment == 0, "%s: tensor %zu: offset %llu not aligned", where, i,
                            (unsigned long long)t->offset);
        } else {
            TFS_FUZZ_ASSERT(tfs_st_dtype_name(t->type) != NULL, "%s: tensor %zu: dtype %u", where, i, t->type);
        }
        uint64_t fo;
        if (!add_ovf(h->data_offset, t->offset, &fo))
            TFS_FUZZ_ASSERT(t->file_offset == fo, "%s: tensor %zu: file_offset %llu != %llu + %llu", where, i,
                            (unsigned long long)t->file_offset, (unsigned long long)h->data_offset,
                            (unsigned long long)t->offset);
        if (!header_only)
            TFS_FUZZ_ASSERT(!add_ovf(t->file_offset, t->n_bytes, &end) && end <= in->n,
                            "%s: accepted tensor %zu at [%llu, +%llu) outside the %zu-byte input", where, i,
                            (unsigned long long)t->file_offset, (unsigned long long)t->n_bytes, in->n);
    }
    for (size_t i = 0; i < h->n_kv; i++) {
        const tfs_kv *k = &h->kv[i];
        TFS_FUZZ_ASSERT(k->type < TFS_GG_VTYPE_COUNT && k->elem_type < TFS_GG_VTYPE_COUNT,
                        "%s: KV %zu: type %u / %u accepted", where, i, k->type, k->elem_type);
        TFS_FUZZ_ASSERT(k->type == TFS_GG_ARRAY || (k->elem_type == k->type && k->count == 1),
                        "%s: KV %zu: scalar with elem_type %u count %llu", where, i, k->elem_type,
                        (unsigned long long)k->count);
        TFS_FUZZ_ASSERT(k->key.len <= k->key_size, "%s: KV %zu: key.len > key_size", where, i);
        uint64_t end;
        if (size_known)
            TFS_FUZZ_ASSERT(!add_ovf(k->value_offset, k->value_len, &end) && end <= in->n,
                            "%s: KV %zu: value [%llu, +%llu) outside the %zu-byte input", where, i,
                            (unsigned long long)k->value_offset, (unsigned long long)k->value_len, in->n);
    }
}

void tfs_fuzz_check(const tfs_fuzz_in *in, tfs_fuzz_api api, unsigned flags, tfs_status st, const tfs_error *e,
                    const tfs_header *h) {
    char where[96];
    g_input_size = in->n;
    snprintf(where, sizeof where, "%s %s %s", tfs_format_name(in->format), tfs_fuzz_api_name(api),
             tfs_fuzz_flags_name(flags));
    TFS_FUZZ_ASSERT(st == TFS_OK || st == TFS_INVALID, "%s: status %s (%s: %s)", where, tfs_status_name(st),
                    tfs_rule_id(e->rule), e->message ? e->message : "no message");
    if (st == TFS_OK) {
        TFS_FUZZ_ASSERT(e->rule == TFS_RULE_NONE && e->index == -1 && e->sys_errno == 0,
                        "%s: TFS_OK with error record %s index %lld", where, tfs_rule_id(e->rule), (long long)e->index);
        if (h) check_header(in, where, api, flags, h);
        return;
    }
    tfs_fuzz_rule_seen(e->rule);
    tfs_rule_profile prof = tfs_rule_profile_of(e->rule);
    TFS_FUZZ_ASSERT(e->rule != TFS_RULE_NONE && tfs_rule_id(e->rule)[0] != '?', "%s: TFS_INVALID with rule %d", where,
                    (int)e->rule);
    TFS_FUZZ_ASSERT(tfs_rule_format(e->rule) == in->format, "%s: rule %s of another format", where,
                    tfs_rule_id(e->rule));
    TFS_FUZZ_ASSERT(prof != TFS_PROFILE_RETIRED, "%s: retired rule %s reported", where, tfs_rule_id(e->rule));
    TFS_FUZZ_ASSERT(prof != TFS_PROFILE_STRICT || (flags & TFS_STRICT), "%s: strict rule %s without TFS_STRICT", where,
                    tfs_rule_id(e->rule));
    TFS_FUZZ_ASSERT(prof != TFS_PROFILE_DATA || (in->format == TFS_FORMAT_GGUF && !(flags & TFS_HEADER_ONLY)),
                    "%s: data rule %s reported", where, tfs_rule_id(e->rule));
    TFS_FUZZ_ASSERT(e->offset <= in->n, "%s: %s at offset %llu, past the %zu-byte input", where, tfs_rule_id(e->rule),
                    (unsigned long long)e->offset, in->n);
    TFS_FUZZ_ASSERT(e->message && e->message[0], "%s: %s without a message", where, tfs_rule_id(e->rule));
    TFS_FUZZ_ASSERT(e->sys_errno == 0, "%s: %s with errno %d", where, tfs_rule_id(e->rule), e->sys_errno);
    if (flags & TFS_PARTIAL) {
        TFS_FUZZ_ASSERT(h != NULL, "%s: TFS_PARTIAL gave no header", where);
        TFS_FUZZ_ASSERT(h->complete == 0, "%s: partial header marked complete", where);
        TFS_FUZZ_ASSERT(h->format == in->format, "%s: partial header format %s", where, tfs_format_name(h->format));
        TFS_FUZZ_ASSERT(h->n_tensors == 0 || h->tensors, "%s: partial: tensors NULL", where);
        TFS_FUZZ_ASSERT(h->n_kv == 0 || h->kv, "%s: partial: kv NULL", where);
        TFS_FUZZ_ASSERT(h->n_fail_fields == 0 || h->fail_fields, "%s: partial: fail_fields NULL", where);
        for (size_t f = 0; f < h->n_fail_fields; f++) {
            const tfs_field *fl = &h->fail_fields[f];
            uint64_t end;
            TFS_FUZZ_ASSERT(fl->kind < TFS_FIELD_KIND_COUNT, "%s: failing field kind %u", where, fl->kind);
            TFS_FUZZ_ASSERT(!add_ovf(fl->offset, fl->width, &end) && end <= in->n,
                            "%s: failing field %s [%llu, +%llu) outside the %zu-byte input", where,
                            tfs_field_kind_name(fl->kind), (unsigned long long)fl->offset,
                            (unsigned long long)fl->width, in->n);
        }
        check_index(in, where, e, h);
    } else {
        TFS_FUZZ_ASSERT(h == NULL, "%s: TFS_INVALID without TFS_PARTIAL gave a header", where);
        check_index(in, where, e, NULL);
    }
}

tfs_status tfs_fuzz_parse_buffer(const tfs_fuzz_in *in, unsigned flags, tfs_header **out, tfs_error *e) {
    tfs_status st = tfs_parse_buffer(in->p, in->n, in->format, flags, out, e);
    tfs_fuzz_check(in, TFS_FUZZ_BUFFER, flags, st, e, out ? *out : NULL);
    return st;
}

void tfs_fuzz_check_profiles(const tfs_fuzz_in *in, tfs_status strict, tfs_status def, const tfs_error *def_err,
                             tfs_status header_only, const tfs_error *ho_err) {
    TFS_FUZZ_ASSERT(strict != TFS_OK || def == TFS_OK, "strict accepts, default rejects (%s)",
                    tfs_rule_id(def_err->rule));
    TFS_FUZZ_ASSERT(def != TFS_OK || header_only == TFS_OK, "default accepts, header-only rejects (%s)",
                    tfs_rule_id(ho_err->rule));
    if (in->format == TFS_FORMAT_SAFETENSORS) /* TFS_HEADER_ONLY is ignored */
        tfs_fuzz_same_error("safetensors default vs header-only", def, def_err, header_only, ho_err);
}

void tfs_fuzz_same_error(const char *what, tfs_status sa, const tfs_error *a, tfs_status sb, const tfs_error *b) {
    TFS_FUZZ_ASSERT(sa == sb && a->rule == b->rule && a->offset == b->offset && a->index == b->index,
                    "%s: %s %s@%llu #%lld vs %s %s@%llu #%lld", what, tfs_status_name(sa), tfs_rule_id(a->rule),
                    (unsigned long long)a->offset, (long long)a->index, tfs_status_name(sb), tfs_rule_id(b->rule),
                    (unsigned long long)b->offset, (long long)b->index);
}

/* ------------------------------------------------------- view comparison */

static int same_value(const tfs_value *u, const tfs_value *v) {
    return u->type == v->type && u->u64 == v->u64 && u->i64 == v->i64 && !memcmp(&u->f64, &v->f64, sizeof u->f64) &&
           u->offset == v->offset;
}

/* the elements of a KV that are read: the first max_elems and the last */
static int elem_selected(uint64_t k, uint64_t count, uint64_t max_elems) { return k < max_elems || k + 1 == count; }

void tfs_fuzz_same_view(const char *what, const tfs_header *a, const tfs_header *b, int values, uint64_t max_elems) {
#define SAME(field)                                                                                          \
    TFS_FUZZ_ASSERT(a->field == b->field, "%s: " #field " %llu vs %llu", what, (unsigned long long)a->field, \
                    (unsigned long long)b->field)
    SAME(format);
    SAME(version);
    SAME(file_size);
    SAME(header_size);
    SAME(data_offset);
    SAME(data_size);
    SAME(alignment);
    SAME(has_metadata);
    SAME(n_tensors);
    SAME(n_kv);
#undef SAME
    for (size_t i = 0; i < a->n_tensors; i++) {
        const tfs_tensor *x = &a->tensors[i], *y = &b->tensors[i];
        TFS_FUZZ_ASSERT(x->name.len == y->name.len && (!x->name.len || !memcmp(x->name.ptr, y->name.ptr, x->name.len)),
                        "%s: tensor %zu: names differ", what, i);
        TFS_FUZZ_ASSERT(x->type == y->type && x->n_dims == y->n_dims && x->n_elements == y->n_elements &&
                            x->n_bytes == y->n_bytes && x->offset == y->offset && x->file_offset == y->file_offset,
                        "%s: tensor %zu: type/dims/size/offset differ", what, i);
        for (uint32_t d = 0; d < x->n_dims; d++)
            TFS_FUZZ_ASSERT(x->shape[d] == y->shape[d], "%s: tensor %zu: dim %u differs", what, i, d);
    }
    for (size_t i = 0; i < a->n_kv; i++) {
        const tfs_kv *x = &a->kv[i], *y = &b->kv[i];
        size_t kn = x->key.len < y->key.len ? x->key.len : y->key.len; /* a reader keeps TFS_KEY_KEEP bytes */
        TFS_FUZZ_ASSERT(x->key_size == y->key_size && (kn == x->key_size || kn == TFS_KEY_KEEP) &&
                            (!kn || !memcmp(x->key.ptr, y->key.ptr, kn)),
                        "%s: KV %zu: keys differ", what, i);
        TFS_FUZZ_ASSERT(x->type == y->type && x->elem_type == y->elem_type && x->count == y->count &&
                            x->value_offset == y->value_offset && x->value_len == y->value_len,
                        "%s: KV %zu: type/count/position differ", what, i);
        if (!values) continue;
        for (uint64_t k = 0; k < x->count; k++) {
            if (!elem_selected(k, x->count, max_elems)) {
                k = x->count - 2; /* jump to the last */
                continue;
            }
            tfs_value u, v;
            tfs_status su = tfs_kv_get(a, x, k, &u), sv = tfs_kv_get(b, y, k, &v);
            if (values == 2 && su == TFS_OK && sv == TFS_EIO) continue; /* b: a stream's array */
            TFS_FUZZ_ASSERT(su == sv, "%s: KV %zu[%llu]: accessor %s vs %s", what, i, (unsigned long long)k,
                            tfs_status_name(su), tfs_status_name(sv));
            if (su != TFS_OK) continue;
            TFS_FUZZ_ASSERT(same_value(&u, &v), "%s: KV %zu[%llu]: values differ", what, i, (unsigned long long)k);
            if (u.type != TFS_GG_STRING) continue;
            char bu[64], bv[64];
            tfs_str s, t;
            su = tfs_kv_get_string(a, x, k, &s, bu, sizeof bu);
            sv = tfs_kv_get_string(b, y, k, &t, bv, sizeof bv);
            if (values == 2 && su == TFS_OK && sv == TFS_EIO) continue; /* b: a stream's long string */
            TFS_FUZZ_ASSERT(su == sv, "%s: KV %zu[%llu]: string accessor %s vs %s", what, i, (unsigned long long)k,
                            tfs_status_name(su), tfs_status_name(sv));
            if (su != TFS_OK) continue;
            size_t m = s.len < t.len ? s.len : t.len;
            TFS_FUZZ_ASSERT(m == u.u64 || m == sizeof bu, "%s: KV %zu[%llu]: string of %llu bytes read as %zu", what, i,
                            (unsigned long long)k, (unsigned long long)u.u64, m);
            TFS_FUZZ_ASSERT(!m || !memcmp(s.ptr, t.ptr, m), "%s: KV %zu[%llu]: strings differ", what, i,
                            (unsigned long long)k);
        }
    }
}

void tfs_fuzz_same_partial(const char *what, const tfs_header *a, const tfs_header *b) {
    TFS_FUZZ_ASSERT(a && b, "%s: a partial header is missing", what);
    TFS_FUZZ_ASSERT(a->n_kv == b->n_kv && a->n_tensors == b->n_tensors && a->n_fail_fields == b->n_fail_fields,
                    "%s: partial views differ: %zu/%zu KV, %zu/%zu tensors, %zu/%zu failing fields", what, a->n_kv,
                    b->n_kv, a->n_tensors, b->n_tensors, a->n_fail_fields, b->n_fail_fields);
    for (size_t f = 0; f < a->n_fail_fields; f++) {
        const tfs_field *x = &a->fail_fields[f], *y = &b->fail_fields[f];
        TFS_FUZZ_ASSERT(x->kind == y->kind && x->record == y->record && x->sub == y->sub && x->offset == y->offset &&
                            x->width == y->width,
                        "%s: failing field %zu differs: %s@%llu+%llu vs %s@%llu+%llu", what, f,
                        tfs_field_kind_name(x->kind), (unsigned long long)x->offset, (unsigned long long)x->width,
                        tfs_field_kind_name(y->kind), (unsigned long long)y->offset, (unsigned long long)y->width);
    }
}

void tfs_fuzz_read_values(const tfs_header *h, int forward, uint64_t max_elems) {
    for (size_t i = 0; i < h->n_kv; i++) {
        const tfs_kv *k = &h->kv[i];
        for (uint64_t j = 0; j < k->count; j++) {
            if (!elem_selected(j, k->count, max_elems)) {
                j = k->count - 2;
                continue;
            }
            tfs_value v;
            tfs_status st = tfs_kv_get(h, k, j, &v);
            TFS_FUZZ_ASSERT(st == TFS_OK || (forward && st == TFS_EIO), "KV %zu[%llu]: tfs_kv_get: %s", i,
                            (unsigned long long)j, tfs_status_name(st));
            if (st != TFS_OK) continue;
            TFS_FUZZ_ASSERT(v.type == k->elem_type, "KV %zu[%llu]: value type %u, elem_type %u", i,
                            (unsigned long long)j, v.type, k->elem_type);
            if (v.type == TFS_GG_STRING) {
                char buf[32];
                tfs_str s;
                st = tfs_kv_get_string(h, k, j, &s, buf, sizeof buf);
                TFS_FUZZ_ASSERT(st == TFS_OK || (forward && st == TFS_EIO), "KV %zu[%llu]: tfs_kv_get_string: %s", i,
                                (unsigned long long)j, tfs_status_name(st));
                if (st == TFS_OK)
                    TFS_FUZZ_ASSERT(s.len <= v.u64 && (s.len == v.u64 || s.len == sizeof buf),
                                    "KV %zu[%llu]: string of %llu bytes read as %zu", i, (unsigned long long)j,
                                    (unsigned long long)v.u64, s.len);
            }
            /* a wrong-type getter must say TFS_ETYPE, never read */
            if (v.type != TFS_GG_U8) {
                uint8_t u8;
                TFS_FUZZ_ASSERT(tfs_kv_get_u8(h, k, j, &u8) == TFS_ETYPE, "KV %zu[%llu]: u8 getter on type %u", i,
                                (unsigned long long)j, v.type);
            }
        }
        tfs_value v;
        TFS_FUZZ_ASSERT(tfs_kv_get(h, k, k->count, &v) == TFS_ERANGE, "KV %zu: element %llu of %llu not ERANGE", i,
                        (unsigned long long)k->count, (unsigned long long)k->count);
    }
}

/* ----------------------------------------------------------- the reader */

static int fuzz_read(void *ctx, uint64_t off, void *buf, size_t len, size_t *got) {
    tfs_fuzz_reader *r = ctx;
    TFS_FUZZ_ASSERT(len > 0, "reader called with len 0 at offset %llu", (unsigned long long)off);
    TFS_FUZZ_ASSERT(buf && got, "reader called with NULL buffer");
    if (r->forward)
        TFS_FUZZ_ASSERT(off == r->next, "forward-only reader: read at %llu, the stream is at %llu",
                        (unsigned long long)off, (unsigned long long)r->next);
    size_t k = 0;
    if (off < r->n) {
        k = r->n - (size_t)off;
        if (k > len) k = len;
        if (k > r->window) k = r->window;
        memcpy(buf, r->p + off, k);
    }
    r->next = off + k;
    r->calls++;
    /* the window doubles (plus grow): short reads at the start, where the
     * framing is, and few calls over a long input */
    if (r->window <= (SIZE_MAX - r->grow) / 2) r->window = r->window * 2 + r->grow;
    *got = k;
    return 0;
}

tfs_source tfs_fuzz_source(tfs_fuzz_reader *r, tfs_fuzz_api api) {
    r->forward = api != TFS_FUZZ_RANDOM;
    r->next = 0;
    r->calls = 0;
    if (r->window == 0) r->window = 1;
    tfs_source s = {
        .read = fuzz_read, .ctx = r, .size = api == TFS_FUZZ_STREAM ? TFS_SIZE_UNKNOWN : r->n, .forward = r->forward};
    return s;
}

#ifdef TFS_NO_POSIX
#include "tfs/platform.h"
/* TFS_POSIX=OFF: libtfs asks the application for its hash seed.  Verdicts
 * never depend on it; a fixed value keeps runs reproducible. */
uint64_t tfs_platform_hash_seed(void) { return 0x7466732d66757a7aull; }
#endif
