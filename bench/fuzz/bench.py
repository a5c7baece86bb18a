"""bench.py: the fuzzing benchmark with planted bugs (run through bench/fuzz/run.sh;
docs/fuzzing-benchmark.md).  Standard library only.

Modes:
  --quick   smoke (CI): every bug of bench/fuzz/bugs.tsv is built (TFS_BUG=<id>,
            default compiler, replay program of the buffer fuzz target), its
            canary must fire on its own trigger (bench/fuzz/triggers/) with the
            bug's message, and must not fire on the seed corpus (valid fixtures
            and real files), which must reach it unless the bugs.tsv row says
            the seeds cannot (no seed has such a field).
  default   benchmark: per bug, each fuzzer (plain libFuzzer target, the
            structure-aware one, ...) for N trials with distinct -seed, equal
            budgets, the same seed corpus, one process at a time; time to the
            canary's abort, censored at the budget; statistics (stats.py).
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import stats  # noqa: E402

FAMILIES = ["offset", "trunc", "align", "hdr", "count", "strlen", "type", "shape", "dup", "kv", "json", "bug", "byte"]
SHORT = {"gguf": "gguf", "safetensors": "st"}
EXT = {"gguf": "gguf", "safetensors": "safetensors"}
MAX_SEED = 32768  # bytes: larger real files are left out of the seed corpus (and -max_len)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def read_bugs():
    rows = []
    with open(os.path.join(HERE, "bugs.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "id":
                continue
            rows.append(dict(zip(["id", "format", "buglog", "rule", "planted", "trigger"], cols)))
    return rows


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# ------------------------------------------------------------------ builds

def configure(build_dir, kind, bug, cc):
    common = ["-DTFS_BUILD_TESTS=OFF", "-DTFS_BUILD_TOOLS=OFF", "-DTFS_BUILD_BENCH=OFF", "-DTFS_INSTALL=OFF",
              "-DTFS_WERROR=ON", "-DTFS_PYTHON3=/usr/bin/python3", "-DTFS_BUG=" + bug]
    if kind == "smoke":
        args = ["-DCMAKE_BUILD_TYPE=Debug"] + (["-DCMAKE_C_COMPILER=" + cc] if cc else [])
    elif kind == "libfuzzer":
        # no sanitizers: the canary is the oracle; the same binary flags for every fuzzer
        args = ["-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCMAKE_C_COMPILER=clang", "-DCMAKE_CXX_COMPILER=clang++",
                "-DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link", "-DTFS_FUZZ_ENGINE=libfuzzer"]
    elif kind == "afl":
        args = ["-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCMAKE_C_COMPILER=afl-clang-fast",
                "-DCMAKE_CXX_COMPILER=afl-clang-fast++", "-DTFS_FUZZ_ENGINE=afl"]
    else:
        raise ValueError(kind)
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(cache):
        run(["cmake", build_dir, "-DTFS_BUG=" + bug], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    else:
        run(["cmake", "-S", ROOT, "-B", build_dir] + args + common, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)


def build(build_dir, targets, jobs):
    r = subprocess.run(["cmake", "--build", build_dir, "-j%d" % jobs, "--target"] + targets,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        raise SystemExit("bench: build of %s failed" % " ".join(targets))


def build_bug(bug, kind, base, jobs, cc=None):
    """Build the bug's binaries of `kind`; returns {name: path} copied to base/bin/<id>/."""
    bdir = os.path.join(base, kind)
    configure(bdir, kind, bug["id"], cc)
    t = "fuzz_%s_buffer" % SHORT[bug["format"]]
    if kind == "smoke":
        want = {"replay": t}
    elif kind == "libfuzzer":
        want = {"replay": t, "plain": t + "_fuzzer", "sa": t + "_sa_fuzzer"}
    else:
        want = {"afl": t + "_fuzzer"}
    build(bdir, list(want.values()), jobs)
    out = os.path.join(base, "bin", bug["id"], kind)
    os.makedirs(out, exist_ok=True)
    paths = {}
    for name, tgt in want.items():
        src = None
        for cand in (os.path.join(bdir, "fuzzers", tgt), os.path.join(bdir, "fuzz", tgt)):
            if os.path.exists(cand):
                src = cand
                break
        if not src:
            raise SystemExit("bench: %s not built in %s" % (tgt, bdir))
        dst = os.path.join(out, name)
        shutil.copy2(src, dst)
        paths[name] = dst
    if kind == "afl":
        paths["afl_mutator"] = afl_mutator(base, jobs)
    return paths


def afl_mutator(base, jobs):
    """The AFL++ custom mutator, built once without AFL++ instrumentation (an
    instrumented .so cannot be loaded by afl-fuzz: __afl_area_ptr)."""
    bdir = os.path.join(base, "aflmut")
    so = os.path.join(bdir, "mutators", "libtfs_afl_mutator.so")
    if not os.path.exists(os.path.join(bdir, "CMakeCache.txt")):
        run(["cmake", "-S", ROOT, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release", "-DTFS_BUILD_TESTS=OFF",
             "-DTFS_BUILD_TOOLS=OFF", "-DTFS_BUILD_BENCH=OFF", "-DTFS_BUILD_FUZZ=OFF", "-DTFS_INSTALL=OFF"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    build(bdir, ["tfs_afl_mutator"], jobs)
    return so


def reused(bug, kind, base):
    """--reuse-bins: the binaries an earlier run copied to base/bin/<id>/<kind>/, or {}."""
    d = os.path.join(base, "bin", bug["id"], kind)
    names = {"smoke": ["replay"], "libfuzzer": ["replay", "plain", "sa"], "afl": ["afl"]}[kind]
    paths = {n: os.path.join(d, n) for n in names}
    if not all(os.path.exists(p) for p in paths.values()):
        return {}
    if kind == "afl":
        paths["afl_mutator"] = os.path.join(base, "aflmut", "mutators", "libtfs_afl_mutator.so")
        if not os.path.exists(paths["afl_mutator"]):
            return {}
    return paths


# ------------------------------------------------------------------ seeds

def seed_files(fmt):
    """Fixtures valid in the default profile (corpus/<fmt>/MANIFEST.tsv) and
    such real files of the format up to MAX_SEED bytes (corpus/real/
    MANIFEST.tsv): never a file the parser rejects.  A valid file can still
    hold a bug's trigger (a zero dimension for G7): filter_seeds drops those."""
    out = []
    for man in (os.path.join(ROOT, "corpus", fmt, "MANIFEST.tsv"), os.path.join(ROOT, "corpus", "real", "MANIFEST.tsv")):
        if not os.path.exists(man):
            continue
        base = os.path.dirname(man)
        with open(man, encoding="utf-8") as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                r = dict(zip(head, line.rstrip("\n").split("\t")))
                if r.get("format") != fmt or r.get("expect") != "valid" or r.get("mode") != "default":
                    continue
                p = os.path.join(base, r["path"])
                if os.path.exists(p) and os.path.getsize(p) <= MAX_SEED and p not in out:
                    out.append(p)
    return sorted(out)


def canary_counts(text, bug_id):
    """(reached, triggered) from the TFS_BUG_STATS line of a run's stderr."""
    key = "tfs-bug: TFS_BUG=%s reached " % bug_id
    for line in text.splitlines():
        if line.startswith(key):
            parts = line.split()
            return int(parts[3]), int(parts[5])
    return None


def replay(binary, paths, env_extra=None, timeout=120):
    env = dict(os.environ)
    env.update(env_extra or {})
    return subprocess.run([binary, "--quiet"] + paths, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env, timeout=timeout)


def _counts(bug, replay_bin, paths):
    """(reached, triggered) over `paths`, replayed in one process in counting mode."""
    r = replay(replay_bin, paths, {"TFS_BUG_NOABORT": "1", "TFS_BUG_STATS": "1"})
    c = canary_counts(r.stderr, bug["id"])
    if c is None:
        raise SystemExit("bench: no canary line from %s on %s%s (exit %d): %s" % (
            replay_bin, paths[0], " and %d more" % (len(paths) - 1) if len(paths) > 1 else "", r.returncode,
            r.stderr[-400:]))
    return c


def filter_seeds(bug, replay_bin, seeds):
    """Seeds that do not trigger the bug (counting mode); returns (kept,
    dropped, reached).  All the seeds in one process first: when none
    triggers the bug (the usual case), that is the answer; otherwise each
    seed is replayed alone to tell which ones do."""
    if not seeds:
        return [], [], 0
    reached, triggered = _counts(bug, replay_bin, seeds)
    if triggered == 0:
        return list(seeds), [], reached
    kept, dropped, reached = [], [], 0
    for s in seeds:
        c = _counts(bug, replay_bin, [s])
        reached += c[0]
        (dropped if c[1] else kept).append(s)
    return kept, dropped, reached


# ------------------------------------------------------------------ smoke

def smoke(bugs, base, jobs, cc):
    trig_dir = os.path.join(HERE, "triggers")
    failures = []
    rows = []
    for bug in bugs:
        t0 = time.monotonic()
        paths = build_bug(bug, "smoke", base, jobs, cc)
        trig = os.path.join(trig_dir, "%s.%s" % (bug["id"], EXT[bug["format"]]))
        msg = "tfs-bug: TFS_BUG=%s triggered" % bug["id"]
        if not os.path.exists(trig):
            failures.append("%s: no trigger file %s" % (bug["id"], trig))
            continue
        r = replay(paths["replay"], [trig])
        fired = r.returncode != 0 and msg in r.stderr
        if not fired:
            failures.append("%s: canary did not fire on %s (exit %d): %s" % (bug["id"], trig, r.returncode,
                                                                             r.stderr[-300:]))
        seeds = seed_files(bug["format"])
        kept, dropped, reached = filter_seeds(bug, paths["replay"], seeds)
        rows.append((bug["id"], fired, len(seeds), len(dropped), reached, time.monotonic() - t0))
        log("bug %-4s trigger %-6s seeds %3d, fire on %d, reached %d times (%.1f s)" % (
            bug["id"], "fires" if fired else "FAILS", len(seeds), len(dropped), reached, time.monotonic() - t0))
    print("| bug | canary fires on its trigger | seeds | seeds that trigger it | reached by the seeds |")
    print("|---|---|---|---|---|")
    for bid, fired, n, nd, reached, _ in rows:
        print("| %s | %s | %d | %d | %d |" % (bid, "yes" if fired else "NO", n, nd, reached))
    if failures:
        for f in failures:
            log("FAIL " + f)
        return 1
    log("bench: smoke passed: %d bugs build, every canary fires on its trigger" % len(rows))
    return 0


# ------------------------------------------------------------------ trials

def _cpu_limit(seconds):
    def f():
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    return f


def libfuzzer_trial(binary, seeds_dir, dict_path, budget, seed, workdir, env_extra, bug_id):
    """One libFuzzer trial.  The budget is CPU time of the fuzzer process
    (RLIMIT_CPU: SIGXCPU ends it), and the time to trigger is its CPU time
    (user + system, getrusage of the child) at the canary's abort: on a
    shared, loaded machine wall time would measure the other processes.
    -max_total_time (wall) is only a backstop at 10x the budget."""
    corpus = os.path.join(workdir, "corpus")
    os.makedirs(corpus)
    cmd = [binary, "-seed=%d" % seed, "-max_total_time=%d" % (10 * budget), "-max_len=%d" % MAX_SEED,
           "-timeout=10", "-rss_limit_mb=2048", "-malloc_limit_mb=2048", "-print_final_stats=1",
           "-artifact_prefix=%s/" % workdir]
    if dict_path:
        cmd.append("-dict=" + dict_path)
    cmd += [corpus, seeds_dir]
    env = dict(os.environ)
    env.update(env_extra)
    # the structure-aware front end names the mutation chain of the input
    # being run in this file (mutators/libfuzzer.c); it survives the crash
    trace = os.path.join(workdir, "mutation-trace")
    env["TFS_MUTATOR_TRACE"] = trace
    errf = os.path.join(workdir, "stderr.txt")
    t0 = time.monotonic()
    with open(errf, "w") as e:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=e, env=env, preexec_fn=_cpu_limit(budget))
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - t0
    cpu = ru.ru_utime + ru.ru_stime
    with open(errf, errors="replace") as e:
        text = e.read()
    execs = last_status = 0
    for line in text.splitlines():
        if line.startswith("stat::number_of_executed_units:"):
            execs = int(line.split(":")[-1])
        elif line.startswith("#"):  # status lines "#N\tNEW ..." / "#N\tpulse ..."
            head = line[1:].split("\t", 1)[0].split(" ", 1)[0]
            if head.isdigit():
                last_status = int(head)
    execs = execs or last_status  # killed at the CPU budget: no final stats, the last status line
    triggered = ("tfs-bug: TFS_BUG=%s triggered" % bug_id) in text
    import signal
    out_of_cpu = p.returncode == -signal.SIGXCPU
    other = (not triggered) and p.returncode != 0 and not out_of_cpu
    chain = None
    if (triggered or other) and os.path.exists(trace):
        with open(trace, errors="replace") as f:
            chain = f.read().split("\0", 1)[0].strip() or None
    return {"triggered": triggered, "time": round(cpu, 3), "wall": round(wall, 3), "other_crash": other,
            "exit": p.returncode, "execs": execs, "tail": "" if not other else text[-600:],
            "mutation_chain": chain}


def afl_trial(binary, mutator, seeds_dir, dict_path, budget, seed, workdir, env_extra, bug_id, replay_bin):
    out = os.path.join(workdir, "out")
    cmd = ["afl-fuzz", "-i", seeds_dir, "-o", out, "-V", str(budget), "-s", str(seed), "-t", "10000"]
    if dict_path:
        cmd += ["-x", dict_path]
    cmd += ["--", binary]
    env = dict(os.environ)
    env.update({"AFL_BENCH_UNTIL_CRASH": "1", "AFL_NO_UI": "1", "AFL_SKIP_CPUFREQ": "1",
                "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1", "AFL_NO_AFFINITY": "1", "AFL_QUIET": "1",
                "AFL_SKIP_CRASHES": "1"})
    if mutator:
        env["AFL_CUSTOM_MUTATOR_LIBRARY"] = mutator
    env.update(env_extra)
    t0 = time.monotonic()
    with open(os.path.join(workdir, "afl.log"), "w") as lf:
        p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, env=env, timeout=budget + 120)
    elapsed = time.monotonic() - t0
    if p.returncode != 0 and not os.path.isdir(os.path.join(out, "default")):
        with open(os.path.join(workdir, "afl.log"), errors="replace") as lf:
            raise SystemExit("bench: afl-fuzz did not start (exit %d): %s" % (p.returncode, lf.read()[-600:]))
    crashes = os.path.join(out, "default", "crashes")
    found = sorted(f for f in os.listdir(crashes) if f.startswith("id:")) if os.path.isdir(crashes) else []
    triggered, other, t_found = False, False, elapsed
    for f in found:
        r = replay(replay_bin, [os.path.join(crashes, f)])
        if ("tfs-bug: TFS_BUG=%s triggered" % bug_id) in r.stderr:
            triggered = True
            for part in f.split(","):
                if part.startswith("time:"):
                    t_found = int(part[5:]) / 1000.0
            break
        other = True
    execs = 0
    try:
        with open(os.path.join(out, "default", "fuzzer_stats")) as sf:
            for line in sf:
                if line.startswith("execs_done"):
                    execs = int(line.split(":", 1)[1])
    except (OSError, ValueError):
        pass
    # AFL++: wall-clock seconds (afl-fuzz's own -V budget and the crash's time: field)
    return {"triggered": triggered, "time": round(t_found if triggered else elapsed, 3), "wall": round(elapsed, 3),
            "other_crash": other, "exit": p.returncode, "execs": execs, "tail": ""}


def fuzzer_spec(name):
    """'plain', 'sa', 'afl', 'afl_sa', or 'sa-no-<family>[+<family>...]' -> (binary key, env)."""
    if name in ("plain", "sa", "afl", "afl_sa"):
        return name, {}
    if name.startswith("sa-no-"):
        fams = name[len("sa-no-"):].split("+")
        for fam in fams:
            if fam not in FAMILIES:
                raise SystemExit("bench: unknown mutation family %s (%s)" % (fam, ", ".join(FAMILIES)))
        return "sa", {"TFS_MUTATOR_DISABLE": ",".join(fams)}
    raise SystemExit("bench: unknown fuzzer %s (plain, sa, afl, afl_sa, sa-no-<family>[+<family>...])" % name)


def summarize(results, bugs, fuzzers, trials, budget):
    """Per-bug and total statistics."""
    per_bug = []
    for bug in bugs:
        bid = bug["id"]
        row = {"id": bid, "format": bug["format"], "buglog": bug["buglog"], "rule": bug["rule"], "fuzzers": {}}
        for fz in fuzzers:
            ts = results.get(bid, {}).get(fz, [])
            if not ts:
                continue
            times = [t["time"] if t["triggered"] else float(budget) for t in ts]
            times = [min(x, float(budget)) for x in times]
            found = sum(1 for t in ts if t["triggered"])
            med = stats.median(times)
            row["fuzzers"][fz] = {"found": found, "trials": len(ts), "median": med,
                                  "median_censored": found * 2 <= len(ts) and med >= budget,
                                  "times": times, "other_crashes": sum(1 for t in ts if t["other_crash"]),
                                  "execs": [t["execs"] for t in ts],
                                  # 0: not known (an AFL++ run stopped before writing its stats)
                                  "median_execs_found": stats.median([t["execs"] for t in ts
                                                                      if t["triggered"] and t["execs"]])
                                  if any(t["triggered"] and t["execs"] for t in ts) else None}
        comps = {}
        base = "plain" if "plain" in row["fuzzers"] else None
        for fz in row["fuzzers"]:
            ref = None
            if fz == "sa" and base:
                ref = base
            elif fz.startswith("sa-no-") and "sa" in row["fuzzers"]:
                ref = "sa"
            elif fz == "afl_sa" and "afl" in row["fuzzers"]:
                ref = "afl"
            if ref:
                x, y = row["fuzzers"][ref]["times"], row["fuzzers"][fz]["times"]
                u, p = stats.mann_whitney_u(x, y)
                # A12 of the candidate being faster: P(ref time > candidate time)
                comps["%s_vs_%s" % (fz, ref)] = {"U": u, "p": p, "A12": stats.a12(x, y)}
        row["compare"] = comps
        per_bug.append(row)
    totals = {}
    for fz in fuzzers:
        rows = [r["fuzzers"][fz] for r in per_bug if fz in r["fuzzers"]]
        if not rows:
            continue
        n_tr = max(r["trials"] for r in rows)
        per_trial, time_per_trial = [], []
        for k in range(n_tr):
            per_trial.append(sum(1 for r in rows if k < len(r["times"]) and r["times"][k] < budget))
            # trial k of every bug, one after the other: the time to find them all (censored at the budget)
            time_per_trial.append(round(sum(r["times"][k] for r in rows if k < len(r["times"])), 3))
        totals[fz] = {"bugs": len(rows), "found_any": sum(1 for r in rows if r["found"] > 0),
                      "found_half": sum(1 for r in rows if r["found"] * 2 >= r["trials"] and r["found"] > 0),
                      "found_trials": sum(r["found"] for r in rows), "bugs_per_trial": per_trial,
                      "time_per_trial": time_per_trial}
    tcomp = {}
    for a, b in (("plain", "sa"), ("afl", "afl_sa")):
        if a in totals and b in totals:
            x, y = totals[a]["bugs_per_trial"], totals[b]["bugs_per_trial"]
            u, p = stats.mann_whitney_u(y, x)
            c = {"U": u, "p": p, "A12": stats.a12(y, x),
                 "at_least_as_many_every_trial": all(yb >= xb for xb, yb in zip(x, y))}
            # overall time: per trial, the sum over the bugs (A12: P(a's sum > b's sum), b sooner)
            xt, yt = totals[a]["time_per_trial"], totals[b]["time_per_trial"]
            ut, pt = stats.mann_whitney_u(xt, yt)
            c.update(time_U=ut, time_p=pt, time_A12=stats.a12(xt, yt), time_median_a=stats.median(xt),
                     time_median_b=stats.median(yt))
            # per bug: significantly sooner (p < 0.05) one way or the other
            key = "%s_vs_%s" % (b, a)
            sig = [r["compare"][key] for r in per_bug if key in r["compare"] and r["compare"][key]["p"] < 0.05]
            c["bugs_sooner"] = sum(1 for v in sig if v["A12"] > 0.5)
            c["bugs_later"] = sum(1 for v in sig if v["A12"] < 0.5)
            tcomp[key] = c
    return per_bug, totals, tcomp


def fmt_time(f, budget):
    if f["found"] == 0:
        return "—"
    if f["median_censored"]:
        return ">%ds" % budget
    return "%.2fs" % f["median"]


MAIN = ("plain", "sa", "afl", "afl_sa")


def _cell(f, budget):
    ex = f.get("median_execs_found")
    return "%d/%d | %s | %s" % (f["found"], f["trials"], fmt_time(f, budget), "%d" % ex if ex is not None else "—")


def tfs_commit():
    """the checkout's short commit, "+uncommitted" when files differ from it; "" outside git"""
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+uncommitted" if dirty else "")


def markdown(per_bug, totals, tcomp, fuzzers, trials, budget, meta):
    out = []
    counts = sorted({f["trials"] for r in per_bug for f in r["fuzzers"].values()}) or [trials]
    stamp = meta.get("when", "?")
    if meta.get("tfs"):
        stamp += ", tfs " + meta["tfs"]
    if meta.get("mutator_mix"):
        stamp += ", TFS_MUTATOR_MIX=" + meta["mutator_mix"]
    out.append("Fuzzing benchmark: %s trials x %d CPU-seconds per bug and fuzzer (%s; libFuzzer times are CPU "
               "seconds of the fuzzer process, AFL++ times wall seconds)." % ("/".join(map(str, counts)), budget, stamp))
    out.append("")
    main = [fz for fz in fuzzers if fz in MAIN]
    head = "| bug | buglog | rule |"
    sep = "|---|---|---|"
    for fz in main:
        head += " %s found | %s median | %s execs |" % (fz, fz, fz)
        sep += "---|---|---|"
    comps = [c for c in ("sa_vs_plain", "afl_sa_vs_afl") if any(c in r["compare"] for r in per_bug)]
    for c in comps:
        head += " %s p | %s A12 |" % (c, c)
        sep += "---|---|"
    out += [head, sep]
    for r in per_bug:
        line = "| %s | %s | %s |" % (r["id"], r["buglog"], r["rule"])
        for fz in main:
            f = r["fuzzers"].get(fz)
            line += (" %s |" % _cell(f, budget)) if f else " | | |"
        for c in comps:
            v = r["compare"].get(c)
            line += (" %.3g | %.2f |" % (v["p"], v["A12"])) if v else " | |"
        out.append(line)
    abl = [fz for fz in fuzzers if fz not in MAIN]
    if abl:
        out.append("")
        out.append("Ablation (the structure-aware target with mutation families off, against `sa`):")
        out.append("")
        out.append("| bug | fuzzer | found | median | execs | p vs sa | A12 vs sa |")
        out.append("|---|---|---|---|---|---|---|")
        for r in per_bug:
            for fz in abl:
                f = r["fuzzers"].get(fz)
                if not f:
                    continue
                v = r["compare"].get("%s_vs_sa" % fz)
                out.append("| %s | %s | %s | %s |" % (r["id"], fz, _cell(f, budget),
                                                      ("%.3g | %.2f" % (v["p"], v["A12"])) if v else " | "))
    out.append("")
    out.append("| fuzzer | bugs | found in >= 1 trial | found in >= half the trials | triggering trials | bugs per trial |")
    out.append("|---|---|---|---|---|---|")
    for fz in fuzzers:
        t = totals.get(fz)
        if t:
            out.append("| %s | %d | %d | %d | %d | %s |" % (fz, t["bugs"], t["found_any"], t["found_half"],
                                                        t["found_trials"], " ".join(map(str, t["bugs_per_trial"]))))
    for c, v in tcomp.items():
        a, b = c.split("_vs_")[1], c.split("_vs_")[0]
        out.append("")
        out.append("Bugs found per trial, %s: Mann-Whitney U = %.1f, p = %.3g, A12 = %.2f; %s finds at least as "
                   "many as %s in every trial: %s." % (c, v["U"], v["p"], v["A12"], b, a,
                                                      "yes" if v["at_least_as_many_every_trial"] else "no"))
        if "time_p" in v:
            out.append("")
            out.append("Overall time, %s: per trial, the time to trigger every bug (the sum over the bugs, each "
                       "censored at the budget): median %.1f s %s, %.1f s %s; Mann-Whitney U = %.1f, p = %.3g, "
                       "A12 (%s sooner) = %.2f. Per bug, significantly sooner (p < 0.05): %s on %d bugs, %s on %d."
                       % (c, v["time_median_a"], a, v["time_median_b"], b, v["time_U"], v["time_p"], b,
                          v["time_A12"], b, v["bugs_sooner"], a, v["bugs_later"]))
    out.append("")
    out.append("found: trials that triggered the bug; median: time to trigger (censored at the budget); execs: "
               "median executions until the trigger, over the trials that triggered it (the seeds' own runs "
               "included).")
    out.append("A12: probability that a trial of the first fuzzer triggers the bug sooner than one of the second "
               "(for an ablation: sooner than `sa`; below 0.5 = the family helped); p: two-sided Mann-Whitney U, "
               "exact permutation distribution (bench/fuzz/stats.py).")
    return "\n".join(out) + "\n"


def benchmark(args, bugs):
    fuzzers = args.fuzzers
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.abspath(args.build_dir)
    kinds = set()
    for fz in fuzzers:
        key, _ = fuzzer_spec(fz)
        kinds.add("afl" if key.startswith("afl") else "libfuzzer")
    kinds.add("libfuzzer")  # the replay program filters seeds
    results_path = os.path.join(out_dir, "results.json")
    results = {}
    if (args.resume or args.report) and os.path.exists(results_path):
        with open(results_path) as f:
            old = json.load(f)
        results = old.get("trials", {})
        if args.report:  # the summary of what is there: every fuzzer with trials, the runs' meta
            meta = old.get("meta", {})
            args.budget = meta.get("budget", args.budget)  # censoring at the budget the trials ran with
            args.trials = meta.get("trials", args.trials)
            seen = [fz for b in results.values() for fz in b]
            fuzzers = [fz for fz in dict.fromkeys(["plain", "sa"] + seen) if fz in seen]
            bugs = [b for b in bugs if b["id"] in results]
            per_bug, totals, tcomp = summarize(results, bugs, fuzzers, args.trials, args.budget)
            md = markdown(per_bug, totals, tcomp, fuzzers, args.trials, args.budget, meta)
            with open(os.path.join(out_dir, "results.md"), "w") as f:
                f.write(md)
            with open(results_path, "w") as f:
                json.dump({"meta": meta, "trials": results, "per_bug": per_bug, "totals": totals,
                           "total_compare": tcomp}, f, indent=1)
            sys.stdout.write(md)
            return 0
    meta = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "budget": args.budget, "trials": args.trials,
            "fuzzers": fuzzers, "machine": "%s, %s, %d CPUs" % (platform.node(), platform.processor() or
                                                                 platform.machine(), os.cpu_count() or 0),
            "command": " ".join(sys.argv[1:]), "seeds": {}, "max_len": MAX_SEED, "tfs": tfs_commit(),
            "mutator_mix": os.environ.get("TFS_MUTATOR_MIX", "")}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    meta["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    for bug in ([] if args.report else bugs):
        bid, fmt = bug["id"], bug["format"]
        bins = {}
        for kind in sorted(kinds):
            got = reused(bug, kind, base) if args.reuse_bins else {}
            bins.update(got or build_bug(bug, kind, base, args.jobs))
        seeds = seed_files(fmt)
        kept, dropped, reached = filter_seeds(bug, bins["replay"], seeds)
        seeds_dir = os.path.join(base, "seeds", bid)
        shutil.rmtree(seeds_dir, ignore_errors=True)
        os.makedirs(seeds_dir)
        for s in kept:
            shutil.copy2(s, os.path.join(seeds_dir, os.path.basename(s)))
        meta["seeds"][bid] = {"kept": len(kept), "dropped": [os.path.relpath(d, ROOT) for d in dropped],
                              "reached": reached}
        log("bug %s: %d seeds (%d dropped: they trigger it), reached %d times by them" % (bid, len(kept), len(dropped),
                                                                                       reached))
        dict_path = None if args.no_dict else os.path.join(ROOT, "fuzz", "dict", "%s.dict" % fmt)
        for fz in fuzzers:
            key, env = fuzzer_spec(fz)
            have = results.setdefault(bid, {}).setdefault(fz, [])
            for k in range(len(have), args.trials):
                seed = 1000 + k  # the same seeds for every fuzzer: trial k of each uses -seed 1000+k
                work = tempfile.mkdtemp(prefix="tfsbug-%s-%s-" % (bid, fz))
                try:
                    if key in ("plain", "sa"):
                        t = libfuzzer_trial(bins[key], seeds_dir, dict_path, args.budget, seed, work, env, bid)
                    else:
                        t = afl_trial(bins["afl"], bins["afl_mutator"] if key == "afl_sa" else None, seeds_dir,
                                      dict_path, args.budget, seed, work, env, bid, bins["replay"])
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                t["seed"] = seed
                have.append(t)
                log("  %-4s %-14s trial %d: %s %.1f s (wall %.1f s, %d execs)%s" % (
                    bid, fz, k + 1, "TRIGGERED" if t["triggered"] else "not found", t["time"], t["wall"], t["execs"],
                    " (other crash: exit %d)" % t["exit"] if t["other_crash"] else "") +
                    (" by %s" % t["mutation_chain"] if t.get("mutation_chain") else ""))
                with open(results_path, "w") as f:
                    json.dump({"meta": meta, "trials": results}, f, indent=1)
    per_bug, totals, tcomp = summarize(results, bugs, fuzzers, args.trials, args.budget)
    doc = {"meta": meta, "trials": results, "per_bug": per_bug, "totals": totals, "total_compare": tcomp}
    with open(results_path, "w") as f:
        json.dump(doc, f, indent=1)
    md = markdown(per_bug, totals, tcomp, fuzzers, args.trials, args.budget, meta)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(md)
    sys.stdout.write(md)
    log("bench: results in %s/results.{md,json}" % out_dir)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/fuzz/run.sh",
                                 description="Fuzzing benchmark with planted bugs (docs/fuzzing-benchmark.md)")
    ap.add_argument("--quick", action="store_true", help="CI smoke: build every bug, canary fires on its trigger")
    ap.add_argument("--trials", type=int, default=10, help="independent trials per bug and fuzzer (default 10)")
    ap.add_argument("--budget", type=int, default=120, help="seconds per trial (default 120)")
    ap.add_argument("--bugs", default="all", help="comma-separated bug ids of bench/fuzz/bugs.tsv (default all)")
    ap.add_argument("--fuzzers", default="plain,sa",
                    help="comma-separated: plain, sa, afl, afl_sa, sa-no-<family>[+<family>] (default plain,sa)")
    ap.add_argument("--ablation", default="",
                    help="comma-separated mutation families (a+b: both off together): adds sa-no-<family> fuzzers")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "bugbench"), help="build tree (default build/bugbench)")
    ap.add_argument("--out", default=None, help="results folder (default <build-dir>/results)")
    ap.add_argument("--jobs", type=int, default=2, help="build parallelism (default 2)")
    ap.add_argument("--cc", default=None, help="C compiler of the --quick builds (default: cmake's)")
    ap.add_argument("--no-dict", action="store_true", help="run without the fuzz/dict dictionaries")
    ap.add_argument("--resume", action="store_true", help="keep the trials already in <out>/results.json")
    ap.add_argument("--report", action="store_true",
                    help="no runs: summarize <out>/results.json again (every fuzzer and bug in it)")
    ap.add_argument("--shard", default=None, metavar="K/N",
                    help="--quick: only the bugs i (0-based, bugs.tsv order) with i %% N == K - 1, built in "
                         "<build-dir>/shard-KofN (N such runs together check every bug; ctest test_bug_smoke_KofN)")
    ap.add_argument("--reuse-bins", action="store_true",
                    help="use the binaries of an earlier run in <build-dir>/bin/<id>/ (same sources) instead of building")
    args = ap.parse_args(argv)
    bugs = read_bugs()
    if args.bugs != "all":
        want = args.bugs.split(",")
        ids = {b["id"] for b in bugs}
        for w in want:
            if w not in ids:
                raise SystemExit("bench: unknown bug %s (bench/fuzz/bugs.tsv: %s)" % (w, " ".join(sorted(ids))))
        bugs = [b for b in bugs if b["id"] in want]
    if args.shard:
        try:
            k, n = (int(x) for x in args.shard.split("/"))
            if not 1 <= k <= n:
                raise ValueError
        except ValueError:
            ap.error("--shard wants K/N with 1 <= K <= N, not %r" % args.shard)
        if not args.quick:
            ap.error("--shard goes with --quick")
        bugs = [b for i, b in enumerate(bugs) if i % n == k - 1]
        args.build_dir = os.path.join(args.build_dir, "shard-%dof%d" % (k, n))
    if args.quick:
        return smoke(bugs, os.path.abspath(args.build_dir), args.jobs, args.cc)
    args.fuzzers = [f for f in args.fuzzers.split(",") if f]
    args.fuzzers += ["sa-no-" + f for f in args.ablation.split(",") if f]
    for f in args.fuzzers:
        fuzzer_spec(f)
    if args.out is None:
        args.out = os.path.join(args.build_dir, "results")
    return benchmark(args, bugs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
