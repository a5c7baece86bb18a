/* rules.c: lookup tables generated from include/tfs/rules.def. */
#include "internal.h"
#include "tfs/rules.h"

typedef struct rule_row {
    tfs_rule rule;
    const char *id;
    uint8_t format;  /* tfs_format */
    uint8_t profile; /* tfs_rule_profile */
    uint8_t index;   /* tfs_index_kind */
    const char *category;
    const char *message;
    const char *ref;
} rule_row;

#define CANON TFS_PROFILE_CANON
#define DATA TFS_PROFILE_DATA
#define STRICT TFS_PROFILE_STRICT
#define RETIRED TFS_PROFILE_RETIRED
#define ST TFS_FORMAT_SAFETENSORS
#define GG TFS_FORMAT_GGUF
#define NONE TFS_INDEX_NONE
#define KV TFS_INDEX_KV
#define TENSOR TFS_INDEX_TENSOR
#define META TFS_INDEX_METADATA
#define KV_TENSOR TFS_INDEX_KV_OR_TENSOR
#define TENSOR_META TFS_INDEX_TENSOR_OR_METADATA
static const rule_row k_rules[] = {
#define TFS_RULE(id, code, fmt, profile, index, category, message, ref) \
    {TFS_##id, #id, fmt, profile, index, category, message, ref},
#include "tfs/rules.def"
#undef TFS_RULE
};
#undef CANON
#undef DATA
#undef STRICT
#undef RETIRED
#undef ST
#undef GG
#undef NONE
#undef KV
#undef TENSOR
#undef META
#undef KV_TENSOR
#undef TENSOR_META

#define N_RULES (sizeof k_rules / sizeof k_rules[0])

static const rule_row *find(tfs_rule r) {
    /* The table is sorted by code (checked by tests/test_rules.c): binary search. */
    size_t lo = 0, hi = N_RULES;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k_rules[mid].rule == r) return &k_rules[mid];
        if ((int)k_rules[mid].rule < (int)r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *tfs_rule_id(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? x->id : (r == TFS_RULE_NONE ? "" : "?");
}
const char *tfs_rule_category(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? x->category : "";
}
const char *tfs_rule_message(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? x->message : "";
}
const char *tfs_rule_ref(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? x->ref : "";
}
tfs_rule_profile tfs_rule_profile_of(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? (tfs_rule_profile)x->profile : TFS_PROFILE_RETIRED;
}
tfs_format tfs_rule_format(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? (tfs_format)x->format : TFS_FORMAT_UNKNOWN;
}
tfs_index_kind tfs_rule_index_kind(tfs_rule r) {
    const rule_row *x = find(r);
    return x ? (tfs_index_kind)x->index : TFS_INDEX_NONE;
}

const char *tfs_index_kind_name(tfs_index_kind k) {
    switch (k) {
    case TFS_INDEX_NONE: return "none";
    case TFS_INDEX_KV: return "kv";
    case TFS_INDEX_TENSOR: return "tensor";
    case TFS_INDEX_METADATA: return "metadata";
    case TFS_INDEX_KV_OR_TENSOR: return "kv-or-tensor";
    case TFS_INDEX_TENSOR_OR_METADATA: return "tensor-or-metadata";
    }
    return "?";
}
size_t tfs_rule_count(void) { return N_RULES; }
tfs_rule tfs_rule_at(size_t i) { return i < N_RULES ? k_rules[i].rule : TFS_RULE_NONE; }

tfs_rule tfs_rule_from_id(const char *id) {
    if (!id) return TFS_RULE_NONE;
    for (size_t i = 0; i < N_RULES; i++)
        if (strcmp(k_rules[i].id, id) == 0) return k_rules[i].rule;
    return TFS_RULE_NONE;
}

const char *tfs_status_name(tfs_status st) {
    switch (st) {
    case TFS_OK: return "ok";
    case TFS_INVALID: return "invalid";
    case TFS_EIO: return "io_error";
    case TFS_ENOMEM: return "out_of_memory";
    case TFS_EARG: return "bad_argument";
    case TFS_ETYPE: return "type_mismatch";
    case TFS_ERANGE: return "out_of_range";
    }
    return "?";
}

const char *tfs_format_name(tfs_format f) {
    switch (f) {
    case TFS_FORMAT_SAFETENSORS: return "safetensors";
    case TFS_FORMAT_GGUF: return "gguf";
    case TFS_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

tfs_status tfs__fail(tfs_error *err, tfs_rule rule, uint64_t offset, int64_t index) {
    if (err) {
        err->rule = rule;
        err->offset = offset;
        err->index = index;
        err->message = tfs_rule_message(rule);
        err->sys_errno = 0;
    }
    return TFS_INVALID;
}

tfs_status tfs__fail_status(tfs_error *err, tfs_status st, int sys_errno) {
    if (err) {
        err->rule = TFS_RULE_NONE;
        err->offset = 0;
        err->index = -1;
        err->message = st == TFS_EIO ? "I/O error" : st == TFS_ENOMEM ? "out of memory" : "bad argument";
        err->sys_errno = sys_errno;
    }
    return st;
}

tfs_status tfs__fail_src(tfs_error *err, const tfs_src *s) {
    return s->nomem ? tfs__fail_status(err, TFS_ENOMEM, 0) : tfs__fail_status(err, TFS_EIO, s->io_errno);
}
