#!/usr/bin/env bash
# bench/fuzz/execs.sh [SECONDS]: exec/s of every fuzz target with ASan + UBSan
# (the fuzz preset: clang, -fsanitize=fuzzer-no-link,address,undefined,
# RelWithDebInfo) on seed-sized inputs (docs/fuzzing.md; issue 7 asks for
# >= 20,000 exec/s per target).
# Three figures per target, SECONDS each (default 10):
#   replay  the replay form's --bench: every seed (fuzz/seed_corpus.sh, files
#           up to 64 KiB: max_len of the OSS-Fuzz options) run round-robin,
#           one variant each as under an engine; no mutation cost; per wall
#           second and per CPU second (what one core gives on a shared machine)
#   fuzzer  libFuzzer itself (the plain engine form) fuzzing from the same
#           seeds with the dictionary: stat::average_exec_per_sec
#   sa      the same for the structure-aware form (_sa: the tfs mutator and
#           crossover, mutators/libfuzzer.c, in every execution)
# Builds the fuzz preset first when build/fuzz is missing.  Run on an idle
# machine: the figures scale with the CPU a process gets.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-10}
build=$root/build/fuzz
if [[ ! -d $build/fuzzers ]]; then
    (cd "$root" && cmake --preset fuzz > /dev/null && cmake --build --preset fuzz -j2 > /dev/null)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1
printf '%-22s %7s %10s %14s %16s %14s %14s\n' target inputs mean_bytes replay_exec/s replay_exec/cpu_s fuzzer_exec/s sa_exec/s
# engine TARGET: libFuzzer's average exec/s of TARGET's engine form from the seeds
engine() {
    mkdir -p "$tmp/corpus-$1"
    "$build/fuzzers/$1_fuzzer" -max_total_time="$seconds" -max_len=65536 -print_final_stats=1 \
        -dict="$root/fuzz/dict/$dict.dict" -artifact_prefix="$tmp/" "$tmp/corpus-$1" "$tmp/seeds-$fmt" 2>&1 |
        sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p'
}
for fmt in gguf safetensors; do
    short=gguf dict=gguf
    [[ $fmt == safetensors ]] && short=st dict=safetensors
    "$root/fuzz/seed_corpus.sh" "$fmt" "$tmp/seeds-$fmt" 65536 > /dev/null
    for kind in buffer source strict roundtrip diff; do
        t=fuzz_${short}_$kind
        line=$("$build/fuzz/$t" --bench "$seconds" "$tmp/seeds-$fmt" 2> /dev/null)
        # execs N seconds S exec/s R inputs K mean_bytes B cpu_seconds C exec/cpu_s R2
        read -r _ _ _ _ _ rate _ inputs _ mean _ _ _ cpurate <<< "$line"
        fz=$(engine "$t") sa=$(engine "${t}_sa")
        printf '%-22s %7s %10s %14s %16s %14s %14s\n' "$t" "$inputs" "$mean" "$rate" "$cpurate" "${fz:-?}" "${sa:-?}"
    done
done
echo "($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
