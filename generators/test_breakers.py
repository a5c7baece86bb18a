#!/usr/bin/python3
"""test_breakers.py: property test of the per-rule "break rule X and only X"
strategies (generators/tfsgen/breakers.py, issue 19): every file a rule's
strategy draws is rejected by the reference parser (libtfs through ctypes,
else `tfs check --json`) in the strategy's profile with that rule, or with
one of the earlier rules the strategy lists as implied; and every live rule
of rules.def has a strategy or a reason in breakers.MISSING.

    /usr/bin/python3 generators/test_breakers.py TFS_BINARY [--lib LIBTFS.so] [--examples N] [--rule ID]...

Deterministic (derandomize=True, no example database).  ctest
test_generator_breakers runs 8 examples per rule; the longer run is
    /usr/bin/python3 generators/test_breakers.py build/dev/tools/tfs \\
        --lib build/dev/parsers/libtfs.so --examples 500
Exit 0 when every example is rejected as required, 1 otherwise (each failing
rule with its shrunk example), 77 when python3-hypothesis is not installed.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
try:
    from hypothesis import HealthCheck, given, settings  # noqa: E402
except ImportError:
    print("test_breakers: python3-hypothesis is not installed (apt-get install python3-hypothesis): skipped")
    sys.exit(77)

from mint import Classifier  # noqa: E402
from tfsgen.breakers import BREAKERS, MISSING  # noqa: E402
from tfsgen.tables import LIVE_RULES, RULES  # noqa: E402

SETTINGS = dict(derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


def check_rule(cls, rule, n):
    b = BREAKERS[rule]
    seen = {"n": 0, "rules": {}}

    @settings(max_examples=n, **SETTINGS)
    @given(b.strategy)
    def prop(data):
        v = cls.one(data, b.fmt, b.profile)
        assert v[0] == "parser_error", "%s: accepted (%s) in %s: %r" % (rule, v[0], b.profile, data[:200])
        assert v[1] == rule or v[1] in b.implies, "%s: rejected with %s %s at %d in %s: %r" % (
            rule, v[1], v[2], v[3], b.profile, data[:200])
        seen["n"] += 1
        seen["rules"][v[1]] = seen["rules"].get(v[1], 0) + 1
    prop()
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfs")
    ap.add_argument("--lib")
    ap.add_argument("--examples", type=int, default=8)
    ap.add_argument("--rule", action="append", default=[])
    a = ap.parse_args()
    cls = Classifier(a.tfs, a.lib)
    unknown = [r for r in list(BREAKERS) + list(MISSING) if r not in RULES]
    if unknown:
        print("test_breakers: rule ids not in rules.def: %s" % " ".join(unknown))
        return 1
    uncovered = [r for r in LIVE_RULES if RULES[r].format in ("GG", "ST") and r not in BREAKERS and r not in MISSING]
    if uncovered:
        print("test_breakers: rules with neither a strategy nor a MISSING reason: %s" % " ".join(uncovered))
        return 1
    fail = 0
    rules = a.rule or sorted(BREAKERS)
    for rule in rules:
        try:
            seen = check_rule(cls, rule, a.examples)
            print("%-6s %-11s %-7s %3d examples rejected: %s" % (
                rule, BREAKERS[rule].fmt, BREAKERS[rule].profile, seen["n"],
                ", ".join("%s x%d" % kv for kv in sorted(seen["rules"].items()))))
        except Exception as e:  # hypothesis re-raises the shrunk failure
            fail = 1
            print("FAIL %s: %s" % (rule, str(e).splitlines()[0][:600]))
    covered = len(BREAKERS)
    print("test_breakers: %d rules with a strategy (%d checked), %d without (tfsgen/breakers.py MISSING)%s" % (
        covered, len(rules), len(MISSING), " via libtfs" if cls.lib else " via tfs check"))
    return fail


if __name__ == "__main__":
    sys.exit(main())
