/*
 * fuzz.h: what every fuzz target of fuzz/ shares.
 *
 * A target is one C file defining LLVMFuzzerTestOneInput for one format; the
 * format comes from the compile definition TFS_FUZZ_FORMAT (tfs_format value,
 * set by tfs_add_fuzz_target in fuzz/TfsFuzz.cmake).  The same file is linked
 * with the replay main (fuzz/replay_main.c: ctest), with libFuzzer, with
 * libFuzzer plus the structure-aware mutator, and with AFL++'s driver.
 *
 * Invariants (the library's contract, include/tfs/tfs.h and rules.h) are
 * checked here; a violation prints "tfs-fuzz: invariant violated: ..." and
 * calls abort(), so every engine records it as a crash.  The library itself
 * never aborts: only the harness does.
 */
#ifndef TFS_FUZZ_H
#define TFS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/tfs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The libFuzzer entry point every target defines (also used by AFL++'s
 * driver and by the replay main). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "tfs-fuzz: invariant violated: <message>" and the input size to
 * stderr, then abort(). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn, format(printf, 1, 2)))
#endif
void tfs_fuzz_fail(const char *fmt, ...);

#define TFS_FUZZ_ASSERT(cond, ...)               \
    do {                                         \
        if (!(cond)) tfs_fuzz_fail(__VA_ARGS__); \
    } while (0)

/* The input under test. */
typedef struct tfs_fuzz_in {
    const uint8_t *p;
    size_t n;          /* bytes */
    tfs_format format; /* TFS_FUZZ_FORMAT */
} tfs_fuzz_in;

/* Which API produced a result (for messages and the statuses allowed). */
typedef enum tfs_fuzz_api {
    TFS_FUZZ_BUFFER = 0,        /* tfs_parse_buffer */
    TFS_FUZZ_RANDOM = 1,        /* tfs_parse_source, random-access reader, known size */
    TFS_FUZZ_STREAM = 2,        /* tfs_parse_source, forward-only, unknown size */
    TFS_FUZZ_FORWARD_SIZED = 3, /* tfs_parse_source, forward-only, known size */
} tfs_fuzz_api;

const char *tfs_fuzz_api_name(tfs_fuzz_api api);
const char *tfs_fuzz_flags_name(unsigned flags); /* "default", "strict", "header-only", ... */

/* Check one parse result against the library's invariants:
 *  - status is TFS_OK or TFS_INVALID (no ENOMEM on a fuzz-sized input, no
 *    EARG, no EIO from our readers, which never fail);
 *  - TFS_OK: error record cleared (rule NONE, index -1), a complete header of
 *    the right format, sizes consistent, tensors inside the input unless
 *    GGUF header-only, every KV value inside the input;
 *  - TFS_INVALID: a known rule of this format, allowed in the profile (STRICT
 *    rules only with TFS_STRICT, DATA rules only for GGUF without
 *    TFS_HEADER_ONLY, never RETIRED), offset within the input, index as the
 *    rule's index kind says; with TFS_PARTIAL, a partial header whose failing
 *    fields lie inside the input.
 * h may be NULL when the caller passed out = NULL.  Records the rule for the
 * replay main's rule report. */
void tfs_fuzz_check(const tfs_fuzz_in *in, tfs_fuzz_api api, unsigned flags, tfs_status st, const tfs_error *e,
                    const tfs_header *h);

/* Parse `in` with the buffer API and check the result (tfs_fuzz_check);
 * returns the status, *out as tfs_parse_buffer (out may be NULL). */
tfs_status tfs_fuzz_parse_buffer(const tfs_fuzz_in *in, unsigned flags, tfs_header **out, tfs_error *e);

/* strict OK => default OK => header-only OK (GGUF; safetensors ignores
 * TFS_HEADER_ONLY, so there the two verdicts must be identical). */
void tfs_fuzz_check_profiles(const tfs_fuzz_in *in, tfs_status strict, tfs_status def, const tfs_error *def_err,
                             tfs_status header_only, const tfs_error *ho_err);

/* Two parse results of the same bytes agree: status, rule, offset, index. */
void tfs_fuzz_same_error(const char *what, tfs_status sa, const tfs_error *a, tfs_status sb, const tfs_error *b);

/* Two views are equal field by field: header fields, every tensor, every KV
 * (key, types, count, value position) and, unless `values` is 0, every value
 * read through the accessors (the first `max_elems` elements of each array
 * and its last).  values == 2: b is a forward-only source's view, whose
 * accessors may say TFS_EIO where a's succeed (arrays, long strings). */
void tfs_fuzz_same_view(const char *what, const tfs_header *a, const tfs_header *b, int values, uint64_t max_elems);

/* Two partial headers (TFS_PARTIAL on TFS_INVALID) agree: counts and failing fields. */
void tfs_fuzz_same_partial(const char *what, const tfs_header *a, const tfs_header *b);

/* Read every KV value of h through the accessors (first `max_elems`
 * elements and the last of each array): each must succeed (TFS_OK), or, for
 * a forward-only source's arrays and long strings, TFS_EIO. */
void tfs_fuzz_read_values(const tfs_header *h, int forward, uint64_t max_elems);

/* A reader over memory for tfs_parse_source.  Each call returns at most
 * `window` bytes, and the window grows to 2 * window + grow after every call
 * (short reads while it is small, few calls over a long input);
 * forward-only readers check that
 * each call starts where the previous one ended.  A contract violation by the
 * library (len 0, a seek on a forward-only source) is an invariant
 * violation. */
typedef struct tfs_fuzz_reader {
    const uint8_t *p;
    size_t n;
    size_t window; /* bytes the next call may return */
    size_t grow;   /* window = 2 * window + grow after each call */
    int forward;
    uint64_t next; /* forward: where the next call must start */
    uint64_t calls;
} tfs_fuzz_reader;

/* A source over `r` (set up by the caller): random access with the size
 * known, or forward-only with the size known or unknown. */
tfs_source tfs_fuzz_source(tfs_fuzz_reader *r, tfs_fuzz_api api);

/* Variants.  A target has `count` variants (profiles, sources, reader
 * window sizes); under a fuzzing engine one input runs the variant its last
 * byte selects (the harness settings come from the tail, the parsed bytes
 * are still the whole input), so each run costs a couple of parses; the
 * replay main (ctest) sets tfs_fuzz_thorough and every input runs every
 * variant.  Loop:  for (unsigned v = tfs_fuzz_first(..); v < tfs_fuzz_end(..); v++) */
extern int tfs_fuzz_thorough;
unsigned tfs_fuzz_tail(const uint8_t *data, size_t size); /* last byte, 0 for an empty input */
unsigned tfs_fuzz_first(unsigned count, const uint8_t *data, size_t size);
unsigned tfs_fuzz_end(unsigned count, const uint8_t *data, size_t size);

/* Rule report for the replay main: how often each rule was reported (by any
 * profile) since the start.  tfs_fuzz_rule_seen() is called by tfs_fuzz_check. */
void tfs_fuzz_rule_seen(tfs_rule rule);
uint64_t tfs_fuzz_rule_count(tfs_rule rule);

#ifdef __cplusplus
}
#endif
#endif /* TFS_FUZZ_H */
