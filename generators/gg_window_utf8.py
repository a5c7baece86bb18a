"""gg_window_utf8.py: GGUF fixtures whose UTF-8 sequences straddle the 64 KiB read window (issue 38;
survivors fc9945d8 and 6fd79db5 of parsers/gguf/read.c in a corpus-only mutant sample, seed 41).
Called by gg_fixtures.py with its add().

Under --strict a string value longer than the parser keeps, and a key longer than TFS_KEY_KEEP read
from a file or a stream, is checked for UTF-8 window by window: a window ends before a lead byte
among its last three bytes whose sequence runs past the window (utf8_piece in read.c), so that no
sequence is split.  Each fixture puts one sequence (lead C2..DF, E0, ED, F0, F4) with its lead
1, 2 or 3 bytes before the window's edge:

- valid: the sequence is complete (accepted in every profile); one puts a complete 2-byte sequence
  right before a split one, so a cut one byte early leaves the first one cut in two.
- GG507 (--strict): the sequence is broken just before, at or after the edge; reported at the
  offset of the lead byte (the maximal valid prefix: Python's UnicodeDecodeError.start).
- GG505 (--strict): a 65,544-byte key with a 3-byte sequence two bytes before the edge is valid
  UTF-8, so the key's length is reported, not GG504; valid in the default profile.
"""
from tfsgen.tables import VT
from tfsgen.gguf import enc_header as header, enc_kv as kv, gstr, u8

U8, STR = VT["U8"], VT["STRING"]
HDR = 24  # magic, version, n_tensors, n_kv
WINDOW = 64 * 1024  # TFS_WINDOW (include/tfs/tfs.h)
TAIL = 8  # bytes of the string after the window edge
KEY = "general.description"
SID = "implementation_defined"

# (tag, bytes, lead's distance before the edge, what): complete sequences
VALID = (
    ("c2-1-in", b"\xc2\x80", 1, "2-byte U+0080, lead C2 1 byte before the edge"),
    ("e0-2-in", b"\xe0\xa0\x80", 2, "3-byte U+0800, lead E0 2 bytes before the edge"),
    ("ed-2-in", b"\xed\x9f\xbf", 2, "3-byte U+D7FF, lead ED 2 bytes before the edge"),
    ("f0-3-in", b"\xf0\x90\x80\x80", 3, "4-byte U+10000, lead F0 3 bytes before the edge"),
    ("f4-1-in", b"\xf4\x8f\xbf\xbf", 1, "4-byte U+10FFFF, lead F4 1 byte before the edge"),
    ("c3a9-then-df-1-in", b"\xc3\xa9\xdf\xbf", 1,
     "2-byte U+00E9 ending 2 bytes before the edge, then 2-byte U+07FF with its lead 1 byte before it"),
)
# broken sequences: the fault before, at or after the edge
INVALID = (
    ("e0-2-in-bad-after-edge", b"\xe0\xa0A", 2, "E0 A0 then 'A' just after the edge"),
    ("c3a9-then-c3-bad-at-edge", b"\xc3\xa9\xc3A", 1, "C3 A9 complete, then C3 with 'A' at the edge"),
    ("f0-3-in-bad-at-edge", b"\xf0\x90\x80\xc0", 3, "F0 90 80 then C0 at the edge"),
    ("f0-3-in-bad-before-edge", b"\xf0\x80\x80\x80", 3, "F0 80 (overlong) 2 bytes before the edge"),
)


def body(seq, lead_in):
    """A string of WINDOW + TAIL bytes: 'a' filler, seq with its split lead lead_in bytes before
    the edge (a seq of 4 with 2 complete bytes first puts those before the lead), 'b' after."""
    lead = WINDOW - lead_in
    if seq[:2] == b"\xc3\xa9":
        lead -= 2
    s = b"a" * lead + seq
    return s + b"b" * (WINDOW + TAIL - len(s))


def bad_at(s):
    try:
        s.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    raise ValueError("valid UTF-8")


def build(add):
    at = HDR + 8 + len(KEY) + 4 + 8  # the string value's first byte
    for tag, seq, n, what in VALID:
        s = body(seq, n)
        s.decode("utf-8")
        add("valid-string-utf8-window-%s" % tag, header(0, 1) + kv(KEY, STR, gstr(s)),
            "%d-byte string value: %s (64 KiB read window; GG507 accepts)" % (len(s), what),
            extra=[("valid-string-utf8-window-%s-strict" % tag, "valid", "-", "strict")])
    for tag, seq, n, what in INVALID:
        s = body(seq, n)
        add("GG507-string-utf8-window-%s" % tag, header(0, 1) + kv(KEY, STR, gstr(s)),
            "%d-byte string value: %s (64 KiB read window)" % (len(s), what), "GG507", expect=SID,
            mode="strict", offset=at + bad_at(s),
            extra=[("GG507-string-utf8-window-%s-default" % tag, "valid", "-", "default")])
    k = body(b"\xe0\xa0\x80", 2)
    k.decode("utf-8")
    add("GG505-key-utf8-window-e0-2-in", header(0, 1) + kv(k, U8, u8(1)),
        "%d-byte UTF-8 key, 3-byte U+0800 with its lead E0 2 bytes before the 64 KiB read window's edge: "
        "GG505, not GG504" % len(k), "GG505", expect=SID, mode="strict", offset=HDR,
        extra=[("valid-key-utf8-window-e0-2-in", "valid", "-", "default")])
