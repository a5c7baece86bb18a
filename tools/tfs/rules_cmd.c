/* rules_cmd.c: `tfs rules [--json|--tsv] [ID...]`: the rules table of
 * rules.def, or the rows of the rule ids given. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *profile_str(tfs_rule_profile p) {
    switch (p) {
    case TFS_PROFILE_CANON: return "CANON";
    case TFS_PROFILE_DATA: return "DATA";
    case TFS_PROFILE_STRICT: return "STRICT";
    case TFS_PROFILE_RETIRED: return "RETIRED";
    }
    return "?";
}

static void usage(FILE *f) {
    fprintf(f, "usage: tfs rules [--json|--tsv] [ID...]\n"
               "\n"
               "Lists every rule of the table (include/tfs/rules.def): id, format, profile\n"
               "(CANON every profile, DATA GGUF default profile only, STRICT only with\n"
               "--strict, RETIRED no longer reported), canonical category, message and\n"
               "the canonical code it mirrors, and what the error index counts (none, kv,\n"
               "tensor, metadata, kv-or-tensor, tensor-or-metadata).  With rule ids\n"
               "(GG204 ST307 ...), those rules only, in the order given.\n"
               "  --json   one JSON object per rule and line\n"
               "  --tsv    tab-separated, with a header row\n");
}

int cmd_rules(int argc, char **argv, int first) {
    enum { TEXT, JSON, TSV } mode = TEXT;
    int n_ids = first; /* rule ids given are moved to argv[first..] */
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--tsv") == 0) {
            if (mode != TEXT) {
                fprintf(stderr, "tfs rules: --json and --tsv exclude each other\n");
                usage(stderr);
                return 2;
            }
            mode = argv[i][2] == 'j' ? JSON : TSV;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return stdout_done("rules", 0);
        } else if (argv[i][0] != '-' && tfs_rule_from_id(argv[i]) != TFS_RULE_NONE) {
            argv[n_ids++] = argv[i]; /* a rule id: kept in argv[first..first + n_ids) */
        } else if (argv[i][0] != '-') {
            fprintf(stderr, "tfs rules: no rule '%s' (`tfs rules` lists them)\n", argv[i]);
            return 2;
        } else {
            fprintf(stderr, "tfs rules: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    n_ids -= first;
    size_t n = tfs_rule_count();
    size_t wcat = 8;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(tfs_rule_category(tfs_rule_at(i)));
        if (l > wcat) wcat = l;
    }
    if (mode == TSV) printf("id\tformat\tprofile\tcategory\tmessage\tref\tindex\n");
    if (n_ids > 0) n = (size_t)n_ids;
    for (size_t i = 0; i < n; i++) {
        tfs_rule r = n_ids > 0 ? tfs_rule_from_id(argv[first + (int)i]) : tfs_rule_at(i);
        const char *id = tfs_rule_id(r);
        const char *prof = profile_str(tfs_rule_profile_of(r));
        const char *fmt = tfs_format_name(tfs_rule_format(r));
        const char *index = tfs_index_kind_name(tfs_rule_index_kind(r));
        if (mode == JSON) {
            printf("{\"id\":");
            json_cstr(stdout, id);
            printf(",\"code\":%d,\"format\":", (int)r);
            json_cstr(stdout, fmt);
            printf(",\"profile\":");
            json_cstr(stdout, prof);
            printf(",\"category\":");
            json_cstr(stdout, tfs_rule_category(r));
            printf(",\"message\":");
            json_cstr(stdout, tfs_rule_message(r));
            printf(",\"ref\":");
            json_cstr(stdout, tfs_rule_ref(r));
            printf(",\"index\":");
            json_cstr(stdout, index);
            printf("}\n");
        } else if (mode == TSV) {
            printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", id, fmt, prof, tfs_rule_category(r), tfs_rule_message(r),
                   tfs_rule_ref(r), index);
        } else {
            printf("%-6s %-7s %-*s %s\n", id, prof, (int)wcat, tfs_rule_category(r), tfs_rule_message(r));
            printf("%-6s %-7s %-*s   ref: %s; index counts: %s\n", "", "", (int)wcat, "", tfs_rule_ref(r), index);
        }
    }
    return stdout_done("rules", 0);
}
