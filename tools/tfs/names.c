/* names.c: names of verdicts, profiles and what an error index counts;
 * the exit status after writing to stdout. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *verdict_name(check_verdict v) {
    switch (v) {
    case V_VALID: return "valid";
    case V_PARSER_ERROR: return "parser_error";
    case V_IO_ERROR: return "io_error";
    case V_INTERNAL: return "internal_error";
    case V_NOT_MODEL: return "not_a_model";
    }
    return "?";
}

const char *profile_name(unsigned flags) {
    if ((flags & TFS_STRICT) && (flags & TFS_HEADER_ONLY)) return "strict,header-only";
    if (flags & TFS_STRICT) return "strict";
    if (flags & TFS_HEADER_ONLY) return "header-only";
    return "default";
}

/* What tfs_error.index counts for a rule (INDEX column of rules.def). */
const char *index_kind(tfs_rule rule) {
    switch (tfs_rule_index_kind(rule)) {
    case TFS_INDEX_KV: return "kv";
    case TFS_INDEX_TENSOR: return "tensor";
    case TFS_INDEX_METADATA: return "metadata key";
    case TFS_INDEX_KV_OR_TENSOR: return "kv or tensor";
    case TFS_INDEX_TENSOR_OR_METADATA: return "tensor or metadata key";
    case TFS_INDEX_NONE: break;
    }
    return "item";
}

const char *io_error_text(int sys_errno) {
    if (sys_errno == EINVAL) return "not a regular file (FIFO, device or socket): not read";
    if (sys_errno == EISDIR) return "Is a directory (use -r to walk a folder)";
    return strerror(sys_errno);
}

int stdout_done(const char *cmd, int rc) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    fprintf(stderr, "tfs%s%s: cannot write output%s%s\n", cmd ? " " : "", cmd ? cmd : "", errno ? ": " : "",
            errno ? strerror(errno) : "");
    return 2;
}
