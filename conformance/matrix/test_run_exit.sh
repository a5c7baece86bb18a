#!/bin/sh
# test_run_exit.sh PYTHON TFS: run.sh's exit status and its guard of the
# committed docs/results.* (issue 17, a newcomer's notes), with shell adapters
# (no npm): 2 when a requested column is not run (the adapter check stops
# it; its stderr shown), 2 for --adapter without --out or --merge (nothing
# written), 1 when a column has failing cells, 0 when every cell passes.
# run.sh runs from a copy of conformance/matrix, so that its default output
# folder (docs/ of the copy) is a temporary one even before the guard.
set -u
py=$1 tfs=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/root/conformance" "$tmp/ad"
cp -r "$here" "$tmp/root/conformance/matrix"
run="$tmp/root/conformance/matrix/run.sh"
export TFS_PYTHON3="$py"
sel="--tfs $tfs --fixtures $src/corpus --format gguf --id GG00* --id valid-kv-*"
printf 'echo "boom: my reader has a bug" >&2\necho "  at read (reader.js:2)" >&2\nexit 1\n' > "$tmp/ad/throws.sh"
# accepts every file of 8 bytes or more: the bad magics are false accepts
printf '[ "$(wc -c < "$1")" -ge 8 ]\n' > "$tmp/ad/size.sh"
st=0
check() { # check WANT GOT WHAT
    if [ "$1" = "$2" ]; then echo "ok: $3 (exit $2)"; else echo "FAIL: $3: exit $2, want $1"; st=1; fi
}
# shellcheck disable=SC2086
sh "$run" $sel --reader-id x --adapter "sh $tmp/ad/size.sh {file}" > "$tmp/log" 2>&1
check 2 $? "--adapter without --out or --merge is refused"
if [ -e "$tmp/root/docs/results.json" ]; then echo "FAIL: it wrote docs/results.json"; st=1; fi
grep -q -- "--out DIR" "$tmp/log" || { cat "$tmp/log"; echo "FAIL: the refusal names --out"; st=1; }
# shellcheck disable=SC2086
sh "$run" $sel --reader-id x --adapter "sh $tmp/ad/throws.sh {file}" --out "$tmp/o1" > "$tmp/log" 2>&1
check 2 $? "the only column stopped by the adapter check"
grep -q "boom: my reader has a bug" "$tmp/log" || { cat "$tmp/log"; echo "FAIL: the adapter's stderr is not shown"; st=1; }
# shellcheck disable=SC2086
sh "$run" $sel --reader-id x --adapter "sh $tmp/ad/size.sh {file}" --out "$tmp/o2" > "$tmp/log" 2>&1
check 1 $? "a column with false accepts"
grep -q '"false_accept"' "$tmp/o2/results.json" || { cat "$tmp/log"; echo "FAIL: no false accept in the column"; st=1; }
# shellcheck disable=SC2086
sh "$run" $sel --reader-id x --adapter "$src/conformance/adapters/tfs-adapter --tfs $tfs {file}" --out "$tmp/o3" > "$tmp/log" 2>&1
check 0 $? "our parser through tfs-adapter: every cell passes"
# a debug line before the JSON line: the column runs, and the run says so
printf 'echo "debug: reading $1"\nexec %s --tfs %s "$1"\n' "$src/conformance/adapters/tfs-adapter" "$tfs" > "$tmp/ad/chatty.sh"
# shellcheck disable=SC2086
sh "$run" $sel --reader-id x --adapter "sh $tmp/ad/chatty.sh {file}" --out "$tmp/o5" > "$tmp/log" 2>&1
check 0 $? "a debug line before the JSON line: the column runs"
grep -Eq "x: warning: [0-9]+ cases, e.g. [^ ]+: stdout line 2 is a JSON object" "$tmp/log" ||
    { cat "$tmp/log"; echo "FAIL: the matrix run warns of the JSON line not read"; st=1; }
exit $st
