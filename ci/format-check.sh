#!/usr/bin/env bash
# ci/format-check.sh [SOURCE_DIR]: every tracked C file (*.c, *.h) is
# formatted as .clang-format says.  Prints the files that are not, with the
# command that fixes them; exit 0 when all are, 1 when one is not, 77 (ctest
# skip) without clang-format or outside a git checkout.
# Run by ctest test_format when configured with -DTFS_FORMAT_CHECK=ON.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" > /dev/null; then
    echo "SKIP: $cf not found (Debian: apt-get install clang-format)"
    exit 77
fi
if ! files=$(git ls-files '*.c' '*.h' 2> /dev/null) || [[ -z $files ]]; then
    echo "SKIP: no git checkout at $root (the check lists the tracked C files)"
    exit 77
fi
# one clang-format run over all files; --dry-run warns "FILE:LINE:COL: ..."
mapfile -t list <<< "$files"
mapfile -t bad < <("$cf" --style=file --dry-run "${list[@]}" 2>&1 | sed -n 's/^\([^:]*\.[ch]\):[0-9]*:[0-9]*: .*/\1/p' | sort -u)
n=$(printf '%s\n' "$files" | grep -c .)
if ((${#bad[@]})); then
    printf 'not formatted: %s\n' "${bad[@]}"
    echo "${#bad[@]} of $n C files differ from .clang-format; fix: $cf -i --style=file FILE..."
    echo "0 passed, 1 failed"
    exit 1
fi
echo "$n C files formatted as .clang-format says"
echo "1 passed, 0 failed"
