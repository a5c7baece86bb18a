#!/usr/bin/python3
"""maint/mutants/mint_mutant.py: a fixture that kills a given mutant, found by a differential search.

  maint/mutants/mint_mutant.py MUTANT_ID --out DIR [--build-dir DIR] [--budget S] [--seed N]
                               [--oracle 'CMD {file}'] [--max-tests N] [SEED...]

The mutant (an id of `maint/mutants/run.py --list`) is compiled and `tfs` is
linked against it (run.py's archive and relink path, the build tree only
read).  Candidates: the SEED model files (default: the corpus folder of the
mutated file's format), then structure-aware mutants of them (`tfs mutate
--seed K`, K from --seed on).  Each candidate is classified by the unmutated
and the mutated `tfs` in every profile of its format (`tfs check --json`:
verdict and rule; for an accepted file the sha256 of `tfs dump --json
--content-only`, what `tfs conform` compares).  The first candidate whose
classifications differ is minimised (chunks of bytes removed, largest first,
while the unmutated classification stays the same and the mutant's still
differs; at most --max-tests tries), then confirmed by --oracle (adapter
protocol: exit 0 accepts, 1 rejects; for safetensors st-oracle, for GGUF the
ggml adapter): the oracle must accept exactly when our default profile does,
else the candidate is dropped and the search goes on.  The result is written to
DIR as a fixture file and a MANIFEST.tsv line in the corpus's columns (mode:
the first profile that shows the difference) with expected/<id>.json for a
valid one (what maint/gen_expected.py writes): a `tfs mint --out` folder, which
generators/contribute.py adds to corpus/minted.

  --out DIR       where the fixture and its MANIFEST.tsv line go (created)
  --build-dir     a configured and built tree (default build/dev)
  --budget S      stop searching after S seconds (default 300)
  --seed N        first `tfs mutate` seed (default 1)
  --oracle CMD    the confirming reader, {file} replaced by the path; without
                  it nothing is confirmed and the line's provenance says so
  --max-tests N   most classifications of the minimiser (default 400)
A corpus fixture that already shows the difference in a profile its manifest
line names stops the search: the corpus kills that mutant (exit 3).
Exit 0 a fixture written, 1 none found within the budget (or none the oracle
confirms), 2 usage or build error, 3 the corpus already shows the mutant.
"""
import argparse
import hashlib
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cmut  # noqa: E402
import run  # noqa: E402

PROFILES = {"safetensors": [("default", []), ("strict", ["--strict"])],
            "gguf": [("default", []), ("strict", ["--strict"]), ("header-only", ["--header-only"])]}
EXT = {"safetensors": ".safetensors", "gguf": ".gguf"}


def formats_of(path):
    """the formats whose reader the mutated file belongs to"""
    if path.startswith("parsers/safetensors/"):
        return ["safetensors"]
    if path.startswith("parsers/gguf/"):
        return ["gguf"]
    return ["safetensors", "gguf"]


def classify(tfs, fmt, path):
    """{profile: (verdict, rule, content sha256 or None)} of `tfs check` / `tfs dump` on path"""
    out = {}
    for prof, flags in PROFILES[fmt]:
        r = subprocess.run([tfs, "check", "--json", "--format", fmt] + flags + [path], capture_output=True,
                           text=True, timeout=20)
        try:
            j = json.loads(r.stdout.split("\n")[0])
            v, rule = j.get("verdict"), j.get("rule")
        except (ValueError, IndexError):
            v, rule = f"crash({r.returncode})", None
        content = None
        if v == "valid":
            d = subprocess.run([tfs, "dump", "--json", "--content-only", "--format", fmt] + flags + [path],
                               capture_output=True, timeout=20)
            content = hashlib.sha256(d.stdout).hexdigest()
        out[prof] = (v, rule, content)
    return out


def first_difference(ours, theirs, fmt):
    """the first profile whose classification differs, or None"""
    for prof, _ in PROFILES[fmt]:
        if ours[prof] != theirs[prof]:
            return prof
    return None


def minimise(data, keep, max_tests):
    """data with chunks removed while keep(bytes) holds (largest chunks first); at most max_tests calls"""
    tests = 0
    n = max(1, len(data) // 2)
    while n >= 1 and tests < max_tests:
        i = 0
        changed = False
        while i < len(data) and tests < max_tests:
            cand = data[:i] + data[i + n:]
            tests += 1
            if cand and keep(cand):
                data = cand
                changed = True
            else:
                i += n
        if not changed:
            n //= 2
    return data


def corpus_modes():
    """{absolute fixture path: {(id, mode)}} of corpus/*/MANIFEST.tsv: the profiles tfs conform compares
    each fixture in"""
    out = {}
    for fmt in ("safetensors", "gguf"):
        mp = os.path.join(ROOT, "corpus", fmt, "MANIFEST.tsv")
        if not os.path.exists(mp):
            continue
        for ln in open(mp, encoding="utf-8").read().splitlines()[1:]:
            c = ln.split("\t")
            if len(c) >= 9:
                out.setdefault(os.path.join(ROOT, "corpus", fmt, c[1]), set()).add((c[0], c[8]))
    return out


def seed_files(args, fmts):
    out = []
    for a in args or [os.path.join(ROOT, "corpus", f) for f in fmts]:
        if os.path.isdir(a):
            for d, dirs, names in sorted(os.walk(a)):
                dirs.sort()
                out += [os.path.join(d, n) for n in sorted(names) if n.endswith((".gguf", ".safetensors"))]
        elif os.path.isfile(a):
            out.append(a)
    return out


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("mutant", nargs="?")
    ap.add_argument("seeds", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build/dev"))
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--oracle")
    ap.add_argument("--max-tests", type=int, default=400)
    ap.add_argument("-h", "--help", action="store_true")
    try:
        a = ap.parse_args()
    except SystemExit:
        return 2
    if a.help:
        print(__doc__)
        return 0
    if not a.mutant or not a.out or "@" not in a.mutant:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    path = a.mutant.split("@", 1)[0]
    src = open(os.path.join(ROOT, path)).read()
    found = [m for m in cmut.mutants(path, src) if m["id"] == a.mutant]
    if not found:
        print(f"mint_mutant: no mutant {a.mutant} (run.py --list {path})", file=sys.stderr)
        return 2
    m = found[0]
    b = run.Build(a.build_dir)
    tfs = [p for p in b.targets if os.path.basename(p) == "tfs"]
    if not tfs or path not in b.compile:
        print(f"mint_mutant: {a.build_dir} has no tfs program or no compile command for {path}", file=sys.stderr)
        return 2
    tfs = tfs[0]
    work = tempfile.mkdtemp(prefix="tfs-mint-mutant-")
    t0 = time.monotonic()
    try:
        r = run.Runner(b, work, [])
        archive = r.build_mutant(work, path, src, m)
        progs = {}
        err = r.link(work, archive, progs, [tfs]) if archive else "did not compile"
        if err:
            print(f"mint_mutant: {a.mutant}: {err}", file=sys.stderr)
            return 2
        mtfs = progs[tfs]
        fmts = formats_of(path)
        seeds = seed_files(a.seeds, fmts)
        rng = random.Random(a.seed)
        cand = os.path.join(work, "cand")
        print(f"mint_mutant: {a.mutant}\n{cmut.diff_lines(src, m)}\n{len(seeds)} seed files", file=sys.stderr)

        def candidates():
            for s in seeds:
                yield s, open(s, "rb").read(), "seed"
            k = a.seed
            while True:
                s = rng.choice(seeds)
                p = subprocess.run([tfs, "mutate", "-q", "--seed", str(k), s, cand + ".mut"], capture_output=True)
                if p.returncode == 0:
                    yield s, open(cand + ".mut", "rb").read(), f"tfs mutate --seed {k}"
                k += 1

        modes = corpus_modes()
        tried = 0
        for seed_path, data, how in candidates():
            if time.monotonic() - t0 > a.budget:
                break
            tried += 1
            fmt = next((f for f in fmts if seed_path.endswith(EXT[f])), fmts[0])
            cp = cand + EXT[fmt]
            open(cp, "wb").write(data)
            ours, theirs = classify(tfs, fmt, cp), classify(mtfs, fmt, cp)
            prof = first_difference(ours, theirs, fmt)
            if not prof:
                continue
            if how == "seed":
                lines = modes.get(os.path.abspath(seed_path), ())
                shown = sorted(i for i, mode in lines if ours.get(mode) != theirs.get(mode))
                if shown:
                    print(f"mint_mutant: the corpus already shows {a.mutant}: fixture {shown[0]} "
                          f"(ours {ours[prof][:2]}, mutant {theirs[prof][:2]} [{prof}]); nothing minted")
                    return 3

            def keep(bts, fmt=fmt, ours=ours, prof=prof):
                open(cp, "wb").write(bts)
                return classify(tfs, fmt, cp) == ours and classify(mtfs, fmt, cp)[prof] != ours[prof]

            small = minimise(data, keep, a.max_tests)
            open(cp, "wb").write(small)
            theirs = classify(mtfs, fmt, cp)
            v, rule, _ = ours[prof]
            oracle = "not confirmed (no --oracle)"
            if a.oracle:
                o = subprocess.run(a.oracle.replace("{file}", shlex.quote(cp)), shell=True, capture_output=True,
                                   text=True, timeout=60)
                if o.returncode not in (0, 1) or (o.returncode == 0) != (ours["default"][0] == "valid"):
                    print(f"  candidate {tried} ({how} of {os.path.relpath(seed_path, ROOT)}): the oracle "
                          f"disagrees (exit {o.returncode}: {o.stdout.strip()[:80]}); searching on", file=sys.stderr)
                    continue
                oracle = "oracle: " + (o.stdout.strip().split("\n")[0][:80] or f"exit {o.returncode}")
            sha = hashlib.sha256(small).hexdigest()
            tv = theirs[prof]
            desc = (f"kills mutant {a.mutant} ({m['op']}, line {m['line']}): the mutant gives "
                    f"{tv[0]} {tv[1] or ''}".rstrip() + (" with other content" if tv[0] == ours[prof][0] == "valid"
                                                         else "") + f" [{prof}]")
            rel = os.path.relpath(os.path.abspath(seed_path), ROOT)
            seed_name = rel if not rel.startswith("..") else os.path.basename(seed_path)  # no machine path
            prov = ("minted by maint/mutants/mint_mutant.py from "
                    + (seed_name if how == "seed" else f"{how} of {seed_name}") + f" (minimised); {oracle}")
            # one line for the default profile, and one for each profile whose verdict differs from it
            # (docs/fixtures.md: a file whose verdict differs by profile has one line per profile)
            lines_for = [p for p, _ in PROFILES[fmt] if p == "default" or ours[p][:2] != ours["default"][:2]]
            fid = None
            os.makedirs(a.out, exist_ok=True)
            mp = os.path.join(a.out, "MANIFEST.tsv")
            new = not os.path.exists(mp)
            with open(mp, "a") as f:
                if new:
                    f.write("id\tpath\tsha256\tsize\tformat\texpect\trule\tcategory\tmode\tdescription\tprovenance\n")
                for p in lines_for:
                    pv, prule, _ = ours[p]
                    pid = f"{prule if pv != 'valid' else 'valid'}-mutant-{sha[:8]}"
                    fid = fid or pid  # the file is named by the default line
                    flags = dict(PROFILES[fmt])[p]
                    j = json.loads(subprocess.run([tfs, "check", "--json", "--format", fmt] + flags + [cp],
                                                  capture_output=True, text=True).stdout.split("\n")[0])
                    expect = "valid" if pv == "valid" else (pv if pv == "implementation_defined" else "parser_error")
                    if p == lines_for[0]:
                        shutil.copyfile(cp, os.path.join(a.out, fid + EXT[fmt]))
                    f.write("\t".join([pid, fid + EXT[fmt], sha, str(len(small)), fmt, expect, prule or "-",
                                        j.get("category") or "-", p, desc if p == "default" else
                                        f"the file of {fid} in the {p} profile", prov]) + "\n")
                    if expect == "valid":  # the expected content, as maint/gen_expected.py writes it
                        os.makedirs(os.path.join(a.out, "expected"), exist_ok=True)
                        with open(os.path.join(a.out, "expected", pid + ".json"), "wb") as ef:
                            ef.write(subprocess.run([tfs, "dump", "--json", "--content-only", "--format", fmt] +
                                                    flags + [cp], capture_output=True, check=True).stdout)
            print(f"mint_mutant: {fid} ({len(small)} bytes, candidate {tried}, "
                  f"{time.monotonic() - t0:.0f} s): ours {ours[prof][:2]}, mutant {tv[:2]} [{prof}]; {oracle}")
            return 0
        print(f"mint_mutant: no input found on which {a.mutant} differs ({tried} candidates, "
              f"{time.monotonic() - t0:.0f} s)")
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
