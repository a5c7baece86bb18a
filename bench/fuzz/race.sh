#!/bin/sh
# bench/fuzz/race.sh: the wall-time race of structure-aware (with
# TFS_MUTATOR_MIX) against plain libFuzzer (docs/fuzzing.md, "The race"):
#
#   bench/fuzz/race.sh [--trials N] [--seconds S] [--mix P] [--out DIR]
#                      [--bugs LIST|none] [--bug-seconds B] [--ext-build DIR]
#                      [--src-cov DIR] [--readers LIST]
#
# 1. the fuzzing benchmark's planted bugs (bench/fuzz/run.sh: time to the
#    first trigger, plain and sa, N trials of B CPU seconds, default B = S;
#    Mann-Whitney U and A12), the structure-aware form with TFS_MUTATOR_MIX=P;
# 2. each third-party reader of --readers (default ggml_gguf,gguflib,
#    safetensors_cpp) built in --ext-build (docs/fuzzing-third-party.md):
#    bench/fuzz/ext_cov.py --mix P --trials N --seconds S --jobs 2 (edges,
#    first crash, and with --src-cov the reader's source branches).
# Defaults: 10 trials x 600 s, P = 50, every bug, out build/race.  A bug's
# trial ends at its trigger, so the bugs' part is mostly plain's misses (each
# costs B CPU-s); each reader takes 10 x S of wall time (--jobs 2: two
# fuzzers at once).  A short run checks the command:
#   bench/fuzz/race.sh --trials 2 --seconds 20 --bugs G1 --ext-build build/fuzz-ext --readers ggml_gguf
set -eu
here=$(cd "$(dirname "$0")" && pwd)
trials=10 seconds=600 bug_seconds= mix=50 out=build/race bugs=all ext= src= readers=ggml_gguf,gguflib,safetensors_cpp
while [ $# -gt 0 ]; do
    case $1 in
    --trials) trials=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --mix) mix=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bugs) bugs=$2; shift 2 ;;
    --bug-seconds) bug_seconds=$2; shift 2 ;;
    --ext-build) ext=$2; shift 2 ;;
    --src-cov) src=$2; shift 2 ;;
    --readers) readers=$2; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "race.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
    esac
done
bug_seconds=${bug_seconds:-$seconds}
mkdir -p "$out"
if [ "$bugs" != none ]; then
    echo "== planted bugs ($bugs): $trials trials x $bug_seconds CPU-s, TFS_MUTATOR_MIX=$mix" >&2
    TFS_MUTATOR_MIX=$mix "$here/run.sh" --trials "$trials" --budget "$bug_seconds" --bugs "$bugs" \
        --build-dir "$out/bugbench" --out "$out/bugs"
fi
if [ -n "$ext" ]; then
    for r in $(echo "$readers" | tr ',' ' '); do
        echo "== $r: $trials trials x $seconds s, --mix $mix" >&2
        set -- --build "$ext" --mix "$mix" --seconds "$seconds" --trials "$trials" --jobs 2 --json "$out/ext-$r.json"
        [ -n "$src" ] && set -- "$@" --src-cov "$src"
        /usr/bin/python3 "$here/ext_cov.py" "$@" "$r" | tee "$out/ext-$r.log"
    done
fi
