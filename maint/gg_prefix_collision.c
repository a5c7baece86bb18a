/* gg_prefix_collision.c: finds the 8-byte tail that test_gg_collide's
 * test_valid_long_key_then_its_prefix hard-codes (its keys could not be
 * searched for in the test itself: a match needs ~2^32 tries, not a
 * birthday search).
 *
 * Key B is PLEN bytes of the test's prefix pattern then W1 (PLEN + 8 bytes,
 * longer than TFS_KEY_KEEP); key A is B then 8 more bytes T.  It prints the
 * first T over the alphabet [A-Za-z0-9._] (8 characters, counting up) whose
 * A hashes (tfs__hash_bytes, the test's fixed SEED) to the same low 32 bits
 * as B, with different full 64-bit hashes.
 *
 *   cc -O2 -I include -I build/dev/include -I parsers/core maint/gg_prefix_collision.c parsers/core/hash.c -o /tmp/gpc && /tmp/gpc
 *
 * Exit 0 with the tail on stdout, 1 if none was found below 2^40 tries. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED UINT64_C(0x5EED5EED12345678) /* test_gg_collide.c's */
#define PLEN (TFS_KEY_KEEP + 8u)
static const char W1[9] = "tail.key";
static const char ALPHA[65] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._";

int main(void) {
    static uint8_t a[PLEN + 16u];
    for (size_t j = 0; j < PLEN; j++) a[j] = (uint8_t)('a' + (j * 7u + j / 251u) % 26u);
    memcpy(a + PLEN, W1, 8);
    uint64_t hb = tfs__hash_bytes(SEED, a, PLEN + 8u);
    tfs_hash_state s;
    tfs__hash_init(&s, SEED, PLEN + 16u);
    tfs__hash_update(&s, a, PLEN + 8u);
    for (uint64_t i = 0; i < (UINT64_C(1) << 40); i++) {
        uint8_t t[8];
        for (int k = 0; k < 8; k++) t[k] = (uint8_t)ALPHA[(i >> (6 * k)) & 63u];
        tfs_hash_state s2 = s;
        tfs__hash_update(&s2, t, 8);
        uint64_t ha = tfs__hash_final(&s2);
        if ((uint32_t)ha == (uint32_t)hb && ha != hb) {
            memcpy(a + PLEN + 8u, t, 8);
            if (tfs__hash_bytes(SEED, a, PLEN + 16u) != ha) return 2; /* the streaming hash disagrees */
            printf("%.8s\n", (const char *)t);
            return 0;
        }
    }
    return 1;
}
