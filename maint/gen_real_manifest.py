#!/usr/bin/python3
"""gen_real_manifest.py: writes corpus/real/MANIFEST.tsv (docs/fixtures.md format)
for the real model files copied into corpus/real/ from ../shared/real/.

    maint/gen_real_manifest.py TFS_BINARY [SHARED_REAL_DIR]

Per file: a `default` line (GGUF: canonical verdict with data read, i.e. the
llama.cpp loader rule), for GGUF a `header-only` line (ggml metadata mode), and
for valid files a `strict` line (the strict profile must accept real writers).
The expectation comes from the shared manifest (the canonical readers'
verdicts); rule and category of parser_error lines are what `tfs check --json`
reports, and the script refuses to write when our verdict differs from the
canonical one.  Provenance: real: <repo>@<commit> <path> (<license>).
"""
import csv
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "generators"))
from tfsgen import manifest as fixturelib  # noqa: E402  (manifest columns and rows, shared with the fixture generators)

CORPUS = os.path.join(ROOT, "corpus", "real")
FLAGS = {"default": [], "header-only": ["--header-only"], "strict": ["--strict"]}


def tfs_check(tfs, path, fmt, mode):
    out = subprocess.run([tfs, "check", "--json", "--format", fmt] + FLAGS[mode] + [path],
                         capture_output=True, text=True, check=False).stdout
    return json.loads(out.splitlines()[0])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    tfs = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "..", "shared", "real")
    with open(os.path.join(shared, "MANIFEST.tsv"), encoding="utf-8") as f:
        src = {r["file"]: r for r in csv.DictReader(f, delimiter="\t")}
    rows, problems = [], []
    for d in sorted(os.listdir(CORPUS)):
        if not os.path.isdir(os.path.join(CORPUS, d)):
            continue
        for name in sorted(os.listdir(os.path.join(CORPUS, d))):
            rel = d + "/" + name
            s = src.get(rel)
            if s is None:
                problems.append(rel + ": not in the shared manifest")
                continue
            data = open(os.path.join(CORPUS, rel), "rb").read()
            sha = hashlib.sha256(data).hexdigest()
            if sha != s["sha256"] or len(data) != int(s["size"]):
                problems.append(rel + ": bytes differ from the shared manifest")
                continue
            fmt = "safetensors" if name.endswith(".safetensors") else "gguf"
            stem = d + "-" + name.rsplit(".", 1)[0]
            canon = s["canonical_verdict"]
            modes = [("default", s["ggml_data_mode_verdict"] or canon)]
            if fmt == "gguf":
                modes.append(("header-only", canon))
            if canon == "valid":
                modes.append(("strict", "valid"))
            prov = "real: %s@%s %s (%s)" % (s["source_repo"], s["source_commit"], s["source_path"], s["license"])
            for mode, expect in modes:
                r = tfs_check(tfs, os.path.join(CORPUS, rel), fmt, mode)
                if r["verdict"] != expect:
                    problems.append("%s [%s]: tfs says %s %s, canonical %s" % (rel, mode, r["verdict"], r["rule"], expect))
                    continue
                rule = r["rule"] if expect == "parser_error" else "-"
                cat = r["category"] if expect == "parser_error" else "-"
                ident = ("valid" if expect == "valid" else rule) + "-" + stem + ("" if mode == "default" else "-" + mode)
                desc = s["notes"].replace("\t", " ")
                if mode != "default":
                    desc += " [%s profile]" % mode
                rows.append(fixturelib.manifest_row(ident, rel, data, fmt, expect, rule, cat, mode, desc, prov))
    if problems:
        sys.exit("gen_real_manifest.py: not written:\n  " + "\n  ".join(problems))
    rows.sort()
    with open(os.path.join(CORPUS, "MANIFEST.tsv"), "w", encoding="utf-8", newline="") as f:
        f.write("\t".join(fixturelib.COLUMNS) + "\n")
        for r in rows:
            f.write(r + "\n")
    print("corpus/real/MANIFEST.tsv: %d lines" % len(rows))


if __name__ == "__main__":
    main()
