#!/bin/sh
# test_exports.sh LIBTFS_SO SOURCE_DIR BUILD_INCLUDE_DIR CC [CFLAGS...]
#
# The shared library exports exactly the public API: the dynamic symbol
# table (`nm -D --defined-only`) must equal the set of functions declared
# with TFS_API in include/tfs/*.h (read through the C preprocessor with the
# build's flags, so declarations left out by #ifdef TFS_NO_POSIX are left out
# here too).  Fails on any exported symbol that is not declared public (an
# internal leaking out) and on any public function that is not exported.
set -eu
lib=$1 src=$2 gen=$3 cc=$4
shift 4
cflags=
for a in "$@"; do [ -n "$a" ] && cflags="$cflags $a"; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. the public declarations: every header of include/tfs, TFS_API replaced
#    by a marker (tfs/export.h lets the includer define TFS_API).
{
    for h in "$src"/include/tfs/*.h; do printf '#include "tfs/%s"\n' "$(basename "$h")"; done
    printf '#include "tfs/version.h"\n'
} > "$tmp/all.c"
# shellcheck disable=SC2086
"$cc" $cflags -E -P -DTFS_API=TFS_EXPORT_MARKER -I"$src/include" -I"$gen" "$tmp/all.c" > "$tmp/all.i"
tr '\n' ' ' < "$tmp/all.i" | tr ';' '\n' |
    sed -n 's/.*TFS_EXPORT_MARKER[^(]*[^A-Za-z0-9_]\(tfs_[A-Za-z0-9_]*\)[[:space:]]*(.*/\1/p' |
    sort -u > "$tmp/declared"

# 2. what the library exports (linker-made markers are not library code)
nm -D --defined-only "$lib" | awk '{print $NF}' |
    grep -v -x -E '_init|_fini|_edata|_end|__bss_start|_etext|__end__|__data_start' |
    sed 's/@.*//' | sort -u > "$tmp/exported"

nd=$(wc -l < "$tmp/declared")
ne=$(wc -l < "$tmp/exported")
echo "$nd functions declared TFS_API in include/tfs/*.h; $ne symbols exported by $(basename "$lib")"

# the scan itself must see the API (a broken pattern must not pass vacuously)
for must in tfs_parse_buffer tfs_header_free tfs_rule_id tfs_version tfs_rule_format tfs_rule_index_kind; do
    grep -q -x "$must" "$tmp/declared" || { echo "FAIL: $must not found among the declarations (scan broken?)"; fail=1; }
done

leaked=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$leaked" ]; then
    echo "FAIL: exported but not declared TFS_API in include/tfs/*.h (internal symbols leak):"
    printf '  %s\n' $leaked
    fail=1
fi
if [ -n "$missing" ]; then
    echo "FAIL: declared TFS_API but not exported:"
    printf '  %s\n' $missing
    fail=1
fi
bad_prefix=$(grep -v '^tfs_' "$tmp/exported" || true)
if [ -n "$bad_prefix" ]; then
    echo "FAIL: exported symbols without the tfs_ prefix:"
    printf '  %s\n' $bad_prefix
    fail=1
fi
if [ "$fail" -eq 0 ]; then
    echo "exports = public API ($ne symbols)"
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
fi
exit "$fail"
