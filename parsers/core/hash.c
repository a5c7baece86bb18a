/* hash.c: the keyed string hash behind both parsers' duplicate detection
 * (safetensors tensor names and __metadata__ keys, GGUF keys and tensor
 * names).  Each parse draws its own seed, so a file cannot be crafted to make
 * every name land in one chain of the open-addressing tables (which would
 * turn duplicate detection quadratic).  Verdicts never depend on the seed.
 * The seed comes from posix_seed.c (getrandom) or, in TFS_POSIX=OFF builds,
 * from the application's tfs_platform_hash_seed. */
#include "internal.h"

#ifdef TFS_NO_POSIX
#include "tfs/platform.h"

/* Without POSIX the application supplies the seed (tfs/platform.h); POSIX
 * builds take tfs__hash_seed from posix_seed.c (getrandom). */
uint64_t tfs__hash_seed(void) { return tfs_platform_hash_seed(); }
#endif

uint64_t tfs__hash_bytes(uint64_t seed, const uint8_t *p, size_t n) {
    const uint64_t m = UINT64_C(0x9E3779B97F4A7C15);
    uint64_t h = (seed ^ (uint64_t)n) * m;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8); /* byte order is irrelevant for a hash */
        h = (h ^ w) * m;
        h ^= h >> 29;
    }
    uint64_t t = 0;
    for (size_t k = 0; i + k < n; k++) t |= (uint64_t)p[i + k] << (8 * k);
    h = (h ^ t ^ seed) * m;
    h ^= h >> 32;
    return h;
}

/* The same hash over bytes that arrive in pieces (a key longer than the
 * window): tfs__hash_final gives tfs__hash_bytes of the concatenation. */
static inline uint64_t mix(uint64_t h, uint64_t w) {
    h = (h ^ w) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 29);
}

void tfs__hash_init(tfs_hash_state *s, uint64_t seed, uint64_t total_len) {
    s->seed = seed;
    s->h = (seed ^ total_len) * UINT64_C(0x9E3779B97F4A7C15);
    s->n_buf = 0;
}

void tfs__hash_update(tfs_hash_state *s, const uint8_t *p, size_t n) {
    while (s->n_buf > 0 && s->n_buf < 8u && n > 0) {
        s->buf[s->n_buf++] = *p++;
        n--;
        if (s->n_buf == 8) {
            uint64_t w;
            memcpy(&w, s->buf, 8);
            s->h = mix(s->h, w);
            s->n_buf = 0;
        }
    }
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        s->h = mix(s->h, w);
    }
    memcpy(s->buf + s->n_buf, p, n);
    s->n_buf += (unsigned)n;
}

uint64_t tfs__hash_final(const tfs_hash_state *s) {
    uint64_t t = 0;
    for (unsigned k = 0; k < s->n_buf; k++) t |= (uint64_t)s->buf[k] << (8 * k);
    uint64_t h = (s->h ^ t ^ s->seed) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 32);
}
