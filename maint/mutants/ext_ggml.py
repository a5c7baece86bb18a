#!/usr/bin/python3
"""maint/mutants/ext_ggml.py: the corpus's kill rate on mutants of ggml's gguf.cpp (docs/mutation-testing.md,
"The corpus against ggml's gguf.cpp").

  maint/mutants/ext_ggml.py --ggml-src DIR [--any-commit] [--shuffle N] [--budget S] [--limit K]
                            [-j N] [--out DIR] [--build-dir DIR] [--work DIR] [--only RX]
                            [--timeout S] [--rule ID] [--list]

A second implementation is the real measure of a conformance suite: how many slips in a reader
that is not ours do the fixtures alone show?  The operator mutants of maint/mutants/cmut.py in the
part of ggml's src/gguf.cpp that reads a file (READER below: the gguf_reader helpers,
gguf_read_emplace_helper, gguf_init_from_reader and the file path that reaches it; not the writer,
not the buffer reader) are judged by the corpus through ggml's conformance adapter
(conformance/adapters/ggml_adapter.c), as ctest test_adapter_ggml_meta and test_adapter_ggml_data
run it:
  tfs conform --format gguf --profile header-only --adapter 'ggml-adapter --meta {file}'
              --expected-failures conformance/adapters/ggml-meta.xfail
  tfs conform --format gguf --adapter 'ggml-adapter --data {file}'
              --expected-failures conformance/adapters/ggml-data.xfail
The ggml base library (the sources ggml's CMake puts in ggml-base that gguf.cpp needs, the list
fuzz/ext/CMakeLists.txt builds for ext_ggml_gguf) is compiled once, unmutated, into WORK/base-KEY
(kept between runs); per mutant only gguf.cpp is compiled again, and libggml-base.so is linked
into a private folder that the adapter loads (TFS_GGML_LIB).  The unmutated library's run is the
baseline: ggml has documented divergences from the manifests, so a mutant is judged against what
unmutated ggml does, fixture by fixture, not against the manifests.
Outcomes: killed (some case's outcome (result, verdict, category, exit) differs from the
baseline's; metadata mode first, then data mode), timeout (a case ran past --timeout, or a whole
run past its limit: counted as detected), survived, did-not-compile, not-run (--budget, --limit).
Score = (killed + timeout) / (killed + timeout + survived), with its 95% Wilson interval when the
mutants judged are a sample (--shuffle with --budget or --limit).

  --ggml-src DIR  a ggml checkout (git) at the commit docs/fuzzing-third-party.md pins (PIN below)
  --any-commit    accept another commit (the report names it)
  --build-dir DIR a built tree with tfs and ggml-adapter (default build/dev); only read
  --work DIR      base objects and mutant folders (default BUILD/ggml-mutants)
  --out DIR       where ggml-mutants.md and ggml-mutants.json go (default WORK)
  --shuffle N     judge the mutants in a random order (seed N)
  --budget S      start no mutant after S seconds (the rest: not-run)
  --limit K       judge at most K mutants (the rest: not-run)
  -j N            mutants at once (default 1; each `tfs conform` runs 2 adapters at once / N)
  --only RX       only the mutants whose id, function or diff matches RX
  --timeout S     per case, as `tfs conform --timeout` (default 10)
  --rule ID       only the cases of this rule or family (`tfs conform --rule`; repeatable): a quick
                  check of the tool (ctest test_mutants_ext_ggml), never a figure
  --list          print the mutants (id, function, diff) and exit
Exit 0 done, 2 usage, build or baseline failure (a wrong commit without --any-commit, no tfs or
ggml-adapter in the build tree, a base that does not compile, a baseline run without a report).
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cmut  # noqa: E402
from run import head_commit, run_group, wilson  # noqa: E402

# the ggml commit docs/fuzzing-third-party.md pins ("Pinned commits"); test_mutants_ext_ggml checks they agree
PIN = "d99724f2b141fed9e1a9f402213506c081433465"
GGUF = "src/gguf.cpp"
# ggml-base's sources that gguf.cpp links against (as fuzz/ext/CMakeLists.txt, ext_ggml_gguf)
BASE = ["ggml.c", "ggml.cpp", "ggml-alloc.c", "ggml-backend.cpp", "ggml-backend-meta.cpp", "ggml-opt.cpp",
        "ggml-threading.cpp", "ggml-quants.c"]
# the functions that read a file through gguf_init_from_file (the adapter's path)
READER = ["gguf_reader::", "gguf_read_emplace_helper", "gguf_init_from_reader", "gguf_init_from_callback",
          "gguf_file_reader_callback", "gguf_init_from_file_ptr", "gguf_init_from_file"]
MODES = [("meta", ["--profile", "header-only"], "conformance/adapters/ggml-meta.xfail"),
         ("data", [], "conformance/adapters/ggml-data.xfail")]
STATUSES = ["killed", "timeout", "survived", "did-not-compile", "not-run"]


def functions(src, toks):
    """[(name, first char, end char)] of the functions defined at the top level of src and of the
    methods of its top-level structs ("struct::method"), bodies from `{` to `}`"""
    out = []

    def scan(lo, hi, prefix):
        i = lo
        while i < hi:
            t = toks[i]
            if t.text == "struct" and i + 2 < hi and toks[i + 1].kind == "id" and toks[i + 2].text == "{":
                close = cmut._match(toks, i + 2)
                scan(i + 3, close, prefix + toks[i + 1].text + "::")
                i = close + 1
                continue
            if t.kind == "id" and i + 1 < hi and toks[i + 1].text == "(":
                close = cmut._match(toks, i + 1)
                j = close + 1
                while j < hi and toks[j].text in ("const", "noexcept", "override"):
                    j += 1
                if j < hi and toks[j].text == ":":  # a constructor's initialiser list
                    while j < hi and toks[j].text != "{":
                        j = cmut._match(toks, j) + 1 if toks[j].text == "(" else j + 1
                if j < hi and toks[j].text == "{":
                    end = cmut._match(toks, j)
                    out.append((prefix + t.text, toks[j].start, toks[end].end))
                    i = end + 1
                    continue
                i = close + 1
                continue
            if t.text == "{":  # an initialiser or a namespace-less block: not a function
                i = cmut._match(toks, i) + 1
                continue
            i += 1
    scan(0, len(toks), "")
    return out


def template_brackets(src, toks):
    """start offsets of the `<` `>` tokens that are template brackets: ggml writes `name<` without a
    space and a comparison `a < b` with spaces (its style), the `>` is the matching one"""
    skip = set()
    for i, t in enumerate(toks):
        if t.text != "<" or i == 0 or toks[i - 1].kind != "id" or src[t.start - 1].isspace():
            continue
        depth = 0
        for j in range(i, len(toks)):
            x = toks[j].text
            if x == "<" and toks[j - 1].kind == "id" and not src[toks[j].start - 1].isspace():
                depth += 1
            elif x in (">", ">>"):
                depth -= len(x)
            elif x in (";", "{", "}"):
                break
            if depth <= 0:
                skip.update((t.start, toks[j].start))
                break
    return skip


def reader_mutants(src):
    """cmut's mutants of gguf.cpp inside READER's functions (template brackets left out), each with its
    "function"""
    toks = cmut.tokenize(src)
    funcs = [f for f in functions(src, toks) if any(f[0] == r or (r.endswith("::") and f[0].startswith(r))
                                                    for r in READER)]
    tmpl = template_brackets(src, toks)
    out = []
    for m in cmut.mutants(GGUF, src):
        if m["op"] == "ror" and m["start"] in tmpl:
            continue
        f = next((f for f in funcs if f[1] <= m["start"] < f[2]), None)
        if f:
            m["function"] = f[0]
            out.append(m)
    return out, sorted({f[0] for f in funcs})


def git_head(d):
    r = subprocess.run(["git", "-C", d, "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


class Lib:
    """the ggml base library: unmutated objects in WORK/base-KEY, gguf.cpp per mutant"""

    def __init__(self, gsrc, commit, work):
        self.g = gsrc
        short = commit[:7] if commit else "unknown"
        self.flags = ["-O1", "-fPIC", "-w", "-I", os.path.join(gsrc, "include"), "-I", os.path.join(gsrc, "src"),
                      "-D_GNU_SOURCE", f'-DGGML_VERSION="src-{short}"', f'-DGGML_COMMIT="{short}"',
                      "-DGGML_SCHED_MAX_COPIES=4"]
        self.cc = os.environ.get("CC", "cc")
        self.cxx = os.environ.get("CXX", "c++")
        key = hashlib.sha256(json.dumps([commit, self.flags, self.cc, self.cxx]).encode())
        for f in BASE:
            key.update(open(os.path.join(gsrc, "src", f), "rb").read())
        self.dir = os.path.join(work, "base-" + key.hexdigest()[:12])

    def compile(self, source, obj):
        cpp = source.endswith(".cpp")
        cmd = ([self.cxx, "-std=c++17"] if cpp else [self.cc, "-std=gnu11"]) + self.flags + ["-c", source, "-o", obj]
        return subprocess.run(["nice", "-n", "10"] + cmd, capture_output=True, text=True, timeout=600)

    def base(self, log):
        """the unmutated objects (compiled when absent); an error message or "" """
        os.makedirs(self.dir, exist_ok=True)
        for f in BASE:
            obj = os.path.join(self.dir, f + ".o")
            if os.path.exists(obj):
                continue
            log(f"compiling {f} (once: {os.path.relpath(self.dir, ROOT) if self.dir.startswith(ROOT) else self.dir})")
            r = self.compile(os.path.join(self.g, "src", f), obj + ".tmp")
            if r.returncode != 0:
                return f"{f} does not compile:\n{r.stderr[-2000:]}"
            os.replace(obj + ".tmp", obj)
        return ""

    def link(self, gguf_obj, d):
        """d/libggml-base.so from the base objects and gguf_obj; its path or None"""
        so = os.path.join(d, "libggml-base.so")
        objs = [os.path.join(self.dir, f + ".o") for f in BASE] + [gguf_obj]
        r = subprocess.run([self.cxx, "-shared", "-o", so] + objs + ["-lpthread", "-lm"], capture_output=True)
        return so if r.returncode == 0 else None

    def build(self, text, d):
        """gguf.cpp (text) compiled and linked in d: (library path, None) or (None, error)"""
        src = os.path.join(d, "gguf.cpp")
        with open(src, "w") as f:
            f.write(text)
        # the mutant beside its own folder's headers: gguf.cpp includes "ggml-impl.h" etc. by quotes
        r = self.compile(src, os.path.join(d, "gguf.o"))
        if r.returncode != 0:
            return None, r.stderr[-600:]
        so = self.link(os.path.join(d, "gguf.o"), d)
        return (so, None) if so else (None, "link failed")


def conform(tfs, adapter, lib, mode, jobs, timeout, out_json, rules=()):
    """the corpus through the adapter in mode ("meta"/"data") against lib: ({(id, profile): outcome}, None)
    or (None, "timeout" / an error)"""
    name, opts, xfail = next(x for x in MODES if x[0] == mode)
    cmd = [tfs, "conform", "--format", "gguf"] + opts + [
        "--adapter", f"{shlex.quote(adapter)} --{mode} {{file}}", "--expected-failures", os.path.join(ROOT, xfail),
        "--fixtures", os.path.join(ROOT, "corpus"), "-j", str(jobs), "-q", "--timeout", str(timeout),
        "--no-sanity-check", "--json", out_json] + [x for r in rules for x in ("--rule", r)]
    env = dict(os.environ, TFS_GGML_LIB=lib, GGML_NO_BACKTRACE="1")
    rc, tail = run_group(["nice", "-n", "10"] + cmd, ROOT, env, 3600)
    if rc == "timeout":
        return None, "timeout"
    try:
        doc = json.load(open(out_json))
    except (OSError, ValueError):
        return None, f"no report (exit {rc}): {tail[-500:]}"
    return {(c["id"], c["profile"]): {k: c.get(k) for k in ("result", "got", "got_category", "exit")}
            for c in doc["cases"]}, None


def differences(base, got):
    """[(case, baseline outcome, mutant outcome)] of the cases whose outcome differs"""
    out = []
    for k in sorted(set(base) | set(got)):
        if base.get(k) != got.get(k):
            out.append((k, base.get(k), got.get(k)))
    return out


def short(o):
    if o is None:
        return "absent"
    s = f"{o['result']}"
    if o["result"] not in ("pass", "xfail"):
        s += f" (got {o['got']}, exit {o['exit']})"
    elif o.get("got_category"):
        s += f" ({o['got_category']})"
    return s


def rel_command(argv, gsrc):
    out = ["maint/mutants/ext_ggml.py"]
    for x in argv[1:]:
        if gsrc and os.path.abspath(x) == gsrc:
            x = "$GGML_SRC"
        elif x.startswith(ROOT + "/"):
            x = os.path.relpath(x, ROOT)
        elif os.path.isabs(x):
            x = "DIR"
        out.append(x if x in ("$GGML_SRC",) else shlex.quote(x))
    return " ".join(out)


def tally(rows, interval):
    c = {s: 0 for s in STATUSES}
    for x in rows:
        c[x["status"]] += 1
    det = c["killed"] + c["timeout"]
    n = det + c["survived"]
    c["score"] = f"{100.0 * det / n:.1f}%" if n else "-"
    if interval and n:
        c["interval95"] = wilson(det, n)
    return c


def report(doc, outdir):
    rows = doc["mutants"]
    sampled = any(x["status"] == "not-run" for x in rows)
    total = tally(rows, sampled)
    per = {}
    for x in rows:
        per.setdefault(x["function"], []).append(x)
    doc["total"] = total
    doc["per_function"] = {k: tally(v, sampled) for k, v in sorted(per.items())}
    with open(os.path.join(outdir, "ggml-mutants.json"), "w") as f:
        json.dump(doc, f, indent=1)
    b = doc["baseline"]
    L = ["# The corpus against ggml's gguf.cpp: mutation report", "",
         f"ggml {doc['ggml_commit']} (`{GGUF}`, the functions that read a file: {', '.join(doc['functions'])}), "
         f"tfs {doc['commit']}. Judged by the corpus through conformance/adapters/ggml_adapter.c in metadata mode "
         "(`--profile header-only`, ggml-meta.xfail) and data mode (default profile, ggml-data.xfail), against the "
         "unmutated library's outcome per case (result, verdict, category, exit): "
         + "; ".join(f"{m}: {len(b[m]['cases'])} cases, " + ", ".join(f"{v} {k}" for k, v in sorted(b[m]['summary'].items()))
                     for m in ("meta", "data")) + "."
         + (f" Only the cases of {', '.join(doc['rules'])} (--rule): a check of the tool, not a figure of the corpus."
            if doc["rules"] else ""), "",
         f"`{doc['command']}`: {len(rows)} mutants of {doc['functions_count']} functions in {doc['seconds']} s"
         + (f"; {total['not-run']} not run" + (f", the order shuffled with seed {doc['shuffle']}"
                                                if doc["shuffle"] is not None else "") if total["not-run"] else "")
         + ". Score = (killed + timeout) / (killed + timeout + survived); mutants that did not compile are left out."
         + (f" As an estimate for all {len(rows)} mutants: {total['score']}, 95% Wilson interval "
            f"{total['interval95'][0]}-{total['interval95'][1]}%." if "interval95" in total else ""), "",
         "## Per function", "", "| function | " + " | ".join(STATUSES) + " | score |", "|---" * (len(STATUSES) + 2) + "|"]
    for k, c in doc["per_function"].items():
        L.append(f"| {k} | " + " | ".join(str(c[s]) for s in STATUSES) + f" | {c['score']}"
                 + (f" ({c['interval95'][0]}-{c['interval95'][1]}%)" if "interval95" in c else "") + " |")
    L += ["| **total** | " + " | ".join(str(total[s]) for s in STATUSES) + f" | {total['score']} |", ""]
    surv = [x for x in rows if x["status"] == "survived"]
    L += [f"## Survivors ({len(surv)})", ""]
    for x in surv:
        L += [f"- `{x['id']}` ({x['function']}, line {x['line']}, {x['op']})", "", "  ```diff"]
        L += ["  " + ln for ln in x["diff"].split("\n")] + ["  ```", ""]
    kill = [x for x in rows if x["status"] in ("killed", "timeout")]
    L += [f"## Detected ({len(kill)}): the first case that differs", ""]
    for x in kill:
        L.append(f"- `{x['id']}` ({x['function']}): {x['status']}" + (f", {x['by']}" if x.get("by") else ""))
    with open(os.path.join(outdir, "ggml-mutants.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--ggml-src", required=True)
    ap.add_argument("--any-commit", action="store_true")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "dev"))
    ap.add_argument("--work")
    ap.add_argument("--out")
    ap.add_argument("--shuffle", type=int)
    ap.add_argument("--budget", type=float)
    ap.add_argument("--limit", type=int)
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--only")
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--rule", action="append", default=[])
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    gsrc = os.path.abspath(a.ggml_src)
    path = os.path.join(gsrc, GGUF)
    if not os.path.isfile(path):
        print(f"ext_ggml: no {GGUF} in {a.ggml_src} (a ggml source folder: docs/fuzzing-third-party.md)",
              file=sys.stderr)
        return 2
    commit = git_head(gsrc)
    if commit != PIN and not a.any_commit:
        print(f"ext_ggml: {a.ggml_src} is at commit {commit or '(not a git checkout)'}, not the pinned {PIN} "
              f"(docs/fuzzing-third-party.md, \"Pinned commits\"): `git -C {a.ggml_src} checkout {PIN}`, "
              "or pass --any-commit", file=sys.stderr)
        return 2
    src = open(path).read()
    muts, funcs = reader_mutants(src)
    missing = [r for r in READER if not any(f == r or (r.endswith("::") and f.startswith(r)) for f in funcs)]
    if missing:
        print(f"ext_ggml: {GGUF} at {commit} lacks {', '.join(missing)}: the reader's functions changed; "
              "update READER in maint/mutants/ext_ggml.py", file=sys.stderr)
        return 2
    if a.only:
        rx = re.compile(a.only)
        muts = [m for m in muts if rx.search(m["id"]) or rx.search(m["function"]) or rx.search(cmut.diff_lines(src, m))]
    if a.shuffle is not None:
        random.Random(a.shuffle).shuffle(muts)
    if a.list:
        for m in muts:
            print(f"{m['id']}\t{m['function']}\t" + cmut.diff_lines(src, m).replace("\n", " => "))
        print(f"{len(muts)} mutants in {len(funcs)} functions", file=sys.stderr)
        return 0
    bdir = os.path.abspath(a.build_dir)
    tfs = os.path.join(bdir, "tools", "tfs")
    adapter = os.path.join(bdir, "conformance", "adapters", "ggml-adapter")
    for p in (tfs, adapter):
        if not os.access(p, os.X_OK):
            print(f"ext_ggml: no {p}: build tfs and tfs_ggml_adapter first "
                  f"(cmake --build {a.build_dir} --target tfs tfs_ggml_adapter)", file=sys.stderr)
            return 2
    work = os.path.abspath(a.work or os.path.join(bdir, "ggml-mutants"))
    outdir = os.path.abspath(a.out or work)
    os.makedirs(work, exist_ok=True)
    os.makedirs(outdir, exist_ok=True)
    t0 = time.monotonic()

    def log(s):
        print(f"[{time.monotonic() - t0:6.0f} s] {s}", file=sys.stderr, flush=True)

    lib = Lib(gsrc, commit, work)
    err = lib.base(log)
    if err:
        print(f"ext_ggml: {err}", file=sys.stderr)
        return 2
    jobs = max(1, 2 // a.j)
    bd = tempfile.mkdtemp(prefix="baseline-", dir=work)
    base, bsum = {}, {}
    try:
        so, err = lib.build(src, bd)
        if not so:
            print(f"ext_ggml: unmutated gguf.cpp does not build: {err}", file=sys.stderr)
            return 2
        for mode, _, _ in MODES:
            t1 = time.monotonic()
            out, err = conform(tfs, adapter, so, mode, 2, a.timeout, os.path.join(bd, mode + ".json"), a.rule)
            if out is None:
                print(f"ext_ggml: baseline {mode} run: {err}", file=sys.stderr)
                return 2
            base[mode] = out
            summ = {}
            for o in out.values():
                summ[o["result"]] = summ.get(o["result"], 0) + 1
            bsum[mode] = {"cases": sorted(f"{k[0]} [{k[1]}]" for k in out), "summary": summ,
                          "seconds": round(time.monotonic() - t1, 1)}
            log(f"baseline {mode}: {len(out)} cases, {summ}, {bsum[mode]['seconds']} s")
            if any(o["result"] == "timeout" for o in out.values()):
                print(f"ext_ggml: baseline {mode} run has a timeout: raise --timeout", file=sys.stderr)
                return 2
    finally:
        shutil.rmtree(bd, ignore_errors=True)

    stop = threading.Event()
    done = [0]
    lock = threading.Lock()

    def one(m):
        if stop.is_set() or (a.budget is not None and time.monotonic() - t0 > a.budget):
            stop.set()
            return {"status": "not-run"}
        with lock:
            if a.limit is not None and done[0] >= a.limit:
                return {"status": "not-run"}
            done[0] += 1
        d = tempfile.mkdtemp(prefix="m-", dir=work)
        try:
            so, err = lib.build(cmut.apply(src, m), d)
            if not so:
                return {"status": "did-not-compile", "why": err}
            for mode, _, _ in MODES:
                out, err = conform(tfs, adapter, so, mode, jobs, a.timeout, os.path.join(d, mode + ".json"), a.rule)
                if out is None:
                    if err == "timeout":
                        return {"status": "timeout", "by": f"{mode} mode: the run past its limit"}
                    return {"status": "killed", "by": f"{mode} mode: {err}"}
                diff = differences(base[mode], out)
                if diff:
                    (cid, prof), was, now = diff[0]
                    st = "timeout" if any(x[2] and x[2]["result"] == "timeout" for x in diff) else "killed"
                    return {"status": st, "by": f"{mode} mode, {len(diff)} case(s) differ, first {cid} [{prof}]: "
                                                f"{short(was)} -> {short(now)}", "cases": len(diff)}
            return {"status": "survived"}
        finally:
            shutil.rmtree(d, ignore_errors=True)

    results = [None] * len(muts)
    with cf.ThreadPoolExecutor(max_workers=a.j) as ex:
        futs = {ex.submit(one, m): i for i, m in enumerate(muts)}
        for f in cf.as_completed(futs):
            i = futs[f]
            m = muts[i]
            r = f.result()
            results[i] = dict(id=m["id"], function=m["function"], op=m["op"], line=m["line"],
                              diff=cmut.diff_lines(src, m), **r)
            if r["status"] != "not-run":
                log(f"{m['id']} ({m['function']}): {r['status']}" + (f" by {r['by']}" if r.get("by") else ""))
    doc = {"command": rel_command(sys.argv, gsrc), "commit": head_commit(), "ggml_commit": commit or "unknown",
           "ggml_pinned": commit == PIN, "seconds": round(time.monotonic() - t0), "shuffle": a.shuffle,
           "rules": a.rule, "functions": funcs, "functions_count": len(funcs), "baseline": bsum, "mutants": results}
    total = report(doc, outdir)
    print(f"total: {total}")
    print(f"report: {os.path.join(outdir, 'ggml-mutants.md')} and ggml-mutants.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
