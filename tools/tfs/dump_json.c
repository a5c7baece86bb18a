/* dump_json.c: the expected-content JSON of a parse: what `tfs dump --json`
 * prints (dump.c), `tfs conform` compares (conform_cmd.c) and the browser
 * inspector returns (web/).  The form of ../shared/design.md (the one the
 * conformance suite ships for valid fixtures):
 *   {"format", "version", "alignment", "complete", "error",
 *    "tensors": [{"name", "type", "shape", "offsets": [begin, end]}],
 *    "kv": [{"key", "type", "value"}]}
 * GGUF values are tagged by their value type; u64/i64 as decimal strings
 * (exact in every JSON reader); f32/f64 as a readable number (null for NaN
 * and infinities) plus "bits", the exact bit pattern in hex; arrays as
 * {"type":"array","elem_type":T,"value":[...]} (float arrays add "bits":
 * [...]); shape dims and offsets above 2^53 - 1 (beyond what a double
 * holds exactly) as decimal strings too.  On an invalid file: what was read before the violation
 * (TFS_PARTIAL), "complete": false and the error. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* A float as JSON: %.9g (f32) or %.17g (f64) round-trip exactly; NaN and
 * infinities have no JSON number: null (the bits keep them). */
static void put_float(FILE *out, double v, int is_f32) {
    if (isnan(v) || isinf(v))
        fputs("null", out);
    else
        fprintf(out, is_f32 ? "%.9g" : "%.17g", v);
}

static void put_bits(FILE *out, const tfs_value *v) {
    if (v->type == TFS_GG_F32)
        fprintf(out, "\"0x%08" PRIx32 "\"", (uint32_t)v->u64);
    else
        fprintf(out, "\"0x%016" PRIx64 "\"", v->u64);
}

/* One element (or scalar) value, read once: *vp receives it (for the float
 * bits); returns 0 on success. */
static int put_value(FILE *out, const tfs_header *h, const tfs_kv *kv, uint64_t i, tfs_value *vp) {
    tfs_value v;
    if (tfs_kv_get(h, kv, i, &v) != TFS_OK) return -1;
    *vp = v;
    switch (v.type) {
    case TFS_GG_U8:
    case TFS_GG_U16:
    case TFS_GG_U32: fprintf(out, "%" PRIu64, v.u64); break;
    case TFS_GG_I8:
    case TFS_GG_I16:
    case TFS_GG_I32: fprintf(out, "%" PRId64, v.i64); break;
    case TFS_GG_U64: fprintf(out, "\"%" PRIu64 "\"", v.u64); break;
    case TFS_GG_I64: fprintf(out, "\"%" PRId64 "\"", v.i64); break;
    case TFS_GG_F32:
    case TFS_GG_F64: put_float(out, v.f64, v.type == TFS_GG_F32); break;
    case TFS_GG_BOOL: fputs(v.u64 ? "true" : "false", out); break;
    case TFS_GG_STRING: {
        tfs_str s;
        char small[4096];
        char *buf = small;
        size_t cap = sizeof small;
        if (v.u64 > cap) { /* a long string: one allocation of its real (parsed) length */
            buf = malloc((size_t)v.u64);
            if (!buf) return -1;
            cap = (size_t)v.u64;
        }
        tfs_status st = tfs_kv_get_string(h, kv, i, &s, buf, cap);
        if (st == TFS_OK) json_str(out, s.ptr, s.len);
        if (buf != small) free(buf);
        if (st != TFS_OK) return -1;
        break;
    }
    default: return -1;
    }
    return 0;
}

int kv_available(const tfs_header *h, const tfs_kv *kv) {
    tfs_value v;
    tfs_str str;
    if (kv->count == 0) return 1;
    if (tfs_kv_get(h, kv, 0, &v) != TFS_OK) return 0;
    return kv->elem_type != TFS_GG_STRING || tfs_kv_get_string(h, kv, 0, &str, NULL, 0) == TFS_OK;
}

/* One KV; a value that cannot be read again (from a stream) is null and
 * counted in *unavailable. */
static int put_kv_json(FILE *out, const tfs_header *h, const tfs_kv *kv, size_t *unavailable) {
    int rc = 0;
    fputs("{\"key\":", out);
    json_str(out, kv->key.ptr, kv->key.len);
    fputs(",\"type\":", out);
    json_cstr(out, tfs_gg_vtype_name(kv->type));
    if (!kv_available(h, kv)) {
        if (kv->type == TFS_GG_ARRAY) {
            fputs(",\"elem_type\":", out);
            json_cstr(out, tfs_gg_vtype_name(kv->elem_type));
        }
        fputs(",\"value\":null}", out);
        ++*unavailable;
        return 0;
    }
    int is_float = kv->elem_type == TFS_GG_F32 || kv->elem_type == TFS_GG_F64;
    if (kv->type == TFS_GG_ARRAY) {
        fputs(",\"elem_type\":", out);
        json_cstr(out, tfs_gg_vtype_name(kv->elem_type));
        /* each element read once; a float array keeps the values for its
         * "bits" (count <= the file's bytes / 4: the parser checked it) */
        tfs_value *fv = is_float && kv->count ? malloc((size_t)kv->count * sizeof *fv) : NULL;
        if (is_float && kv->count && !fv) return -1;
        fputs(",\"value\":[", out);
        for (uint64_t i = 0; i < kv->count && rc == 0; i++) {
            tfs_value v;
            if (i) fputc(',', out);
            rc = put_value(out, h, kv, i, &v);
            if (fv) fv[i] = v;
        }
        fputc(']', out);
        if (is_float && rc == 0) {
            fputs(",\"bits\":[", out);
            for (uint64_t i = 0; i < kv->count; i++) {
                if (i) fputc(',', out);
                put_bits(out, &fv[i]);
            }
            fputc(']', out);
        }
        free(fv);
    } else {
        tfs_value v;
        fputs(",\"value\":", out);
        rc = put_value(out, h, kv, 0, &v);
        if (is_float && rc == 0) {
            fputs(",\"bits\":", out);
            put_bits(out, &v);
        }
    }
    fputc('}', out);
    return rc;
}

/* A size or offset: a JSON number up to 2^53 - 1, beyond that a decimal
 * string, so that every JSON reader (doubles, int64) keeps it exact. */
static void put_u64_exact(FILE *out, uint64_t v) {
    fprintf(out, v > 9007199254740991u ? "\"%" PRIu64 "\"" : "%" PRIu64, v);
}

int print_content_json(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                       size_t *unavailable) {
    return print_content_json_hint(out, h, st, e, not_model, NULL, unavailable);
}

/* hint: NULL, or what an invalid file looks like ("looks_like" in the error
 * object; parse_one) */
int print_content_json_hint(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                            const char *hint, size_t *unavailable) {
    int rc = 0;
    fputs("{\"format\":", out);
    json_cstr(out, tfs_format_name(h ? h->format : TFS_FORMAT_UNKNOWN));
    int gguf = h && h->format == TFS_FORMAT_GGUF;
    fputs(",\"version\":", out);
    if (gguf && h->version)
        fprintf(out, "%" PRIu32, h->version);
    else
        fputs("null", out);
    fputs(",\"alignment\":", out);
    if (gguf && h->complete)
        fprintf(out, "%" PRIu32, h->alignment);
    else
        fputs("null", out);
    fprintf(out, ",\"complete\":%s,\"error\":", st == TFS_OK ? "true" : "false");
    if (not_model) {
        fputs("{\"status\":\"not_a_model\",\"message\":", out);
        json_cstr(out, "neither GGUF nor safetensors, and no .gguf / .safetensors name: not parsed");
        fputs(",\"looks_like\":", out);
        json_cstr(out, not_model);
        fputc('}', out);
    } else if (st == TFS_INVALID) {
        fputs("{\"rule\":", out);
        json_cstr(out, tfs_rule_id(e->rule));
        fputs(",\"category\":", out);
        json_cstr(out, tfs_rule_category(e->rule));
        fprintf(out, ",\"offset\":%" PRIu64 ",\"index\":", e->offset);
        if (e->index >= 0)
            fprintf(out, "%" PRId64, e->index);
        else
            fputs("null", out);
        fputs(",\"message\":", out);
        json_cstr(out, tfs_rule_message(e->rule));
        fputs(",\"fields\":[", out);
        for (size_t i = 0; h && i < h->n_fail_fields; i++) {
            const tfs_field *f = &h->fail_fields[i];
            fprintf(out, "%s{\"kind\":", i ? "," : "");
            json_cstr(out, tfs_field_kind_name(f->kind));
            fprintf(out, ",\"record\":%" PRId32 ",\"sub\":%" PRIu32 ",\"offset\":%" PRIu64 ",\"width\":%" PRIu64 "}",
                    f->record, f->sub, f->offset, f->width);
        }
        fputs("]", out);
        if (hint) {
            fputs(",\"looks_like\":", out);
            json_cstr(out, hint);
        }
        fputc('}', out);
    } else if (st != TFS_OK) {
        fputs("{\"status\":", out);
        json_cstr(out, tfs_status_name(st));
        fputs(",\"message\":", out);
        json_cstr(out, st == TFS_EIO ? io_error_text(e->sys_errno) : tfs_status_name(st));
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fputs(",\"tensors\":[", out);
    for (size_t i = 0; h && i < h->n_tensors; i++) {
        const tfs_tensor *t = &h->tensors[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        json_str(out, t->name.ptr, t->name.len);
        fputs(",\"type\":", out);
        json_cstr(out, hist_type_name(h->format, t->type));
        fputs(",\"shape\":[", out);
        for (uint32_t d = 0; d < t->n_dims; d++) {
            if (d) fputc(',', out);
            put_u64_exact(out, t->shape[d]);
        }
        uint64_t end = t->offset + t->n_bytes < t->offset ? UINT64_MAX : t->offset + t->n_bytes;
        fputs("],\"offsets\":[", out);
        put_u64_exact(out, t->offset);
        fputc(',', out);
        put_u64_exact(out, end);
        fputs("]}", out);
    }
    fputs("],\"kv\":[", out);
    for (size_t i = 0; h && i < h->n_kv; i++) {
        if (i) fputc(',', out);
        if (put_kv_json(out, h, &h->kv[i], unavailable) != 0) rc = -1;
    }
    fputs("]}\n", out);
    return rc;
}
