#!/usr/bin/python3
"""mutator_speed.py: executions per second of libFuzzer targets, plain against
structure-aware (the tfs mutator linked in), side by side in one run,
alternating.

    bench/fuzz/mutator_speed.py [--seconds S] [--rounds R] [--mix P]
        [--prefix DIR] [--ggml-build DIR] [--seeds DIR] [--json FILE]

Targets:
  toy   examples/fuzz_target/toy_fuzzer.c, a ten-line GGUF reader; with
        --prefix DIR (an installed tfs: cmake --install build/release
        --prefix DIR) the structure-aware binary is built from
        examples/fuzz_target as an outside project (find_package(tfs),
        tfs::mutator_libfuzzer) and the plain one from the same source with
        clang -fsanitize=fuzzer,address alone.  Runs in one process,
        exec/s = stat::number_of_executed_units / S.
  ggml  ggml's gguf.cpp: fuzzers/ext_ggml_gguf_fuzzer and
        ext_ggml_gguf_sa_fuzzer of --ggml-build DIR (docs/fuzzing-third-party.md;
        a build with -DTFS_EXT_NO_SANITIZE=enum,signed-integer-overflow).  Its
        known crashes would end a run, so it runs as bench/fuzz/ext_cov.py does:
        -fork=1 -ignore_crashes=1; exec/s = the last status line's executions /
        its time.
Each round runs the plain then the structure-aware form of each target (the
order flips every round) for S seconds (default 10) from a fresh corpus holding
copies of the seeds, -max_len=131072, -seed=round.  Seeds: the toy's --seeds
(default corpus/real/gguf); ggml's --ggml-seeds, default "race": the seeds of
bench/fuzz/ext_cov.py (the valid GGUF fixtures and the real files up to
128 KiB, without the reader's known findings); or a folder.
Prints every run, the median exec/s per form, structure-aware / plain, and the
load average before and after; --json writes the same.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

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


def run_one(binary, fork, seconds, seed, seeds, work, mix):
    corpus = os.path.join(work, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.copytree(seeds, corpus)
    arts = os.path.join(work, "artifacts") + "/"
    shutil.rmtree(arts, ignore_errors=True)
    os.makedirs(arts)
    cmd = [binary, "-max_total_time=%d" % seconds, "-seed=%d" % seed, "-max_len=131072", "-timeout=10",
           "-rss_limit_mb=2560", "-print_final_stats=1", "-artifact_prefix=" + arts]
    if fork:
        cmd += ["-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"]
    cmd.append(corpus)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0", UBSAN_OPTIONS="halt_on_error=1",
               GGML_NO_BACKTRACE="1", TFS_MUTATOR_MIX=str(mix))
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=work, text=True,
                         errors="replace", timeout=seconds * 3 + 120).stdout
    if fork:
        last = None
        for m in STATUS.finditer(out):
            last = m
        if not last or int(last.group(8)) == 0:
            raise RuntimeError("%s: no status line with a time in its output" % binary)
        return int(last.group(1)) / int(last.group(8)), int(last.group(1))
    m = UNITS.search(out)
    if not m:
        raise RuntimeError("%s: no final stats (did it crash?)\n%s" % (binary, out[-2000:]))
    return int(m.group(1)) / seconds, int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mix", type=int, default=0, help="TFS_MUTATOR_MIX for the structure-aware runs (0..100)")
    ap.add_argument("--prefix", help="installed tfs: build and run the toy target")
    ap.add_argument("--ggml-build", help="build folder with fuzzers/ext_ggml_gguf_fuzzer and _sa_fuzzer")
    ap.add_argument("--seeds", default=os.path.join(ROOT, "corpus", "real", "gguf"), help="the toy's seeds")
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
            gseeds = os.path.join(work, "ggml-seeds")
            os.makedirs(gseeds)
            ext_cov.valid_seeds("gguf", gseeds, ext_cov.known("ggml_gguf"))
        targets.append(("ggml", os.path.join(fz, "ext_ggml_gguf_fuzzer"), os.path.join(fz, "ext_ggml_gguf_sa_fuzzer"),
                        True, gseeds))
    if not targets:
        ap.error("nothing to run: --prefix and/or --ggml-build")
    res = {"seconds": a.seconds, "rounds": a.rounds, "mix": a.mix, "seeds": os.path.relpath(a.seeds, ROOT),
           "ggml_seeds": a.ggml_seeds if a.ggml_seeds == "race" else os.path.relpath(a.ggml_seeds, ROOT),
           "load_before": os.getloadavg(), "targets": {}}
    print("load average before: %.2f %.2f %.2f" % os.getloadavg(), flush=True)
    for name, plain, sa, fork, seeds in targets:
        runs = {"plain": [], "sa": []}
        for r in range(a.rounds):
            order = [("plain", plain), ("sa", sa)]
            if r % 2:
                order.reverse()
            for form, binary in order:
                rate, execs = run_one(binary, fork, a.seconds, r + 1, seeds, work, a.mix if form == "sa" else 0)
                runs[form].append(rate)
                print("%s round %d %s: %d executions, %.0f exec/s" % (name, r + 1, form, execs, rate), flush=True)
        p, s = statistics.median(runs["plain"]), statistics.median(runs["sa"])
        res["targets"][name] = {"plain": runs["plain"], "sa": runs["sa"], "plain_median": p, "sa_median": s,
                                "ratio": s / p if p else 0}
    res["load_after"] = os.getloadavg()
    print("load average after: %.2f %.2f %.2f" % res["load_after"])
    print("\n| target | plain exec/s (median) | structure-aware exec/s (median) | structure-aware / plain |")
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
