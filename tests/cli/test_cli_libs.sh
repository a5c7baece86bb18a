#!/usr/bin/env bash
# test_cli_libs.sh TFS [TFS_CONFORM]: issue 18, start-up cost.  The tfs
# program needs libc alone (and libtfs when built shared): no OpenSSL
# libcrypto, no jansson, which cost every `tfs check` ~8 ms of loading.
# `tfs conform` runs tfs-conform from beside tfs (the runner with those
# libraries); copied alone into an empty folder, tfs says it cannot find it
# (exit 2) instead of crashing, and check still works there.
set -uo pipefail
tfs=$1 conform=${2:-}
pass=0 fail=0
ok() { echo "ok: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }
command -v readelf > /dev/null || { echo "SKIP: readelf (binutils) not found"; exit 77; }

needed=$(readelf -d "$tfs" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
extra=$(printf '%s\n' "$needed" | grep -v -E '^(libc\.so\.[0-9]+|libtfs\.so\.[0-9]+|ld-linux[^ ]*)$' | grep . || true)
if [[ -z $extra ]]; then ok "tfs needs only: $(echo $needed)"; else bad "tfs needs more than libc: $(echo $extra)"; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -n $conform ]]; then
    out=$("$tfs" conform --help 2>&1)
    rc=$?
    if ((rc == 0)) && grep -q -- '--adapter' <<< "$out"; then ok "tfs conform --help runs tfs-conform"; else bad "tfs conform --help: exit $rc: $out"; fi
    out=$("$tfs" help conform 2>&1)
    rc=$?
    if ((rc == 0)) && grep -q -- '--adapter' <<< "$out"; then ok "tfs help conform"; else bad "tfs help conform: exit $rc"; fi
fi
cp "$tfs" "$tmp/tfs"
printf 'GGUF\003\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' > "$tmp/empty.gguf"
out=$(PATH=/usr/bin:/bin "$tmp/tfs" conform --help 2>&1)
rc=$?
if ((rc == 2)) && grep -q 'tfs-conform not found' <<< "$out"; then ok "tfs alone: conform says tfs-conform is missing (exit 2)"
else bad "tfs alone: conform: exit $rc: $out"; fi
if "$tmp/tfs" check "$tmp/empty.gguf" > /dev/null 2>&1; then ok "tfs alone: check works"; else bad "tfs alone: check failed"; fi
echo "$pass passed, $fail failed"
((fail == 0))
