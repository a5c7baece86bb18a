/* args.c: option parsing of `tfs check`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char check_usage_line[] = "usage: tfs check [--json] [--strict] [--header-only] [--format safetensors|gguf] "
                                "[-r] [-q]\n"
                                "                 [--lint [--config PATH]] FILE|DIR...\n";
const char dump_usage_line[] = "usage: tfs dump [--json [--content-only]] [--full] [--keys GLOB] [--tensors GLOB]\n"
                               "                [--no-tensors] [--sort file|offset|size|name] [--tree] [--strict]\n"
                               "                [--header-only] [--format safetensors|gguf] FILE\n";

void check_usage(FILE *f) {
    fputs(check_usage_line, f);
    fprintf(f, "\n"
               "Checks each FILE (header only; tensor data is never read) and prints its\n"
               "verdict: format, version, header size, counts, type histogram, parameter\n"
               "count and metadata summary, or the rule id, category, byte offset and\n"
               "message of the first violation.\n"
               "\n"
               "Without --format, a file that is neither GGUF nor plausibly safetensors\n"
               "(8-byte size, then '{', within the file) and has no model extension\n"
               "(.gguf, .safetensors, any case, also .part/.partial after it) is not\n"
               "parsed: verdict not_a_model, with what it looks like (zip or pickle\n"
               "checkpoint, JSON index, HTML page, image, text, ...).\n"
               "\n"
               "Model sets: a NAME.safetensors.index.json, the first part of a GGUF split\n"
               "(NAME-00001-of-0000N.gguf) or a folder (without -r: its indexes, splits and\n"
               "other model files) is checked as a set: every shard or part present and\n"
               "valid, each tensor in the shard the index names and in one file only,\n"
               "metadata.total_size, split.no / split.count / split.tensors.count\n"
               "(rules SETnnn, docs/lint.md).\n"
               "\n"
               "FILE may be - for standard input; a pipe, FIFO or character device named as\n"
               "FILE (/dev/stdin, <(cmd)) is read the same way, forward only, in bounded\n"
               "memory, with the same verdicts: GGUF with --header-only stops at the data\n"
               "section; otherwise the stream is read to its end to learn its size (the\n"
               "data rules need it).  A regular file on standard input is read as a file.\n"
               "\n"
               "  --json            one JSON object per file and line (file, format, verdict,\n"
               "                    rule, category, offset, index, message, version, n_tensors,\n"
               "                    n_kv, header_size, params, ...)\n"
               "  --strict          add the strict rules (implementation-defined cases)\n"
               "  --header-only     GGUF: ggml's metadata mode (tensor data need not be in\n"
               "                    the file); no effect on safetensors\n"
               "  --format F        force the parser: safetensors or gguf (default: the GGUF\n"
               "                    magic decides, then the extension .gguf/.safetensors)\n"
               "  --lint            also the lint rules (LTnnn): MLX quantized weights, GGUF\n"
               "                    conventions, safetensors padding and alignment; errors\n"
               "                    and warnings never change the verdict, but a lint error\n"
               "                    makes the exit status 1; the summary says how many valid\n"
               "                    files have lint errors or warnings\n"
               "  --config PATH     MLX config.json for --lint (default: the config.json\n"
               "                    beside the file)\n"
               "  -r, --recursive   a directory FILE: every model set under it (an index\n"
               "                    .json, a GGUF split's first part) checked once as a set,\n"
               "                    its files reported under it; every other model file,\n"
               "                    found by content or extension, once (by device and\n"
               "                    inode: symlinks are followed once); other files are\n"
               "                    skipped and counted; exit 1 when none is found (a\n"
               "                    progress line on a terminal; with --json a last record\n"
               "                    {\"summary\": {...}})\n"
               "  -q, --quiet       print only the files that are not valid or have lint\n"
               "                    findings (a set: only its problems), and the summary\n"
               "  -h, --help        this help\n"
               "\n"
               "exit status: 0 all files valid, 1 a file or set is invalid, not a model\n"
               "file, or has a lint error (--lint),\n"
               "2 usage or I/O error, or out of memory\n");
}

static int set_format(check_opts *o, const char *cmd, const char *v) {
    if (strcmp(v, "safetensors") == 0)
        o->format = TFS_FORMAT_SAFETENSORS;
    else if (strcmp(v, "gguf") == 0)
        o->format = TFS_FORMAT_GGUF;
    else {
        fprintf(stderr, "tfs %s: --format must be safetensors or gguf, not '%s'\n", cmd, v);
        return -1;
    }
    return 0;
}

int check_parse_args(int argc, char **argv, int first, check_opts *o) {
    memset(o, 0, sizeof *o);
    o->format = TFS_FORMAT_UNKNOWN;
    const char *cmd = first > 1 ? argv[first - 1] : "check"; /* "check" or "dump": its name in messages */
    int n_stdin = 0;
    /* Collect files in order into a scratch array, then copy them to the end. */
    char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files) {
        fprintf(stderr, "tfs %s: out of memory\n", cmd);
        return -1;
    }
    int nfiles = 0, rc = 0, opts_done = 0;
    for (int i = first; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || strcmp(a, "-") == 0) {
            files[nfiles++] = argv[i];
            if (strcmp(a, "-") == 0 && ++n_stdin == 2) {
                fprintf(stderr, "tfs %s: standard input (-) can be read only once\n", cmd);
                rc = -1;
            }
        } else if (strcmp(a, "--") == 0) {
            opts_done = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--strict") == 0) {
            o->flags |= TFS_STRICT;
        } else if ((strcmp(a, "-r") == 0 || strcmp(a, "--recursive") == 0) && strcmp(cmd, "check") == 0) {
            o->recursive = 1;
        } else if ((strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) && strcmp(cmd, "check") == 0) {
            o->quiet = 1;
        } else if (strcmp(a, "--lint") == 0 && strcmp(cmd, "check") == 0) {
            o->lint = 1;
        } else if ((strcmp(a, "--config") == 0 || strncmp(a, "--config=", 9) == 0) && strcmp(cmd, "check") == 0) {
            if (a[8] == '=')
                o->config = a + 9;
            else if (i + 1 >= argc) {
                fprintf(stderr, "tfs %s: --config needs a PATH (an MLX config.json)\n", cmd);
                rc = -1;
            } else
                o->config = argv[++i];
        } else if (strcmp(a, "--header-only") == 0) {
            o->flags |= TFS_HEADER_ONLY;
        } else if (strcmp(a, "--format") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tfs %s: --format needs a value (safetensors or gguf)\n", cmd);
                rc = -1;
            } else if (set_format(o, cmd, argv[++i]) != 0) {
                rc = -1;
            }
        } else if (strncmp(a, "--format=", 9) == 0) {
            if (set_format(o, cmd, a + 9) != 0) rc = -1;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            check_usage(stdout);
            rc = 1;
        } else {
            fprintf(stderr, "tfs %s: unknown option '%s'\n", cmd, a);
            rc = -1;
        }
    }
    if (rc == 0 && o->config && !o->lint) {
        fprintf(stderr, "tfs %s: --config is for --lint\n", cmd);
        rc = -1;
    }
    if (rc == 0 && nfiles == 0) {
        fprintf(stderr, "tfs %s: no FILE given\n", cmd);
        rc = -1;
    }
    if (rc == -1) fputs(strcmp(cmd, "dump") == 0 ? dump_usage_line : check_usage_line, stderr);
    if (rc == 0) {
        o->first_file = argc - nfiles;
        for (int k = 0; k < nfiles; k++) argv[o->first_file + k] = files[k];
    }
    free(files);
    return rc;
}
