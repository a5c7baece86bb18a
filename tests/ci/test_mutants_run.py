#!/usr/bin/python3
"""test_mutants_run.py: maint/mutants/run.py's own logic, without a build tree (< 5 s).

  test_mutants_run.py SOURCE_ROOT [BUILD_DIR]

What a published mutation figure rests on: the corpus-only test selection, a
cache key that changes when a test program, a fixture, the test selection or
the judging mode changes (and only then), the reuse counts a report states,
equivalence and API-only lines whose mutant no longer exists (exit 2), how a
listed API-only mutant is classified and counted, the address-space limit put
on a command, report headers without machine paths, and how a --patch file
becomes a mutant.  With BUILD_DIR (a built tree, ~10 s): a patch judged end to
end by test_utf8, one that must die (overlong C0/C1 lead bytes accepted) and
one that must survive (a comment reworded); exit 77 when the tree has no
test_utf8.
"""
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
import types

ROOT = os.path.abspath(sys.argv[1])
RUN = os.path.join(ROOT, "maint/mutants/run.py")
sys.path.insert(0, os.path.join(ROOT, "maint/mutants"))
import cmut  # noqa: E402
import run  # noqa: E402

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def test(name, cmd, stage="unit"):
    return {"name": name, "cmd": cmd, "cwd": "/", "skip": None, "env": {}, "stage": stage}


# ---- corpus-only selection
tests = [test("test_conform_inprocess", ["/b/tools/tfs", "conform"], "conform"),
         test("test_conform_inprocess_strict", ["/b/tools/tfs", "conform", "--profile", "strict"], "conform"),
         test("test_corpus_gguf", ["/b/tests/run_manifest", "m"], "corpus"),
         test("test_st_parse", ["/b/tests/test_st_parse"]),
         test("test_cli_check", ["bash", "/s/tests/cli/test_check.sh"]),
         test(run.LINT_TEST, ["/b/tools/tfs", "conform", "--lint"], "conform")]
targets = {"/b/tools/tfs": 0, "/b/tests/run_manifest": 0, "/b/tests/test_st_parse": 0}
names = lambda sel: [t["name"] for t in sel]  # noqa: E731
check(names(run.select_tests(tests, targets, corpus_only=True)) ==
      ["test_conform_inprocess", "test_conform_inprocess_strict", run.LINT_TEST],
      "--corpus-only: the in-process conform tests and the lint judge, nothing else")
check(names(run.select_tests(tests, targets, tests_rx="^test_corpus")) == ["test_corpus_gguf"], "--tests RX")
check("test_cli_check" not in names(run.select_tests(tests, targets, quick=True)),
      "--quick: scripts left out")
check(len(run.select_tests(tests, targets)) == len(tests), "default: every test")

# ---- the cache key's context
with tempfile.TemporaryDirectory() as tmp:
    prog = os.path.join(tmp, "prog")
    fix = os.path.join(tmp, "fixtures")
    os.makedirs(os.path.join(fix, "sub"))
    open(prog, "wb").write(b"\x7fELF one")
    open(os.path.join(fix, "MANIFEST.tsv"), "w").write("id\tpath\n")
    open(os.path.join(fix, "sub", "a.gguf"), "wb").write(b"GGUF")
    sel = [test("t1", [prog, "--fixtures", fix])]
    mode = {"corpus_only": True}

    def ctx(judges=None, m=None):
        return run.context_hash(judges or [("dev", sel)], m or mode, roots=())

    c0 = ctx()
    check(c0 == ctx(), "context: the same inputs give the same hash")
    open(prog, "wb").write(b"\x7fELF two")
    c1 = ctx()
    check(c1 != c0, "context: a changed test program changes it")
    open(os.path.join(fix, "sub", "a.gguf"), "wb").write(b"GGUF\x03")
    c2 = ctx()
    check(c2 != c1, "context: a changed fixture file changes it")
    open(os.path.join(fix, "MANIFEST.tsv"), "a").write("x\tsub/a.gguf\n")
    c3 = ctx()
    check(c3 != c2, "context: a changed manifest changes it")
    os.rename(os.path.join(fix, "sub", "a.gguf"), os.path.join(fix, "sub", "b.gguf"))
    c4 = ctx()
    check(c4 != c3, "context: a renamed fixture changes it")
    check(ctx([("dev", sel + [test("t2", [prog])])]) != c4, "context: another test selection changes it")
    check(ctx(m={"corpus_only": False}) != c4, "context: another judging mode changes it")
    check(ctx([("dev", sel), ("asan-ubsan", sel)]) != c4, "context: a sanitizer judge changes it")
    # a `tfs` program brings its tfs-conform (run beside it by `tfs conform`)
    tfs = os.path.join(tmp, "tfs")
    open(tfs, "wb").write(b"tfs")
    open(os.path.join(tmp, "tfs-conform"), "wb").write(b"conform 1")
    sel_tfs = [test("t3", [tfs, "conform"])]
    c5 = ctx([("dev", sel_tfs)])
    open(os.path.join(tmp, "tfs-conform"), "wb").write(b"conform 2")
    check(ctx([("dev", sel_tfs)]) != c5, "context: tfs-conform beside a tfs changes it")
    # the mutated object: its text and compile command
    o = run.object_hash("int x;", [("/b", ["cc", "-O0"])])
    check(o != run.object_hash("int x;", [("/b", ["cc", "-O2"])]), "object: another compile command changes it")
    check(o != run.object_hash("int y;", [("/b", ["cc", "-O0"])]), "object: another text changes it")

# ---- equivalence lines whose mutant no longer exists
src = open(os.path.join(ROOT, "parsers/core/utf8.c")).read()
ms = cmut.mutants("parsers/core/utf8.c", src)
m0 = ms[0]
live = (m0["id"], cmut.diff_hash(src, m0))
current = {m["id"]: cmut.diff_hash(src, m) for m in ms}
eq = {live[0]: (live[1], "argued"), "parsers/core/utf8.c@00000000#0:ror": ("0" * 16, "gone"),
      ms[1]["id"]: ("f" * 16, "edited"), "parsers/gguf/kv.c@00000000#0:ror": ("0" * 16, "another file")}
check(run.stale_equivalent(eq, {"parsers/core/utf8.c"}, current) ==
      sorted(["parsers/core/utf8.c@00000000#0:ror", ms[1]["id"]]),
      "stale: a vanished id and a changed diff hash, only for the files in the run")
with tempfile.TemporaryDirectory() as tmp:
    tsv = os.path.join(tmp, "eq.tsv")
    open(tsv, "w").write(f"{live[0]}\t{live[1]}\targued\nparsers/core/utf8.c@00000000#0:ror\t{'0' * 16}\tgone\n")
    r = subprocess.run([sys.executable, RUN, "parsers/core/utf8.c", "--equivalent", tsv, "--list"], cwd=ROOT,
                       capture_output=True, text=True)
    check(r.returncode == 2 and "utf8.c@00000000#0:ror" in r.stderr, f"run.py: a stale line is exit 2 ({r.returncode})")
    open(tsv, "w").write(f"{live[0]}\t{live[1]}\targued\n")
    r = subprocess.run([sys.executable, RUN, "parsers/core/utf8.c", "--equivalent", tsv, "--list"], cwd=ROOT,
                       capture_output=True, text=True)
    check(r.returncode == 0 and f"{len(ms)} mutants" in r.stdout, f"run.py: live lines only is exit 0 ({r.returncode})")
# ---- API-only lines: the same staleness rule, never on both lists, and the verdict a judged mutant gets
with tempfile.TemporaryDirectory() as tmp:
    api_tsv, eq_tsv = os.path.join(tmp, "api.tsv"), os.path.join(tmp, "eq.tsv")
    open(eq_tsv, "w").write("")
    open(api_tsv, "w").write(f"{ms[2]['id']}\t{'f' * 16}\tplanted: a changed diff hash\n")
    r = subprocess.run([sys.executable, RUN, "parsers/core/utf8.c", "--equivalent", eq_tsv, "--api-only", api_tsv,
                        "--list"], cwd=ROOT, capture_output=True, text=True)
    check(r.returncode == 2 and "api_only.tsv" in r.stderr and ms[2]["id"] in r.stderr,
          f"run.py: a stale API-only line is exit 2 ({r.returncode})")
    open(api_tsv, "w").write(f"{live[0]}\t{live[1]}\targued\n")
    r = subprocess.run([sys.executable, RUN, "parsers/core/utf8.c", "--equivalent", eq_tsv, "--api-only", api_tsv,
                        "--list"], cwd=ROOT, capture_output=True, text=True)
    check(r.returncode == 0, f"run.py: a live API-only line is exit 0 ({r.returncode})")
    open(eq_tsv, "w").write(f"{live[0]}\t{live[1]}\targued\n")
    r = subprocess.run([sys.executable, RUN, "parsers/core/utf8.c", "--equivalent", eq_tsv, "--api-only", api_tsv,
                        "--list"], cwd=ROOT, capture_output=True, text=True)
    check(r.returncode == 2 and "both" in r.stderr, f"run.py: a mutant on both lists is exit 2 ({r.returncode})")
    check(run.load_equivalent(api_tsv) == {live[0]: (live[1], "argued")}, "load_equivalent reads api_only.tsv lines")
v = lambda status, corpus_only, whole: run.api_only_verdict({"status": status}, "why", corpus_only, whole)  # noqa
check(v("survived", True, False) == {"status": "api-only", "argument": "why"},
      "--corpus-only: a listed survivor is api-only")
check(v("killed", True, False) == {"status": "killed", "refutes_api_only": True},
      "--corpus-only: a listed mutant the corpus kills refutes its line")
check(v("survived", False, True) == {"status": "survived", "refutes_api_only": True},
      "whole suite: a listed survivor refutes its line")
check(v("killed", False, True) == {"status": "killed", "api_only_confirmed": True}, "whole suite: a kill confirms it")
check(v("survived", False, False) == {"status": "survived"}, "a subset of the tests: neither")
r = subprocess.run([sys.executable, RUN, "--corpus-only", "--tests", "x", "--list"], cwd=ROOT, capture_output=True)
check(r.returncode == 2, "run.py: --corpus-only with --tests is exit 2")
r = subprocess.run([sys.executable, RUN, "--lint", "--list"], cwd=ROOT, capture_output=True)
check(r.returncode == 2, "run.py: --lint without --corpus-only is exit 2")
r = subprocess.run([sys.executable, RUN, "--readers"], cwd=ROOT, capture_output=True, text=True)
rd = r.stdout.split()
check(r.returncode == 0 and len(rd) == 13 and "parsers/core/utf8.c" in rd and not any(f.endswith("/write.c") for f in rd)
      and all(os.path.isfile(os.path.join(ROOT, f)) for f in rd), f"--readers: the 13 verdict-reader files ({len(rd)})")
# the shipped list has no stale line for the files that decide verdicts
allsrc = {f: open(os.path.join(ROOT, f)).read() for f in run.VERDICT_FILES}
cur = {m["id"]: cmut.diff_hash(allsrc[f], m) for f in allsrc for m in cmut.mutants(f, allsrc[f])}
check(run.stale_equivalent(run.load_equivalent(), set(run.VERDICT_FILES), cur) == [],
      "maint/mutants/equivalent.tsv: every line of a verdict file names a live mutant")
shipped_api = run.load_equivalent(os.path.join(ROOT, "maint/mutants/api_only.tsv"))
check(shipped_api and run.stale_equivalent(shipped_api, set(run.VERDICT_FILES), cur) == [] and
      not set(shipped_api) & set(run.load_equivalent()),
      f"maint/mutants/api_only.tsv: {len(shipped_api)} lines, each a live mutant, none on equivalent.tsv")

# ---- mint_mutant.py's search parts
import mint_mutant  # noqa: E402
keep = lambda b: b.count(b"x") >= 2 and b.startswith(b"H")  # noqa: E731
small = mint_mutant.minimise(b"Habcxdefxghi", keep, 400)
check(small == b"Hxx", f"minimise: the smallest input that keeps the property ({small!r})")
# halves (2 tries, both fail), then thirds: the 4th try of those drops "ghi", the 6th try overall
few = mint_mutant.minimise(b"Habcxdefxghi", keep, 6)
check(few == b"Habcxdefx", f"minimise: stops after max_tests, the property kept ({few!r})")
ours = {"default": ("valid", None, "c1"), "strict": ("parser_error", "ST501", None)}
check(mint_mutant.first_difference(ours, dict(ours), "safetensors") is None, "first_difference: none")
check(mint_mutant.first_difference(ours, dict(ours, default=("valid", None, "c2")), "safetensors") == "default",
      "first_difference: other content of an accepted file")
check(mint_mutant.first_difference(ours, dict(ours, strict=("parser_error", "ST110", None)), "safetensors") ==
      "strict", "first_difference: another rule in the strict profile")
check(mint_mutant.formats_of("parsers/gguf/kv.c") == ["gguf"] and len(mint_mutant.formats_of("parsers/core/utf8.c")) == 2,
      "formats_of: a GGUF file's mutant searches GGUF seeds, core's both")

# ---- the address-space limit
alloc = [sys.executable, "-c", "import sys; x = bytearray(int(sys.argv[1]) << 20)"]
r_small = subprocess.run(run.as_limited(alloc + ["1"], 256), capture_output=True)
r_big = subprocess.run(run.as_limited(alloc + ["512"], 256), capture_output=True)
r_free = subprocess.run(run.as_limited(alloc + ["512"], 0), capture_output=True)
check(r_small.returncode == 0 and r_big.returncode != 0 and r_free.returncode == 0,
      f"as_limited: 1 MiB fits 256 MiB ({r_small.returncode}), 512 MiB does not ({r_big.returncode}), "
      f"no limit ({r_free.returncode})")

# ---- the report: reuse counts, commit, no machine path
results = [
    {"file": "parsers/core/utf8.c", "id": "a", "op": "ror", "line": 1, "diff": "-a\n+b", "diff_hash": "1",
     "family": "-", "status": "killed", "by": "test_conform_inprocess", "cached": True},
    {"file": "parsers/core/utf8.c", "id": "b", "op": "ror", "line": 2, "diff": "-a\n+b", "diff_hash": "2",
     "family": "-", "status": "killed", "by": "test_conform_inprocess"},
    {"file": "parsers/core/utf8.c", "id": "c", "op": "ror", "line": 3, "diff": "-a\n+b", "diff_hash": "3",
     "family": "-", "status": "equivalent", "rejudged": ["rlimit-32MiB"]},
    {"file": "parsers/core/utf8.c", "id": "d", "op": "ror", "line": 4, "diff": "-a\n+b", "diff_hash": "4",
     "family": "-", "status": "killed", "by": "rlimit-32MiB:test_conform_inprocess", "refutes_equivalence": True},
    {"file": "parsers/core/utf8.c", "id": "e", "op": "ror", "line": 5, "diff": "-a\n+b", "diff_hash": "5",
     "family": "-", "status": "survived"},
    {"file": "parsers/gguf/view.c", "id": "f", "op": "crp", "line": 6, "diff": "-a\n+b", "diff_hash": "6",
     "family": "-", "status": "api-only", "argument": "only TFS_PARTIAL shows it"},
    {"file": "parsers/gguf/view.c", "id": "g", "op": "crp", "line": 7, "diff": "-a\n+b", "diff_hash": "7",
     "family": "GG1xx", "status": "killed", "by": "test_conform_inprocess", "refutes_api_only": True},
]
check(run.reuse(results) == {"cache": 1, "equivalent": 1, "rejudged": 1, "refuted": 1, "api_only": 1,
                             "api_only_refuted": 1, "api_only_confirmed": 0}, "reuse counts")
with tempfile.TemporaryDirectory() as tmp:
    a = types.SimpleNamespace(sample=1, shuffle=None, corpus_only=True, lint=False, san_build_dir=None,
                              as_limits="32,64", stratify=False, big_fixtures=None, valgrind=False)
    argv = sys.argv
    sys.argv = [RUN, "--corpus-only", "--build-dir", os.path.join(ROOT, "build/dev")]
    try:
        run.report(results, tmp, 1.0, a, ["parsers/core/utf8.c"], ["test_conform_inprocess"], "0123")
    finally:
        sys.argv = argv
    md = open(os.path.join(tmp, "mutants.md")).read()
    doc = json.load(open(os.path.join(tmp, "mutants.json")))
    check("Reused verdicts: 1 from the cache" in md and "1 equivalent by a line" in md, "report: reuse stated")
    check("1 equivalence line(s) refuted" in md and "- `d` killed by rlimit-32MiB" in md, "report: refuted line listed")
    check(ROOT not in md and ROOT not in json.dumps({k: v for k, v in doc.items() if k != "mutants"}),
          "report: no machine path in the header")
    check(doc["command"] == "maint/mutants/run.py --corpus-only --build-dir build/dev", f"report: {doc['command']}")
    check(doc["total"]["score"] == "66.7%" and doc["total"]["score" + run.NO_API] == "80.0%",
          f"scores: 4 killed of 6 with the api-only one as a survivor ({doc['total']['score']}), of 5 without it "
          f"({doc['total']['score' + run.NO_API]})")
    pf = doc["per_file"]["parsers/gguf/view.c"]
    check(pf["api-only"] == 1 and pf["survived"] == 0 and pf["score"] == "50.0%" and pf["score" + run.NO_API] ==
          "100.0%" and doc["per_family"]["-"]["api-only"] == 1, "per file and family: api-only counted apart")
    check("| parsers/gguf/view.c | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 50.0% | 100.0% |" in md and
          "score without api-only" in md.lower(), "report: the api-only column and both scores")
    check("## API-only (1" in md and "- `f` (diff 6): only TFS_PARTIAL shows it" in md and
          "## API-only lines refuted (1)" in md and "- `g` killed by test_conform_inprocess" in md,
          "report: api-only mutants and refuted lines listed")
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:  # a source tree without git names no commit
        check(doc["commit"].split("+")[0] == head.stdout.strip(), f"report: the commit {doc['commit']}")

# ---- --stratify: each file's shuffled mutants in turn; the total weighted by the files' sizes
todo = [("A", {"id": f"a{k}"}) for k in range(5)] + [("B", {"id": "b0"}), ("B", {"id": "b1"}), ("C", {"id": "c0"})]
check([m["id"] for _, m in run.stratified(todo)] == ["a0", "b0", "c0", "a1", "b1", "a2", "a3", "a4"],
      "stratified: one of each file in turn, each file's own order kept, none lost")


def counts(**kw):
    return dict({s: 0 for s in run.STATUSES}, **kw)


# X: 10 of 10 judged killed, 90 not run (weight 100, 100%); Y: 5 killed, 5 survived, none left (weight 10, 50%)
est = run.stratified_total({"X": counts(killed=10, **{"not-run": 90}), "Y": counts(killed=5, survived=5)})
check(est is not None and est[0] == 95.5 and est[1] == (92.6, 98.3),
      f"stratified_total: (100 x 100% + 10 x 50%) / 110 = 95.5%, interval 95.5 +- 1.96 x 10/110 x 0.5/sqrt(10) = 2.8 ({est})")
# an equivalent mutant is run but not judged: Z's 4 run, 2 judged (both killed), 4 not run -> weight 8 x 2/4 = 4
est = run.stratified_total({"Y": counts(killed=5, survived=5), "Z": counts(killed=2, equivalent=2, **{"not-run": 4})})
check(est is not None and est[0] == round(100 * (10 * 0.5 + 4 * 1.0) / 14, 1),
      f"stratified_total: a file's weight counts only the share of its mutants that is judged ({est})")
est = run.stratified_total({"Y": counts(killed=1, **{"api-only": 1})}, run.NO_API)
check(est is not None and est[0] == 100.0 and run.stratified_total({"Y": counts(**{"api-only": 1})}, "")[0] == 0.0,
      "stratified_total: api-only counted as a survivor, or left out with NO_API")
check(run.stratified_total({"Y": counts(equivalent=3)}) is None, "stratified_total: nothing judged, no estimate")

# ---- --big-fixtures: tfs conform over the folder in each line's own mode and each profile
bt = run.big_tests(types.SimpleNamespace(targets={"/b/tools/tfs": None, "/b/tests/x": None}, bdir="/b"), "/f")
check([t["name"] for t in bt] == ["conform_big", "conform_big_default", "conform_big_strict", "conform_big_header-only"]
      and bt[0]["cmd"] == ["/b/tools/tfs", "conform", "--fixtures", "/f", "-q"]
      and bt[3]["cmd"][-2:] == ["--profile", "header-only"], "big_tests: the four conform runs over the folder")
check(run.big_tests(types.SimpleNamespace(targets={"/b/tests/x": None}, bdir="/b"), "/f") == [],
      "big_tests: no tfs program, no judge")

with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "MANIFEST.tsv"), "w") as f:
        f.write("id\tpath\tsha256\tsize\tformat\texpect\n" + "a\ta.gguf\t0\t1\tgguf\tvalid\n")
    fm = run.big_formats(d)
    check(fm == {"gguf"}, f"big_formats: the format column's values ({fm})")
    check(run.big_applies("parsers/gguf/kv.c", fm) and not run.big_applies("parsers/safetensors/st_entries.c", fm)
          and run.big_applies("parsers/core/utf8.c", fm) and run.big_applies("parsers/safetensors/x.c", {"safetensors"}),
          "big_applies: a format's parser files only with fixtures of that format; shared files always")

# ---- the programs of the build tree, not of trees that tests configure inside it
with tempfile.TemporaryDirectory() as b:
    for d in ("tools/CMakeFiles/tfs.dir", "tests/rulecov/rulecov-ST110/tools/CMakeFiles/tfs.dir"):
        os.makedirs(os.path.join(b, d))
    open(os.path.join(b, "CMakeCache.txt"), "w").close()
    open(os.path.join(b, "tests/rulecov/rulecov-ST110/CMakeCache.txt"), "w").close()
    check(not run.nested_tree(b, os.path.join(b, "tools/CMakeFiles/tfs.dir/link.txt")), "nested_tree: the build's own")
    check(run.nested_tree(b, os.path.join(b, "tests/rulecov/rulecov-ST110/tools/CMakeFiles/tfs.dir/link.txt")),
          "nested_tree: a tree a test configured inside the build")



# ---- --patch: a unified diff as a mutant
def write_patch(d, name, path, old, new):
    """d/name.patch: the unified diff of path (from the source root) with old replaced by new once"""
    src = open(os.path.join(ROOT, path)).read()
    check(src.count(old) == 1, f"{path} has `{old}` once (the patch's anchor)")
    out = os.path.join(d, name + ".patch")
    with open(out, "w") as f:
        f.writelines(difflib.unified_diff(src.splitlines(True), src.replace(old, new).splitlines(True),
                                          "a/" + path, "b/" + path))
    return out


UTF8 = "parsers/core/utf8.c"
LEAD = "if (b < 0xC2u) return 0;"
with tempfile.TemporaryDirectory() as tmp:
    dies = write_patch(tmp, "c0-lead", UTF8, LEAD, "if (b < 0xC0u) return 0;")
    f, src, m = run.patch_mutant(dies)
    check(f == UTF8 and m["id"] == "patch:c0-lead" and m["op"] == "patch", f"patch_mutant: {f} {m['id']}")
    check(cmut.apply(src, m) == src.replace(LEAD, "if (b < 0xC0u) return 0;"), "patch_mutant: the patched text")
    check(m["line"] == src[:src.index(LEAD)].count("\n") + 1 and m["patch_diff"].split("\n")[0].startswith("-"),
          f"patch_mutant: line {m['line']} and the hunk's lines as the diff")
    moved = os.path.join(tmp, "moved.patch")  # the same hunk stated 5 lines off: found where it matches
    text = open(dies).read()
    open(moved, "w").write(re.sub(r"@@ -(\d+)", lambda x: f"@@ -{int(x.group(1)) + 5}", text, count=1))
    check(cmut.apply(*run.patch_mutant(moved)[1:]) == cmut.apply(src, m), "patch_mutant: a hunk found off its line")
    bad = write_patch(tmp, "bad", UTF8, LEAD, "if (b < 0xC1u) return 0;")
    text = open(bad).read()
    open(bad, "w").write(text.replace(LEAD, "if (b < 0x00u) return 0;"))
    r = subprocess.run([sys.executable, RUN, "--patch", bad, "--list"], cwd=ROOT, capture_output=True, text=True)
    check(r.returncode == 2 and "does not match" in r.stderr,
          f"--patch: a hunk the file lacks: exit 2 ({r.stderr.strip()})")
    r = subprocess.run([sys.executable, RUN, "--patch", dies, "--list"], cwd=ROOT, capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.startswith("patch:c0-lead -") and "1 mutants" in r.stdout,
          "--patch --list: the patch alone")
    r = subprocess.run([sys.executable, RUN, UTF8, "--patch", dies, "--list"], cwd=ROOT, capture_output=True)
    check(r.returncode == 2, "--patch with FILE: exit 2")

    bdir = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    if bdir:
        names = subprocess.run(["ctest", "-N", "-R", "^test_utf8$"], cwd=bdir, capture_output=True, text=True)
        if "test_utf8" not in names.stdout or not os.path.exists(os.path.join(bdir, "compile_commands.json")):
            print("skip: no test_utf8 or compile_commands.json in the build tree")
            sys.exit(77 if not failures else 1)
        lives = write_patch(tmp, "comment", UTF8, "/* stray continuation, or overlong C0/C1 */",
                            "/* a stray continuation byte, or an overlong C0/C1 lead */")
        out = os.path.join(tmp, "out")
        r = subprocess.run([sys.executable, RUN, "--build-dir", bdir, "--tests", "^test_utf8$", "--as-limits", "",
                            "--no-cache", "--out", out, "--patch", dies, "--patch", lives], cwd=ROOT,
                           capture_output=True, text=True)
        check(r.returncode == 0, f"--patch run: exit {r.returncode} {r.stderr[-400:]}")
        if r.returncode == 0:
            doc = json.load(open(os.path.join(out, "mutants.json")))
            got = {x["id"]: (x["status"], x.get("by")) for x in doc["mutants"]}
            check(got == {"patch:c0-lead": ("killed", "test_utf8"), "patch:comment": ("survived", None)},
                  f"--patch run: the slip killed by test_utf8, the comment survives ({got})")
            md = open(os.path.join(out, "mutants.md")).read()
            check("`patch:comment`" in md and "+    if (b < 0xC0u)" not in md.split("## Survivors")[1],
                  "--patch report: the survivor listed with its own hunk")
            check(f"| patch:c0-lead | {UTF8} | {m['line']} | killed | test_utf8 |" in md and
                  "| patch:comment |" in md, "--patch report: each patch's verdict and judge")
            cache = os.path.join(bdir, "mutants", "cache.json")
            check(not os.path.exists(cache) or "patch:" not in open(cache).read(), "--patch: nothing cached")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
