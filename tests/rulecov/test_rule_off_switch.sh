#!/bin/sh
# test_rule_off_switch.sh SOURCE_DIR WORK_DIR PYTHON3
# The rule-coverage switch (cmake -DTFS_RULE_OFF=<id>, docs/rule-coverage.md):
#  1. an id that is not a live rule of include/tfs/rules.def is refused at configure time;
#  2. maint/rule_coverage.sh --rules ST110,GG204 (the unmutated baseline, then two
#     one-rule-off builds in WORK_DIR/rulecov): both rules killed, by fixtures about
#     them only (no leak, no collateral change, no crash);
#  3. the GG204 build (the last one the script leaves) no longer reports GG204 on
#     GG204-G1-n-dims-5: it reads the first 4 dimensions and stops at a later rule.
set -u
src=$1
work=$2
py=$3
fail() { echo "test_rule_off_switch: FAIL: $*"; exit 1; }
mkdir -p "$work"

if cmake -S "$src" -B "$work/bad" -DTFS_RULE_OFF=GG999 -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_TOOLS=OFF \
    -DTFS_BUILD_BENCH=OFF -DTFS_INSTALL=OFF > "$work/bad.log" 2>&1; then
    fail "TFS_RULE_OFF=GG999 (no such rule) configured"
fi
grep -q "TFS_RULE_OFF=GG999: not a rule id" "$work/bad.log" || { cat "$work/bad.log"; fail "no clear message for GG999"; }

"$src/maint/rule_coverage.sh" --rules ST110,GG204 --json --build-dir "$work/rulecov" > "$work/score.json"
rc=$?
cat "$work/score.json"
[ $rc -eq 0 ] || fail "rule_coverage.sh exited $rc"
"$py" - "$work/score.json" << 'PY' || fail "score"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["summary"]["total"]
assert (t["killed"], t["rules"], t["leaks"], t["collateral"], t["mutants_crashing"]) == (2, 2, 0, 0, 0), t
rules = {r["id"]: r for r in d["rules"]}
assert sorted(rules) == ["GG204", "ST110"], sorted(rules)
for rid, r in rules.items():
    assert r["status"] == "killed", r
    assert all(f.startswith(rid + "-") for f in r["killing_fixtures"]), r
assert "GG204-G1-n-dims-5" in rules["GG204"]["killing_fixtures"]
assert "ST110-trailing-comma-object" in rules["ST110"]["killing_fixtures"]
PY

out=$("$work/rulecov/maint/rule_coverage_check" --off GG204 "$src/corpus/gguf/MANIFEST.tsv")
line=$(printf '%s\n' "$out" | grep '^FAIL GG204-G1-n-dims-5	')
echo "$line"
case $line in
*"want parser_error GG204") ;;
*) fail "GG204 build on GG204-G1-n-dims-5: $line" ;;
esac
case $line in
*"	parser_error GG204,"*) fail "GG204 build still reports GG204" ;;
esac
printf '%s\n' "$out" | grep -q '^LEAK ' && fail "a GG204 place ignores the switch"
echo "test_rule_off_switch: ok"
