#!/bin/sh
# test_rerun.sh PYTHON3 TFS: conformance/matrix/rerun.py (docs/matrix.md
# "Independent rerun").
#  1. its comparison on the committed sample (rerun-sample/: a results.json of
#     two columns, the reports of their reruns, explanations): the counts, the
#     class pairs, the explanations found, the cells only one side has, the
#     exit status (1 with an unexplained difference, 0 once it is explained,
#     2 for usage); no reader needed.
#  2. one second adapter end to end (rerun/hyllama.mjs over eight fixtures:
#     tfs conform, then rerun.py --compare against docs/results.json: every
#     cell agrees); skipped (77) with a message when hyllama is not in the
#     reader cache (no install from a test).
set -u
py=$1 tfs=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
s=$here/rerun-sample

"$py" "$here/rerun.py" --help > "$tmp/help" || fail "--help exit $?"
grep -q -- "--compare REPORTS_DIR" "$tmp/help" || fail "--help lacks --compare"
"$py" "$here/rerun.py" --no-such-option 2> /dev/null; [ $? -eq 2 ] || fail "a bad option: want exit 2"
"$py" "$here/rerun.py" --compare "$s/reports" --results "$s/results.json" --only nope 2> /dev/null
[ $? -eq 2 ] || fail "an unknown column: want exit 2"

"$py" "$here/rerun.py" --compare "$s/reports" --results "$s/results.json" --explained "$s/explained.tsv" \
    --out "$tmp/r.json" > "$tmp/out"
rc=$?
[ $rc -eq 1 ] || fail "one unexplained difference: want exit 1, got $rc"
grep -q "^reader-a: 5 compared, 3 agree, 2 differ (1 unexplained)" "$tmp/out" || { cat "$tmp/out"; fail "reader-a line"; }
grep -q "^reader-b: 3 compared, 2 agree, 1 differ (0 unexplained)" "$tmp/out" || { cat "$tmp/out"; fail "reader-b line"; }
grep -q "unexplained: F5: pass -> wrong_rule" "$tmp/out" || fail "F5 not listed as unexplained"
"$py" - "$tmp/r.json" << 'PY' || fail "the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in d["columns"]}
assert set(c) == {"reader-a", "reader-b"}, c.keys()
a, b = c["reader-a"], c["reader-b"]
assert (a["compared"], a["agreeing"]) == (5, 3), a
assert a["pairs"] == {"pass -> wrong_rule": 1, "timeout -> pass": 1}, a["pairs"]
d4 = [x for x in a["differences"] if x["fixture"] == "F4"][0]
assert d4["explained"].startswith("nondeterminism: "), d4
assert [x for x in a["differences"] if x["fixture"] == "F5"][0]["explained"] is None
assert a["only_published"] == ["F6"] and a["only_rerun"] == ["F7"], a
assert a["reader_version"] == "1.0 (sample)" and a["first_adapter"] == "first-a {file}", a
assert (b["compared"], b["agreeing"], b["pairs"]) == (3, 2, {"misread -> pass": 1}), b
assert b["differences"][0]["explained"] == "adapter: the second adapter reports no content", b
assert d["published"]["tfs_commit"] == "sample" and "corpus" in d and "tfs_commit" in d
PY
cp "$s/explained.tsv" "$tmp/all.tsv"
printf 'reader-a\tpass\twrong_rule\tF5\tadapter\tsample\n' >> "$tmp/all.tsv"
"$py" "$here/rerun.py" --compare "$s/reports" --results "$s/results.json" --explained "$tmp/all.tsv" > "$tmp/out2"
[ $? -eq 0 ] || { cat "$tmp/out2"; fail "every difference explained: want exit 0"; }
grep -q "pass -> wrong_rule: 1 (e.g. F5)" "$tmp/out2" || fail "class pair line"
echo "ok: comparison on the sample"

cache=${TFS_READER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tfs/readers}
if [ ! -f "$cache/hyllama@0.2.2/.installed" ] || ! command -v node > /dev/null; then
    echo "SKIP: hyllama 0.2.2 is not in the reader cache ($cache) or node is missing: the end-to-end part needs it"
    exit 77
fi
mkdir -p "$tmp/rep"
ids="valid-kv-every-scalar-type GG002-bad-magic-FUGG GG001-empty-file GG010-version-0 valid-G7-zero-dim GG101-key-length-2-30-plus-1 GG103-truncated-key-length GG201-truncated-n-dims"
set --
for i in $ids; do set -- "$@" --id "$i"; done
(cd "$root" && "$tfs" conform -q --timeout 60 --profile header-only --format gguf --no-sanity-check --adapter \
    'node conformance/adapters/rerun/hyllama.mjs {file}' --category-map conformance/adapters/maps/hyllama.tsv \
    --json "$tmp/rep/hyllama.json" "$@" > /dev/null)
"$py" "$here/rerun.py" --compare "$tmp/rep" --only hyllama --explained /dev/null --out "$tmp/h.json" > "$tmp/out3"
[ $? -eq 0 ] || { cat "$tmp/out3"; fail "hyllama rerun differs from docs/results.json"; }
grep -q "^hyllama: 8 compared, 8 agree, 0 differ" "$tmp/out3" || { cat "$tmp/out3"; fail "hyllama counts"; }
echo "ok: rerun/hyllama.mjs agrees with the published column on 8 fixtures"
