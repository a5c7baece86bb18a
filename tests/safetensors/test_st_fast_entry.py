#!/usr/bin/python3
"""test_st_fast_entry.py PROBE_FAST PROBE_GENERIC SOURCE_DIR [--count N] [--seed S]:
the safetensors fast entry path (parsers/safetensors/st_entries.c fast_entry) changes nothing
that libtfs reports.  PROBE_FAST links libtfs, PROBE_GENERIC links tfs_generic (the fast path
compiled out, TFS_ST_NO_FAST_ENTRY; cmake -DTFS_ST_FAST_ENTRY=OFF does the same to libtfs);
both print, per file and profile (default, strict), the status, rule, offset, index, header
fields and the view (tensors, __metadata__, the failing record's fields): the outputs must be
identical.

Files: every safetensors fixture of corpus/safetensors and corpus/real, and N (default 3000)
generated headers: tensor entries in the canonical layout the fast path takes
({"dtype":"D","shape":[..],"data_offsets":[a,b]}), varied where the fast path must hand over to
the generic parser (unknown, escaped or long dtypes; leading zeros, 20-digit, negative and
fractional numbers; whitespace, other field orders, missing, extra and repeated fields; names
with escapes; __metadata__), some then cut or with one byte changed.  Deterministic (--seed).
Prints the first differences and a summary; exit 1 on any difference.
"""
import argparse
import csv
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "generators"))
from tfsgen import safetensors as st  # noqa: E402

DTYPES = [name for name, _ in st.DTYPES]  # include/tfs/st_dtypes.def, through tfsgen
ODD_DTYPES = ["F33", "f32", "", "F8_E4M3FNUZX", "VERYLONGDTYPENAME1", "F\\u0033" + "2", "F32 ", "Q4_0"]


def number(r, v):
    k = r.random()
    if k < 0.82:
        return str(v)
    return r.choice(["0" + str(v), "-" + str(v), str(v) + ".0", str(v) + "e0", "18446744073709551615",
                     "18446744073709551616", "99999999999999999999", "1" * 19, "0", "00", "-0", "1E2", str(v) + " "])


def entry(r, dtype, shape, start, end):
    fields = [("dtype", json.dumps(dtype) if r.random() > 0.02 else "\"%s\"" % r.choice(ODD_DTYPES)),
              ("shape", "[" + ",".join(number(r, d) for d in shape) + "]"),
              ("data_offsets", "[%s,%s]" % (number(r, start), number(r, end)))]
    k = r.random()
    if k < 0.03:
        r.shuffle(fields)
    elif k < 0.05:
        fields.pop(r.randrange(3))
    elif k < 0.07:
        fields.insert(r.randrange(4), ("extra", r.choice(["1", "null", "[1,2]", "{\"a\":1}", "\"x\""])))
    elif k < 0.08:
        fields.append(r.choice(fields))
    sep = ":" if r.random() > 0.03 else r.choice([" :", ": ", ":\n"])
    com = "," if r.random() > 0.03 else r.choice([" ,", ", ", ",\t"])
    body = com.join(json.dumps(k) + sep + v for k, v in fields)
    return "{" + body + "}" if r.random() > 0.02 else "{ " + body + " }"


def header(r):
    n = r.choice([0, 1, 1, 2, 3, 5, 8, 40])
    parts, off = [], 0
    if r.random() < 0.2:
        parts.append("\"__metadata__\":" + json.dumps({"k%d" % i: "v\u00e9\\" * i for i in range(r.randrange(3))}))
    for i in range(n):
        dtype = r.choice(DTYPES)
        bits = {"F4": 4, "F6_E2M3": 6}.get(dtype, 8 * (1 if dtype in ("I8", "U8", "BOOL") or dtype.startswith("F8") else
                                              2 if dtype in ("F16", "BF16", "I16", "U16") else
                                              4 if dtype in ("F32", "I32", "U32") else 8))
        shape = [r.choice([0, 1, 2, 3, 4, 8]) for _ in range(r.choice([0, 1, 1, 2, 3]))]
        elems = 1
        for d in shape:
            elems *= d
        size = elems * bits // 8 if (elems * bits) % 8 == 0 else elems
        if r.random() < 0.05:
            size += r.choice([-1, 1])
        start = off if r.random() > 0.05 else r.choice([0, off + 1, max(off - 1, 0)])
        name = r.choice(["t%d" % i, "layer.%d.weight" % i, "n\\u00e9%d" % i, "q\\\"%d" % i, "w%d" % (i % 3)])
        parts.append("\"%s\":%s" % (name, entry(r, dtype, shape, start, start + max(size, 0))))
        off = start + max(size, 0)
    if r.random() < 0.5:
        r.shuffle(parts)
    text = ("{" + ",".join(parts) + "}").encode()
    if r.random() < 0.3:
        text += b" " * r.randrange(8)
    data = bytes(off)
    blob = st.st_file(text, data)
    k = r.random()
    if k < 0.15 and len(text) > 2:
        i = 8 + r.randrange(len(text))
        blob = blob[:i] + bytes([r.choice(b"{}[],:\"\\0123456789 -.eE\x00\x7f\xc3")]) + blob[i + 1:]
    elif k < 0.2:
        blob = blob[:r.randrange(len(blob) + 1)]
    return blob


BOUNDARY = [0, 1, 9, 10, 99, 1234567, 12345678, 123456789, 9999999999999999, 10**16, 12345678901234567,
            10**18, 2**63, 2**64 - 1, 9999999999999999999]


def canonical(r):
    """A header of canonical entries only (any values: many files fail Metadata::validate, ST3xx)."""
    parts, off, dtype = [], 0, r.choice(DTYPES)
    if r.random() < 0.3:
        parts.append("\"__metadata__\":" + json.dumps({"k": "v"}))
    for i in range(r.choice([1, 2, 3, 7, 20])):
        if r.random() < 0.4:
            dtype = r.choice(DTYPES)
        if r.random() < 0.5:
            shape = [r.choice([0, 1, 2, 3, 8]) for _ in range(r.choice([0, 1, 2, 3]))]
            size = st.nbytes(dtype, shape)
            start, end = off, off + (size if size is not None else 1)
        else:
            shape = [r.choice(BOUNDARY) for _ in range(r.choice([0, 1, 2, 4, 8]))]
            start, end = r.choice(BOUNDARY), r.choice(BOUNDARY)
        off = max(off, end) if end < 1 << 16 else off
        parts.append("\"%s\":%s" % (r.choice(["t%d" % i, "n\\u00e9%d" % i, "q\\\"%d" % i]),
                                     st.ent(dtype, shape, start, end)))
    sep = r.choice([",", ", ", ",\n"])
    return st.st_file("{" + sep.join(parts) + "}", bytes(off))


NUM = "(?:0|[1-9][0-9]{0,18})"
CANON = re.compile(r'\{"dtype":"([^"\\]*)","shape":\[(?:%s(?:,%s)*)?\],"data_offsets":\[%s,%s\]\}\Z'
                   % (NUM, NUM, NUM, NUM))


def expected_lookups(blob):
    """dtype-name lookups of the fast path for a header of canonical entries only (the runs of one
    dtype in document order); None when some entry is not canonical or the JSON cannot be split"""
    if len(blob) < 8:
        return None
    n = struct.unpack("<Q", blob[:8])[0]
    try:
        text = blob[8:8 + n].decode("utf-8")
    except UnicodeDecodeError:
        return None
    dec, ws = json.JSONDecoder(), re.compile(r"[ \t\n\r]*")
    i = ws.match(text).end()
    if text[i:i + 1] != "{":
        return None
    i = ws.match(text, i + 1).end()
    dtypes = []
    try:
        while text[i:i + 1] != "}":
            key, i = dec.raw_decode(text, i)
            i = ws.match(text, i).end()
            if text[i:i + 1] != ":":
                return None
            i = ws.match(text, i + 1).end()
            v0 = i
            _, i = dec.raw_decode(text, i)
            if key != "__metadata__":
                m = CANON.match(text[v0:i])
                if not m or m.group(1) not in DTYPES:
                    return None
                dtypes.append(m.group(1))
            i = ws.match(text, i).end()
            if text[i:i + 1] == ",":
                i = ws.match(text, i + 1).end()
    except ValueError:
        return None
    return sum(1 for k, d in enumerate(dtypes) if k == 0 or d != dtypes[k - 1])


def fixtures(src):
    out = []
    for rel in ("corpus/safetensors/MANIFEST.tsv", "corpus/real/MANIFEST.tsv"):
        with open(os.path.join(src, rel), newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row["format"] == "safetensors":
                    out.append(os.path.join(src, os.path.dirname(rel), row["path"]))
    return sorted(set(out))


def probe(exe, files):
    p = subprocess.run([exe, "-"], input="\n".join(files).encode(), stdout=subprocess.PIPE)
    if p.returncode:
        raise SystemExit("test_st_fast_entry: %s exited %d" % (exe, p.returncode))
    return p.stdout.decode(errors="replace").splitlines()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fast")
    ap.add_argument("generic")
    ap.add_argument("source")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--canonical", type=int, default=400)
    ap.add_argument("--seed", type=int, default=16)
    a = ap.parse_args()
    files = fixtures(a.source)
    n_fix = len(files)
    r = random.Random(a.seed)
    with tempfile.TemporaryDirectory(prefix="tfs-fast-entry.") as tmp:
        for i in range(a.count):
            p = os.path.join(tmp, "gen-%05d.safetensors" % i)
            with open(p, "wb") as f:
                f.write(header(r))
            files.append(p)
        for i in range(a.canonical):
            p = os.path.join(tmp, "canon-%05d.safetensors" % i)
            with open(p, "wb") as f:
                f.write(canonical(r))
            files.append(p)
        fast, gen = probe(a.fast, files), probe(a.generic, files)
        lookups = []
        for k, ln in enumerate(fast):
            head, sep, n = ln.rpartition("\tL ")
            if not sep:
                raise SystemExit("test_st_fast_entry: %s prints no lookup count (\\tL n)" % a.fast)
            fast[k] = head
            lookups.append(int(n))
        diff = [(x, y) for x, y in zip(fast, gen) if x != y]
        if len(fast) != len(gen) or len(fast) != 2 * len(files):
            print("FAIL line counts: fast %d, generic %d, want %d" % (len(fast), len(gen), 2 * len(files)))
            diff.append(None)
        for d in diff[:5]:
            if d:
                print("FAIL fast:    %s\n     generic: %s" % (d[0][:600], d[1][:600]))
        # the fast path taken: canonical-only headers whose scan completes
        slow, checked = [], 0
        for k, path in enumerate(files):
            rows = fast[2 * k:2 * k + 2]
            if any(ln.split("\t")[0] != path for ln in rows):
                break  # counted above as a line-count failure
            if any(ln.split("\t")[2] != "ok" and not ln.split("\t")[3][:3] in ("ST3", "ST5") for ln in rows):
                continue
            with open(path, "rb") as f:
                want = expected_lookups(f.read())
            if want is None:
                continue
            checked += 1
            got = lookups[2 * k:2 * k + 2]
            if got != [want, want]:
                slow.append("%s: %s dtype lookups (default, strict), want %d: the fast path gave up on a "
                            "canonical entry" % (path, got, want))
        for s in slow[:5]:
            print("FAIL " + s)
        print("test_st_fast_entry: %d canonical-only headers took the fast path for every entry, %d did not"
              % (checked - len(slow), len(slow)))
        if checked < a.canonical // 2:
            print("FAIL only %d canonical-only headers checked" % checked)
            slow.append(None)
        ok = [ln.split("\t")[2] for ln in fast]
        print("test_st_fast_entry: %d files (%d fixtures, %d + %d generated) x 2 profiles: %d ok, %d invalid; "
              "%d differ between the fast and the generic entry path"
              % (len(files), n_fix, a.count, a.canonical, ok.count("ok"), ok.count("invalid"), len(diff)))
    return 1 if diff or slow else 0


if __name__ == "__main__":
    sys.exit(main())
