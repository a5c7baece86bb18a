#!/usr/bin/python3
"""ext_cov.py: edge coverage of a third-party reader's own code, plain
libFuzzer against the tfs structure-aware form (fuzz/ext/), side by side.

usage: bench/fuzz/ext_cov.py [--seconds S] [--trials N] [--jobs J]
                             [--build DIR] [--json FILE] READER
  READER   ggml_gguf, gguflib or safetensors_cpp (the binaries
           DIR/fuzzers/ext_READER_fuzzer and ext_READER_sa_fuzzer: the fuzz
           preset configured with the reader's -DTFS_EXT_*_SRC option)
  --seconds  budget of one trial (default 600)
  --trials   trials per form (default 10); forms alternate, so a
             shortened run still compares like with like
  --jobs     trials run at once (default 1; each is one process).  With 2,
             the plain and the structure-aware trial of the same number run
             side by side, so both forms always share the machine alike
  --nice     nice level of the fuzzers (default 10)
  --seed-file FILE  start every trial from these files only (repeatable)
             instead of the format's valid seeds
  --mix P    the structure-aware form hands P percent of its mutations to
             libFuzzer's own mutator (TFS_MUTATOR_MIX, mutators/libfuzzer.c;
             default 0: tfs mutations only)
  --recount JSON  no fuzzing: the source branches of the trials kept by
             the run that wrote JSON (--keep, --src-cov), reported again
  --src-cov DIR  a build of the replay programs with clang's source-based
             coverage (-fprofile-instr-generate -fcoverage-mapping; see
             docs/fuzzing.md): each trial's final corpus is replayed there,
             each input with the variant the engine ran (its last byte), and
             the branches of the reader's own source files that it takes are
             counted (llvm-profdata, llvm-cov export).  Reported per trial
             beside libFuzzer's cov:, with the branches only one form took
             over all its trials

Each trial: libFuzzer in fork mode with one job (-fork=1
-ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1), so a crash of the
reader does not end the trial, from the format's valid seeds only (the
valid-* fixtures and corpus/real/<format>/, copied to a fresh corpus; not
the seeds of fuzz/crashers/<reader>/seeds.crash: known findings), with
-seed=<trial>, -max_len=131072, -timeout=10, -rss_limit_mb=2560.  Only the
reader's sources are coverage-instrumented (fuzz/ext/CMakeLists.txt), so
libFuzzer's cov: is the number of the reader's edges reached.  Reported per
form: final edges of each trial, median, and the time to the first crash
(seconds; "-" none); then Mann-Whitney U (two-sided p) and Vargha-Delaney
A12 of structure-aware over plain (bench/fuzz/stats.py).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stats  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORMAT = {"ggml_gguf": "gguf", "gguflib": "gguf", "safetensors_cpp": "safetensors"}
STATUS = re.compile(r"#(\d+): cov: (\d+) ft: (\d+) corp: \d+ exec/s:? ?(\d+) oom/timeout/crash: (\d+)/(\d+)/(\d+) time: (\d+)s")


def known(reader):
    """seed files that already trigger a finding of the reader
    (fuzz/crashers/<reader>/seeds.crash): left out of the seeds"""
    p = os.path.join(ROOT, "fuzz", "crashers", reader, "seeds.crash")
    if not os.path.exists(p):
        return set()
    with open(p) as f:
        return {os.path.join(ROOT, line.strip()) for line in f if line.strip() and not line.startswith("#")}


def ggml_race_seeds(work):
    """the race's seeds of ggml's reader (valid GGUF fixtures and real files, its known
    findings left out) copied into a new folder under work; returns its path"""
    dst = os.path.join(work, "ggml-seeds")
    os.makedirs(dst)
    valid_seeds("gguf", dst, known("ggml_gguf"))
    return dst


def valid_seeds(fmt, dst, skip=frozenset()):
    """copy the valid fixtures and the real files of fmt into dst (not those in skip)"""
    n = 0
    folders = [os.path.join(ROOT, "corpus", fmt), os.path.join(ROOT, "corpus", "real", fmt)]
    for d in folders:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if not os.path.isfile(p) or os.path.getsize(p) > 131072 or p in skip:
                continue
            if d == folders[0] and not name.startswith("valid"):
                continue
            shutil.copy(p, os.path.join(dst, "%03d-%s" % (n, name)))
            n += 1
    return n


SRC_VAR = {"ggml_gguf": "TFS_EXT_GGML_SRC", "gguflib": "TFS_EXT_GGUF_TOOLS_SRC",
           "safetensors_cpp": "TFS_EXT_SAFETENSORS_CPP_SRC"}


def llvm_tool(name):
    for n in (name, name + "-14", name + "-15", name + "-16"):
        p = shutil.which(n)
        if p:
            return p
    raise SystemExit("ext_cov: %s not found (Debian: llvm)" % name)


def reader_src(build, reader):
    """the reader's source folder, from the coverage build's CMakeCache.txt"""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith(SRC_VAR[reader] + ":"):
                return os.path.realpath(line.split("=", 1)[1].strip())
    return ""


def _big_stack():
    """the replay's stack limit raised (the coverage build is -O0: its frames are larger than the
    fuzzer's, and a deeply nested input that the fuzzer ran would overflow the default 8 MiB)"""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = 1 << 30 if hard == resource.RLIM_INFINITY else min(hard, 1 << 30)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_STACK, (want, hard))


def src_branches(build, reader, corpus, work):
    """the branches of the reader's own sources that replaying corpus takes,
    as (a set of "file:line:block:branch" with file relative to the source
    folder, the number of inputs whose replay failed).  The corpus is
    replayed in one process; if that process fails (an input that ends it
    writes no profile), each input is replayed in its own process and the
    profiles of those that end normally are merged."""
    replay = os.path.join(build, "fuzz", "ext", "ext_" + reader)
    src = reader_src(build, reader)
    raw = os.path.join(work, "srccov.profraw")
    data = os.path.join(work, "srccov.profdata")
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1", UBSAN_OPTIONS="halt_on_error=1",
               GGML_NO_BACKTRACE="1", TFS_EXT_ENGINE_VARIANT="1", LLVM_PROFILE_FILE=raw)
    for f in os.listdir(work):
        if f.startswith("srccov.") and f.endswith(".profraw"):
            os.remove(os.path.join(work, f))
    failed = 0
    with open(os.path.join(work, "srccov.log"), "w") as log:
        rc = subprocess.run([replay, corpus], stdout=log, stderr=subprocess.STDOUT, env=env,
                            preexec_fn=_big_stack).returncode
        raws = [raw]
        if rc != 0:
            if os.path.exists(raw):
                os.remove(raw)
            raws = []
            for i, name in enumerate(sorted(os.listdir(corpus))):
                one = os.path.join(work, "srccov.%d.profraw" % i)
                r = subprocess.run([replay, os.path.join(corpus, name)], stdout=log, stderr=subprocess.STDOUT,
                                   env=dict(env, LLVM_PROFILE_FILE=one), preexec_fn=_big_stack).returncode
                if r == 0 and os.path.exists(one):
                    raws.append(one)
                else:
                    failed += 1
                    if os.path.exists(one):
                        os.remove(one)
    raws = [r for r in raws if os.path.exists(r)]
    if not raws:
        return set(), failed
    subprocess.run([llvm_tool("llvm-profdata"), "merge", "-sparse"] + raws + ["-o", data], check=True)
    out = subprocess.run([llvm_tool("llvm-cov"), "export", "-format=lcov", "-instr-profile", data, replay],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    taken, cur = set(), None
    for line in out.splitlines():
        if line.startswith("SF:"):
            f = os.path.realpath(line[3:])
            cur = os.path.relpath(f, src) if src and f.startswith(src + os.sep) else None
        elif cur and line.startswith("BRDA:"):
            ln, blk, br, count = line[5:].split(",")
            if count not in ("-", "0"):
                taken.add("%s:%s:%s:%s" % (cur, ln, blk, br))
    return taken, failed


def count_branches(r, src_cov, reader, work):
    """r (a trial's result) gets the source branches of work/corpus"""
    taken, r["replay_failed"] = src_branches(src_cov, reader, os.path.join(work, "corpus"), work)
    r["branches"], r["branch_set"] = len(taken), sorted(taken)


def trial(binary, fmt, seconds, seed, nice, work, skip, seed_files=None, mix=0, src_cov=None, reader=None):
    corpus = os.path.join(work, "corpus")
    arts = os.path.join(work, "artifacts") + "/"
    os.makedirs(corpus)
    os.makedirs(arts)
    if seed_files:
        for i, p in enumerate(seed_files):
            shutil.copy(p, os.path.join(corpus, "%03d-%s" % (i, os.path.basename(p))))
    else:
        valid_seeds(fmt, corpus, skip)
    cmd = ["nice", "-n", str(nice), binary, "-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1",
           "-ignore_ooms=1", "-max_total_time=%d" % seconds, "-seed=%d" % seed, "-max_len=131072",
           "-timeout=10", "-rss_limit_mb=2560", "-artifact_prefix=" + arts, corpus]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="halt_on_error=1", GGML_NO_BACKTRACE="1",
               TFS_MUTATOR_TRACE=os.path.join(work, "trace-%p"), TFS_MUTATOR_MIX=str(mix))
    with open(os.path.join(work, "log"), "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=work,
                       timeout=seconds * 3 + 120)
    cov, first_crash, execs = 0, None, 0
    with open(os.path.join(work, "log"), errors="replace") as log:
        for line in log:
            m = STATUS.search(line)
            if m:
                cov = max(cov, int(m.group(2)))
                execs = int(m.group(1))
                if int(m.group(7)) > 0 and first_crash is None:
                    first_crash = int(m.group(8))
    crashes = sorted(f for f in os.listdir(arts) if f.startswith("crash-"))
    r = {"cov": cov, "first_crash_s": first_crash, "execs": execs, "crashes": len(crashes)}
    if src_cov:
        count_branches(r, src_cov, reader, work)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reader", choices=sorted(FORMAT))
    ap.add_argument("--seconds", type=int, default=600)
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "fuzz-ext"))
    ap.add_argument("--json")
    ap.add_argument("--keep", help="keep the trials' folders here")
    ap.add_argument("--seed-file", action="append", dest="seed_files", metavar="FILE",
                    help="start every trial from these files only (repeatable) instead of the valid seeds")
    ap.add_argument("--mix", type=int, default=0, help="percent of the structure-aware form's mutations made by libFuzzer's own mutator")
    ap.add_argument("--src-cov", metavar="DIR", help="a source-based coverage build of the replay programs")
    ap.add_argument("--recount", metavar="JSON", help="no fuzzing: count the source branches (--src-cov) of the "
                    "trials kept (--keep) by the run that wrote JSON, and report that run again")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)  # the trials run in their own folders
    if a.src_cov:
        a.src_cov = os.path.abspath(a.src_cov)
        if not os.access(os.path.join(a.src_cov, "fuzz", "ext", "ext_" + a.reader), os.X_OK):
            print("ext_cov: %s/fuzz/ext/ext_%s not built (docs/fuzzing.md)" % (a.src_cov, a.reader), file=sys.stderr)
            return 2
    if not 0 <= a.mix <= 100:
        print("ext_cov: --mix takes 0..100", file=sys.stderr)
        return 2
    forms = {"plain": "ext_%s_fuzzer" % a.reader, "sa": "ext_%s_sa_fuzzer" % a.reader}
    for b in forms.values():
        if not os.access(os.path.join(a.build, "fuzzers", b), os.X_OK):
            print("ext_cov: %s/fuzzers/%s not built (docs/fuzzing-third-party.md)" % (a.build, b), file=sys.stderr)
            return 2
    if a.recount:
        if not (a.keep and a.src_cov):
            print("ext_cov: --recount needs --keep (the kept trials) and --src-cov", file=sys.stderr)
            return 2
        with open(a.recount) as f:
            old = json.load(f)
        a.seconds, a.trials = old["seconds"], old["trials"]
        a.mix = old.get("mix", 0)
        for form in forms:
            for t, r in enumerate(old[form], 1):
                count_branches(r, a.src_cov, a.reader, os.path.join(a.keep, "%s-%d" % (form, t)))
                print("%s trial %d: %d source branches (%d inputs whose replay failed)"
                      % (form, t, r["branches"], r["replay_failed"]), flush=True)
        return report(a, old["plain"], old["sa"])
    results = {f: [None] * a.trials for f in forms}
    base = a.keep or tempfile.mkdtemp(prefix="tfs-ext-cov-")
    skip = known(a.reader)
    lock = threading.Lock()

    def one(job):
        t, form = job
        work = os.path.join(base, "%s-%d" % (form, t))
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        r = trial(os.path.join(a.build, "fuzzers", forms[form]), FORMAT[a.reader], a.seconds, t, a.nice, work, skip,
                  [os.path.abspath(f) for f in a.seed_files or []], a.mix if form == "sa" else 0, a.src_cov, a.reader)
        with lock:
            results[form][t - 1] = r
            print("%s trial %d: %d edges%s, %d execs, first crash %s s, %d crash files"
                  % (form, t, r["cov"], ", %d source branches" % r["branches"] if "branches" in r else "", r["execs"],
                     r["first_crash_s"] if r["first_crash_s"] is not None else "-", r["crashes"]), flush=True)

    # forms alternate (trial 1 plain, trial 1 sa, trial 2 plain, ...): with
    # --jobs 2 the two forms of one trial number run at the same time
    jobs = [(t, form) for t in range(1, a.trials + 1) for form in forms]
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        list(ex.map(one, jobs))
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    return report(a, results["plain"], results["sa"])


def report(a, plain, sa):
    """print the comparison of the two forms' trials (and write --json)"""
    p = [r["cov"] for r in plain]
    s = [r["cov"] for r in sa]
    u, pv = stats.mann_whitney_u(s, p)
    summary = {"reader": a.reader, "seconds": a.seconds, "trials": a.trials, "plain": plain,
               "sa": sa, "median_plain": stats.median(p), "median_sa": stats.median(s), "U": u,
               "p": pv, "A12": stats.a12(s, p)}
    print("%s, %d s x %d trials: reader edges plain median %g %s, structure-aware median %g %s; "
          "Mann-Whitney U %g, p = %.4f, A12 = %.2f"
          % (a.reader, a.seconds, a.trials, summary["median_plain"], p, summary["median_sa"], s, u, pv, summary["A12"]))
    if a.src_cov:
        pb = [r["branches"] for r in plain]
        sb = [r["branches"] for r in sa]
        ub, pvb = stats.mann_whitney_u(sb, pb)
        up = set().union(*(r["branch_set"] for r in plain))
        us = set().union(*(r["branch_set"] for r in sa))
        summary.update({"branches_plain": pb, "branches_sa": sb, "branches_U": ub, "branches_p": pvb,
                        "branches_A12": stats.a12(sb, pb), "branches_only_plain": sorted(up - us),
                        "branches_only_sa": sorted(us - up)})
        print("reader source branches: plain median %g %s, structure-aware median %g %s; Mann-Whitney U %g, "
              "p = %.4f, A12 = %.2f; over all trials %d plain, %d structure-aware; only plain: %s; only "
              "structure-aware: %s" % (stats.median(pb), pb, stats.median(sb), sb, ub, pvb, summary["branches_A12"],
                                       len(up), len(us), " ".join(sorted(up - us)) or "-",
                                       " ".join(sorted(us - up)) or "-"))
    if a.mix:
        summary["mix"] = a.mix
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
