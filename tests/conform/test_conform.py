#!/usr/bin/python3
"""test_conform.py TFS HOSTILE SOURCE_DIR [SCENARIO...] [--shard K/N]: `tfs conform` end to end.

Builds a small suite in a temp folder (fixtures copied from corpus/, their
manifest lines, expected contents made with `tfs dump --json`), then runs the
runner in process and through the hostile adapters of hostile.c, and checks
every case's result in the JSON report, the count of cases (none lost), the
exit status, TAP (TAP::Parser / prove) and JUnit (XML structure), the
expected-failures file's strictness, the partial report after SIGINT /
SIGTERM / SIGHUP, what is refused before any case runs, and the notes in a
case's detail (a crash's stderr, an unusable first line).
SCENARIO: one of SCENARIOS (default: all); --shard K/N: the K-th, K+N-th, ...
of SCENARIOS (ctest test_conform_runner_KofN).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

SCENARIOS = ["inprocess", "adapters", "xfail", "reports", "integrity", "select", "upfront", "notes", "signals"]
args = sys.argv[1:]
ONLY = set()
if "--shard" in args:
    i = args.index("--shard")
    k, n = (int(x) for x in args[i + 1].split("/"))
    del args[i:i + 2]
    ONLY = set(SCENARIOS[k - 1::n])
TFS, HOSTILE, SRC = args[0:3]
ONLY |= set(args[3:])
for name in ONLY:
    if name not in SCENARIOS + ["sigint", "sigterm", "sighup"]:
        sys.exit(f"test_conform.py: no scenario {name} (the scenarios: {' '.join(SCENARIOS)})")
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok:", what)
    else:
        failed += 1
        print("FAIL:", what)
    return cond


def read_manifest(path):
    with open(path) as f:
        lines = f.read().splitlines()
    cols = lines[0].split("\t")
    return lines[0], [dict(zip(cols, l.split("\t"))) | {"_raw": l} for l in lines[1:] if l and not l.startswith("#")]


# ---- the suite: a few fixtures of each kind from both corpus folders
PICK = {
    "gguf": ["GG001-empty-file", "GG002-bad-magic-FUGG", "GG111-duplicate-key", "GG304-last-tensor-unpadded",
             "GG501-bool-2"],
    "safetensors": ["ST001-empty-file", "ST002-n-100000001", "ST501-duplicate-identical"],
}
tmp = tempfile.mkdtemp(prefix="tfs-conform-")
suite = os.path.join(tmp, "suite")
expect_of = {}
for folder in ("gguf", "safetensors"):
    header, rows = read_manifest(os.path.join(SRC, "corpus", folder, "MANIFEST.tsv"))
    valid = [r for r in rows if r["expect"] == "valid" and r["mode"] == "default"][:6]
    chosen = [r for r in rows if r["id"] in PICK[folder]] + valid
    check(len(chosen) == len(PICK[folder]) + 6, f"{folder}: fixtures picked ({len(chosen)})")
    os.makedirs(os.path.join(suite, folder, "expected"))
    with open(os.path.join(suite, folder, "MANIFEST.tsv"), "w") as f:
        f.write(header + "\n")
        for r in sorted(chosen, key=lambda r: r["id"]):
            f.write(r["_raw"] + "\n")
            shutil.copy(os.path.join(SRC, "corpus", folder, r["path"]), os.path.join(suite, folder, r["path"]))
            expect_of[r["id"]] = r
            if r["expect"] == "valid":
                out = subprocess.run([TFS, "dump", "--json", "--content-only", "--format", folder, os.path.join(suite, folder, r["path"])],
                                     capture_output=True, check=True).stdout
                with open(os.path.join(suite, folder, "expected", r["id"] + ".json"), "wb") as e:
                    e.write(out)
N = len(expect_of)
N_VALID = sum(1 for r in expect_of.values() if r["expect"] == "valid")
N_ERR = sum(1 for r in expect_of.values() if r["expect"] == "parser_error")
N_IMPL = sum(1 for r in expect_of.values() if r["expect"] == "implementation_defined")


def conform(*args, timeout=300, **kw):
    """Run tfs conform with a JSON report; returns (exit, report or None, stdout, seconds)."""
    rep = os.path.join(tmp, "report.json")
    if os.path.exists(rep):
        os.remove(rep)
    t0 = time.monotonic()
    # adapters that answer everything the same way (or slowly) are what the
    # adapter check refuses up front (tested in test_conform_protocol.py):
    # run here without it, to test the runner's handling of each result
    if any(f" {m} " in a for a in args for m in DEGENERATE):
        args = (*args, "--no-sanity-check")
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--json", rep, *args], capture_output=True, text=True,
                       timeout=timeout, **kw)
    secs = time.monotonic() - t0
    report = None
    if os.path.exists(rep):
        with open(rep) as f:
            report = json.load(f)
    if p.returncode not in (0, 1) or os.environ.get("VERBOSE"):
        sys.stdout.write(p.stdout[-3000:] + p.stderr[-3000:])
    return p.returncode, report, p.stdout + p.stderr, secs


DEGENERATE = ("crash", "exit3", "skip", "asan", "ubsan", "acceptall", "hang", "noload", "slow", "flood", "longline")


def results(report):
    return {c["id"]: c["result"] for c in report["cases"]} if report else {}


def hostile(mode):
    return f"{HOSTILE} {mode} {{file}}"


def want(mode_results, report, what):
    """mode_results: function(row) -> expected result."""
    got = results(report)
    check(report is not None and len(report["cases"]) == N, f"{what}: {N} cases reported, none lost "
          f"({len(report['cases']) if report else 'no report'})")
    bad = {i: (r, mode_results(expect_of[i])) for i, r in got.items() if r != mode_results(expect_of[i])}
    check(not bad, f"{what}: every result as expected {dict(list(bad.items())[:5]) if bad else ''}")
    s = report["summary"] if report else {}
    check(report is not None and sum(s.values()) == N, f"{what}: summary counts add up to {N}")


def truth_result(r):
    return {"valid": "pass", "parser_error": "pass", "implementation_defined": "implementation_defined"}[r["expect"]]


def scenario(name):
    assert name in SCENARIOS + ["sigint", "sigterm", "sighup"], name
    return not ONLY or name in ONLY


if scenario("inprocess"):
    rc, rep, out, _ = conform()
    check(rc == 0, f"in process: exit {rc}")
    # implementation_defined lines: a strict one requires its rule; one without a rule takes either verdict
    want(lambda r: "implementation_defined" if r["expect"] == "implementation_defined" and r["rule"] == "-" else "pass",
         rep, "in process, each line in its own mode")
    check(all(c["exit"] == "in-process" for c in rep["cases"]), "in process: exit field")
    check(rep["adapter"] is None and rep["schema"] == 1, "in process: adapter null, schema 1")
    rc, rep, out, _ = conform("--profile", "default")
    want(truth_result, rep, "in process, --profile default")
    # a wrong expected content: misread
    vid = sorted(i for i, r in expect_of.items() if r["expect"] == "valid" and r["format"] == "gguf")[0]
    ep = os.path.join(suite, "gguf", "expected", vid + ".json")
    orig = open(ep).read()
    doc = json.loads(orig)
    doc["version"] = 99
    open(ep, "w").write(json.dumps(doc))
    rc, rep, out, _ = conform()
    check(rc == 1 and results(rep).get(vid) == "misread", f"in process: a changed expected content is a misread ({rc}, {results(rep).get(vid)})")
    check("version" in next(c["detail"] for c in rep["cases"] if c["id"] == vid), "misread detail names the field")
    open(ep, "w").write(orig)

if scenario("adapters"):
    cases = [
        ("truth", truth_result, None),
        ("envcheck", truth_result, None),
        ("crash", lambda r: "crash", "SIGABRT"),
        ("exit3", lambda r: "crash", "3"),
        ("skip", lambda r: "skip", "77"),
        ("asan", lambda r: "crash", "0"),
        ("ubsan", lambda r: "crash", None),
        ("acceptall", lambda r: {"valid": "pass", "parser_error": "false_accept"}.get(r["expect"], "implementation_defined"), "0"),
        ("misread", lambda r: {"valid": "misread", "parser_error": "pass"}.get(r["expect"], "implementation_defined"), None),
        ("wrongrule", lambda r: {"valid": "pass", "parser_error": "wrong_rule"}.get(r["expect"], "implementation_defined"), None),
        ("wrongcat", lambda r: {"valid": "pass", "parser_error": "wrong_rule"}.get(r["expect"], "implementation_defined"), None),
        ("orphan", truth_result, None),
        ("escape", truth_result, None),
    ]
    for mode, fn, exit_desc in cases:
        rc, rep, out, secs = conform("--adapter", hostile(mode), "-j", "2", "--timeout", "20")
        want(fn, rep, f"adapter {mode}")
        failing = any(c["result"] not in ("pass", "skip", "implementation_defined") for c in rep["cases"]) if rep else True
        check(rc == (1 if failing else 0), f"adapter {mode}: exit {rc}")
        if exit_desc and rep:
            check(all(c["exit"] == exit_desc for c in rep["cases"]), f"adapter {mode}: exit field {exit_desc}")
        if mode in ("orphan", "escape"):
            # children keep the pipes for 30 s / 3 s: the runner does not wait for them
            check(secs < 10, f"adapter {mode}: {N} cases in {secs:.1f} s (not waiting for the children)")
        if mode == "orphan":
            ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
            check(f"{HOSTILE} orphan" not in ps, "adapter orphan: its children were killed with the process group")
    # a hang: killed at the timeout
    rc, rep, out, secs = conform("--adapter", hostile("hang"), "-j", "4", "--timeout", "0.5", "--format", "gguf")
    ng = sum(1 for r in expect_of.values() if r["format"] == "gguf")
    check(rep and len(rep["cases"]) == ng and all(c["result"] == "timeout" and c["exit"] == "timeout" for c in rep["cases"]),
          f"adapter hang: {ng} timeouts")
    check(secs < 0.5 * ng / 4 + 5, f"adapter hang: {secs:.1f} s with 4 jobs")
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    check(f"{HOSTILE} hang" not in ps, "adapter hang: no process left")
    # 100 MB of output per case: drained, capped, the first line still read
    rc, rep, out, secs = conform("--adapter", hostile("flood"), "-j", "2", "--id", "GG00*", "--id", "ST00*", "--id", "GG111*")
    ids = [i for i in expect_of if i.startswith(("GG00", "ST00", "GG111"))]
    check(rep and len(rep["cases"]) == len(ids) and all(c["result"] == "pass" for c in rep["cases"]),
          f"adapter flood: {len(ids)} cases pass (first line read, 100 MB drained) in {secs:.1f} s")
    # a first line cut by --output-cap: verdict still judged, the line not
    # used (its wrong rule XX999 is not seen), and the case says so
    rc, rep, out, secs = conform("--adapter", hostile("longline"), "--output-cap", "4096", "--id", "GG00*", "--id", "valid-n-dims-4")
    ids = [i for i in expect_of if i.startswith("GG00") or i == "valid-n-dims-4"]
    check(rep and len(rep["cases"]) == len(ids) and all(c["result"] == "pass" for c in rep["cases"])
          and all("longer than --output-cap" in (c["detail"] or "") for c in rep["cases"]),
          f"adapter first line cut by the cap: {len(ids)} cases pass, each says the line was not compared")
    # no {file}: the path is appended; --shell; quoting
    rc, rep, out, _ = conform("--adapter", f"'{HOSTILE}' truth")
    want(truth_result, rep, "adapter without {file} (path appended), quoted program")
    rc, rep, out, _ = conform("--shell", "--adapter", f"exec {HOSTILE} truth {{file}} 2>/dev/null")
    want(truth_result, rep, "adapter through --shell")

if scenario("xfail"):
    xf = os.path.join(tmp, "xfail.txt")
    rc, rep, out, _ = conform("--adapter", hostile("acceptall"), "--write-expected-failures", xf)
    listed = [l.split("\t") for l in open(xf).read().splitlines() if l and not l.startswith("#")]
    check(rc == 1 and len(listed) == N_ERR and all(r == "false_accept" for _, r in listed),
          f"--write-expected-failures: {len(listed)} entries, sorted: {[i for i, _ in listed] == sorted(i for i, _ in listed)}")
    rc, rep, out, _ = conform("--adapter", hostile("acceptall"), "--expected-failures", xf)
    check(rc == 0 and sum(1 for c in rep["cases"] if c["result"] == "xfail") == N_ERR, f"expected failures: exit {rc}, xfail x{N_ERR}")
    content = open(xf).read()
    variants = {
        "stale entry (a case that passes)": content + sorted(i for i, r in expect_of.items() if r["expect"] == "valid")[0] + "\n",
        "entry naming no fixture": content + "no-such-fixture-id\n",
        "unlisted failure": "\n".join(content.splitlines()[:-1]) + "\n",
        "listed result differs": content.replace("false_accept", "crash", 1),
    }
    for what, text in variants.items():
        open(xf, "w").write(text)
        rc, rep, out, _ = conform("--adapter", hostile("acceptall"), "--expected-failures", xf)
        check(rc == 1, f"expected failures, {what}: exit {rc}")
        if what != "unlisted failure":
            check(rep and len(rep["problems"]) == 1, f"expected failures, {what}: one problem reported")
    open(xf, "w").write("# only comments\n\n")
    rc, rep, out, _ = conform("--expected-failures", xf)
    check(rc == 0, "expected failures: a comment-only file")

if scenario("reports"):
    tap, junit = os.path.join(tmp, "r.tap"), os.path.join(tmp, "r.xml")
    for mode in ("truth", "acceptall", "crash", "skip", "asan"):
        rc, rep, out, _ = conform("--adapter", hostile(mode), "-j2", "--tap", tap, "--junit", junit)
        parse = subprocess.run(["perl", "-MTAP::Parser", "-e",
                                'local $/; open my $f, "<", $ARGV[0] or die; my $p = TAP::Parser->new({tap => <$f>});'
                                'while (my $r = $p->next) {} print join(" ", scalar($p->parse_errors), $p->tests_run,'
                                ' scalar($p->passed), scalar($p->failed), scalar($p->skipped), $p->version), "\\n";', tap],
                               capture_output=True, text=True)
        f = parse.stdout.split()
        nfail = sum(1 for c in rep["cases"] if c["result"] not in ("pass", "skip", "implementation_defined"))
        check(parse.returncode == 0 and f[:2] == ["0", str(N)] and f[3] == str(nfail) and f[5] == "13",
              f"TAP ({mode}): TAP::Parser: parse errors, tests, passed, failed, skipped, version = {f}")
        if mode in ("truth", "skip"):
            p = subprocess.run(["prove", "-e", "cat", tap], capture_output=True, text=True)
            check(p.returncode == 0 and "Result: PASS" in p.stdout, f"TAP ({mode}): prove -e cat passes")
        try:
            root = ET.parse(junit).getroot()
            tcs = root.findall("./testsuite/testcase")
            ok = root.tag == "testsuites" and len(tcs) == N
            for ts in root.findall("testsuite"):
                n = ts.findall("testcase")
                ok &= int(ts.get("tests")) == len(n)
                ok &= int(ts.get("failures")) == sum(1 for t in n if t.find("failure") is not None)
                ok &= int(ts.get("errors")) == sum(1 for t in n if t.find("error") is not None)
                ok &= int(ts.get("skipped")) == sum(1 for t in n if t.find("skipped") is not None)
                ok &= all(t.get("name") and t.get("classname") and float(t.get("time")) >= 0 for t in n)
            bad = sum(1 for t in tcs if t.find("failure") is not None or t.find("error") is not None)
            check(ok and bad == nfail, f"JUnit ({mode}): {len(tcs)} testcases, counts agree, {bad} failed")
        except ET.ParseError as e:
            check(False, f"JUnit ({mode}): {e}")
    # '-': the report on stdout, the summary on stderr
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--json", "-"], capture_output=True, text=True)
    check(p.returncode == 0 and len(json.loads(p.stdout)["cases"]) == N and "passed" in p.stderr, "--json -: report on stdout")

if scenario("integrity"):
    bad = os.path.join(tmp, "bad")
    shutil.copytree(suite, bad)
    victim = os.path.join(bad, "gguf", expect_of["GG111-duplicate-key"]["path"])
    with open(victim, "r+b") as f:
        f.seek(10)
        f.write(b"\xff")
    p = subprocess.run([TFS, "conform", "--fixtures", bad, "--json", os.path.join(tmp, "bad.json")], capture_output=True, text=True)
    check(p.returncode == 2 and "SHA-256" in p.stderr and not os.path.exists(os.path.join(tmp, "bad.json")),
          f"a changed fixture is refused, nothing runs (exit {p.returncode})")
    os.remove(victim)
    p = subprocess.run([TFS, "conform", "--fixtures", bad, "--adapter", hostile("truth")], capture_output=True, text=True)
    check(p.returncode == 2 and "refused" in p.stderr, f"a missing fixture is refused (exit {p.returncode})")
    for args, what in [(["--bogus"], "unknown option"), (["--profile", "loose"], "bad profile"),
                       (["--adapter", "/nonexistent/reader"], "adapter not found"), (["--adapter", "a 'b"], "bad quoting"),
                       (["--id", "no-such-*"], "nothing selected"), (["-j", "0"], "-j 0")]:
        p = subprocess.run([TFS, "conform", "--fixtures", suite, *args], capture_output=True, text=True)
        check(p.returncode == 2, f"usage error, {what}: exit {p.returncode}")

if scenario("select"):
    def listed(*args):
        p = subprocess.run([TFS, "conform", "--fixtures", suite, "--list", *args], capture_output=True, text=True)
        return [l.split("\t")[0] for l in p.stdout.splitlines()]
    check(len(listed()) == N, "--list: every line")
    check(listed("--format", "gguf") == sorted(i for i, r in expect_of.items() if r["format"] == "gguf"), "--format gguf")
    check(listed("--rule", "GG1xx") == ["GG111-duplicate-key"], "--rule GG1xx (family)")
    check(listed("--rule", "ST002", "--rule", "GG001") == ["GG001-empty-file", "ST002-n-100000001"], "--rule twice")
    check(listed("--expect", "implementation_defined") == sorted(i for i, r in expect_of.items() if r["expect"] == "implementation_defined"), "--expect")
    check(listed("--id", "ST00?-*") == ["ST001-empty-file", "ST002-n-100000001"], "--id glob")
    check(sorted(listed("--tag", "buglog")) == sorted(i for i, r in expect_of.items() if "buglog" in r["provenance"]), "--tag buglog")
    check(listed("--tag", "BAD_MAGIC") == ["GG002-bad-magic-FUGG"], "--tag category")
    # profiles: strict takes the strict lines and the default lines standing for it
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--list", "--profile", "strict", "--id", "GG501*"], capture_output=True, text=True)
    check(p.stdout.split("\t")[3] == "parser_error", "--profile strict: an implementation_defined line requires its rule")
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--list", "--profile", "default", "--id", "GG501*"], capture_output=True, text=True)
    check(p.stdout.split("\t")[3] == "implementation_defined", "--profile default: an implementation_defined line takes either verdict")
    # --shard K/N: every N-th selected case from the K-th; N shards partition the selection, in its order
    whole = listed()
    for n in (1, 2, 3, N, N + 2):
        parts = [listed("--shard", f"{k}/{n}") for k in range(1, n + 1)]
        check(all(part == whole[k::n] for k, part in enumerate(parts)), f"--shard K/{n}: the K-th, K+{n}-th, ... case")
    check(listed("--format", "gguf", "--shard", "2/2") == listed("--format", "gguf")[1::2], "--shard after the other options")
    for bad in ("0/3", "4/3", "1/0", "3", "1/2/3", "a/b", "1/1001", "-1/2"):
        p = subprocess.run([TFS, "conform", "--fixtures", suite, "--list", "--shard", bad], capture_output=True, text=True)
        check(p.returncode == 2 and "--shard" in p.stderr, f"--shard {bad}: usage error (exit {p.returncode})")
    # an expected-failures file is judged only on the shard's cases: an entry outside it is no error
    xf = os.path.join(tmp, "shard.xfail")
    rc, rep, _, _ = conform("--adapter", hostile("acceptall"), "--write-expected-failures", xf)
    failing = sorted(c["id"] for c in rep["cases"] if c["result"] != "pass") if rep else []
    ok = bool(failing)
    for k in (1, 2):
        rc, rep, _, _ = conform("--adapter", hostile("acceptall"), "--expected-failures", xf, "--shard", f"{k}/2")
        ok = ok and rc == 0 and rep and [c["id"] for c in rep["cases"]] == whole[k - 1::2]
    check(ok, f"--shard with --expected-failures: each half passes with the whole file ({len(failing)} entries)")

if scenario("upfront"):
    # report paths that cannot be written: refused before any case runs
    for opt in ("--json", "--tap", "--junit", "--write-expected-failures"):
        t0 = time.monotonic()
        p = subprocess.run([TFS, "conform", "--fixtures", suite, "--adapter", hostile("slow"), opt, "/nonexistent/dir/x"],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and opt in p.stderr and "cannot write" in p.stderr and "passed" not in p.stdout
              and time.monotonic() - t0 < 2, f"{opt} /nonexistent/dir/x: refused up front (exit {p.returncode}, {p.stderr.strip()!r})")
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--junit", tmp], capture_output=True, text=True)
    check(p.returncode == 2 and "is a folder" in p.stderr, f"--junit FOLDER: refused up front (exit {p.returncode})")
    # a folder as the adapter program: refused like a missing one
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--adapter", "/"], capture_output=True, text=True)
    check(p.returncode == 2 and "adapter program '/'" in p.stderr and "passed" not in p.stdout,
          f"--adapter /: refused up front (exit {p.returncode}, {p.stderr.strip()!r})")
    # standard output that cannot be written: the message every tfs command prints
    with open("/dev/full", "w") as full:
        for args in (["-q"], ["--list"], ["--help"]):
            p = subprocess.run([TFS, "conform", "--fixtures", suite, *args], stdout=full, stderr=subprocess.PIPE, text=True)
            check(p.returncode == 2 and "tfs conform: cannot write output: No space left on device" in p.stderr,
                  f"{' '.join(args)} > /dev/full: exit {p.returncode}, {p.stderr.strip()!r}")
    # a selector that matches no fixture is named
    for args, want_msg in ((["--rule", "ZZ999"], "--rule ZZ999: no fixture has this rule"),
                           (["--tag", "nosuchtag"], "--tag nosuchtag: no fixture has this tag"),
                           (["--id", "no-such-*"], "--id no-such-*: matches no fixture id")):
        p = subprocess.run([TFS, "conform", "--fixtures", suite, *args], capture_output=True, text=True)
        check(p.returncode == 2 and want_msg in p.stderr, f"{args[0]} {args[1]}: says which selector matched nothing ({p.stderr.strip()!r})")

if scenario("notes"):
    # a crash's first stderr line in the console line and the report's detail
    rc, rep, out, _ = conform("--adapter", hostile("noload"), "--id", "GG00*")
    line = next((l for l in out.splitlines() if l.startswith("  GG001-empty-file ")), "")
    check(rc == 1 and "stderr: ./reader: error while loading shared libraries: libnosuch.so.1" in line,
          f"crash: stderr's first line on the console ({line!r})")
    check(rep and all(c["result"] == "crash" and "libnosuch.so.1" in c["detail"] for c in rep["cases"]),
          "crash: stderr's first line in each case's detail")
    # a first line that looks like JSON but is not usable: said in the detail, the verdict is the exit code's
    for mode, why in (("badjson", "is not valid JSON"), ("badrule", "\"rule\" that is not a string")):
        rc, rep, out, _ = conform("--adapter", hostile(mode), "--id", "GG00*", "--id", "valid-n-dims-4")
        check(rc == 0 and rep and all(c["result"] == "pass" and why in (c["detail"] or "") for c in rep["cases"]),
              f"adapter {mode}: cases pass by exit code, detail says the first line {why}")

for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)):
    if not scenario("signals") and not scenario(sig.name.lower()):
        continue
    rep_path = os.path.join(tmp, "int.json")
    if os.path.exists(rep_path):
        os.remove(rep_path)
    p = subprocess.Popen([TFS, "conform", "--fixtures", suite, "--adapter", hostile("slow"), "-j", "2", "--json", rep_path,
                          "--no-sanity-check"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # 20 cases of 0.5 s on 2 jobs take 5 s
    p.send_signal(sig)
    out, err = p.communicate(timeout=30)
    rep = json.load(open(rep_path)) if os.path.exists(rep_path) else None
    done = len(rep["cases"]) if rep else -1
    check(p.returncode == code, f"{sig.name}: exit {p.returncode}, want {code}")
    check(rep and rep["interrupted"] and 0 < done < N and rep["not_run"] == N - done and
          all(c["result"] == truth_result(expect_of[c["id"]]) for c in rep["cases"]), f"{sig.name}: partial report, {done} finished cases kept, {N - done} not run")
    check("interrupted" in out, f"{sig.name}: the summary says interrupted")
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    check(f"{HOSTILE} slow" not in ps, f"{sig.name}: running adapters killed")

shutil.rmtree(tmp, ignore_errors=True)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
