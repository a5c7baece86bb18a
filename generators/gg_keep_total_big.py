#!/usr/bin/python3
"""gg_keep_total_big.py: writes GGUF fixtures too large for the corpus (two of about 67 MB; with --huge
two more of 1 GiB) and their MANIFEST.tsv into DIR, for `tfs conform --fixtures DIR` (docs/fixtures.md,
"Gaps").

    generators/gg_keep_total_big.py [--huge] DIR

A forward-only stream keeps of each array its first 64 KiB of whole elements (TFS_ARRAY_KEEP), a string
element counting its 8-byte length field, at most 64 MiB for all arrays together (GG_ARR_KEEP_TOTAL,
parsers/gguf/gg.h).  Both files start with a u8 array of 1 element (1 byte kept, so the total is odd)
and 1,023 u64 arrays of 8,192 elements (64 KiB each), which leave 65,535 bytes of that room; then:

- valid-stream-keep-total-rounded-to-whole-elements: one more u64 array of 8,192, of which the stream
  keeps 8,191 whole elements (65,528 bytes) and `tfs conform`'s stream path wants io_error for element
  8,191; then a u8 array of 16, of which the 7 bytes left are kept.  A reader that adds the remainder of
  the room modulo the element size instead of taking it off (maint/mutants
  `parsers/gguf/kv.c@1475d158#0:aor`) fails it.
- valid-stream-keep-total-string-elements: a string array of one element of 65,528 bytes (8 + 65,528 =
  65,536, one byte more than the room: not kept), then a string array of two elements of 100 and 65,419
  bytes (108 + 65,427 = 65,535: kept, ending exactly at 64 MiB), then a u8 array of 16 (nothing left:
  none kept).  A reader whose string test or running total is one byte off either way fails it (maint/
  mutants `kv.c` `98ee6e88#0`, `98ee6e88#1`, `ca1d3e1b#0`, `ca1d3e1b#1`), as does one that does not cap
  an array by the room left (`3d8ed8f2#0`, `78559d05#2`).

With --huge: the limits of 2^30 (GGUF_MAX_ARRAY_ELEMENTS, GGUF_MAX_STRING_LENGTH), which show only when
the bytes are there (with fewer, the bytes left decide first, at the same field):

- valid-u8-array-of-2-30-elements: one u8 array of exactly 2^30 elements, all present (allowed: only a
  count above 2^30 is GG130).  A reader testing `count >= 2^30` fails it (maint/mutants `kv.c`
  `cb9849ca#0:ror`).
- GG101-string-element-of-2-30-plus-1-bytes-present: a string array of one element of 2^30 + 1 bytes,
  all present: GG101 at the element's length field.  A reader that lets a string past the maximum when
  its bytes are at hand fails it (`kv.c` `1483f908#1:ror`).

The 67 MB files are valid in every profile and for ggml.  Not in corpus/: each file would take the
in-process conform tests past the address-space limits of maint/mutants/run.py.  The 1 GiB files are
opt-in: `tfs conform` over the two takes minutes in each profile (docs/fixtures.md, "Gaps").
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tfsgen import manifest  # noqa: E402
from tfsgen.gguf import enc_header as header, enc_kv_array as kv_arr, gstr, u64, u8  # noqa: E402
from tfsgen.manifest import OFFSET_COLUMNS  # noqa: E402
from tfsgen.tables import VT  # noqa: E402

U8, U64, STR = VT["U8"], VT["U64"], VT["STRING"]
N_FULL = 1023  # u64 arrays of 64 KiB after the 1-byte one: 1 + 1023 x 65,536 bytes kept
ELEMS = 8192   # 64 KiB of u64
ROOM = 64 * 1024 * 1024 - (1 + N_FULL * 8 * ELEMS)  # 65,535 bytes of the 64 MiB left after them
BODY = b"".join(u64(j) for j in range(ELEMS))  # the elements of every u64 array


def lead():
    return [kv_arr("a.odd", U8, 1, u8(1))] + [kv_arr("a%04d" % a, U64, ELEMS, BODY) for a in range(N_FULL)]


def rounded(kvs):
    kvs = kvs + [kv_arr("a.rounded", U64, ELEMS, BODY), kv_arr("a.after", U8, 16, bytes(range(16)))]
    return header(0, len(kvs)) + b"".join(kvs)


def strings(kvs):
    past = ROOM + 1 - 8  # one element whose 8 + len is one byte more than the room
    first, second = 100, ROOM - (8 + 100) - 8  # two elements filling the room exactly
    assert (8 + first) + (8 + second) == ROOM
    kvs = kvs + [kv_arr("s.past", STR, 1, gstr(b"p" * past)),
                 kv_arr("s.exact", STR, 2, gstr(b"e" * first) + gstr(b"f" * second)),
                 kv_arr("a.after", U8, 16, bytes(range(16)))]
    return header(0, len(kvs)) + b"".join(kvs)


MAX = 2**30  # GG_MAX_ARRAY_ELEMENTS and GG_MAX_STRING_LENGTH (parsers/gguf/gg.h)


def max_count(_kvs):
    return header(0, 1) + kv_arr("a.max", U8, MAX, bytes(MAX)), None


def long_element(_kvs):
    head = header(0, 1) + kv_arr("s.long", STR, 1, b"")
    return head + gstr(b"s" * (MAX + 1)), len(head)


def keep(make):
    return lambda kvs: (make(kvs), None)


# (id, make(kvs) -> (bytes, offset of the fault or None), rule, description)
FIXTURES = (
    ("valid-stream-keep-total-rounded-to-whole-elements", keep(rounded), "-",
     "a 1-byte u8 array, 1,023 u64 arrays of 64 KiB, then one more: 65,535 bytes of the stream's 64 MiB keep "
     "room left, 8,191 whole elements kept"),
    ("valid-stream-keep-total-string-elements", keep(strings), "-",
     "a 1-byte u8 array, 1,023 u64 arrays of 64 KiB (65,535 bytes of the stream's 64 MiB keep room left), a "
     "string element of 65,528 bytes (one byte too many: not kept), two of 100 and 65,419 (filling the room "
     "exactly: kept), a u8 array of 16 (none kept)"),
)
HUGE = (
    ("valid-u8-array-of-2-30-elements", max_count, "-",
     "one u8 array of exactly 2^30 elements (GGUF_MAX_ARRAY_ELEMENTS, allowed), all present"),
    ("GG101-string-element-of-2-30-plus-1-bytes-present", long_element, "GG101",
     "a string array of one element of 2^30 + 1 bytes, all present: GG101 at the element's length field"),
)


def main(argv):
    huge = argv[1:2] == ["--huge"]
    if len(argv) != 2 + huge or argv[-1].startswith("-"):
        sys.stderr.write("usage: generators/gg_keep_total_big.py [--huge] DIR\n")
        return 2
    kvs = lead()
    files, rows = {}, []
    for fid, make, rule, desc in FIXTURES + (HUGE if huge else ()):
        data, offset = make(kvs)
        name = fid + ".gguf"
        files[name] = data
        expect, category = ("valid", "-") if rule == "-" else ("parser_error", manifest.read_rules()[rule][1])
        rows.append(manifest.manifest_row(fid, name, data, "gguf", expect, rule, category, "default", desc,
                                          "generated by generators/gg_keep_total_big.py", offset,
                                          None if offset is None else 0))
    return manifest.sync_corpus(argv[-1], ".gguf", files, rows, check=False, columns=OFFSET_COLUMNS)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
