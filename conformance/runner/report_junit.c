/* report_junit.c: JUnit XML as Jenkins' and ctest's schema has it:
 * <testsuites><testsuite name tests failures errors skipped time
 * timestamp><testcase name classname time> with <failure message type>,
 * <error message type> (crash, timeout) or <skipped message/>, and
 * <system-err>.  One testsuite per format, one testcase per case;
 * classname "tfs.conform.<format>.<family>", name "<id> [<profile>]".
 * xfail and implementation_defined cases pass with a <system-out> note. */
#include <string.h>

#include "conform.h"

static void attr(FILE *out, const char *name, const char *v) {
    fprintf(out, " %s=\"", name);
    cf_xml_str(out, v);
    fputc('"', out);
}

int cf_report_junit(FILE *out, const cf_case *cases, size_t n, const cf_report_info *ri) {
    static const char *const formats[] = {"safetensors", "gguf"};
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", out);
    attr(out, "name", "tfs conform");
    fputs(">\n", out);
    for (int fi = 0; fi < 2; fi++) {
        size_t tests = 0, failures = 0, errors = 0, skipped = 0;
        double ms = 0;
        for (size_t i = 0; i < n; i++) {
            const cf_case *c = &cases[i];
            if (!c->done || strcmp(c->line->format, formats[fi]) != 0) continue;
            tests++;
            ms += c->ms;
            if (c->result == CF_CRASH || c->result == CF_TIMEOUT)
                errors++;
            else if (cf_result_is_failure(c->result))
                failures++;
            else if (c->result == CF_SKIP)
                skipped++;
        }
        if (!tests) continue;
        fputs("  <testsuite", out);
        char name[64];
        snprintf(name, sizeof name, "tfs.conform.%s", formats[fi]);
        attr(out, "name", name);
        fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"", tests, failures,
                errors, skipped, ms / 1e3);
        attr(out, "timestamp", ri->started);
        fputs(">\n", out);
        for (size_t i = 0; i < n; i++) {
            const cf_case *c = &cases[i];
            if (!c->done || strcmp(c->line->format, formats[fi]) != 0) continue;
            char fam[32], cls[96], tname[600];
            cf_line_family(c->line, fam, sizeof fam);
            for (char *p = fam; *p; p++)
                if (*p == ' ') *p = '_';
            snprintf(cls, sizeof cls, "tfs.conform.%s.%s", formats[fi], fam);
            snprintf(tname, sizeof tname, "%s [%s]", c->line->id, cf_profile_name(c->profile));
            fputs("    <testcase", out);
            attr(out, "name", tname);
            attr(out, "classname", cls);
            fprintf(out, " time=\"%.3f\"", c->ms / 1e3);
            char msg[700];
            snprintf(msg, sizeof msg, "%s: %s", cf_result_name(c->result), c->detail[0] ? c->detail : "-");
            const char *elem = NULL;
            if (c->result == CF_CRASH || c->result == CF_TIMEOUT)
                elem = "error";
            else if (cf_result_is_failure(c->result))
                elem = "failure";
            if (!elem && c->result != CF_SKIP && c->result != CF_XFAIL && c->result != CF_IMPL && !c->stderr_text) {
                fputs("/>\n", out);
                continue;
            }
            fputs(">\n", out);
            if (elem) {
                fprintf(out, "      <%s", elem);
                attr(out, "message", msg);
                attr(out, "type", cf_result_name(c->result));
                fputs(">", out);
                snprintf(msg, sizeof msg, "expect %s (rule %s, category %s); got %s (rule %s, category %s); exit %s",
                         c->expect, c->line->rule, c->line->category, c->got ? c->got : "nothing",
                         c->got_rule[0] ? c->got_rule : "-", c->got_category[0] ? c->got_category : "-", c->exit_desc);
                cf_xml_str(out, msg);
                fprintf(out, "</%s>\n", elem);
            } else if (c->result == CF_SKIP) {
                fputs("      <skipped", out);
                attr(out, "message", msg);
                fputs("/>\n", out);
            } else if (c->result == CF_XFAIL || c->result == CF_IMPL) {
                fputs("      <system-out>", out);
                if (c->result == CF_XFAIL)
                    snprintf(msg, sizeof msg, "expected failure (%s): %s", cf_result_name(c->xfail_of),
                             c->detail[0] ? c->detail : "-");
                else
                    snprintf(msg, sizeof msg, "implementation-defined: got %s", c->got ? c->got : "-");
                cf_xml_str(out, msg);
                fputs("</system-out>\n", out);
            }
            if (c->stderr_text) {
                fputs("      <system-err>", out);
                cf_xml_str(out, c->stderr_text);
                fputs("</system-err>\n", out);
            }
            fputs("    </testcase>\n", out);
        }
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
    return ferror(out) ? -1 : 0;
}
