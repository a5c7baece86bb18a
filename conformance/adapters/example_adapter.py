#!/usr/bin/python3
"""example_adapter.py: a conformance adapter in Python; copy it and call your reader in read()."""
import json, struct, sys
def read(path):  # a toy safetensors reader (<- your reader here): raises on a file it refuses
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        return json.loads(f.read(n).decode("utf-8"))
if not sys.argv[1].endswith(".safetensors"): sys.exit(77)  # 77: unsupported (a GGUF fixture): skipped
try: read(sys.argv[1])
except Exception as e: print(json.dumps({"message": str(e)})); sys.exit(1)  # 1: rejected
sys.exit(0)  # 0: accepted
