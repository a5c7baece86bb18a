/* report_json.c: the JSON report (design.md "Conformance report").
 * schema 1.  Top level: schema, suite_version, tfs_version, adapter (null in
 * process), started (UTC, ISO 8601), seconds, interrupted, not_run,
 * summary (count per result, every result named), problems (the
 * expected-failures file's), cases (one object per case, in manifest
 * order; "warning": a protocol warning, or null). */
#include <string.h>

#include "conform.h"

int cf_report_json(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri) {
    size_t count[CF_RESULT_COUNT] = {0};
    for (size_t i = 0; i < n; i++)
        if (cases[i].done) count[cases[i].result]++;
    fputs("{\"schema\":1,\"suite_version\":", out);
    cf_json_str(out, ri->suite_version);
    fputs(",\"tfs_version\":", out);
    cf_json_str(out, ri->tfs_version);
    fputs(",\"adapter\":", out);
    cf_json_str(out, ri->adapter);
    fputs(",\"started\":", out);
    cf_json_str(out, ri->started);
    fprintf(out, ",\"seconds\":%.3f,\"interrupted\":%s,\"not_run\":%zu,\"summary\":{", ri->seconds,
            ri->interrupted ? "true" : "false", ri->not_run);
    for (int r = 0; r < CF_RESULT_COUNT; r++)
        fprintf(out, "%s\"%s\":%zu", r ? "," : "", cf_result_name((cf_result)r), count[r]);
    fputs("},\"problems\":[", out);
    for (size_t i = 0; i < ri->n_problems; i++) {
        if (i) fputc(',', out);
        cf_json_str(out, ri->problems[i]);
    }
    fputs("],\"cases\":[", out);
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (!c->done) continue;
        const cf_line *l = c->line;
        fputs(first ? "\n{\"id\":" : ",\n{\"id\":", out);
        first = 0;
        cf_json_str(out, l->id);
        fputs(",\"format\":", out);
        cf_json_str(out, l->format);
        fputs(",\"profile\":", out);
        cf_json_str(out, cf_profile_name(c->profile));
        fputs(",\"expect\":", out);
        cf_json_str(out, c->expect);
        fputs(",\"manifest_expect\":", out);
        cf_json_str(out, l->expect);
        fputs(",\"rule\":", out);
        cf_json_str(out, strcmp(l->rule, "-") ? l->rule : NULL);
        fputs(",\"category\":", out);
        cf_json_str(out, strcmp(l->category, "-") ? l->category : NULL);
        fputs(",\"result\":", out);
        cf_json_str(out, cf_result_name(c->result));
        if (c->result == CF_XFAIL) {
            fputs(",\"xfail_of\":", out);
            cf_json_str(out, cf_result_name(c->xfail_of));
        }
        fputs(",\"got\":", out);
        cf_json_str(out, c->got);
        fputs(",\"got_rule\":", out);
        cf_json_str(out, c->got_rule[0] ? c->got_rule : NULL);
        fputs(",\"got_category\":", out);
        cf_json_str(out, c->got_category[0] ? c->got_category : NULL);
        fputs(",\"exit\":", out);
        cf_json_str(out, c->exit_desc);
        fprintf(out, ",\"ms\":%.3f,\"detail\":", c->ms);
        cf_json_str(out, c->detail[0] ? c->detail : NULL);
        fputs(",\"content\":", out);
        cf_json_str(out, cf_content_state_name(c->content));
        fputs(",\"warning\":", out);
        cf_json_str(out, c->warning[0] ? c->warning : NULL);
        fputs(",\"description\":", out);
        cf_json_str(out, l->description && *l->description ? l->description : NULL);
        fputs(",\"path\":", out);
        cf_json_str(out, l->path);
        fputs(",\"stderr\":", out);
        cf_json_str(out, c->stderr_text);
        fputc('}', out);
    }
    fputs("\n]}\n", out);
    return ferror(out) ? -1 : 0;
}
