#!/usr/bin/python3
"""check_template.py LANG TFS OUTDIR [REFERENCE_JSON] [--shard K/N]: one template of the
adapter kit (conformance/adapters/templates/) through `tfs conform` on the
GGUF corpus (header-only profile; the valid fixtures and the header and KV
families GG0xx, GG1xx), for ctest test_adapter_template_LANG.

Builds the template when its language needs it (exit 77 with a message when
the toolchain is absent), then checks:
  - no crash, timeout, misread or false reject, and every valid fixture
    accepted with its content compared (partial: header and KVs) and equal;
  - a bug inside the reader (TFS_TEMPLATE_SELFTEST=uncaught) is a crash
    exit (not 0, 1 or 77) with nothing on stdout;
  - a .safetensors file is unsupported (77);
  - a missing file, or (python, js, rust, go) a missing type table
    (TFS_TYPES_JSON), is the adapter's failure (not 0, 1 or 77): an I/O
    error never counts as a verdict;
  - with REFERENCE_JSON (the python template's report), the same result and
    content state on every fixture: the templates are one reader written in
    each language, so any difference is a bug in one of them.
With --shard K/N only that shard of the fixtures is run (tfs conform --shard;
the checks of single files above in shard 1 only): the ctest tests of the
slow-starting languages are split this way.
Writes OUTDIR/LANG.json (the report; LANG-KofN.json for a shard)."""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
args = sys.argv[1:]
shard = None
if "--shard" in args:
    i = args.index("--shard")
    shard = args[i + 1]
    del args[i:i + 2]
lang, tfs, outdir = args[0:3]
ref = args[3] if len(args) > 3 else None
os.makedirs(outdir, exist_ok=True)


def skip(why):
    print(f"SKIP: {lang} template: {why}")
    sys.exit(77)


def build(cmd, tool):
    if not shutil.which(tool):
        skip(f"no {tool} on PATH")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"FAIL: build: {' '.join(cmd)}\n{p.stderr[-3000:]}")


exe = os.path.join(outdir, "adapter-" + lang)
inc = ["-I" + os.path.join(ROOT, "include"), "-I" + os.path.join(ROOT, "conformance", "adapters", "c")]
if lang == "python":
    cmd = [sys.executable, os.path.join(HERE, "adapter.py")]
elif lang == "js":
    if not shutil.which("node"):
        skip("no node on PATH")
    cmd = ["node", os.path.join(HERE, "adapter.mjs")]
elif lang == "c":
    cc = os.environ.get("CC", "cc")
    build([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", *inc, os.path.join(HERE, "adapter.c"), "-o", exe], cc)
    cmd = [exe]
elif lang == "cpp":
    cxx = os.environ.get("CXX", "c++")
    build([cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", *inc, os.path.join(HERE, "adapter.cc"), "-o", exe], cxx)
    cmd = [exe]
elif lang == "rust":
    build(["rustc", "--edition", "2021", "-O", os.path.join(HERE, "adapter.rs"), "-o", exe], "rustc")
    cmd = [exe]
elif lang == "go":
    build(["go", "build", "-o", exe, os.path.join(HERE, "adapter.go")], "go")
    cmd = [exe]
else:
    sys.exit(f"usage: check_template.py python|js|c|cpp|rust|go TFS OUTDIR [REFERENCE_JSON]")

failed = 0


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what)
    failed += not ok


if shard is None or shard.startswith("1/"):
    valid = os.path.join(ROOT, "corpus", "gguf", "valid-n-dims-4.gguf")
    p = subprocess.run(cmd + [valid], capture_output=True, text=True, env=dict(os.environ, TFS_TEMPLATE_SELFTEST="uncaught"))
    check(p.returncode not in (0, 1, 77) and p.stdout == "", f"a bug in the reader is a crash exit ({p.returncode}, stdout {p.stdout[:80]!r})")
    # the adapter's own failures are never a verdict (exit 1 reads as "rejected"): a file it
    # cannot read, its type table missing (the languages that read tfs-types.json)
    p = subprocess.run(cmd + [os.path.join(ROOT, "corpus", "gguf", "no-such-file.gguf")], capture_output=True, text=True)
    check(p.returncode not in (0, 1, 77) and p.stdout == "", f"a missing file is an adapter failure, not a rejection (exit {p.returncode})")
    if lang in ("python", "js", "rust", "go"):
        p = subprocess.run(cmd + [valid], capture_output=True, text=True, env=dict(os.environ, TFS_TYPES_JSON="/nonexistent/tfs-types.json"))
        check(p.returncode not in (0, 1, 77) and "tfs-types.json" in p.stderr,
              f"no type table: an adapter failure naming the file (exit {p.returncode}, {p.stderr.strip()[-120:]!r})")
    st = os.path.join(ROOT, "corpus", "safetensors", "valid-crate-empty-metadata.safetensors")
    p = subprocess.run(cmd + [st], capture_output=True, text=True)
    check(p.returncode == 77, f"a safetensors file is unsupported (exit {p.returncode})")

rep = os.path.join(outdir, lang + (".json" if shard is None else "-%sof%s.json" % tuple(shard.split("/"))))
adapter = " ".join("'" + c + "'" for c in cmd) + " {file}"
# the fixtures of the part the stand-in reads (header, KVs) and every valid
# one: a short run (one process per fixture), still every kind of KV
subprocess.run([tfs, "conform", "-q", "--format", "gguf", "--profile", "header-only", "-j", "2", "--timeout", "60",
                "--id", "valid-*", "--id", "GG0*", "--id", "GG1*",
                "--json", rep, "--shell", "--adapter", adapter] + (["--shard", shard] if shard else []),
               capture_output=True, text=True)
if not os.path.exists(rep):
    sys.exit("FAIL: tfs conform wrote no report")
cases = json.load(open(rep))["cases"]
bad = [c for c in cases if c["result"] in ("crash", "timeout", "misread", "false_reject")]
check(not bad, f"no crash, timeout, misread or false reject in {len(cases)} cases"
      + "".join(f"\n  {c['id']}: {c['result']}: {c.get('detail')}" for c in bad[:10]))
vals = [c for c in cases if c["manifest_expect"] == "valid" and c["result"] != "implementation_defined"]
unchecked = [c["id"] for c in vals if c["result"] != "pass" or c.get("content") != "partial"]
check(vals and not unchecked, f"{len(vals)} valid fixtures accepted, content compared and equal"
      + (f"; not: {unchecked[:10]}" if unchecked else ""))
if ref:
    r = {c["id"]: (c["result"], c.get("content")) for c in json.load(open(ref))["cases"]}
    diff = [(c["id"], r.get(c["id"]), (c["result"], c.get("content"))) for c in cases if r.get(c["id"]) != (c["result"], c.get("content"))]
    check((len(r) == len(cases) or shard) and not diff, f"the same verdicts as the python template on {len(cases)} fixtures"
          + "".join(f"\n  {d}" for d in diff[:10]))
print(f"{lang} template: {'FAILED' if failed else 'passed'} ({failed} failed)")
sys.exit(1 if failed else 0)
