#!/bin/sh
# run.sh [matrix.py options]: the results matrix, every fixture through every
# reader (docs/matrix.md).  Build first (cmake --build --preset dev) and, for
# the C/C++ readers, conformance/adapters/c/build_readers.sh.  The command
# line is recorded in the outputs, each argument quoted as a shell needs it.
here=$(cd "$(dirname "$0")" && pwd)
cmd=conformance/matrix/run.sh
for a in "$@"; do
    case $a in
    *[!A-Za-z0-9_./=,:@+-]* | '') cmd="$cmd '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'" ;;
    *) cmd="$cmd $a" ;;
    esac
done
exec "${TFS_PYTHON3:-python3}" "$here/matrix.py" --command "$cmd" "$@"
