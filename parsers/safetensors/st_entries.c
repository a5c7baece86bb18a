/* st_entries.c: the shape of the safetensors header, as the crate's serde
 * derives see it (tensor.rs HashMetadata, TensorInfo, Dtype):
 *   { "__metadata__": {string: string} | null,   (at most once)
 *     "<name>": {"dtype": D, "shape": [usize...], "data_offsets": [usize, usize], other: any...}
 *             | [D, [usize...], [usize, usize]] , ... }
 *   D = "<exact dtype name>" | {"<exact dtype name>": null}
 * Duplicate tensor names and duplicate __metadata__ keys: the last value wins
 * (HashMap), the name keeps its first position.  One pass, no per-token
 * allocation: the record arrays are sized once from the header's size (on
 * huge pages when large) and grow by doubling only past 1 Mi records.
 *
 * Which violation is reported when there are several follows the crate's
 * order, not the document's: serde_json scans the whole object first (every
 * JSON error, ST11x, and __metadata__, ST40x, which is HashMetadata's own
 * field and so deserialized at once), collecting each tensor entry as serde
 * Content (#[serde(flatten)]); only when the closing brace is reached is each
 * entry deserialized as a TensorInfo, in document order.  So the first entry
 * violation (ST2xx) is held (entry_err) and reported at the closing brace,
 * before trailing characters (ST112). */
#include "st_internal.h"

#include <stdlib.h>

enum { F_DTYPE = 1, F_SHAPE = 2, F_OFFSETS = 4 };

static tfs_status nomem(st_ctx *c) { return tfs__fail_status(c->err, TFS_ENOMEM, 0); }


/* A tensor-entry violation (ST2xx) at pos: held in c->pend_* (the first one
 * only) instead of reported, and the entry parse stops.  tensor() then scans
 * the rest of the entry with the plain grammar, as serde_json does when it
 * collects the entry (serde's Content) before any TensorInfo check. */
/* Rule-coverage builds (TFS_RULE_OFF): a rule switched off is not held; the
 * entry keeps the fields read before it (the others zero) and the rest of it
 * is scanned as plain JSON. */
static tfs_status entry_err(st_ctx *c, tfs_rule rule, size_t pos) {
    if (TFS_RULE_HIT(rule, c->pend_rule == TFS_RULE_NONE)) {
        c->pend_rule = rule;
        c->pend_pos = (uint32_t)pos;
        c->pend_index = c->cur_index;
    }
    c->deferred = true;
    return TFS_INVALID;
}

/* Inside a tensor entry, a value of the wrong JSON type: `rule` (held) if the
 * byte starts some JSON value, else a syntax error. */
static tfs_status wrong_type(st_ctx *c, tfs_rule rule) {
    if (c->pos < c->n && st_value_start(c->j[c->pos])) return entry_err(c, rule, c->pos);
    return tfs__st_unexpected(c);
}

/* Outside the entries (top level, __metadata__), a value of the wrong JSON
 * type, reported at once as serde_json's peek_invalid_type does it: a scalar
 * is scanned first (so a bad number, escape or literal in it is the error),
 * a container is not entered. */
static tfs_status scan_wrong_type(st_ctx *c, tfs_rule rule) {
    size_t start = c->pos;
    if (start >= c->n || !st_value_start(c->j[start])) return tfs__st_unexpected(c);
    uint8_t b = c->j[start];
    if (b != '{' && b != '[') {
        tfs_status st = tfs__st_skip_value(c, 1); /* a scalar: no nesting */
        if (st != TFS_OK) return st;
    }
    return tfs__st_err(c, rule, start);
}

static tfs_status expect(st_ctx *c, uint8_t b) {
    st_ws(c);
    if (!st_is(c, b)) return tfs__st_unexpected(c);
    c->pos++;
    st_ws(c);
    return TFS_OK;
}

/* Reference to the decoded string token j[start, end); escaped strings are
 * decoded into the arena, which is sized once to the rest of the header
 * (decoding never grows a string), so it never moves. */
static tfs_status make_sref(st_ctx *c, size_t start, size_t end, bool esc, bool hash, st_sref *s) {
    if (!esc) {
        s->off = (uint32_t)(start + 1);
        s->len = (uint32_t)(end - start - 2);
        s->in_arena = 0;
    } else {
        if (!c->arena) {
            c->arena_cap = c->n - start;
            c->arena = malloc(c->arena_cap);
            if (!c->arena) return nomem(c);
        }
        size_t len = tfs__st_decode(c->j, start, end, c->arena + c->arena_len);
        s->off = (uint32_t)c->arena_len;
        s->len = (uint32_t)len;
        s->in_arena = 1;
        c->arena_len += len;
    }
    s->hash = hash ? (uint32_t)tfs__hash_bytes(c->hash_seed, st_sref_ptr(c, s), s->len) : 0;
    return TFS_OK;
}

/* Decoded bytes of a short token (field names, dtype names) into buf[128];
 * NULL when it cannot be one of them (longer than 128 raw bytes, so more
 * than 21 decoded bytes). */
static const uint8_t *short_str(const st_ctx *c, size_t start, size_t end, bool esc, uint8_t *buf, size_t *len) {
    if (!esc) {
        *len = end - start - 2;
        return c->j + start + 1;
    }
    if (end - start - 2 > 128) return NULL;
    *len = tfs__st_decode(c->j, start, end, buf);
    return buf;
}

static bool eq(const uint8_t *p, size_t n, const char *lit, size_t m) { return p && n == m && memcmp(p, lit, m) == 0; }

/* ------------------------------------------------------------- dtype */

static tfs_status dtype_name(st_ctx *c, size_t start, st_ent *e) {
    bool esc;
    tfs_status st = st_string(c, &esc);
    if (st != TFS_OK) return st;
    uint8_t buf[128];
    size_t len = 0;
    const uint8_t *p = short_str(c, start, c->pos, esc, buf, &len);
    uint32_t d;
    if (!p || tfs_st_dtype_from_name((const char *)p, len, &d) != 0) return entry_err(c, TFS_ST210, start);
    e->dtype = (uint8_t)d;
    return TFS_OK;
}

/* Map form {"U8": null}, at c->pos = '{' (a unit variant; the map is at
 * `depth`).  serde's ContentRefDeserializer::deserialize_enum checks that the
 * map has exactly one key before it looks at the variant name, and the unit
 * value after it: "more than one key" (ST211) beats an unknown name (ST210),
 * which beats a value other than null (ST211). */
static tfs_status dtype_map(st_ctx *c, st_ent *e, unsigned depth) {
    tfs__st_strict(c, TFS_ST506, c->pos, c->cur_index);
    size_t open = c->pos++;
    st_ws(c);
    if (st_at_end(c)) return tfs__st_unexpected(c);
    if (c->j[c->pos] == '}') return entry_err(c, TFS_ST211, open);
    if (c->j[c->pos] != '"') return tfs__st_unexpected(c);
    size_t npos = c->pos;
    bool esc;
    tfs_status st = st_string(c, &esc);
    if (st != TFS_OK) return st;
    uint8_t buf[128];
    size_t len = 0;
    const uint8_t *p = short_str(c, npos, c->pos, esc, buf, &len);
    uint32_t d = 0;
    bool known = p && tfs_st_dtype_from_name((const char *)p, len, &d) == 0;
    if ((st = expect(c, ':')) != TFS_OK) return st;
    size_t vpos = c->pos;
    bool is_null = vpos < c->n && c->j[vpos] == 'n'; /* after a clean skip: the literal null */
    if ((st = tfs__st_skip_value(c, depth)) != TFS_OK) return st;
    st_ws(c);
    if (st_is(c, ',')) return entry_err(c, TFS_ST211, c->pos); /* 2+ keys */
    if (!st_is(c, '}')) return tfs__st_unexpected(c);
    c->pos++;
    if (!known) return entry_err(c, TFS_ST210, npos);
    if (!is_null) return entry_err(c, TFS_ST211, vpos);
    e->dtype = (uint8_t)d;
    return TFS_OK;
}

/* dtype as a name or in map form; the entry (object or array) is at depth 2,
 * so a map-form dtype is at depth 3, below the nesting limit. */
static tfs_status parse_dtype(st_ctx *c, st_ent *e) {
    if (st_is(c, '"')) return dtype_name(c, c->pos, e);
    if (!st_is(c, '{')) return wrong_type(c, TFS_ST211);
    return dtype_map(c, e, 3);
}

/* ------------------------------------------------------------- shape, data_offsets */

/* First capacity of a record array for a bound of n records: at most 1 Mi
 * records at once (32-bit address space), doubling beyond. */
static size_t st_first_cap(size_t n) { return n < ((size_t)1 << 20) ? n : ((size_t)1 << 20); }

/* Append dimension v to the entry's shape (the shape pool is sized once from
 * the header: a dimension takes at least 2 bytes, "1,"), and fold it into
 * the element count as Metadata::validate does: checked, stopping at the
 * first overflow.  False on ENOMEM. */
static inline bool push_dim(st_ctx *c, st_ent *e, uint64_t v) {
    if (c->n_shapes == c->cap_shapes) {
        uint64_t *shapes_ = c->cap_shapes
                                ? tfs__reserve(c->shapes, &c->cap_shapes, c->n_shapes, sizeof *c->shapes)
                                : tfs__reserve_first(&c->cap_shapes, st_first_cap(c->n / 2u), sizeof *c->shapes);
        if (!shapes_) return false;
        c->shapes = shapes_;
    }
    c->shapes[c->n_shapes++] = v;
    e->n_dims++;
    if (!e->shape_ovf && tfs_mul_overflow_u64(e->n_elements, v, &e->n_elements)) e->shape_ovf = 1;
    return true;
}

static tfs_status parse_shape(st_ctx *c, st_ent *e) {
    e->shape_pos = (uint32_t)c->pos;
    e->shape_idx = (uint32_t)c->n_shapes;
    e->n_dims = 0;
    e->n_elements = 1;
    e->shape_ovf = 0;
    if (!st_is(c, '[')) return wrong_type(c, TFS_ST220);
    c->pos++;
    st_ws(c);
    if (st_take(c, ']')) { return TFS_OK; }
    for (;;) {
        if (st_at_end(c)) return tfs__st_unexpected(c);
        uint8_t b = c->j[c->pos];
        if (b != '-' && !(b >= '0' && b <= '9')) return wrong_type(c, TFS_ST220);
        size_t npos = c->pos;
        uint64_t v;
        bool u;
        tfs_status st = st_number(c, &v, &u);
        if (st != TFS_OK) return st;
        if (!u) return entry_err(c, TFS_ST222, npos);
        if (!push_dim(c, e, v)) return nomem(c);
        st_ws(c);
        if (st_take(c, ',')) {
            st_ws(c);
            continue;
        }
        if (st_take(c, ']')) { return TFS_OK; }
        return tfs__st_unexpected(c);
    }
}

static tfs_status parse_offsets(st_ctx *c, st_ent *e) {
    e->offs_pos = (uint32_t)c->pos;
    if (!st_is(c, '[')) return wrong_type(c, TFS_ST221);
    c->pos++;
    st_ws(c);
    uint64_t v[2];
    for (int k = 0; k < 2; k++) {
        if (st_at_end(c)) return tfs__st_unexpected(c);
        uint8_t b = c->j[c->pos];
        if (b == ']') return entry_err(c, TFS_ST221, c->pos); /* fewer than two */
        if (b != '-' && !(b >= '0' && b <= '9')) return wrong_type(c, TFS_ST221);
        size_t npos = c->pos;
        bool u;
        tfs_status st = st_number(c, &v[k], &u);
        if (st != TFS_OK) return st;
        if (!u) return entry_err(c, TFS_ST222, npos);
        st_ws(c);
        if (k == 0) {
            if (st_is(c, ']')) return entry_err(c, TFS_ST221, c->pos);
            if (!st_is(c, ',')) return tfs__st_unexpected(c);
            c->pos++;
            st_ws(c);
        }
    }
    if (st_is(c, ',')) return entry_err(c, TFS_ST221, c->pos); /* more than two */
    if (!st_is(c, ']')) return tfs__st_unexpected(c);
    c->pos++;
    e->start = v[0];
    e->end = v[1];
    return TFS_OK;
}

/* ------------------------------------------------------------- entries */

static int field_of(const st_ctx *c, size_t start, size_t end, bool esc) {
    uint8_t buf[128];
    size_t len = 0;
    const uint8_t *p = short_str(c, start, end, esc, buf, &len);
    if (eq(p, len, "dtype", 5)) return F_DTYPE;
    if (eq(p, len, "shape", 5)) return F_SHAPE;
    if (eq(p, len, "data_offsets", 12)) return F_OFFSETS;
    return 0;
}

/* ---- the canonical layout, fast ----
 * Nearly every writer (the crate, the Python and Rust bindings, candle, MLX)
 * emits entries as exactly {"dtype":"D","shape":[n,...],"data_offsets":[a,b]}
 * with no whitespace.  fast_entry matches that byte pattern in one pass; it
 * accepts only well-formed entries with a known dtype and plain integers, so
 * the generic parser below would record exactly the same fields and no
 * violation (strict ones included).  On any difference it undoes what it
 * did and the generic parser takes the entry from its start. */
/* Build switch: cmake -DTFS_ST_FAST_ENTRY=OFF defines TFS_ST_NO_FAST_ENTRY and
 * every entry takes the generic parser (ctest test_st_fast_entry compares the
 * two on the corpus and on generated headers). */
#ifndef TFS_ST_NO_FAST_ENTRY
/* Inline, so that each call's constant n lets the compiler expand memcmp. */
static inline __attribute__((always_inline)) bool lit(st_ctx *c, const char *s, size_t n) {
    if (c->n - c->pos < n || memcmp(c->j + c->pos, s, n) != 0) return false;
    c->pos += n;
    return true;
}

/* A plain integer < 2^64 at c->pos ("0", or 1-19 digits without a leading
 * zero), followed by a byte that ends it ("," or "]" here). */
static bool fast_uint(st_ctx *c, uint64_t *v) {
    if (st_is(c, '0')) {
        c->pos++;
        *v = 0;
    } else if (!st_number_fast(c, v)) { /* reports nothing: the generic parser will */
        return false;
    }
    return st_is(c, ',') || st_is(c, ']');
}

static bool fast_entry(st_ctx *c, st_ent *e) {
    size_t n_shapes = c->n_shapes;
    if (!lit(c, "{\"dtype\":\"", 10)) goto undo;
    size_t d0 = c->pos;
    while (c->pos < c->n && c->pos - d0 < 16 && c->j[c->pos] != '"' && c->j[c->pos] != '\\') c->pos++;
    if (!st_is(c, '"')) goto undo;
    size_t dn = c->pos - d0; /* < 16 */
    if (dn && dn == c->last_dtype_len && memcmp(c->j + d0, c->last_dtype, dn) == 0) {
        e->dtype = c->last_dtype_id; /* as the previous entry: most files run one dtype */
    } else {
        uint32_t d;
        if (tfs_st_dtype_from_name((const char *)c->j + d0, dn, &d) != 0) goto undo;
        e->dtype = (uint8_t)d;
        memcpy(c->last_dtype, c->j + d0, dn);
        c->last_dtype_len = dn;
        c->last_dtype_id = (uint8_t)d;
    }
    c->pos++;
    if (!lit(c, ",\"shape\":", 9)) goto undo;
    e->shape_pos = (uint32_t)c->pos;
    e->shape_idx = (uint32_t)c->n_shapes;
    e->n_dims = 0;
    e->n_elements = 1;
    e->shape_ovf = 0;
    if (!st_take(c, '[')) goto undo;
    if (!st_take(c, ']')) {
        for (;;) {
            uint64_t v;
            if (!fast_uint(c, &v)) goto undo;
            if (!push_dim(c, e, v)) goto undo; /* the generic parser reports ENOMEM */
            if (st_take(c, ']')) break;
            c->pos++; /* ',' (fast_uint checked it) */
        }
    }
    if (!lit(c, ",\"data_offsets\":", 16)) goto undo;
    e->offs_pos = (uint32_t)c->pos;
    /* into locals: an entry the generic parser takes over keeps no offset it
     * would not have stored (the TFS_PARTIAL view; test_st_fast_entry) */
    uint64_t start, end;
    if (!st_take(c, '[') || !fast_uint(c, &start) || !st_take(c, ',') || !fast_uint(c, &end) || !st_take(c, ']') ||
        !st_take(c, '}'))
        goto undo;
    e->start = start;
    e->end = end;
    return true;
undo:
    c->pos = e->val_pos;
    c->n_shapes = n_shapes;
    return false;
}
#endif /* TFS_ST_NO_FAST_ENTRY */

static tfs_status object_entry(st_ctx *c, st_ent *e) {
#ifndef TFS_ST_NO_FAST_ENTRY
    if (fast_entry(c, e)) return TFS_OK;
#endif
    c->pos++;
    st_ws(c);
    unsigned have = 0;
    tfs_status st;
    if (st_take(c, '}')) { return entry_err(c, TFS_ST202, e->val_pos); }
    for (;;) {
        if (!st_is(c, '"')) return tfs__st_unexpected(c);
        size_t kpos = c->pos;
        bool esc;
        if ((st = st_string(c, &esc)) != TFS_OK) return st;
        int f = field_of(c, kpos, c->pos, esc);
        if ((st = expect(c, ':')) != TFS_OK) return st;
        if (f && (have & (unsigned)f)) return entry_err(c, TFS_ST203, kpos);
        switch (f) {
        case F_DTYPE: st = parse_dtype(c, e); break;
        case F_SHAPE: st = parse_shape(c, e); break;
        case F_OFFSETS: st = parse_offsets(c, e); break;
        default:
            tfs__st_strict(c, TFS_ST504, kpos, c->cur_index);
            st = tfs__st_skip_value(c, 2);
            break;
        }
        if (st != TFS_OK) return st;
        have |= (unsigned)f;
        st_ws(c);
        if (st_take(c, ',')) {
            st_ws(c);
            continue;
        }
        if (st_take(c, '}')) { break; }
        return tfs__st_unexpected(c);
    }
    if (have != (F_DTYPE | F_SHAPE | F_OFFSETS)) return entry_err(c, TFS_ST202, e->val_pos);
    return TFS_OK;
}

static tfs_status array_entry(st_ctx *c, st_ent *e) {
    tfs__st_strict(c, TFS_ST505, c->pos, c->cur_index);
    c->pos++;
    st_ws(c);
    tfs_status st;
    for (int k = 0; k < 3; k++) {
        if (st_is(c, ']')) return entry_err(c, TFS_ST204, c->pos); /* too few */
        if (k == 0)
            st = parse_dtype(c, e);
        else if (k == 1)
            st = parse_shape(c, e);
        else
            st = parse_offsets(c, e);
        if (st != TFS_OK) return st;
        st_ws(c);
        if (k < 2) {
            if (st_is(c, ']')) return entry_err(c, TFS_ST204, c->pos);
            if (!st_is(c, ',')) return tfs__st_unexpected(c);
            c->pos++;
            st_ws(c);
        }
    }
    if (st_is(c, ',')) return entry_err(c, TFS_ST204, c->pos); /* too many */
    if (!st_is(c, ']')) return tfs__st_unexpected(c);
    c->pos++;
    return TFS_OK;
}

/* One tensor entry.  It is parsed into a new record at the end; only then is
 * the name looked up (its hash slot was prefetched when the key was read, so
 * the lookup rarely waits for memory).  A repeated name overwrites the first
 * record's contents and keeps its position.  Errors inside an entry report
 * the index the entry would get. */
static tfs_status tensor(st_ctx *c, size_t kpos, size_t kend, bool esc) {
    /* sized once from the header: an entry takes at least 48 bytes
     * ("":{"dtype":"U8","shape":[],"data_offsets":[0,0]}) */
    st_ent *ents_ = c->cap_ents ? tfs__reserve(c->ents, &c->cap_ents, c->n_ents, sizeof *c->ents)
                                : tfs__reserve_first(&c->cap_ents, st_first_cap(c->n / 48u), sizeof *c->ents);
    if (!ents_) return nomem(c);
    c->ents = ents_;
    /* real headers spend ~100 bytes per tensor; the table grows if needed */
    if (!tfs__set_reserve(&c->tnames, c->n / 96)) return nomem(c);
    st_ent *e = &c->ents[c->n_ents];
    memset(e, 0, sizeof *e);
    tfs_status st = make_sref(c, kpos, kend, esc, true, &e->name);
    if (st != TFS_OK) return st;
    tfs_set_prefetch(&c->tnames, e->name.hash);
    c->cur_index = (int64_t)c->n_ents;
    e->val_pos = (uint32_t)c->pos;
    if (st_is(c, '{'))
        st = object_entry(c, e);
    else if (st_is(c, '['))
        st = array_entry(c, e);
    else
        st = wrong_type(c, TFS_ST201);
    if (st != TFS_OK) {
        if (!c->deferred) return st;
        /* A held entry violation: the rest of the entry is still scanned
         * (grammar, numbers, escapes, depth), from its start, as serde_json
         * scans it into serde's Content.  The record stays, so later entries
         * get the indices they would have had. */
        c->deferred = false;
        c->pos = e->val_pos;
        if ((st = tfs__st_skip_value(c, 1)) != TFS_OK) return st;
    }
    int64_t dup = tfs__st_names_find_or_add(c, &c->tnames, false, &e->name, (uint32_t)c->n_ents);
    /* planted S1: a duplicate name let through in the strict profile */
    TFS_BUG_CANARY(S1, true, dup >= 0 && (c->flags & TFS_STRICT) != 0);
    if (dup >= 0) { /* the crate's HashMap: the last entry wins */
        tfs__st_strict(c, TFS_ST501, kpos, dup);
        st_ent *first = &c->ents[dup];
        e->name = first->name;
        *first = *e;
    } else {
        c->n_ents++;
    }
    c->cur_index = -1;
    return TFS_OK;
}

/* ------------------------------------------------------------- __metadata__ */

/* The value of __metadata__ (c->pos after the colon), deserialized at once
 * by the crate (HashMetadata's own field), while the entries are held. */
static tfs_status metadata(st_ctx *c) {
    c->seen_metadata = true;
    tfs_status st;
    if (st_is(c, 'n')) return tfs__st_literal(c, "null", 4);
    if (!st_is(c, '{')) return scan_wrong_type(c, TFS_ST401);
    c->has_metadata = true;
    c->pos++;
    st_ws(c);
    if (st_take(c, '}')) { return TFS_OK; }
    for (;;) {
        if (!st_is(c, '"')) return tfs__st_unexpected(c);
        st_kv *kvs_ = tfs__reserve(c->kvs, &c->cap_kvs, c->n_kvs, sizeof *c->kvs);
        if (!kvs_) return nomem(c);
        c->kvs = kvs_;
        if (!tfs__set_reserve(&c->knames, 0)) return nomem(c);
        st_kv *kv = &c->kvs[c->n_kvs];
        size_t k0 = c->pos;
        bool esc;
        if ((st = st_string(c, &esc)) != TFS_OK) return st;
        if ((st = make_sref(c, k0, c->pos, esc, true, &kv->key)) != TFS_OK) return st;
        kv->key_pos = (uint32_t)k0;
        int64_t dup = tfs__st_names_find_or_add(c, &c->knames, true, &kv->key, (uint32_t)c->n_kvs);
        c->cur_index = dup >= 0 ? dup : (int64_t)c->n_kvs;
        if ((st = expect(c, ':')) != TFS_OK) return st;
        if (!st_is(c, '"')) return scan_wrong_type(c, TFS_ST402);
        size_t v0 = c->pos;
        if ((st = st_string(c, &esc)) != TFS_OK) return st;
        st_kv *dst = kv;
        if (dup >= 0) {
            tfs__st_strict(c, TFS_ST503, k0, dup);
            dst = &c->kvs[dup];
        }
        if ((st = make_sref(c, v0, c->pos, esc, false, &dst->val)) != TFS_OK) return st;
        dst->val_pos = (uint32_t)v0;
        dst->val_end = (uint32_t)c->pos;
        if (dup < 0) c->n_kvs++;
        c->cur_index = -1;
        st_ws(c);
        if (st_take(c, ',')) {
            st_ws(c);
            continue;
        }
        if (st_take(c, '}')) { return TFS_OK; }
        return tfs__st_unexpected(c);
    }
}

/* ------------------------------------------------------------- document */

static tfs_status parse_document(st_ctx *c) {
    tfs_status st;
    c->cur_index = -1;
    st_ws(c);
    if (st_at_end(c)) return tfs__st_err(c, TFS_ST111, c->n); /* also N = 0 */
    if (c->j[c->pos] != '{') return scan_wrong_type(c, TFS_ST118);
    if (c->pos != 0) tfs__st_strict(c, TFS_ST502, 0, -1);
    c->pos++;
    st_ws(c);
    if (st_is(c, '}')) {
        c->pos++;
    } else {
        for (;;) {
            if (!st_is(c, '"')) return tfs__st_unexpected(c);
            size_t kpos = c->pos;
            bool esc;
            if ((st = st_string(c, &esc)) != TFS_OK) return st;
            size_t kend = c->pos;
            /* "__metadata__" is 14 raw bytes unescaped; check cheaply first */
            bool meta = false;
            if (esc || kend - kpos == 14) {
                uint8_t buf[128];
                size_t len = 0;
                const uint8_t *p = short_str(c, kpos, kend, esc, buf, &len);
                meta = eq(p, len, "__metadata__", 12);
            }
            /* serde's derive rejects a second __metadata__ as soon as the key
             * is read, before serde_json parses the colon */
            if (TFS_RULE_HIT(TFS_ST403, meta && c->seen_metadata)) return tfs__st_err(c, TFS_ST403, kpos);
            if ((st = expect(c, ':')) != TFS_OK) return st;
            st = meta ? metadata(c) : tensor(c, kpos, kend, esc);
            if (st != TFS_OK) return st;
            st_ws(c);
            if (st_take(c, ',')) {
                st_ws(c);
                continue;
            }
            if (st_take(c, '}')) { break; }
            return tfs__st_unexpected(c);
        }
    }
    /* the object is closed: now the crate deserializes the held entries */
    if (c->pend_rule != TFS_RULE_NONE)
        return tfs__fail(c->err, c->pend_rule, 8u + (uint64_t)c->pend_pos, c->pend_index);
    /* after the object: JSON whitespace only (strict: spaces only) */
    for (; c->pos < c->n; c->pos++) {
        uint8_t b = c->j[c->pos];
        if (b == ' ') continue;
        if (b == '\n' || b == '\r' || b == '\t') {
            tfs__st_strict(c, TFS_ST507, c->pos, -1);
            continue;
        }
        return tfs__st_err(c, TFS_ST112, c->pos);
    }
    return TFS_OK;
}

tfs_status tfs__st_parse_json(st_ctx *c) {
    tfs_status st = parse_document(c);
#ifdef TFS_RULE_OFF
    /* a rule switched off stopped the scan (tfs__st_err): the header ends
     * there, as if the object were closed (a held entry violation is due) */
    if (st == ST_STOP) {
        c->cur_index = -1;
        st = c->pend_rule != TFS_RULE_NONE ? tfs__fail(c->err, c->pend_rule, 8u + (uint64_t)c->pend_pos, c->pend_index)
                                           : TFS_OK;
    }
#endif
    return st;
}

/* A decoded name being looked up, compared byte by byte (the crate's
 * HashMap<String, _>). */
typedef struct name_cand {
    const st_ctx *c;
    bool kvs;
    const st_sref *s;
} name_cand;

static bool name_eq(const void *ctx, uint64_t idx) {
    const name_cand *n = ctx;
    const st_sref *o = n->kvs ? &n->c->kvs[idx].key : &n->c->ents[idx].name;
    return o->len == n->s->len && memcmp(st_sref_ptr(n->c, o), st_sref_ptr(n->c, n->s), n->s->len) == 0;
}

int64_t tfs__st_names_find_or_add(st_ctx *c, tfs_set *set, bool kvs, const st_sref *s, uint32_t index) {
    name_cand n = {c, kvs, s};
    return tfs__set_find_or_add(set, s->hash, index, name_eq, &n);
}
