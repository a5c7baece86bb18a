#!/bin/sh
# test_rule_off_switch.sh SOURCE_DIR WORK_DIR PYTHON3 RULE
# The rule-coverage switch (cmake -DTFS_RULE_OFF=<id>, docs/rule-coverage.md),
# one rule per ctest test (test_rule_off_switch_ST110, _GG204: one per parser),
# each in its own build tree WORK_DIR/rulecov-RULE:
#  1. (ST110) an id that is not a live rule of include/tfs/rules.def is refused
#     at configure time;
#  2. maint/rule_coverage.sh --rules RULE (the unmutated baseline, then the
#     one-rule-off build): the rule killed, by fixtures about it only (no leak,
#     no collateral change, no crash);
#  3. (GG204) the GG204 build no longer reports GG204 on GG204-G1-n-dims-5: it
#     reads the first 4 dimensions and stops at a later rule.
set -u
src=$1
work=$2
py=$3
rule=$4
fail() { echo "test_rule_off_switch $rule: FAIL: $*"; exit 1; }
case $rule in ST110 | GG204) ;; *) fail "RULE is ST110 or GG204" ;; esac
mkdir -p "$work"

if [ "$rule" = ST110 ]; then
    if cmake -S "$src" -B "$work/bad" -DTFS_RULE_OFF=GG999 -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_TOOLS=OFF \
        -DTFS_BUILD_BENCH=OFF -DTFS_INSTALL=OFF > "$work/bad.log" 2>&1; then
        fail "TFS_RULE_OFF=GG999 (no such rule) configured"
    fi
    grep -q "TFS_RULE_OFF=GG999: not a rule id" "$work/bad.log" || { cat "$work/bad.log"; fail "no clear message for GG999"; }
fi

"$src/maint/rule_coverage.sh" --rules "$rule" --json --build-dir "$work/rulecov-$rule" > "$work/score-$rule.json"
rc=$?
cat "$work/score-$rule.json"
[ $rc -eq 0 ] || fail "rule_coverage.sh exited $rc"
"$py" - "$work/score-$rule.json" "$rule" << 'PY' || fail "score"
import json, sys
d = json.load(open(sys.argv[1]))
rid = sys.argv[2]
t = d["summary"]["total"]
assert (t["killed"], t["rules"], t["leaks"], t["collateral"], t["mutants_crashing"]) == (1, 1, 0, 0, 0), t
rules = {r["id"]: r for r in d["rules"]}
assert sorted(rules) == [rid], sorted(rules)
r = rules[rid]
assert r["status"] == "killed", r
assert all(f.startswith(rid + "-") for f in r["killing_fixtures"]), r
want = {"GG204": "GG204-G1-n-dims-5", "ST110": "ST110-trailing-comma-object"}[rid]
assert want in r["killing_fixtures"], (want, r["killing_fixtures"])
PY
[ "$rule" = ST110 ] && { echo "test_rule_off_switch ST110: ok"; exit 0; }

out=$("$work/rulecov-GG204/maint/rule_coverage_check" --off GG204 "$src/corpus/gguf/MANIFEST.tsv")
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
echo "test_rule_off_switch GG204: ok"
