#!/usr/bin/python3
"""test_ggml_type_table.py [LIB]: the independent decoder's ggml type table
(tests/corpus/indep_decode.py, written from the GGUF spec) equals ggml's own:
ggml_type_name, ggml_blck_size and ggml_type_size of every type id 0..42 from
libggml-base.so (the npm package @node-llama-cpp/linux-x64; LIB or $TFS_GGML_LIB),
called through ctypes.  Removed ids must have block size 0 in ggml and be absent
from the table.  Deliberately not compared with include/tfs/gg_types.def: the
table must stand on its own.
Exit 0 equal, 1 different, 77 (skip, with a message) when the library is absent.
"""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import indep_decode  # noqa: E402


def main():
    lib = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TFS_GGML_LIB", "")
    if not lib or not os.path.isfile(lib):
        print("SKIP: libggml-base.so not found (%r): set TFS_GGML_LIB or install the npm package "
              "@node-llama-cpp/linux-x64" % lib)
        return 77
    os.environ["GGML_NO_BACKTRACE"] = "1"
    g = ctypes.CDLL(lib)
    g.ggml_type_name.restype = ctypes.c_char_p
    g.ggml_type_name.argtypes = [ctypes.c_int]
    g.ggml_type_size.restype = ctypes.c_size_t
    g.ggml_type_size.argtypes = [ctypes.c_int]
    g.ggml_blck_size.restype = ctypes.c_int64
    g.ggml_blck_size.argtypes = [ctypes.c_int]
    bad = 0
    for t in range(indep_decode.GGML_TYPE_COUNT):
        got = (g.ggml_type_name(t).decode(), g.ggml_blck_size(t), g.ggml_type_size(t))
        if t in indep_decode.GGML_REMOVED:
            ok = got[1] == 0 and t not in indep_decode.GGML_TYPES
            want = "removed (block size 0)"
        else:
            want = indep_decode.GGML_TYPES.get(t)
            ok = got == want
        if not ok:
            bad += 1
            print("FAIL ggml type %d: ggml %r, table %r" % (t, got, want))
    extra = sorted(set(indep_decode.GGML_TYPES) - set(range(indep_decode.GGML_TYPE_COUNT)))
    if extra:
        bad += 1
        print("FAIL table ids beyond ggml's %d types: %r" % (indep_decode.GGML_TYPE_COUNT, extra))
    print("test_ggml_type_table: %d ggml type ids compared with %s, %d differ"
          % (indep_decode.GGML_TYPE_COUNT, os.path.basename(lib), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
