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
if cmp -s "$root/docs/findings.md" "$tmp/findings.md" && diff -r "$root/docs/findings" "$tmp/findings" > "$tmp/pages.diff"; then
    echo "ok: docs/findings.md and docs/findings/*.md are findings.py's output for docs/results.json"
else
    head -20 "$tmp/pages.diff"
    diff "$root/docs/findings.md" "$tmp/findings.md" | head -20
    echo "FAIL: docs/findings.md differs from conformance/matrix/findings.py's output (regenerate it)"
    fail=1
fi
# a protocol warning on a cell (conform's per-case "warning") shows as a `*` in the
# Markdown and as a `*` plus the warning text in the page; without one the page is unchanged
if "$py" - "$here" "$root/docs/results.json" "$root/docs/results.md" << 'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import render, findings
doc = json.load(open(sys.argv[2]))
lk = findings.links(doc)
assert render.markdown(doc, lk) == open(sys.argv[3]).read(), "docs/results.md is not render.py's output"
# every non-pass cell links to a class that its reader's page has
for rid, m in lk.items():
    page = open(sys.argv[3].replace("results.md", "findings/" + rid + ".md")).read()
    for fid, url in m.items():
        assert f'<a id="{url.split("#")[1]}"></a>' in page and fid in page, (rid, fid, url)
rid = next(r["id"] for r in doc["readers"] if r["id"] in doc["cells"])
fid = next(iter(doc["cells"][rid]))
doc["cells"][rid][fid]["warning"] = "JSON line after 1 line of other output"
md, page = render.markdown(doc), render.html(doc, "..")
assert md.count("\\*") == 1 and "A `*` after a cell" in md, "warning not marked in the Markdown"
assert "protocol warning: " in page, "warning not in the page"
PY
then
    echo "ok: a cell's protocol warning is marked in results.md and results.html"
else
    echo "FAIL: render.py does not show a cell's protocol warning"
    fail=1
fi
# options: --help prints the usage (exit 0), an unknown option is refused (exit 2)
"$py" "$here/findings.py" --help > "$tmp/help" 2>&1; rc=$?
"$py" "$here/findings.py" --no-such-option > "$tmp/bad" 2>&1; rc2=$?
if [ "$rc" -eq 0 ] && grep -q -- "--check" "$tmp/help" && [ "$rc2" -eq 2 ] && grep -q "unknown option" "$tmp/bad"; then
    echo "ok: findings.py --help exits 0, an unknown option exits 2"
else
    echo "FAIL: findings.py --help gave $rc, an unknown option $rc2"
    fail=1
fi
exit $fail
