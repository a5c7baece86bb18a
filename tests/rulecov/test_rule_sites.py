#!/usr/bin/env python3
"""test_rule_sites.py SOURCE_DIR: every place in the format parsers that raises a
rule honours the rule-coverage switch TFS_RULE_OFF (docs/rule-coverage.md).

A call that raises a literal rule, tfs__fail(..., TFS_X, ...), gg_short(c, TFS_X,
...) or fail_at(c, TFS_X, ...), must sit under a condition that names the same
rule through TFS_RULE_HIT(TFS_X, ...) or gg_past_end(c, n, TFS_X) (searched back
to the `if` that opens its statement).  The helpers that take the rule as an
argument (tfs__st_err, entry_err, gg_strict, tfs__st_strict) must consult
TFS_RULE_IS_OFF / TFS_RULE_HIT themselves.  rule_coverage.sh finds a missed place
only when a fixture reaches it (a "leak"); this finds it in the source.
"""
import glob
import os
import re
import sys

RAISE = re.compile(r"\b(tfs__fail|gg_short|fail_at)\(\s*[^,]+,\s*(TFS_(?:ST|GG)\d{3})\b")
# places that keep raising with the rule off, each with its reason (file, rule)
ALLOWED = {
    # a forward-only stream shorter than its header that cannot be read again
    # after the cut (ST003 off cuts the header; docs/rule-coverage.md)
    ("safetensors/parse.c", "TFS_ST003"),
}
HELPERS = {
    "safetensors/st_json.c": ["tfs_status tfs__st_err(", "void tfs__st_strict("],
    "safetensors/st_entries.c": ["static tfs_status entry_err("],
    "gguf/gg.h": ["static inline void gg_strict("],
}


def statement_head(lines, i):
    """The text from the `if` (or statement start) that holds line i, up to line i."""
    text = lines[i]
    j = i
    while j > 0 and not re.search(r"\bif\s*\(", lines[j]) and not lines[j - 1].rstrip().endswith((";", "{", "}")):
        j -= 1
        text = lines[j] + text
    return text


def indent(text):
    return len(text) - len(text.lstrip())


def statement_start(lines, j):
    """The first line of the statement whose last line is j (continuation lines
    of a wrapped condition are indented deeper than the statement itself)."""
    while j > 0 and not re.search(r"\bif\s*\(", lines[j]) and \
            not lines[j - 1].rstrip().split("/*")[0].rstrip().endswith((";", "{", "}")):
        j -= 1
    return j


def block_opener(lines, i):
    """The line that ends with the `{` of the block holding line i, or -1: the
    nearest such line above i whose statement starts less indented than i."""
    ind = indent(lines[i])
    j = i - 1
    while j >= 0:
        text = lines[j].rstrip().split("/*")[0].rstrip()
        if not text.strip():
            j -= 1
            continue
        if text.endswith("{"):
            k = statement_start(lines, j)
            if indent(lines[k]) < ind:
                return j
            j = k - 1
            continue
        if indent(lines[j]) < ind and statement_start(lines, j) == j:
            return -1
        j -= 1
    return -1


def main():
    root = sys.argv[1]
    bad = []
    n = 0
    for path in sorted(glob.glob(os.path.join(root, "parsers", "gguf", "*.[ch]")) +
                       glob.glob(os.path.join(root, "parsers", "safetensors", "*.[ch]"))):
        rel = os.path.relpath(path, os.path.join(root, "parsers"))
        if os.path.basename(path) == "write.c":
            continue
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            for m in RAISE.finditer(line):
                rule = m.group(2)
                n += 1
                if (rel, rule) in ALLOWED:
                    continue
                head = statement_head(lines, i)
                ok = re.search(r"TFS_RULE_HIT\(\s*%s\b" % rule, head) or \
                    re.search(r"gg_past_end\([^)]*\b%s\)" % rule, head)
                if not ok:  # inside a block: the `if` that opens it
                    j = block_opener(lines, i)
                    if j >= 0:
                        ok = re.search(r"TFS_RULE_HIT\(\s*%s\b" % rule, statement_head(lines, j))
                if not ok:
                    bad.append("%s:%d: %s raised without TFS_RULE_HIT(%s, ...) / gg_past_end: %s" %
                               (rel, i + 1, rule, rule, line.strip()))
        for sig in HELPERS.get(rel, []):
            text = "\n".join(lines)
            k = text.find(sig)
            if k < 0:
                bad.append("%s: helper %s not found" % (rel, sig))
                continue
            body = text[k:text.find("\n}", k)]
            if "TFS_RULE_IS_OFF" not in body and "TFS_RULE_HIT" not in body:
                bad.append("%s: %s ignores TFS_RULE_OFF" % (rel, sig))
    for b in bad:
        print(b)
    print("%d raise sites with a literal rule, %d helpers, %d problems" %
          (n, sum(len(v) for v in HELPERS.values()), len(bad)))
    return 1 if bad or n < 50 else 0


if __name__ == "__main__":
    sys.exit(main())
