#!/bin/sh
# run_diff.sh: differential test of libtfs's GGUF parser against ggml's own
# reader (libggml-base.so of the npm package @node-llama-cpp/linux-x64).
#
#   run_diff.sh --lib LIB --oracle GGML_ORACLE --diff GGUF_DIFF [options] [SEED_DIR...]
#
# 1. mutate_gguf.py writes --count mutants (default 6000) of the GGUF files
#    found under SEED_DIR... (recursively: real files, committed fixtures) and
#    of its synthetic seeds; the seed files themselves are added as they are;
# 2. ggml_oracle runs ggml on each (metadata mode and data mode, forked,
#    time- and memory-limited);
# 3. gguf_diff runs libtfs (--header-only vs metadata mode, default profile vs
#    data mode), classifies every disagreement and prints the figures.
# With --expect EXPECTED.tsv no mutants are made: the files listed there
# (paths relative to its folder) are run and each file's classes must be the
# expected ones (the documented divergences, docs/divergences.md).
#
# Options:
#   --count N        number of mutants (default 6000)
#   --seed S         mutation seed (default 1)
#   --python PY      Python interpreter (default /usr/bin/python3)
#   --sample N       gguf_diff checks every N-th file only
#   --wrap "CMD"     run gguf_diff under CMD (e.g. "valgrind -q --error-exitcode=99")
#   --diff-args "A"  extra gguf_diff arguments (e.g. "-n -v")
#   --keep DIR       keep mutants, oracle.tsv and results.tsv in DIR
#   --jobs N         ggml_oracle parallel children (default 2)
#   --shard K/N      only the mutants and seed files i (0-based) with
#                    i % N == K - 1: N runs with K = 1..N compare every file
#                    once (ctest ggml_diff_KofN)
# Exit status: 0 pass; 1 disagreement, tfs crash, or missing library; 2 usage.
set -u

lib='' oracle='' diff='' count=6000 seed=1 python=/usr/bin/python3 sample=1 wrap='' diffargs='' keep='' expect='' jobs=2 shard=1/1
seeds=
while [ $# -gt 0 ]; do
    case "$1" in
    --lib) lib=$2; shift 2 ;;
    --oracle) oracle=$2; shift 2 ;;
    --diff) diff=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --python) python=$2; shift 2 ;;
    --sample) sample=$2; shift 2 ;;
    --wrap) wrap=$2; shift 2 ;;
    --diff-args) diffargs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --shard) shard=$2; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    -*) echo "run_diff.sh: unknown option $1" >&2; exit 2 ;;
    *) seeds="$seeds $1"; shift ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
shard_k=${shard%/*} shard_n=${shard#*/}
if ! printf '%s\n' "$shard" | grep -Eq '^[0-9]+/[0-9]+$' || [ "$shard_k" -lt 1 ] || [ "$shard_k" -gt "$shard_n" ]; then
    echo "run_diff.sh: --shard wants 1 <= K <= N, not '$shard'" >&2
    exit 2
fi

if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    cat >&2 <<EOF
FAIL: ggml differential test: libggml-base.so not found at '${lib}'.
      Install it with:  npm install --prefix <build dir>/npm @node-llama-cpp/linux-x64@3.22.1
      (or: cmake --build <build dir> --target ggml_npm_install), or set -DTFS_GGML_LIB=<path>,
      or configure with -DTFS_GGML_DIFF=OFF to leave this test out.
EOF
    exit 1
fi
if [ ! -x "$oracle" ] || [ ! -x "$diff" ]; then
    echo "run_diff.sh: --oracle and --diff must name the built ggml_oracle and gguf_diff" >&2
    exit 2
fi

if [ -n "$keep" ]; then
    work=$keep
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/tfs-ggml-diff.XXXXXX") || exit 2
    trap 'rm -rf "$work"' EXIT INT TERM
fi
export GGML_NO_BACKTRACE=1
start=$(date +%s)

if [ -n "$expect" ]; then
    edir=$(cd "$(dirname "$expect")" && pwd)
    grep -v '^#' "$expect" | cut -f1 | sed "s|^|$edir/|" >"$work/list"
    "$oracle" -L "$lib" -j "$jobs" -f "$work/list" >"$work/oracle.tsv" || { echo "FAIL: ggml_oracle failed" >&2; exit 1; }
    # shellcheck disable=SC2086
    $wrap "$diff" -v $diffargs -o "$work/results.tsv" "$work/oracle.tsv"
    rc=$?
    # every listed file must land in the expected class in both modes
    # expected classes may list alternatives separated by '|'
    bad=$(awk -F'\t' -v dir="$edir/" '
        function ok(got, want,   a, k, i) { k = split(want, a, "|"); for (i = 1; i <= k; i++) if (a[i] == got) return 1; return 0 }
        NR == FNR { if ($0 !~ /^#/) { m[dir $1] = $2; d[dir $1] = $3 }; next }
        { if (!($1 in m)) next; seen[$1] = 1
          if (!ok($2, m[$1]) || !ok($3, d[$1])) { printf "MISMATCH %s: got %s / %s, expected %s / %s\n", $1, $2, $3, m[$1], d[$1]; n++ } }
        END { for (f in m) if (!(f in seen)) { printf "MISSING %s\n", f; n++ }; exit n > 0 }' "$expect" "$work/results.tsv")
    erc=$?
    [ -n "$bad" ] && echo "$bad"
    echo "divergence examples: $(grep -vc '^#' "$expect") files, $( [ $erc -eq 0 ] && echo 'all in their expected class' || echo 'MISMATCHES above')"
    # the documented divergences are not failures for gguf_diff, so rc is 0 unless something else is wrong
    [ $rc -eq 0 ] && [ $erc -eq 0 ] && exit 0
    exit 1
fi

real_seeds=
for d in $seeds; do
    [ -d "$d" ] && real_seeds="$real_seeds $d"
done
[ -z "$real_seeds" ] && echo "run_diff.sh: note: no real seed folder found (given:$seeds); synthetic seeds only" >&2

# shellcheck disable=SC2086
"$python" "$here/mutate_gguf.py" --out "$work/files" --count "$count" --seed "$seed" \
    --shard "$shard" --manifest "$work/mutations.tsv" $real_seeds || { echo "FAIL: mutate_gguf.py failed" >&2; exit 1; }
# the seeds themselves (real files, committed fixtures) are compared as they are, too
# (not the ones too slow for ggml within the oracle's time limit: slow_seeds.txt says why)
n_seedfiles=0 i=0
for d in $real_seeds; do
    for f in $(find "$d" -name '*.gguf' -type f -size -16M | sort |
        awk -v list="$here/slow_seeds.txt" 'BEGIN { while ((getline l < list) > 0) if (l !~ /^#/) slow[l] = 1 }
            { n = $0; sub(/.*\//, "", n); if (!(n in slow)) print }'); do
        i=$((i + 1))
        [ $(((i - 1) % shard_n)) -eq $((shard_k - 1)) ] || continue
        ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$work/files/seed_$(echo "$f" | sed 's|^/*||; s|/|_|g')" &&
            n_seedfiles=$((n_seedfiles + 1))
    done
done
echo "mutants: $count (shard $shard: $(ls "$work/files" | grep -vc '^seed_')); seed files compared as they are: $n_seedfiles"
t_gen=$(date +%s)
"$oracle" -L "$lib" -j "$jobs" "$work/files" >"$work/oracle.tsv" || { echo "FAIL: ggml_oracle failed" >&2; exit 1; }
t_oracle=$(date +%s)
n_acc=$(grep -v '^#' "$work/oracle.tsv" | cut -f2 | grep -c '^accept$')
if [ "$n_acc" -eq 0 ]; then
    echo "FAIL: ggml accepted none of the mutants (identity copies included): is '$lib' a working ggml?" >&2
    exit 1
fi
echo "ggml: $(grep -vc '^#' "$work/oracle.tsv") files; metadata mode accepts $n_acc;" \
    "verdict pairs (meta | data):"
grep -v '^#' "$work/oracle.tsv" | cut -f2,3 | sed 's/\t/ | /' | sort | uniq -c | sed 's/^/   /'

# shellcheck disable=SC2086
$wrap "$diff" -s "$sample" $diffargs -o "$work/results.tsv" "$work/oracle.tsv"
rc=$?
end=$(date +%s)
echo "time: generate $((t_gen - start)) s, ggml $((t_oracle - t_gen)) s, tfs + compare $((end - t_oracle)) s"
[ -n "$keep" ] && echo "kept: $work (files/, mutations.tsv, oracle.tsv, results.tsv)"
exit $rc
