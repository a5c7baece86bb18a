/* canary.c: the Magma-style canary of the one planted bug of a TFS_BUG build
 * (parsers/core/bug.h; compiled into the bug's format's parser only, by
 * bench/fuzz/TfsBug.cmake).
 *
 * tfs__bug_reach counts every time an input reaches the buggy code and every
 * time it triggers the bug (the condition the real fix rejects).  A trigger
 * prints
 *     tfs-bug: TFS_BUG=<id> triggered (buglog <row>, rule <rule>): <trigger>
 * to stderr and aborts, so that libFuzzer and AFL++ record a crash; with the
 * environment variable TFS_BUG_NOABORT set it only counts and returns true
 * (TFS_BUG_CHECK then takes the fixed path).  With
 * TFS_BUG_STATS set, the process prints at exit
 *     tfs-bug: TFS_BUG=<id> reached <n> triggered <m>
 * (bench/fuzz/run.sh reads both lines). */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#ifndef TFS_BUG
#error "canary.c is compiled only into TFS_BUG builds (bench/fuzz/TfsBug.cmake)"
#endif

static unsigned long long g_reached, g_triggered;
static int g_mode = -1; /* -1 unknown; bit 0: no abort; bit 1: stats at exit */

static void report(void) {
    fprintf(stderr, "tfs-bug: TFS_BUG=%s reached %llu triggered %llu\n", TFS_BUG_NAME, g_reached, g_triggered);
}

static int mode(void) {
    if (g_mode < 0) {
        g_mode = (getenv("TFS_BUG_NOABORT") ? 1 : 0) | (getenv("TFS_BUG_STATS") ? 2 : 0);
        if (g_mode & 2) atexit(report);
    }
    return g_mode;
}

/* at load: the stats line is printed even when no input reached the bug */
__attribute__((constructor)) static void tfs__bug_init(void) { (void)mode(); }

bool tfs__bug_reach(bool triggered) {
    int m = mode();
    g_reached++;
    if (!triggered) return false;
    g_triggered++;
    fprintf(stderr, "tfs-bug: TFS_BUG=%s triggered (buglog %s, rule %s): %s\n", TFS_BUG_NAME, TFS_BUG_BUGLOG,
            TFS_BUG_RULE, TFS_BUG_TRIGGER);
    if (!(m & 1)) abort();
    return true;
}
