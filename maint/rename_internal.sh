#!/usr/bin/env bash
# rename_internal.sh: give every internal (non-public) external-linkage symbol
# of libtfs the prefix tfs__ (libspng's spng__ style), so a program's own
# st_err or tfs_reserve can never collide with the library's, even when it
# links libtfs.a (where -fvisibility=hidden does not help).
#
#   maint/rename_internal.sh BUILD_DIR             dry run: print the mapping
#                                                  and the files it would edit
#   maint/rename_internal.sh BUILD_DIR --apply     edit the files in place
#   maint/rename_internal.sh BUILD_DIR --check     exit 1 unless every external
#                                                  symbol of libtfs.a is public
#                                                  or starts with tfs__
#   add --docs to --apply / the dry run to rewrite *.md as well
#
# BUILD_DIR is a configured and built tree (e.g. build/dev) of the current
# sources.  The list is derived, not typed:
#   internal = `nm -g --defined-only` of the objects in parsers/libtfs.a
#            - `nm -D --defined-only` of parsers/libtfs.so (the public API:
#              exactly the TFS_API declarations, ctest test_exports)
# New names: tfs_X -> tfs__X (tfs_src_get -> tfs__src_get, tfs_reserve ->
# tfs__reserve); any other name N -> tfs__N (st_err -> tfs__st_err,
# gg_parse_kvs -> tfs__gg_parse_kvs).
# Files rewritten: every tracked *.c and *.h (parsers, tests, tools, maint, bench,
# conformance, examples), with whole-word matches (sed \b...\b).  The script
# refuses when a new name already occurs somewhere in those files.
# Afterwards: rebuild, run ctest, then `--check` (or enable ctest
# test_internal_prefix in tests/ship/tests.cmake).
set -euo pipefail
usage() { sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
(($# >= 1)) || usage
build=$1
shift
mode=dry docs=0
for a in "$@"; do
    case $a in
        --apply) mode=apply ;;
        --check) mode=check ;;
        --docs) docs=1 ;;
        *) usage ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
a=$build/parsers/libtfs.a
so=$(ls "$build"/parsers/libtfs.so.*.*.* 2> /dev/null | head -1 || true)
[[ -f $a && -n $so ]] || { echo "rename_internal.sh: $build/parsers/libtfs.a and libtfs.so.X.Y.Z not found (build first)" >&2; exit 2; }

defined=$(nm -g --defined-only "$a" | awk 'NF == 3 {print $3}' | sort -u)
public=$(nm -D --defined-only "$so" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
# C identifiers only: not the compiler's helpers (__x86.get_pc_thunk.* of
# 32-bit PIC code, reserved __names)
internal=$(comm -23 <(printf '%s\n' "$defined") <(printf '%s\n' "$public") |
    grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | grep -v -E '^(tfs__|__)' || true)

if [[ $mode == check ]]; then
    if [[ -z $internal ]]; then
        echo "libtfs.a: $(printf '%s\n' "$defined" | grep -c .) external symbols: public (tfs_*) or internal (tfs__*)"
        echo "1 passed, 0 failed"
        exit 0
    fi
    echo "FAIL: internal symbols of libtfs.a without the tfs__ prefix:"
    printf '  %s\n' $internal
    echo "0 passed, 1 failed"
    exit 1
fi

bad=$(printf '%s\n' "$public" | grep -v '^tfs_' || true)
[[ -z $bad ]] || { echo "rename_internal.sh: libtfs.so exports non-tfs_ names ($bad): fix visibility first (ctest test_exports)" >&2; exit 1; }
[[ -n $internal ]] || { echo "nothing to rename: every internal symbol already starts with tfs__"; exit 0; }

newname() { if [[ $1 == tfs_* ]]; then printf 'tfs__%s' "${1#tfs_}"; else printf 'tfs__%s' "$1"; fi; }

mapfile -t files < <(git ls-files '*.c' '*.h')
((docs)) && mapfile -t -O "${#files[@]}" files < <(git ls-files '*.md')

# the new names must be unused, or the rename would merge two identifiers
clash=0
for s in $internal; do
    n=$(newname "$s")
    if grep -l -w -- "$n" "${files[@]}" > /dev/null 2>&1; then
        echo "rename_internal.sh: $n already occurs in: $(grep -l -w -- "$n" "${files[@]}" | tr '\n' ' ')" >&2
        clash=1
    fi
done
((clash == 0)) || exit 1

script=$(mktemp)
trap 'rm -f "$script"' EXIT
count=0
for s in $internal; do
    n=$(newname "$s")
    printf 's/\\<%s\\>/%s/g\n' "$s" "$n" >> "$script"
    uses=$( (grep -o -w -- "$s" "${files[@]}" 2> /dev/null || true) | wc -l)
    printf '%-34s -> %-36s %4d uses\n' "$s" "$n" "$uses"
    count=$((count + 1))
done
touched=$(grep -l -w -F -f <(printf '%s\n' $internal) "${files[@]}" 2> /dev/null || true)
echo "$count internal symbols; files to edit: $(printf '%s\n' "$touched" | grep -c .)"
if [[ $mode == dry ]]; then
    printf '  %s\n' $touched
    echo "dry run: nothing changed (add --apply)"
    exit 0
fi
for f in $touched; do sed -i -f "$script" "$f"; done
echo "applied to $(printf '%s\n' "$touched" | grep -c .) files; now rebuild, run ctest, then: $0 $build --check"
