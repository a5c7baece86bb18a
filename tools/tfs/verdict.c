/* verdict.c: a parse's outcome as a check_result: the parser that ran, the
 * profile in effect, the verdict (`tfs check`, and the browser inspector in
 * web/, which parses through its own byte source). */
#include "cli.h"

void check_verdict_set(check_result *r, const tfs_header *h) {
    /* the parser that ran: the header's format, or the rule's (FORMAT column) */
    if (r->status == TFS_OK)
        r->format = h->format;
    else if (r->status == TFS_INVALID && !r->not_model)
        r->format = tfs_rule_format(r->err.rule);
    else
        r->format = TFS_FORMAT_UNKNOWN; /* not opened, not read, or not a model file */
    /* --header-only is GGUF's metadata mode; safetensors has one profile */
    if (r->format == TFS_FORMAT_SAFETENSORS && (r->flags & TFS_HEADER_ONLY)) {
        r->flags &= ~TFS_HEADER_ONLY;
        r->header_only_ignored = 1;
    }
    switch (r->status) {
    case TFS_OK:
        r->verdict = V_VALID;
        r->h = h;
        break;
    case TFS_INVALID: r->verdict = r->not_model ? V_NOT_MODEL : V_PARSER_ERROR; break;
    case TFS_EIO:
        r->verdict = V_IO_ERROR;
        r->sys_errno = r->err.sys_errno;
        break;
    default: r->verdict = V_INTERNAL; break;
    }
}
