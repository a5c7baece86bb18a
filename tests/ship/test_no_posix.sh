#!/bin/sh
# test_no_posix.sh LIBTFS_A "FORBIDDEN..." "PENDING..."
# A TFS_POSIX=OFF libtfs calls no POSIX I/O and no getrandom: no object of
# libtfs.a may reference (nm -u) a FORBIDDEN symbol.  PENDING symbols are
# reported but do not fail yet (POSIX file code not yet moved into
# parsers/core/posix_*.c); move them to FORBIDDEN when it is.
set -eu
lib=$1 forbidden=$2 pending=$3
undef=$(nm -u "$lib" 2> /dev/null | awk 'NF >= 2 {print $NF}' | sed 's/@.*//' | sort -u)
fail=0
for s in $forbidden; do
    if printf '%s\n' "$undef" | grep -q -x "$s"; then
        echo "FAIL: libtfs.a references $s:"
        nm -A -u "$lib" | grep "[[:space:]]$s\(@.*\)\?$" | sed 's/^/  /'
        fail=1
    fi
done
for s in $pending; do
    if printf '%s\n' "$undef" | grep -q -x "$s"; then
        echo "pending (not yet failing): libtfs.a references $s: $(nm -A -u "$lib" | grep "[[:space:]]$s\(@.*\)\?$" | cut -d: -f2 | tr '\n' ' ')"
    fi
done
n=$(printf '%s\n' "$undef" | grep -c . || true)
echo "libtfs.a: $n undefined symbols, none of: $forbidden"
if [ "$fail" -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit "$fail"
