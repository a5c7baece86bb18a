"""gg_version_edges.py: GGUF versions with the top bit set and other u32 edges (GG011, GG013;
issue 38, held-back slip f1 of maint/slips/2026-12-07: the version's upper bound compared as a
signed int32, so versions from 2^31 up pass).  Called by gg_fixtures.py with its add().

ggml reads the version as a u32 and tests, in order: 0 (GG010), low 16 bits zero (GG011, a
big-endian file), 1 (GG012), above 3 (GG013).  A file of the header alone (n_tensors 0, n_kv 0);
the rule at offset 4, the version field.  Versions whose low 16 bits are 0 (2^31, 2^32 - 2^16)
are GG011 before GG013 is tested; 2^16 + 1 and 2^16 + 3 have the low 16 bits of versions 1 and 3.
"""

from tfsgen.gguf import enc_header as header

VERSIONS = [
    (0x80000000, "GG011", "2^31: low 16 bits zero (big-endian test first)"),
    (0xFFFF0000, "GG011", "2^32 - 2^16: low 16 bits zero"),
    (0x80000001, "GG013", "2^31 + 1 (not 1: above 3)"),
    (0x80000003, "GG013", "2^31 + 3 (negative as int32)"),
    (0xFFFFFFFF, "GG013", "2^32 - 1 (-1 as int32)"),
    (0x7FFFFFFF, "GG013", "2^31 - 1 (the int32 maximum)"),
    (0x00010001, "GG013", "2^16 + 1 (the low 16 bits of version 1)"),
    (0x00010003, "GG013", "2^16 + 3 (the low 16 bits of version 3)"),
]


def build(add):
    for v, rule, what in VERSIONS:
        add("%s-version-0x%08x" % (rule, v), header(0, 0, version=v), "version %s" % what, rule, offset=4)
