#!/usr/bin/env bash
# ci/oss-fuzz-emulate.sh [SECONDS]: runs ci/oss-fuzz/build.sh as OSS-Fuzz
# would, without Docker: the OSS-Fuzz variables ($CC $CXX $CFLAGS $CXXFLAGS
# $LIB_FUZZING_ENGINE $FUZZING_ENGINE $SRC $OUT $WORK) are set by hand.
#   1. libFuzzer + ASan + UBSan (clang, -fsanitize=fuzzer): every binary in
#      $OUT has more than 100 instrumented edges (libFuzzer's "N inline 8-bit
#      counters") and fuzzes SECONDS (default 3) from its X_seed_corpus.zip
#      with its X.dict and X.options, without a crash;
#   2. AFL++ with ASan, OSS-Fuzz's default AFL++ configuration
#      (afl-clang-fast, LLVM 14; CFLAGS with -fsanitize=address as OSS-Fuzz
#      sets them; $LIB_FUZZING_ENGINE = AFL++'s libAFLDriver.a): every binary
#      has more than 100 edges (AFL_DUMP_MAP_SIZE) and links ASan, and runs
#      SECONDS under afl-fuzz; $OUT/libtfs_afl_mutator.so has no undefined
#      sanitizer symbol, and afl-fuzz loads it and runs it alone
#      (AFL_CUSTOM_MUTATOR_LIBRARY, AFL_CUSTOM_MUTATOR_ONLY=1) on one target
#      per format, with executions counted;
#   3. AFL++ CMPLOG: the same build with AFL_LLVM_CMPLOG=1 (of the two
#      targets it runs), used with afl-fuzz -c on one target per format.
# The checks of the targets of a build run two at a time (nproc).
# TFS_EMULATE_STAGES="libfuzzer afl cmplog" (the default) picks stages.
# Output: one line per check, then "oss-fuzz-emulate: N passed, N failed";
# exit 1 on any failure.  Work files in build/oss-fuzz-emulate/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-3}
work=$root/build/oss-fuzz-emulate
pass=0
fail=0
ok() { echo "ok    $*"; pass=$((pass + 1)); }
bad() { echo "FAIL  $*"; fail=$((fail + 1)); }

rm -rf "$work"
mkdir -p "$work/src"
ln -s "$root" "$work/src/tfs"
export SRC=$work/src

# build LABEL: runs build.sh into $work/LABEL/out; the caller exports the compiler variables
build() {
    local label=$1
    export OUT=$work/$label/out WORK=$work/$label/work
    mkdir -p "$OUT" "$WORK"
    if bash "$root/ci/oss-fuzz/build.sh" > "$work/$label/build.log" 2>&1; then
        ok "[$label] build.sh"
    else
        tail -30 "$work/$label/build.log"
        bad "[$label] build.sh (log: $work/$label/build.log)"
        return 1
    fi
}

# The checks of each target run $njobs at once (a fuzzer takes one core): spawn
# FILE COMMAND... runs COMMAND in the background with its output in FILE;
# drain waits for them all, then prints their outputs in spawn order and
# counts their ok / FAIL lines.
njobs=$(nproc 2> /dev/null || echo 2)
spawned=()
spawn() {
    local file=$1
    shift
    while (($(jobs -rp | wc -l) >= njobs)); do wait -n; done
    "$@" > "$file" 2>&1 &
    spawned+=("$file")
}
drain() {
    wait
    local f
    for f in "${spawned[@]}"; do
        cat "$f"
        pass=$((pass + $(grep -c '^ok ' "$f")))
        fail=$((fail + $(grep -c '^FAIL ' "$f")))
    done
    spawned=()
}

# the fuzz target binaries of $OUT
targets() { find "$OUT" -maxdepth 1 -type f -name 'fuzz_*' ! -name '*.*' | sort; }

# seeds DIR ZIP MAXBYTES: unzip a seed corpus, keep files up to MAXBYTES
seeds() {
    mkdir -p "$1"
    unzip -q -o "$2" -d "$1"
    find "$1" -type f -size +"$3"c -delete
}

stages=" ${TFS_EMULATE_STAGES:-libfuzzer afl cmplog} "
stage() { [[ $stages == *" $1 "* ]]; }
# OSS-Fuzz's compile flags for ASan (infra/base-images/base-builder)
asan_flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
asan_flags="$asan_flags -fsanitize=address -fsanitize-address-use-after-scope"

# ---------------------------------------------------------------- libFuzzer
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
flags="$flags -fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer FUZZING_ENGINE=libfuzzer
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# libfuzzer_target BIN: its edges, its files, SECONDS of fuzzing from its seeds
libfuzzer_target() {
    local bin=$1 name edges f max_len corpus
    name=$(basename "$bin")
    edges=$("$bin" -runs=0 2>&1 | sed -nE 's/.*\(([0-9]+) inline 8-bit counters\).*/\1/p' | head -1)
    if [[ -n $edges ]] && ((edges > 100)); then ok "[libfuzzer] $name: $edges edges"; else bad "[libfuzzer] $name: ${edges:-no} edges"; fi
    for f in "$OUT/$name.options" "$OUT/$name.dict" "$OUT/${name}_seed_corpus.zip"; do
        [[ -s $f ]] || bad "[libfuzzer] $name: $(basename "$f") missing"
    done
    max_len=$(sed -nE 's/^max_len = ([0-9]+)/\1/p' "$OUT/$name.options")
    corpus=$WORK/run-$name
    seeds "$corpus/seeds" "$OUT/${name}_seed_corpus.zip" 1048576
    mkdir -p "$corpus/new"
    if (cd "$corpus" && "$bin" -max_total_time="$seconds" -max_len="$max_len" -dict="$OUT/$name.dict" \
        -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 new seeds > log 2>&1); then
        ok "[libfuzzer] $name: $(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$corpus/log") execs in ${seconds}s"
    else
        grep -E 'ERROR|invariant|SUMMARY' "$corpus/log" | head -5
        bad "[libfuzzer] $name: fuzzing failed (log: $corpus/log)"
    fi
}
if stage libfuzzer && build libfuzzer; then
    n=0
    for bin in $(targets); do
        n=$((n + 1))
        spawn "$WORK/check-$(basename "$bin")" libfuzzer_target "$bin"
    done
    drain
    ((n >= 20)) && ok "[libfuzzer] $n targets" || bad "[libfuzzer] $n targets (expected 20: 10 plain, 10 structure-aware)"
fi
unset ASAN_OPTIONS UBSAN_OPTIONS

# ------------------------------------------------------------------- AFL++
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 \
    AFL_QUIET=1
afl_driver=/usr/lib/afl/libAFLDriver.a
# afl_run LABEL BIN OUTDIR [afl-fuzz options]: SECONDS of afl-fuzz; ok when it ran and saved no crash
afl_run() {
    local label=$1 bin=$2 dir=$3
    shift 3
    local name
    name=$(basename "$bin")
    mkdir -p "$dir"
    seeds "$dir/in" "$OUT/${name}_seed_corpus.zip" 4096
    timeout $((seconds + 60)) afl-fuzz -i "$dir/in" -o "$dir/out" -V "$seconds" -x "$OUT/$name.dict" "$@" -- "$bin" \
        > "$dir/log" 2>&1
    local rc=$? stats=$dir/out/default/fuzzer_stats
    local execs crashes
    execs=$(sed -nE 's/^execs_done *: *([0-9]+)/\1/p' "$stats" 2> /dev/null)
    crashes=$(sed -nE 's/^saved_crashes *: *([0-9]+)/\1/p' "$stats" 2> /dev/null)
    if ((rc == 0)) && [[ -n $execs ]] && ((execs > 0)) && [[ $crashes == 0 ]]; then
        ok "[$label] $name: $execs execs in ${seconds}s"
    else
        tail -5 "$dir/log"
        bad "[$label] $name: afl-fuzz exit $rc, execs ${execs:-?}, crashes ${crashes:-?} (log: $dir/log)"
    fi
}
# afl-fuzz runs ASan targets with these (OSS-Fuzz sets the same two; afl-fuzz
# refuses an ASAN_OPTIONS without abort_on_error=1 and symbolize=0)
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1
export CC=afl-clang-fast CXX=afl-clang-fast++ CFLAGS="$asan_flags" CXXFLAGS="$asan_flags" \
    LIB_FUZZING_ENGINE=$afl_driver FUZZING_ENGINE=afl
afl_out=
# afl_target BIN: its edges, ASan linked, SECONDS of afl-fuzz
afl_target() {
    local bin=$1 name edges
    name=$(basename "$bin")
    edges=$(AFL_DUMP_MAP_SIZE=1 "$bin" 2> /dev/null | head -1)
    if [[ $edges =~ ^[0-9]+$ ]] && ((edges > 100)); then ok "[afl] $name: $edges edges"; else bad "[afl] $name: ${edges:-no} edges"; fi
    # (grep -c, not -q: an early grep exit would fail nm under pipefail)
    if (($(nm "$bin" | grep -c ' T __asan_init$') > 0)); then ok "[afl] $name: ASan linked"; else bad "[afl] $name: no ASan"; fi
    afl_run afl "$bin" "$WORK/run-$name"
}
# afl_custom NAME: afl-fuzz with the tfs mutator alone on target NAME
afl_custom() {
    local name=$1 so=$OUT/libtfs_afl_mutator.so
    AFL_CUSTOM_MUTATOR_LIBRARY=$so AFL_CUSTOM_MUTATOR_ONLY=1 \
        afl_run afl-custom-mutator "$OUT/$name" "$WORK/custom-$name"
    # afl-fuzz names what made each queue entry: the tfs mutator's own
    if (($(ls "$WORK/custom-$name/out/default/queue" 2> /dev/null | grep -c 'tfs:') > 0)); then
        ok "[afl-custom-mutator] $name: queue entries made by tfs mutations"
    else
        bad "[afl-custom-mutator] $name: no queue entry named tfs:* (log: $WORK/custom-$name/log)"
    fi
}
afl_out=
if stage afl && build afl; then
    afl_out=$OUT
    for bin in $(targets); do
        spawn "$WORK/check-$(basename "$bin")" afl_target "$bin"
    done
    drain
    so=$OUT/libtfs_afl_mutator.so
    if [[ -f $so ]]; then
        undef=$(nm -D --undefined-only "$so" | grep -cE '__(a|ub|m)san_|__sanitizer_')
        if ((undef == 0)); then ok "[afl] libtfs_afl_mutator.so: no undefined sanitizer symbol"; else bad "[afl] libtfs_afl_mutator.so: $undef undefined sanitizer symbols"; fi
        for name in fuzz_gguf_buffer fuzz_st_buffer; do
            spawn "$WORK/check-custom-$name" afl_custom "$name"
        done
        drain
    else
        bad "[afl] libtfs_afl_mutator.so not built"
    fi
fi

export AFL_LLVM_CMPLOG=1
# (only the two targets it runs: a CMPLOG build of the others would check nothing more)
if stage cmplog && [[ -n $afl_out ]] && TFS_FUZZ_TARGETS="fuzz_gguf_buffer_fuzzer fuzz_st_buffer_fuzzer" build afl-cmplog; then
    unset AFL_LLVM_CMPLOG
    for name in fuzz_gguf_buffer fuzz_st_buffer; do
        OUT=$afl_out spawn "$WORK/check-cmplog-$name" \
            afl_run afl-cmplog "$afl_out/$name" "$WORK/cmplog-$name" -c "$work/afl-cmplog/out/$name"
    done
    drain
fi
unset AFL_LLVM_CMPLOG ASAN_OPTIONS

echo "oss-fuzz-emulate: $pass passed, $fail failed"
((fail == 0))
