/* sanity.c: is the adapter alive?  Tried before a run on a few fixtures of
 * the selection (docs/conform.md "Adapter sanity"): per format, the two
 * smallest valid fixtures (those with expected content first) and the two
 * invalid fixtures of the lowest rule ids (an empty file, a bad magic: any
 * reader rejects them).  The run stops (exit 2) when the adapter
 *   - rejects every valid fixture tried (it reads another path, or nothing);
 *   - answers every fixture tried the same way (accepts all, rejects all,
 *     crashes or skips on all): its verdicts would mean nothing;
 *   - was said to print content (--content) and printed none for a valid
 *     fixture it accepted.
 * At least two valid fixtures (and three in all) must have been tried for a
 * verdict: a selection of one fixture (a per-fixture ctest) is not judged.
 * A stopping message ends with the first lines of the adapter's stderr on a
 * case it failed (a valid one first): a reader's exception, node's "Cannot
 * find module", a missing library, not hidden behind the verdicts.
 * It warns (returns 1) when the adapter prints its JSON line after other
 * stdout output (not read: docs/conform.md), so that is said before the run.
 * The runs are made on copies of the cases: the run proper starts afresh. */
#include <stdlib.h>
#include <string.h>

#include "conform.h"

enum { PER_KIND = 2, STDERR_LINES = 6, STDERR_WIDTH = 160 };

/* Append to out the first STDERR_LINES non-blank lines of text, each on a
 * line of its own, under "its stderr on ID:"; control bytes as '?'. */
static void append_stderr(char *out, size_t n, const char *id, const char *text) {
    const char *p = text;
    for (int k = 0; k < STDERR_LINES && *p;) {
        size_t ll = strcspn(p, "\r\n"), l = strlen(out);
        size_t blank = strspn(p, " \t");
        if (blank < ll) {
            char line[STDERR_WIDTH + 4];
            size_t j = 0;
            for (; j < ll && j < STDERR_WIDTH; j++) line[j] = (unsigned char)p[j] < 0x20 || p[j] == 0x7f ? '?' : p[j];
            line[j] = '\0';
            if (!k) {
                snprintf(out + l, n - l, "\n  its stderr on %s:", id);
                l = strlen(out);
            }
            snprintf(out + l, n - l, "\n    %s%s", line, ll > STDERR_WIDTH ? "..." : "");
            k++;
        }
        p += ll;
        p += strspn(p, "\r\n");
    }
}

static int cmp_rule(const cf_case *a, const cf_case *b) {
    int r = strcmp(a->line->rule, b->line->rule);
    return r ? r : strcmp(a->line->id, b->line->id);
}

/* pick: valid (kind 0) or parser_error (kind 1) cases of one format */
static size_t pick(const cf_case *cases, size_t n, const char *format, int kind, const cf_case **out) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (strcmp(c->line->format, format) != 0) continue;
        if (strcmp(c->expect, kind ? "parser_error" : "valid") != 0) continue;
        if (kind && strcmp(c->line->rule, "-") == 0) continue;
        /* keep the best PER_KIND: valid: content first, then smaller; invalid: lowest rule */
        size_t at = k;
        for (size_t j = 0; j < k; j++) {
            int better;
            if (kind)
                better = cmp_rule(c, out[j]) < 0;
            else
                better = (c->expected_content && !out[j]->expected_content) ||
                         ((!c->expected_content) == (!out[j]->expected_content) && c->line->size < out[j]->line->size);
            if (better) {
                at = j;
                break;
            }
        }
        if (at >= PER_KIND) continue;
        if (k < PER_KIND) k++;
        memmove(&out[at + 1], &out[at], (k - 1 - at) * sizeof *out);
        out[at] = c;
    }
    return k;
}

int cf_sanity_check(const cf_case *cases, size_t n, char *const *words, const char *cmd, int shell,
                    const cf_spawn_opts *so, int want_content, volatile int *stop, char *err, size_t en) {
    static const char *const formats[] = {"gguf", "safetensors"};
    cf_case trial[8];
    int is_valid[8];
    size_t nt = 0;
    for (int f = 0; f < 2; f++)
        for (int kind = 0; kind < 2; kind++) {
            const cf_case *got[PER_KIND];
            size_t k = pick(cases, n, formats[f], kind, got);
            for (size_t i = 0; i < k; i++) {
                trial[nt] = *got[i];
                trial[nt].done = 0;
                trial[nt].stderr_text = NULL;
                trial[nt].content = CF_CONTENT_NA;
                is_valid[nt++] = !kind;
            }
        }
    if (nt == 0) return 0;
    if (cf_run_adapter(trial, nt, words, cmd, shell, so, stop) != 0) {
        snprintf(err, en, "running the adapter failed");
        return -1;
    }
    size_t n_valid = 0, valid_rejected = 0, same = 1, done = 0;
    const char *first_exit = NULL, *no_content = NULL;
    char late[sizeof trial[0].warning + 64] = "";
    char ids[300] = "", vids[300] = "", iids[300] = "", first_detail[200] = "", tail[1400] = "";
    for (size_t i = 0; i < nt; i++) {
        cf_case *c = &trial[i];
        if (!c->done) continue;
        done++;
        if (!first_exit) {
            first_exit = c->exit_desc;
            snprintf(first_detail, sizeof first_detail, "%.150s", c->detail);
        } else if (strcmp(first_exit, c->exit_desc) != 0)
            same = 0;
        if (c->warning[0] && !late[0]) snprintf(late, sizeof late, "%s: %s", c->line->id, c->warning);
        size_t l = strlen(ids);
        snprintf(ids + l, sizeof ids - l, "%s%s (exit %s)", l ? ", " : "", c->line->id, c->exit_desc);
        if (is_valid[i]) {
            l = strlen(vids);
            snprintf(vids + l, sizeof vids - l, "%s%s (exit %s)", l ? ", " : "", c->line->id, c->exit_desc);
            n_valid++;
            valid_rejected += c->got && strcmp(c->got, "parser_error") == 0;
            if (want_content && c->got && strcmp(c->got, "valid") == 0 && c->expected_content &&
                c->content == CF_CONTENT_NOT_CHECKED && !no_content)
                no_content = c->line->id;
        } else {
            l = strlen(iids);
            snprintf(iids + l, sizeof iids - l, "%s%s (exit %s)", l ? ", " : "", c->line->id, c->exit_desc);
        }
    }
    /* the adapter's own words: the stderr of a valid case first, else any */
    for (int pass = 0; pass < 2 && !tail[0]; pass++)
        for (size_t i = 0; i < nt && !tail[0]; i++)
            if (trial[i].done && trial[i].stderr_text && (pass || is_valid[i]))
                append_stderr(tail, sizeof tail, trial[i].line->id, trial[i].stderr_text);
    for (size_t i = 0; i < nt; i++) free(trial[i].stderr_text);
    if (*stop || done < nt) return 0; /* interrupted: the run proper reports it */
    /* a selection of one or two cases (a per-fixture ctest) says nothing of the adapter */
    if (n_valid >= 2 && valid_rejected == n_valid) {
        snprintf(err, en, "adapter check: it rejects every valid fixture tried: %s%s%s%s%s", vids,
                 iids[0] ? " (invalid ones tried: " : "", iids, iids[0] ? ")" : "",
                 tail[0] ? tail : "\n  (nothing on its stderr)");
        return -1;
    }
    if (same && nt >= 3 && n_valid && n_valid < nt) {
        snprintf(err, en, "adapter check: it answers every fixture tried the same way (exit %s%s%s): %s%s", first_exit,
                 first_detail[0] ? "; " : "", first_detail, ids, tail);
        return -1;
    }
    if (no_content) {
        snprintf(err, en,
                 "adapter check: --content was given, but it printed no content for the valid fixture %s "
                 "(first stdout line: {\"content\": {...}})",
                 no_content);
        return -1;
    }
    if (late[0]) { /* alive, but its JSON line would be missed: said before the run */
        snprintf(err, en, "adapter check: warning: %s", late);
        return 1;
    }
    return 0;
}
