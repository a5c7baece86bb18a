/* jsonout.h: the few JSON writers of the rerun C/C++ adapters (kept apart
 * from ../c/tfs_adapter.h, the first adapters' helper).  Control bytes are
 * escaped; other bytes are written as they are. */
#ifndef RERUN_JSONOUT_H
#define RERUN_JSONOUT_H
#include <stdio.h>
#include <string.h>

static inline void jo_str(const char *s, size_t n) {
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* {"reader":R,"message":M}, exit 1 */
static inline int jo_reject(const char *reader, const char *msg) {
    fputs("{\"reader\":", stdout);
    jo_str(reader, strlen(reader));
    fputs(",\"message\":", stdout);
    jo_str(msg ? msg : "", msg ? strlen(msg) : 0);
    fputs("}\n", stdout);
    fflush(stdout);
    return 1;
}
#endif
