#!/bin/sh
# gen_lint_corpus.sh LINT_MKFILES OUT_DIR
# Writes the lint and model-set fixtures (tests/lint/lint_mkfiles.c, the C
# writer) into OUT_DIR (corpus/lint in the repository: files/, sets/) and
# their manifest OUT_DIR/LINT.tsv, sorted by id:
#   id path sha256 size kind expect description
# (docs/lint.md "Fixtures"; `tfs conform --lint` runs it).  Deterministic:
# test_lint regenerates the corpus and compares it with the committed one.
set -eu
mk=$1 out=$2
rm -rf "$out/files" "$out/sets"
mkdir -p "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$mk" "$out" > "$tmp"
{
    printf 'id\tpath\tsha256\tsize\tkind\texpect\tdescription\n'
    while IFS="$(printf '\t')" read -r id path kind expect desc; do
        sum=$(sha256sum "$out/$path" | cut -d' ' -f1)
        size=$(wc -c < "$out/$path" | tr -d ' ')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$path" "$sum" "$size" "$kind" "$expect" "$desc"
    done < "$tmp" | LC_ALL=C sort
} > "$out/LINT.tsv"
