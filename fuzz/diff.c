/* diff.c: differential fuzz target, one format: the buffer API versus the
 * byte source (random access, a forward-only stream of unknown size, a
 * forward-only reader of known size), in every profile (default, strict,
 * header-only, strict + header-only), compared field by field: status, rule,
 * offset, index; on TFS_OK the whole view (values too; a stream may say
 * TFS_EIO for arrays and long strings, never give another value); on
 * TFS_INVALID the TFS_PARTIAL views (counts and failing fields).  The
 * reads' window sizes come from the input's last byte. */
#include <stdio.h>

#include "fuzz.h"

static void compare(const tfs_fuzz_in *in, unsigned flags, tfs_fuzz_api api, size_t window, size_t grow,
                    tfs_status s0, const tfs_error *e0, const tfs_header *h0) {
    char what[96];
    snprintf(what, sizeof what, "%s %s vs buffer", tfs_fuzz_api_name(api), tfs_fuzz_flags_name(flags));
    tfs_fuzz_reader r = {.p = in->p, .n = in->n, .window = window, .grow = grow};
    tfs_source src = tfs_fuzz_source(&r, api);
    tfs_header *h = NULL;
    tfs_error e;
    tfs_status st = tfs_parse_source(&src, NULL, in->format, flags, &h, &e);
    tfs_fuzz_check(in, api, flags, st, &e, h);
    tfs_fuzz_same_error(what, s0, e0, st, &e);
    if (st == TFS_OK) {
        tfs_header view = *h;
        /* a stream read header-only may stop before its end: size unknown */
        if (api == TFS_FUZZ_STREAM && view.file_size == 0) view.file_size = h0->file_size;
        tfs_fuzz_same_view(what, h0, &view, api == TFS_FUZZ_RANDOM ? 1 : 2, 8);
    }
    tfs_header_free(h);
    if (st == TFS_INVALID) {
        tfs_header *pa = NULL, *pb = NULL;
        tfs_error ea, eb;
        r = (tfs_fuzz_reader){.p = in->p, .n = in->n, .window = window, .grow = grow};
        src = tfs_fuzz_source(&r, api);
        tfs_status sa = tfs_fuzz_parse_buffer(in, flags | TFS_PARTIAL, &pa, &ea);
        tfs_status sb = tfs_parse_source(&src, NULL, in->format, flags | TFS_PARTIAL, &pb, &eb);
        tfs_fuzz_check(in, api, flags | TFS_PARTIAL, sb, &eb, pb);
        tfs_fuzz_same_error(what, sa, &ea, sb, &eb);
        tfs_fuzz_same_error("partial vs not", s0, e0, sa, &ea);
        tfs_fuzz_same_partial(what, pa, pb);
        tfs_header_free(pa);
        tfs_header_free(pb);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const tfs_fuzz_in in = {data, size, TFS_FUZZ_FORMAT};
    static const unsigned profiles[] = {0, TFS_STRICT, TFS_HEADER_ONLY, TFS_STRICT | TFS_HEADER_ONLY};
    unsigned tail = size ? data[size - 1] : 0;
    size_t window = 1 + (tail & 15u), grow = tail >> 4;
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        unsigned flags = profiles[i];
        tfs_header *h0 = NULL;
        tfs_error e0;
        tfs_status s0 = tfs_fuzz_parse_buffer(&in, flags, &h0, &e0);
        compare(&in, flags, TFS_FUZZ_RANDOM, window, grow, s0, &e0, h0);
        compare(&in, flags, TFS_FUZZ_STREAM, window, grow + 1, s0, &e0, h0);
        compare(&in, flags, TFS_FUZZ_FORWARD_SIZED, 4096, 0, s0, &e0, h0);
        tfs_header_free(h0);
    }
    return 0;
}
