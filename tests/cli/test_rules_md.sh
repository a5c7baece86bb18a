#!/bin/sh
# test_rules_md.sh TFS_BINARY SOURCE_DIR: fails when docs/rules.md is not what
# maint/gen_rules_md.sh makes from the current rules table.
set -eu
tfs=$1
src=$2
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$src/maint/gen_rules_md.sh" "$tfs" "$tmp"
if ! [ -f "$src/docs/rules.md" ]; then
    echo "FAIL: docs/rules.md is missing; run: maint/gen_rules_md.sh $tfs docs/rules.md"
    echo "0 passed, 1 failed"
    exit 1
fi
if ! diff -u "$src/docs/rules.md" "$tmp"; then
    echo "FAIL: docs/rules.md is out of date; run: maint/gen_rules_md.sh $tfs docs/rules.md"
    echo "0 passed, 1 failed"
    exit 1
fi
n=$(grep -c '^| [SG][TG][0-9][0-9][0-9] |' "$tmp")
want=$("$tfs" rules --tsv | tail -n +2 | wc -l)
if [ "$n" -ne "$want" ]; then
    echo "FAIL: docs/rules.md lists $n rules, the table has $want"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "docs/rules.md up to date ($n rules)"
echo "1 passed, 0 failed"
