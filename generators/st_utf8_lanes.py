"""st_utf8_lanes.py: a lone UTF-8 continuation byte (0x80) in every lane of an ASCII fast scan
(issue 38, item 3; found by a utf8.c mutant the corpus left alive: the 16-byte scan's mask lost the
top bit of one lane and kept its low seven, so only a lane whose two bytes are both 0x80 or NUL
slips through).

A reader that skips ASCII 8 or 16 bytes at a time tests the top bit of every byte of the block; one
lane tested wrongly lets a bad byte through only when the rest of the block is ASCII.  Each file's
header is `{}` padded with spaces (the crate's own padding) with 0x80 placed after the JSON, so the
UTF-8 check (done on the whole header before any JSON) is the only fault (ST101, offset 8 + the
first 0x80):
- 16-byte blocks: a 48-byte header with 0x80 at header bytes 16 + j and 24 + j (j = 0..7): the
  two bytes that share lane j when the block's two halves are ORed together;
- 8-byte blocks: a 40-byte header (the 16-byte scan stops at byte 32, 16 bytes no longer fit) with
  one 0x80 at byte 32 + j (j = 0..7).
- the header's last byte a UTF-8 lead byte whose sequence the data bytes after the header would
  complete (C3 then 80; E2 82 then AC; F0 9F 98 then 80): the header alone is cut there (ST101 at
  the lead byte), in headers of 8, 17 and 40 bytes (the bytewise tail, after one 16-byte block, after
  the 8-byte blocks); a decoder that tests the bytes left one too loosely reads into the data.
Called by st_fixtures.py with its add(); the crate's verdicts: corpus/CRATE_VERDICTS.tsv.
"""
from tfsgen.safetensors import st_file


def header(length, bad):
    h = bytearray(b"{}" + b" " * (length - 2))
    for i in bad:
        h[i] = 0x80
    return bytes(h)


def build(add):
    for j in range(8):
        add("ST101-scan16-lane-%d" % j, st_file(header(48, (16 + j, 24 + j))),
            "48-byte header {} and spaces with lone continuation bytes 0x80 at header bytes %d and %d "
            "(lane %d of the second 16-byte block, both halves)" % (16 + j, 24 + j, j),
            "ST101", offset=8 + 16 + j)
    for j in range(8):
        add("ST101-scan8-lane-%d" % j, st_file(header(40, (32 + j,))),
            "40-byte header {} and spaces with one lone continuation byte 0x80 at header byte %d "
            "(lane %d of the last 8-byte block)" % (32 + j, j),
            "ST101", offset=8 + 32 + j)

    for lead, rest, tag in ((b"\xc3", b"\x80", "c3"), (b"\xe2\x82", b"\xac", "e2-82"),
                            (b"\xf0\x9f\x98", b"\x80", "f0-9f-98")):
        for length in (8, 17, 40):
            h = b"{}" + b" " * (length - 2 - len(lead)) + lead
            add("ST101-header-%d-bytes-ends-in-lead-%s" % (length, tag), st_file(h, rest + b"\x00" * 7),
                "%d-byte header {} and spaces ending in %s (cut by the header's end), the data starting with %s "
                "that would complete it" % (length, tag.upper().replace("-", " "), rest.hex().upper()),
                "ST101", offset=8 + length - len(lead))
