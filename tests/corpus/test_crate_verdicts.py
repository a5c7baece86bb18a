#!/usr/bin/python3
"""test_crate_verdicts.py SOURCE_DIR: every safetensors fixture's manifest line agrees with the
Rust crate's recorded verdict (corpus/CRATE_VERDICTS.tsv, written by
maint/crate_verdicts.py from the crate itself, never from libtfs).

For each safetensors line of corpus/safetensors/MANIFEST.tsv and corpus/real/MANIFEST.tsv:
- its sha256 must have a recorded crate outcome (else: run maint/crate_verdicts.py);
- expect `valid`: the crate says `OK n`, and n is the number of tensors of the line's
  expected content (corpus/<folder>/expected/<id>.json);
- expect `parser_error` (any profile, unless the case below): the crate rejects, and the set of
  variants it gave over its runs is exactly the line's category list (`A|B`);
- the listed implementation-defined set: a line whose rules are all strict-profile-only rules
  (profile STRICT in include/tfs/rules.def: hardening of what the crate leaves
  implementation-defined) must be one the crate accepts (`OK n`): strict rejects what the crate
  takes, by design.  Any other disagreement fails.
Also fails on recorded sha256s that no manifest line has (a stale record).
Prints one line per problem and a summary; exit 1 on any problem.
"""
import csv
import json
import os
import re
import sys

MANIFESTS = ("corpus/safetensors/MANIFEST.tsv", "corpus/real/MANIFEST.tsv")
VERDICTS = "corpus/CRATE_VERDICTS.tsv"


def strict_only_rules(src):
    pat = re.compile(r'^TFS_RULE\((ST\d+), *\d+, *ST, *STRICT,')
    with open(os.path.join(src, "include", "tfs", "rules.def"), encoding="utf-8") as f:
        return {m.group(1) for m in map(pat.match, f) if m}


def main():
    if len(sys.argv) != 2:
        print("usage: test_crate_verdicts.py SOURCE_DIR", file=sys.stderr)
        return 2
    src = sys.argv[1]
    recorded, header = {}, []
    with open(os.path.join(src, VERDICTS), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                header.append(line)
                continue
            sha, outcome, _fid = line.split("\t")
            if sha != "sha256":
                recorded[sha] = outcome
    strict = strict_only_rules(src)
    if not strict:
        print("test_crate_verdicts: no STRICT rules found in include/tfs/rules.def")
        return 1
    problems, checked, impl = [], 0, []
    used = set()
    for rel in MANIFESTS:
        folder = os.path.dirname(os.path.join(src, rel))
        with open(os.path.join(src, rel), newline="", encoding="utf-8") as f:
            rows = [r for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
                    if r["format"] == "safetensors"]
        for r in rows:
            fid, sha = r["id"], r["sha256"]
            checked += 1
            if sha not in recorded:
                problems.append(f"{fid}: no recorded crate verdict for sha256 {sha} (run maint/crate_verdicts.py)")
                continue
            used.add(sha)
            out = [s.strip() for s in recorded[sha].split("|")]
            oks = [o for o in out if o.startswith("OK ")]
            errs = {o[4:] for o in out if o.startswith("ERR ")}
            rules = set(r["rule"].split("|"))
            if r["expect"] == "valid":
                if len(out) != 1 or not oks:
                    problems.append(f"{fid}: manifest valid, crate: {recorded[sha]}")
                    continue
                with open(os.path.join(folder, "expected", fid + ".json"), encoding="utf-8") as g:
                    n = len(json.load(g)["tensors"])
                if int(oks[0][3:]) != n:
                    problems.append(f"{fid}: crate {oks[0]}, expected content has {n} tensors")
            elif r["expect"] in ("parser_error", "implementation_defined") and rules <= strict:
                impl.append(fid)
                if len(out) != 1 or not oks:
                    problems.append(f"{fid}: strict-only rule {r['rule']} on a file the crate rejects: "
                                    f"{recorded[sha]} (the line should name the crate's rule)")
            elif r["expect"] == "parser_error":
                want = set(r["category"].split("|"))
                if oks or errs != want:
                    problems.append(f"{fid}: manifest {r['category']}, crate: {recorded[sha]}")
            else:
                problems.append(f"{fid}: expect {r['expect']} with rule {r['rule']} outside the "
                                f"strict-only rules: no crate comparison defined")
    for sha in sorted(set(recorded) - used):
        problems.append(f"recorded sha256 {sha} is in no manifest (stale: run maint/crate_verdicts.py)")
    for p in problems:
        print("FAIL " + p)
    print(f"test_crate_verdicts: {checked} safetensors lines, {len(recorded)} recorded outcomes "
          f"({' '.join(h.lstrip('# ') for h in header[:1])}); {len(impl)} lines in the "
          f"implementation-defined set (strict-only rules {','.join(sorted(strict))}, crate accepts); "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
