#!/usr/bin/env bash
# sparse.sh: whole-process figures of `tfs check` (what a user waits for).
#
#   bench/sparse.sh [TFS_BINARY [TFS_BENCH_BINARY [GGUF_VOCAB_FILE]]]
#   (defaults: build/release/tools/tfs, build/release/bench/tfs_bench, the
#    deepseek-llm vocab file from ../shared/real, else corpus/real)
#
# 1. 100 GiB sparse files, one per format (a valid header whose 100 tensors of
#    1 GiB cover 100 GiB, written as holes by gen_sparse): wall time and peak RSS of
#    `tfs check` via /usr/bin/time -v (package `time`), and wall time via
#    hyperfine when installed.  tfs reads the header only, so neither figure
#    depends on the file size.
# 2. `tfs check` on the synthetic 50,000-tensor safetensors file
#    (tfs_bench --emit-synthetic) and on the 4 MB GGUF vocab file.
# Timing: hyperfine (mean and min of >= 30 runs, no shell) if installed, else
# a loop of 30 runs (mean and min, date +%s%N).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tfs=${1:-$root/build/release/tools/tfs}
bench=${2:-$root/build/release/bench/tfs_bench}
vocab=${3:-}
if [[ -z $vocab ]]; then
    vocab=$root/../shared/real/gguf/llamacpp-ggml-vocab-deepseek-llm.gguf
    [[ -r $vocab ]] || vocab=$root/corpus/real/gguf/llamacpp-ggml-vocab-deepseek-llm.gguf
fi
gen=$(dirname "$bench")/gen_sparse
for b in "$tfs" "$bench" "$gen"; do
    [[ -x $b ]] || { echo "sparse.sh: $b not found (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "sparse.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The sparse files come from the library's writer (bench/gen_sparse.c):
# safetensors: 100 F16 tensors [8192, 65536] (1 GiB each), packed;
# GGUF v3: 1 KV (general.architecture), 100 f16 tensors ne = [65536, 8192].
make_st() { "$gen" st "$1" > /dev/null; }
make_gguf() { "$gen" gguf "$1" > /dev/null; }

# timing CMD...: sets t_mean, t_min (ms)
timing() {
    if command -v hyperfine > /dev/null; then
        hyperfine -N --warmup 5 --runs 50 --export-csv "$tmp/h.csv" "$*" > /dev/null 2>&1 || \
            hyperfine -N --warmup 5 --runs 50 -i --export-csv "$tmp/h.csv" "$*" > /dev/null
        # command,mean,stddev,median,user,system,min,max (seconds)
        read -r t_mean t_min < <(awk -F, 'NR == 2 { printf "%.2f %.2f\n", $2 * 1000, $7 * 1000 }' "$tmp/h.csv")
        t_how="hyperfine, 50 runs"
    else
        local i s e d sum=0 min=0
        for ((i = 0; i < 30; i++)); do
            s=$(date +%s%N); "$@" > /dev/null || true; e=$(date +%s%N)
            d=$((e - s)); sum=$((sum + d))
            if ((min == 0 || d < min)); then min=$d; fi
        done
        t_mean=$(awk -v n="$sum" 'BEGIN { printf "%.2f", n / 30 / 1e6 }')
        t_min=$(awk -v n="$min" 'BEGIN { printf "%.2f", n / 1e6 }')
        t_how="shell loop, 30 runs"
    fi
}

# rss CMD...: sets r_kb (peak RSS, kB) and r_wall (s, /usr/bin/time resolution 10 ms)
rss() {
    /usr/bin/time -v "$@" > /dev/null 2> "$tmp/time.txt" || true
    r_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time.txt")
    r_wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$tmp/time.txt")
}

echo "tfs: $tfs ($("$tfs" --version))"
echo "machine: $(nproc) cores, $(uname -sr)"
echo

make_st "$tmp/100g.safetensors"
make_gguf "$tmp/100g.gguf"
"$bench" --emit-synthetic "$tmp/synth50k.safetensors" > /dev/null

for f in "$tmp/100g.safetensors" "$tmp/100g.gguf"; do
    size=$(stat -c %s "$f"); blocks=$(du -k "$f" | cut -f1)
    if ! "$tfs" check "$f" > "$tmp/out.txt"; then
        echo "sparse.sh: tfs check rejects $f:" >&2; cat "$tmp/out.txt" >&2; exit 1
    fi
    timing "$tfs" check "$f"
    rss "$tfs" check "$f"
    printf '%-28s %s bytes (%s kB on disk)\n' "$(basename "$f")" "$size" "$blocks"
    printf '  tfs check wall   mean %s ms, min %s ms (%s)   target < 20 ms\n' "$t_mean" "$t_min" "$t_how"
    printf '  tfs check RSS    %s kB peak (/usr/bin/time -v, wall %s)   target < 8 MB\n' "$r_kb" "$r_wall"
done

for f in "$tmp/synth50k.safetensors" "$vocab"; do
    if ! "$tfs" check "$f" > "$tmp/out.txt"; then
        echo "sparse.sh: tfs check rejects $f:" >&2; cat "$tmp/out.txt" >&2; exit 1
    fi
    case $f in
    *synth50k*) label="50,000-tensor safetensors"; target="< 30 ms" ;;
    *) label="GGUF vocab $(basename "$f")"; target="< 12 ms" ;;
    esac
    timing "$tfs" check "$f"
    rss "$tfs" check "$f"
    printf '%s (%s bytes)\n' "$label" "$(stat -c %s "$f")"
    printf '  tfs check wall   mean %s ms, min %s ms (%s)   target %s\n' "$t_mean" "$t_min" "$t_how" "$target"
    printf '  tfs check RSS    %s kB peak\n' "$r_kb"
done
