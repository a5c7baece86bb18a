#!/usr/bin/python3
"""rerun.py: an independent rerun of the published results matrix.

Each third-party column of docs/results.json is run again with a second
adapter (conformance/adapters/rerun/, written apart from the column's own
adapter, the same reader version), `tfs conform` in the column's format,
profile and options, over the whole current corpus; then every cell's class
(pass, false_accept, false_reject, wrong_rule, misread, crash, timeout, skip,
implementation_defined) is compared with the published one.

  conformance/matrix/rerun.py [--only ID,ID] [--tfs PATH] [--readers-dir DIR]
      [--rerun-dir DIR] [--gguf-py DIR] [--st-oracle PATH] [--reports DIR]
      [--results FILE] [--explained FILE] [--out FILE] [-j N]
  conformance/matrix/rerun.py --compare REPORTS_DIR [...]   (no run: the
      reports of an earlier run, <id>.json each)

Per column it prints the cells compared, agreeing and differing by class pair
(published -> rerun), and each difference with its explanation from
--explained (default conformance/matrix/rerun_explained.tsv: column, published
class, rerun class, fixture glob, kind, text; `*` matches any).  --out writes
the comparison as JSON (stamped with the readers' versions, tfs's commit and
the corpus digest; docs/rerun/rerun.json is the committed one).
Exit status: 0 every difference is explained, 1 some is not (or a column
could not run), 2 usage.
"""
import argparse
import datetime
import fnmatch
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RR = os.path.join("conformance", "adapters", "rerun")
CLASSES = ("pass", "false_accept", "false_reject", "wrong_rule", "misread", "crash", "timeout", "skip",
           "implementation_defined", "xfail")
NPM = os.path.join(os.path.expanduser("~"), ".cache", "tfs", "readers")
GGML_LIB = "@node-llama-cpp+linux-x64@{v}/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so"
NOT_HERE = {
    "ollama-ggml": "not buildable with Debian's Go 1.19 (Ollama needs Go 1.23 or later): no first column either",
    "ollama-gguf": "not buildable with Debian's Go 1.19 (Ollama needs Go 1.23 or later): no first column either",
    "gguf-js": "the published column did not run (stopped by the adapter check): no cell to compare",
}


def second_adapter(a, rid):
    """(adapter command, category map or None, environment) of a column's second adapter, or a reason string."""
    node = "node " + RR + "/"
    js = {"hf-gguf": "hf-gguf.mjs", "hyllama": "hyllama.mjs", "hf-hub": "hf-hub.mjs",
          "safetensors-js": "safetensors-js.mjs", "node-llama-cpp-gguf": "node-llama-cpp-gguf.mjs",
          "llama-node": "llama-node.mjs"}
    maps = os.path.join("conformance", "adapters", "maps")
    if rid in js:
        m = os.path.join(maps, rid + ".tsv")
        return node + js[rid] + " {file}", m if os.path.exists(os.path.join(ROOT, m)) and rid != "safetensors-js" else None, {}
    if rid.startswith("ggml-"):
        _, v, mode = rid.split("-")
        lib = os.path.join(a.reader_cache, GGML_LIB.format(v=v))
        if not os.path.exists(lib):
            return f"no libggml-base.so of npm @node-llama-cpp/linux-x64@{v} in the reader cache"
        m = os.path.join(maps, "ggml.tsv") if v == "3.3.0" else os.path.join(RR, "ggml-stderr.tsv")
        return f"{RR}/ggml_ctypes.py --{mode} --lib {lib} {{file}}", m, {}
    if rid in ("gguf-py", "gguf-py-meta"):
        if not a.gguf_py or not os.path.exists(os.path.join(a.gguf_py, "gguf", "gguf_reader.py")):
            return "no gguf-py folder (--gguf-py DIR)"
        return f"{RR}/gguf_py_parts.py --gguf-py {a.gguf_py} {{file}}", os.path.join(maps, "gguf-py.tsv"), {}
    if rid == "safetensors-crate":
        if not a.st_oracle or not os.path.exists(a.st_oracle):
            return "no st-oracle binary (--st-oracle PATH)"
        return f"{RR}/st-oracle-metadata.py {{file}}", None, {"ST_ORACLE": a.st_oracle}
    c = {"gguflib": "gguflib-skip", "safetensors-cpp": "safetensors-cpp-mmap", "csafetensors": "csafetensors-mmap"}
    if rid in c:
        b = os.path.join(a.rerun_dir, c[rid])
        if not os.path.exists(b):
            return f"not built: {RR}/build.sh --gguf-tools DIR --safetensors-cpp DIR"
        # the C++ / C readers' maps are written for the first adapters' message prefixes: the rerun's own forms
        m = os.path.join(RR, rid + "-mmap.tsv") if rid != "gguflib" else None
        return f"{b} {{file}}", m, {}
    if rid == "gguf-tools-show":
        b = os.path.join(a.readers_dir, "gguf-tools")
        if not os.path.exists(b):
            return "not built: conformance/adapters/c/build_readers.sh --gguf-tools DIR"
        return f"{RR}/gguf-tools-show.py {b} {{file}}", None, {}  # the column has no map either
    return "no second adapter"


def public(a, cmd):
    """An adapter command without this machine's folders: the options' names instead."""
    for path, name in ((a.reader_cache, "READER_CACHE"), (a.gguf_py, "GGUF_PY"), (a.rerun_dir, "RERUN_DIR"),
                       (a.readers_dir, "READERS_DIR")):
        if path:
            cmd = cmd.replace(path, name)
    return cmd


def run_column(a, r, cmd, cmap, env):
    """tfs conform with the second adapter in the column's format and profile; the report's path."""
    out = os.path.join(a.reports, r["id"] + ".json")
    if os.path.exists(out):
        return out
    try:  # another rerun over the same reports folder runs it: leave it to that one
        os.close(os.open(out + ".running", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        print(f"{r['id']}: {out}.running exists (a rerun in progress; remove it if none is): not run twice", flush=True)
        return None
    argv = [a.tfs, "conform", "-q", "--timeout", "30", "--profile", r["profile"], "--format", r["format"],
            "-j", str(a.jobs), "--adapter", cmd, "--json", out + ".part"]
    if cmap:
        argv += ["--category-map", cmap]
    print("+ " + " ".join(shlex.quote(w) for w in argv), flush=True)
    try:
        subprocess.run(argv, cwd=ROOT, env=dict(os.environ, **env), stdout=subprocess.DEVNULL)
    finally:
        os.unlink(out + ".running")
    if not os.path.exists(out + ".part"):
        return None
    os.replace(out + ".part", out)
    return out


def load_explained(path):
    rows = []
    if path and os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                f = line.rstrip("\n").split("\t")
                if len(f) >= 6:
                    rows.append(f[:6])
    return rows


def explain(rows, col, pub, got, fixture):
    for c, p, g, glob, kind, text in rows:
        if fnmatch.fnmatchcase(col, c) and p in ("*", pub) and g in ("*", got) and fnmatch.fnmatchcase(fixture, glob):
            return f"{kind}: {text}"
    return None


def compare(published, report, rows, col):
    """The comparison of one column: counts and the differing cells."""
    got = {c["id"]: c["result"] for c in report["cases"]}
    pub = {k: v["result"] for k, v in published.items()}
    both = sorted(set(got) & set(pub))
    pairs, diffs = {}, []
    for fid in both:
        if got[fid] != pub[fid]:
            key = f"{pub[fid]} -> {got[fid]}"
            pairs[key] = pairs.get(key, 0) + 1
            diffs.append({"fixture": fid, "published": pub[fid], "rerun": got[fid],
                          "explained": explain(rows, col, pub[fid], got[fid], fid)})
    return {"compared": len(both), "agreeing": len(both) - len(diffs), "pairs": dict(sorted(pairs.items())),
            "differences": diffs, "only_published": sorted(set(pub) - set(got)), "only_rerun": sorted(set(got) - set(pub))}


def corpus_stamp(a):
    """The corpus the rerun ran over, as matrix.py stamps results.json."""
    sys.path.insert(0, HERE)
    import matrix  # noqa: E402
    a.fixtures = None
    try:
        return matrix.corpus_stamp(a)
    except Exception:
        return None


def command_line(argv):
    """This run's command as the docs print it: an absolute path becomes its option's name (GGUF_PY, ...)."""
    words = ["conformance/matrix/rerun.py"]
    for i, w in enumerate(argv):
        prev = argv[i - 1] if i else ""
        words.append(prev.lstrip("-").upper().replace("-", "_") if os.path.isabs(w) and prev.startswith("--") else w)
    return " ".join(shlex.quote(w) for w in words)


def git_commit():
    p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
    return p.stdout.strip() or None


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[2].strip(), add_help=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--tfs", default=os.path.join(ROOT, "build", "dev", "tools", "tfs"))
    ap.add_argument("--readers-dir", default=os.path.join(ROOT, "build", "readers"))
    ap.add_argument("--rerun-dir", default=os.path.join(ROOT, "build", "readers-rerun"))
    ap.add_argument("--reader-cache", default=os.environ.get("TFS_READER_CACHE", NPM))
    ap.add_argument("--gguf-py", default=os.environ.get("TFS_GGUF_PY"))
    ap.add_argument("--st-oracle", default=os.environ.get("ST_ORACLE"))
    ap.add_argument("--reports", default=None)
    ap.add_argument("--compare", default=None, metavar="REPORTS_DIR")
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results.json"))
    ap.add_argument("--explained", default=os.path.join(HERE, "rerun_explained.tsv"))
    ap.add_argument("--out", default=None)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    try:
        a = ap.parse_args()
    except SystemExit as e:
        sys.exit(0 if e.code == 0 else 2)
    try:
        res = json.load(open(a.results, encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"rerun.py: cannot read {a.results}: {e}", file=sys.stderr)
        sys.exit(2)
    a.reports = a.compare or a.reports or os.path.join("/tmp", "tfs-rerun")
    os.makedirs(a.reports, exist_ok=True)
    only = [x for x in a.only.split(",") if x]
    cols = [r for r in res["readers"] if not r.get("inprocess") and (not only or r["id"] in only)]
    unknown = set(only) - {r["id"] for r in res["readers"]}
    if unknown:
        print(f"rerun.py: no such column: {', '.join(sorted(unknown))}", file=sys.stderr)
        sys.exit(2)
    rows = load_explained(a.explained)
    out, bad = [], 0
    for r in cols:
        rid = r["id"]
        entry = {"id": rid, "reader_version": r.get("version"), "profile": r.get("profile"), "format": r.get("format"),
                 "first_adapter": r.get("command")}
        spec = NOT_HERE.get(rid) or second_adapter(a, rid)
        path = os.path.join(a.reports, rid + ".json")
        if isinstance(spec, str) and not (a.compare and os.path.exists(path)):
            entry["skipped"] = spec
            print(f"{rid}: skipped: {spec}")
            out.append(entry)
            continue
        if not isinstance(spec, str):
            cmd, cmap, env = spec
            entry.update(adapter=public(a, cmd), category_map=cmap)
            if not a.compare:
                path = run_column(a, r, cmd, cmap, env)
        if not path or not os.path.exists(path):
            entry["skipped"] = ("not rerun: no report of it in the reports folder" if a.compare else
                                "tfs conform wrote no report (the adapter check stopped it?)")
            print(f"{rid}: {entry['skipped']}")
            bad += 1
            out.append(entry)
            continue
        rep = json.load(open(path, encoding="utf-8"))
        entry["rerun_started"], entry["rerun_seconds"] = rep.get("started"), rep.get("seconds")
        entry.update(compare(res["cells"].get(rid, {}), rep, rows, rid))
        unexplained = [d for d in entry["differences"] if not d["explained"]]
        bad += len(unexplained)
        print(f"{rid}: {entry['compared']} compared, {entry['agreeing']} agree, {len(entry['differences'])} differ"
              f" ({len(unexplained)} unexplained)")
        for k, n in entry["pairs"].items():
            ex = [d for d in entry["differences"] if f"{d['published']} -> {d['rerun']}" == k]
            print(f"    {k}: {n} (e.g. {ex[0]['fixture']})")
        for d in unexplained[:20]:
            print(f"    unexplained: {d['fixture']}: {d['published']} -> {d['rerun']}")
        out.append(entry)
    doc = {"schema": 1, "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "tfs_commit": git_commit(), "corpus": corpus_stamp(a), "published": {k: res.get(k) for k in ("generated", "tfs_commit", "corpus")},
           "command": command_line(sys.argv[1:]), "columns": out}
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, sort_keys=False)
            f.write("\n")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
