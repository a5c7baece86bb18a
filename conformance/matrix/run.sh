#!/bin/sh
# run.sh [matrix.py options]: the results matrix, every fixture through every
# reader (docs/matrix.md).  Build first (cmake --build --preset dev) and, for
# the C/C++ readers, conformance/adapters/c/build_readers.sh.
here=$(cd "$(dirname "$0")" && pwd)
exec "${TFS_PYTHON3:-python3}" "$here/matrix.py" --command "conformance/matrix/run.sh $*" "$@"
