/* report_tap.c: TAP version 13, one test point per case, with a YAML
 * diagnostic block (result, profile, expect, got, rule, exit, ms, detail).
 * Skipped cases use the SKIP directive; xfail cases TODO (expected failures
 * in TAP's terms); implementation_defined cases are "ok" with a note. */
#include <string.h>

#include "conform.h"

/* a YAML double-quoted scalar (the JSON escapes are valid YAML); ~ for none */
static void yaml_str(FILE *out, const char *s) {
    if (s && *s)
        cf_json_str(out, s);
    else
        fputc('~', out);
}

/* TAP descriptions end at '#' (directives) and at a newline */
static void tap_desc(FILE *out, const char *s) {
    for (; *s; s++) fputc(*s == '#' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

int cf_report_tap(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri) {
    size_t done = 0;
    for (size_t i = 0; i < n; i++) done += cases[i].done != 0;
    fprintf(out, "TAP version 13\n1..%zu\n", done);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const cf_case *c = &cases[i];
        if (!c->done) continue;
        k++;
        int fail = cf_result_is_failure(c->result) || c->result == CF_XFAIL;
        fprintf(out, "%s %zu - ", fail ? "not ok" : "ok", k);
        tap_desc(out, c->line->id);
        fprintf(out, " [%s]", cf_profile_name(c->profile));
        if (c->result == CF_SKIP)
            fputs(" # SKIP unsupported by the reader", out);
        else if (c->result == CF_XFAIL)
            fputs(" # TODO expected failure", out);
        fputc('\n', out);
        fputs("  ---\n  result: ", out);
        yaml_str(out, cf_result_name(c->result));
        fputs("\n  format: ", out);
        yaml_str(out, c->line->format);
        fputs("\n  profile: ", out);
        yaml_str(out, cf_profile_name(c->profile));
        fputs("\n  expect: ", out);
        yaml_str(out, c->expect);
        fputs("\n  rule: ", out);
        yaml_str(out, c->line->rule);
        fputs("\n  category: ", out);
        yaml_str(out, c->line->category);
        fputs("\n  got: ", out);
        yaml_str(out, c->got);
        fputs("\n  got_rule: ", out);
        yaml_str(out, c->got_rule);
        fputs("\n  got_category: ", out);
        yaml_str(out, c->got_category);
        fputs("\n  exit: ", out);
        yaml_str(out, c->exit_desc);
        if (cf_content_state_name(c->content)) {
            fputs("\n  content: ", out);
            yaml_str(out, cf_content_state_name(c->content));
        }
        if (c->line->description && *c->line->description) {
            fputs("\n  description: ", out);
            yaml_str(out, c->line->description);
        }
        fprintf(out, "\n  ms: %.3f\n", c->ms);
        if (c->detail[0]) {
            fputs("  detail: ", out);
            yaml_str(out, c->detail);
            fputc('\n', out);
        }
        if (c->stderr_text) {
            fputs("  stderr: ", out);
            yaml_str(out, c->stderr_text);
            fputc('\n', out);
        }
        fputs("  ...\n", out);
    }
    if (ri->interrupted) fprintf(out, "# interrupted: %zu cases not run\n", ri->not_run);
    for (size_t i = 0; i < ri->n_problems; i++) {
        fputs("# expected-failures: ", out);
        tap_desc(out, ri->problems[i]);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}
