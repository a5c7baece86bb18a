/* shard_name.c: the one normal form of a shard name an index gives (a
 * weight_map value), used wherever the set code compares such names with
 * each other or with a folder's entries (set_st.c, set.c).
 *
 * transformers and huggingface_hub open os.path.join(folder, value); the
 * kernel then resolves "." components and repeated "/" without looking at
 * the file system, so "./s1.safetensors", ".//s1.safetensors" and
 * "s1.safetensors" are one file.  The normal form drops them lexically.
 * What it does not do:
 *  - ".." is never resolved: "sub/../s1" depends on sub being a folder (and
 *    on symlinks), and "../x" leaves the folder.  A name with a ".."
 *    component, and an absolute name, is SHARD_OUTSIDE (SET001, not opened).
 *  - a trailing "/" (or "/." at the end) is kept: "s1.safetensors/" names
 *    a folder, and open fails (ENOTDIR) for tfs as for the loader.
 *  - an empty name, one with a NUL byte (Python's open refuses it), and a
 *    name that is only "." components (the folder itself) are
 *    SHARD_NOT_FILE (SET001). */
#include "lint_internal.h"

#include <stdlib.h>
#include <string.h>

shard_name_kind tfs__lint_shard_name(const char *s, size_t len, char **out) {
    *out = NULL;
    if (len == 0 || memchr(s, '\0', len)) return SHARD_NOT_FILE;
    if (s[0] == '/') return SHARD_OUTSIDE;
    char *p = malloc(len + 1u); /* the normal form is never longer */
    if (!p) return SHARD_NOMEM;
    size_t o = 0;
    int dir = 0; /* the last component was empty or "." */
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && s[j] != '/') j++;
        size_t n = j - i;
        if (n == 2 && s[i] == '.' && s[i + 1] == '.') {
            free(p);
            return SHARD_OUTSIDE;
        }
        dir = n == 0 || (n == 1 && s[i] == '.');
        if (!dir) {
            if (o) p[o++] = '/';
            memcpy(p + o, s + i, n);
            o += n;
        }
        i = j + 1u;
    }
    if (s[len - 1] == '/') dir = 1; /* "a/": the loop never sees the empty last component */
    if (o == 0) {
        free(p);
        return SHARD_NOT_FILE;
    }
    if (dir) p[o++] = '/';
    p[o] = '\0';
    *out = p;
    return SHARD_OK;
}
