#!/usr/bin/env bash
# afl_smoke.sh SOURCE_DIR BUILD_DIR MUTATOR_SO [SECONDS]: AFL++ with the tfs
# custom mutator alone (AFL_CUSTOM_MUTATOR_ONLY=1) for a few seconds on a
# small afl-clang-fast harness over libtfs's sources (tfs_parse_buffer on the
# file).  Passes when afl-fuzz loaded the mutator, ran, found new paths
# named by it (tfs:NAME in the queue) and saved no crash.
set -euo pipefail
src=$1 build=$2 so=$3 secs=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/h.c" <<'C'
#include <stdio.h>
#include "tfs/tfs.h"
int main(int argc, char **argv) {
    static unsigned char buf[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    tfs_error e;
    tfs_header *h = NULL;
    tfs_parse_buffer(buf, n, TFS_FORMAT_UNKNOWN, 0, &h, &e);
    tfs_header_free(h);
    return 0;
}
C
AFL_QUIET=1 afl-clang-fast -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
    -I"$src/include" -I"$build/include" -I"$src/parsers/core" "$work/h.c" \
    "$src"/parsers/*.c "$src"/parsers/core/*.c "$src"/parsers/gguf/*.c "$src"/parsers/safetensors/*.c -o "$work/h"
mkdir -p "$work/in"
cp "$src/corpus/gguf/valid-llama-like.gguf" "$src/corpus/safetensors/valid-crate-forced-alignment.safetensors" "$work/in/"
# the harness has no sanitizer; a caller's ASAN_OPTIONS (ci/test.sh sets
# abort_on_error=0) makes afl-fuzz refuse to start
unset ASAN_OPTIONS UBSAN_OPTIONS
AFL_CUSTOM_MUTATOR_LIBRARY=$so AFL_CUSTOM_MUTATOR_ONLY=1 AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 \
    AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 AFL_SKIP_BIN_CHECK=0 \
    timeout $((secs + 20)) afl-fuzz -V "$secs" -i "$work/in" -o "$work/out" -- "$work/h" @@ > "$work/afl.log" 2>&1 || {
    tail -30 "$work/afl.log"
    echo "afl-fuzz failed"
    exit 1
}
grep -q "installed successfully" "$work/afl.log" || { tail -30 "$work/afl.log"; echo "mutator not loaded"; exit 1; }
stats=$work/out/default/fuzzer_stats
grep -E "execs_done|execs_per_sec|corpus_count|saved_crashes|edges_found" "$stats"
by_tfs=$(ls "$work/out/default/queue" | grep -c 'tfs:' || true)
crashes=$(awk -F: '/saved_crashes/ {gsub(/ /, "", $2); print $2}' "$stats")
echo "queue entries made by the tfs mutator: $by_tfs"
((by_tfs > 0)) || { echo "no queue entry from the custom mutator"; exit 1; }
((crashes == 0)) || { echo "crashes saved: $crashes"; ls "$work/out/default/crashes"; exit 1; }
