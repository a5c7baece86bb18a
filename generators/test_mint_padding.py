#!/usr/bin/python3
"""test_mint_padding.py: mint's byte minimiser keeps a valid GGUF file valid for ggml's data
mode (issue 38, item 6): it never cuts the last tensor's padding or data, which our default
profile (as llama.cpp's loader) would still accept but ggml, reading the padded data blob,
rejects (GG304-last-tensor-unpadded).

The minimiser (mint.py reduce_bytes with Mint.keep_fn, the function `tfs mint` runs) is given
valid files whose last tensor is not a multiple of the alignment; the result must still hold
every byte up to the padded end that the test computes from the layout it wrote.  Then the
same run without the guard (mint.data_mode_whole forced true) must cut the padding: the test
can fail.  With TFS_GGML_LIB (ggml from npm, ci/deps.sh) every minimised file is also given to
ggml's data mode (gguf_init_from_file with no_alloc false) and must be accepted.

    test_mint_padding.py --lib build/dev/parsers/libtfs.so      (exit 77 without it)
"""
import argparse
import ctypes
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mint  # noqa: E402
from tfsgen import gguf as G  # noqa: E402


def files():
    """(what, bytes, padded end) of valid files whose last tensor ends before its padding."""
    out = []
    for what, tensors, kvs in (
            ("f32 [3] last", [G.Tensor("a", [8], 0), G.Tensor("b", [3], 0)], []),
            ("q8_0 [32] last (34 bytes)", [G.Tensor("w", [32], 8)], [G.kv_string("general.name", "x")]),
            ("i8 [1], alignment 64", [G.Tensor("t", [1], 24)], [G.kv_scalar("general.alignment", G.VT["U32"], 64)])):
        m = G.Model(3, kvs, tensors)
        b, _, info = G.serialize(m)
        assert info["data_written"] and info["data_end"] == len(b), what
        assert info["last_end"] < info["data_end"], what  # the last tensor has padding after it
        out.append((what, b, info["data_end"], info["last_end"]))
    return out


def ggml_data_mode(lib, data):
    """ggml's verdict in data mode (True: accepted), through ctypes on libggml-base."""
    class Params(ctypes.Structure):
        _fields_ = [("no_alloc", ctypes.c_bool), ("ctx", ctypes.c_void_p)]
    lib.gguf_init_from_file.restype = ctypes.c_void_p
    lib.gguf_init_from_file.argtypes = [ctypes.c_char_p, Params]
    lib.gguf_free.argtypes = [ctypes.c_void_p]
    lib.ggml_free.argtypes = [ctypes.c_void_p]
    ctx = ctypes.c_void_p()
    with tempfile.NamedTemporaryFile(suffix=".gguf") as f:
        f.write(data)
        f.flush()
        p = Params(False, ctypes.cast(ctypes.pointer(ctx), ctypes.c_void_p).value)
        g = lib.gguf_init_from_file(f.name.encode(), p)
    if g:
        lib.gguf_free(g)
    if ctx.value:
        lib.ggml_free(ctx)
    return bool(g)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=os.environ.get("TFS_LIB"))
    a = ap.parse_args()
    if not a.lib or not os.path.exists(a.lib):
        print("test_mint_padding: no libtfs (--lib): skipped")
        return 77
    ggml = None
    if os.environ.get("TFS_GGML_LIB") and os.path.exists(os.environ["TFS_GGML_LIB"]):
        os.environ.setdefault("GGML_NO_BACKTRACE", "1")
        ggml = ctypes.CDLL(os.environ["TFS_GGML_LIB"])
    m = mint.Mint.__new__(mint.Mint)  # only what keep_fn uses: the classifier, no adapter
    m.cls = mint.Classifier(None, a.lib)
    m.against = None
    if not m.cls.lib:
        print("test_mint_padding: %s could not be loaded: skipped" % a.lib)
        return 77
    fails = 0
    cut_without_guard = 0
    for what, b, padded_end, last_end in files():
        key = mint.cls_key(m.cls.classify(b, "gguf"))
        assert key[0][1] == "valid", what
        small = mint.reduce_bytes(b, m.keep_fn("gguf", key, ("rule", "valid-gguf")), 2000)
        if len(small) != padded_end or small != b[:padded_end]:
            print("FAIL %s: minimised to %d bytes, the padded data ends at %d" % (what, len(small), padded_end))
            fails += 1
        if ggml is not None and not ggml_data_mode(ggml, small):
            print("FAIL %s: ggml's data mode rejects the minimised file" % what)
            fails += 1
        guard = mint.data_mode_whole
        mint.data_mode_whole = lambda _b: True
        try:
            loose = mint.reduce_bytes(b, m.keep_fn("gguf", key, ("rule", "valid-gguf")), 2000)
        finally:
            mint.data_mode_whole = guard
        if len(loose) < padded_end:
            cut_without_guard += 1
            if ggml is not None and ggml_data_mode(ggml, loose):
                print("FAIL %s: ggml accepts the file cut to %d bytes: the guard is not what keeps it" %
                      (what, len(loose)))
                fails += 1
        print("%s: %d bytes, minimised %d (padded end %d; without the guard %d, last tensor ends at %d)%s" %
              (what, len(b), len(small), padded_end, len(loose), last_end,
               "" if ggml is None else "; ggml data mode accepts it"))
    if cut_without_guard == 0:
        print("FAIL: without the guard no file lost its padding: the test cannot tell")
        fails += 1
    print("test_mint_padding: %s" % ("ok" if not fails else "%d failures" % fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
