/* report.c: the human summary (a table per rule family, then the failures)
 * and the string writers shared by the report files. */
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "tfs/tfs.h"

/* Write s with `esc` deciding each ASCII byte; a valid UTF-8 sequence
 * (tfs_utf8_decode, the library's one validator) is copied, any other byte
 * written as `bad`. */
static void put_text(FILE *out, const char *s, void (*esc)(FILE *, unsigned char), const char *bad) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            esc(out, p[i++]);
            continue;
        }
        size_t len = tfs_utf8_decode(p + i, n - i, NULL);
        if (len)
            fwrite(p + i, 1, len, out);
        else
            fputs(bad, out);
        i += len ? len : 1;
    }
}

static void json_esc(FILE *out, unsigned char c) {
    if (c == '"' || c == '\\')
        fprintf(out, "\\%c", c);
    else if (c == '\n')
        fputs("\\n", out);
    else if (c == '\t')
        fputs("\\t", out);
    else if (c < 0x20 || c == 0x7f)
        fprintf(out, "\\u%04x", c);
    else
        fputc(c, out);
}

/* XML 1.0 text: & < > " escaped; C0 controls XML cannot carry (all but tab,
 * LF, CR) become '?' */
static void xml_esc(FILE *out, unsigned char c) {
    switch (c) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    default: fputc(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : c, out);
    }
}

void cf_json_str(FILE *out, const char *s) {
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    put_text(out, s, json_esc, "\\ufffd");
    fputc('"', out);
}

void cf_xml_str(FILE *out, const char *s) {
    if (s) put_text(out, s, xml_esc, "?");
}

typedef struct fam_row {
    char name[32];
    size_t cases, pass, fail, xfail, skip, impl;
} fam_row;

static int cmp_row(const void *a, const void *b) {
    return strcmp(((const fam_row *)a)->name, ((const fam_row *)b)->name);
}

void cf_report_human(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri, int quiet) {
    fam_row *rows = calloc(n ? n : 1, sizeof *rows), total = {"total", 0, 0, 0, 0, 0, 0};
    size_t nr = 0, done = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (!c->done) continue;
        done++;
        char fam[32];
        cf_line_family(c->line, fam, sizeof fam);
        fam_row *r = NULL;
        for (size_t k = 0; rows && k < nr && !r; k++)
            if (strcmp(rows[k].name, fam) == 0) r = &rows[k];
        if (!r && rows) {
            r = &rows[nr++];
            snprintf(r->name, sizeof r->name, "%s", fam);
        }
        fam_row *both[2] = {r, &total};
        for (int k = 0; k < 2; k++) {
            fam_row *x = both[k];
            if (!x) continue;
            x->cases++;
            if (c->result == CF_PASS)
                x->pass++;
            else if (cf_result_is_failure(c->result))
                x->fail++;
            else if (c->result == CF_XFAIL)
                x->xfail++;
            else if (c->result == CF_SKIP)
                x->skip++;
            else if (c->result == CF_IMPL)
                x->impl++;
        }
    }
    if (rows) qsort(rows, nr, sizeof *rows, cmp_row);
    fprintf(out, "tfs conform: %zu case%s, %s%s%s, %.2f s\n", done, done == 1 ? "" : "s",
            ri->adapter ? "adapter " : "in process", ri->adapter ? ri->adapter : "", "", ri->seconds);
    if (!quiet) {
        fprintf(out, "%-20s %6s %6s %6s %6s %6s %6s\n", "family", "cases", "pass", "fail", "xfail", "skip", "impl");
        for (size_t k = 0; k <= nr; k++) {
            const fam_row *x = k < nr ? &rows[k] : &total;
            fprintf(out, "%-20s %6zu %6zu %6zu %6zu %6zu %6zu\n", x->name, x->cases, x->pass, x->fail, x->xfail,
                    x->skip, x->impl);
        }
    }
    free(rows);
    size_t fails = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (!c->done || !cf_result_is_failure(c->result)) continue;
        if (!fails++) fputs("failures:\n", out);
        fprintf(out, "  %s [%s] %s: %s (exit %s)\n", c->line->id, cf_profile_name(c->profile),
                cf_result_name(c->result), c->detail[0] ? c->detail : "-", c->exit_desc);
        if (c->line->description && *c->line->description && strcmp(c->line->description, "-") != 0)
            fprintf(out, "      (%s)\n", c->line->description);
    }
    for (size_t i = 0; i < ri->n_problems; i++) fprintf(out, "  expected-failures: %s\n", ri->problems[i]);
    /* protocol warnings (a JSON line after non-JSON stdout output): a case
     * that passes is listed too, the content it hid was never compared */
    size_t warned = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (!c->done || !c->warning[0]) continue;
        if (!warned++) fputs("warnings (the protocol's JSON line is stdout's first line, docs/conform.md):\n", out);
        if (warned <= 10)
            fprintf(out, "  %s [%s] %s: %s\n", c->line->id, cf_profile_name(c->profile), cf_result_name(c->result),
                    c->warning);
    }
    if (warned > 10) fprintf(out, "  ... and %zu more (the JSON report: \"warning\")\n", warned - 10);
    /* what was compared, counted after the run (said up front: what could be) */
    size_t want = 0, full = 0, partial = 0, none = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (!c->done || !c->expected_content || strcmp(c->expect, "valid") != 0) continue;
        want++;
        full += c->content == CF_CONTENT_FULL;
        partial += c->content == CF_CONTENT_PARTIAL;
        none += c->content == CF_CONTENT_NOT_CHECKED;
    }
    if (want && (!quiet || warned))
        fprintf(out,
                "content compared on %zu of the %zu valid cases with expected content (%zu full, %zu partial; %zu "
                "accepted without content%s, %zu not accepted)\n",
                full + partial, want, full, partial, none, warned ? " or with it on a later stdout line" : "",
                want - full - partial - none);
    if (warned) fprintf(out, "%zu case%s with a protocol warning\n", warned, warned == 1 ? "" : "s");
    fprintf(out, "%zu passed, %zu failed, %zu expected failures, %zu skipped, %zu implementation-defined", total.pass,
            total.fail, total.xfail, total.skip, total.impl);
    if (ri->interrupted) fprintf(out, "; interrupted: %zu not run", ri->not_run);
    fputc('\n', out);
}
