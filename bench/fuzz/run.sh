#!/bin/sh
# bench/fuzz/run.sh: the fuzzing benchmark with planted bugs (docs/fuzzing-benchmark.md).
#
#   bench/fuzz/run.sh [--quick] [--trials N] [--budget SECONDS] [--bugs LIST]
#                     [--fuzzers LIST] [--ablation FAMILIES] [--build-dir DIR]
#                     [--out DIR] [--jobs N] [--cc CC] [--no-dict] [--resume]
#
# --quick (CI smoke): builds every planted bug of bench/fuzz/bugs.tsv
# (cmake -DTFS_BUG=<id>, the replay program of the buffer fuzz target) and
# checks that its canary fires on its trigger (bench/fuzz/triggers/<id>.*)
# and not on the seed corpus.  Otherwise: per bug, the plain and the
# structure-aware libFuzzer targets (and, when asked, AFL++ with and without
# the custom mutator, and the ablations sa-no-<family>) for N trials of
# SECONDS each, one process at a time; results.md / results.json in
# <build-dir>/results.  Defaults: 10 trials x 120 s, all bugs, plain,sa.
# The work is done by bench/fuzz/bench.py (Python 3 standard library).
exec /usr/bin/python3 "$(dirname "$0")/bench.py" "$@"
