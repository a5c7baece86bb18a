#!/bin/sh
# test_current.sh PYTHON TFS: the committed matrix covers the current corpus
# for every column CI can run (check_current.py on docs/results.json), and the
# check fails, naming the id, when one cell of such a column is missing (a
# copy of docs/results.json with one cell taken out).  No reader is run.
set -u
py=$1 tfs=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
if "$py" "$here/check_current.py" --tfs "$tfs" "$root/docs/results.json" > "$tmp/out" 2>&1; then
    echo "ok: docs/results.json has a cell for every current fixture of every CI column ($(grep -c '^ok: ' "$tmp/out") columns complete)"
else
    grep -v '^ok: ' "$tmp/out"
    echo "FAIL: docs/results.json lacks current fixtures: conformance/matrix/run.sh --only-new (docs/matrix.md)"
    fail=1
fi
# a planted gap: the last cell of the first CI column taken out
planted=$("$py" - "$here" "$root/docs/results.json" "$tmp/planted.json" << 'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import matrix
doc = json.load(open(sys.argv[2]))
rid = next(r["id"] for r in doc["readers"] if r["id"] in matrix.CI_RUNNABLE and doc["cells"].get(r["id"]))
fid = sorted(doc["cells"][rid])[-1]
del doc["cells"][rid][fid]
json.dump(doc, open(sys.argv[3], "w"))
print(rid, fid)
PY
)
set -- $planted
"$py" "$here/check_current.py" --tfs "$tfs" "$tmp/planted.json" > "$tmp/planted.out" 2>&1; rc=$?
if [ "$rc" -eq 1 ] && grep -q "^STALE: $1: lacks 1 current fixtures .*: $2\$" "$tmp/planted.out"; then
    echo "ok: a missing cell ($1 $2) fails the check (exit 1) and is named"
else
    cat "$tmp/planted.out"
    echo "FAIL: the planted missing cell $1 $2 gave exit $rc without naming it"
    fail=1
fi
exit $fail
