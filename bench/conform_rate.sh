#!/usr/bin/env bash
# conform_rate.sh: fixtures per second of `tfs conform -j2` through a trivial
# external C adapter (conform_rate_adapter.c) over the whole corpus.  The
# target is >= 1,000 fixtures/s on the 2-core CI machine kind.  A figure, not a
# test: the results (pass/false_accept/...) are whatever the adapter's guess
# gives; every case must come back (none lost, no crash or timeout).
#   bench/conform_rate.sh [--tfs PATH] [--adapter PATH] [--jobs N] [--runs N] [--fixtures DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tfs=$root/build/release/tools/tfs
adapter=$root/build/release/bench/conform_rate_adapter
jobs=2 runs=5 fixtures=$root/corpus
while (($#)); do
    case $1 in
    --tfs) tfs=$2; shift 2 ;;
    --adapter) adapter=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --fixtures) fixtures=$2; shift 2 ;;
    *) echo "usage: $0 [--tfs PATH] [--adapter PATH] [--jobs N] [--runs N] [--fixtures DIR]" >&2; exit 2 ;;
    esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-4s %8s %10s %12s %14s\n' run cases seconds wall_s fixtures/s
best=0
for ((i = 1; i <= runs; i++)); do
    t0=$(date +%s.%N)
    rc=0
    "$tfs" conform --fixtures "$fixtures" -j "$jobs" --adapter "$adapter {file}" --json "$tmp/r.json" -q > /dev/null || rc=$?
    t1=$(date +%s.%N)
    ((rc <= 1)) || { echo "tfs conform exited $rc" >&2; exit 1; }
    read -r cases secs bad < <(/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(len(r["cases"]), r["seconds"], r["summary"]["crash"] + r["summary"]["timeout"] + r["not_run"])' "$tmp/r.json")
    ((bad == 0)) || { echo "run $i: $bad cases crashed, timed out or were not run" >&2; exit 1; }
    rate=$(awk -v c="$cases" -v s="$secs" 'BEGIN { printf "%.0f", c / s }')
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    printf '%-4s %8s %10.3f %12s %14s\n' "$i" "$cases" "$secs" "$wall" "$rate"
    ((rate > best)) && best=$rate
done
echo "best: $best fixtures/s (-j $jobs; 'seconds' is the run after the SHA-256 checks, wall_s the whole command)"
