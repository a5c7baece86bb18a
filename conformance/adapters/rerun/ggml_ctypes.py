#!/usr/bin/python3
"""rerun/ggml_ctypes.py --meta|--data --lib LIBGGML_BASE FILE: second adapter of
the ggml-<version>-meta / -data columns: ggml's gguf_init_from_file from the
libggml-base.so of npm @node-llama-cpp/linux-x64 (3.3.0, 3.12.0, 3.22.1; the
--lib given is the column's).

Differs from ../ggml_adapter.c (C, dlopen, its own log callback whose first
error line it classifies with conformance/ggml/ggml_reasons.c): this one is
Python ctypes, installs no log callback (ggml's default logger writes to
stderr) and prints no category: the rerun grades stderr with its own map,
rerun/ggml-stderr.tsv (the 3.3.0 columns with the column's own map).
--meta: {no_alloc = true, ctx = NULL} (header-only profile); --data:
{no_alloc = false, ctx = &ctx} (default profile).  Address space capped at
1024 MiB as the first adapter does, so a file declaring more data than that
makes ggml's data mode abort: a crash.  Exit 0 a context came back, 1 NULL,
2 usage or setup (a crash for the runner).
"""
import ctypes
import os
import resource
import sys

args = sys.argv[1:]
if len(args) != 4 or args[0] not in ("--meta", "--data") or args[1] != "--lib":
    sys.stderr.write("usage: ggml_ctypes.py --meta|--data --lib LIBGGML_BASE FILE\n")
    sys.exit(2)
data, lib_path, path = args[0] == "--data", args[2], args[3]
os.environ["GGML_NO_BACKTRACE"] = "1"
try:
    lib = ctypes.CDLL(lib_path)
except OSError as e:
    sys.stderr.write(f"ggml_ctypes: {e}\n")
    sys.exit(2)


class Params(ctypes.Structure):
    _fields_ = [("no_alloc", ctypes.c_bool), ("ctx", ctypes.POINTER(ctypes.c_void_p))]


lib.gguf_init_from_file.restype = ctypes.c_void_p
lib.gguf_init_from_file.argtypes = [ctypes.c_char_p, Params]
lib.gguf_free.argtypes = [ctypes.c_void_p]
lib.ggml_free.argtypes = [ctypes.c_void_p]
limit = 1024 << 20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
ctx = ctypes.c_void_p()
params = Params(not data, ctypes.pointer(ctx) if data else None)
sys.stderr.flush()
g = lib.gguf_init_from_file(os.fsencode(path), params)
if not g:
    sys.stdout.write('{"reader":"ggml gguf_init_from_file via ctypes"}\n')
    sys.stdout.flush()
    os._exit(1)
sys.stdout.write('{"reader":"ggml gguf_init_from_file via ctypes"}\n')
sys.stdout.flush()
lib.gguf_free(g)
if ctx.value:
    lib.ggml_free(ctx)
os._exit(0)
