#!/usr/bin/python3
"""maint/mutants/run.py: operator-level mutation testing of parsers/ (docs/mutation-testing.md).

  maint/mutants/run.py [FILE...] [--build-dir DIR] [-j N] [--quick] [--base REF] [--budget S]
                       [--sample K] [--ops LIST] [--out DIR] [--no-cache] [--list] [-v]
                       [--corpus-only [--lint] [--big-fixtures DIR]] [--valgrind] [--as-limits MIB,...]
                       [--san-build-dir DIR] [--shuffle N [--stratify]]
                       [--equivalent F] [--api-only F] [--patch FILE.patch ...]

Every mutant of maint/mutants/cmut.py in the given C files (default: the
files that decide verdicts: parsers/gguf/*.c, parsers/safetensors/*.c and
parsers/core/utf8.c, readers before writers) is compiled alone (the file's own
compile command from DIR/compile_commands.json, -Werror dropped), put with the
build's other objects into a private libtfs.a, and the test programs that link
libtfs are relinked against it.  Then the suite runs, fastest killers first:
  1. conform  the in-process `tfs conform` (every manifest line, then every
              profile: ctest test_conform_inprocess*);
  2. corpus   tests/corpus/run_manifest over each manifest (test_corpus_*);
  3. unit     every other ctest test whose command runs a relinked program
              (unit tests, CLI scripts, fuzz replays, ...), minus the slow
              or unrelated ones in EXCLUDE below.
Inside a stage, the tests that have killed the most mutants so far (this run
and the cache) go first, then the fastest.  The first failing test kills the
mutant.  With --san-build-dir, a survivor is judged once more in that ASan +
UBSan tree (same stages, ASAN_OPTIONS/UBSAN_OPTIONS of the asan-ubsan test
preset): CI's asan-ubsan stage would fail on a memory-safety slip that no
verdict shows, so a sanitizer report kills it (by "asan-ubsan:TEST").
A survivor is then judged under each address-space limit of --as-limits
(setrlimit RLIMIT_AS in the dev tree, the tests whose unmutated baseline
passes under that limit): a slip that only makes a parse reserve far more
memory is killed there (by "rlimit-32MiB:TEST").
Outcomes: killed, survived,
timeout (a test ran past its limit: counted as detected), did-not-compile,
equivalent (listed in maint/mutants/equivalent.tsv with a written argument),
api-only (--corpus-only: a survivor listed in maint/mutants/api_only.tsv, a
difference only the library's API shows, with a written argument that no file
can show it through `tfs conform`; the report gives the score counting them as
survivors and leaving them out).
An equivalence line is never taken on trust: its mutant is judged by the
sanitizer tree and under the address-space limits on every run that uses it
(a kill refutes the line: exit 1), and a line of a file in the run whose
mutant no longer exists (id gone or diff hash changed) is an error (exit 2).
An API-only line is judged too: a kill by the corpus (--corpus-only), or a
survivor of the whole suite (no --corpus-only, --tests or --quick: the line
says the suite kills it) refutes it (exit 1); a stale line is exit 2.

  FILE...       C files of parsers/ (paths from the source root)
  --build-dir   a configured and built tree (default build/dev); only read
  --san-build-dir  a built asan-ubsan tree (cmake --preset asan-ubsan) that
                judges the survivors (default: none; survivors stay survivors)
  -j N          mutants at once (default 1; the machine is shared)
  --quick       the mutants of the parsers/ files a change touches (git diff
                against the merge-base with --base, default origin/main, else
                main, else HEAD~1), changed lines first, until --budget
                seconds (default 180) are used; exit 1 on a survivor on a
                changed line
  --budget S    stop starting mutants after S seconds (default: none; 180 with
                --quick); the rest are reported as not-run
  --shuffle N   judge the mutants in a random order (seed N): a run cut by
                --budget is then a random sample of the selection, and the
                report gives the score's 95% Wilson interval
  --stratify    with --shuffle: the shuffled mutants taken from each file in
                turn, so a run cut by --budget judges about as many mutants of
                each file (all of a small file's); each file's score is then an
                estimate for that file, and the report's total weights the files
                by their number of mutants (a stratified estimate, with a normal
                95% interval)
  --sample K    every K-th mutant only (a measured sample; the report gives the
                score's 95% Wilson interval for all the mutants of the files)
  --ops LIST    operators (ror,lcr,aor,crp,cond,stmt; default all)
  --out DIR     where mutants.md and mutants.json go (default DIR/mutants)
  --no-cache    ignore the cache (DIR/mutants/cache.json: outcomes keyed by the
                mutated object (the file's sha256, its compile commands, the
                mutant id) and the context: the hashes of the test programs
                and scripts the selected tests run, of the fixtures (corpus/
                manifests and files), of tests/ and generators/, and the test
                selection and judges; survivors are never cached, so a new
                test is always tried on them).  The report counts the verdicts
                reused from the cache and from equivalent.tsv.
  --corpus-only judge by the corpus alone: the in-process `tfs conform` in
                every profile (ctest test_conform_inprocess*: each fixture
                through the buffer, file and forward-only stream byte paths,
                conformance/runner/bytepaths.h); not with --tests
  --lint        with --corpus-only, the lint fixtures too (`tfs conform --lint`
                over corpus/lint)
  --big-fixtures DIR  with --corpus-only: a folder of fixtures too large for
                corpus/ (`generators/gg_keep_total_big.py DIR` writes it, about
                135 MB; with --huge 2.3 GB, minutes per mutant) that judges the
                survivors of the corpus, after the sanitizer tree: `tfs conform
                --fixtures DIR` in each line's own mode and in each profile (no
                address-space limit), for mutants of a format the folder holds
                (not a parsers/safetensors/ mutant by GGUF files, which its
                parser never sees); a kill there is a kill by a file an
                implementer can make with the project's generators ("big:TEST"
                in the report)
  --valgrind    survivors judged again by test_valgrind_corpus (`tfs check`
                over every corpus file under valgrind memcheck, the three
                profiles; the dev tree configured with valgrind on PATH): a
                read of uninitialised memory that decides a branch, which no
                verdict and no sanitizer of the asan-ubsan tree shows, kills
                ("valgrind:test_valgrind_corpus"); the corpus alone, so it
                counts with --corpus-only
  --as-limits L address-space limits in MiB that judge survivors and
                equivalence lines (default 32,64,96,128: a test judges under
                the second one under which it passes unmutated, one step of
                headroom; "" none)
  --equivalent F  the equivalence list (default maint/mutants/equivalent.tsv)
  --api-only F  the API-only list (default maint/mutants/api_only.tsv; same
                columns: id, diff hash, argument); check a line with
                `run.py FILE --only ID` (the whole suite must kill it)
  --only RX     only the mutants whose id or diff matches the regular expression RX
  --patch P     judge the unified diff P (against one C file of parsers/, paths
                from the source root, `git diff` style) as a mutant instead of
                the operator mutants (repeatable): applied to a copy of the
                file (each hunk's old lines must match, at the stated line or
                the nearest place they do), compiled with that file's command,
                judged by the same judges; its id is patch:NAME (the file name
                without .patch); never cached, never on the equivalence lists
  --tests RX    only the ctest tests whose name matches RX (default: all above)
  --list        print the mutants and exit
  --readers     print the 13 verdict-reader files (the default files without
                the two writers) and exit
Exit 0 done (no survivor on a changed line with --quick), 1 such a survivor
or an equivalence or API-only line refuted, 2 usage, build or baseline failure,
or an equivalence or API-only line of a file in the run whose mutant no longer
exists (or a mutant on both lists).
"""
import argparse
import concurrent.futures as cf
import fcntl
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cmut  # noqa: E402

# ctest tests not run against mutants: slow, spawn-based duplicates of the
# in-process runs, or checks of things other than parser behaviour.
EXCLUDE = re.compile(r"^(test_bench|test_bug_|test_exports|test_install|test_minimal_build|test_internal_prefix|"
                     r"test_generator_(st|gg)_fixtures|test_generator_audit|test_conform_runner|test_adapter_|"
                     r"test_mutation_|test_rule_sites|test_afl_|test_conformance_release|test_valgrind|"
                     r"test_cli_docs|test_rules_md|test_mutators_doc|fuzz_dicts_current|fuzz_selftest|"
                     r"test_st_twofault|test_generator_strategies)")
STAGES = [("conform", re.compile(r"^test_conform_inprocess")), ("corpus", re.compile(r"^test_(corpus_|shared_real)")),
          ("unit", re.compile(r"."))]
VERDICT_FILES = ["parsers/core/utf8.c"] + sorted(glob.glob("parsers/gguf/*.c", root_dir=ROOT)) + \
    sorted(glob.glob("parsers/safetensors/*.c", root_dir=ROOT))
# the files that decide verdicts, without the two writers (the corpus-only headline's files)
VERDICT_READERS = [f for f in VERDICT_FILES if not f.endswith("/write.c")]
# --corpus-only: the in-process `tfs conform` in every profile, and with --lint `tfs conform --lint`
CORPUS_ONLY = re.compile(r"^test_conform_inprocess")
LINT_TEST = "conform_lint"
VALGRIND_TEST = "test_valgrind_corpus"  # tools/CMakeLists.txt: tfs check over corpus/ under valgrind memcheck


def lint_test(bb):
    """the --lint judge of build bb: its tfs program running `conform --lint` over corpus/lint, as a test
    record like Build's; None when bb has no tfs program"""
    tfs = [p for p in bb.targets if os.path.basename(p) == "tfs"]
    if not tfs:
        return None
    return {"name": LINT_TEST, "cmd": [tfs[0], "conform", "--lint", "--fixtures", os.path.join(ROOT, "corpus/lint"),
                                       "--quiet"], "cwd": bb.bdir, "skip": None, "env": {}, "stage": "conform"}


def big_tests(bb, fixtures):
    """the --big-fixtures judges of build bb: its tfs program running `conform` over the folder in each line's
    own mode and in each profile, as test records like Build's; [] when bb has no tfs program"""
    tfs = [p for p in bb.targets if os.path.basename(p) == "tfs"]
    if not tfs:
        return []
    base = [tfs[0], "conform", "--fixtures", os.path.abspath(fixtures), "-q"]
    return [{"name": "conform_big" + ("_" + p if p else ""), "cmd": base + (["--profile", p] if p else []),
             "cwd": bb.bdir, "skip": None, "env": {}, "stage": "conform"}
            for p in ("", "default", "strict", "header-only")]


def big_formats(fixtures):
    """the formats of the --big-fixtures folder's manifest lines (its format column)"""
    with open(os.path.join(fixtures, "MANIFEST.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    col = rows[0].index("format") if rows and "format" in rows[0] else None
    return {r[col] for r in rows[1:] if col is not None and len(r) > col}


def big_applies(path, formats):
    """does the --big-fixtures judge apply to a mutant of path: a file of parsers/gguf/ or parsers/safetensors/
    only when the folder holds fixtures of that format (another format's files never reach its parser);
    any other file (parsers/core/...) always"""
    for fmt in ("gguf", "safetensors"):
        if path.startswith("parsers/%s/" % fmt):
            return fmt in formats
    return True


def stratified(todo):
    """todo (shuffled) reordered by taking one mutant of each file in turn, in each file's shuffled order: a
    prefix of the result (a run cut by --budget) holds about as many mutants of every file"""
    per = {}
    for f, m in todo:
        per.setdefault(f, []).append((f, m))
    out, k = [], 0
    while len(out) < len(todo):
        out += [ms[k] for ms in per.values() if k < len(ms)]
        k += 1
    return out


def select_tests(tests, targets, tests_rx=None, corpus_only=False, quick=False):
    """the tests that judge the mutants: the corpus-only judges, or those matching tests_rx, or (quick) the
    ones whose program is one of the relinked targets, else all"""
    if corpus_only:
        return [t for t in tests if CORPUS_ONLY.match(t["name"]) or t["name"] == LINT_TEST]
    if tests_rx:
        return [t for t in tests if re.search(tests_rx, t["name"])]
    if quick:  # CI: the in-process runs and the C test programs, not the scripts
        return [t for t in tests if t["cmd"][0] in targets]
    return list(tests)


def _digest_file(path, memo):
    if path not in memo:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        memo[path] = h.hexdigest()
    return memo[path]


def nested_tree(bdir, path):
    """Is `path` inside another build tree below bdir (a folder with its own CMakeCache.txt: the trees that
    tests configure inside the build, e.g. test_rule_off_switch_* and test_bug_smoke_*)?  Its programs are
    not the build's: some of them are never built there."""
    top = os.path.abspath(bdir)
    d = os.path.dirname(os.path.abspath(path))
    while d.startswith(top + os.sep):
        if os.path.exists(os.path.join(d, "CMakeCache.txt")):
            return True
        d = os.path.dirname(d)
    return False


def tree_digest(root, memo):
    """sha256 of every file under root (relative names and contents, sorted; __pycache__ skipped)"""
    h = hashlib.sha256()
    for d, dirs, names in sorted(os.walk(root)):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.isfile(p):
                h.update(f"{os.path.relpath(p, root)}\0{_digest_file(p, memo)}\n".encode())
    return h.hexdigest()


def context_hash(judges, mode, memo=None, roots=("corpus", "tests", "generators")):
    """the part of a cache key that is not the mutated object: mode (the options that change how a mutant
    is judged), and for each judge (label, [test records]) the selected tests' names, commands and
    environments with the hashes of every file and folder a command names (test programs, scripts,
    manifests, fixture folders; a relinked `tfs` brings its `tfs-conform`), plus the fixtures (corpus/) and
    the test and generator sources (tests/, generators/) that scripts read"""
    memo = {} if memo is None else memo
    h = hashlib.sha256(json.dumps(mode, sort_keys=True).encode())
    for label, tests in judges:
        for t in sorted(tests, key=lambda t: t["name"]):
            h.update(json.dumps([label, t["name"], t["cmd"], sorted(t["env"].items())]).encode())
            args = list(t["cmd"])
            args += [os.path.join(os.path.dirname(x), "tfs-conform") for x in t["cmd"] if os.path.basename(x) == "tfs"]
            for x in args:
                if os.path.isfile(x):
                    h.update(_digest_file(x, memo).encode())
                elif os.path.isdir(x):
                    h.update(tree_digest(x, memo).encode())
    for d in roots:
        h.update(f"{d}:{tree_digest(os.path.join(ROOT, d), memo)}".encode())
    return h.hexdigest()


def object_hash(src, compiles):
    """the mutated object's part of a cache key: the file's text and its compile command in each tree"""
    h = hashlib.sha256(src.encode())
    for c in compiles:
        h.update(json.dumps(c).encode())
    return h.hexdigest()


def stale_equivalent(eq, files, current):
    """the equivalent.tsv ids of the files in `files` whose mutant no longer exists: no mutant of that id,
    or its diff hash changed; current = {id: diff hash} of those files' mutants (all operators)"""
    return sorted(i for i, (dh, _) in eq.items() if i.split("@", 1)[0] in files and current.get(i) != dh)


def api_only_verdict(rec, argument, corpus_only, whole):
    """rec (a judged mutant listed in api_only.tsv) after its line: with --corpus-only a survivor is
    "api-only" and a kill refutes the line (a file shows the mutant); in a whole-suite run a survivor refutes
    it (the line says the suite kills it) and a kill confirms it; a run on a subset of the tests proves
    neither"""
    if corpus_only:
        if rec["status"] == "survived":
            rec.update(status="api-only", argument=argument)
        elif rec["status"] in ("killed", "timeout"):
            rec["refutes_api_only"] = True
    elif whole:
        if rec["status"] == "survived":
            rec["refutes_api_only"] = True
        elif rec["status"] in ("killed", "timeout"):
            rec["api_only_confirmed"] = True
    return rec


def as_limited(cmd, mib):
    """cmd under an address-space limit of mib MiB (prlimit, else the shell's ulimit -v)"""
    if not mib:
        return cmd
    if shutil.which("prlimit"):
        return ["prlimit", f"--as={mib << 20}", "--"] + list(cmd)
    return ["sh", "-c", 'ulimit -v "$0" && exec "$@"', str(mib << 10)] + list(cmd)


def rule_family(src_lines, line):
    """ST3xx, GG1xx ... named on the mutant's line or the 3 after it; '-' when none"""
    for k in range(line - 1, min(line + 3, len(src_lines))):
        m = re.search(r"\b(?:TFS_)?(ST|GG)([0-9])[0-9][0-9]\b", src_lines[k])
        if m:
            return f"{m.group(1)}{m.group(2)}xx"
    return "-"


class Build:
    """what a mutant needs from the configured tree"""

    def __init__(self, bdir):
        self.bdir = os.path.abspath(bdir)
        cc = json.load(open(os.path.join(self.bdir, "compile_commands.json")))
        self.compile = {}
        for e in cc:
            f = os.path.relpath(e["file"], ROOT)
            if f.startswith("parsers/") and "/tfs_shared.dir/" not in e.get("output", e.get("command", "")):
                cmd = e.get("command") or " ".join(shlex.quote(a) for a in e["arguments"])
                self.compile.setdefault(f, (e["directory"], shlex.split(cmd)))
        link = open(os.path.join(self.bdir, "parsers/CMakeFiles/tfs_static.dir/link.txt")).read().split("\n")[0]
        words = shlex.split(link)
        if words[1:2] != ["qc"]:
            raise SystemExit("mutants: unexpected archive command in parsers/CMakeFiles/tfs_static.dir/link.txt")
        self.ar = words[0]
        self.objects = [os.path.join(self.bdir, "parsers", w) for w in words[3:]]
        self.targets = {}  # program path -> (dir, link words)
        for lt in glob.glob(os.path.join(self.bdir, "**/CMakeFiles/*.dir/link.txt"), recursive=True):
            if nested_tree(self.bdir, lt):
                continue
            text = open(lt).read().strip().split("\n")[0]
            w = shlex.split(text)
            if "-o" not in w or not any(x.endswith("/parsers/libtfs.a") for x in w):
                continue
            tdir = os.path.dirname(os.path.dirname(os.path.dirname(lt)))
            out = os.path.normpath(os.path.join(tdir, w[w.index("-o") + 1]))
            if out.endswith((".so", ".a")) or ".so." in out:
                continue
            self.targets[out] = (tdir, w)
        info = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=self.bdir, capture_output=True,
                                         text=True, check=True).stdout)
        self.tests = []
        self.excluded = {}  # tests of EXCLUDE that run a relinked program, by name (--valgrind's judge)
        for t in info["tests"]:
            cmd = t.get("command") or []
            props = {p["name"]: p["value"] for p in t.get("properties", [])}
            if props.get("DISABLED") or not any(a in self.targets for a in cmd):
                continue
            env = dict(x.split("=", 1) for x in props.get("ENVIRONMENT", []))
            rec = {"name": t["name"], "cmd": cmd, "cwd": props.get("WORKING_DIRECTORY", self.bdir),
                   "skip": props.get("SKIP_RETURN_CODE"), "env": env,
                   "stage": next(n for n, rx in STAGES if rx.match(t["name"]))}
            if EXCLUDE.match(t["name"]):
                self.excluded[t["name"]] = rec
            else:
                self.tests.append(rec)
        order = {n: i for i, (n, _) in enumerate(STAGES)}
        self.tests.sort(key=lambda t: order[t["stage"]])


def run_group(cmd, cwd, env, timeout):
    """(returncode or 'timeout', output tail); the whole process group is killed on timeout"""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out[-2000:].decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "timeout", ""


# the asan-ubsan test preset's options (CMakePresets.json): a sanitizer report fails the test
SAN_ENV = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:exitcode=99",
           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=0:exitcode=98"}


class Runner:
    def __init__(self, build, work, tests, env=None, kills=None, as_mib=0):
        self.b, self.work, self.tests = build, work, tests
        self.env = env or {}
        self.as_mib = as_mib  # an address-space limit (MiB) on every test, 0 none
        # kills per test name, shared by the threads: the tests that kill most run first
        self.kills = kills if kills is not None else {}
        self.lock = threading.Lock()

    def ordered(self):
        """the tests in stage order; inside a stage, most kills first, then the fastest baseline"""
        order = {n: i for i, (n, _) in enumerate(STAGES)}
        with self.lock:
            return sorted(self.tests, key=lambda t: (order[t["stage"]], -self.kills.get(t["name"], 0),
                                                     t.get("base_s", 0.0)))

    def credit(self, name):
        with self.lock:
            self.kills[name] = self.kills.get(name, 0) + 1

    def link(self, d, archive, progs, wanted):
        """relink the programs of `wanted` (build paths) that link libtfs against `archive`, into d,
        adding them to progs {old path: new path}; "" or an error message"""
        wanted = list(wanted)
        for out in list(wanted):
            # `tfs conform` runs the tfs-conform beside the running tfs: relink the pair together
            if os.path.basename(out) == "tfs":
                wanted.append(os.path.join(os.path.dirname(out), "tfs-conform"))
        for out in wanted:
            if out in progs or out not in self.b.targets:
                continue
            tdir, words = self.b.targets[out]
            w = [archive if x.endswith("/parsers/libtfs.a") or x == "../parsers/libtfs.a" else x for x in words]
            # one folder per build folder, the program keeping its own name (tools/tfs and
            # tools/tfs-conform stay beside each other)
            rel = os.path.relpath(out, self.b.bdir)
            new = os.path.join(d, os.path.dirname(rel).replace("/", "__") or "_", os.path.basename(rel))
            os.makedirs(os.path.dirname(new), exist_ok=True)
            w[w.index("-o") + 1] = new
            r = subprocess.run(w, cwd=tdir, capture_output=True)
            if r.returncode != 0:
                return f"link {out}: {r.stderr.decode(errors='replace')[-400:]}"
            progs[out] = new
        return ""

    def make_archive(self, d, replace=None):
        """libtfs.a in d from the build's objects, `replace` = (object, new object)"""
        objs = [replace[1] if replace and o == replace[0] else o for o in self.b.objects]
        a = os.path.join(d, "libtfs.a")
        r = subprocess.run([self.b.ar, "qc", a] + objs, capture_output=True)
        if r.returncode != 0:
            return None
        subprocess.run(["ranlib", a], check=True)
        return a

    def run_tests(self, d, archive, limits, stop_first=True):
        """[(test, rc or 'timeout', seconds, tail)] in stage order; stops at the first failure.
        Each test's programs are relinked against archive (into d) just before it runs."""
        res = []
        progs = {}
        for t in (self.ordered() if stop_first else self.tests):
            err = self.link(d, archive, progs, t["cmd"])
            if err:
                res.append((t, "link", 0.0, err))
                break
            cmd = [progs.get(a, a) for a in t["cmd"]]
            env = dict(os.environ, **self.env, **t["env"])
            if self.as_mib:  # glibc's mmap threshold fixed at 1 MiB: a freed large block goes back to the
                # system, so the limit measures what a parse holds, not what glibc's growing threshold kept
                # in its heap after an earlier case (the in-process conform: 96 MiB, else 256)
                env.setdefault("MALLOC_MMAP_THRESHOLD_", str(1 << 20))
            t0 = time.monotonic()
            rc, tail = run_group(as_limited(cmd, self.as_mib), t["cwd"], env, limits.get(t["name"], 600))
            dt = time.monotonic() - t0
            if t["skip"] is not None and rc == int(t["skip"]):
                rc = "skip"
            res.append((t, rc, dt, tail))
            if stop_first and rc not in (0, "skip"):
                break
        return res

    def build_mutant(self, d, path, src, m):
        """compile mutant m of path (text src) into d/m.o with the file's own command (-Werror dropped) and
        make d/libtfs.a with it in place of the file's object; the archive's path, or None when the mutant
        does not compile"""
        cwd, words = self.b.compile[path]
        mfile = os.path.join(d, os.path.basename(path))
        with open(mfile, "w") as f:
            f.write(cmut.apply(src, m))
        absrc = os.path.join(ROOT, path)
        w = [x for x in words if x != "-Werror"]
        obj_old = None
        out = []
        i = 0
        while i < len(w):
            if w[i] == "-o":
                obj_old = os.path.normpath(os.path.join(cwd, w[i + 1]))
                out += ["-o", os.path.join(d, "m.o")]
                i += 2
                continue
            out.append(mfile if os.path.normpath(os.path.join(cwd, w[i])) == absrc else w[i])
            i += 1
        out[1:1] = ["-iquote", os.path.dirname(absrc)]
        r = subprocess.run(out, cwd=cwd, capture_output=True, timeout=300)
        if r.returncode != 0:
            return None
        return self.make_archive(d, (obj_old, os.path.join(d, "m.o")))

    def mutant(self, path, src, m, limits):
        d = tempfile.mkdtemp(prefix="m-", dir=self.work)
        try:
            a = self.build_mutant(d, path, src, m)
            if a is None:
                return {"status": "did-not-compile"}
            res = self.run_tests(d, a, limits)
            last = res[-1] if res else None
            if last and last[1] == "link":
                return {"status": "did-not-compile", "why": last[3]}
            if last and last[1] == "timeout":
                return {"status": "timeout", "by": last[0]["name"], "stage": last[0]["stage"]}
            if last and last[1] not in (0, "skip"):
                self.credit(last[0]["name"])
                # the end of the killing test's output (mutants.json only): what it saw
                return {"status": "killed", "by": last[0]["name"], "stage": last[0]["stage"], "tail": last[3][-800:]}
            return {"status": "survived"}
        finally:
            shutil.rmtree(d, ignore_errors=True)


def git(*a):
    return subprocess.run(["git", "-C", ROOT] + list(a), capture_output=True, text=True)


def changed(base):
    """{path: set(changed line numbers)} of parsers/ C files changed since the merge-base with base"""
    for ref in ([base] if base else ["origin/main", "main", "HEAD~1"]):
        mb = git("merge-base", "HEAD", ref)
        if mb.returncode == 0 and mb.stdout.strip():
            mb = mb.stdout.strip()
            if mb == git("rev-parse", "HEAD").stdout.strip() and ref != "HEAD~1" and not base:
                continue  # on the base branch itself: the last commit is the change
            break
    else:
        return {}
    out = {}
    diff = git("diff", "-U0", mb, "--", "parsers").stdout
    cur = None
    for ln in diff.split("\n"):
        if ln.startswith("+++ "):
            p = ln[4:]
            cur = p[2:] if p.startswith("b/") and p.endswith(".c") else None
            if cur:
                out.setdefault(cur, set())
        elif ln.startswith("@@") and cur:
            m = re.search(r"\+(\d+)(?:,(\d+))?", ln)
            s, n = int(m.group(1)), int(m.group(2) or 1)
            out[cur].update(range(s, s + n))
    return out


def save_cache(path, cache):
    """merge cache into the file at path under an exclusive lock and replace the file atomically, so
    that two runs on one build tree keep each other's outcomes (the last writer used to win)"""
    with open(path + ".lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        try:
            disk = json.load(open(path))
        except (OSError, ValueError):
            disk = {}
        disk.update(cache)
        cache.update(disk)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump(disk, f)
        os.replace(tmp, path)


def load_equivalent(p=None):
    """{id: (diff hash, argument)} of the equivalence list (default maint/mutants/equivalent.tsv), or of the
    API-only list (api_only.tsv: the same columns)"""
    eq = {}
    p = p or os.path.join(HERE, "equivalent.tsv")
    if os.path.exists(p):
        for ln in open(p):
            if ln.startswith("#") or not ln.strip():
                continue
            f = ln.rstrip("\n").split("\t")
            if len(f) >= 3 and f[0] != "id":
                eq[f[0]] = (f[1], f[2])
    return eq


def patch_mutant(path):
    """(file, source text, mutant) of the unified diff at path, against one C file of parsers/: the mutant
    is the smallest span of the file that the patch changes (cmut.apply makes the patched text), with
    id patch:NAME, op "patch", the patch's hunks as its diff; SystemExit (message) when the patch names
    no file or more than one, a file outside parsers/, or a hunk whose old lines the file does not have"""
    name = os.path.basename(path)
    text = open(path).read()
    targets = {ln[4:].split("\t")[0].strip() for ln in text.split("\n") if ln.startswith("+++ ")}
    targets = {t[2:] if t.startswith("b/") else t for t in targets}
    if len(targets) != 1:
        raise SystemExit(f"mutants: --patch {name}: a patch of exactly one file, not {len(targets)}")
    f = targets.pop()
    if not (f.startswith("parsers/") and f.endswith(".c") and os.path.isfile(os.path.join(ROOT, f))):
        raise SystemExit(f"mutants: --patch {name}: {f} is not a C file of parsers/")
    src = open(os.path.join(ROOT, f)).read()
    lines = src.split("\n")
    hunks, cur = [], None
    for ln in text.split("\n"):
        h = re.match(r"@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@", ln)
        if h:
            cur = (int(h.group(1)), [], [])
            hunks.append(cur)
        elif cur is not None and ln[:1] in (" ", "-", "+"):
            if ln[0] != "+":
                cur[1].append(ln[1:])
            if ln[0] != "-":
                cur[2].append(ln[1:])
        elif cur is not None and ln.startswith("\\"):  # "\ No newline at end of file"
            continue
        elif cur is not None and ln == "":  # an empty context line some editors strip to ""
            cur[1].append("")
            cur[2].append("")
    if not hunks:
        raise SystemExit(f"mutants: --patch {name}: no hunk")
    out, at = [], 0
    for start, old, new in hunks:
        while old and old[-1] == "" and new and new[-1] == "":  # the text's own last newline
            old, new = old[:-1], new[:-1]
        want = max(start - 1, at)
        found = [k for k in range(at, len(lines) - len(old) + 1) if lines[k:k + len(old)] == old]
        if not found:
            raise SystemExit(f"mutants: --patch {name}: hunk at line {start} does not match {f}")
        k = min(found, key=lambda k: abs(k - want))
        out += lines[at:k] + new
        at = k + len(old)
    new_src = "\n".join(out + lines[at:])
    if new_src == src:
        raise SystemExit(f"mutants: --patch {name}: changes nothing")
    pre = 0
    while pre < min(len(src), len(new_src)) and src[pre] == new_src[pre]:
        pre += 1
    suf = 0
    while suf < min(len(src), len(new_src)) - pre and src[-1 - suf] == new_src[-1 - suf]:
        suf += 1
    stem = name[:-len(".patch")] if name.endswith(".patch") else name
    diff = "\n".join(ln for ln in text.split("\n") if ln[:1] in ("-", "+") and not ln.startswith(("---", "+++")))
    m = {"id": f"patch:{stem}", "op": "patch", "line": src.count("\n", 0, pre) + 1, "start": pre,
         "end": len(src) - suf, "rep": new_src[pre:len(new_src) - suf], "patch_diff": diff}
    return f, src, m


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build/dev"))
    ap.add_argument("--san-build-dir")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--base")
    ap.add_argument("--budget", type=float)
    ap.add_argument("--shuffle", type=int)
    ap.add_argument("--stratify", action="store_true")
    ap.add_argument("--big-fixtures")
    ap.add_argument("--valgrind", action="store_true")
    ap.add_argument("--sample", type=int, default=1)
    ap.add_argument("--ops", default="ror,lcr,aor,crp,cond,stmt")
    ap.add_argument("--out")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--tests")
    ap.add_argument("--corpus-only", action="store_true")
    ap.add_argument("--lint", action="store_true")
    ap.add_argument("--as-limits", default="32,64,96,128")
    ap.add_argument("--equivalent")
    ap.add_argument("--api-only")
    ap.add_argument("--readers", action="store_true")
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("-v", action="store_true")
    ap.add_argument("-h", "--help", action="store_true")
    try:
        a = ap.parse_args()
    except SystemExit:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if a.help:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `run.py --help | head`: no traceback
        print(__doc__)
        return 0
    if a.readers:
        print(" ".join(VERDICT_READERS))
        return 0
    if a.corpus_only and a.tests:
        print("mutants: --corpus-only chooses the tests itself; not with --tests", file=sys.stderr)
        return 2
    if a.lint and not a.corpus_only:
        print("mutants: --lint goes with --corpus-only (the whole suite runs the lint tests anyway)", file=sys.stderr)
        return 2
    if a.big_fixtures and not a.corpus_only:
        print("mutants: --big-fixtures goes with --corpus-only (it judges the survivors of the corpus)",
              file=sys.stderr)
        return 2
    if a.big_fixtures and not os.path.isfile(os.path.join(a.big_fixtures, "MANIFEST.tsv")):
        print(f"mutants: --big-fixtures: no MANIFEST.tsv in {a.big_fixtures} (generators/gg_keep_total_big.py DIR "
              "writes one)", file=sys.stderr)
        return 2
    if a.stratify and a.shuffle is None:
        print("mutants: --stratify orders a shuffled run; give --shuffle N", file=sys.stderr)
        return 2
    try:
        as_limits = sorted({int(x) for x in a.as_limits.split(",") if x.strip()})
    except ValueError:
        print(f"mutants: --as-limits wants MiB numbers separated by commas, not '{a.as_limits}'", file=sys.stderr)
        return 2
    ops = set(a.ops.split(","))
    focus = {}
    if a.patch and (a.quick or a.files):
        print("mutants: --patch judges the patches alone; not with --quick or FILE", file=sys.stderr)
        return 2
    try:
        patches = [patch_mutant(p) for p in a.patch]
    except (OSError, SystemExit) as e:
        print(e if isinstance(e, SystemExit) else f"mutants: --patch: {e}", file=sys.stderr)
        return 2
    if patches:
        files = sorted({f for f, _, _ in patches})
    elif a.quick:
        focus = changed(a.base)
        files = sorted(focus)
        if not files:
            print("mutants --quick: no parsers/ C file changed; nothing to do")
            return 0
    else:
        files = a.files or VERDICT_FILES
    files = [os.path.relpath(os.path.abspath(f), ROOT) if os.path.exists(f) else f for f in files]

    todo = []
    srcs = {}
    for f in files:
        src = open(os.path.join(ROOT, f)).read()
        srcs[f] = src
        ms = [m for m in cmut.mutants(f, src) if m["op"] in ops] if not patches else \
            [m for pf, _, m in patches if pf == f]
        if a.quick:  # changed lines first
            ms.sort(key=lambda m: (m["line"] not in focus.get(f, ()), m["line"]))
        todo += [(f, m) for m in ms]
    eq = load_equivalent(a.equivalent)
    api = load_equivalent(a.api_only or os.path.join(HERE, "api_only.tsv"))
    current = {}
    for f in files:
        for m in cmut.mutants(f, srcs[f]):
            current[m["id"]] = cmut.diff_hash(srcs[f], m)
    for name, lines in (("equivalent.tsv", eq), ("api_only.tsv", api)):
        stale = stale_equivalent(lines, set(files), current)
        if stale:
            print(f"mutants: {len(stale)} line(s) of maint/mutants/{name} name a mutant that no longer exists "
                  "(its id is gone or its diff hash changed): argue it again or remove the line:\n  "
                  + "\n  ".join(stale), file=sys.stderr)
            return 2
    both = sorted(set(eq) & set(api))
    if both:
        print("mutants: on both equivalent.tsv and api_only.tsv (equivalent: no test can kill it; API-only: the "
              "suite kills it):\n  " + "\n  ".join(both), file=sys.stderr)
        return 2
    if a.only:
        rx = re.compile(a.only)
        todo = [(f, m) for f, m in todo if rx.search(m["id"]) or rx.search(cmut.diff_lines(srcs[f], m))]
    if a.sample > 1:
        todo = todo[::a.sample]
    if a.shuffle is not None:  # a run cut by --budget is then a random subset of the whole selection
        import random
        random.Random(a.shuffle).shuffle(todo)
        if a.stratify:
            todo = stratified(todo)
    if a.list:
        for f, m in todo:
            print(m["id"], (m.get("patch_diff") or cmut.diff_lines(srcs[f], m)).replace("\n", " | "))
        print(f"{len(todo)} mutants")
        return 0

    commit = head_commit()  # the tree judged: taken before the run, which may last hours
    b = Build(a.build_dir)
    sb = Build(a.san_build_dir) if a.san_build_dir else None
    if a.lint:
        for bb in [b] + ([sb] if sb else []):
            lt = lint_test(bb)
            if lt is None:
                print(f"mutants: --lint: no tfs program in {bb.bdir}", file=sys.stderr)
                return 2
            bb.tests.append(lt)
    for bb in [b] + ([sb] if sb else []):
        missing = [f for f in files if f not in bb.compile]
        if missing:
            print(f"mutants: no compile command in {bb.bdir} for " + ", ".join(missing), file=sys.stderr)
            return 2
    outdir = a.out or os.path.join(b.bdir, "mutants")
    os.makedirs(outdir, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tfs-mutants-")
    t_start = time.monotonic()

    def baseline(bb, env, what, as_mib=0, sel=None):
        """(tests that pass, {test: time limit}) of bb through the same archive + relink path (under an
        address-space limit of as_mib MiB when not 0); None on a link failure; bb.tests is left whole"""
        if sel is None:
            sel = select_tests(bb.tests, bb.targets, a.tests, a.corpus_only, a.quick)
        r0 = Runner(bb, work, [dict(t) for t in sel], env, as_mib=as_mib)
        d = tempfile.mkdtemp(dir=work)
        t0 = time.monotonic()
        base = r0.run_tests(d, r0.make_archive(d), {}, stop_first=False)
        tests, limits = [], {}
        for t, rc, dt, tail in base:
            if rc == "link":
                print(f"mutants: {what} baseline link failed: " + tail, file=sys.stderr)
                return None
            if rc == 0:
                t["base_s"] = dt
                tests.append(t)
                limits[t["name"]] = max(20.0, 5 * dt)
            elif a.v or rc != "skip":
                print(f"{what} baseline: {t['name']} {'skipped' if rc == 'skip' else 'FAILS (' + str(rc) + ')'}: "
                      "not used", file=sys.stderr)
        shutil.rmtree(d, ignore_errors=True)
        print(f"{what} baseline: {len(tests)} tests pass in {time.monotonic() - t0:.0f} s", file=sys.stderr)
        return tests, limits

    try:
        bl = baseline(b, {}, "dev")
        if bl is None:
            return 2
        tests, limits = bl
        judges = {}  # the survivor judges, each set up at its first use (a baseline takes minutes)
        judge_lock = threading.Lock()

        def judge(name, setup):
            """the survivor judge called name: setup()'s value, computed once, at the first call"""
            with judge_lock:
                if name not in judges:
                    judges[name] = setup()
                return judges[name]

        def passing(bb, env, what, sel=None, all_or=None):
            """(Runner, limits) of the tests of bb (sel, when given) that pass unmutated; exits 2 when
            the baseline does not link, or, with all_or (a message), when one of sel fails or sel is empty"""
            bl = baseline(bb, env, what, sel=sel) if sel != [] else None
            if bl is None or (all_or and len(bl[0]) != len(sel)):
                if all_or:
                    print("mutants: " + all_or, file=sys.stderr)
                raise SystemExit(2)
            return Runner(bb, work, bl[0], env), bl[1]

        if not tests:
            print("mutants: no test passes the baseline; nothing can judge a mutant", file=sys.stderr)
            return 2
        print(f"{len(todo)} mutants of {len(files)} file(s)", file=sys.stderr)
        kills = {}
        r = Runner(b, work, tests, kills=kills)

        def rl_setup():
            """[(MiB, runner, limits)]: each test judges at the second limit under which it passes
            unmutated (one step of headroom: a test that barely passes under the smallest one fails
            there now and then whatever the mutant, and would refute every line; so a test that
            passes under 64 MiB first judges under 96)"""
            out, used, seen = [], set(), set()
            for mib in as_limits:
                rbl = baseline(b, {}, f"rlimit-{mib}MiB", mib, [t for t in tests if t["name"] not in used])
                if rbl is None:
                    raise SystemExit(2)
                now = [t for t in rbl[0] if t["name"] in seen]
                seen.update(t["name"] for t in rbl[0])
                if now:
                    used.update(t["name"] for t in now)
                    out.append((mib, Runner(b, work, now, as_mib=mib), rbl[1]))
            return out

        def rl_runners():
            return judge("rlimit", rl_setup)

        big_fmts = big_formats(a.big_fixtures) if a.big_fixtures else set()

        def big_runner():  # the --big-fixtures judge
            return judge("big", lambda: passing(
                b, {}, "big-fixtures", big_tests(b, a.big_fixtures),
                "--big-fixtures: the unmutated tfs fails a profile of the folder; nothing there can judge a mutant"))

        def vg_runner():  # the --valgrind judge
            return judge("valgrind", lambda: passing(
                b, {}, "valgrind", [dict(b.excluded[VALGRIND_TEST])] if VALGRIND_TEST in b.excluded else [],
                f"--valgrind: {VALGRIND_TEST} is not in {b.bdir}, or fails unmutated "
                "(configure the tree with valgrind on PATH)"))

        def san_runner():  # the sanitizer judge
            return judge("asan-ubsan", lambda: passing(sb, SAN_ENV, "asan-ubsan"))

        whole = not (a.corpus_only or a.tests or a.quick)  # the whole suite judges: API-only lines are checked
        mode = {"corpus_only": a.corpus_only, "lint": a.lint, "as_limits": as_limits, "san": bool(sb),
                "big": bool(a.big_fixtures), "valgrind": a.valgrind}
        t_ctx = time.monotonic()
        ctx = context_hash([("dev", tests)] + ([("asan-ubsan", select_tests(sb.tests, sb.targets, a.tests,
                                                                            a.corpus_only, a.quick))] if sb else [])
                           + ([("big", big_tests(b, a.big_fixtures))] if a.big_fixtures else [])
                           + ([("valgrind", [b.excluded[VALGRIND_TEST]] if VALGRIND_TEST in b.excluded else [])]
                              if a.valgrind else []),
                           mode)[:16]
        print(f"context hash {ctx} ({time.monotonic() - t_ctx:.1f} s)", file=sys.stderr)
        cache_p = os.path.join(b.bdir, "mutants", "cache.json")
        os.makedirs(os.path.dirname(cache_p), exist_ok=True)
        # --no-cache: outcomes are not looked up, but the other entries are kept when it is written
        cache = json.load(open(cache_p)) if os.path.exists(cache_p) else {}
        for v in cache.values():  # earlier runs' killers go first
            if v.get("stage") in ("conform", "corpus", "unit"):
                kills[v["by"]] = kills.get(v["by"], 0) + 1
        fhash = {f: object_hash(srcs[f], [bb.compile[f] for bb in [b] + ([sb] if sb else [])]) for f in files}
        lock = threading.Lock()
        results = []
        budget = a.budget if a.budget is not None else (180 if a.quick else None)
        deadline = t_start + budget if budget else None

        def one(item):
            f, m = item
            key = f"{fhash[f]}:{m['id']}:{m['rep']}:{ctx}"
            diff = m.get("patch_diff") or cmut.diff_lines(srcs[f], m)
            dh = hashlib.sha256(diff.encode()).hexdigest()[:16] if "patch_diff" in m else cmut.diff_hash(srcs[f], m)
            is_patch = m["op"] == "patch"  # a patch is never cached: its id names no operator mutant
            rec = {"file": f, "id": m["id"], "op": m["op"], "line": m["line"], "diff": diff,
                   "diff_hash": dh, "family": rule_family(srcs[f].split("\n"), m["line"]),
                   "changed_line": m["line"] in focus.get(f, ())}
            if deadline and a.shuffle is not None and time.monotonic() > deadline:
                # a sample cut by the budget: past the deadline nothing is judged, not even from the
                # cache (cached outcomes are kills only and would bias the sample upwards)
                rec.update(status="not-run")
            elif key in cache and not a.no_cache and not is_patch and (cache[key]["status"] != "equivalent" or
                                                      (m["id"] in eq and eq[m["id"]][0] == dh)):
                rec.update(cache[key], cached=True)
                if m["id"] in eq:
                    rec["argument"] = eq[m["id"]][1]
                if m["id"] in api and api[m["id"]][0] == dh:  # a cached kill: refutes or confirms the line
                    api_only_verdict(rec, api[m["id"]][1], a.corpus_only, whole)
            elif deadline and time.monotonic() > deadline:
                rec.update(status="not-run")
            else:
                t0 = time.monotonic()
                is_eq = m["id"] in eq and eq[m["id"]][0] == dh
                is_api = m["id"] in api and api[m["id"]][0] == dh
                # an equivalence line is judged like any mutant (the dev suite, then the sanitizer tree and
                # the address-space limits): a kill anywhere refutes it
                rec.update(r.mutant(f, srcs[f], m, limits))
                if rec["status"] == "survived" and sb:
                    sr, slimits = san_runner()
                    sj = sr.mutant(f, srcs[f], m, slimits)
                    if sj["status"] == "killed":
                        rec.update(status="killed", by="asan-ubsan:" + sj["by"], stage="sanitizer")
                    else:
                        rec["sanitizer"] = sj["status"]
                if rec["status"] == "survived" and a.valgrind:
                    vr, vlimits = vg_runner()
                    vj = vr.mutant(f, srcs[f], m, vlimits)
                    if vj["status"] in ("killed", "timeout"):
                        rec.update(status="killed", by="valgrind:" + vj["by"], stage="valgrind")
                if rec["status"] == "survived" and a.big_fixtures and big_applies(f, big_fmts):
                    br, blimits = big_runner()
                    bj = br.mutant(f, srcs[f], m, blimits)
                    if bj["status"] in ("killed", "timeout"):
                        rec.update(status="killed", by="big:" + bj["by"], stage="big")
                for mib, rr, rlimits in (rl_runners() if rec["status"] == "survived" else []):
                    if rec["status"] != "survived":
                        break
                    rj = rr.mutant(f, srcs[f], m, rlimits)
                    if rj["status"] in ("killed", "timeout"):
                        rec.update(status="killed", by=f"rlimit-{mib}MiB:" + rj["by"], stage="rlimit")
                if is_eq:
                    if rec["status"] == "survived":
                        rec.update(status="equivalent", argument=eq[m["id"]][1],
                                   rejudged=(["asan-ubsan"] if sb else []) + [f"rlimit-{x}MiB" for x, _, _ in
                                                                               rl_runners()])
                    else:
                        rec["refutes_equivalence"] = True
                if is_api:
                    api_only_verdict(rec, api[m["id"]][1], a.corpus_only, whole)
                rec["seconds"] = round(time.monotonic() - t0, 1)
                if rec["status"] not in ("survived", "api-only") and not is_patch:
                    with lock:
                        cache[key] = {k: rec[k] for k in ("status", "by", "stage", "rejudged", "refutes_equivalence")
                                      if k in rec}
            with lock:
                results.append(rec)
                n = len(results)
                if sys.stderr.isatty() or a.v:
                    print(f"[{n}/{len(todo)}] {rec['status']:<15} {m['id']} {rec.get('by', '')}", file=sys.stderr)
                if n % 20 == 0:
                    save_cache(cache_p, cache)
                    if not (sys.stderr.isatty() or a.v):  # a log file still shows progress
                        tally = Counter(x["status"] for x in results)
                        print(f"[{n}/{len(todo)}] {time.monotonic() - t_start:.0f} s: "
                              + ", ".join(f"{tally[k]} {k}" for k in STATUSES if tally[k]),
                              file=sys.stderr, flush=True)
            return rec

        with cf.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
            list(ex.map(one, todo))
        save_cache(cache_p, cache)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    took = time.monotonic() - t_start
    order = {(f, m["id"]): i for i, (f, m) in enumerate(todo)}
    results.sort(key=lambda x: order[(x["file"], x["id"])])
    report(results, outdir, took, a, files, [t["name"] for t in tests], ctx, commit)
    if any(x.get("refutes_equivalence") or x.get("refutes_api_only") for x in results):
        return 1
    if a.quick and any(x["status"] == "survived" and x["changed_line"] for x in results):
        return 1
    return 0


STATUSES = ["killed", "timeout", "survived", "api-only", "did-not-compile", "equivalent", "not-run"]
NO_API = "_without_api_only"  # the score's key suffix for the score that leaves the api-only mutants out


def tally(rows, interval=False):
    """counts per status and two scores: "score" counts the api-only mutants as survivors, "score" + NO_API
    leaves them out (the mutants a file can show); with interval, their 95% Wilson intervals (a sample)"""
    c = {s: 0 for s in STATUSES}
    for x in rows:
        c[x["status"]] += 1
    detected = c["killed"] + c["timeout"]
    for sfx, judged in (("", detected + c["survived"] + c["api-only"]), (NO_API, detected + c["survived"])):
        c["score" + sfx] = f"{100.0 * detected / judged:.1f}%" if judged else "-"
        if interval and judged:
            c["interval95" + sfx] = wilson(detected, judged)
    return c


def wilson(k, n, z=1.96):
    """95% Wilson score interval of the proportion k/n, in percent"""
    if n == 0:
        return None
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return round(max(0.0, 100 * (c - h)), 1), round(100 * min(1.0, c + h), 1)


def stratified_total(per_file, sfx=""):
    """(estimate, (low, high)) in percent for all the mutants of the files of a stratified sample: each file's
    score weighted by its estimated number of judged mutants (its mutants x the share of those run that were
    judged), with a normal 95% interval; None when nothing was judged"""
    parts = []
    for c in per_file.values():
        run = sum(c[s] for s in STATUSES if s != "not-run")
        detected = c["killed"] + c["timeout"]
        judged = detected + c["survived"] + (c["api-only"] if not sfx else 0)
        if judged:
            total = run + c["not-run"]
            parts.append((total * judged / run, detected / judged, judged))
    w = sum(x[0] for x in parts)
    if not w:
        return None
    p = sum(wf * pf for wf, pf, _ in parts) / w
    var = sum((wf / w) ** 2 * pf * (1 - pf) / n for wf, pf, n in parts)
    h = 1.96 * var ** 0.5
    return round(100 * p, 1), (round(max(0.0, 100 * (p - h)), 1), round(min(100.0, 100 * (p + h)), 1))


def rel_command(argv):
    """argv as a command line with the source root's paths made relative (reports name no machine path)"""
    out = []
    for i, x in enumerate(argv):
        if i == 0:
            x = "maint/mutants/run.py"
        elif x.startswith(ROOT + "/"):
            x = os.path.relpath(x, ROOT)
        out.append(shlex.quote(x))
    return " ".join(out)


def reuse(results):
    """{"cache": verdicts taken from the cache, "equivalent": equivalence lines used, "rejudged": those of
    them judged again in this run, "refuted": equivalence lines a judge killed in this run, "api_only":
    api-only mutants, "api_only_refuted" / "api_only_confirmed": API-only lines refuted / confirmed}"""
    return {"cache": sum(1 for x in results if x.get("cached")),
            "equivalent": sum(1 for x in results if x["status"] == "equivalent"),
            "rejudged": sum(1 for x in results if x["status"] == "equivalent" and not x.get("cached")),
            "refuted": sum(1 for x in results if x.get("refutes_equivalence") and not x.get("cached")),
            "api_only": sum(1 for x in results if x["status"] == "api-only"),
            "api_only_refuted": sum(1 for x in results if x.get("refutes_api_only")),
            "api_only_confirmed": sum(1 for x in results if x.get("api_only_confirmed"))}


def head_commit():
    """HEAD's short hash, "+uncommitted" when tracked files differ from it"""
    rev = git("rev-parse", "--short", "HEAD").stdout.strip()
    dirty = bool(git("status", "--porcelain", "--untracked-files=no").stdout.strip())
    return rev + ("+uncommitted" if dirty else "")


def report(results, outdir, took, a, files, tests, ctx="", commit=None):
    by_file, by_family = {}, {}
    for x in results:
        by_file.setdefault(x["file"], []).append(x)
        by_family.setdefault(x["family"], []).append(x)
    sampled = a.sample > 1 or any(x["status"] == "not-run" for x in results)
    total = tally(results, sampled)
    if a.stratify and sampled:  # a pooled score would over-weight the small files: weight each by its size
        per = {k: tally(v) for k, v in by_file.items()}
        for sfx in ["", NO_API]:
            est = stratified_total(per, sfx)
            if est:
                total["score" + sfx] = f"{est[0]:.1f}%"
                total["interval95" + sfx] = est[1]
    ru = reuse(results)
    doc = {"command": rel_command(sys.argv), "commit": commit or head_commit(),
           "context": ctx, "seconds": round(took), "sample_every": a.sample, "shuffle": a.shuffle,
           "stratify": a.stratify, "big_fixtures": bool(a.big_fixtures), "valgrind": a.valgrind,
           "corpus_only": a.corpus_only, "lint": a.lint, "files": files, "tests": tests, "reused": ru,
           "total": total, "per_file": {k: tally(v, sampled) for k, v in by_file.items()},
           "per_family": {k: tally(v) for k, v in sorted(by_family.items())}, "mutants": results}
    json.dump(doc, open(os.path.join(outdir, "mutants.json"), "w"), indent=1)
    judges = ("the corpus alone (" + ", ".join(tests) + ")") if a.corpus_only else f"{len(tests)} ctest test(s)"
    L = ["# Mutation report", "", f"Commit {doc['commit']}, judged by {judges}"
         + (", survivors again under ASan + UBSan" if a.san_build_dir else "")
         + (f", survivors and equivalence lines under address-space limits ({a.as_limits} MiB)" if a.as_limits
            else "") + f". Reused verdicts: {ru['cache']} from the cache (context {ctx}); {ru['equivalent']} "
         f"equivalent by a line of maint/mutants/equivalent.tsv, {ru['rejudged']} of them judged again in this run"
         + (f"; {ru['refuted']} equivalence line(s) refuted (killed: see below)" if ru["refuted"] else "")
         + (f"; {ru['api_only_refuted']} API-only line(s) of maint/mutants/api_only.tsv refuted (see below)"
            if ru["api_only_refuted"] else "")
         + (f"; {ru['api_only_confirmed']} API-only line(s) confirmed (killed by the whole suite)"
            if ru["api_only_confirmed"] else "") + ".", "",
         f"`{doc['command']}`: {len(results)} mutants in {took:.0f} s"
         + (f" (every {a.sample}th mutant)" if a.sample > 1 else "")
         + (f"; {total['not-run']} not run (--budget), the order shuffled with seed {a.shuffle}"
            if total["not-run"] and a.shuffle is not None else
            f"; {total['not-run']} not run (--budget)" if total["not-run"] else "")
         + ("; each file's mutants taken in turn (--stratify): each file's row estimates that file, the total "
            "weights the files by their number of mutants (normal 95% interval)" if a.stratify else "")
         + (f"; survivors of the corpus judged again by the fixtures of {os.path.relpath(a.big_fixtures, ROOT)} "
            "(generators/gg_keep_total_big.py, too large for corpus/), "
            f"{sum(1 for x in results if x.get('stage') == 'big')} killed there" if a.big_fixtures else "")
         + (f"; survivors judged again by {VALGRIND_TEST} (the corpus through `tfs check` under valgrind), "
            f"{sum(1 for x in results if x.get('stage') == 'valgrind')} killed there" if a.valgrind else "")
         + ". Score = (killed + timeout) / "
         "(killed + timeout + survived + api-only); equivalent mutants (maint/mutants/equivalent.tsv) and mutants "
         "that did not compile are left out."
         + (" \"Score without api-only\" leaves out the api-only mutants too (survivors of the corpus listed in "
            "maint/mutants/api_only.tsv: a difference only the library's API shows, that no file can show through "
            "`tfs conform`; each line checked to be killed by the whole suite: `run.py FILE --only ID` without "
            "--corpus-only)." if a.corpus_only else "")
         + (f" As an estimate for all the mutants of these files: {total['score']}, 95% Wilson interval "
            f"{total['interval95'][0]}-{total['interval95'][1]}%" + (
                f" (without api-only: {total['score' + NO_API]}, {total['interval95' + NO_API][0]}-"
                f"{total['interval95' + NO_API][1]}%)" if a.corpus_only and "interval95" + NO_API in total else "")
            + "." if "interval95" in total else "")
         + (" Interval of a stratified total: normal approximation." if a.stratify and "interval95" in total
            else ""), ""]
    sfxs = ["", NO_API] if a.corpus_only else [""]
    head = "| | " + " | ".join(STATUSES) + " | score |" + (" score without api-only |" if a.corpus_only else "")
    sep = "|---" * (len(STATUSES) + 1 + len(sfxs)) + "|"

    def scores(c):
        return " | ".join(c["score" + x] + (f" ({c['interval95' + x][0]}-{c['interval95' + x][1]}%)"
                                            if "interval95" + x in c else "") for x in sfxs)
    for title, groups in (("file", doc["per_file"]), ("rule family", doc["per_family"])):
        L += [f"## Per {title}", "", head.replace("| |", f"| {title} |", 1), sep]
        for k, c in groups.items():
            L.append(f"| {k} | " + " | ".join(str(c[s]) for s in STATUSES) + f" | {scores(c)} |")
        L.append("| **total** | " + " | ".join(str(total[s]) for s in STATUSES) + " | "
                 + " | ".join(total["score" + x] for x in sfxs) + " |")
        L.append("")
    refuted = [x for x in results if x.get("refutes_equivalence")]
    if refuted:
        L += [f"## Equivalence lines refuted ({len(refuted)})", ""]
        L += [f"- `{x['id']}` killed by {x.get('by', x['status'])}" for x in refuted] + [""]
    refuted = [x for x in results if x.get("refutes_api_only")]
    if refuted:
        L += [f"## API-only lines refuted ({len(refuted)})", ""]
        L += [f"- `{x['id']}` " + (f"killed by {x.get('by', x['status'])}: a file shows it" if a.corpus_only else
                                   "survived the whole suite: a survivor or equivalent, not API-only")
              for x in refuted] + [""]
    apio = [x for x in results if x["status"] == "api-only"]
    if apio:
        L += [f"## API-only ({len(apio)}: maint/mutants/api_only.tsv)", ""]
        L += [f"- `{x['id']}` (diff {x['diff_hash']}): {x['argument']}" for x in apio] + [""]
    pats = [x for x in results if x["op"] == "patch"]
    if pats:  # --patch: every patch's verdict and judge
        L += [f"## Patches ({len(pats)})", "", "| patch | file | line | verdict | by |", "|---|---|---|---|---|"]
        L += [f"| {x['id']} | {x['file']} | {x['line']} | {x['status']} | {x.get('by', '-')} |" for x in pats] + [""]
    surv = [x for x in results if x["status"] == "survived"]
    L += [f"## Survivors ({len(surv)})", ""]
    for x in surv:
        L += [f"- `{x['id']}` (line {x['line']}, {x['op']}, family {x['family']}, diff {x['diff_hash']})", "",
              "  ```diff"] + ["  " + ln for ln in x["diff"].split("\n")] + ["  ```", ""]
    open(os.path.join(outdir, "mutants.md"), "w").write("\n".join(L) + "\n")
    print("\n".join(L[:4]))
    print(f"total: {total}")
    print(f"report: {os.path.join(outdir, 'mutants.md')} and mutants.json")


if __name__ == "__main__":
    sys.exit(main())
