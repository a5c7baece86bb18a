/* utf8.c: the one UTF-8 validator of libtfs, with Rust's
 * core::str::from_utf8 rules (shortest form only, no encoded surrogates
 * U+D800..DFFF, nothing above U+10FFFF): safetensors ST101, GGUF strict
 * GG504, GG507, GG508, the writer's \u escapes and the CLI's JSON output all use it.
 * ASCII runs are skipped sixteen bytes at a time. */
#include "internal.h"

static inline uint64_t load8(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8); /* byte order does not matter for the high-bit test */
    return w;
}

static inline bool cont(uint8_t b) { return (b & 0xC0u) == 0x80u; }

size_t tfs_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp) {
    uint32_t dummy;
    if (!cp) cp = &dummy;
    if (n == 0) return 0;
    uint8_t b = p[0];
    if (b < 0x80u) {
        *cp = b;
        return 1;
    }
    if (b < 0xC2u) return 0; /* stray continuation, or overlong C0/C1 */
    if (b < 0xE0u) {
        if (n < 2 || !cont(p[1])) return 0;
        *cp = ((uint32_t)(b & 0x1Fu) << 6) | (p[1] & 0x3Fu);
        return 2;
    }
    if (b < 0xF0u) {
        uint8_t lo = b == 0xE0u ? 0xA0u : 0x80u; /* E0 80..9F: overlong */
        uint8_t hi = b == 0xEDu ? 0x9Fu : 0xBFu; /* ED A0..BF: surrogates */
        if (n < 3 || p[1] < lo || p[1] > hi || !cont(p[2])) return 0;
        *cp = ((uint32_t)(b & 0x0Fu) << 12) | ((uint32_t)(p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        return 3;
    }
    if (b < 0xF5u) {
        uint8_t lo = b == 0xF0u ? 0x90u : 0x80u; /* F0 80..8F: overlong */
        uint8_t hi = b == 0xF4u ? 0x8Fu : 0xBFu; /* F4 90+: above U+10FFFF */
        if (n < 4 || p[1] < lo || p[1] > hi || !cont(p[2]) || !cont(p[3])) return 0;
        *cp = ((uint32_t)(b & 0x07u) << 18) | ((uint32_t)(p[1] & 0x3Fu) << 12) | ((uint32_t)(p[2] & 0x3Fu) << 6) |
              (p[3] & 0x3Fu);
        return 4;
    }
    return 0; /* F5..FF never appear in UTF-8 */
}

size_t tfs_utf8_valid_up_to(const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        while (i + 16 <= n && ((load8(p + i) | load8(p + i + 8)) & 0x8080808080808080ull) == 0) i += 16;
        while (i + 8 <= n && (load8(p + i) & 0x8080808080808080ull) == 0) i += 8;
        if (i >= n) break;
        if (p[i] < 0x80u) {
            i++;
            continue;
        }
        size_t k = tfs_utf8_decode(p + i, n - i, NULL);
        if (k == 0) return i;
        i += k;
    }
    return n;
}
