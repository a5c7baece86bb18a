#!/usr/bin/python3
"""mutator_speed.py: executions per second of libFuzzer targets, plain against
structure-aware (the tfs mutator linked in), side by side in one run,
alternating.

    bench/fuzz/mutator_speed.py [--seconds S | --runs N] [--rounds R] [--mix P]
        [--prefix DIR] [--ggml-build DIR] [--ggml-fork] [--seeds DIR] [--json FILE]

Targets:
  toy   examples/fuzz_target/toy_fuzzer.c, a ten-line GGUF reader; with
        --prefix DIR (an installed tfs: cmake --install build/release
        --prefix DIR) the structure-aware binary is built from
        examples/fuzz_target as an outside project (find_package(tfs),
        tfs::mutator_libfuzzer) and the plain one from the same source with
        clang -fsanitize=fuzzer,address alone.
  ggml  ggml's gguf.cpp: fuzzers/ext_ggml_gguf_fuzzer and
        ext_ggml_gguf_sa_fuzzer of --ggml-build DIR (docs/fuzzing-third-party.md),
        a measurement build (-DTFS_EXT_NO_SANITIZE=enum,signed-integer-overflow):
        its harness then runs an input that declares more tensor data than it
        holds in ggml's metadata mode (the known finding of ggml's data mode,
        docs/findings.md, would end the run), in both forms alike, so ggml runs
        in one process like the toy.  --ggml-fork runs it as
        bench/fuzz/ext_cov.py does instead (-fork=1 -ignore_crashes=1;
        executions = the last status line's, which counts finished jobs only;
        time = its time, which includes the merge processes after each job
        and the jobs' replay of their seeds): a figure of the job schedule
        more than of the executions, for comparison with older figures.
Each round runs the plain then the structure-aware form of each target (the
order flips every round) from a fresh corpus holding copies of the seeds,
-max_len=131072, -seed=round: for S seconds (default 10; exec/s = executions
/ S), or with --runs N for N executions (-runs=N; the figure is then
executions per CPU second of the fuzzer process, user + system, which the
load of other processes does not change).  Every run also prints its CPU
time per execution (microseconds; in fork mode the CPU of all its processes
over the executions counted) and the size of the corpus it grew (files, median
and largest bytes, files of 64 KiB or more); fork mode adds the number of
jobs and of jobs a crash, timeout or OOM ended.  Seeds: the toy's --seeds (default
corpus/real/gguf); ggml's --ggml-seeds, default "race": the seeds of
bench/fuzz/ext_cov.py (the valid GGUF fixtures and the real files up to
128 KiB, without the reader's known findings); or a folder.
Prints every run, the median rate per form, structure-aware / plain, and the
load average before and after; --json writes the same.
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STATUS = re.compile(r"#(\d+): cov: (\d+) ft: (\d+) corp: \d+ exec/s:? ?(\d+) oom/timeout/crash: (\d+)/(\d+)/(\d+) "
                    r"time: (\d+)s")
UNITS = re.compile(r"stat::number_of_executed_units: (\d+)")


def build_toy(prefix, work):
    """(plain, structure-aware) toy binaries built against the installed tfs"""
    src = os.path.join(ROOT, "examples", "fuzz_target")
    bdir = os.path.join(work, "toy-build")
    subprocess.run(["cmake", "-S", src, "-B", bdir, "-DCMAKE_C_COMPILER=clang", "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_PREFIX_PATH=" + os.path.abspath(prefix)], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", bdir, "--target", "toy_fuzzer"], check=True, stdout=subprocess.DEVNULL)
    plain = os.path.join(work, "toy_plain")
    subprocess.run(["clang", "-O2", "-fsanitize=fuzzer,address", os.path.join(src, "toy_fuzzer.c"), "-o", plain],
                   check=True)
    return plain, os.path.join(bdir, "toy_fuzzer")


def corpus_sizes(corpus):
    """(files, median bytes, largest bytes, files of 64 KiB or more) of a corpus folder"""
    sizes = sorted(os.path.getsize(os.path.join(corpus, f)) for f in os.listdir(corpus))
    return (len(sizes), (statistics.median(sizes) if sizes else 0), (sizes[-1] if sizes else 0),
            sum(1 for x in sizes if x >= 65536))


def run_one(binary, fork, seconds, runs, seed, seeds, work, mix):
    """one run: a dict with execs, seconds (wall), cpu (user + system of the
    fuzzer and its children, seconds), rate and the grown corpus's sizes"""
    corpus = os.path.join(work, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.copytree(seeds, corpus)
    arts = os.path.join(work, "artifacts") + "/"
    shutil.rmtree(arts, ignore_errors=True)
    os.makedirs(arts)
    cmd = [binary, "-seed=%d" % seed, "-max_len=131072", "-timeout=10", "-rss_limit_mb=2560", "-print_final_stats=1",
           "-artifact_prefix=" + arts]
    cmd.append("-runs=%d" % runs if runs else "-max_total_time=%d" % seconds)
    if fork:
        cmd += ["-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"]
    cmd.append(corpus)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0", UBSAN_OPTIONS="halt_on_error=1",
               GGML_NO_BACKTRACE="1", TFS_MUTATOR_MIX=str(mix))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=work, text=True,
                         errors="replace", timeout=(seconds * 3 + 120) if not runs else None).stdout
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    crashed = "ERROR:" in out and not fork
    jobs = crashes = 0
    if fork:
        last = None
        for m in STATUS.finditer(out):
            last = m
        if not last or int(last.group(8)) == 0:
            raise RuntimeError("%s: no status line with a time in its output" % binary)
        execs, secs = int(last.group(1)), int(last.group(8))
        crashes = int(last.group(5)) + int(last.group(6)) + int(last.group(7))
        jobs = max([int(j) for j in re.findall(r" job: (\d+) ", out)] or [0])
    else:
        m = UNITS.search(out)
        if not m:
            raise RuntimeError("%s: no final stats\n%s" % (binary, out[-2000:]))
        execs, secs = int(m.group(1)), seconds
    files, median, largest, large = corpus_sizes(corpus)
    return {"execs": execs, "wall": wall, "cpu": cpu, "crashed": crashed, "jobs": jobs, "job_crashes": crashes,
            "corpus_files_64k": large,
            "rate": execs / cpu if runs else execs / secs, "cpu_us_per_exec": cpu / execs * 1e6 if execs else 0,
            "corpus_files": files, "corpus_median_bytes": median, "corpus_largest_bytes": largest}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=int, default=10, help="seconds per run (default 10)")
    ap.add_argument("--runs", type=int, default=0,
                    help="executions per run instead (-runs=N): the rate is executions per CPU second")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mix", type=int, default=0, help="TFS_MUTATOR_MIX for the structure-aware runs (0..100)")
    ap.add_argument("--prefix", help="installed tfs: build and run the toy target")
    ap.add_argument("--ggml-build", help="build folder with fuzzers/ext_ggml_gguf_fuzzer and _sa_fuzzer")
    ap.add_argument("--seeds", default=os.path.join(ROOT, "corpus", "real", "gguf"), help="the toy's seeds")
    ap.add_argument("--ggml-fork", action="store_true",
                    help="run ggml in libFuzzer's fork mode (-fork=1 -ignore_crashes=1) as ext_cov.py does")
    ap.add_argument("--ggml-seeds", default="race", help="ggml's seeds: race (ext_cov.py's) or a folder")
    ap.add_argument("--json")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="tfs-mutspeed-")
    targets = []
    if a.prefix:
        plain, sa = build_toy(os.path.abspath(a.prefix), work)
        targets.append(("toy", plain, sa, False, a.seeds))
    if a.ggml_build:
        fz = os.path.join(os.path.abspath(a.ggml_build), "fuzzers")
        gseeds = a.ggml_seeds
        if gseeds == "race":
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import ext_cov
            gseeds = ext_cov.ggml_race_seeds(work)
        targets.append(("ggml", os.path.join(fz, "ext_ggml_gguf_fuzzer"), os.path.join(fz, "ext_ggml_gguf_sa_fuzzer"),
                        a.ggml_fork, gseeds))
    if not targets:
        ap.error("nothing to run: --prefix and/or --ggml-build")
    res = {"seconds": a.seconds, "runs": a.runs, "ggml_fork": a.ggml_fork, "rounds": a.rounds, "mix": a.mix, "seeds": os.path.relpath(a.seeds, ROOT),
           "ggml_seeds": a.ggml_seeds if a.ggml_seeds == "race" else os.path.relpath(a.ggml_seeds, ROOT),
           "load_before": os.getloadavg(), "targets": {}}
    print("load average before: %.2f %.2f %.2f" % os.getloadavg(), flush=True)
    unit = "executions per CPU second" if a.runs else "exec/s"
    for name, plain, sa, fork, seeds in targets:
        runs = {"plain": [], "sa": []}
        for r in range(a.rounds):
            order = [("plain", plain), ("sa", sa)]
            if r % 2:
                order.reverse()
            for form, binary in order:
                r1 = run_one(binary, fork, a.seconds, a.runs, r + 1, seeds, work, a.mix if form == "sa" else 0)
                runs[form].append(r1)
                print("%s round %d %s: %d executions, %.0f %s, %.1f us CPU per execution, corpus %d files "
                      "(median %d bytes, largest %d, %d of 64 KiB or more)%s%s" %
                      (name, r + 1, form, r1["execs"], r1["rate"], unit, r1["cpu_us_per_exec"], r1["corpus_files"],
                       r1["corpus_median_bytes"], r1["corpus_largest_bytes"], r1["corpus_files_64k"],
                       ", %d fork jobs, %d ended by a crash, timeout or OOM" % (r1["jobs"], r1["job_crashes"])
                       if fork else "", ", CRASHED" if r1["crashed"] else ""), flush=True)
        p = statistics.median(x["rate"] for x in runs["plain"])
        s = statistics.median(x["rate"] for x in runs["sa"])
        res["targets"][name] = {"plain": runs["plain"], "sa": runs["sa"], "plain_median": p, "sa_median": s,
                                "ratio": s / p if p else 0, "fork": fork}
    res["load_after"] = os.getloadavg()
    print("load average after: %.2f %.2f %.2f" % res["load_after"])
    print("\n| target | plain %s (median) | structure-aware %s (median) | structure-aware / plain |" % (unit, unit))
    print("|---|---:|---:|---:|")
    for name, t in res["targets"].items():
        print("| %s | %.0f | %.0f | %.3f |" % (name, t["plain_median"], t["sa_median"], t["ratio"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
