#!/bin/sh
# check_triggers.sh MKTRIGGERS SRCDIR TMPDIR: the trigger files kept in
# SRCDIR/triggers are exactly what MKTRIGGERS writes, and every bug of
# SRCDIR/bugs.tsv has one (ctest test_bug_triggers_current).
# Regenerate: MKTRIGGERS SRCDIR/triggers
set -eu
mk=$1 src=$2 tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp"
"$mk" "$tmp"
rc=0
for f in "$tmp"/*; do
  b=$(basename "$f")
  if ! cmp -s "$f" "$src/triggers/$b"; then echo "out of date: bench/fuzz/triggers/$b (regenerate: $mk $src/triggers)"; rc=1; fi
done
for f in "$src"/triggers/*; do
  [ -e "$tmp/$(basename "$f")" ] || { echo "stale: bench/fuzz/triggers/$(basename "$f")"; rc=1; }
done
for id in $(awk -F'\t' '!/^#/ && $1 != "id" && NF >= 6 {print $1 "." ($2 == "gguf" ? "gguf" : "safetensors")}' "$src/bugs.tsv"); do
  [ -e "$src/triggers/$id" ] || { echo "bug without a trigger: $id"; rc=1; }
done
[ $rc -eq 0 ] && echo "bench/fuzz/triggers: $(ls "$src/triggers" | wc -l) triggers, up to date"
exit $rc
