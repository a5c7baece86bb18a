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


def trial(binary, fmt, seconds, seed, nice, work, skip):
    corpus = os.path.join(work, "corpus")
    arts = os.path.join(work, "artifacts") + "/"
    os.makedirs(corpus)
    os.makedirs(arts)
    valid_seeds(fmt, corpus, skip)
    cmd = ["nice", "-n", str(nice), binary, "-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1",
           "-ignore_ooms=1", "-max_total_time=%d" % seconds, "-seed=%d" % seed, "-max_len=131072",
           "-timeout=10", "-rss_limit_mb=2560", "-artifact_prefix=" + arts, corpus]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="halt_on_error=1", GGML_NO_BACKTRACE="1",
               TFS_MUTATOR_TRACE=os.path.join(work, "trace-%p"))
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
    return {"cov": cov, "first_crash_s": first_crash, "execs": execs, "crashes": len(crashes)}


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
    a = ap.parse_args()
    forms = {"plain": "ext_%s_fuzzer" % a.reader, "sa": "ext_%s_sa_fuzzer" % a.reader}
    for b in forms.values():
        if not os.access(os.path.join(a.build, "fuzzers", b), os.X_OK):
            print("ext_cov: %s/fuzzers/%s not built (docs/fuzzing-third-party.md)" % (a.build, b), file=sys.stderr)
            return 2
    results = {f: [None] * a.trials for f in forms}
    base = a.keep or tempfile.mkdtemp(prefix="tfs-ext-cov-")
    skip = known(a.reader)
    lock = threading.Lock()

    def one(job):
        t, form = job
        work = os.path.join(base, "%s-%d" % (form, t))
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        r = trial(os.path.join(a.build, "fuzzers", forms[form]), FORMAT[a.reader], a.seconds, t, a.nice, work, skip)
        with lock:
            results[form][t - 1] = r
            print("%s trial %d: %d edges, %d execs, first crash %s s, %d crash files"
                  % (form, t, r["cov"], r["execs"], r["first_crash_s"] if r["first_crash_s"] is not None else "-",
                     r["crashes"]), flush=True)

    # forms alternate (trial 1 plain, trial 1 sa, trial 2 plain, ...): with
    # --jobs 2 the two forms of one trial number run at the same time
    jobs = [(t, form) for t in range(1, a.trials + 1) for form in forms]
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        list(ex.map(one, jobs))
    if not a.keep:
        shutil.rmtree(base, ignore_errors=True)
    p = [r["cov"] for r in results["plain"]]
    s = [r["cov"] for r in results["sa"]]
    u, pv = stats.mann_whitney_u(s, p)
    summary = {"reader": a.reader, "seconds": a.seconds, "trials": a.trials, "plain": results["plain"],
               "sa": results["sa"], "median_plain": stats.median(p), "median_sa": stats.median(s), "U": u,
               "p": pv, "A12": stats.a12(s, p)}
    print("%s, %d s x %d trials: reader edges plain median %g %s, structure-aware median %g %s; "
          "Mann-Whitney U %g, p = %.4f, A12 = %.2f"
          % (a.reader, a.seconds, a.trials, summary["median_plain"], p, summary["median_sa"], s, u, pv, summary["A12"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
