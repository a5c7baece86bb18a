#!/usr/bin/env bash
# fuzz/coverage.sh [BUILD_DIR]: what the fuzz corpora cover.
# Builds the replay form of every fuzz target with clang's source-based
# coverage (-fprofile-instr-generate -fcoverage-mapping) in BUILD_DIR
# (default build/coverage), runs each over its seed corpus
# (fuzz/seeds/FORMAT.list) and crashers (fuzz/crashers/TARGET/) plus any
# folders in $TFS_COVERAGE_EXTRA_<format> (gguf, safetensors; e.g. a corpus a
# fuzzer grew), and prints:
#   1. per format, line and branch coverage per file of parsers/core and the
#      format's parser folder (llvm-cov report over all targets of the format);
#   2. per target, the totals of those files;
#   3. rule coverage per format: rules the corpus triggers (some target
#      reported it, in any profile: the replay main's --rules), rules it only
#      reaches (a source line naming the rule ran, the rule never fired), and
#      rules never reached.  Retired rules are left out.
# Needs clang, llvm-profdata, llvm-cov (LLVM 14).  Exit 0 unless a step fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/coverage}
flags="-fprofile-instr-generate -fcoverage-mapping"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" \
    -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_TOOLS=OFF -DTFS_BUILD_BENCH=OFF -DTFS_INSTALL=OFF > "$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; exit 1; }
targets=()
for short in gguf st; do
    for kind in buffer source strict roundtrip diff; do targets+=("fuzz_${short}_$kind"); done
done
cmake --build "$build" -j "$(nproc 2> /dev/null || echo 2)" --target "${targets[@]}" > "$build.build.log" 2>&1 ||
    { tail -30 "$build.build.log"; exit 1; }

prof=$build/profiles
rm -rf "$prof"
mkdir -p "$prof"
for fmt in gguf safetensors; do
    short=gguf
    [[ $fmt == safetensors ]] && short=st
    seeds=()
    while IFS= read -r rel; do
        [[ -z $rel || $rel == \#* ]] && continue
        [[ -d $root/$rel ]] && seeds+=("$root/$rel")
    done < "$root/fuzz/seeds/$fmt.list"
    extra_var=TFS_COVERAGE_EXTRA_$fmt
    for d in ${!extra_var:-}; do seeds+=("$d"); done
    srcs=("$root/parsers/core" "$root/parsers/$fmt" "$root/parsers/api.c") # the format's parser, the core it uses, the dispatch
    objects=()
    for kind in buffer source strict roundtrip diff; do
        t=fuzz_${short}_$kind
        bin=$build/fuzz/$t
        LLVM_PROFILE_FILE=$prof/$t.profraw "$bin" --quiet --rules "${seeds[@]}" "$root/fuzz/crashers/$t" \
            > "$prof/$t.rules" 2> "$prof/$t.log"
        llvm-profdata merge -sparse "$prof/$t.profraw" -o "$prof/$t.profdata"
        objects+=("$bin")
    done
    llvm-profdata merge -sparse "$prof"/fuzz_"${short}"_*.profraw -o "$prof/$fmt.profdata"
    echo "== $fmt: line and branch coverage of parsers/core and parsers/$fmt by the corpus (all $fmt targets)"
    obj_args=()
    for o in "${objects[@]:1}"; do obj_args+=(-object "$o"); done
    llvm-cov report "${objects[0]}" "${obj_args[@]}" -instr-profile="$prof/$fmt.profdata" \
        -show-branch-summary -show-region-summary=false -show-functions=false "${srcs[@]}" |
        sed "s|$root/||"
    echo
    echo "== $fmt: per target, parsers/core + parsers/$fmt total (lines, branches)"
    for o in "${objects[@]}"; do
        t=$(basename "$o")
        llvm-cov report "$o" -instr-profile="$prof/$t.profdata" -show-branch-summary \
            -show-region-summary=false "${srcs[@]}" |
            awk -v t="$t" '/^TOTAL/ {printf "%-22s lines %s  branches %s\n", t, $(NF-3), $NF}'
    done
    echo
    # source lines per rule id that ran (any target of the format)
    llvm-cov show "${objects[0]}" "${obj_args[@]}" -instr-profile="$prof/$fmt.profdata" \
        -show-line-counts -use-color=false "${srcs[@]}" > "$prof/$fmt.show.txt"
    /usr/bin/python3 - "$prof" "$fmt" "$short" "$root/include/tfs/rules.def" << 'PY'
import glob, re, sys
prof, fmt, short, rules_def = sys.argv[1:5]
prefix = "GG" if fmt == "gguf" else "ST"
rules = []
for line in open(rules_def):
    m = re.match(r"TFS_RULE\((\w+), *\d+, *(\w+), *(\w+),", line)
    if m and m.group(2) == prefix and m.group(3) != "RETIRED":
        rules.append(m.group(1))
triggered = {}
for path in glob.glob("%s/fuzz_%s_*.rules" % (prof, short)):
    target = path.rsplit("/", 1)[1][:-6]
    for line in open(path):
        _, rid, count = line.split()
        if int(count) > 0:
            triggered.setdefault(rid, []).append(target)
reached = set()
# llvm-cov show lines: "  NN|  COUNT|source"; COUNT may be 1.2k; empty when not code
for line in open("%s/%s.show.txt" % (prof, fmt)):
    parts = line.split("|", 2)
    if len(parts) < 3:
        continue
    count = parts[1].strip()
    if not count or count == "0":
        continue
    for rid in re.findall(r"TFS_((?:GG|ST)\d{3})", parts[2]):
        reached.add(rid)
trig = [r for r in rules if r in triggered]
only_reached = [r for r in rules if r not in triggered and r in reached]
never = [r for r in rules if r not in triggered and r not in reached]
print("== %s: rule coverage: %d rules (retired left out), %d triggered, %d reached but never triggered, %d never reached"
      % (fmt, len(rules), len(trig), len(only_reached), len(never)))
print("triggered:       " + " ".join(trig))
print("reached only:    " + (" ".join(only_reached) or "-"))
print("never reached:   " + (" ".join(never) or "-"))
print()
PY
done
