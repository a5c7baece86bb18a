/* diff.c: differential fuzz target, one format: the buffer API versus the
 * byte source (random access, a forward-only stream of unknown size, a
 * forward-only reader of known size), in every profile (default, strict,
 * header-only, strict + header-only), compared field by field: status, rule,
 * offset, index; on TFS_OK the whole view (values too; a stream may say
 * TFS_EIO for arrays and long strings, never give another value); on
 * TFS_INVALID the TFS_PARTIAL views (counts and failing fields).
 * Variants (fuzz.h; the replay runs all): 4 profiles x 3 sources x
 * (without, with the TFS_PARTIAL comparison); the reads' window sizes also
 * come from the input's last byte. */
#include <stdio.h>

#include "fuzz.h"

static void compare(const tfs_fuzz_in *in, unsigned flags, tfs_fuzz_api api, size_t window, size_t grow, int partial,
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
    if (st == TFS_INVALID && partial) {
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
    static const tfs_fuzz_api apis[] = {TFS_FUZZ_RANDOM, TFS_FUZZ_STREAM, TFS_FUZZ_FORWARD_SIZED};
    unsigned tail = tfs_fuzz_tail(data, size);
    size_t window = 1 + (tail >> 5), grow = (tail >> 3) & 3u;
    for (unsigned v = tfs_fuzz_first(24, data, size); v < tfs_fuzz_end(24, data, size); v++) {
        unsigned flags = profiles[v % 4];
        tfs_fuzz_api api = apis[(v / 4) % 3];
        int partial = v >= 12;
        tfs_header *h0 = NULL;
        tfs_error e0;
        tfs_status s0 = tfs_fuzz_parse_buffer(&in, flags, &h0, &e0);
        compare(&in, flags, api, window, grow, partial, s0, &e0, h0);
        tfs_header_free(h0);
    }
    return 0;
}
