#!/usr/bin/python3
"""matrix.py: every fixture through every reader we can get (docs/matrix.md).

  conformance/matrix/run.sh [--tfs PATH] [--readers-dir DIR] [--ggml-adapter PATH]
                            [--st-oracle PATH] [--gguf-py DIR]
                            [--only ID,ID] [--id GLOB]... [--out DIR] [-j N] [--timeout S]
                            [--merge | --only-new] [--reports DIR]
  conformance/matrix/run.sh --adapter 'CMD {file}' --reader-id ID [--format F]
                            [--profile P] [--label L] [--reader-version V]
                            [--category-map FILE] [--out DIR | --merge]
                            (one column for a reader not in readers() yet)

Runs `tfs conform` once per reader column (its format, its profile, its
adapter, its category map; the adapter check on), then writes, into --out
(default docs/):
  results.json  every cell (reader x fixture): result, detail, got rule /
                category, exit; the readers with their versions and commands;
                the fixtures with family, expectation, description, path;
                stamped with the date, tfs's commit and the command
  results.md    per reader a summary row, then rows grouped by rule family
  results.html  one static page (no network, works from file://): colours,
                filters by reader / family / result, the fixture's
                description on hover, links to the fixtures (html.py)
A reader that cannot be had here (npm offline, a C reader not built, no
libggml) is listed as skipped with the reason, never silently left out.
With --adapter, --out DIR or --merge is required (the default, docs/, holds
the committed matrix: never overwritten by one column by accident).

Exit status: 0 every column ran and every cell passes; 1 every requested
column ran, some cell fails (false accept, false reject, wrong rule, misread,
crash, timeout); 2 usage, or a requested column (--adapter, or named by
--only) was not run (not built, not installable, the adapter check stopped
it: the reason is printed).  A full run (no --only) lists the columns it
could not run and does not count them.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
AD = os.path.join(ROOT, "conformance", "adapters")
sys.path.insert(0, HERE)
import findings  # noqa: E402
import render  # noqa: E402

NPM_GGML = {"3.22.1": None, "3.12.0": None, "3.3.0": None}
# Ollama's Go readers need a newer Go than Debian's (docs/adapters.md "Readers
# that cannot be run here"): listed, with the reason, never silently left out.
OLLAMA_WHY = ("not buildable with Debian's Go 1.19: fs/ggml and fs/gguf import the standard packages iter, slices, maps, "
              "cmp and log/slog (Go 1.21-1.23) and golang.org/x/sync/errgroup, and go.mod asks for go 1.26.0")


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def npm_dir(spec):
    """The reader cache folder of an npm spec (a list: installed together, npm-reader.sh), or None."""
    p = sh([os.path.join(AD, "npm-reader.sh")] + (spec if isinstance(spec, list) else [spec]))
    return p.stdout.strip() if p.returncode == 0 else None


def readers(a):
    """Every column: id, label, format, profile, command (or None + why), version, map."""
    if a.adapter:  # one column for a reader the list below does not have yet (docs/matrix.md)
        return [dict(id=a.reader_id, label=a.label or a.reader_id, format=a.format, profile=a.profile,
                     version=a.reader_version, command=a.adapter, why=None,
                     map=a.category_map and os.path.abspath(a.category_map))]
    out = []
    tfs = a.tfs
    out.append(dict(id="tfs-default", label="tfs (ours)", format=None, profile="default", inprocess=True, version=None))
    out.append(dict(id="tfs-strict", label="tfs --strict (ours)", format=None, profile="strict", inprocess=True, version=None))
    node = "node"
    for vers in ("3.22.1", "3.12.0", "3.3.0"):
        d = npm_dir(f"@node-llama-cpp/linux-x64@{vers}")
        lib = d and os.path.join(d, "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so")
        why = None
        if not a.ggml_adapter or not os.path.exists(a.ggml_adapter):
            why = "ggml-adapter not built (configure with -DTFS_GGML_LIB)"
        elif not lib or not os.path.exists(lib):
            why = f"npm @node-llama-cpp/linux-x64@{vers} not installable here"
        ver = None
        if not why:
            ver = sh([a.ggml_adapter, "--version", "--lib", lib]).stdout.strip().replace(" metadata mode", "")
        for mode, prof in (("meta", "header-only"), ("data", "default")):
            out.append(dict(id=f"ggml-{vers}-{mode}", label=f"ggml ({'metadata' if mode == 'meta' else 'data'}), npm @node-llama-cpp/linux-x64 {vers}",
                            format="gguf", profile=prof, version=ver and f"{ver} (npm @node-llama-cpp/linux-x64 {vers})",
                            command=None if why else f"{a.ggml_adapter} --{mode} --lib {lib} {{file}}", why=why,
                            map=os.path.join(AD, "maps", "ggml.tsv")))
    js = os.path.join(AD, "js")
    for rid, label, script, fmt, prof, spec in (
            ("hf-gguf", "@huggingface/gguf", "hf-gguf.mjs", "gguf", "header-only", "@huggingface/gguf@0.4.6"),
            ("hyllama", "hyllama", "hyllama.mjs", "gguf", "header-only", "hyllama@0.2.2"),
            ("hf-hub", "@huggingface/hub parseSafetensorsMetadata", "hf-hub-safetensors.mjs", "safetensors", "header-only",
             "@huggingface/hub@2.17.5"),
            ("safetensors-js", "safetensors (npm, SafeTensor JS)", "safetensors-js.mjs", "safetensors", "header-only",
             "safetensors@0.0.1"),
            ("gguf-js", "gguf (npm, GGUF.js) parseRawMetadata", "gguf-js.mjs", "gguf", "header-only", "gguf@1.0.7"),
            ("node-llama-cpp-gguf", "node-llama-cpp readGgufFileInfo", "node-llama-cpp-gguf.mjs", "gguf", "header-only",
             ["node-llama-cpp@3.22.1", "@node-llama-cpp/linux-x64@3.22.1"]),
            ("llama-node", "@fugood/llama.node loadLlamaModelInfo", "llama-node.mjs", "gguf", "header-only",
             "@fugood/llama.node@1.7.15")):
        d = npm_dir(spec)
        spec = spec[0] if isinstance(spec, list) else spec
        out.append(dict(id=rid, label=label, format=fmt, profile=prof, version=spec.rsplit("@", 1)[1] + " (npm)",
                        command=None if not d else f"{node} {os.path.join(js, script)} {{file}}",
                        why=None if d else f"npm {spec} not installable here", map=os.path.join(AD, "maps", rid + ".tsv")))
    rd = a.readers_dir
    def commit(name):
        try:
            return open(os.path.join(rd, name + ".commit")).read().strip()[:12]
        except OSError:
            return None
    for rid, label, binary, fmt, prof, src in (
            ("gguflib", "antirez/gguf-tools gguflib.c (ASan+UBSan)", "gguflib-adapter", "gguf", "header-only", "gguf-tools"),
            ("gguf-tools-show", "antirez/gguf-tools `gguf-tools show` (ASan+UBSan)", "gguf-tools", "gguf", "header-only", "gguf-tools"),
            ("safetensors-cpp", "syoyo/safetensors-cpp safetensors.hh (ASan+UBSan)", "safetensors-cpp-adapter", "safetensors", "default",
             "safetensors-cpp"),
            ("csafetensors", "syoyo/safetensors-cpp csafetensors.c (ASan+UBSan)", "csafetensors-adapter", "safetensors", "default",
             "safetensors-cpp")):
        b = os.path.join(rd, binary) if rd else None
        ok = b and os.path.exists(b)
        cmd = f"{b} show {{file}}" if binary == "gguf-tools" else f"{b} {{file}}"
        out.append(dict(id=rid, label=label, format=fmt, profile=prof, version=ok and f"{src} {commit(src)}",
                        command=cmd if ok else None,
                        env={"ASAN_OPTIONS": "detect_leaks=0"} if binary == "gguf-tools" else None,
                        why=None if ok else f"not built: conformance/adapters/c/build_readers.sh --{src} DIR (docs/adapters.md)",
                        map=os.path.join(AD, "maps", rid + ".tsv")))
    gp = a.gguf_py
    gp_ok = bool(gp) and os.path.exists(os.path.join(gp, "gguf", "gguf_reader.py"))
    gp_ver = None
    if gp_ok:
        gp_ver = sh([sys.executable, os.path.join(AD, "gguf_py_adapter.py"), "--gguf-py", gp, "--version"]).stdout.strip() or None
    for rid, prof in (("gguf-py", "default"), ("gguf-py-meta", "header-only")):
        out.append(dict(id=rid, label=f"llama.cpp gguf-py GGUFReader ({'metadata' if prof == 'header-only' else 'tensor data mapped'})",
                        format="gguf", profile=prof, version=gp_ver,
                        command=f"{os.path.join(AD, 'gguf_py_adapter.py')} {{file}}" if gp_ok else None,
                        env={"TFS_GGUF_PY": gp} if gp_ok else None,
                        why=None if gp_ok else "no gguf-py folder: --gguf-py DIR or TFS_GGUF_PY=DIR (docs/adapters.md)",
                        map=os.path.join(AD, "maps", "gguf-py.tsv")))
    for rid, pkg in (("ollama-ggml", "fs/ggml"), ("ollama-gguf", "fs/gguf")):
        out.append(dict(id=rid, label=f"Ollama {pkg} (Go)", format="gguf", profile="header-only", version=None, command=None,
                        why=OLLAMA_WHY))
    oracle = a.st_oracle
    out.append(dict(id="safetensors-crate", label="Rust safetensors crate (st-oracle)", format="safetensors", profile="default",
                    version="safetensors crate (../shared/oracles/st-oracle)" if oracle else None,
                    command=f"{os.path.join(AD, 'st-oracle-adapter')} {{file}}" if oracle else None,
                    why=None if oracle else "st-oracle not built (a development tool: ../shared/oracles/st-oracle)",
                    env={"ST_ORACLE": oracle} if oracle else None))
    if a.only:
        keep = set(a.only.split(","))
        out = [r for r in out if r["id"] in keep]
    return out


FAILURES = ("false_accept", "false_reject", "wrong_rule", "misread", "crash", "timeout")
# Columns CI can run (npm readers and ours): test_matrix_current fails when the
# committed results lack a current fixture for one of them (--only-new fills it).
CI_RUNNABLE = ("tfs-default", "tfs-strict", "ggml-3.22.1-meta", "ggml-3.22.1-data", "ggml-3.12.0-meta", "ggml-3.12.0-data",
               "ggml-3.3.0-meta", "ggml-3.3.0-data",
               "hf-gguf", "hyllama", "hf-hub", "safetensors-js", "node-llama-cpp-gguf", "llama-node")
PATH_RE = re.compile(r"(?:/work|/root|/home/[^/\s]+|/tmp/tmp\.[^/\s]+|/tmp/tfs-matrix-[^/\s]+)(?:/[^\s\"':,;()]+)*")


def scrub(text):
    """Text without a path of this machine: the tree relative, $HOME as ~, any
    other absolute path under /work, /root, /home or a temporary folder cut
    to its last two components behind '.../' (a reader's own build path in its
    messages, a source folder passed in)."""
    if not isinstance(text, str):
        return text
    text = text.replace(ROOT + "/", "").replace(ROOT, ".")
    home = os.path.expanduser("~")
    if home not in ("/", ""):
        text = text.replace(home + "/", "~/")
    return PATH_RE.sub(lambda m: ".../" + "/".join(m.group(0).rstrip("/").split("/")[-2:]), text)


def scrub_all(x):
    if isinstance(x, dict):
        return {k: scrub_all(v) for k, v in x.items()}
    if isinstance(x, list):
        return [scrub_all(v) for v in x]
    return scrub(x)


def public_command(cmd):
    """The run's command line as the docs print it: a path option outside the
    tree (a reader's source folder, a tool) becomes a placeholder."""
    words = shlex.split(cmd)
    out = []
    for i, w in enumerate(words):
        prev = words[i - 1] if i else ""
        if prev in ("--st-oracle", "--gguf-py", "--tfs", "--ggml-adapter", "--fixtures", "--readers-dir", "--reports", "--out") \
                and os.path.isabs(w):
            w = os.path.relpath(w, ROOT) if w.startswith(ROOT + "/") else prev.lstrip("-").upper().replace("-", "_")
        out.append(w)
    return " ".join(shlex.quote(w) for w in out)


def current_ids(a, fmt, prof):
    """The fixture ids a column in this format and profile runs over now (tfs conform --list)."""
    cmd = [a.tfs, "conform", "--list", "--profile", prof]
    if fmt:
        cmd += ["--format", fmt]
    if a.fixtures:
        cmd += ["--fixtures", a.fixtures]
    p = sh(cmd)
    return [line.split("\t")[0] for line in p.stdout.splitlines() if line.strip()] if p.returncode == 0 else None


def corpus_stamp(a):
    """The corpus the page was made from: the suite's version and a digest of the manifests."""
    ver = sh([a.tfs, "--version"]).stdout.strip().split()[-1:] or ["?"]
    h = hashlib.sha256()
    base = a.fixtures or os.path.join(ROOT, "corpus")
    for dp, dn, fn in sorted(os.walk(base)):
        dn.sort()
        for f in sorted(fn):
            if f == "MANIFEST.tsv":
                h.update(open(os.path.join(dp, f), "rb").read())
    return {"version": ver[0], "manifests_sha256": h.hexdigest()[:16]}


def readers_all(a):
    """Every column readers() knows, --only aside."""
    return readers(argparse.Namespace(**dict(vars(a), only=None)))


def run_reader(a, r, tmp):
    """One column's tfs conform report (a dict), or None (r["why"] says why).  More fixture ids than tfs conform
    takes at once (64 --id options): run in chunks, one report."""
    ids = r.get("ids")
    if not ids or len(ids) <= 64:
        return run_one(a, r, tmp)
    merged = None
    for k in range(0, len(ids), 64):
        part = run_one(a, dict(r, ids=ids[k:k + 64]), tmp, suffix=f".{k // 64}")
        if part is None:
            return None
        if merged is None:
            merged = part
        else:
            merged["cases"] += part["cases"]
            merged["seconds"] = merged.get("seconds", 0) + part.get("seconds", 0)
            for key, v in part["summary"].items():
                merged["summary"][key] = merged["summary"].get(key, 0) + v
    r["conform_command"] = run_one.last_command
    return merged


def run_one(a, r, tmp, suffix=""):
    rep = os.path.join(tmp, r["id"] + suffix + ".json")
    cmd = [a.tfs, "conform", "-q", "--json", rep, "--timeout", str(a.timeout), "--profile", r["profile"]]
    if a.fixtures:
        cmd += ["--fixtures", a.fixtures]
    if r.get("format"):
        cmd += ["--format", r["format"]]
    for g in r.get("ids") or a.id or []:
        cmd += ["--id", g]
    if not r.get("inprocess"):
        cmd += ["-j", str(a.jobs), "--adapter", r["command"]]
        if r.get("map") and os.path.exists(r["map"]):
            cmd += ["--category-map", r["map"]]
    env = dict(os.environ, **(r.get("env") or {}))
    env.setdefault("GGML_NO_BACKTRACE", "1")
    done = a.reports and os.path.join(a.reports, r["id"] + ".json")
    r["conform_command"] = " ".join(shlex.quote(c) for c in cmd[1:] if c != rep).replace(" --json", "")
    if r.get("ids"):  # the column's command, not this selection's
        r["conform_command"] = " ".join(shlex.quote(c) for c in cmd[1:] if c != rep and c not in r["ids"]
                                        ).replace(" --json", "").replace(" --id", "")
    run_one.last_command = r["conform_command"]
    if done and os.path.exists(done):  # the same run's report, kept from an interrupted run
        rep = done
    else:
        p = sh(cmd, env=env)
    if not os.path.exists(rep):
        # tfs conform's message: its first "tfs conform: " line (the adapter
        # check's lines after it: the adapter's own stderr), not "nothing was run"
        lines = [x for x in p.stderr.strip().splitlines() if "nothing was run" not in x] or ["tfs conform failed"]
        first = next((i for i, x in enumerate(lines) if x.startswith("tfs conform: ")), 0)
        r["why"] = lines[first][:300]
        r["why_more"] = [x[:300] for x in lines[first + 1:first + 9]]
        return None
    return json.load(open(rep))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfs", default=os.path.join(ROOT, "build", "dev", "tools", "tfs"))
    ap.add_argument("--ggml-adapter", default=os.path.join(ROOT, "build", "dev", "conformance", "adapters", "ggml-adapter"))
    ap.add_argument("--readers-dir", default=os.path.join(ROOT, "build", "readers"), help="build_readers.sh --out")
    ap.add_argument("--st-oracle", default=os.environ.get("ST_ORACLE"))
    ap.add_argument("--gguf-py", default=os.environ.get("TFS_GGUF_PY"),
                    help="llama.cpp's gguf-py folder (DIR/gguf/gguf_reader.py; docs/adapters.md)")
    ap.add_argument("--fixtures")
    ap.add_argument("--only", help="reader ids, comma-separated")
    ap.add_argument("--id", action="append", help="fixture id glob (repeatable)")
    ap.add_argument("--out", help="the folder written (default: docs/; with --adapter: required, or --merge)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--only-new", action="store_true",
                    help="run each column only over the fixtures OUT/results.json lacks for it (new fixtures) and add "
                    "those cells (implies --merge; a column not runnable here keeps its cells and says how many it lacks)")
    ap.add_argument("--merge", action="store_true",
                    help="keep the columns of OUT/results.json that this run does not make (with --only: redo some columns)")
    ap.add_argument("--reports", help="a folder of tfs conform reports (<id>.json) a run left in its temporary folder: "
                    "a column whose report is there is not run again (an interrupted run, resumed)")
    ap.add_argument("--command", help=argparse.SUPPRESS)
    new = ap.add_argument_group("a new reader's column (instead of the list in readers(); with --merge: added to OUT)")
    new.add_argument("--adapter", help="the adapter command, as tfs conform --adapter takes it ('node x.mjs {file}')")
    new.add_argument("--reader-id", help="the column's id (required with --adapter)")
    new.add_argument("--label", help="the column's label (default: the id)")
    new.add_argument("--reader-version", help="the reader's version, as the tables show it")
    new.add_argument("--format", choices=("gguf", "safetensors"), help="the format it reads (default: both)")
    new.add_argument("--profile", default="default", choices=("default", "strict", "header-only"),
                     help="the profile it implements (header-only: a metadata reader)")
    new.add_argument("--category-map", help="a category map for its messages (docs/conform.md)")
    a = ap.parse_args()
    if a.adapter and not a.reader_id:
        ap.error("--adapter needs --reader-id")
    if a.adapter and not a.out and not a.merge:
        ap.error("--adapter makes one column: give --out DIR (a folder of its own) or --merge (add it to docs/results.*); "
                 "without them it would overwrite the committed docs/results.json, .md and .html")
    a.out = a.out or os.path.join(ROOT, "docs")
    if a.only_new:
        a.merge = True
    rs = readers(a)
    wanted = set(a.only.split(",")) if a.only else {a.reader_id} if a.adapter else set()
    unknown = sorted(wanted - {r["id"] for r in rs})
    if unknown:
        ap.error(f"--only: no reader column {', '.join(unknown)} (the ids: {', '.join(r['id'] for r in readers_all(a))})")
    not_run, failing = [], []
    old = None
    if a.merge and os.path.exists(os.path.join(a.out, "results.json")):
        old = json.load(open(os.path.join(a.out, "results.json")))
    tmp = tempfile.mkdtemp(prefix="tfs-matrix-")
    fixtures, cells = {}, {}
    kept = {}  # --only-new: the committed cells of a column, completed below
    for r in rs:
        if r.get("inprocess") is None and not r.get("command"):
            print(f"matrix: {r['id']}: skipped: {r['why']}", file=sys.stderr)
            not_run.append(r["id"])
            continue
        if a.only_new:
            have = (old or {}).get("cells", {}).get(r["id"])
            if have is None:
                print(f"matrix: {r['id']}: not in {a.out}/results.json: run over every fixture", file=sys.stderr)
            else:
                now_ids = current_ids(a, r.get("format"), r["profile"]) or []
                new_ids = [i for i in now_ids if i not in have]
                if not new_ids:
                    print(f"matrix: {r['id']}: nothing new", file=sys.stderr)
                    continue
                r["ids"] = new_ids
                kept[r["id"]] = have
                print(f"matrix: {r['id']}: {len(new_ids)} new fixtures", file=sys.stderr)
        print(f"matrix: {r['id']} ...", file=sys.stderr, flush=True)
        rep = run_reader(a, r, tmp)
        if rep is None:
            print(f"matrix: {r['id']}: not run: {r['why']}", file=sys.stderr)
            for line in r.get("why_more") or []:
                print(f"matrix: {r['id']}:   {line}", file=sys.stderr)
            not_run.append(r["id"])
            continue
        r["summary"] = rep["summary"]
        r["seconds"] = rep["seconds"]
        r["why"] = None
        cells[r["id"]] = {}
        for c in rep["cases"]:
            f = fixtures.setdefault(c["id"], {k: c[k] for k in ("id", "format", "manifest_expect", "rule", "category", "description", "path")})
            f["family"] = render.family(c)
            cells[r["id"]][c["id"]] = {k: c[k] for k in ("result", "expect", "detail", "got_rule", "got_category", "exit", "content", "warning")
                                        if c.get(k) not in (None, "")}
        if r["id"] in kept:  # the new cells join the committed ones; the summary counts them all
            ran = cells[r["id"]]
            cells[r["id"]] = dict(kept[r["id"]], **ran)
            r["summary"] = {k: 0 for k in rep["summary"]}
            for c in cells[r["id"]].values():
                r["summary"][c["result"]] = r["summary"].get(c["result"], 0) + 1
            prev = next(o for o in old["readers"] if o["id"] == r["id"])
            r["seconds"] = round(prev.get("seconds", 0) + rep["seconds"], 1)
            r["filled"] = prev.get("filled", []) + [{"fixtures": len(ran), "generated": datetime.datetime.now(
                datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}]
            r["generated_first"] = prev.get("generated_first") or prev.get("generated") or old["generated"]
            r["tfs_commit_first"] = prev.get("tfs_commit_first") or prev.get("tfs_commit") or old["tfs_commit"]
        print(f"matrix: {r['id']}: {rep['summary']}", file=sys.stderr)
        if any(rep["summary"].get(k) for k in FAILURES):
            failing.append(r["id"])
        warned = [c for c in rep["cases"] if c.get("warning")]
        if warned:  # said, never silent: their content was not compared (docs/conform.md)
            print(f"matrix: {r['id']}: warning: {len(warned)} cases, e.g. {warned[0]['id']}: {warned[0]['warning']}", file=sys.stderr)
    if old:
        # the columns not redone keep their cells, reader entry (version,
        # command, the date and commit they were made at) and fixtures
        ran = {r["id"] for r in rs if r["id"] in cells}
        keep = [r for r in old["readers"] if r["id"] not in ran]
        for r in keep:
            r.setdefault("generated", old["generated"])
            r.setdefault("tfs_commit", old["tfs_commit"])
            if r["id"] in old["cells"]:
                cells[r["id"]] = old["cells"][r["id"]]
        for f in old["fixtures"]:
            fixtures.setdefault(f["id"], f)
        order = [r["id"] for r in old["readers"]] + [r["id"] for r in rs if r["id"] not in {o["id"] for o in old["readers"]}]
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        for r in rs:
            if r["id"] in cells:
                r.update(generated=now, run_command=public_command(a.command or "conformance/matrix/run.sh " + " ".join(sys.argv[1:])))
        byid = {r["id"]: r for r in [x for x in rs if x["id"] not in {k["id"] for k in keep}] + keep}
        rs = [byid[i] for i in order]
    head = sh(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"]).stdout.strip()
    for f in fixtures.values():
        f["path"] = os.path.relpath(f["path"], ROOT) if os.path.isabs(f["path"]) else f["path"]
    for r in rs:
        r.pop("env", None)
        r.pop("why_more", None)
        if r.get("command"):
            r["command"] = r["command"].replace(ROOT + "/", "").replace(os.path.expanduser("~"), "~")
        if r.get("conform_command"):
            r["conform_command"] = r["conform_command"].replace(ROOT + "/", "").replace(os.path.expanduser("~"), "~")
    lists = {}
    for r in rs:  # what each column lacks of the current corpus, and since when
        if r["id"] not in cells:
            continue
        key = (r.get("format"), r["profile"])
        if key not in lists:
            lists[key] = current_ids(a, *key)
        if lists[key] is not None:
            lacks = [i for i in lists[key] if i not in cells[r["id"]]]
            r["lacks"] = len(lacks)
            r["lacks_ids"] = lacks
            r["ci_runnable"] = r["id"] in CI_RUNNABLE
    doc = {
        "schema": 1,
        "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tfs_commit": head,
        "corpus": corpus_stamp(a),
        "command": public_command(old["command"] if old else a.command or "conformance/matrix/run.sh " + " ".join(shlex.quote(x) for x in sys.argv[1:])),
        "readers": rs,
        "fixtures": sorted(fixtures.values(), key=lambda f: (f["format"], f["family"], f["id"])),
        "cells": cells,
    }
    doc = scrub_all(doc)  # no path of this machine in what is committed
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(doc, f, indent=0, sort_keys=False)
        f.write("\n")
    lk = findings.links(doc)  # each non-pass cell to its class in docs/findings/<reader>.md
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write(render.markdown(doc, lk))
    with open(os.path.join(a.out, "results.html"), "w") as f:
        f.write(render.html(doc, os.path.relpath(ROOT, a.out), lk))
    print(f"matrix: wrote {a.out}/results.json, results.md, results.html ({len(cells)} readers, {len(fixtures)} fixtures)",
          file=sys.stderr)
    missed = [i for i in not_run if i in wanted]
    if missed:
        print(f"matrix: exit 2: requested column{'s' if len(missed) > 1 else ''} not run: {', '.join(missed)}", file=sys.stderr)
        return 2
    if failing:
        print(f"matrix: exit 1: failing cells in {', '.join(failing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
