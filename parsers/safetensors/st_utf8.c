/* st_utf8.c: UTF-8 validation with Rust's core::str::from_utf8 rules (rule
 * ST101): shortest-form sequences only, no encoded surrogates (U+D800..DFFF),
 * nothing above U+10FFFF.  ASCII runs are skipped eight bytes at a time. */
#include "st_internal.h"

static inline uint64_t load8(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8); /* byte order does not matter for the high-bit test */
    return w;
}

static inline bool cont(uint8_t b) { return (b & 0xC0u) == 0x80u; }

size_t st_utf8_check(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        while (i + 8 <= n && (load8(p + i) & 0x8080808080808080ull) == 0) i += 8;
        if (i >= n) break;
        uint8_t b = p[i];
        if (b < 0x80u) { i++; continue; }
        if (b < 0xC2u) return i; /* stray continuation, or overlong C0/C1 */
        if (b < 0xE0u) {
            if (i + 1 >= n || !cont(p[i + 1])) return i;
            i += 2;
            continue;
        }
        if (b < 0xF0u) {
            if (i + 1 >= n) return i;
            uint8_t b1 = p[i + 1];
            uint8_t lo = b == 0xE0u ? 0xA0u : 0x80u;  /* E0 80..9F: overlong */
            uint8_t hi = b == 0xEDu ? 0x9Fu : 0xBFu;  /* ED A0..BF: surrogates */
            if (b1 < lo || b1 > hi) return i;
            if (i + 2 >= n || !cont(p[i + 2])) return i;
            i += 3;
            continue;
        }
        if (b < 0xF5u) {
            if (i + 1 >= n) return i;
            uint8_t b1 = p[i + 1];
            uint8_t lo = b == 0xF0u ? 0x90u : 0x80u;  /* F0 80..8F: overlong */
            uint8_t hi = b == 0xF4u ? 0x8Fu : 0xBFu;  /* F4 90+: above U+10FFFF */
            if (b1 < lo || b1 > hi) return i;
            if (i + 2 >= n || !cont(p[i + 2])) return i;
            if (i + 3 >= n || !cont(p[i + 3])) return i;
            i += 4;
            continue;
        }
        return i; /* F5..FF never appear in UTF-8 */
    }
    return n;
}
