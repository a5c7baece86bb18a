/* wt_expect.c: see wt_expect.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "wt_expect.h"
#include "wt_util.h"

void wt_expect(tfs_wbuf *w, tfs_format fmt, unsigned flags, tfs_rule rule, int kind, int32_t record, int64_t index) {
    wt_file f;
    assert_int_equal(wt_parse(w, fmt, flags, &f), 0);
    if (rule == TFS_RULE_NONE) {
        if (f.st != TFS_OK) fail_msg("%s at %llu", tfs_rule_id(f.e.rule), (unsigned long long)f.e.offset);
    } else {
        if (f.st != TFS_INVALID || f.e.rule != rule)
            fail_msg("want %s, got %s %s at %llu", tfs_rule_id(rule), tfs_status_name(f.st), tfs_rule_id(f.e.rule),
                     (unsigned long long)f.e.offset);
        if (index >= -1) assert_int_equal(f.e.index, index);
        if (kind >= 0) {
            const tfs_field *x = tfs_wbuf_find(w, (uint32_t)kind, record, 0);
            assert_non_null(x);
            assert_int_equal(f.e.offset, x->offset);
        }
    }
    wt_file_free(&f);
    tfs_wbuf_free(w);
}
