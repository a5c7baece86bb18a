#!/bin/sh
# test_findings.sh PYTHON: docs/findings.md explains every non-pass cell of
# docs/results.json (findings.py --check), the check fails on a cell nothing
# explains, and docs/findings.md is what findings.py makes from the committed
# docs/results.json (no hand edit, not stale).
set -u
py=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
if "$py" "$here/findings.py" --check "$root/docs/results.json" > "$tmp/check" 2>&1; then
    echo "ok: every non-pass cell of docs/results.json is explained ($(tail -1 "$tmp/check"))"
else
    cat "$tmp/check"
    echo "FAIL: non-pass cells without an explanation (add an entry to EXPLAIN or CELL_NOTES in findings.py)"
    fail=1
fi
# a reader column the explanations do not know: the check must name its cell and fail
"$py" - "$root/docs/results.json" "$tmp/fake.json" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
fid = doc["fixtures"][0]["id"]
doc["readers"].append({"id": "no-such-reader", "label": "no such reader", "profile": "default"})
doc["cells"]["no-such-reader"] = {fid: {"result": "false_accept", "expect": "parser_error"}}
json.dump(doc, open(sys.argv[2], "w"))
PY
if "$py" "$here/findings.py" --check "$tmp/fake.json" > "$tmp/fake.out" 2>&1; then
    echo "FAIL: findings.py --check passed a results.json with an unexplained cell"
    fail=1
elif grep -q "^unexplained: no-such-reader " "$tmp/fake.out"; then
    echo "ok: an unexplained cell fails the check and is named"
else
    cat "$tmp/fake.out"
    echo "FAIL: findings.py --check failed without naming the unexplained cell"
    fail=1
fi
cp "$root/docs/findings.md" "$tmp/findings.md"
"$py" "$here/findings.py" "$root/docs/results.json" "$tmp/findings.md" 2> /dev/null
if cmp -s "$root/docs/findings.md" "$tmp/findings.md"; then
    echo "ok: docs/findings.md is findings.py's output for docs/results.json"
else
    diff "$root/docs/findings.md" "$tmp/findings.md" | head -20
    echo "FAIL: docs/findings.md differs from conformance/matrix/findings.py's output (regenerate it)"
    fail=1
fi
exit $fail
