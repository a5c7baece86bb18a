#!/bin/bash
# test_cli_issue37.sh TFS_BINARY SOURCE_DIR: the small defects of issue 37,
# item 4 (each failed on the binary before the fix):
#   - `tfs check -q --lint` prints every file with a lint finding (errors and
#     warnings), -q on a set prints only its problems, and the summary counts
#     a valid file with lint errors / warnings as valid and says so (exit 1
#     on a lint error, 0 on warnings: docs/lint.md);
#   - /dev/stdin, `<(cat FILE)`, a named FIFO and a character device are read
#     as a stream, as `-` is (a FIFO a walk finds stays refused: test_walk);
#   - `tfs conform --lint -q`: the runner's option parser for both;
#   - `tfs help dump` and `tfs help check` name every option on the usage line;
#   - `tfs check --lint -`: standard input that is a regular file is linted
#     whole (LT114, LT302); from a pipe, the rule that needs the bytes again
#     is said to be unchecked (human and --json);
#   - after `--`, every word is a FILE for `tfs dump` too (a file named
#     `--tree` or `--full` is dumped, not read as an option);
#   - `tfs mint` without arguments: its usage, without the options tfs passes
#     itself (--tfs, --lib); without libtfs.so it says once that it falls
#     back to one `tfs check` per check.
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
src=$2
. "$(dirname "$0")/../lib.sh"
lint=$src/corpus/lint/files
lt_err=$lint/LT102-gguf-arch-u32.gguf      # one lint error (LT102)
lt_warn=$lint/LT103-gguf-alignment-4.gguf  # one lint warning (LT103)
clean=$src/corpus/real/gguf/ratchet-test.gguf
set_err=$src/corpus/lint/sets/LT205-mlx-set-scales-shape/model.safetensors.index.json

# ---- check -q --lint: every problem is printed
out=$("$tfs" check -q --lint "$lt_err" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "LT102"; then ok; else ko "check -q --lint (lint error): exit $rc: '$out'"; fi
out=$("$tfs" check -q --lint "$lt_warn" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "LT103"; then ok; else ko "check -q --lint (lint warning): exit $rc: '$out'"; fi
out=$("$tfs" check -q --lint --json "$lt_err" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q '"LT102"'; then ok; else ko "check -q --lint --json: exit $rc: '$out'"; fi
out=$("$tfs" check -q --lint "$clean" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ]; then ok; else ko "check -q --lint of a clean file: exit $rc: '$out'"; fi

# ---- the summary: valid files with lint findings are valid, and said to have them
out=$("$tfs" check --lint "$lt_err" "$lt_warn" "$clean" 2>&1); rc=$?
want="3 files: 3 valid (1 with lint errors, 1 with lint warnings), 0 invalid, 0 errors"
if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | tail -1)" = "$want" ]; then ok
else ko "summary with lint errors and warnings: exit $rc: $(printf '%s\n' "$out" | tail -1)"; fi
out=$("$tfs" check -q --lint "$lt_warn" "$clean" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -1)" = "2 files: 2 valid (1 with lint warnings), 0 invalid, 0 errors" ]; then ok
else ko "summary with lint warnings only: exit $rc: $(printf '%s\n' "$out" | tail -1)"; fi
out=$("$tfs" check "$lt_err" "$clean" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | tail -1)" = "2 files: 2 valid, 0 invalid, 0 errors" ]; then ok
else ko "summary without --lint: exit $rc: $(printf '%s\n' "$out" | tail -1)"; fi
mkdir "$tmp/walk"
cp "$lt_err" "$lt_warn" "$clean" "$tmp/walk/"
out=$("$tfs" check -r --json --lint "$tmp/walk" 2>&1); rc=$?
want='{"summary":{"files":3,"valid":3,"lint_errors":1,"lint_warnings":1,"invalid":0,"not_a_model":0,"errors":0,"skipped":0,"unreadable_folders":0}}'
if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | tail -1)" = "$want" ]; then ok
else ko "JSON summary with --lint: exit $rc: $(printf '%s\n' "$out" | tail -1)"; fi

# ---- a set: -q prints only its problems; its lint errors count as lint errors
out=$("$tfs" check -q --lint "$set_err" "$clean" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "LT205" && ! printf '%s\n' "$out" | grep -q "^  file .*: valid" &&
    [ "$(printf '%s\n' "$out" | tail -1)" = "2 files: 2 valid (1 with lint errors), 0 invalid, 0 errors" ]; then ok
else ko "check -q --lint of a set with a lint error: exit $rc: $out"; fi
out=$("$tfs" check --lint "$set_err" 2>&1)
if printf '%s\n' "$out" | grep -q "^  file .*: valid"; then ok; else ko "check --lint of a set (no -q) lists its valid files: $out"; fi
out=$("$tfs" check -q "$set_err" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ]; then ok; else ko "check -q of a valid set without findings: exit $rc: '$out'"; fi

# ---- pipes, FIFOs and character devices: the stream path
want=$("$tfs" check --json "$clean" | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
case $want in *'"verdict":"valid"'*) ok ;; *) ko "reference verdict: $want" ;; esac
# cat: a pipe (with < FILE, /dev/stdin would be the regular file)
out=$(cat "$clean" | "$tfs" check --json /dev/stdin 2>&1 | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
if [ "$out" = "$want" ]; then ok; else ko "cat FILE | tfs check /dev/stdin: $out"; fi
out=$("$tfs" check --json <(cat "$clean") 2>&1 | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
if [ "$out" = "$want" ]; then ok; else ko "tfs check <(cat FILE): $out"; fi
mkfifo "$tmp/fifo.gguf"
cat "$clean" > "$tmp/fifo.gguf" &
out=$("$tfs" check --json "$tmp/fifo.gguf" 2>&1 | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
wait
if [ "$out" = "$want" ]; then ok; else ko "tfs check FIFO with a writer: $out"; fi
# the writer comes after tfs opened the FIFO: tfs waits for it, as cat does
mkfifo "$tmp/late.gguf"
(sleep 0.5; exec cat "$clean" > "$tmp/late.gguf") &
writer=$!
out=$("$tfs" check --json "$tmp/late.gguf" 2>&1 | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
kill "$writer" 2> /dev/null # a tfs that did not wait left it waiting for a reader
wait
if [ "$out" = "$want" ]; then ok; else ko "tfs check FIFO whose writer comes later: $out"; fi
out=$("$tfs" check --json --lint <(cat "$lt_err") 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q '"LT102"'; then ok; else ko "tfs check --lint <(cat FILE): exit $rc: $out"; fi
out=$("$tfs" check /dev/null 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "^/dev/null: not_a_model" && printf '%s\n' "$out" | grep -q "an empty file"; then ok
else ko "tfs check /dev/null: exit $rc: $out"; fi
out=$(printf 'GGUF\003\000\000\000' | "$tfs" dump --json /dev/stdin 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q '"rule":"GG'; then ok; else ko "tfs dump /dev/stdin of a pipe: exit $rc: $out"; fi

# ---- conform --lint: the options of conform
if "$tfs" conform --help > /dev/null 2>&1; then
    out=$(cd "$src" && "$tfs" conform --lint -q 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "^tfs conform --lint: [0-9]* cases: [0-9]* pass, 0 fail"; then ok
    else ko "tfs conform --lint -q: exit $rc: $(printf '%s\n' "$out" | head -3)"; fi
    out=$("$tfs" conform -q --lint --fixtures="$src/corpus/lint" 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; then ok; else ko "tfs conform -q --lint --fixtures=DIR: exit $rc: $(printf '%s\n' "$out" | head -3)"; fi
    out=$(cd "$src" && "$tfs" conform --lint 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^pass  "; then ok; else ko "tfs conform --lint (no -q) lists passes: exit $rc"; fi
    out=$(cd "$src" && "$tfs" conform --lint --tap - 2>&1); rc=$?
    if [ "$rc" -eq 2 ] && printf '%s\n' "$out" | grep -q "does not apply"; then ok; else ko "tfs conform --lint --tap: exit $rc: $out"; fi
    out=$(cd "$src" && "$tfs" conform --lint --bogus 2>&1); rc=$?
    if [ "$rc" -eq 2 ] && printf '%s\n' "$out" | grep -q "unknown argument '--bogus'"; then ok; else ko "tfs conform --lint --bogus: exit $rc: $out"; fi
else
    echo "note: tfs-conform not built, conform --lint not tried"
fi

# ---- usage lines name every option
usage_of() { "$tfs" help "$1" | sed '/^$/q'; }
for o in --json --content-only --full --keys --tensors --no-tensors --sort --tree --strict --header-only --format; do
    if usage_of dump | grep -q -- "\[$o\b"; then ok; else ko "tfs help dump: usage lacks $o"; fi
done
for o in --json --strict --header-only --format -r -q --lint --config; do
    if usage_of check | grep -q -- "\[$o\b"; then ok; else ko "tfs help check: usage lacks $o"; fi
done
"$tfs" dump --bogus 2> "$tmp/err" > /dev/null
if grep -q -- "--tree" "$tmp/err" && grep -q -- "--keys GLOB" "$tmp/err"; then ok; else ko "tfs dump usage error lacks --tree / --keys: $(cat "$tmp/err")"; fi
if "$tfs" help | grep -q -- "--lint" && "$tfs" help | grep -q -- "--tree"; then ok; else ko "tfs help lacks check --lint or dump --tree"; fi

# ---- mint: a clean usage; the fallback said once
"$tfs" mint > "$tmp/out" 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q "^usage: tfs mint --out DIR" "$tmp/err" && ! grep -q -- "--tfs\|--lib" "$tmp/err" && [ ! -s "$tmp/out" ]; then ok
else ko "tfs mint without arguments: exit $rc: $(cat "$tmp/err")"; fi
"$tfs" mint --tfs /bin/true --out "$tmp/m" > /dev/null 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q "unknown option '--tfs'" "$tmp/err"; then ok; else ko "tfs mint --tfs: exit $rc: $(cat "$tmp/err")"; fi
if command -v "${TFS_PYTHON3:-python3}" > /dev/null 2>&1; then
    TFS_MINT_LIB=$tmp/no-such-libtfs.so "$tfs" mint --strategies 0 --max-candidates 1 --byte-tests 1 --budget 60 \
        --out "$tmp/m" "$src/corpus/real/gguf/ratchet-dummy.gguf" > /dev/null 2> "$tmp/err"; rc=$?
    n=$(grep -c "one \`tfs check\` process per check" "$tmp/err")
    if [ "$rc" -eq 0 ] && [ "$n" -eq 1 ] && grep -q "no-such-libtfs.so not found" "$tmp/err"; then ok
    else ko "tfs mint without libtfs.so: exit $rc, said $n times: $(tail -3 "$tmp/err")"; fi
    "$tfs" mint --out 2> "$tmp/err" > /dev/null; rc=$?
    if [ "$rc" -eq 2 ] && ! grep -q -- "--tfs" "$tmp/err"; then ok; else ko "tfs mint --out (no value): exit $rc: $(cat "$tmp/err")"; fi
else
    echo "note: python3 absent, mint's fallback not tried"
fi

# ---- lint from standard input: a regular file is read again (LT114, LT302 found); a pipe says what it could not check
gpad=$lint/LT114-gguf-pad-header-first.gguf spad=$lint/LT302-st-padding-tab.safetensors
out=$("$tfs" check --lint - < "$gpad" 2>&1)
if printf '%s\n' "$out" | grep -q "LT114  warning" && ! printf '%s\n' "$out" | grep -q "not checked"; then ok
else ko "check --lint - < FILE (GGUF): LT114 not found: $(printf '%s\n' "$out" | tail -2)"; fi
out=$("$tfs" check --lint - < "$spad" 2>&1)
if printf '%s\n' "$out" | grep -q "LT302  warning"; then ok; else ko "check --lint - < FILE (safetensors): $(printf '%s\n' "$out" | tail -2)"; fi
out=$(cat "$gpad" | "$tfs" check --lint - 2>&1)
if printf '%s\n' "$out" | grep -q "lint note   LT114 not checked"; then ok; else ko "check --lint from a pipe: no note: $(printf '%s\n' "$out" | tail -2)"; fi
out=$(cat "$spad" | "$tfs" check --lint --json - 2>&1)
if printf '%s\n' "$out" | grep -q '"not_checked":\["LT302"\]'; then ok; else ko "check --lint --json from a pipe: $out"; fi
out=$("$tfs" check --lint --json "$gpad" 2>&1)
if ! printf '%s\n' "$out" | grep -q 'not_checked'; then ok; else ko "check --lint --json FILE says not_checked: $out"; fi

# ---- dump: after `--` every word is a FILE (dump's own options included)
for name in --tree --full --no-tensors; do
    cp "$src/corpus/gguf/valid-n-dims-0.gguf" "$tmp/$name"
    out=$(cd "$tmp" && "$tfs" dump -- "$name" 2>&1); rc=$?
    if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | head -1)" = "$name:" ]; then ok
    else ko "tfs dump -- $name (a file of that name): exit $rc: $(printf '%s\n' "$out" | head -2)"; fi
done
out=$(cd "$tmp" && "$tfs" dump --tree -- --tree 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | head -1)" = "--tree:" ]; then ok; else ko "tfs dump --tree -- --tree: exit $rc"; fi

finish
