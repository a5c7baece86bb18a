/* main.c: `tfs` entry point: subcommand dispatch, `tfs help [COMMAND]`,
 * --help, --version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f) {
    fprintf(f, "usage: tfs <command> [options] [args]\n"
               "\n"
               "tfs checks safetensors and GGUF model files against the rules of the\n"
               "canonical readers, reading only the header (tensor data is never read).\n"
               "\n"
               "commands:\n"
               "  check [--json] [--strict] [--header-only] [--format safetensors|gguf] [-r] [-q]\n"
               "        [--lint [--config PATH]] FILE|DIR...\n"
               "                 verdict per file (-r: the model files under a directory); exit 0\n"
               "                 all valid, 1 any invalid, not a model file or a lint error (--lint),\n"
               "                 2 usage or I/O error\n"
               "  dump [--json [--content-only]] [--full] [--keys GLOB] [--tensors GLOB] [--no-tensors]\n"
               "       [--sort KEY] [--tree] [--strict] [--header-only] [--format F] FILE\n"
               "                 what a file holds: header, every KV / __metadata__ value, every tensor\n"
               "  conform [--adapter 'CMD {file}'] [-j N] [--profile P] [--json|--tap|--junit FILE] ...\n"
               "                 run the conformance suite in process or through an adapter\n"
               "                 (`tfs conform --help`); exit 0 no failure, 1 failures, 2 usage/fixtures\n"
               "  rules [--json|--tsv] [ID...]\n"
               "                 list every rule (or the rules ID...): id, canonical category,\n"
               "                 profile, message, reference\n"
               "  mutate --seed N [--mutation NAME] [--max-size BYTES] [--crossover IN2] [--expect RULE]\n"
               "         [--json] IN OUT\n"
               "                 write a structure-aware mutant of IN and say what it is (verdict\n"
               "                 per profile); `tfs mutate --list` names the mutations\n"
               "  mint --out DIR [--rule ID]... [--budget SECONDS] [--against 'CMD {file}'] [SEED...]\n"
               "                 mint minimised fixtures (a fixture folder) from seed files\n"
               "  help [COMMAND] this help, or the options of COMMAND (as `tfs COMMAND --help`)\n"
               "\n"
               "options:\n"
               "  -h, --help     this help\n"
               "  --version      print the version\n"
               "\n"
               "FILE may be - (standard input).  `man tfs` has the whole manual.\n");
}

/* `tfs --help` / `tfs --version` take no further argument. */
static int no_extra(int argc, const char *cmd) {
    if (argc == 2) return 1;
    fprintf(stderr, "tfs: %s takes no argument\n", cmd);
    return 0;
}

int main(int argc, char **argv) {
    /* SIGPIPE stays at its default: a closed pipe (`tfs rules | head -1`,
     * `tfs check -r DIR | head`) ends tfs quietly at its next write, as it
     * ends cat or grep (issue 18); other write errors (a full disk) are
     * reported by stdout_done with exit status 2. */
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 && argc == 3) {
        /* `tfs help COMMAND` is `tfs COMMAND --help` */
        static char help_opt[] = "--help";
        argv[1] = argv[2];
        argv[2] = help_opt;
        cmd = argv[1];
        if (cmd[0] == '-') {
            fprintf(stderr, "tfs help: no command '%s'\n", cmd);
            return 2;
        }
    }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        /* `tfs help help` (now "help --help") is this help too */
        if (!(argc == 3 && strcmp(argv[2], "--help") == 0) && !no_extra(argc, cmd)) return 2;
        usage(stdout);
        return stdout_done(NULL, 0);
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        if (!no_extra(argc, cmd)) return 2;
        printf("tfs %s\n", TFS_CLI_VERSION_STR);
        return stdout_done(NULL, 0);
    }
    if (strcmp(cmd, "check") == 0) return cmd_check(argc, argv, 2);
    if (strcmp(cmd, "dump") == 0) return cmd_dump(argc, argv, 2);
    if (strcmp(cmd, "rules") == 0) return cmd_rules(argc, argv, 2);
    if (strcmp(cmd, "mutate") == 0) return cmd_mutate(argc, argv, 2);
    if (strcmp(cmd, "mint") == 0) return cmd_mint(argc, argv, 2);
    if (strcmp(cmd, "conform") == 0) return cmd_conform(argc, argv, 2);
    fprintf(stderr, "tfs: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
