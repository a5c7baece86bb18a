#!/usr/bin/python3
"""test_mutants_ext_ggml.py: maint/mutants/ext_ggml.py end to end on three mutants of ggml's gguf.cpp.

  test_mutants_ext_ggml.py SOURCE_ROOT BUILD_DIR [GGML_SRC]

Always: the commit ext_ggml.py pins is the one docs/fuzzing-third-party.md names.  Then, with a
ggml source folder (cmake -DTFS_EXT_GGML_SRC=DIR) and a build with tfs and ggml-adapter, else
skipped (77): a folder at another commit is refused (exit 2) unless --any-commit; and over the
GG002 (bad magic) cases, the mutant that never checks the magic is killed by a GG002 fixture, the
one that turns `sizeof(size_t) <= 8` of a static_assert into `<= 9` (no behaviour can change)
survives, and the report gives both with the ggml commit, the score and the survivor's diff.
The base objects are kept in BUILD_DIR/ggml-mutants between runs (first run: about 30 s more).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1])
BDIR = os.path.abspath(sys.argv[2])
GSRC = sys.argv[3] if len(sys.argv) > 3 else ""
TOOL = os.path.join(ROOT, "maint/mutants/ext_ggml.py")
sys.path.insert(0, os.path.join(ROOT, "maint/mutants"))
import ext_ggml  # noqa: E402

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


doc = open(os.path.join(ROOT, "docs/fuzzing-third-party.md")).read()
pins = re.findall(r"git -C ggml checkout ([0-9a-f]{40})", doc)
check(pins == [ext_ggml.PIN], f"docs/fuzzing-third-party.md pins ggml at {ext_ggml.PIN} (found {pins})")
if not GSRC:
    print("test_mutants_ext_ggml: skipped: no ggml source folder (configure with -DTFS_EXT_GGML_SRC=DIR, "
          "docs/fuzzing-third-party.md)")
    sys.exit(1 if failures else 77)
adapter = os.path.join(BDIR, "conformance/adapters/ggml-adapter")
if not os.access(adapter, os.X_OK) or not os.access(os.path.join(BDIR, "tools/tfs"), os.X_OK):
    print("test_mutants_ext_ggml: skipped: no tfs or ggml-adapter in the build (x86-64, with `tfs conform`)")
    sys.exit(1 if failures else 77)

tmp = tempfile.mkdtemp(prefix="ext-ggml-test-")
try:
    # a folder at another commit: refused, then accepted with --any-commit
    other = os.path.join(tmp, "other")
    os.makedirs(os.path.join(other, "src"))
    shutil.copy(os.path.join(GSRC, "src/gguf.cpp"), os.path.join(other, "src/gguf.cpp"))
    git = ["git", "-C", other, "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "x"], check=True)
    r = subprocess.run([sys.executable, TOOL, "--ggml-src", other, "--list"], capture_output=True, text=True)
    check(r.returncode == 2 and "not the pinned " + ext_ggml.PIN in r.stderr,
          f"another commit is refused with exit 2 and the pin named (exit {r.returncode}: {r.stderr.strip()[:200]})")
    r = subprocess.run([sys.executable, TOOL, "--ggml-src", other, "--any-commit", "--list"],
                       capture_output=True, text=True)
    n = len(r.stdout.splitlines())
    check(r.returncode == 0 and n > 300 and "gguf_init_from_reader" in r.stdout and "gguf_write" not in r.stdout,
          f"--any-commit lists the reader's mutants only ({n}, exit {r.returncode})")

    killed = "src/gguf.cpp@6c2d35f8#2:cond"  # if (magic[i] != GGUF_MAGIC[i]) -> if (0)
    same = "src/gguf.cpp@dd2219f1#0:crp"  # static_assert(sizeof(size_t) <= 8 ...) -> <= 9
    out = os.path.join(tmp, "out")
    only = "^(" + "|".join(re.escape(x) for x in (killed, same)) + ")$"
    r = subprocess.run([sys.executable, TOOL, "--ggml-src", GSRC, "--build-dir", BDIR, "--only", only,
                        "--rule", "GG002", "-j", "2", "--out", out], capture_output=True, text=True, timeout=600)
    print(r.stdout + r.stderr[-3000:])
    check(r.returncode == 0, f"ext_ggml.py exit 0 (got {r.returncode})")
    rep = json.load(open(os.path.join(out, "ggml-mutants.json")))
    by = {m["id"]: m for m in rep["mutants"]}
    check(set(by) == {killed, same}, f"exactly the two mutants chosen were judged ({sorted(by)})")
    k, s = by.get(killed, {}), by.get(same, {})
    check(k.get("status") == "killed" and "GG002" in k.get("by", ""),
          f"the mutant that skips the magic check is killed by a GG002 case ({k.get('status')}: {k.get('by')})")
    check(s.get("status") == "survived" and "<= 9" in s.get("diff", ""),
          f"the static_assert constant mutant survives ({s.get('status')}, {s.get('diff')!r})")
    b = rep["baseline"]
    check(all(b[m]["cases"] and all(c.startswith("GG002") for c in b[m]["cases"]) for m in ("meta", "data")),
          "the baseline ran the GG002 cases in both modes")
    check(rep["ggml_commit"] == ext_ggml.PIN and rep["total"]["score"] == "50.0%",
          f"report: ggml commit and score 1 of 2 ({rep['ggml_commit']}, {rep['total']['score']})")
    md = open(os.path.join(out, "ggml-mutants.md")).read()
    check(ext_ggml.PIN in md and "## Survivors (1)" in md and "sizeof(size_t) <= 9" in md and "/tmp/" not in md
          and ROOT not in md, "the markdown report names the commit and the survivor's diff, and no machine path")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print("all checks passed" if not failures else f"{len(failures)} check(s) failed")
sys.exit(1 if failures else 0)
