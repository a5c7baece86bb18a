#!/usr/bin/python3
"""adapter.py FILE: the Python (stdlib) template of a conformance adapter
(docs/adapters.md "Adapter kit").  Copy it, replace read() by a call to your
reader and to_content() by a mapping of what it returns.  The protocol:
  exit 0  accepted; first stdout line {"reader", "content"} (partial content
          is fine: what you leave out is not compared)
  exit 1  rejected: your reader refused the file (its error class, Reject)
  exit 77 unsupported (a format your reader does not read): skipped
  exit 3  anything else: an uncaught exception, RecursionError, MemoryError
          (a crash for the runner, as a native reader's SIGSEGV would be)
stdout is flushed before every exit.  Type tables come from
../types/tfs-types.json (generated from include/tfs/*.def), never retyped.

The reader below is a stand-in: a small GGUF reader (header and KVs, no
tensor infos) that the ctest test_adapter_template_* runs against the corpus
in every language of the kit (the five must agree fixture by fixture)."""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES_JSON = os.environ.get("TFS_TYPES_JSON", os.path.join(HERE, "..", "types", "tfs-types.json"))
try:
    TYPES = json.load(open(TYPES_JSON))
except (OSError, ValueError) as e:  # the adapter's own failure: exit 3, never 1 (a verdict)
    sys.stderr.write(f"adapter setup failed: type table {TYPES_JSON} (TFS_TYPES_JSON): {e}\n")
    os._exit(3)
VTYPE = {t["id"]: t for t in TYPES["gguf_value_types"]}  # id -> {name, size}
READER = "toy-gguf (python template)"


class Reject(Exception):
    """The reader's verdict "invalid file" (your reader's own error class)."""


# ---- the stand-in reader (replace by yours) --------------------------------
def read(path):
    if os.environ.get("TFS_TEMPLATE_SELFTEST") == "uncaught":
        {}["a bug in the reader"]  # KeyError: not a verdict, a crash
    data = open(path, "rb").read()
    pos = 0

    def take(n):
        nonlocal pos
        if n > len(data) - pos:
            raise Reject(f"truncated at byte {pos}: {n} bytes wanted")
        pos += n
        return data[pos - n:pos]

    def u32():
        return struct.unpack("<I", take(4))[0]

    def u64():
        return struct.unpack("<Q", take(8))[0]

    def string(what):
        n = u64()
        try:
            return take(n).decode("utf-8")
        except UnicodeDecodeError:
            raise Reject(f"{what} is not UTF-8")

    def scalar(t):
        name, size = VTYPE[t]["name"], VTYPE[t]["size"]
        raw = take(size)
        if name in ("f32", "f64"):
            return {"bits": "0x" + raw[::-1].hex()}
        if name == "bool":
            if raw[0] > 1:
                raise Reject("bool not 0 or 1")
            return {"value": raw[0] == 1}
        v = int.from_bytes(raw, "little", signed=name.startswith("i"))
        return {"value": str(v) if size == 8 else v}

    def vtype():
        t = u32()
        if t not in VTYPE or VTYPE[t]["name"] is None:
            raise Reject(f"invalid value type {t}")
        return t

    if take(4) != b"GGUF":
        raise Reject("bad magic")
    version = u32()
    if version not in (2, 3):
        raise Reject(f"unsupported version {version}")
    n_tensors, n_kv = u64(), u64()
    if n_kv > (len(data) - pos) // 12 or n_tensors > (len(data) - pos) // 24:
        raise Reject("more KVs or tensors than the file can hold")
    kvs = []
    for _ in range(n_kv):
        key = string("key")
        if not key:
            raise Reject("empty key")
        t = vtype()
        kv = {"key": key, "type": VTYPE[t]["name"]}
        if VTYPE[t]["name"] == "string":
            kv["value"] = string("string value")
        elif VTYPE[t]["name"] == "array":
            et, n = vtype(), u64()
            ename = VTYPE[et]["name"]
            if ename == "array":
                raise Reject("nested array")
            if n > len(data) - pos:
                raise Reject("array longer than the file")
            kv["elem_type"] = ename
            if ename == "string":
                kv["value"] = [string("string element") for _ in range(n)]
            else:
                els = [scalar(et) for _ in range(n)]
                kv["bits" if ename in ("f32", "f64") else "value"] = [e.get("bits", e.get("value")) for e in els]
        else:
            kv.update(scalar(t))
        kvs.append(kv)
    return {"version": version, "kv": kvs}


def to_content(got):
    """Your reader's result in the content form (design.md "Expected content")."""
    return {"format": "gguf", "version": got["version"], "kv": got["kv"]}
# ---------------------------------------------------------------------------


def finish(code, line=None):
    if line is not None:
        sys.stdout.write(json.dumps(line, ensure_ascii=True) + "\n")
    sys.stdout.flush()
    os._exit(code)  # no interpreter clean-up that could raise after the verdict


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: adapter.py FILE\n")
        finish(2)
    path = sys.argv[1]
    if not path.endswith(".gguf"):
        finish(77)
    try:
        got = read(path)
    except Reject as e:
        finish(1, {"reader": READER, "message": str(e)[:400]})
    except BaseException as e:  # RecursionError, MemoryError, a bug: a crash
        import traceback
        traceback.print_exc()
        sys.stderr.write(f"reader failed: {type(e).__name__}\n")
        finish(3)
    try:
        content = to_content(got)
    except BaseException:
        import traceback
        traceback.print_exc()
        finish(3)  # the adapter's own failure: a crash, never a verdict
    finish(0, {"reader": READER, "content": content})


main()
