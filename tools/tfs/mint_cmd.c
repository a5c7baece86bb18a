/* mint_cmd.c: `tfs mint`: new fixtures on demand.  The work (candidates,
 * classification, minimisation, manifest lines) is generators/mint.py; this
 * command finds Python, the script and the shared libtfs the script
 * classifies with, and execs it, so `tfs check` never starts Python. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef TFS_MINT_SCRIPT
#define TFS_MINT_SCRIPT "generators/mint.py"
#endif
#ifndef TFS_MINT_LIB
#define TFS_MINT_LIB ""
#endif
#ifndef TFS_MINT_PYTHON
#define TFS_MINT_PYTHON "python3"
#endif

static const char usage_line[] =
    "usage: tfs mint --out DIR [--rule ID]... [--profile P] [--budget SECONDS] [--seed N]\n"
    "                [--against 'CMD {file}' [--mutant 'CMD {file}']] [--oracle 'CMD {file}']\n"
    "                [--timeout SECONDS] [--max-candidates N] [--strategies N] [--byte-tests N]\n"
    "                [--format gguf|safetensors] [SEED...]\n";

static void usage(FILE *f) {
    fputs(usage_line, f);
    fprintf(f, "\n"
               "Mints fixtures: files drawn by the per-rule strategies, and mutants of the SEED\n"
               "model files (files, or folders walked for .gguf / .safetensors) made by every\n"
               "structure-aware mutation (tfs mutate), each\n"
               "classified by our parser in every profile, minimised while that classification\n"
               "stays the same (the seed model cut down first: KV pairs, tensors, dims,\n"
               "__metadata__, names, strings; then bytes), deduplicated by (rule, verdicts,\n"
               "sha256) and written to DIR as fixture files, MANIFEST.tsv lines (never\n"
               "overwriting a fixture) and expected/<id>.json for valid ones.  DIR is then a\n"
               "fixture folder: tfs conform --fixtures corpus --fixtures DIR.\n"
               "  --out DIR           the fixture folder written (created; lines added)\n"
               "  --rule ID           keep only files whose first violation is ID (repeatable;\n"
               "                      the summary names the ones not reached)\n"
               "  --profile P         default | strict | header-only: the profile whose rule\n"
               "                      names a file (default: default)\n"
               "  --budget SECONDS    stop making candidates after this long (default 60)\n"
               "  --seed N            seed of the candidate order and the mutations' seeds (default 1)\n"
               "  --max-candidates N  stop after N candidates (runs exactly reproducible)\n"
               "  --strategies N      first, N files of each rule's \"break rule X and only X\"\n"
               "                      hypothesis strategy (generators/tfsgen/breakers.py; default 2,\n"
               "                      0: none; needs python3-hypothesis); then the SEED mutants\n"
               "  --format F          only candidates of format F (gguf, safetensors): for --against\n"
               "                      a reader of one format\n"
               "  --byte-tests N      most candidate runs of the byte minimiser per file (default\n"
               "                      4000; a tenth of it when hunting)\n"
               "  --against 'CMD {file}'  hunting: keep only files where this reader (adapter\n"
               "                      protocol: exit 0 accept, 1 reject, 77 skip) disagrees with\n"
               "                      us, minimise while the disagreement stays, group by its class\n"
               "  --mutant 'CMD {file}'  with --against (your reader): hardening against your own\n"
               "                      slips: keep only files --against reads as we do (verdict; rule\n"
               "                      or category when it says one) and this mutated copy of it does\n"
               "                      not (verdict, a rule or category not ours, crash, content other\n"
               "                      than the original's), minimise while both stay: fixtures with\n"
               "                      our expectation that kill the mutant in tfs conform\n"
               "  --oracle 'CMD {file}'  confirm each fixture before writing it: the oracle must\n"
               "                      accept exactly when our default profile does, else it is dropped\n"
               "  --timeout SECONDS   per adapter run (default 10)\n"
               "A progress line on a terminal; a summary on standard output.  Needs python3\n"
               "(found on PATH, or $TFS_PYTHON3) and generators/mint.py ($TFS_MINT_SCRIPT);\n"
               "classifies in process with this build's libtfs.so ($TFS_MINT_LIB), else (said\n"
               "once on stderr) with one `tfs check` process per check.\n"
               "exit 0 done, 2 usage or I/O error\n");
}

int cmd_mint(int argc, char **argv, int first) {
    if (argc == first) { /* nothing asked: the usage, not the script's */
        fprintf(stderr, "%stfs mint: --out DIR is required (tfs mint --help)\n", usage_line);
        return 2;
    }
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return stdout_done("mint", 0);
        }
        /* what this command passes to the script itself */
        if (strcmp(argv[i], "--tfs") == 0 || strncmp(argv[i], "--tfs=", 6) == 0 || strcmp(argv[i], "--lib") == 0 ||
            strncmp(argv[i], "--lib=", 6) == 0) {
            fprintf(stderr, "tfs mint: unknown option '%s' (tfs mint --help)\n", argv[i]);
            return 2;
        }
    }
    const char *script = getenv("TFS_MINT_SCRIPT");
    if (!script || !*script) script = TFS_MINT_SCRIPT;
    const char *lib = getenv("TFS_MINT_LIB");
    if (!lib) lib = TFS_MINT_LIB;
    const char *py = getenv("TFS_PYTHON3");
    if (!py || !*py) py = TFS_MINT_PYTHON;
    if (access(script, R_OK) != 0) {
        fprintf(stderr, "tfs mint: %s: %s (set TFS_MINT_SCRIPT to generators/mint.py of a source tree)\n", script,
                strerror(errno));
        return 2;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "tfs mint: cannot find this program's path: %s\n", strerror(errno));
        return 2;
    }
    self[n] = '\0';
    int extra = argc - first;
    char **av = calloc((size_t)extra + 8, sizeof *av);
    if (!av) {
        fprintf(stderr, "tfs mint: out of memory\n");
        return 2;
    }
    int k = 0;
    av[k++] = (char *)py;
    av[k++] = (char *)script;
    av[k++] = "--tfs";
    av[k++] = self;
    if (*lib) { /* the script says once when it cannot load it */
        av[k++] = "--lib";
        av[k++] = (char *)lib;
    }
    for (int i = first; i < argc; i++) av[k++] = argv[i];
    av[k] = NULL;
    fflush(NULL);
    execvp(py, av);
    fprintf(stderr, "tfs mint: cannot run %s: %s\n", py, strerror(errno));
    free(av);
    return 2;
}
