#!/usr/bin/python3
"""exec_profile.py: where one execution of ggml's gguf.cpp fuzzer spends its
CPU, plain libFuzzer against structure-aware (the tfs mutator linked in), and
the sizes of the inputs each form executes.

    bench/fuzz/exec_profile.py --ggml-build DIR [--runs N] [--seeds 1,2,3]
        [--ggml-seeds DIR] [--no-sizes] [--json FILE]

For each libFuzzer seed and form (plain, then structure-aware), one process
runs -runs=N (default 50000) from a fresh copy of the seeds of
bench/fuzz/mutator_speed.py (the race's: bench/fuzz/ext_cov.py's valid GGUF
fixtures and real files up to 128 KiB), -max_len=131072, under
`perf record --call-graph dwarf`; the table gives the inclusive share of the
CPU samples of each part of an execution: ggml's parse, the harness's
metadata write-back (gguf_get_meta_size / gguf_get_meta_data), the tfs
mutator (LLVMFuzzerCustomMutator + LLVMFuzzerCustomCrossOver, split into the
parse-model-write path and the quick edits), libFuzzer's coverage
collection and corpus writes, and page faults.  Unless --no-sizes, a second
run of each with a uprobe on tfs_ext_run (`perf probe`) records the size of
every executed input: median, mean, 99th percentile, largest, and the share
at exactly 4,096 bytes (the mutator's minimum output budget) and at
131,072 (max_len, the full budget one tfs_mutate call in 16 may use).
--ggml-build DIR: a measurement build (docs/fuzzing.md, "Cost of the
structure-aware form": -DTFS_EXT_NO_SANITIZE=enum,signed-integer-overflow),
whose harness keeps ggml's known data-mode finding from ending the run.
Needs perf with uprobes and dwarf unwinding (root, or perf_event_paranoid
<= 1); the probes it adds are removed at the end.  Prints a Markdown table;
--json writes the figures.
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

# (label, functions whose inclusive shares add up)
PARTS = [
    ("fuzzing loop (fuzzer::Fuzzer::Loop)", ["fuzzer::Fuzzer::Loop"]),
    ("target (LLVMFuzzerTestOneInput)", ["LLVMFuzzerTestOneInput"]),
    ("- ggml parse (gguf_init_from_buffer, _file_ptr)", ["gguf_init_from_buffer", "gguf_init_from_file_ptr"]),
    ("- metadata write-back (gguf_get_meta_size, _data)", ["gguf_get_meta_size", "gguf_get_meta_data"]),
    ("mutator (LLVMFuzzerCustomMutator, LLVMFuzzerCustomCrossOver)",
     ["LLVMFuzzerCustomMutator", "LLVMFuzzerCustomCrossOver"]),
    ("- tfs_mutate, tfs_crossover (parse, model, write)", ["tfs_mutate", "tfs_crossover"]),
    ("- tfs_mutate_quick, tfs_crossover_quick", ["tfs_mutate_quick", "tfs_crossover_quick"]),
    ("libFuzzer coverage collection (TracePC::CollectFeatures)", ["fuzzer::TracePC::CollectFeatures"]),
    ("libFuzzer corpus writes (WriteToOutputCorpus)", ["fuzzer::Fuzzer::WriteToOutputCorpus"]),
    ("libFuzzer seed replay (ReadAndExecuteSeedCorpora)", ["fuzzer::Fuzzer::ReadAndExecuteSeedCorpora"]),
    ("page faults (asm_exc_page_fault)", ["asm_exc_page_fault"]),
]
REPORT_LINE = re.compile(r"\s*([\d.]+)%\s+[\d.]+%\s+\[.\]\s+(.*?)\s*$")
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0", UBSAN_OPTIONS="halt_on_error=1",
           GGML_NO_BACKTRACE="1", TFS_MUTATOR_MIX="0")


def shares(report):
    """function name (no arguments or template) -> largest inclusive share"""
    d = {}
    for line in report.splitlines():
        m = REPORT_LINE.match(line)
        if not m:
            continue
        name = re.sub(r"(\s+-)+\s*$", "", m.group(2))
        name = name.split("(")[0].split("<")[0].split("[")[0].strip()
        d[name] = max(d.get(name, 0.0), float(m.group(1)))
    return d


def fuzz_cmd(binary, seed, runs, corpus):
    return [binary, "-runs=%d" % runs, "-seed=%d" % seed, "-max_len=131072", "-timeout=10", "-rss_limit_mb=2560",
            corpus]


def fresh(seeds, work):
    corpus = os.path.join(work, "corpus")
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.copytree(seeds, corpus)
    return corpus


def profile(binary, seed, runs, seeds, work):
    data = os.path.join(work, "perf.data")
    subprocess.run(["perf", "record", "-q", "-F", "400", "--call-graph", "dwarf,16384", "-o", data] +
                   fuzz_cmd(binary, seed, runs, fresh(seeds, work)), env=ENV, cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rep = subprocess.run(["perf", "report", "-i", data, "--children", "--sort", "symbol", "-g", "none"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace").stdout
    os.remove(data)
    d = shares(rep)
    return {label: sum(d.get(f, 0.0) for f in funcs) for label, funcs in PARTS}


def sizes(binary, event, seed, runs, seeds, work):
    data = os.path.join(work, "sizes.data")
    subprocess.run(["perf", "record", "-q", "-e", event, "-o", data] + fuzz_cmd(binary, seed, runs, fresh(seeds, work)),
                   env=ENV, cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run(["perf", "script", "-i", data, "-F", "trace"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    os.remove(data)
    v = sorted(int(x) for x in re.findall(r"size=(\d+)", out))
    if not v:
        raise RuntimeError("%s: no probe hits" % binary)
    return {"executions": len(v), "median": statistics.median(v), "mean": sum(v) / len(v),
            "p99": v[int(len(v) * 0.99)], "largest": v[-1], "at_4096": v.count(4096) / len(v),
            "at_131072": v.count(131072) / len(v)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ggml-build", required=True, help="build folder with fuzzers/ext_ggml_gguf_fuzzer and _sa_fuzzer")
    ap.add_argument("--runs", type=int, default=50000, help="executions per run (default 50000)")
    ap.add_argument("--seeds", default="1,2,3", help="libFuzzer -seed values, comma-separated (default 1,2,3)")
    ap.add_argument("--ggml-seeds", default="race", help="seed corpus: race (ext_cov.py's) or a folder")
    ap.add_argument("--no-sizes", action="store_true", help="skip the input-size runs (no uprobes)")
    ap.add_argument("--json")
    a = ap.parse_args()
    fz = os.path.join(os.path.abspath(a.ggml_build), "fuzzers")
    forms = [("plain", os.path.join(fz, "ext_ggml_gguf_fuzzer")), ("sa", os.path.join(fz, "ext_ggml_gguf_sa_fuzzer"))]
    for _, b in forms:
        if not os.access(b, os.X_OK):
            ap.error("%s: not built" % b)
    work = tempfile.mkdtemp(prefix="tfs-execprof-")
    seeds = a.ggml_seeds
    if seeds == "race":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import ext_cov
        seeds = ext_cov.ggml_race_seeds(work)
    events = {}
    try:
        if not a.no_sizes:
            for form, b in forms:
                name = "tfsprof_" + form
                subprocess.run(["perf", "probe", "-q", "-x", b, "-a", "%s=tfs_ext_run size=%%si:u64" % name], check=True)
                events[form] = "probe_%s:%s" % (re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(b)), name)
        res = {"runs": a.runs, "profile": {}, "sizes": {}}
        for seed in [int(s) for s in a.seeds.split(",")]:
            for form, b in forms:
                key = "%s seed %d" % (form, seed)
                res["profile"][key] = profile(b, seed, a.runs, seeds, work)
                print("%s: profiled" % key, file=sys.stderr, flush=True)
                if events:
                    res["sizes"][key] = sizes(b, events[form], seed, a.runs, seeds, work)
    finally:
        for ev in events.values():
            subprocess.run(["perf", "probe", "-q", "-d", ev], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)
    keys = list(res["profile"])
    print("| part (inclusive share of CPU samples, %d executions) | %s |" % (a.runs, " | ".join(keys)))
    print("|---|" + "---:|" * len(keys))
    for label, _ in PARTS:
        print("| %s | %s |" % (label, " | ".join("%.1f%%" % res["profile"][k][label] for k in keys)))
    if res["sizes"]:
        print("\n| form, seed | median bytes | mean bytes | 99th percentile | largest | at 4,096 | at 131,072 |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for k, s in res["sizes"].items():
            print("| %s | %d | %.0f | %d | %d | %.2f%% | %.2f%% |" %
                  (k, s["median"], s["mean"], s["p99"], s["largest"], 100 * s["at_4096"], 100 * s["at_131072"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
