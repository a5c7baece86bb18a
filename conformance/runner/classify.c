/* classify.c: what a reader said -> the case's result (design.md). */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "conform.h"
#include "tfs/rules.h"
#include "tfs/tfs.h"

static const char *const names[CF_RESULT_COUNT] = {
    "pass",    "false_accept", "false_reject",           "wrong_rule", "misread", "crash",
    "timeout", "skip",         "implementation_defined", "xfail"};

const char *cf_result_name(cf_result r) { return (unsigned)r < CF_RESULT_COUNT ? names[r] : "?"; }

int cf_result_from_name(const char *s) {
    for (int i = 0; i < CF_RESULT_COUNT; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

int cf_result_is_failure(cf_result r) { return r >= CF_FALSE_ACCEPT && r <= CF_TIMEOUT; }

static void copy(char *dst, size_t n, const char *src) {
    size_t i = 0;
    for (; src && src[i] && i + 1 < n; i++) dst[i] = src[i];
    dst[i] = '\0';
}

void cf_classify(cf_case *c, const cf_outcome *o) {
    c->got = NULL;
    c->detail[0] = '\0';
    copy(c->got_rule, sizeof c->got_rule, o->rule);
    copy(c->got_category, sizeof c->got_category, o->category);
    const cf_line *l = c->line;
    switch (o->kind) {
    case CF_GOT_CRASH:
        c->result = CF_CRASH;
        copy(c->detail, sizeof c->detail, o->why);
        return;
    case CF_GOT_TIMEOUT:
        c->result = CF_TIMEOUT;
        copy(c->detail, sizeof c->detail, o->why);
        return;
    case CF_GOT_SKIP:
        c->result = CF_SKIP;
        copy(c->detail, sizeof c->detail, "the reader does not support this case (exit 77)");
        return;
    case CF_GOT_ACCEPT: c->got = "valid"; break;
    case CF_GOT_REJECT: c->got = "parser_error"; break;
    }
    if (strcmp(c->expect, "implementation_defined") == 0) {
        c->result = CF_IMPL;
        return;
    }
    if (strcmp(c->expect, "valid") == 0) {
        if (o->kind == CF_GOT_REJECT) {
            c->result = CF_FALSE_REJECT;
            snprintf(c->detail, sizeof c->detail, "rejected%s%s%s%s a valid file", o->rule ? " with " : "",
                     o->rule ? o->rule : "", o->category ? " " : "", o->category ? o->category : "");
        } else if (o->misread) {
            c->result = CF_MISREAD;
            copy(c->detail, sizeof c->detail, o->why);
        } else {
            c->result = CF_PASS;
        }
        return;
    }
    /* parser_error */
    if (o->kind == CF_GOT_ACCEPT) {
        c->result = CF_FALSE_ACCEPT;
        snprintf(c->detail, sizeof c->detail, "accepted; want %s (%s)", l->rule, l->category);
        return;
    }
    /* the rule in the profile that requires it: an implementation_defined
     * line in strict names the rule of the strict profile */
    if (o->rule && *o->rule && strcmp(l->rule, "-") != 0 && !cf_in_alternatives(o->rule, l->rule)) {
        c->result = CF_WRONG_RULE;
        snprintf(c->detail, sizeof c->detail, "rule %s, want %s", o->rule, l->rule);
        return;
    }
    if (o->category && *o->category && strcmp(l->category, "-") != 0 && !cf_in_alternatives(o->category, l->category)) {
        c->result = CF_WRONG_RULE;
        snprintf(c->detail, sizeof c->detail, "category %s, want %s", o->category, l->category);
        return;
    }
    /* the byte offset, when both the manifest line and the reader give one
     * (docs/conform.md "Offsets"): the right rule at the wrong byte */
    if (l->has_offset && o->has_offset && o->offset != l->offset) {
        c->result = CF_WRONG_RULE;
        snprintf(c->detail, sizeof c->detail, "%s%sat offset %" PRIu64 ", want offset %" PRIu64, o->rule ? o->rule : "",
                 o->rule ? " " : "", o->offset, l->offset);
        return;
    }
    /* the record index, when both the manifest line and the reader give one:
     * the right rule about the wrong KV pair, tensor or __metadata__ entry */
    if (l->has_index && o->has_index && o->index != l->index) {
        c->result = CF_WRONG_RULE;
        snprintf(c->detail, sizeof c->detail, "%s%sindex %" PRId64 ", want index %" PRId64, o->rule ? o->rule : "",
                 o->rule ? " " : "", o->index, l->index);
        return;
    }
    /* the record index, when the reader gives one: a rule of the file as a
     * whole (rules.def INDEX NONE) names no record (-1), a rule of a KV pair,
     * tensor or __metadata__ entry names one (>= 0) */
    if (o->has_index && o->rule) {
        tfs_index_kind k = tfs_rule_index_kind(tfs_rule_from_id(o->rule));
        int want_none = k == TFS_INDEX_NONE, may_none = want_none || k == TFS_INDEX_TENSOR_OR_METADATA;
        if (want_none ? o->index != -1 : o->index < (may_none ? -1 : 0)) {
            c->result = CF_WRONG_RULE;
            snprintf(c->detail, sizeof c->detail, "%s index %" PRId64 ", want %s", o->rule, o->index,
                     want_none  ? "-1 (the file as a whole)"
                     : may_none ? ">= -1"
                                : "a record (>= 0)");
            return;
        }
    }
    c->result = CF_PASS;
}

void cf_detail_note(cf_case *c, const char *fmt, ...) {
    char note[sizeof c->detail];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, sizeof note, fmt, ap);
    va_end(ap);
    size_t len = strlen(c->detail), room;
    if (len && len + 2 < sizeof c->detail) {
        memcpy(c->detail + len, "; ", 2);
        len += 2;
    }
    room = sizeof c->detail - 1 - len; /* what fits, cut there */
    size_t nl = strlen(note);
    if (nl > room) nl = room;
    memcpy(c->detail + len, note, nl);
    c->detail[len + nl] = '\0';
}
