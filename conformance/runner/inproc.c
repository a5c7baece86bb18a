/* inproc.c: a case run through our parsers in this process, through every
 * byte path (file, buffer, forward-only stream: bytepaths.h); paths that
 * disagree are a misread of the case. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bytepaths.h"
#include "conform.h"
#include "tfs/tfs.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void cf_run_inprocess(cf_case *c, cf_content_fn content) {
    const cf_line *l = c->line;
    unsigned flags = c->profile == CF_PROF_STRICT        ? TFS_STRICT
                     : c->profile == CF_PROF_HEADER_ONLY ? TFS_HEADER_ONLY
                                                         : 0;
    tfs_format fmt = strcmp(l->format, "gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
    double t0 = now_ms();
    tfs_error err;
    memset(&err, 0, sizeof err);
    char paths_why[360] = "";
    tfs_status st;
    int paths = cf_parse_all_paths(l->path, fmt, flags, &st, &err, paths_why, sizeof paths_why);
    cf_outcome o = {0};
    char why[400] = "";
    if (paths != 0) {
        /* the byte paths disagree (or the buffer path could not read the file): not one verdict */
        o.kind = CF_GOT_CRASH;
        snprintf(why, sizeof why, "byte paths disagree: %s", paths_why);
        o.why = why;
    } else if (st == TFS_OK) {
        o.kind = CF_GOT_ACCEPT;
        if (c->expected_content && content && strcmp(c->expect, "valid") == 0) {
            char *text = content(l->path, l->format, flags);
            if (!text) {
                o.misread = 1;
                snprintf(why, sizeof why, "our content of the file could not be rendered");
            } else {
                o.misread = cf_content_compare_text(text, strlen(text), c->expected_content, why, sizeof why) != 0;
                free(text);
            }
            o.why = why;
        }
    } else if (st == TFS_INVALID) {
        o.kind = CF_GOT_REJECT;
        o.rule = tfs_rule_id(err.rule);
        o.category = tfs_rule_category(err.rule);
        o.has_offset = 1;
        o.offset = err.offset;
        o.has_index = 1;
        o.index = err.index;
    } else {
        /* an I/O error or out of memory: the run itself failed, not a verdict */
        o.kind = CF_GOT_CRASH;
        snprintf(why, sizeof why, "library status %s%s%s", tfs_status_name(st), err.sys_errno ? ": " : "",
                 err.sys_errno ? strerror(err.sys_errno) : "");
        o.why = why;
    }
    cf_classify(c, &o);
    c->ms = now_ms() - t0;
    snprintf(c->exit_desc, sizeof c->exit_desc, "in-process");
    c->done = 1;
}
