#!/bin/sh
# test_valgrind.sh TFS_BINARY SOURCE_DIR: `tfs check` over every fixture and
# real file of corpus/ under valgrind memcheck, in the three profiles: no
# invalid read or write, no use of uninitialised memory, no leak.  One process
# per profile (tfs check takes many files), so the whole run takes seconds.
# Exit 0 clean, 1 on any valgrind error (exit 99) or unexpected tfs status.
set -u
tfs=$1
src=$2
files=$(find "$src/corpus" -type f ! -name MANIFEST.tsv ! -name '*.md' ! -path '*/expected/*' | sort)
n=$(printf '%s\n' "$files" | wc -l)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=0
fail=0
for profile in "" --strict --header-only; do
    # shellcheck disable=SC2086 # one argument per file (fixture names have no spaces)
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all --track-origins=yes \
        "$tfs" check $profile $files > /dev/null 2> "$log"
    rc=$?
    # 1: some files are invalid, as they should be; 99: valgrind found an error
    if [ "$rc" -eq 1 ] && [ ! -s "$log" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: tfs check ${profile:-(default)} over $n files: exit $rc"
        head -40 "$log"
    fi
done
echo "valgrind over $n corpus files, 3 profiles: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
