#!/usr/bin/env bash
# gguf_mem.sh: peak memory and wall time of `tfs check` on GGUF files whose
# header declares large strings (sparse files of about 12 KB on disk), to
# show whether memory follows the declared string sizes (issue 5: it must
# not; target < 16 MB and < 100 ms for every row).
#
#   bench/gguf_mem.sh [--tfs PATH] [--gen PATH] [--sizes LIST] [--max-mem MIB] [--timeout S]
#
# LIST: comma-separated COUNTxSIZE items, SIZE with a K, M or G suffix
# (binary units); default "1x1M,1x1G,3x1G,10x1G,40x1G" (1 MiB .. 40 GiB of
# declared string bytes).  A bare SIZE means 1xSIZE.
# Each file comes from the writer (--gen: bench/gen_sparse beside the tfs
# binary's build tree): GGUF v3, an array KV tokenizer.ggml.tokens of COUNT
# strings of SIZE bytes each and one small tensor.  The string bodies are
# holes (zero bytes), so the file is sparse.
# Each `tfs check` runs under `ulimit -v MIB` (default 4096; 0: no limit, for
# sanitizer builds, which reserve terabytes of address space) and `timeout S`
# (default 60), so a build whose memory followed declared sizes could not take
# the machine: such a run prints "killed (...)" or the error tfs reports.
# Peak RSS and minor faults from /usr/bin/time (package `time`: %M, %R);
# wall time from date +%s%N around the run (ms).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tfs=$root/build/release/tools/tfs
gen=''
sizes=1x1M,1x1G,3x1G,10x1G,40x1G
max_mem=4096 tmo=60
while (($#)); do
    case $1 in
    --tfs) tfs=$2; shift ;;
    --gen) gen=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --max-mem) max_mem=$2; shift ;;
    --timeout) tmo=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "gguf_mem.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $gen ]] || gen=$(dirname "$(dirname "$tfs")")/bench/gen_sparse # beside tools/tfs in the build tree
[[ -x $gen ]] || { echo "gguf_mem.sh: $gen not found (--gen PATH)" >&2; exit 2; }
[[ -x $tfs ]] || { echo "gguf_mem.sh: $tfs not found (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "gguf_mem.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- generator -------------------------------------------------------------
# gen_strings FILE COUNT SIZE: the sparse GGUF described above, from the
# writer (bench/gen_sparse: an array KV of COUNT strings of SIZE bytes, their
# bodies holes, and one small tensor).
gen_strings() {
    "$gen" gguf-strings "$2" "$3" "$1" > /dev/null
}
# -----------------------------------------------------------------------------

bytes_of() { # SIZE with K/M/G suffix -> bytes
    local s=$1
    case $s in
    *K) echo $((${s%K} << 10)) ;; *M) echo $((${s%M} << 20)) ;; *G) echo $((${s%G} << 30)) ;;
    *) echo "$s" ;;
    esac
}
human() { # BYTES -> "N GiB" / "N MiB" / "N KiB" / "N B" (exact units only)
    local b=$1
    if ((b % (1 << 30) == 0)); then echo "$((b >> 30)) GiB"
    elif ((b % (1 << 20) == 0)); then echo "$((b >> 20)) MiB"
    elif ((b % (1 << 10) == 0)); then echo "$((b >> 10)) KiB"
    else echo "$b B"; fi
}

echo "gguf_mem.sh: tfs check on sparse GGUF files with declared strings (ulimit -v ${max_mem} MiB, timeout ${tmo} s)"
echo "tfs: $tfs ($("$tfs" --version 2> /dev/null || echo '?')), $(nproc) cores, $(uname -sr)"
printf '%-18s %16s %10s %12s %10s %10s  %s\n' "strings" "declared bytes" "on disk" "peak RSS kB" "wall ms" "minflt" "outcome"
IFS=, read -r -a items <<< "$sizes"
for item in "${items[@]}"; do
    if [[ $item == *x* ]]; then count=${item%%x*} size=$(bytes_of "${item#*x}")
    else count=1 size=$(bytes_of "$item"); fi
    f=$tmp/strings.gguf
    gen_strings "$f" "$count" "$size"
    disk=$(du -k "$f" | cut -f1)
    t0=$(date +%s%N)
    set +e
    ( if ((max_mem > 0)); then ulimit -v $((max_mem * 1024)); fi; exec /usr/bin/time -f '%M %R' -o "$tmp/time.txt" \
        timeout -s KILL "$tmo" "$tfs" check "$f" ) > "$tmp/out.txt" 2>&1
    rc=$?
    set -e
    t1=$(date +%s%N)
    read -r rss flt < <(tail -1 "$tmp/time.txt" 2> /dev/null | awk 'NF == 2 { print $1, $2; exit } { print "? ?" }')
    case $rc in
    0) outcome=valid ;;
    137) outcome="killed (timeout ${tmo} s or out of memory)" ;;
    *) outcome="exit $rc: $(grep -m1 -v '^ ' "$tmp/out.txt" | sed 's/^.*: //' | cut -c1-40)"
       detail=$(grep -m1 '^  error ' "$tmp/out.txt" | sed 's/^  error *//' | cut -c1-60 || true)
       [[ -n $detail ]] && outcome+=" ($detail)"
       grep -q 'Command terminated by signal' "$tmp/time.txt" 2> /dev/null && outcome="killed ($(grep -m1 -o 'signal [0-9]*' "$tmp/time.txt"))" ;;
    esac
    printf '%-18s %16s %10s %12s %10s %10s  %s\n' "$count x $(human "$size")" "$((count * size))" "${disk} kB" \
        "$rss" "$(((t1 - t0) / 1000000))" "$flt" "$outcome"
    rm -f "$f"
done
