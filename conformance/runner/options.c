/* options.c: the command line of `tfs conform` (docs/conform.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

void cf_usage(FILE *f) {
    fprintf(f, "usage: tfs conform [options]\n"
               "\n"
               "Runs the conformance suite (fixtures + manifests) against our parsers in\n"
               "process, or against any reader through an adapter command.\n"
               "\n"
               "  --adapter 'CMD ARGS {file}'  run CMD per fixture ({file}: the fixture path,\n"
               "                     appended when absent); split into words without a shell\n"
               "  --shell            run the adapter command through /bin/sh instead\n"
               "  -j, --jobs N       adapters run at once (default 1)\n"
               "  --timeout SECONDS  per case (default 10); the adapter's process group is killed\n"
               "  --output-cap BYTES kept of each adapter stream (default 16777216; the rest is read and dropped)\n"
               "  --fixtures DIR     folder with MANIFEST.tsv, itself or in direct subfolders;\n"
               "                     repeatable: the folders combine (an id in two is an error)\n"
               "                     (default: $TFS_CONFORMANCE_DIR, else <bindir>/../share/tfs/conformance,\n"
               "                     else the source tree's corpus/, else <prefix>/share/tfs/conformance)\n"
               "selection (repeatable options: a case matches any of the values):\n"
               "  --format safetensors|gguf\n"
               "  --profile default|strict|header-only   (adapters: default; in process: every\n"
               "                     line in its own mode unless given); --strict, --header-only: the same\n"
               "  --rule ID          a rule id (GG204) or family (GG2xx)\n"
               "  --expect valid|parser_error|implementation_defined\n"
               "  --id GLOB          fixture id, shell glob\n"
               "  --tag TAG          see docs/conform.md (format, expect, mode, rule, family,\n"
               "                     folder, hand-written, generated, real, buglog, ...)\n"
               "  --shard K/N        of the cases selected, every N-th from the K-th (1 <= K <= N <= 1000):\n"
               "                     N runs with K = 1..N together run each case once (CI jobs)\n"
               "adapter output:\n"
               "  --category-map FILE  CATEGORY<TAB>REGEX lines: a rejection's JSON \"message\" (else\n"
               "                     its stderr) -> category or rule id, for readers that only print messages\n"
               "  --content          the adapter prints content for valid files: checked before the run\n"
               "  --no-sanity-check  do not try the adapter on a few fixtures before the run\n"
               "                     (by default a run stops, exit 2, when it rejects every valid\n"
               "                     fixture tried or answers every fixture tried the same way)\n"
               "expected failures:\n"
               "  --expected-failures FILE        ids (one per line, optional TAB result) that may fail\n"
               "  --write-expected-failures FILE  write the current failures there\n"
               "reports ('-' = standard output):\n"
               "  --json FILE  --tap FILE  --junit FILE\n"
               "  -q, --quiet        no summary table (failures and the last line only)\n"
               "  --list             print the selected cases and exit\n"
               "lint and model sets (docs/lint.md):\n"
               "  --lint             run DIR/LINT.tsv instead (--fixtures DIR, default corpus/lint;\n"
               "                     --adapter 'CMD {file}' via /bin/sh, first line {\"lint\": [ids]}; --quiet)\n"
               "\n"
               "SIGINT, SIGTERM, SIGHUP: the running adapters' process groups are killed and\n"
               "the partial report is printed.\n"
               "\n"
               "exit status: 0 no required failure, 1 some, 2 usage, fixture integrity or a\n"
               "report that cannot be written, 128+signal when stopped: 130 SIGINT, 143 SIGTERM,\n"
               "129 SIGHUP\n");
}

/* --name VALUE or --name=VALUE; *i advanced past the value. */
static const char *value(int argc, char **argv, int *i, const char *name, int *bad) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=') return a + n + 1;
    if (strcmp(a, name) == 0) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "tfs conform: %s needs a value\n", name);
            *bad = 1;
            return NULL;
        }
        return argv[++*i];
    }
    return NULL;
}

static int add(const char **list, int *n, const char *v, const char *name) {
    if (*n == CF_MAX_LIST) {
        fprintf(stderr, "tfs conform: at most %d %s options\n", CF_MAX_LIST, name);
        return -1;
    }
    list[(*n)++] = v;
    return 0;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out) {
    char *end;
    errno = 0;
    if (!*s || *s == '-') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max) return -1;
    *out = v;
    return 0;
}

int cf_parse_options(int argc, char **argv, int first, cf_options *o) {
    memset(o, 0, sizeof *o);
    o->jobs = 1;
    o->timeout = 10;
    o->profile = -1;
    o->output_cap = 16u << 20; /* the content line of a 150k-token vocabulary fits */
    for (int i = first; i < argc; i++) {
        const char *a = argv[i], *v;
        int bad = 0;
        unsigned long long u;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            cf_usage(stdout);
            return 1;
        }
        if (strcmp(a, "--shell") == 0)
            o->shell = 1;
        else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--list") == 0)
            o->list = 1;
        else if (strcmp(a, "--content") == 0)
            o->want_content = 1;
        else if (strcmp(a, "--no-sanity-check") == 0)
            o->no_sanity = 1;
        else if (strcmp(a, "--strict") == 0)
            o->profile = CF_PROF_STRICT; /* = --profile strict */
        else if (strcmp(a, "--header-only") == 0)
            o->profile = CF_PROF_HEADER_ONLY;
        else if ((v = value(argc, argv, &i, "--adapter", &bad)))
            o->adapter = v;
        else if ((strncmp(a, "-j", 2) == 0 && a[2] && (v = a + 2)) || (v = value(argc, argv, &i, "-j", &bad)) ||
                 (!bad && (v = value(argc, argv, &i, "--jobs", &bad)))) {
            if (parse_uint(v, 256, &u) != 0 || u == 0) {
                fprintf(stderr, "tfs conform: -j wants a number 1..256, not '%s'\n", v);
                return -1;
            }
            o->jobs = (int)u;
        } else if (!bad && (v = value(argc, argv, &i, "--timeout", &bad))) {
            char *end;
            errno = 0;
            double t = strtod(v, &end);
            if (*end || errno || !(t > 0) || t > 86400) {
                fprintf(stderr, "tfs conform: --timeout wants seconds (0 < t <= 86400), not '%s'\n", v);
                return -1;
            }
            o->timeout = t;
        } else if (!bad && (v = value(argc, argv, &i, "--output-cap", &bad))) {
            if (parse_uint(v, (unsigned long long)1 << 30, &u) != 0) {
                fprintf(stderr, "tfs conform: --output-cap wants bytes (at most 1 GiB), not '%s'\n", v);
                return -1;
            }
            o->output_cap = (size_t)u;
        } else if (!bad && (v = value(argc, argv, &i, "--format", &bad))) {
            if (strcmp(v, "safetensors") != 0 && strcmp(v, "gguf") != 0) {
                fprintf(stderr, "tfs conform: --format safetensors|gguf, not '%s'\n", v);
                return -1;
            }
            o->format = v;
        } else if (!bad && (v = value(argc, argv, &i, "--profile", &bad))) {
            o->profile = cf_profile_from_name(v);
            if (o->profile < 0) {
                fprintf(stderr, "tfs conform: --profile default|strict|header-only, not '%s'\n", v);
                return -1;
            }
        } else if (!bad && (v = value(argc, argv, &i, "--rule", &bad))) {
            if (add(o->rules, &o->n_rules, v, "--rule")) return -1;
        } else if (!bad && (v = value(argc, argv, &i, "--expect", &bad))) {
            if (strcmp(v, "valid") && strcmp(v, "parser_error") && strcmp(v, "implementation_defined")) {
                fprintf(stderr, "tfs conform: --expect valid|parser_error|implementation_defined, not '%s'\n", v);
                return -1;
            }
            if (add(o->expects, &o->n_expects, v, "--expect")) return -1;
        } else if (!bad && (v = value(argc, argv, &i, "--id", &bad))) {
            if (add(o->ids, &o->n_ids, v, "--id")) return -1;
        } else if (!bad && (v = value(argc, argv, &i, "--shard", &bad))) {
            unsigned k = 0, n = 0;
            int used = 0;
            if (sscanf(v, "%u/%u%n", &k, &n, &used) != 2 || v[used] || k < 1 || n > 1000 || k > n) {
                fprintf(stderr, "tfs conform: --shard wants K/N with 1 <= K <= N <= 1000, not '%s'\n", v);
                return -1;
            }
            o->shard_k = k;
            o->shard_n = n;
        } else if (!bad && (v = value(argc, argv, &i, "--tag", &bad))) {
            if (add(o->tags, &o->n_tags, v, "--tag")) return -1;
        } else if (!bad && (v = value(argc, argv, &i, "--expected-failures", &bad)))
            o->expected_failures = v;
        else if (!bad && (v = value(argc, argv, &i, "--write-expected-failures", &bad)))
            o->write_expected_failures = v;
        else if (!bad && (v = value(argc, argv, &i, "--category-map", &bad)))
            o->category_map = v;
        else if (!bad && (v = value(argc, argv, &i, "--tap", &bad)))
            o->tap = v;
        else if (!bad && (v = value(argc, argv, &i, "--junit", &bad)))
            o->junit = v;
        else if (!bad && (v = value(argc, argv, &i, "--json", &bad)))
            o->json = v;
        else if (!bad && (v = value(argc, argv, &i, "--fixtures", &bad))) {
            if (add(o->fixtures, &o->n_fixtures, v, "--fixtures")) return -1;
        } else {
            if (!bad) fprintf(stderr, "tfs conform: unknown argument '%s' (tfs conform --help)\n", a);
            return -1;
        }
    }
    if ((o->category_map || o->want_content) && !o->adapter) {
        fprintf(stderr, "tfs conform: %s needs --adapter\n", o->category_map ? "--category-map" : "--content");
        return -1;
    }
    if (o->shell && !o->adapter) {
        fprintf(stderr, "tfs conform: --shell needs --adapter\n");
        return -1;
    }
    if (o->adapter && o->profile < 0) o->profile = CF_PROF_DEFAULT;
    int stdout_reports = 0;
    const char *files[] = {o->tap, o->junit, o->json, o->write_expected_failures};
    for (int k = 0; k < 4; k++) stdout_reports += files[k] && strcmp(files[k], "-") == 0;
    if (stdout_reports > 1) {
        fprintf(stderr, "tfs conform: only one report can go to standard output ('-')\n");
        return -1;
    }
    if (stdout_reports) o->quiet = 2; /* the report owns stdout: the summary goes to stderr */
    return 0;
}
