#!/usr/bin/python3
"""gen_expected.py: the expected contents of the conformance suite's valid fixtures.

For every `valid` line of corpus/{gguf,safetensors,real}/MANIFEST.tsv, the file
corpus/<folder>/expected/<id>.json holds exactly what

    tfs dump --json --content-only --format <format> [--strict | --header-only] <fixture>

prints for it (format and profile from the manifest line: `mode` strict adds
--strict, header-only adds --header-only).  That is the expected-content form of
../shared/design.md: tensors (name, type, shape, data offsets) and KV pairs with
tagged values; an adapter that reports `content` is compared with it.

Usage:
    maint/gen_expected.py --tfs build/dev/tools/tfs [--root .]          write / refresh
    maint/gen_expected.py --tfs build/dev/tools/tfs [--root .] --check  compare only

--check exits 1 when an expected file is missing, stale (differs from what
tfs dump prints now), orphaned (no valid manifest line has its id) or not a
complete JSON document; each problem is printed.  Without --check the files are
written and orphans removed.  Exit 2 on usage errors or when tfs dump fails.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

FOLDERS = ("gguf", "safetensors", "real", "minted")
PROFILE_FLAGS = {"default": [], "strict": ["--strict"], "header-only": ["--header-only"]}


def valid_lines(manifest):
    """The manifest's `valid` lines as dicts (header row gives the keys)."""
    with open(manifest, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [r for r in rows if r["expect"] == "valid"]


def dump(tfs, folder, row):
    mode = row["mode"]
    if mode not in PROFILE_FLAGS:
        raise SystemExit(f"gen_expected: {row['id']}: unknown mode {mode!r}")
    cmd = [tfs, "dump", "--json", "--content-only", "--format", row["format"], *PROFILE_FLAGS[mode],
           os.path.join(folder, row["path"])]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.stderr.write(p.stderr.decode(errors="replace"))
        raise SystemExit(f"gen_expected: {' '.join(cmd)}: exit {p.returncode} for a valid fixture")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tfs", required=True, help="the tfs binary")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                    help="project root (default: this script's ..)")
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 on any difference")
    a = ap.parse_args()

    problems, written, total = [], 0, 0
    for name in FOLDERS:
        folder = os.path.join(a.root, "corpus", name)
        manifest = os.path.join(folder, "MANIFEST.tsv")
        if not os.path.exists(manifest):
            continue
        exp_dir = os.path.join(folder, "expected")
        want = {}
        for row in valid_lines(manifest):
            want[row["id"] + ".json"] = dump(a.tfs, folder, row)
        total += len(want)
        have = set(os.listdir(exp_dir)) if os.path.isdir(exp_dir) else set()
        for fname in sorted(have - set(want)):
            problems.append(f"orphaned: corpus/{name}/expected/{fname} (no valid manifest line has this id)")
            if not a.check:
                os.remove(os.path.join(exp_dir, fname))
        for fname, data in sorted(want.items()):
            path = os.path.join(exp_dir, fname)
            rel = f"corpus/{name}/expected/{fname}"
            doc = json.loads(data)
            if doc.get("complete") is not True or doc.get("error") is not None:
                problems.append(f"incomplete: {rel}: tfs dump did not read the whole file")
            if fname not in have:
                problems.append(f"missing: {rel}")
            else:
                with open(path, "rb") as f:
                    if f.read() != data:
                        problems.append(f"stale: {rel} differs from what tfs dump --json prints")
                    else:
                        continue
            if not a.check:
                os.makedirs(exp_dir, exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
                written += 1
    for p in problems:
        print(p)
    if a.check:
        print(f"{total} expected contents, {len(problems)} problems")
        return 1 if problems else 0
    print(f"{total} expected contents, {written} written")
    return 1 if any(p.startswith("incomplete") for p in problems) else 0


if __name__ == "__main__":
    sys.exit(main())
