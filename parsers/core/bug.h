/*
 * bug.h: planted bugs of the fuzzing benchmark (bench/fuzz/, cmake -DTFS_BUG=<id>,
 * docs/fuzzing-benchmark.md).  Included by internal.h.
 *
 * A planted bug sits at the check the real fix added (bench/fuzz/bugs.tsv
 * names the buglog row and the rule).  Each site asks one of:
 *
 *   TFS_BUG_CHECK(id, fixed, buggy)   an expression: the check as it is
 *       (`fixed`, the condition the fix rejects) and as the buggy reader
 *       had it (`buggy`; `false` for a missing check).  With bug `id`
 *       planted, its canary records that the site was REACHED and, when
 *       fixed && !buggy (the bug lets through what the fix rejects), that it
 *       was TRIGGERED; then the value is `buggy`.
 *   TFS_BUG_CANARY(id, reached, triggered)   a statement, where the bug is
 *       not one condition (the check then stays as it is: the canary has
 *       already stopped the input it would have let through).
 *
 * Triggering aborts the process with "tfs-bug: TFS_BUG=<id> triggered ..."
 * on stderr, so every fuzzer records it as a crash (with TFS_BUG_NOABORT set
 * it only counts, and the input goes on as the fixed code would take it); TFS_BUG_STATS=1 prints the reached / triggered
 * counts at exit (bench/fuzz/canary.c).
 *
 * Normal builds (TFS_BUG undefined): TFS_BUG_CHECK(id, fixed, buggy) is
 * (fixed) and TFS_BUG_CANARY is nothing; `buggy` and the canary arguments are
 * not compiled at all: no code and no cost.
 */
#ifndef TFS_BUG_H
#define TFS_BUG_H

#ifdef TFS_BUG
#include <stdbool.h>

#include "tfs_bug_ids.h" /* generated: TFS_BUG_ID_<id>, TFS_BUG_NAME, ... */

/* Canary (bench/fuzz/canary.c): counts a reach; a trigger aborts. */
bool tfs__bug_reach(bool triggered);

#define TFS_BUG_ON(id) (TFS_BUG == TFS_BUG_ID_##id)
#define TFS_BUG_CHECK(id, fixed, buggy) (TFS_BUG_ON(id) ? tfs__bug_check_((fixed), (buggy)) : (fixed))
#define TFS_BUG_CANARY(id, reached, triggered)                              \
    do {                                                                    \
        if (TFS_BUG_ON(id) && (reached)) (void)tfs__bug_reach((triggered)); \
    } while (0)

/* Counting mode (TFS_BUG_NOABORT): a triggering input takes the fixed path,
 * so that counting never runs into the bug itself. */
static inline bool tfs__bug_check_(bool fixed, bool buggy) { return tfs__bug_reach(fixed && !buggy) ? fixed : buggy; }
#else
#define TFS_BUG_CHECK(id, fixed, buggy) (fixed)
#define TFS_BUG_CANARY(id, reached, triggered) ((void)0)
#endif

#endif /* TFS_BUG_H */
