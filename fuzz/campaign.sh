#!/usr/bin/env bash
# fuzz/campaign.sh SECONDS [JOBS] [FORM] [TARGET...]: a fuzzing campaign over
# every target (or only the TARGETs named, e.g. fuzz_st_strict_sa): each
# libFuzzer binary of the fuzz preset (FORM: plain (default), sa, or both)
# fuzzes SECONDS from its seeds (fuzz/seed_corpus.sh, up to
# 64 KiB) with its dictionary, -max_len=131072 (the OSS-Fuzz options;
# TFS_CAMPAIGN_MAX_LEN), -timeout=10 (a hang),
# -rss_limit_mb=2560, ASan (leaks too) + UBSan; JOBS targets at a time
# (default 1).  Corpora grow in build/campaign/corpus-TARGET (kept between
# runs); crashes, leaks, timeouts and invariant violations land in
# build/campaign/artifacts-TARGET/.  Prints one line per target (execs,
# exec/s, coverage, artifacts) and exits 1 when any target left an artifact.
# TFS_FUZZ_BUILD (default build/fuzz) and TFS_CAMPAIGN_DIR (default
# build/campaign) move the binaries and the work folder, e.g. to keep a long
# campaign on a copy of the binaries while the build tree is rebuilt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:?usage: campaign.sh SECONDS [JOBS] [plain|sa|both]}
jobs=${2:-1}
form=${3:-plain}
shift $(($# < 3 ? $# : 3))
build=${TFS_FUZZ_BUILD:-$root/build/fuzz}
work=${TFS_CAMPAIGN_DIR:-$root/build/campaign}
max_len=${TFS_CAMPAIGN_MAX_LEN:-131072}
if [[ ! -d $build/fuzzers ]]; then
    (cd "$root" && cmake --preset fuzz > /dev/null && cmake --build --preset fuzz -j2 > /dev/null) || exit 2
fi
mkdir -p "$work"
for fmt in gguf safetensors; do
    rm -rf "$work/seeds-$fmt"
    "$root/fuzz/seed_corpus.sh" "$fmt" "$work/seeds-$fmt" 65536 > /dev/null
done
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

run() {
    local t=$1 fmt=gguf
    [[ $t == fuzz_st_* ]] && fmt=safetensors
    mkdir -p "$work/corpus-$t" "$work/artifacts-$t"
    "$build/fuzzers/${t}_fuzzer" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2560 \
        -print_final_stats=1 -dict="$root/fuzz/dict/$fmt.dict" -artifact_prefix="$work/artifacts-$t/" \
        "$work/corpus-$t" "$work/seeds-$fmt" > "$work/$t.log" 2>&1
    local execs rate cov arts
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$work/$t.log")
    rate=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$work/$t.log")
    cov=$(grep -oE 'cov: [0-9]+' "$work/$t.log" | tail -1)
    arts=$(find "$work/artifacts-$t" -type f | wc -l)
    printf '%-26s execs %10s  exec/s %7s  %-10s artifacts %s\n' "$t" "${execs:-?}" "${rate:-?}" "$cov" "$arts"
}

names=("$@")
((${#names[@]})) || for short in gguf st; do
    for kind in buffer source strict roundtrip diff; do
        [[ $form == plain || $form == both ]] && names+=("fuzz_${short}_$kind")
        [[ $form == sa || $form == both ]] && names+=("fuzz_${short}_${kind}_sa")
    done
done
running=0
for t in "${names[@]}"; do
    run "$t" &
    running=$((running + 1))
    if ((running >= jobs)); then
        wait -n
        running=$((running - 1))
    fi
done
wait
total=$(find "$work"/artifacts-* -type f 2> /dev/null | wc -l)
echo "campaign: ${#names[@]} targets x ${seconds}s, $total artifacts ($work/artifacts-*)"
((total == 0))
