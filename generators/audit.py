#!/usr/bin/python3
"""audit.py: keep the coverage audit of docs/fixtures.md true.

    /usr/bin/python3 generators/audit.py [--check]

Writes the per-rule table of docs/fixtures.md (between the markers
<!-- rule-table:begin --> and <!-- rule-table:end -->) from the manifests of
corpus/safetensors and corpus/gguf and include/tfs/rules.def, and checks
that every fixture id the audit names (`...` in its tables) is a manifest id.
--check: write nothing; exit 1 if the table is stale, an id is unknown, or a
live rule has no fixture.  ctest: test_generator_audit.
"""
import os
import re
import sys

from tfsgen import tables

DOC = os.path.join(tables.ROOT, "docs", "fixtures.md")
BEGIN, END = "<!-- rule-table:begin -->", "<!-- rule-table:end -->"


def manifest_rows():
    rows = []
    # corpus/minted: fixtures contributed from `tfs mint` (generators/contribute.py)
    for part in ("safetensors", "gguf", "minted"):
        if part == "minted" and not os.path.exists(os.path.join(tables.ROOT, "corpus", part, "MANIFEST.tsv")):
            continue
        with open(os.path.join(tables.ROOT, "corpus", part, "MANIFEST.tsv"), encoding="utf-8") as f:
            rows += [line.rstrip("\n").split("\t") for line in f][1:]
    return rows


def rule_table(rows):
    out = ["| rule | category | fixture lines | minimal fixture(s) |", "|---|---|---|---|"]
    missing = []
    for r in tables.LIVE_RULES:
        ids = [x[0] for x in rows if r in x[6].split("|")]
        if not ids:
            missing.append(r)
        own = [i for i in ids if i.startswith(r)]
        ex = sorted(own or ids, key=lambda i: (len(i), i))[:3]
        out.append("| %s | %s | %d | %s |" % (r, tables.RULES[r].category, len(ids),
                                               ", ".join("`%s`" % e for e in ex)))
    return "\n".join(out) + "\n", missing


def main():
    check = "--check" in sys.argv[1:]
    rows = manifest_rows()
    ids = {x[0] for x in rows}
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        print("audit: %s has no %s ... %s markers" % (DOC, BEGIN, END))
        return 1
    table, missing = rule_table(rows)
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + table + END + tail
    audit = new[new.index("## Coverage audit"):]
    named = set(re.findall(r"`((?:GG|ST)\d{3}-[A-Za-z0-9_.-]+|valid-[A-Za-z0-9_.-]+)`", audit))
    unknown = sorted(n for n in named if n not in ids and not n.endswith("-*"))
    bad = bool(missing or unknown)
    for r in missing:
        print("audit: rule %s has no fixture" % r)
    for n in unknown:
        print("audit: docs/fixtures.md names %s, which no manifest lists" % n)
    if check:
        if new != doc:
            print("audit: the rule table of docs/fixtures.md is stale (run generators/audit.py)")
            return 1
        if not bad:
            print("audit: %d rules covered, %d fixture ids named in docs/fixtures.md, all in the manifests" % (
                len(tables.LIVE_RULES), len(named)))
        return 1 if bad else 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(new)
    print("audit: rule table written (%d rules)" % len(tables.LIVE_RULES))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
