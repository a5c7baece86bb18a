"""gg_alignment_first_key.py: two KVs whose keys both read "general.alignment" as C strings, in
both orders (GG140, GG141, GG302; issue 38, held-back slip e2 of maint/slips/2026-12-07: the last
matching key used instead of the first).  Called by gg_fixtures.py with its add().

ggml looks the alignment up with gguf_find_key, a strcmp of each key's C string in KV order that
returns the first match; its duplicate-key test compares whole keys, so `general.alignment` and
`general.alignment\\0x` are two keys that both match.  The good KV is u32 64; the other is a string,
an i32, u32 3 (not a power of two) or u32 32 (a valid alignment other than 64).  Two tensors, f32
[3] and f16 [5], laid out for the alignment in force (the second at offset 64 for 64, 32 for 32):
- good first: valid, alignment 64 (a reader that took the other KV reports its GG140 / GG141, or
  GG302 for 32: the second tensor's offset is not the packed one);
- other first: that KV decides: GG140 at its type field, GG141 at its value, or valid with 32.
Each with either KV under the plain key, and once with a KV before both (keys at KV 1 and 2).
"""

from tfsgen.gguf import enc_kv as kv, gstr, i32, kv_str, layout, u32

F32, F16 = 0, 1
U32, I32, STR = 4, 5, 8
PLAIN, NUL = b"general.alignment", b"general.alignment\0x"
TENSORS = [("a", [3], F32), ("b", [5], F16)]

# other KV: (tag, value type, value bytes, rule when it decides, alignment when it decides and is valid)
OTHER = [("string", STR, gstr("s"), "GG140", None),
         ("i32-64", I32, i32(64), "GG140", None),
         ("u32-3", U32, u32(3), "GG141", None),
         ("u32-32", U32, u32(32), "-", 32)]


def build(add):
    lead = kv_str("general.name", "m")

    def order(first_key):  # the keys in file order
        return "plain-nul" if first_key == PLAIN else "nul-plain"

    def valid(fid, data, desc):  # --strict: a NUL in a key is not lower_snake_case (GG506)
        add(fid, data, desc + "; --strict: GG506 (a NUL in a key)",
            extra=[("GG506-%s-strict" % fid[len("valid-"):], "parser_error", "GG506", "strict")])

    for tag, vt, val, rule, align in OTHER:
        for good_key, other_key in ((PLAIN, NUL), (NUL, PLAIN)):
            good = kv(good_key, U32, u32(64))
            other = kv(other_key, vt, val)
            for pre, where in ((b"", ""), (lead, "-after-kv0")):
                if pre and good_key != PLAIN:
                    continue
                first = 1 if pre else 0
                # good first: valid with 64, whatever the other says
                valid("valid-alignment-first-key-64-then-%s-%s%s" % (tag, order(good_key), where),
                      layout(TENSORS, kvs=[k for k in (pre, good, other) if k], align=64),
                      "KV %d %r u32 64, then KV %d %r %s: the first match decides (alignment 64)" % (
                          first, good_key.decode(), first + 1, other_key.decode(), tag))
            # other first: it decides
            data = layout(TENSORS, kvs=[other, good], align=align or 64)
            type_at = 24 + 8 + len(other_key)
            desc = "KV 0 %r %s, then KV 1 %r u32 64: the first match decides" % (
                other_key.decode(), tag, good_key.decode())
            fid = "alignment-first-key-%s-then-64-%s" % (tag, order(other_key))
            if rule == "-":
                valid("valid-" + fid, data, desc + " (alignment %d)" % align)
            else:
                add("%s-%s" % (rule, fid), data, desc, rule, offset=type_at if rule == "GG140" else type_at + 4)
