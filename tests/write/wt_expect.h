/* wt_expect.h: cmocka checks shared by the writer tests of both formats
 * (include after <cmocka.h>). */
#ifndef TFS_WT_EXPECT_H
#define TFS_WT_EXPECT_H

#include "tfs/write.h"

/* Parse what w holds as `fmt` with `flags`, assert the outcome, then free w.
 * rule TFS_RULE_NONE: the file is valid.  Otherwise: that rule; the error
 * index when index >= -1 (index < -1: not checked); and when kind >= 0, the
 * error offset is the offset of field (kind, record, sub 0) of w's map. */
void wt_expect(tfs_wbuf *w, tfs_format fmt, unsigned flags, tfs_rule rule, int kind, int32_t record, int64_t index);

#endif
