/* source.c: fuzz target over the byte source (tfs_parse_source), one format,
 * with no temporary files: a reader over the input whose reads are short and
 * grow (a few bytes, then twice as many each call).  The reader checks the source
 * contract (never len 0, never a seek on a forward-only source); every
 * result is checked against the invariants, and the view's values are read
 * back (a stream's arrays and long strings may say TFS_EIO).  Variants
 * (fuzz.h; the replay runs all), the window sizes also from the last byte:
 *   0  random access, size known, default profile
 *   1  forward-only stream of unknown size, default profile
 *   2  stream, header-only + partial
 *   3  forward-only of known size, strict + partial */
#include "fuzz.h"

static void run(const tfs_fuzz_in *in, tfs_fuzz_api api, unsigned flags, size_t window, size_t grow) {
    tfs_fuzz_reader r = {.p = in->p, .n = in->n, .window = window, .grow = grow};
    tfs_source src = tfs_fuzz_source(&r, api);
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_source(&src, NULL, in->format, flags, &h, &e);
    tfs_fuzz_check(in, api, flags, st, &e, h);
    if (st == TFS_OK) tfs_fuzz_read_values(h, api != TFS_FUZZ_RANDOM, 8);
    tfs_header_free(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    unsigned tail = tfs_fuzz_tail(data, size);
    size_t start = 1 + ((tail >> 2) & 7u), grow = tail >> 5;
    for (unsigned v = tfs_fuzz_first(4, data, size); v < tfs_fuzz_end(4, data, size); v++) {
        switch (v) {
        case 0: run(&in, TFS_FUZZ_RANDOM, 0, start, grow); break;
        case 1: run(&in, TFS_FUZZ_STREAM, 0, start, grow); break;
        case 2: run(&in, TFS_FUZZ_STREAM, TFS_HEADER_ONLY | TFS_PARTIAL, 1, 1); break;
        default: run(&in, TFS_FUZZ_FORWARD_SIZED, TFS_STRICT | TFS_PARTIAL, start, 2); break;
        }
    }
    return 0;
}
