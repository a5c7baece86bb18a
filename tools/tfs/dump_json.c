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
#include <string.h>

#include "cli.h"

/* A float as JSON: the digits of `tfs dump` (put_float_text: they
 * round-trip exactly); NaN and infinities have no JSON number: null (the
 * bits keep them). */
static void put_float(FILE *out, double v, int is_f32) {
    if (isnan(v) || isinf(v))
        fputs("null", out);
    else
        put_float_text(out, v, is_f32);
}

static void put_bits(FILE *out, const tfs_value *v) {
    if (v->type == TFS_GG_F32)
        fprintf(out, "\"0x%08" PRIx32 "\"", (uint32_t)v->u64);
    else
        fprintf(out, "\"0x%016" PRIx64 "\"", v->u64);
}

/* One element (or scalar) value v, as the cursor gave it (s: a string's
 * bytes, cut when shorter than v->u64); returns 0 on success. */
static int put_value(FILE *out, const tfs_header *h, const tfs_kv *kv, uint64_t i, const tfs_value *v,
                     const tfs_str *s) {
    switch (v->type) {
    case TFS_GG_U8:
    case TFS_GG_U16:
    case TFS_GG_U32: fprintf(out, "%" PRIu64, v->u64); break;
    case TFS_GG_I8:
    case TFS_GG_I16:
    case TFS_GG_I32: fprintf(out, "%" PRId64, v->i64); break;
    case TFS_GG_U64: fprintf(out, "\"%" PRIu64 "\"", v->u64); break;
    case TFS_GG_I64: fprintf(out, "\"%" PRId64 "\"", v->i64); break;
    case TFS_GG_F32:
    case TFS_GG_F64: put_float(out, v->f64, v->type == TFS_GG_F32); break;
    case TFS_GG_BOOL: fputs(v->u64 ? "true" : "false", out); break;
    case TFS_GG_STRING: {
        if (s->len == v->u64) {
            json_str(out, s->ptr, s->len);
            break;
        }
        /* longer than the cursor's block: one allocation of its real (parsed) length */
        tfs_str whole;
        char *buf = v->u64 <= SIZE_MAX ? malloc(v->u64 ? (size_t)v->u64 : 1u) : NULL;
        if (!buf) return -1;
        tfs_status st = tfs_kv_get_string(h, kv, i, &whole, buf, (size_t)v->u64);
        if (st == TFS_OK) json_str(out, whole.ptr, whole.len);
        free(buf);
        if (st != TFS_OK) return -1;
        break;
    }
    default: return -1;
    }
    return 0;
}

/* Can element i of kv be read (1) or did a stream not keep it (0)? */
static int kv_available_at(const tfs_header *h, const tfs_kv *kv, uint64_t i) {
    tfs_value v;
    tfs_str str;
    if (tfs_kv_get(h, kv, i, &v) != TFS_OK) return 0;
    return kv->elem_type != TFS_GG_STRING || tfs_kv_get_string(h, kv, i, &str, NULL, 0) == TFS_OK;
}

int kv_available(const tfs_header *h, const tfs_kv *kv) { return kv->count == 0 || kv_available_at(h, kv, 0); }

/* The cursor's block (the CLI is single-threaded). */
static uint8_t g_block[64u * 1024u];

/* A size or offset: a JSON number up to 2^53 - 1, beyond that a decimal
 * string, so that every JSON reader (doubles, int64) keeps it exact. */
static void put_u64_exact(FILE *out, uint64_t v) {
    fprintf(out, v > 9007199254740991u ? "\"%" PRIu64 "\"" : "%" PRIu64, v);
}

/* A JSON string of what `tfs dump` shows for kv (kv_print: strings cut
 * after DUMP_STR_SHORT bytes, arrays as "[T x N]" and their first
 * DUMP_ELEMS_SHORT elements).  Returns 0, or -1 when out of memory. */
static int put_text(FILE *out, const tfs_header *h, const tfs_kv *kv) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return -1;
    kv_print(m, h, kv, DUMP_STR_SHORT, DUMP_ELEMS_SHORT);
    if (fclose(m) != 0) {
        free(buf);
        return -1;
    }
    json_str(out, buf, len);
    free(buf);
    return 0;
}

/* One KV, its elements read in blocks (tfs_kv_cursor).  Elements a stream
 * did not keep (TFS_EIO: arrays keep their first TFS_ARRAY_KEEP bytes,
 * strings their first 256) are left out: an array shows the elements before
 * them, a scalar null, and "left_out" says how many (with --json of `tfs
 * dump`: dump_extra; the expected-content form stays as it was);
 * *left_out += that count.  view (the inspector's form): "text", what
 * `tfs dump` shows, is added; an array has "count", "offset" and "bytes"
 * (where its value lies in the file) and "text" instead of its elements.  Returns 0, or -1 when a value could not be read. */
static int put_kv_json(FILE *out, const tfs_header *h, const tfs_kv *kv, int dump_extra, int view, uint64_t *left_out) {
    int rc = 0;
    if (kv->key_size > kv->key.len) {
        /* a key longer than TFS_KEY_KEEP read from a file or stream: the
         * view has its first bytes only, so no "key" (what it is cannot be
         * said), its length and those bytes */
        fputs("{\"key_size\":", out);
        put_u64_exact(out, kv->key_size);
        fputs(",\"key_prefix\":", out);
    } else {
        fputs("{\"key\":", out);
    }
    json_str(out, kv->key.ptr, kv->key.len);
    fputs(",\"type\":", out);
    json_cstr(out, tfs_gg_vtype_name(kv->type));
    int is_float = kv->elem_type == TFS_GG_F32 || kv->elem_type == TFS_GG_F64;
    int arr = kv->type == TFS_GG_ARRAY;
    if (arr) {
        fputs(",\"elem_type\":", out);
        json_cstr(out, tfs_gg_vtype_name(kv->elem_type));
    }
    if (view && arr) {
        fprintf(out, ",\"count\":%" PRIu64 ",\"offset\":", kv->count);
        put_u64_exact(out, kv->value_offset);
        fputs(",\"bytes\":", out);
        put_u64_exact(out, kv->value_len);
        fputs(",\"text\":", out);
        rc = put_text(out, h, kv);
        fputc('}', out);
        return rc;
    }
    tfs_kv_cursor cur;
    if (tfs_kv_cursor_init(&cur, h, kv, g_block, sizeof g_block) != TFS_OK) return -1;
    /* a float array keeps its bits for "bits" (count <= the file's bytes / 4:
     * the parser checked it) */
    uint64_t *bits = is_float && arr && kv->count ? malloc((size_t)kv->count * sizeof *bits) : NULL;
    if (is_float && arr && kv->count && !bits) return -1;
    uint64_t shown = 0, one_bits = 0;
    fputs(arr ? ",\"value\":[" : ",\"value\":", out);
    while (shown < kv->count && rc == 0) {
        tfs_value v;
        tfs_str s = {"", 0};
        tfs_status st = tfs_kv_next(&cur, &v, &s);
        if (st == TFS_EIO) break; /* not kept by a stream (or a file that cannot be read again: the caller's call) */
        if (st != TFS_OK) {
            rc = -1;
            break;
        }
        if (arr && shown) fputc(',', out);
        rc = put_value(out, h, kv, shown, &v, &s);
        if (bits) bits[shown] = v.u64;
        one_bits = v.u64;
        shown++;
    }
    if (arr)
        fputc(']', out);
    else if (shown == 0 && rc == 0)
        fputs("null", out);
    if (is_float && rc == 0 && (shown || arr)) {
        fputs(",\"bits\":", out);
        if (arr) fputc('[', out);
        for (uint64_t i = 0; i < shown; i++) {
            if (i) fputc(',', out);
            tfs_value b = {.type = kv->elem_type, .u64 = arr ? bits[i] : one_bits};
            put_bits(out, &b);
        }
        if (arr) fputc(']', out);
    }
    free(bits);
    if (rc == 0 && shown < kv->count) {
        if (dump_extra) fprintf(out, ",\"count\":%" PRIu64 ",\"left_out\":%" PRIu64, kv->count, kv->count - shown);
        *left_out += kv->count - shown;
    }
    if (view && rc == 0) {
        fputs(",\"text\":", out);
        rc = put_text(out, h, kv);
    }
    fputc('}', out);
    return rc;
}


/* Elements a stream left out, over every KV (tfs_kv_cursor: TFS_EIO). */
static uint64_t count_left_out(const tfs_header *h) {
    uint64_t n = 0;
    for (size_t i = 0; h && i < h->n_kv; i++) {
        const tfs_kv *kv = &h->kv[i];
        tfs_kv_cursor cur;
        tfs_value v;
        tfs_str s;
        /* the last element readable: all are (a file; a stream's whole array) */
        if (kv->count == 0 || kv_available_at(h, kv, kv->count - 1)) continue;
        if (tfs_kv_cursor_init(&cur, h, kv, g_block, sizeof g_block) != TFS_OK) continue;
        while (cur.i < kv->count && tfs_kv_next(&cur, &v, &s) == TFS_OK) {}
        n += kv->count - cur.i;
    }
    return n;
}

/* The fields `tfs dump --json` adds to the expected-content form: what its
 * text form shows (the file name, the header and data section, file size)
 * and how many values a stream left out. */
static void dump_fields(FILE *out, const char *file, const tfs_header *h, uint64_t missing) {
    fputs(",\"file\":", out);
    json_str(out, file, strlen(file));
    int whole = h && h->complete;
    fputs(",\"header_size\":", out);
    if (h && (h->header_size || whole))
        put_u64_exact(out, h->header_size);
    else
        fputs("null", out);
    fputs(",\"data_offset\":", out);
    if (whole)
        put_u64_exact(out, h->data_offset);
    else
        fputs("null", out);
    fputs(",\"data_size\":", out);
    if (whole)
        put_u64_exact(out, data_extent(h));
    else
        fputs("null", out);
    fputs(",\"file_size\":", out);
    if (h && h->file_size)
        put_u64_exact(out, h->file_size);
    else
        fputs("null", out);
    fprintf(out, ",\"left_out\":%" PRIu64, missing);
}

/* The JSON of a parse.  file: NULL for the expected-content form (the
 * conformance suite's; conform, the web inspector, `tfs dump --json
 * --content-only`), else the name `tfs dump --json` adds with the fields of
 * its text form (dump_extra).  hint: NULL, or what an invalid file looks like
 * ("looks_like" in the error object; parse_one). */
static int content_json(FILE *out, const char *file, const tfs_header *h, tfs_status st, const tfs_error *e,
                        const char *not_model, const char *hint, int view, uint64_t *left_out) {
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
    /* the expected-content form's data section start, for a file with
     * tensors (with none, ggml does not pad to the alignment where other
     * readers do, and no byte is read there); the dump's own fields carry it
     * with the file's other offsets (dump_fields) */
    int whole = h && h->complete;
    if (!file && whole && h->n_tensors > 0) {
        fputs(",\"data_offset\":", out);
        put_u64_exact(out, h->data_offset);
    }
    /* with the dump fields, "complete" also says whether every value is shown
     * (a stream keeps the first TFS_ARRAY_KEEP bytes of each array) */
    uint64_t missing = file ? count_left_out(h) : 0;
    fprintf(out, ",\"complete\":%s,\"error\":", st == TFS_OK && missing == 0 ? "true" : "false");
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
    if (file) dump_fields(out, file, h, missing);
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
        fputc(']', out);
        if (file) {
            fputs(",\"n_elements\":", out);
            put_u64_exact(out, t->n_elements);
            fputs(",\"n_bytes\":", out);
            put_u64_exact(out, t->n_bytes);
        }
        if (file || whole) { /* a partial view has no data section start */
            fputs(",\"file_offset\":", out);
            if (t->file_offset == UINT64_MAX) /* past 2^64: saturated (GG304 judges it) */
                fputs("null", out);
            else
                put_u64_exact(out, t->file_offset);
        }
        fputc('}', out);
    }
    fputs("],\"kv\":[", out);
    for (size_t i = 0; h && i < h->n_kv; i++) {
        if (i) fputc(',', out);
        if (put_kv_json(out, h, &h->kv[i], file != NULL, view, left_out) != 0) rc = -1;
    }
    fputs("]}\n", out);
    return rc;
}

int print_content_json(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                       uint64_t *left_out) {
    return content_json(out, NULL, h, st, e, not_model, NULL, 0, left_out);
}

int print_content_json_hint(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                            const char *hint, uint64_t *left_out) {
    return content_json(out, NULL, h, st, e, not_model, hint, 0, left_out);
}

int print_dump_json(FILE *out, const char *file, const tfs_header *h, tfs_status st, const tfs_error *e,
                    const char *not_model, const char *hint, uint64_t *left_out) {
    return content_json(out, file, h, st, e, not_model, hint, 0, left_out);
}

int print_view_json(FILE *out, const tfs_header *h, tfs_status st, const tfs_error *e, const char *not_model,
                    const char *hint) {
    uint64_t left_out = 0;
    return content_json(out, NULL, h, st, e, not_model, hint, 1, &left_out);
}

int print_elems_json(FILE *out, const tfs_header *h, size_t k, uint64_t start, uint64_t n) {
    if (!h || k >= h->n_kv) return -1;
    const tfs_kv *kv = &h->kv[k];
    tfs_kv_cursor cur;
    if (tfs_kv_cursor_init(&cur, h, kv, g_block, sizeof g_block) != TFS_OK) return -1;
    fprintf(out, "{\"kv\":%zu,\"start\":%" PRIu64 ",\"count\":%" PRIu64 ",\"items\":[", k, start, kv->count);
    int rc = 0;
    for (uint64_t i = 0; i < kv->count && (i < start || i - start < n) && rc == 0; i++) {
        tfs_value v;
        tfs_str s = {"", 0};
        if (tfs_kv_next(&cur, &v, &s) != TFS_OK) {
            rc = -1;
            break;
        }
        if (i < start) continue;
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m) {
            rc = -1;
            break;
        }
        kv_put_elem(m, h, kv, i, &v, &s, DUMP_STR_SHORT);
        if (fclose(m) == 0) {
            if (i > start) fputc(',', out);
            json_str(out, buf, len);
        } else {
            rc = -1;
        }
        free(buf);
    }
    fputs("]}\n", out);
    return rc;
}
