#!/usr/bin/python3
"""test_expected_independent.py SOURCE_DIR: every expected content of the corpus
(corpus/*/expected/<id>.json, one per `valid` manifest line, written by maint/gen_expected.py
from `tfs dump --json`) equals what an independent decoder reads from the fixture's bytes
(tests/corpus/indep_decode.py: no code or table shared with libtfs; GGUF type sizes from the
spec, safetensors dtype sizes from the crate's list).  So no expected content rests on libtfs
alone: test_expected_content pins it to tfs dump, this test to the bytes.

Compared: format, version, alignment, data_offset, complete (true), error (null), every tensor
(name, type, shape, offsets, file_offset) and every KV (key, type, element type, value; floats by their bit pattern and
value).  Text that is not UTF-8 is not compared exactly (the decoder reports None for it).
Also fails when a valid line has no expected file or the decoder cannot read a valid fixture.
Prints one line per problem and a summary; exit 1 on any problem.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import indep_decode  # noqa: E402

FOLDERS = ("safetensors", "gguf", "real")


def num(x):
    """Shape dims and offsets: numbers up to 2^53 - 1, decimal strings above."""
    if isinstance(x, str):
        return int(x) if x.isdigit() and int(x) > 2**53 - 1 else ("bad number string", x)
    return x if isinstance(x, int) and x <= 2**53 - 1 else ("bad number", x)


def same_float(a, b):
    return a == b or (a is not None and b is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b)))


def same_value(got, want, bits_got, bits_want):
    if bits_want is not None:
        return bits_got == bits_want and same_float(got, want)
    return want is None or got == want  # None: text that is not UTF-8


def compare(exp, dec, fail):
    for k in ("format", "version", "alignment"):
        if exp.get(k) != dec[k]:
            fail("%s %r, decoder %r" % (k, exp.get(k), dec[k]))
    if ("data_offset" in exp) != ("data_offset" in dec) or (
            "data_offset" in dec and num(exp["data_offset"]) != dec["data_offset"]):
        fail("data_offset %r, decoder %r" % (exp.get("data_offset"), dec.get("data_offset")))
    if exp.get("complete") is not True or exp.get("error") is not None:
        fail("complete %r, error %r" % (exp.get("complete"), exp.get("error")))
    et, dt = exp.get("tensors", []), dec["tensors"]
    if len(et) != len(dt):
        fail("%d tensors, decoder %d" % (len(et), len(dt)))
    for i, (e, d) in enumerate(zip(et, dt)):
        got = (e["name"] if d["name"] is not None else None, e["type"],
               [num(x) for x in e["shape"]], [num(x) for x in e["offsets"]],
               None if e.get("file_offset", "missing") is None else num(e.get("file_offset", "missing")))
        want = (d["name"], d["type"], d["shape"], d["offsets"], d["file_offset"])
        if got != want:
            fail("tensor %d: %r, decoder %r" % (i, got, want))
            break
    ek, dk = exp.get("kv", []), dec["kv"]
    if len(ek) != len(dk):
        fail("%d KVs, decoder %d" % (len(ek), len(dk)))
    for e, d in zip(ek, dk):
        key = d["key"]
        if "key" not in e and key is not None:
            # a key past TFS_KEY_KEEP (65,536 bytes): its length and first bytes (docs/dump.md)
            if e.get("key_size") != len(key.encode()) or not key.startswith(e.get("key_prefix", "")[:1000]):
                fail("long key: size %r prefix %r..., decoder %d bytes" % (e.get("key_size"),
                                                                           e.get("key_prefix", "")[:20], len(key.encode())))
            key = e.get("key_prefix", "")[:20] + "..."
        elif key is not None and e["key"] != key:
            fail("key %r, decoder %r" % (e["key"], key))
            continue
        if e["type"] != d["type"] or e.get("elem_type") != d.get("elem_type"):
            fail("%s: type %s/%s, decoder %s/%s" % (key, e["type"], e.get("elem_type"), d["type"],
                                                     d.get("elem_type")))
            continue
        if d["type"] == "array":
            ev, dv = e["value"], d["value"]
            eb, db = e.get("bits"), d.get("bits")
            if len(ev) != len(dv) or (db is not None and (eb is None or len(eb) != len(db))):
                fail("%s: %d elements, decoder %d" % (key, len(ev), len(dv)))
                continue
            for i in range(len(dv)):
                if not same_value(ev[i], dv[i], eb[i] if db else None, db[i] if db else None):
                    fail("%s[%d]: %r, decoder %r" % (key, i, ev[i], dv[i]))
                    break
        elif not same_value(e["value"], d["value"], e.get("bits"), d.get("bits")):
            fail("%s: %r/%r, decoder %r/%r" % (key, e["value"], e.get("bits"), d["value"], d.get("bits")))


def main():
    if len(sys.argv) != 2:
        print("usage: test_expected_independent.py SOURCE_DIR", file=sys.stderr)
        return 2
    src = sys.argv[1]
    checked = failed = 0
    for name in FOLDERS:
        folder = os.path.join(src, "corpus", name)
        with open(os.path.join(folder, "MANIFEST.tsv"), newline="", encoding="utf-8") as f:
            rows = [r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE) if r["expect"] == "valid"]
        for r in rows:
            errs = []
            exp_path = os.path.join(folder, "expected", r["id"] + ".json")
            try:
                with open(exp_path, encoding="utf-8") as g:
                    exp = json.load(g)
                with open(os.path.join(folder, r["path"]), "rb") as g:
                    dec = indep_decode.decode(r["format"], g.read())
                compare(exp, dec, errs.append)
            except Exception as e:  # missing file, or the decoder cannot read a valid fixture
                errs.append("%s: %s" % (type(e).__name__, e))
            checked += 1
            if errs:
                failed += 1
                for e in errs[:5]:
                    print("FAIL corpus/%s %s: %s" % (name, r["id"], e))
    print("test_expected_independent: %d expected contents checked against the independent decoder, "
          "%d failed" % (checked, failed))
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
