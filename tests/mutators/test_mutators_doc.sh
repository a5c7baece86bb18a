#!/usr/bin/env bash
# test_mutators_doc.sh TFS SOURCE_DIR: docs/mutators.md lists every mutation
# name of `tfs mutate --list` (and no name that is not one).
set -euo pipefail
tfs=$1 src=$2
names=$("$tfs" mutate --list | awk '{print $1}')
[[ -n $names ]] || { echo "no mutations listed"; exit 1; }
rc=0
for n in $names; do
    grep -qF "| \`$n\` |" "$src/docs/mutators.md" || { echo "docs/mutators.md lacks $n"; rc=1; }
done
for n in $(grep -oE '^\| `[a-z]+\.[A-Za-z0-9_]+` \|' "$src/docs/mutators.md" | sed -E 's/^\| `([^`]+)`.*/\1/'); do
    grep -qxF "$n" <<< "$names" || { echo "docs/mutators.md names $n, which is not a mutation"; rc=1; }
done
echo "$(wc -w <<< "$names") mutations documented"
exit $rc
