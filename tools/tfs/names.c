/* names.c: names of verdicts, profiles and what an error index counts. */
#include <errno.h>
#include <string.h>

#include "cli.h"

const char *verdict_name(check_verdict v) {
    switch (v) {
    case V_VALID: return "valid";
    case V_PARSER_ERROR: return "parser_error";
    case V_IO_ERROR: return "io_error";
    case V_INTERNAL: return "internal_error";
    }
    return "?";
}

const char *profile_name(unsigned flags) {
    if ((flags & TFS_STRICT) && (flags & TFS_HEADER_ONLY)) return "strict,header-only";
    if (flags & TFS_STRICT) return "strict";
    if (flags & TFS_HEADER_ONLY) return "header-only";
    return "default";
}

/* The groups of rules.def: GG1xx KV pairs, GG2xx/GG3xx tensors, ST2xx/ST3xx
 * tensor entries, ST4xx __metadata__; strict rules listed one by one. */
const char *index_kind(tfs_rule rule) {
    const char *id = tfs_rule_id(rule);
    if (strlen(id) != 5) return "item";
    static const char *const kv_ids[] = {"GG501", "GG502", "GG504"};
    static const char *const meta_ids[] = {"ST503"};
    for (size_t i = 0; i < sizeof kv_ids / sizeof kv_ids[0]; i++)
        if (strcmp(id, kv_ids[i]) == 0) return "kv";
    for (size_t i = 0; i < sizeof meta_ids / sizeof meta_ids[0]; i++)
        if (strcmp(id, meta_ids[i]) == 0) return "metadata key";
    char group = id[2];
    if (id[0] == 'G') return group == '1' ? "kv" : (group == '2' || group == '3' || group == '5') ? "tensor" : "item";
    return group == '4' ? "metadata key" : (group == '2' || group == '3' || group == '5') ? "tensor" : "item";
}

const char *io_error_text(int sys_errno) {
    if (sys_errno == EINVAL) return "not a regular file (FIFO, device or socket): not read";
    return strerror(sys_errno);
}
