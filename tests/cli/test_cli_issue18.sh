#!/bin/sh
# test_cli_issue18.sh TFS_BINARY SOURCE_DIR: defects of issue 18, section 2
# (each failed on the binary before the fix):
#   - `tfs help help` is the help; `tfs rules GG204` shows that rule, an
#     unknown id is refused;
#   - `tfs mutate - OUT` reads standard input (a redirected file, or a pipe: copied to a temporary file);
#   - `--format safetensors` on a GGUF file: the rule plus "looks like a GGUF
#     file" (and the other way round);
#   - one spelling of io_error (dump --json's status as check's verdict);
#   - check --json: sizes above 2^53 as decimal strings, as dump --json;
#   - GG504 / GG508: categories of their own (BAD_KEY_UTF8, BAD_NAME_UTF8);
#   - GG304, ST307, GG130 say their numbers (detail);
#   - check -q prints only the problems (section 3).
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
src=$2
. "$(dirname "$0")/../lib.sh"
gguf=$src/corpus/real/gguf/ratchet-test.gguf
st=$src/corpus/real/safetensors/hf-samples-overall.safetensors

# help help, rules ID
out=$("$tfs" help help 2>&1); rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "^usage: tfs <command>"; then ok; else ko "tfs help help: exit $rc"; fi
out=$("$tfs" rules GG204 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^GG')" -eq 1 ] && printf '%s\n' "$out" | grep -q "^GG204 .*BAD_N_DIMS"; then ok
else ko "tfs rules GG204: exit $rc: $out"; fi
out=$("$tfs" rules --tsv ST307 GG130 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$out" | cut -f1 | tr '\n' ' ')" = "id ST307 GG130 " ]; then ok; else ko "tfs rules --tsv ST307 GG130: $out"; fi
"$tfs" rules GG999 > /dev/null 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q "no rule 'GG999'" "$tmp/err"; then ok; else ko "tfs rules GG999: exit $rc"; fi

# mutate - OUT
"$tfs" mutate --seed 7 - "$tmp/m.gguf" < "$gguf" 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 0 ] && [ -s "$tmp/m.gguf" ]; then ok; else ko "tfs mutate - OUT < file: exit $rc: $(cat "$tmp/err")"; fi
# a pipe is copied to a temporary file (issue 19): no --max-size needed; the
# same bytes as the redirected file
cat "$gguf" | "$tfs" mutate --seed 7 - "$tmp/m2.gguf" 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$tmp/m.gguf" "$tmp/m2.gguf"; then ok
else ko "tfs mutate - OUT from a pipe: exit $rc: $(cat "$tmp/err")"; fi
cat "$gguf" | "$tfs" mutate --seed 7 --max-size 100 - "$tmp/m4.gguf" 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q "larger than --max-size" "$tmp/err" && [ ! -e "$tmp/m4.gguf" ]; then ok
else ko "tfs mutate --max-size 100 - OUT from a pipe of a larger file: exit $rc: $(cat "$tmp/err")"; fi
cat "$gguf" | "$tfs" mutate --seed 7 --max-size 100000 - "$tmp/m3.gguf" 2> "$tmp/err"; rc=$?
if [ "$rc" -eq 0 ] && [ -s "$tmp/m3.gguf" ]; then ok; else ko "tfs mutate --max-size - OUT from a pipe: exit $rc: $(cat "$tmp/err")"; fi

# --format against the content
out=$("$tfs" check --format safetensors "$gguf" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q "looks like  a GGUF file"; then ok; else ko "--format safetensors on GGUF: $out"; fi
out=$("$tfs" check --json --format gguf "$st" 2>&1)
case $out in *'"looks_like":"a safetensors file'*) ok ;; *) ko "--format gguf on safetensors: $out" ;; esac

# io_error, one spelling
out=$("$tfs" dump --json "$tmp/missing.gguf" 2> /dev/null)
case $out in *'"status":"io_error"'*) ok ;; *) ko "dump --json of a missing file: $out" ;; esac
out=$("$tfs" check --json "$tmp/missing.gguf" 2> /dev/null)
case $out in *'"verdict":"io_error"'*) ok ;; *) ko "check --json of a missing file: $out" ;; esac

# check --json: 2^60 parameters (an i8 tensor of 2^60 elements, header only)
/usr/bin/python3 - "$tmp/big.gguf" "$src/generators" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from tfsgen import gguf as gg
# ggml type 24 = i8; tfsgen writes the header and its padding, no data (2^60 bytes)
open(sys.argv[1], "wb").write(gg.write(gg.Model(3, [], [gg.Tensor("t", [1 << 60], 24)])))
PY
out=$("$tfs" check --json --header-only "$tmp/big.gguf" 2>&1); rc=$?
case $out in
*'"params":"1152921504606846976"'*'"data_extent":"1152921504606846976"'*) ok ;;
*) ko "check --json above 2^53 (exit $rc): $out" ;;
esac
if printf '%s\n' "$out" | /usr/bin/python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); sys.exit(0 if int(r["data_size"]) == 1 << 60 else 1)'; then ok
else ko "check --json: data_size not exact"; fi

# GG504 / GG508 categories
out=$("$tfs" check --json --strict "$src/corpus/gguf/GG504-key-latin1.gguf" 2>&1)
case $out in *'"rule":"GG504","category":"BAD_KEY_UTF8"'*) ok ;; *) ko "GG504 category: $out" ;; esac
out=$("$tfs" check --json --strict "$src/corpus/gguf/GG508-tensor-name-not-utf8.gguf" 2>&1)
case $out in *'"rule":"GG508","category":"BAD_NAME_UTF8"'*) ok ;; *) ko "GG508 category: $out" ;; esac

# messages with their numbers (a "detail" line / field)
c=$src/corpus
out=$("$tfs" check "$c/gguf/GG304-G11-data-past-eof.gguf" 2>&1)
case $out in *"detail      the tensor data needs a file of "*" bytes missing)"*) ok ;; *) ko "GG304 detail: $out" ;; esac
out=$("$tfs" check --json "$c/safetensors/ST307-trailing-byte.safetensors" 2>&1)
case $out in *'"detail":"1 trailing bytes: '*) ok ;; *) ko "ST307 detail: $out" ;; esac
out=$("$tfs" check "$c/gguf/GG130-array-count-2-30-plus-1.gguf" 2>&1)
case $out in *"detail      the count: 1073741825 elements, above"*) ok ;; *) ko "GG130 count detail: $out" ;; esac
out=$("$tfs" check "$c/gguf/GG130-array-count-past-eof.gguf" 2>&1)
case $out in *"detail      the byte size: "*" bytes left after the count"*) ok ;; *) ko "GG130 size detail: $out" ;; esac

# check -q: only the problems (and the summary of a walk)
out=$("$tfs" check -q "$gguf" "$st" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$out" = "2 files: 2 valid, 0 invalid, 0 errors" ]; then ok; else ko "check -q of valid files: exit $rc: $out"; fi
out=$("$tfs" check -q --json "$gguf" "$src/corpus/gguf/GG002-bad-magic-FUGG.gguf" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q '"rule":"GG002"'; then ok
else ko "check -q --json: exit $rc: $out"; fi

finish
