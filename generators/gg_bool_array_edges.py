"""gg_bool_array_edges.py: GGUF fixtures with one bad bool (2) late in a long bool array (strict
GG501; issue 38, held-back slip a3 of maint/slips/2026-12-06: a scan of the first 4096 bytes
only).  Called by gg_fixtures.py with its add().

The strict reader scans a bool array's body in 64 KiB read windows (TFS_WINDOW) from the body's
first byte; the bad byte is placed at element 4096 (the first past a 4 KiB prefix), at elements
65535 and 65536 (the last of the first window, the first of the second), as the last element, and
at element 65481, file offset 65536 (the body starts at byte 55: a window counted from the file's
start).
Every other element is 0 or 1 (alternating in runs, so no scan can stop early by chance).  The
lines are strict (implementation_defined like every GG501 line: ggml takes any byte as a bool).

Two bad bytes in one array (2 at element 1, 3 at element 5; and 2 at element 65535, the last of the
first window, 3 at element 65536): GG501 names the first, so a scan that goes on past it and keeps
the last one it met shows (maint/mutants `parsers/gguf/read.c` `10e0fa08#0:stmt~1`).
"""
from tfsgen.gguf import enc_header as header, enc_kv_array as kv_arr

BOOL = 7
HDR = 24  # magic, version, n_tensors, n_kv
KEY = "k.flags"

# (elements, index of the element 2)
CASES = ((4097, 4096), (8192, 4096), (65537, 65535), (65537, 65536), (65537, 65536 - 55))
# (elements, index of the element 2, index of a later element 3)
TWO = ((8, 1, 5), (65537, 65535, 65536))


def body(n, bad, later=None):
    b = bytearray((i // 3) & 1 for i in range(n))
    b[bad] = 2
    if later is not None:
        b[later] = 3
    return bytes(b)


def build(add):
    at = HDR + 8 + len(KEY) + 4 + 4 + 8  # key, value type, element type, count
    for n, bad in CASES:
        last = "-last" if bad == n - 1 else ""
        add("GG501-bool-array-%d-bad-%d%s" % (n, bad, last), header(0, 1) + kv_arr(KEY, BOOL, n, body(n, bad)),
            "bool array of %d elements, all 0 or 1 but element %d (%s) = 2" %
            (n, bad, "the last" if last else "not the last"), "GG501", expect="implementation_defined",
            mode="strict", offset=at + bad, index=0)
    for n, bad, later in TWO:
        add("GG501-bool-array-%d-bad-%d-and-%d" % (n, bad, later),
            header(0, 1) + kv_arr(KEY, BOOL, n, body(n, bad, later)),
            "bool array of %d elements, all 0 or 1 but element %d = 2 and element %d = 3: GG501 at the first"
            % (n, bad, later), "GG501", expect="implementation_defined", mode="strict", offset=at + bad, index=0)
