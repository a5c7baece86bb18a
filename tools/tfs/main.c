/* main.c: `tfs` entry point: subcommand dispatch, --help, --version. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: tfs <command> [options] [args]\n"
            "\n"
            "tfs checks safetensors and GGUF model files against the rules of the\n"
            "canonical readers, reading only the header (tensor data is never read).\n"
            "\n"
            "commands:\n"
            "  check [--json] [--strict] [--header-only] [--format safetensors|gguf] FILE...\n"
            "                 verdict per file; exit 0 all valid, 1 any invalid, 2 usage or I/O error\n"
            "  dump [--json] [--full] [--strict] [--header-only] [--format F] FILE\n"
            "                 what a file holds: header, every KV / __metadata__ value, every tensor\n"
            "  rules [--json|--tsv]\n"
            "                 list every rule: id, canonical category, profile, message, reference\n"
            "  mutate --seed N [--mutation NAME] [--list] IN OUT\n"
            "                 write a structure-aware mutant of IN (docs/mutators.md)\n"
            "\n"
            "options:\n"
            "  -h, --help     this help (`tfs check --help` for the options of check)\n"
            "  --version      print the version\n");
}

/* Exit status after printing to stdout: 2 if the output could not be written
 * (a full disk, a closed pipe), so scripts never take a lost answer as 0. */
static int flushed(int rc) {
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "tfs: cannot write output\n");
        return 2;
    }
    return rc;
}

/* `tfs --help` / `tfs --version` take no further argument. */
static int no_extra(int argc, const char *cmd) {
    if (argc == 2) return 1;
    fprintf(stderr, "tfs: %s takes no argument\n", cmd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        if (!no_extra(argc, cmd)) return 2;
        usage(stdout);
        return flushed(0);
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        if (!no_extra(argc, cmd)) return 2;
        printf("tfs %s\n", TFS_CLI_VERSION_STR);
        return flushed(0);
    }
    if (strcmp(cmd, "check") == 0) return cmd_check(argc, argv, 2);
    if (strcmp(cmd, "dump") == 0) return cmd_dump(argc, argv, 2);
    if (strcmp(cmd, "rules") == 0) return cmd_rules(argc, argv, 2);
    if (strcmp(cmd, "mutate") == 0) return cmd_mutate(argc, argv, 2);
    fprintf(stderr, "tfs: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
