/*
 * hostile.c: adapters that misbehave, for the runner's own tests
 * (tests/conform/test_conform.py).  `hostile MODE FILE`:
 *   truth      exit 0/1 by our parser (default profile), first line
 *              {"rule","category"} on a rejection
 *   crash      abort() (SIGABRT)
 *   hang       never answers
 *   orphan     a child keeps stdout/stderr open for 30 s; the parent answers
 *   escape     as orphan, but the child leaves the process group (setsid), 3 s
 *   flood      the truth's first line, then 100 MB on stdout and 1 MB on stderr
 *   asan       an AddressSanitizer report on stderr (with invalid UTF-8,
 *              control characters and XML / TAP specials), exit 0
 *   ubsan      a UBSan "runtime error:" on stderr, then the truth's exit
 *   exit3      exit 3
 *   skip       exit 77
 *   acceptall  exit 0
 *   misread    the truth, but an accepted file's content is wrong
 *   wrongrule  the truth, but a rejection names rule XX999
 *   wrongcat   the truth, but a rejection names category NoSuchCategory
 *   envcheck   the truth if ASAN_OPTIONS and UBSAN_OPTIONS carry exitcode=86,
 *              else exit 5
 *   slow       sleep 0.5 s, then the truth
 *   badjson    first line "{not json", then the truth's exit
 *   badrule    first line {"rule":5,"category":["x"]}, then the truth's exit
 *   noload     a dynamic loader's "cannot open shared object" line on
 *              stderr, exit 127
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tfs/tfs.h"

static int truth(const char *file, int rule_override, int cat_override) {
    size_t n = strlen(file);
    tfs_format f = n > 5 && strcmp(file + n - 5, ".gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
    tfs_error e;
    tfs_status st = tfs_parse_file(file, f, 0, NULL, &e);
    if (st == TFS_OK) return 0;
    if (st != TFS_INVALID) return 4;
    printf("{\"rule\":\"%s\",\"category\":\"%s\"}\n", rule_override ? "XX999" : tfs_rule_id(e.rule),
           cat_override ? "NoSuchCategory" : tfs_rule_category(e.rule));
    return 1;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: hostile MODE FILE\n");
        return 2;
    }
    const char *m = argv[1], *file = argv[2];
    if (!strcmp(m, "truth")) return truth(file, 0, 0);
    if (!strcmp(m, "crash")) abort();
    if (!strcmp(m, "hang"))
        for (;;) pause();
    if (!strcmp(m, "orphan") || !strcmp(m, "escape")) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            if (!strcmp(m, "escape")) setsid();
            sleep_ms(!strcmp(m, "escape") ? 3000 : 30000);
            _exit(0);
        }
        return truth(file, 0, 0);
    }
    if (!strcmp(m, "flood")) {
        int rc = truth(file, 0, 0);
        fflush(stdout);
        static char buf[1 << 16];
        memset(buf, 'x', sizeof buf);
        for (int i = 0; i < 1600; i++) fwrite(buf, 1, sizeof buf, stdout); /* 100 MiB... roughly 105 MB */
        for (int i = 0; i < 16; i++) fwrite(buf, 1, sizeof buf, stderr);
        return rc;
    }
    if (!strcmp(m, "asan")) {
        fprintf(stderr, "=================================================================\n"
                        "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011\n"
                        "bytes no report format carries raw: \xff\xfe \x01\x1b <&> \" # ]]> \xe2\x82\xac\n");
        return 0;
    }
    if (!strcmp(m, "ubsan")) {
        int rc = truth(file, 0, 0);
        fprintf(stderr, "reader.c:12:7: runtime error: signed integer overflow: 2147483647 + 1\n");
        return rc;
    }
    if (!strcmp(m, "longline")) { /* a first line the output cap cuts, then the verdict */
        printf("{\"rule\":\"XX999\",\"pad\":\"");
        for (int i = 0; i < 8192; i++) putchar('x');
        printf("\"}\n");
        fflush(stdout);
        if (!freopen("/dev/null", "w", stdout)) return 2; /* truth's own line goes nowhere */
        return truth(file, 0, 0);
    }
    if (!strcmp(m, "exit3")) return 3;
    if (!strcmp(m, "skip")) return 77;
    if (!strcmp(m, "acceptall")) return 0;
    if (!strcmp(m, "misread")) {
        int rc = truth(file, 0, 0);
        if (rc == 0) printf("{\"content\":{\"format\":\"not-this-format\",\"tensors\":[],\"kv\":[]}}\n");
        return rc;
    }
    if (!strcmp(m, "wrongrule")) return truth(file, 1, 0);
    if (!strcmp(m, "wrongcat")) return truth(file, 0, 1);
    if (!strcmp(m, "envcheck")) {
        const char *a = getenv("ASAN_OPTIONS"), *u = getenv("UBSAN_OPTIONS");
        if (!a || !strstr(a, "exitcode=86") || !u || !strstr(u, "exitcode=86")) return 5;
        return truth(file, 0, 0);
    }
    if (!strcmp(m, "slow")) {
        sleep_ms(500);
        return truth(file, 0, 0);
    }
    if (!strcmp(m, "badjson") || !strcmp(m, "badrule")) {
        size_t n = strlen(file);
        tfs_error e;
        tfs_format f = n > 5 && strcmp(file + n - 5, ".gguf") == 0 ? TFS_FORMAT_GGUF : TFS_FORMAT_SAFETENSORS;
        int rc = tfs_parse_file(file, f, 0, NULL, &e) == TFS_OK ? 0 : 1;
        puts(!strcmp(m, "badjson") ? "{not json" : "{\"rule\":5,\"category\":[\"x\"]}");
        return rc;
    }
    if (!strcmp(m, "noload")) {
        fputs("\n./reader: error while loading shared libraries: libnosuch.so.1: cannot open shared object file: "
              "No such file or directory\n",
              stderr);
        return 127;
    }
    fprintf(stderr, "hostile: unknown mode %s\n", m);
    return 2;
}
