#!/bin/sh
# ext_replay.sh BIN SEED_LIST CRASHER_DIR: ctest replay of a third-party
# reader's fuzz target (fuzz/ext/CMakeLists.txt).
#   1. every file of the seed corpus (the folders SEED_LIST names, relative
#      to the source root) runs through BIN (every variant), one process for
#      all of them, except the seeds listed in CRASHER_DIR/seeds.crash
#      (known findings on seed files, one path per line): no crash allowed;
#      when the batch fails, each file runs alone to name the new crashers;
#   2. every input in CRASHER_DIR (the reader's minimised findings) and every
#      seed of seeds.crash must still crash BIN (a sanitizer report or an
#      abort, or more than 60 s), so an upstream fix shows as a failing
#      test to update.
# Exit 0 pass, 1 fail.
set -u
bin=$1 list=$2 crashers=$3
root=$(cd "$(dirname "$list")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
known=$crashers/seeds.crash
: > "$tmp/known"
[ -f "$known" ] && grep -v '^#' "$known" | sed '/^$/d' > "$tmp/known"
: > "$tmp/seeds"
grep -v '^#' "$list" | sed '/^$/d' | while read -r d; do
    [ -d "$root/$d" ] || continue
    find "$root/$d" -maxdepth 1 -type f ! -name '.*' | sort | while read -r f; do
        rel=${f#$root/}
        grep -qxF "$rel" "$tmp/known" || echo "$f"
    done
done >> "$tmp/seeds"
fail=0
n=$(wc -l < "$tmp/seeds")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
if tr '\n' '\0' < "$tmp/seeds" | xargs -0 "$bin" > "$tmp/batch.log" 2>&1; then
    echo "ok: $n seed files, no crash"
else
    echo "batch replay failed; running each seed alone:"
    while read -r f; do
        if ! "$bin" "$f" > "$tmp/one.log" 2>&1; then
            echo "FAIL: new crash on ${f#$root/}:"
            grep -E 'ERROR|SUMMARY|runtime error|Assertion|GGML_ASSERT|abort' "$tmp/one.log" | head -3
            fail=1
        fi
    done < "$tmp/seeds"
fi
# the known findings still reproduce
still=0 gone=0
for f in $(cat "$tmp/known" | sed "s|^|$root/|") $(find "$crashers" -maxdepth 1 -type f ! -name '.*' ! -name 'seeds.crash' ! -name '*.md' 2> /dev/null | sort); do
    [ -f "$f" ] || { echo "FAIL: listed crasher ${f#$root/} missing"; fail=1; continue; }
    timeout 60 "$bin" "$f" > "$tmp/c.log" 2>&1
    rc=$? # 124: still over 60 s (a hang counts as reproduced)
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
        still=$((still + 1))
    else
        echo "FAIL: ${f#$root/} no longer crashes (fixed upstream? move it out of $(basename "$crashers")/ and update docs/findings.md)"
        gone=$((gone + 1))
        fail=1
    fi
done
echo "known findings: $still still crash, $gone do not"
exit $fail
