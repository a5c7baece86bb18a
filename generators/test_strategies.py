#!/usr/bin/python3
"""test_strategies.py: property test of the writer and the parser together.
For valid models drawn by tfsgen.strategies (hypothesis), the file tfsgen
writes must be valid for `tfs dump --json` in the default and the strict
profile, and the content it reports (tensors: name, type, shape, offsets,
and where the data lie: data_offset and each tensor's file_offset;
KVs / __metadata__: key, type, value or float bits) must be the model's.

    /usr/bin/python3 generators/test_strategies.py TFS_BINARY [--examples N]

Deterministic (derandomize=True, no example database).  Exit 0 when every
example agrees, 1 otherwise (the shrunk failing example is printed), 77 when
python3-hypothesis is not installed.
ctest: test_generator_strategies (needs python3-hypothesis).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from hypothesis import HealthCheck, given, settings  # noqa: E402
except ImportError:
    print("test_strategies: python3-hypothesis is not installed (apt-get install python3-hypothesis): skipped")
    sys.exit(77)

from tfsgen import gguf, strategies  # noqa: E402

TFS = None
COUNT = {"gguf": 0, "safetensors": 0}


def dump(data, fmt, strict):
    with tempfile.NamedTemporaryFile(suffix="." + fmt) as f:
        f.write(data)
        f.flush()
        r = subprocess.run([TFS, "dump", "--json", "--content-only", "--format", fmt] + (["--strict"] if strict else []) + [f.name],
                           capture_output=True)
    assert r.returncode == 0, "tfs dump exit %d: %s %s" % (r.returncode, r.stdout[:400], r.stderr[:400])
    return json.loads(r.stdout)


def compare(got, want, data):
    assert got["complete"] is True and got["error"] is None, got.get("error")
    assert got["format"] == want["format"]
    for k in ("version", "alignment"):
        if k in want:
            assert got[k] == want[k], (k, got[k], want[k])
    # where the data lie: the data section starts after the header (safetensors: 8 + the size
    # field; GGUF: at an aligned offset, the tensors' bytes inside the file the writer made),
    # and each tensor's file offset is that start plus its data offset
    if want["tensors"]:
        start = got.get("data_offset")
        if want["format"] == "safetensors":
            assert start == 8 + int.from_bytes(data[:8], "little"), ("data_offset", start)
        else:
            assert isinstance(start, int) and start % want["alignment"] == 0 and \
                start + want["tensors"][-1]["offsets"][1] <= len(data), ("data_offset", start, len(data))
        assert [t.get("file_offset") for t in got["tensors"]] == [start + t["offsets"][0] for t in want["tensors"]]
    else:
        assert "data_offset" not in got, got.get("data_offset")
    plain = [{k: v for k, v in t.items() if k != "file_offset"} for t in got["tensors"]]
    assert plain == want["tensors"], (plain, want["tensors"])
    assert len(got["kv"]) == len(want["kv"]), (got["kv"], want["kv"])
    for g, w in zip(got["kv"], want["kv"]):
        for k, v in w.items():
            if k == "value" and "bits" in w:
                continue  # floats: bits compared (inf / -0.0 have no exact JSON number)
            if k == "value" and isinstance(v, list) and "bits" in w:
                continue
            assert g.get(k) == v, (k, g, w)


SETTINGS = dict(derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def make_tests(n):
    @settings(max_examples=n, **SETTINGS)
    @given(strategies.gguf_models())
    def test_gguf(m):
        data = gguf.write(m, fill="zero")
        want = strategies.gguf_expected(m)
        for strict in (False, True):
            compare(dump(data, "gguf", strict), want, data)
        COUNT["gguf"] += 1

    @settings(max_examples=n, **SETTINGS)
    @given(strategies.safetensors_models())
    def test_safetensors(m):
        data = m.write()
        want = strategies.safetensors_expected(m)
        for strict in (False, True):
            compare(dump(data, "safetensors", strict), want, data)
        COUNT["safetensors"] += 1
    return test_gguf, test_safetensors


def main():
    global TFS
    ap = argparse.ArgumentParser()
    ap.add_argument("tfs")
    ap.add_argument("--examples", type=int, default=60)
    a = ap.parse_args()
    TFS = a.tfs
    failed = 0
    for t in make_tests(a.examples):
        try:
            t()
        except Exception as e:  # hypothesis re-raises the shrunk example's failure
            failed += 1
            print("FAIL %s: %r" % (t.__name__, e))
    print("test_strategies: %d GGUF and %d safetensors examples run (default + strict), %d property failed" % (
        COUNT["gguf"], COUNT["safetensors"], failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
