#!/usr/bin/env bash
# `tfs conform --fixtures DIR` given several times: the folders combine into
# one suite (a private fixture folder beside corpus/), and a fixture id found
# in two folders (or the same folder given twice) is an error, exit 2.
# usage: test_conform_folders.sh TFS SOURCE_DIR
set -u
TFS=$1
SRC=$2
. "$(dirname "$0")/../lib.sh"

# a private folder with one fixture: a copy of a corpus file under a new id
mkdir -p "$tmp/private"
cp "$SRC/corpus/gguf/GG002-bad-magic-FUGG.gguf" "$tmp/private/p.gguf"
sha=$(sha256sum "$tmp/private/p.gguf" | cut -d' ' -f1)
size=$(stat -c %s "$tmp/private/p.gguf")
hdr=$(head -1 "$SRC/corpus/gguf/MANIFEST.tsv" | cut -f1-11) # the 11 columns (offset is optional)
printf '%s\nprivate-GG002-fugg\tp.gguf\t%s\t%s\tgguf\tparser_error\tGG002\tBAD_MAGIC\tdefault\tmagic FUGG\thand-written\n' \
    "$hdr" "$sha" "$size" >"$tmp/private/MANIFEST.tsv"

# both folders are listed, in the order given
"$TFS" conform --fixtures "$SRC/corpus" --fixtures "$tmp/private" --list >"$tmp/list" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || bad "two folders --list: exit $rc ($(cat "$tmp/err"))"
grep -q '^private-GG002-fugg	' "$tmp/list" || bad "the private fixture is not listed"
grep -q '^GG002-bad-magic-FUGG	' "$tmp/list" || bad "the corpus fixture is not listed (second --fixtures replaced the first)"
n_corpus=$("$TFS" conform --fixtures "$SRC/corpus" --list | wc -l)
n_both=$(wc -l <"$tmp/list")
[ "$n_both" -eq $((n_corpus + 1)) ] || bad "two folders list $n_both cases, want $((n_corpus + 1))"

# and run: the private case passes with the corpus
"$TFS" conform --fixtures "$SRC/corpus/gguf" --fixtures "$tmp/private" --id 'GG002*' --id 'private-*' --json "$tmp/r.json" -q \
    >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || bad "two folders run: exit $rc ($(tail -3 "$tmp/out"))"
grep -q '"id": *"private-GG002-fugg"' "$tmp/r.json" || bad "the report has no private case"
grep -q '"id": *"GG002-bad-magic-FUGG"' "$tmp/r.json" || bad "the report has no corpus case"

# a duplicate id across folders: exit 2, both manifests named
mkdir -p "$tmp/dup"
cp "$tmp/private/p.gguf" "$tmp/dup/p.gguf"
sed 's/^private-GG002-fugg/GG002-bad-magic-FUGG/' "$tmp/private/MANIFEST.tsv" >"$tmp/dup/MANIFEST.tsv"
"$TFS" conform --fixtures "$SRC/corpus/gguf" --fixtures "$tmp/dup" -q >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || bad "duplicate id: exit $rc, want 2"
grep -q 'fixture id GG002-bad-magic-FUGG in both' "$tmp/out" || bad "duplicate id: no message naming it ($(cat "$tmp/out"))"

# the same folder twice: every id is a duplicate
"$TFS" conform --fixtures "$tmp/private" --fixtures "$tmp/private/" -q >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || bad "same folder twice: exit $rc, want 2"

# a missing second folder: exit 2, named
"$TFS" conform --fixtures "$tmp/private" --fixtures "$tmp/nonexistent" -q >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || bad "missing folder: exit $rc, want 2"
grep -q "nonexistent" "$tmp/out" || bad "missing folder not named ($(cat "$tmp/out"))"

finish test_conform_folders
