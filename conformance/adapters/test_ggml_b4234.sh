#!/bin/sh
# test_ggml_b4234.sh TFS GGML_ADAPTER: ggml's adapter on the older library,
# npm @node-llama-cpp/linux-x64@3.3.0 (llama.cpp b4234, installed into the
# reader cache on first use by npm-reader.sh; exit 77 = skipped without npm):
#   - it loads (b4234 has no ggml_version / ggml_commit): --version names b4234;
#   - in data mode, a file ggml rejects after allocating its data context is a
#     rejection, not a crash (the adapter freed that context a second time:
#     SIGSEGV on the 10 fixtures below, before issue 17).
set -u
tfs=$1 adapter=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$("$here/npm-reader.sh" @node-llama-cpp/linux-x64@3.3.0) || { echo "SKIP: npm @node-llama-cpp/linux-x64@3.3.0 cannot be installed here"; exit 77; }
lib=$dir/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
v=$("$adapter" --version --lib "$lib" 2>&1)
case $v in *b4234*) ok "--version: $v" ;; *) ko "--version: $v" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$tfs" conform --format gguf -j 2 -q --no-sanity-check --adapter "$adapter --data --lib $lib {file}" \
    --id 'GG209-removed-type-3*' --id GG210-q4_0-ne0-33 --id GG302-G15-three-tensors-offset-0 --id GG304-G11-data-past-eof \
    --id GG304-f32-nbytes-2-64-minus-32 --id GG304-last-tensor-unpadded --id GG304-no-data --json "$tmp/r.json" > "$tmp/log" 2>&1
n=$(grep -o '"id":' "$tmp/r.json" 2> /dev/null | wc -l)
crashes=$(grep -o '"result":"crash"' "$tmp/r.json" 2> /dev/null | wc -l)
if [ "$n" -ge 10 ] && [ "$crashes" -eq 0 ]; then ok "data mode: $n cases (10 fixtures ggml rejects after allocating its data context), no crash"
else cat "$tmp/log"; ko "data mode: $n cases, $crashes crashes (want >= 10, 0)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
