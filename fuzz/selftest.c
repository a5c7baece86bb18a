/* selftest.c: the harness's checks fire.  Each case hands tfs_fuzz_check
 * (or a comparison) a result that breaks one invariant; the case runs in a
 * child process, which must die by SIGABRT with the harness's message.  A
 * check that cannot fire would make every fuzz target silently weaker.
 * ctest fuzz_selftest. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

static const uint8_t gguf_bytes[] = "GGUF\x03\0\0\0"
                                    "\0\0\0\0\0\0\0\0"
                                    "\0\0\0\0\0\0\0\0";
static const tfs_fuzz_in in = {gguf_bytes, 24, TFS_FORMAT_GGUF};

static void case_status(void) {
    tfs_error e = {.index = -1};
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, 0, TFS_ENOMEM, &e, NULL);
}
static void case_strict_rule(void) {
    tfs_error e = {.rule = TFS_GG501, .offset = 3, .index = 0, .message = "m"};
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, 0, TFS_INVALID, &e, NULL);
}
static void case_data_rule_header_only(void) {
    tfs_error e = {.rule = TFS_GG304, .offset = 3, .index = 0, .message = "m"};
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, TFS_HEADER_ONLY, TFS_INVALID, &e, NULL);
}
static void case_other_format(void) {
    tfs_error e = {.rule = TFS_ST001, .offset = 0, .index = -1, .message = "m"};
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, 0, TFS_INVALID, &e, NULL);
}
static void case_offset(void) {
    tfs_error e = {.rule = TFS_GG002, .offset = 25, .index = -1, .message = "m"};
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, 0, TFS_INVALID, &e, NULL);
}
static void case_index(void) {
    tfs_error e = {.rule = TFS_GG002, .offset = 0, .index = 2, .message = "m"};
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, 0, TFS_INVALID, &e, NULL);
}
static void case_tensor_outside(void) {
    tfs_header *h = NULL;
    tfs_error e;
    if (tfs_parse_buffer(in.p, in.n, in.format, 0, &h, &e) != TFS_OK) exit(3);
    static const uint64_t shape[1] = {8};
    tfs_tensor t = {.name = {"t", 1},
                    .type = 0,
                    .n_dims = 1,
                    .shape = shape,
                    .n_elements = 8,
                    .n_bytes = 32,
                    .offset = 0,
                    .file_offset = h->data_offset};
    h->n_tensors = 1;
    h->tensors = &t;
    tfs_fuzz_check(&in, TFS_FUZZ_BUFFER, 0, TFS_OK, &e, h);
}
static void case_profiles(void) {
    tfs_error ok = {.index = -1}, bad = {.rule = TFS_GG002, .index = -1, .message = "m"};
    tfs_fuzz_check_profiles(&in, TFS_OK, TFS_INVALID, &bad, TFS_INVALID, &bad);
    (void)ok;
}
static void case_same_error(void) {
    tfs_error a = {.rule = TFS_GG002, .offset = 0, .index = -1}, b = a;
    b.offset = 1;
    tfs_fuzz_same_error("selftest", TFS_INVALID, &a, TFS_INVALID, &b);
}

static const struct {
    const char *name;
    void (*fn)(void);
} cases[] = {
    {"status ENOMEM", case_status},
    {"strict rule without TFS_STRICT", case_strict_rule},
    {"data rule with TFS_HEADER_ONLY", case_data_rule_header_only},
    {"rule of the other format", case_other_format},
    {"offset past the input", case_offset},
    {"index for an index-less rule", case_index},
    {"accepted tensor outside the input", case_tensor_outside},
    {"strict OK, default invalid", case_profiles},
    {"two results differ", case_same_error},
};

int main(void) {
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) return 2;
        if (pid == 0) {
            /* the expected abort: its message goes to /dev/null */
            if (!freopen("/dev/null", "w", stderr)) _exit(4);
            cases[i].fn();
            _exit(0); /* the check did not fire */
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) return 2;
        int fired = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
        printf("%-40s %s\n", cases[i].name, fired ? "fires" : "DOES NOT FIRE");
        failed += !fired;
    }
    return failed ? 1 : 0;
}
