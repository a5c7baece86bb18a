#!/usr/bin/python3
"""gguf_py_adapter.py [--gguf-py DIR] FILE | --version: llama.cpp's gguf-py GGUFReader as a conformance adapter.

The reader is not on any registry this project uses (PyPI ships it as `gguf`):
DIR is the gguf-py folder of a llama.cpp checkout you pass (the one holding
gguf/gguf_reader.py), from --gguf-py or $TFS_GGUF_PY; numpy is Debian's
python3-numpy.  Nothing of gguf-py is in this repository (docs/adapters.md
names the pinned commit).

What it calls, as gguf-dump and the convert scripts do: GGUFReader(FILE),
then contents() of every field and every tensor's name, type, shape and
data offset.  GGUFReader always maps each tensor's data (a numpy view that
must reshape to the tensor's shape), so it checks that the data lies in the
file: its --profile default column.  The matrix also runs the same command
with --profile header-only (what a metadata reader is held to).

Exit status (design.md "Adapter protocol"): 0 accepted (first stdout line:
{"reader", "content"}), 1 rejected (any exception GGUFReader or contents()
raises: {"reader", "message"}), 77 a safetensors file, 3 the adapter cannot
run (no gguf-py folder, numpy missing, FILE unreadable): a crash for the runner.
"""
import json
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def setup_failed(why):
    sys.stderr.write(f"gguf_py_adapter: {why}\n")
    sys.exit(3)


def args():
    argv = sys.argv[1:]
    src = os.environ.get("TFS_GGUF_PY")
    if argv[:1] == ["--gguf-py"] and len(argv) >= 2:
        src, argv = argv[1], argv[2:]
    if len(argv) != 1:
        sys.stderr.write("usage: gguf_py_adapter.py [--gguf-py DIR] FILE (or TFS_GGUF_PY=DIR)\n")
        sys.exit(2)
    return src, argv[0]


def commit_of(src):
    """The gguf-py folder's llama.cpp commit: git, else a .tfs-commit file beside it."""
    for d in (src, os.path.dirname(os.path.abspath(src))):
        p = os.path.join(d, ".tfs-commit")
        if os.path.exists(p):
            return open(p).read().strip()[:12]
    try:
        import subprocess
        return subprocess.run(["git", "-C", src, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:
        return "unknown commit"


TYPES = json.load(open(os.path.join(HERE, "types", "tfs-types.json")))
VTYPE = {t["id"]: t["name"] for t in TYPES["gguf_value_types"]}
GGML = {t["id"]: t for t in TYPES["ggml_types"]}


def bits(x, fmt):
    raw = struct.pack("<" + fmt, x)
    return "0x" + raw[::-1].hex()


def int64(v):
    v = int(v)
    return v if -(2 ** 53) <= v <= 2 ** 53 else str(v)


def value(v, vtype):
    if vtype in ("f32", "f64"):
        return v
    if isinstance(v, bool) or isinstance(v, str):
        return v
    return int64(v)


def kv_entry(name, field):
    types = [int(t) for t in field.types]
    vtype = VTYPE.get(types[0], str(types[0]))
    kv = {"key": name, "type": vtype}
    got = field.contents()
    fmt = {"f32": "f", "f64": "d"}
    if vtype == "array":
        et = VTYPE.get(types[-1], str(types[-1])) if len(types) > 1 else None
        if et is None:  # an empty array: gguf-py keeps no element type; the type from the file
            et = VTYPE.get(int(field.parts[3][0]), str(int(field.parts[3][0])))
        kv["elem_type"] = et
        if et in fmt:
            kv["bits"] = [bits(x, fmt[et]) for x in got]
            if all(math.isfinite(x) for x in got):
                kv["value"] = got
        else:
            kv["value"] = [value(x, et) for x in got]
        return kv
    if vtype in fmt:
        kv["bits"] = bits(got, fmt[vtype])
        if math.isfinite(got):
            kv["value"] = got
        return kv
    kv["value"] = value(got, vtype)
    return kv


def tensor_entry(t):
    tid = int(t.tensor_type)
    shape = [int64(d) for d in t.shape.tolist()]
    out = {"name": t.name, "type": GGML[tid]["name"] if tid in GGML else str(tid), "shape": shape}
    out["offsets"] = [int64(int(t.field.parts[5][0])), int64(int(t.field.parts[5][0]) + t.n_bytes)]
    return out


def main():
    if sys.argv[1:] and sys.argv[-1] == "--version":  # what the matrix names the column's version by
        src = sys.argv[2] if sys.argv[1:2] == ["--gguf-py"] else os.environ.get("TFS_GGUF_PY")
        print(f"gguf-py llama.cpp {commit_of(src)}" if src else "gguf-py (no folder)")
        return
    src, path = args()
    if path.endswith(".safetensors"):
        sys.exit(77)
    if not src or not os.path.exists(os.path.join(src, "gguf", "gguf_reader.py")):
        setup_failed("no gguf-py folder: pass --gguf-py DIR or TFS_GGUF_PY=DIR (DIR/gguf/gguf_reader.py; docs/adapters.md)")
    try:
        open(path, "rb").close()
    except OSError as e:
        setup_failed(f"cannot read {path}: {e}")
    sys.path.insert(0, src)
    try:
        from gguf.gguf_reader import GGUFReader
    except Exception as e:  # numpy missing, a broken folder
        setup_failed(f"cannot import gguf.gguf_reader from {src}: {e}")
    reader = f"gguf-py GGUFReader (llama.cpp {commit_of(src)})"
    try:
        r = GGUFReader(path)
        kvs = [kv_entry(name, f) for name, f in r.fields.items() if not name.startswith("GGUF.")]
        tensors = [tensor_entry(t) for t in r.tensors]
        version = int(r.fields["GGUF.version"].contents())
    except Exception as e:  # the reader refused the file (ValueError, KeyError, IndexError, ...)
        msg = f"{type(e).__name__}: {e}"
        print(json.dumps({"reader": reader, "message": msg[:500]}), flush=True)
        sys.exit(1)
    content = {"format": "gguf", "version": version, "alignment": int(r.alignment), "tensors": tensors, "kv": kvs}
    print(json.dumps({"reader": reader, "content": content}), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
