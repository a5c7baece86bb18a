#!/usr/bin/env bash
# keep_total_big.sh SCRATCH: judge the kv.c mutants of the stream's 64 MiB keep total
# (GG_ARR_KEEP_TOTAL) by the two files of generators/gg_keep_total_big.py, which are too large for
# corpus/ (docs/fixtures.md "Gaps").  In SCRATCH (created, about 140 MB used): a git worktree of HEAD
# (removed at the end), a release build of tfs-conform, the two fixtures; then for each mutant: kv.c changed, tfs-conform
# rebuilt, `tfs conform --profile default` on the two files, kv.c restored.
# Prints one line per mutant ("killed" when a file fails) and exits 1 when one survives or the
# unmutated build fails a file; 2 on a usage or build error.
set -uo pipefail
scratch=${1:?usage: maint/mutants/keep_total_big.sh SCRATCH}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$scratch" || exit 2
scratch=$(cd "$scratch" && pwd)
wt=$scratch/src fx=$scratch/fixtures b=$scratch/build
git -C "$root" worktree add -q --detach "$wt" HEAD || exit 2
trap 'git -C "$root" worktree remove --force "$wt"' EXIT
cmake -S "$wt" -B "$b" -DCMAKE_BUILD_TYPE=Release -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_BENCH=OFF >/dev/null || exit 2
build() { cmake --build "$b" -j2 --target tfs-conform >/dev/null 2>&1; }
build || exit 2
"${TFS_PYTHON3:-/usr/bin/python3}" "$wt/generators/gg_keep_total_big.py" "$fx" >/dev/null || exit 2
judge() { "$b/tools/tfs-conform" --fixtures "$fx" --profile default -q 2>&1 | tail -1; }
base=$(judge)
echo "unmutated: $base"
case $base in "2 passed, 0 failed"*) ;; *) exit 1 ;; esac
kv=$wt/parsers/gguf/kv.c
cp "$kv" "$scratch/kv.c.orig"
rc=0
# id, sed expression (each changes one line of kv.c)
while IFS='|' read -r id expr; do
    sed -i "$expr" "$kv"
    if cmp -s "$kv" "$scratch/kv.c.orig"; then
        echo "$id: the change does not apply (kv.c moved on)"
        rc=2
    elif ! build; then
        echo "$id: did not compile"
        rc=2
    else
        out=$(judge)
        case $out in *" 0 failed"*) echo "$id: SURVIVED ($out)"; rc=1 ;; *) echo "$id: killed ($out)" ;; esac
    fi
    cp "$scratch/kv.c.orig" "$kv"
done <<'EOF'
98ee6e88#0:crp|s/c->arr_kept_total + 8u + len <= GG_ARR_KEEP_TOTAL/c->arr_kept_total + 9u + len <= GG_ARR_KEEP_TOTAL/
98ee6e88#0:ror|s/c->arr_kept_total + 8u + len <= GG_ARR_KEEP_TOTAL/c->arr_kept_total + 8u + len < GG_ARR_KEEP_TOTAL/
98ee6e88#1:crp|s/c->arr_kept_total + 8u + len <= GG_ARR_KEEP_TOTAL/c->arr_kept_total + 7u + len <= GG_ARR_KEEP_TOTAL/
ca1d3e1b#0:crp|s/c->arr_kept_total += 8u + len;/c->arr_kept_total += 9u + len;/
ca1d3e1b#1:crp|s/c->arr_kept_total += 8u + len;/c->arr_kept_total += 7u + len;/
3d8ed8f2#0:aor|s/room = GG_ARR_KEEP_TOTAL - c->arr_kept_total;/room = GG_ARR_KEEP_TOTAL + c->arr_kept_total;/
78559d05#2:cond|s/if (n > room) n = room;/if (0) n = room;/
1475d158#0:aor|s/n -= n % esz;/n += n % esz;/
EOF
exit $rc
