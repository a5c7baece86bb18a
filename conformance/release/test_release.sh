#!/bin/sh
# test_release.sh PYTHON SOURCE_DIR VERSION TFS: the release tarball
#   1. make_release.py twice into two folders (the second with another umask
#      and after touching the sources' mtimes in a copy): byte-identical;
#   2. tar's listing: entries sorted, owner/group 0 with no names, one mtime;
#   3. unpacked: `sha256sum -c SHA256SUMS` passes inside it, and SHA256SUMS
#      covers every file but itself; every manifest's fixtures are there, each
#      valid line has its expected content;
#   4. `tfs conform --fixtures <unpacked>`: every case passes, as many cases as
#      from the source tree, in process and (one case in 8) through the
#      tarball's tfs-adapter;
#   5. a changed fixture makes `sha256sum -c` fail (the check can fail).
set -u
py=$1 src=$2 version=$3 tfs=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }
name=tfs-conformance-$version

"$py" "$src/conformance/release/make_release.py" --version "$version" --src "$src" --out "$tmp/a" || ko "make_release (a)"
# a copy of the tree whose files have other mtimes and modes: same bytes out
mkdir -p "$tmp/src2/conformance" "$tmp/src2/corpus"
cp -R "$src/corpus/gguf" "$src/corpus/safetensors" "$src/corpus/real" "$src/corpus/minted" "$tmp/src2/corpus/"
cp -R "$src/conformance/adapters" "$src/conformance/README.md" "$tmp/src2/conformance/"
touch -d '2001-02-03 04:05:06' "$tmp/src2/corpus/gguf/MANIFEST.tsv"
chmod 600 "$tmp/src2/corpus/safetensors/MANIFEST.tsv"
mtime=$(git -C "$src" log -1 --format=%ct 2> /dev/null || echo 0)
(umask 077 && "$py" "$src/conformance/release/make_release.py" --version "$version" --src "$tmp/src2" \
    --mtime "${mtime:-0}" --out "$tmp/b") || ko "make_release (b)"
a=$tmp/a/$name.tar.gz b=$tmp/b/$name.tar.gz
if [ -s "$a" ] && cmp "$a" "$b"; then ok "two builds are byte-identical ($(wc -c < "$a") bytes, sha256 $(sha256sum < "$a" | cut -c1-16)...)"
else ko "the two builds differ"; fi

tar -tvzf "$a" --numeric-owner > "$tmp/list" || ko "tar -t"
if awk '{ if ($2 != "0/0") exit 1 }' "$tmp/list"; then ok "every entry owned by 0/0"; else ko "owners: $(awk '{print $2}' "$tmp/list" | sort -u | tr '\n' ' ')"; fi
if [ "$(awk '{print $4, $5}' "$tmp/list" | sort -u | wc -l)" -eq 1 ]; then ok "one mtime for every entry"; else ko "several mtimes"; fi
tar -tzf "$a" > "$tmp/names"
if LC_ALL=C sort -c "$tmp/names" 2> /dev/null; then ok "entries sorted by name"; else ko "entries not sorted"; fi
if [ "$(head -1 "$tmp/names")" = "$name/" ] && ! grep -qv "^$name/" "$tmp/names"; then ok "one top folder $name/"; else ko "top folder"; fi

mkdir "$tmp/x" && tar -xzf "$a" -C "$tmp/x" || ko "tar -x"
d=$tmp/x/$name
if (cd "$d" && sha256sum --quiet -c SHA256SUMS); then ok "sha256sum -c SHA256SUMS: $(wc -l < "$d/SHA256SUMS") files"; else ko "sha256sum -c"; fi
(cd "$d" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/files"
awk '{print $2}' "$d/SHA256SUMS" | LC_ALL=C sort > "$tmp/summed"
if cmp -s "$tmp/files" "$tmp/summed"; then ok "SHA256SUMS lists every file"; else ko "SHA256SUMS does not list every file"; fi
for f in README.md adapters/example_adapter.c adapters/example_adapter.py adapters/tfs-adapter $(cd "$src/conformance" && ls adapters/*.xfail); do
    [ -f "$d/$f" ] && ok "has $f" || ko "lacks $f"
done
missing=0 lines=0 valid=0
for m in gguf safetensors real minted; do
    [ -f "$d/$m/MANIFEST.tsv" ] || { ko "lacks $m/MANIFEST.tsv"; continue; }
    while IFS='	' read -r id path sha size format expect rest; do
        [ "$id" = id ] && continue
        lines=$((lines + 1))
        [ -f "$d/$m/$path" ] || { missing=$((missing + 1)); echo "missing fixture $m/$path"; }
        if [ "$expect" = valid ]; then
            valid=$((valid + 1))
            [ -f "$d/$m/expected/$id.json" ] || { missing=$((missing + 1)); echo "missing expected $m/expected/$id.json"; }
        fi
    done < "$d/$m/MANIFEST.tsv"
done
if [ "$missing" -eq 0 ] && [ "$lines" -gt 0 ]; then ok "$lines manifest lines: every fixture there, $valid expected contents"
else ko "$missing fixtures or expected contents missing"; fi
# the unpacked release is a suite the runner runs: in process, every line in its own
# profile, as many cases as from the source tree; and through the tarball's own
# adapter on one case in 8 (--shard 1/8; ctest test_adapter_tfs_* runs the adapter on
# every case of the source tree)
"$tfs" conform --fixtures "$d" -q > "$tmp/conform.log" 2>&1
rc=$?
got=$(tail -1 "$tmp/conform.log")
want=$("$tfs" conform --fixtures "$src/corpus" --list | wc -l)
n=$(sed -n 's/^tfs conform: \([0-9]*\) cases.*/\1/p' "$tmp/conform.log")
if [ "$rc" -eq 0 ] && [ "$n" = "$want" ]; then ok "tfs conform --fixtures <unpacked>, in process: $got"
else cat "$tmp/conform.log"; ko "tfs conform on the unpacked release (exit $rc): $n cases, want $want"; fi
"$tfs" conform --fixtures "$d" -j 2 -q --timeout 120 --shard 1/8 --adapter "$d/adapters/tfs-adapter --tfs $tfs {file}" \
    > "$tmp/conform.log" 2>&1
rc=$?
got=$(tail -1 "$tmp/conform.log")
want=$("$tfs" conform --fixtures "$src/corpus" --profile default --shard 1/8 --list | wc -l)
n=$(sed -n 's/^tfs conform: \([0-9]*\) cases.*/\1/p' "$tmp/conform.log")
case $got in
*" 0 failed, 0 expected failures"*)
    if [ "$rc" -eq 0 ] && [ "$n" = "$want" ]; then ok "tfs conform --fixtures <unpacked> --adapter tfs-adapter --shard 1/8: $got"
    else ko "tfs conform --adapter on the unpacked release (exit $rc): $n cases, want $want"; fi ;;
*) cat "$tmp/conform.log"; ko "tfs conform --adapter on the unpacked release (exit $rc)" ;;
esac
# the check can fail: a flipped byte in one fixture
f=$(awk 'NR == 2 {print $2}' "$d/gguf/MANIFEST.tsv")
printf 'X' | dd of="$d/gguf/$f" bs=1 seek=0 conv=notrunc 2> /dev/null
if (cd "$d" && sha256sum --quiet -c SHA256SUMS > /dev/null 2>&1); then ko "sha256sum -c passes on a changed fixture"
else ok "sha256sum -c fails on a changed fixture (gguf/$f)"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
