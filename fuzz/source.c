/* source.c: fuzz target over the byte source (tfs_parse_source), one format,
 * with no temporary files: a reader over the input whose reads are short and
 * grow (1 byte, then a few more each call), random access with the size
 * known, and forward-only (a stream of unknown size; a forward reader of
 * known size).  The reader checks the source contract (never len 0, never a
 * seek on a forward-only source); every result is checked against the
 * invariants, and the views' values are read back (a stream's arrays may say
 * TFS_EIO).  The window's growth comes from the input's last byte, so the
 * fuzzer explores read boundaries; the parsed bytes are the whole input. */
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
    unsigned tail = size ? data[size - 1] : 0;
    size_t start = 1 + (tail & 7u), grow = 1 + (tail >> 3);
    run(&in, TFS_FUZZ_RANDOM, 0, start, grow);
    run(&in, TFS_FUZZ_STREAM, 0, start, grow);
    run(&in, TFS_FUZZ_STREAM, TFS_HEADER_ONLY | TFS_PARTIAL, 1, 1);
    run(&in, TFS_FUZZ_FORWARD_SIZED, TFS_STRICT | TFS_PARTIAL, 1 + (tail >> 4), 2);
    return 0;
}
