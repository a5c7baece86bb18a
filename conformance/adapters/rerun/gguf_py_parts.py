#!/usr/bin/python3
"""rerun/gguf_py_parts.py [--gguf-py DIR] FILE: second adapter of the gguf-py and
gguf-py-meta columns, llama.cpp gguf-py GGUFReader at the commit of the gguf-py
folder passed (--gguf-py DIR or $TFS_GGUF_PY; the same folder as the first).

Differs from ../gguf_py_adapter.py: the file is opened with mode 'c' (a private
copy-on-write map instead of 'r'), KV values are read the way gguf-dump reads
them, from field.parts[field.data[...]] (never field.contents()), and each
tensor's offset comes from ReaderTensor.data_offset less the reader's
data_offset, its end from data.nbytes.  Exit 0 accepted, 1 rejected (an
exception of the reader), 77 safetensors, 3 setup (a crash for the runner).
"""
import json
import os
import sys

argv = sys.argv[1:]
src = os.environ.get("TFS_GGUF_PY")
if len(argv) == 3 and argv[0] == "--gguf-py":
    src, argv = argv[1], argv[2:]
if len(argv) != 1:
    sys.stderr.write("usage: gguf_py_parts.py [--gguf-py DIR] FILE\n")
    sys.exit(2)
path = argv[0]
if not path.endswith(".gguf"):
    sys.exit(77)
try:
    sys.path.insert(0, src or "")
    from gguf.gguf_reader import GGUFReader
    import numpy
except Exception as e:
    sys.stderr.write(f"gguf_py_parts: cannot import gguf-py ({e}); --gguf-py DIR\n")
    sys.exit(3)
HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = {t["id"]: t["name"] for t in json.load(open(os.path.join(HERE, "..", "types", "tfs-types.json")))["ggml_types"]}


def plain(x):
    if isinstance(x, numpy.generic):
        x = x.item()
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return None
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) > 2 ** 53:
        return str(x)
    return x


def field_value(f):
    items = []
    for i in f.data:
        p = f.parts[i]
        if f.types[-1] == 8:  # a string: its bytes
            items.append(bytes(p).decode("utf-8"))
        else:
            items.append(plain(p[0]))
    if f.types[0] == 9:
        return items
    return items[0]


try:
    r = GGUFReader(path, "c")
    kv = []
    for name, f in r.fields.items():
        if name.startswith("GGUF."):
            continue
        v = field_value(f)
        kv.append({"key": name} if v is None or (isinstance(v, list) and None in v) else {"key": name, "value": v})
    tensors = []
    for t in r.tensors:
        b = int(t.data_offset) - int(r.data_offset)
        tensors.append({"name": t.name, "type": NAMES.get(int(t.tensor_type)) or str(int(t.tensor_type)),
                        "shape": [plain(d) for d in t.shape.tolist()], "offsets": [b, b + int(t.data.nbytes)]})
    version = int(r.fields["GGUF.version"].parts[-1][0])
except Exception as e:
    print(json.dumps({"reader": "gguf-py GGUFReader (parts)", "message": f"{type(e).__name__}: {e}"[:400]}), flush=True)
    sys.exit(1)
print(json.dumps({"reader": "gguf-py GGUFReader (parts)", "content": {"format": "gguf", "version": version,
      "alignment": int(r.alignment), "tensors": tensors, "kv": kv}}), flush=True)
