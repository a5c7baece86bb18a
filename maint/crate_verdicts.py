#!/usr/bin/python3
"""crate_verdicts.py: record the Rust safetensors crate's verdict on every safetensors fixture.

The crate (the canonical safetensors reader) cannot be built in CI: no registry
ships it and no third-party source is committed.  So its verdicts are kept as
data, corpus/CRATE_VERDICTS.tsv, one line per distinct fixture
content (keyed by SHA-256) of corpus/safetensors/MANIFEST.tsv and
corpus/real/MANIFEST.tsv (format safetensors):

    sha256 <TAB> outcome <TAB> first fixture id

outcome is what `st-oracle --runs N FILE` prints: `OK <n_tensors>`, or
`ERR <Variant>`; where the crate's HashMap order changes the answer
(equal data_offsets), every distinct outcome seen in N parses, sorted and
joined by ` | `.  The header lines name the crate commit (`st-oracle
--version`) and N.  tests/corpus/test_crate_verdicts.py checks the
manifests against this file in CI.

Usage (the oracle is built by ../shared/oracles/st-oracle/build.sh):
    maint/crate_verdicts.py --oracle PATH/st-oracle [--runs 64] [--root .]
    maint/crate_verdicts.py --oracle PATH/st-oracle --check   compare only

--check exits 1 when the file differs from what the oracle says now.  Exit 2
on usage errors or when the oracle cannot read a fixture.
"""
import argparse
import csv
import hashlib
import os
import subprocess
import sys

MANIFESTS = ("corpus/safetensors/MANIFEST.tsv", "corpus/real/MANIFEST.tsv")
OUT = "corpus/CRATE_VERDICTS.tsv"


def fixtures(root):
    """(sha256, id, path) of every safetensors manifest line, first line per sha256."""
    seen = {}
    for rel in MANIFESTS:
        manifest = os.path.join(root, rel)
        with open(manifest, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                if row["format"] != "safetensors":
                    continue
                path = os.path.join(os.path.dirname(manifest), row["path"])
                with open(path, "rb") as g:
                    sha = hashlib.sha256(g.read()).hexdigest()
                if sha != row["sha256"]:
                    raise SystemExit(f"crate_verdicts: {row['id']}: sha256 differs from its manifest line")
                seen.setdefault(sha, (row["id"], path))
    return seen


def outcome(oracle, runs, path):
    p = subprocess.run([oracle, "--runs", str(runs), path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.stderr.write(p.stderr.decode(errors="replace"))
        raise SystemExit(f"crate_verdicts: {oracle} {path}: exit {p.returncode}")
    parts = sorted({s.strip() for s in p.stdout.decode().strip().split("|")})
    return " | ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle", required=True, help="the st-oracle binary")
    ap.add_argument("--runs", type=int, default=64, help="parses per fixture (HashMap order), default 64")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 on any difference")
    a = ap.parse_args()

    v = subprocess.run([a.oracle, "--version"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    lines = [f"# {v}",
             f"# st-oracle --runs {a.runs}; regenerate: maint/crate_verdicts.py --oracle PATH/st-oracle",
             "sha256\toutcome\tfixture"]
    fx = fixtures(a.root)
    for sha in sorted(fx):
        fid, path = fx[sha]
        lines.append(f"{sha}\t{outcome(a.oracle, a.runs, path)}\t{fid}")
    text = "\n".join(lines) + "\n"
    out = os.path.join(a.root, OUT)
    old = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    if a.check:
        if old != text:
            print(f"crate_verdicts: {OUT} is stale (run maint/crate_verdicts.py --oracle ...)")
            return 1
        print(f"crate_verdicts: {len(fx)} fixtures, {OUT} current")
        return 0
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"crate_verdicts: {len(fx)} fixtures -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
