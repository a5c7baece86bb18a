#!/usr/bin/python3
"""check_current.py [--tfs PATH] [--fixtures DIR] [RESULTS_JSON]: does the
committed matrix (docs/results.json) cover the current corpus?

For every column CI can run (matrix.py CI_RUNNABLE: ours and the npm
readers), every fixture `tfs conform --list` selects for the column's format
and profile must have a cell; the ids it lacks are listed and the exit status
is 1 (fill them: conformance/matrix/run.sh --only-new, docs/matrix.md).  A CI
column that is in the file but not run (the adapter check stopped it) has
nothing to lack.  Columns built from a source folder you pass (C readers,
gguf-py, the Rust crate) are only reported: how many fixtures they lack and
since when.  Exit 0 current, 1 some CI column lacks a fixture, 2 usage (no
tfs, unreadable file)."""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import matrix  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join(matrix.ROOT, "docs", "results.json"))
    ap.add_argument("--tfs", default=os.path.join(matrix.ROOT, "build", "dev", "tools", "tfs"))
    ap.add_argument("--fixtures")
    a = ap.parse_args()
    if not os.path.exists(a.tfs):
        print(f"check_current: no tfs at {a.tfs} (--tfs PATH)", file=sys.stderr)
        return 2
    try:
        doc = json.load(open(a.results))
    except (OSError, ValueError) as e:
        print(f"check_current: cannot read {a.results}: {e}", file=sys.stderr)
        return 2
    lists, stale = {}, 0
    for r in doc["readers"]:
        cells = doc["cells"].get(r["id"])
        if cells is None:
            continue
        key = (r.get("format"), r["profile"])
        if key not in lists:
            lists[key] = matrix.current_ids(a, *key)
            if lists[key] is None:
                print(f"check_current: tfs conform --list failed for {key}", file=sys.stderr)
                return 2
        lacks = [i for i in lists[key] if i not in cells]
        since = r.get("generated_first") or r.get("generated") or doc["generated"]
        if not lacks:
            print(f"ok: {r['id']}: every current fixture ({len(lists[key])})")
        elif r["id"] in matrix.CI_RUNNABLE:
            stale += 1
            print(f"STALE: {r['id']}: lacks {len(lacks)} current fixtures (column run {since}): {', '.join(lacks[:20])}"
                  + (" ..." if len(lacks) > 20 else ""))
        else:
            print(f"note: {r['id']}: lacks {len(lacks)} current fixtures since {since} (built from a source folder: "
                  "not run by CI)")
    if stale:
        print(f"check_current: {stale} CI column(s) lack current fixtures: conformance/matrix/run.sh --only-new "
              "(docs/matrix.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
