"""gg_room_left.py: GGUF fixtures whose file ends before a later tensor begins (GG304; issue 38,
held-back slip d2 of maint/slips/2026-12-06: an end test written as n_bytes > file_size - begin
wraps when begin is past the end of the file).  Called by gg_fixtures.py with its add().

Two F32 tensors, a [1] at offset 0 and b at offset 32 (alignment 32): the file ends right after
a's 4 data bytes (its padding cut), so b begins 28 bytes past the end of the file.  b is [8]
(32 bytes) or [0] (no bytes: its end equals its begin, still past the end).  GG304 at b's offset
field in the default profile; header-only reads no data: valid.  ggml in data mode reads the
padded data blob and comes up short (ctest test_adapter_ggml_data).
"""

from tfsgen.data import f32s
from tfsgen.gguf import enc_header as header, enc_tensor_info as ti, pad

F32 = 0


def build(add):
    for ne, what in (([8], "f32 [8], 32 bytes"), ([0], "f32 [0], no bytes")):
        infos = header(2, 0) + ti("a", [1], F32, 0) + ti("b", ne, F32, 32)
        tag = "b-%d-elements" % ne[0]
        add("GG304-begins-past-eof-%s" % tag, pad(infos) + f32s([1.5]),
            "tensor a f32 [1] then b %s at offset 32: the file ends after a's 4 bytes (padding cut), b begins "
            "28 bytes past the end" % what, "GG304", offset=len(infos) - 8,
            extra=[("GG304-begins-past-eof-%s-header-only" % tag, "valid", "-", "header-only")])
