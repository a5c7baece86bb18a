/*
 * platform.h: what an application supplies to a libtfs built without POSIX
 * (CMake -DTFS_POSIX=OFF, which defines TFS_NO_POSIX): freestanding and
 * WebAssembly targets.
 *
 * Such a build has no file API (tfs_parse_file, tfs_parse_fd) and never
 * calls open, pread, fstat, getrandom or clock_gettime.  It needs one thing
 * from the application, resolved at link time: the function below.  A
 * default (POSIX) build ignores this header: there the library derives its
 * per-parse seeds from one getrandom call per process (a counter through a
 * 64-bit mixing function; parsers/core/posix_seed.c, pthread_once) and does
 * not call or define tfs_platform_hash_seed.
 */
#ifndef TFS_PLATFORM_H
#define TFS_PLATFORM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Defined BY THE APPLICATION in TFS_POSIX=OFF builds (a link error
 * "undefined reference to tfs_platform_hash_seed" says it is missing).
 *
 * Returns 64 bits that seed the keyed hash of one parse: libtfs calls it
 * once per tfs_parse_* call that builds a name table (duplicate detection of
 * safetensors tensor names and __metadata__ keys, GGUF keys and tensor
 * names), possibly from several threads at once, so it must be thread-safe.
 * Verdicts, offsets and views never depend on the value.  An unpredictable
 * value (a CSPRNG: crypto.getRandomValues in a browser, getentropy, a
 * hardware RNG) keeps an attacker from crafting names that all land in one
 * hash chain, which would make duplicate detection quadratic in the number
 * of names; a constant is correct but gives up that protection.
 *
 * Not declared TFS_API: the library imports it, it never exports it. */
uint64_t tfs_platform_hash_seed(void);

#ifdef __cplusplus
}
#endif
#endif /* TFS_PLATFORM_H */
