#!/bin/sh
# lint_adapter.sh TFS PATH: an example lint adapter (docs/lint.md): runs
# `tfs check --lint --json` on a model file or set entry and prints the rule
# ids it finds as {"lint": [...]} on its first line, as any reader's adapter
# would.  Used by test_lint to run `tfs conform --lint --adapter`.
"$1" check --lint --json "$2" | /usr/bin/python3 -c '
import json, sys
ids = []
for line in sys.stdin:
    d = json.loads(line)
    ids += [f["id"] for f in d.get("findings") or (d.get("lint") or {}).get("findings") or []]
print(json.dumps({"lint": ids}))'
