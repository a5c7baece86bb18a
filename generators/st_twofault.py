#!/usr/bin/python3
"""st_twofault.py: safetensors headers with TWO faults, our first reported rule
against the Rust crate's first error (issue 5, item 8).

The crate scans the whole JSON object before it checks any tensor entry
(HashMetadata's #[serde(flatten)] collects the entries as serde Content), so
which of two faults it reports depends on their classes, not only on their
order in the text.  This tool builds headers from a valid base (a few tensor
entries, sometimes __metadata__), puts two faults of different classes into
them in both orders (in two members, or in one tensor entry), writes each as
a file, runs `tfs check --json` and the canonical reader (`st-oracle`, see
../shared/oracles/st-oracle), and compares:

  * the crate's error variant with our `category`;
  * the crate's message (st-oracle built to print it: ST_ORACLE_MESSAGE=1,
    `ERR <Variant> <Debug of the error>`) mapped to the rule ids it can mean
    (crate_rules below) with our `rule`;
  * which fault each side reports: the crate's message must fit the class of
    the fault whose text holds our reported offset.

Deterministic for a given --seed.  The oracle is a development tool (CI has
none): without it the tool prints why and exits 77 (skip).

    /usr/bin/python3 generators/st_twofault.py [--oracle PATH] [--tfs PATH]
        [--seed N] [--count N] [--keep DIR] [--show N]
    /usr/bin/python3 generators/st_twofault.py --oracle PATH --corpus [MANIFEST]

--oracle: st-oracle binary (default: $ST_ORACLE).  It must print the
  crate's message after the variant when ST_ORACLE_MESSAGE is set in its
  environment (`ERR <Variant> <{:?} of the SafeTensorError>`): the shared
  st-oracle prints only `ERR <Variant>`, which cannot tell ST110 from ST201,
  so with it this tool says so and skips (77) rather than compare categories
  only.  Adding that one format! branch to a private build of st-oracle (in
  /tmp, never committed) is all it takes.
--tfs: default build/dev/tools/tfs.  --count: cases (default 2400).
--corpus: instead, check every default-mode fixture of a manifest (default
  corpus/safetensors/MANIFEST.tsv) against the crate's message.
Exit 0 when every case agrees, 1 otherwise, 77 when the oracle is absent.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tfsgen.safetensors import Header, Member, st_file  # noqa: E402  (the one safetensors writer)
from tfsgen.tables import ROOT  # noqa: E402

# ---------------------------------------------------------------- crate message -> rule ids

# serde_json / serde messages (Display of serde_json::Error, before " at line").
_SYNTAX = {"expected value", "expected `:`", "expected `,` or `}`", "expected `,` or `]`", "expected ident",
           "key must be a string", "trailing comma", "invalid number", "expected `\"`"}


def crate_rules(variant, msg):
    """Set of tfs rule ids that the crate's (variant, message) can mean."""
    if variant != "InvalidHeaderDeserialization":
        return {"HeaderTooSmall": {"ST001"}, "HeaderTooLarge": {"ST002"}, "InvalidHeaderLength": {"ST003"},
                "InvalidHeader": {"ST101"}, "InvalidOffset": {"ST301", "ST302"},
                "ValidationOverflow": {"ST303", "ST304"}, "MisalignedSlice": {"ST305"},
                "TensorInvalidInfo": {"ST306"}, "MetadataIncompleteBuffer": {"ST307", "ST308"}}.get(variant, set())
    if msg is None:
        return set()
    if msg.startswith("EOF while parsing"):
        return {"ST111"}
    if msg in _SYNTAX:
        return {"ST110"}
    if msg == "trailing characters":
        return {"ST112"}
    if msg == "recursion limit exceeded":
        return {"ST113"}
    if msg.startswith("control character"):
        return {"ST114"}
    if msg == "invalid escape":
        return {"ST115"}
    if msg in ("lone leading surrogate in hex escape", "unexpected end of hex escape"):
        return {"ST116"}
    if msg == "number out of range":
        return {"ST117"}
    if msg == "duplicate field `__metadata__`":
        return {"ST403"}
    if msg.startswith("missing field"):
        return {"ST202"}
    if msg.startswith("duplicate field"):
        return {"ST203"}
    if msg.startswith("unknown variant"):
        return {"ST210"}
    m = re.match(r"invalid (type|value|length):? (.*), expected (.*)$", msg, re.S)
    if not m:
        return set()
    kind, unexp, exp = m.groups()
    if exp == "struct HashMetadata":
        return {"ST118"}
    if exp == "struct TensorInfo":
        return {"ST201"}
    if exp.startswith("struct TensorInfo with 3 elements") or exp == "3 elements in sequence":
        return {"ST204"}
    if exp in ("string or map", "map with a single key", "unit"):
        return {"ST211"}
    if exp == "a sequence":
        return {"ST220"}
    if exp in ("a tuple of size 2", "2 elements in sequence"):
        return {"ST221"}
    if exp == "usize":  # an element of shape or data_offsets
        if unexp.startswith(("floating point", "integer")):
            return {"ST222"}
        return {"ST220", "ST221"}  # the message does not say which array
    if exp == "a map":
        return {"ST401"}
    if exp == "a string":
        return {"ST402"}
    return set()


def parse_oracle(line):
    """('OK', None) or (variant, message or None) from one st-oracle output line."""
    line = line.strip()
    if line.startswith("OK"):
        return "OK", None
    m = re.match(r'ERR (\w+)(?: \w+\(Error\("(.*)", line: \d+, column: \d+\)\))?', line, re.S)
    if not m:
        return line, None
    msg = m.group(2)
    if msg is not None:
        msg = msg.replace('\\"', '"').replace("\\\\", "\\")
    return m.group(1), msg


# ---------------------------------------------------------------- header model

class Tensor(Member):
    """A tensor entry: name (raw JSON string contents) and fields [(key, value text)] in order."""

    def __init__(self, name, start, size):
        super().__init__(name, [("dtype", '"U8"'), ("shape", "[%d]" % size),
                                ("data_offsets", "[%d,%d]" % (start, start + size))])


class Meta(Member):
    def __init__(self, value='{"format":"pt"}'):
        super().__init__("__metadata__", raw=value)


class Doc(Header):
    """A header (tfsgen.safetensors.Header: members, tail, cut) and its data length."""

    def __init__(self, rng):
        super().__init__()
        start = 0
        for i in range(rng.randint(2, 4)):
            size = rng.randint(1, 4)
            self.members.append(Tensor("t%d" % i, start, size))
            start += size
        self.data = start
        if rng.random() < 0.3:
            self.members.insert(rng.randint(0, len(self.members)), Meta())


# ---------------------------------------------------------------- faults
# A fault class: (name, rules it may be reported as, where: "entry" (in a tensor
# entry's fields), "member" (replaces or wraps a member), "end" (only last)).
# apply(doc, i, rng, inner) edits member i; inner = position among fields for
# a fault sharing the entry with another one ("first"/"last"/None).

BAD_IGNORED = {  # ignored-field values that serde_json rejects while scanning
    "ST110": ["01", "tru", "+1", "[1,]", "{1:2}", "-", ".5", "nul", "[1}"],
    "ST113": ["[" * 130 + "]" * 130, "[" * 126 + "]" * 126],
    "ST114": ['"a\x01b"', '"\t"'],
    "ST115": [r'"\q"', r'"\x41"', r'"\u00G0"'],
    "ST116": [r'"\ud800"', r'"\udc00"', r'"\ud800\u0041"'],
    "ST117": ["1e999", "-1e400", "1" + "0" * 400, "1.8e308"],
}

ENTRY_FAULTS = {  # field edits that only TensorInfo deserialization rejects
    "ST201": ["5", "null", '"U8"', "true", "-1.5"],
    "ST210": ['"F99"', '"u8"', '{"X9":null}', '"F8_E4M3FN"', '{"F99":[1]}'],  # name before the unit value
    "ST211": ["8", "null", '["U8"]', '{"U8":1}', "{}", '{"U8":null,"I8":null}', '{"F99":null,"x":1}'],
    "ST220": ['"1"', "null", '{"0":1}', '[1,"x"]', "[true]"],
    "ST221": ["[0]", "[0,1,2]", "5", '{"0":0,"1":1}', '["x",1]', "[]"],
    "ST222": ["[-1]", "[1.5]", "[18446744073709551616]", "[1e0]"],
}


def _tensor(doc, i):
    m = doc.members[i]
    return m if isinstance(m, Tensor) and m.raw is None else None


def _add_ignored(t, value, inner):
    field = ("x%d" % len(t.fields), value)
    if inner == "first":
        t.fields.insert(0, field)
    else:
        t.fields.append(field)


def f_grammar(rule):
    def apply(doc, i, rng, inner):
        t = _tensor(doc, i)
        value = rng.choice(BAD_IGNORED[rule])
        if t is None or (rule == "ST114" and rng.random() < 0.3):
            # in the name of the member instead
            name = {"ST114": "a\tb", "ST115": r"a\qb", "ST116": r"\udfff", "ST117": None,
                    "ST113": None, "ST110": None}[rule]
            m = doc.members[i]
            if name is None or m.name_bytes is not None:
                return False
            m.name_bytes = name.encode()
            return True
        _add_ignored(t, value, inner)
        return True
    return apply


def f_separator(doc, i, rng, inner):
    """A syntax error between members: missing comma, or a stray token."""
    if i + 1 >= len(doc.members) or inner:
        return False
    doc.members[i].sep = rng.choice([" ", ",,", ";", ", 1 ,"])
    return True


def f_entry(rule):
    def apply(doc, i, rng, inner):
        t = _tensor(doc, i)
        if t is None:
            return False
        v = rng.choice(ENTRY_FAULTS[rule])
        if rule == "ST201":
            if inner:
                return False
            t.raw = v
            return True
        key = {"ST210": "dtype", "ST211": "dtype", "ST220": "shape", "ST221": "data_offsets",
               "ST222": rng.choice(["shape", "data_offsets"])}[rule]
        if rule == "ST222" and key == "data_offsets":
            v = rng.choice(["[0,-1]", "[0.0,1]", "[0,1e0]", "[-0,1]"])
        t.fields = [(k, v if k == key else old) for k, old in t.fields]
        return True
    return apply


def f_missing(doc, i, rng, inner):
    t = _tensor(doc, i)
    if t is None:
        return False
    t.fields.pop(rng.randrange(3))
    return True


def f_repeated(doc, i, rng, inner):
    t = _tensor(doc, i)
    if t is None:
        return False
    k, v = t.fields[rng.randrange(3)]
    t.fields.insert(rng.randint(1, len(t.fields)), (k, v))
    return True


def f_array_len(doc, i, rng, inner):
    t = _tensor(doc, i)
    if t is None or inner:
        return False
    vals = [v for _, v in t.fields]
    t.raw = "[" + ",".join(rng.choice([vals[:2], vals + ["[0,1]"], [], vals[:1]])) + "]"
    return True


def f_meta_type(doc, i, rng, inner):
    if inner:
        return False
    doc.members.insert(i, Meta(rng.choice(["[]", "1", '"pt"', "true", "[1e999]", '"\\q"', "1e999", "-"])))
    return True


def f_meta_value(doc, i, rng, inner):
    if inner:
        return False
    doc.members.insert(i, Meta('{"a":"b","k":%s}' % rng.choice(["1", "null", "{}", "false", '["a"]', "1e999",
                                                                   "tru", '"\\q"'])))
    return True


def f_meta_twice(doc, i, rng, inner):
    if inner:
        return False
    doc.members.insert(i, Meta(rng.choice(["{}", "null", '{"k":"v"}', "1", "1e999"])))
    doc.members.insert(i, Meta("{}"))  # the first one, just before
    return True


def f_trailing(doc, i, rng, inner):
    doc.tail = rng.choice(["x", "}", " {}", "\0", "\f"])
    return True


def f_truncate(doc, i, rng, inner):
    if inner:
        return False
    text = ('"%s":' % doc.members[i].name) + doc.members[i].value()
    doc.cut = (doc.members[i], rng.randint(len(doc.members[i].name) + 3, len(text)))
    return True


def f_utf8(doc, i, rng, inner):
    m = doc.members[i]
    if m.name_bytes is not None:
        return False
    m.name_bytes = m.name.encode() + rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80"])
    return True


def f_offsets(doc, i, rng, inner):
    """Data section / offsets wrong (Metadata::validate or the buffer check)."""
    t = _tensor(doc, i)
    kind = rng.choice(["size", "gap", "data"])
    if kind == "data" or t is None:
        doc.data += rng.choice([1, -1])
        return doc.data >= 0
    for n, (k, v) in enumerate(t.fields):
        if k == "data_offsets" and v.startswith("["):
            a, b = (int(x) for x in v[1:-1].split(","))
            t.fields[n] = (k, "[%d,%d]" % ((a + 1, b + 1) if kind == "gap" else (a, b + 1)))
            return True
    return False


# (name, rules we may report for it, apply, placement)
CLASSES = [
    ("syntax", {"ST110"}, f_grammar("ST110"), "any"),
    ("separator", {"ST110"}, f_separator, "member"),
    ("depth", {"ST113"}, f_grammar("ST113"), "any"),
    ("control", {"ST114"}, f_grammar("ST114"), "any"),
    ("escape", {"ST115"}, f_grammar("ST115"), "any"),
    ("surrogate", {"ST116"}, f_grammar("ST116"), "any"),
    ("range", {"ST117"}, f_grammar("ST117"), "any"),
    ("entry-type", {"ST201"}, f_entry("ST201"), "member"),
    ("missing", {"ST202"}, f_missing, "any"),
    ("repeated", {"ST203"}, f_repeated, "any"),
    ("array-len", {"ST204"}, f_array_len, "member"),
    ("dtype-name", {"ST210"}, f_entry("ST210"), "any"),
    ("dtype-type", {"ST211"}, f_entry("ST211"), "any"),
    ("shape-type", {"ST220"}, f_entry("ST220"), "any"),
    ("offsets-type", {"ST221"}, f_entry("ST221"), "any"),
    ("usize", {"ST222"}, f_entry("ST222"), "any"),
    ("meta-type", {"ST401", "ST110", "ST111", "ST115", "ST117"}, f_meta_type, "member"),
    ("meta-value", {"ST402", "ST110", "ST111", "ST115", "ST117"}, f_meta_value, "member"),
    ("meta-twice", {"ST403"}, f_meta_twice, "member"),
    ("trailing", {"ST112"}, f_trailing, "end"),
    ("truncated", {"ST111", "ST110"}, f_truncate, "end"),
    ("utf8", {"ST101"}, f_utf8, "member"),
    ("offsets", {"ST301", "ST302", "ST306", "ST307", "ST308"}, f_offsets, "member"),
]
ENTRY_CLASSES = {"entry-type", "missing", "repeated", "array-len", "dtype-name", "dtype-type", "shape-type",
                 "offsets-type", "usize"}


def make_case(rng, a, b):
    """Header bytes + data length with fault class a before fault class b, or None
    if this draw cannot hold them.  Returns (header, data_len, where) with where =
    list of (class, member span) for the two faults."""
    doc = Doc(rng)
    na, nb = CLASSES[a], CLASSES[b]
    if na[0].startswith("meta") or nb[0].startswith("meta"):
        doc.members = [m for m in doc.members if not isinstance(m, Meta)]  # one __metadata__ per fault
    if na[3] == "end":
        return None  # an end-only fault cannot come first
    same = (nb[3] != "end" and na[3] == "any" and nb[3] == "any" and
            (na[0] in ENTRY_CLASSES) != (nb[0] in ENTRY_CLASSES) and rng.random() < 0.35)
    tensors = [k for k, m in enumerate(doc.members) if isinstance(m, Tensor)]
    if same:
        i = j = rng.choice(tensors)
    else:
        i = rng.choice(tensors[:-1])
        j = rng.choice([k for k in range(i + 1, len(doc.members))])
    marks = []
    # apply the later fault first so that member indices of the earlier one stay
    for name, apply, k, inner in ((nb[0], nb[2], j, "last" if same else None),
                                  (na[0], na[2], i, "first" if same else None)):
        before = len(doc.members)
        if not apply(doc, k, rng, inner):
            return None
        grown = len(doc.members) - before
        marks.append((name, k, grown))
    (nb_name, kb, grown_b), (na_name, ka, grown_a) = marks
    kb += grown_a if kb >= ka and not same else 0
    header, spans = doc.render()
    if doc.data < 0:
        return None

    def span(name, k, grown):
        if name in ("trailing", "truncated", "offsets"):
            return None  # reported at the end or in the data: position not compared
        lo = spans[min(k, len(spans) - 1)][0]
        hi = spans[min(k + grown, len(spans) - 1)][1]
        return (lo, hi)
    return header, doc.data, [(na_name, span(na_name, ka, grown_a)), (nb_name, span(nb_name, kb, grown_b))]


# ---------------------------------------------------------------- running

def find_oracle(arg):
    return arg or os.environ.get("ST_ORACLE")


def run_tfs(tfs, paths):
    out = {}
    for k in range(0, len(paths), 200):
        r = subprocess.run([tfs, "check", "--json", "--format", "safetensors"] + paths[k:k + 200],
                           capture_output=True, text=True)
        for line in r.stdout.splitlines():
            d = json.loads(line)
            out[d["file"]] = d
    return out


def run_oracle(oracle, path):
    env = dict(os.environ, ST_ORACLE_MESSAGE="1")
    r = subprocess.run([oracle, path], capture_output=True, text=True, env=env)
    return parse_oracle(r.stdout)


def check_corpus(oracle, manifest):
    """Every default-mode fixture of a manifest: the crate accepts the valid ones;
    for the others its variant is the expected category and its message maps to
    the expected rule id.  --runs 4 shows HashMap-order outcomes (each must fit)."""
    env = dict(os.environ, ST_ORACLE_MESSAGE="1")
    base = os.path.dirname(manifest)
    with open(manifest, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    n = bad = no_msg = 0
    for r in rows:
        fid, path, expect, rule, cat, mode = r[0], r[1], r[5], r[6], r[7], r[8]
        if mode != "default":
            continue
        n += 1
        out = subprocess.run([oracle, "--runs", "4", os.path.join(base, path)], capture_output=True, text=True,
                             env=env).stdout.strip()
        for variant, msg in (parse_oracle(o) for o in out.split(" | ")):
            no_msg += variant == "InvalidHeaderDeserialization" and msg is None
            if expect == "valid":
                ok = variant == "OK"
            else:
                ok = variant in cat.split("|") and set(rule.split("|")) & crate_rules(variant, msg)
            if not ok:
                bad += 1
                print("DIFF %s: expected %s %s, crate %s %s" % (fid, rule, cat, variant, msg))
    if no_msg:
        print("st_twofault: %s printed no messages: skipped" % oracle)
        return 77
    print("st_twofault --corpus: %d default-mode fixtures, %d agree with the crate's message, %d differ" % (
        n, n - bad, bad))
    return 0 if not bad else 1


def judge(case, got, crate):
    """'' when tfs and the crate agree, else the reason."""
    variant, msg = crate
    faults = case["faults"]
    if variant == "OK":
        return "crate accepts"
    if got.get("verdict") != "parser_error":
        return "tfs verdict " + str(got.get("verdict"))
    if got["category"] != variant:
        return "category %s != %s" % (got["category"], variant)
    rules = crate_rules(variant, msg)
    if msg is not None or variant != "InvalidHeaderDeserialization":
        if got["rule"] not in rules:
            return "rule %s not in %s" % (got["rule"], sorted(rules) or "unmapped")
    # which fault: the one whose text holds our offset, its class must fit the crate
    pos = got["offset"] - 8
    mine = [n for n, sp in faults if sp is not None and sp[0] <= pos <= sp[1]]
    fits = [n for n, _ in faults if not rules or rules & CLASS_RULES[n]]
    if mine and fits and not set(mine) & set(fits):
        return "tfs reports the %s fault, the crate the %s fault" % (mine, fits)
    return ""


CLASS_RULES = {c[0]: c[1] for c in CLASSES}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle")
    ap.add_argument("--tfs", default=os.path.join(ROOT, "build", "dev", "tools", "tfs"))
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--count", type=int, default=2400)
    ap.add_argument("--keep")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--corpus", nargs="?", const=os.path.join(ROOT, "corpus", "safetensors", "MANIFEST.tsv"),
                    help="check a fixture manifest against the crate instead (default corpus/safetensors)")
    args = ap.parse_args()
    oracle = find_oracle(args.oracle)
    if not oracle or not os.access(oracle, os.X_OK):
        print("st_twofault: no st-oracle (--oracle or $ST_ORACLE): skipped")
        return 77
    if args.corpus:
        return check_corpus(oracle, args.corpus)
    if not os.access(args.tfs, os.X_OK):
        print("st_twofault: no tfs binary at %s (build first)" % args.tfs)
        return 2
    rng = random.Random(args.seed)
    pairs = [(a, b) for a in range(len(CLASSES)) for b in range(len(CLASSES))
             if a != b and CLASSES[a][3] != "end"]
    cases = []
    tries = 0
    while len(cases) < args.count and tries < args.count * 50:
        a, b = pairs[tries % len(pairs)]
        tries += 1
        made = make_case(rng, a, b)
        if made:
            header, data, faults = made
            cases.append({"id": "c%05d-%s-then-%s" % (len(cases), CLASSES[a][0], CLASSES[b][0]),
                          "bytes": st_file(header, data), "faults": faults})
    tmp = args.keep or tempfile.mkdtemp(prefix="st_twofault.")
    os.makedirs(tmp, exist_ok=True)
    paths = []
    for c in cases:
        p = os.path.join(tmp, c["id"] + ".safetensors")
        with open(p, "wb") as f:
            f.write(c["bytes"])
        c["path"] = p
        paths.append(p)
    tfs_out = run_tfs(args.tfs, paths)
    n = len(cases)
    bad, no_msg, n_ihd, by_rule, later = [], 0, 0, {}, 0
    for c in cases:
        crate = run_oracle(oracle, c["path"])
        if crate[0] == "InvalidHeaderDeserialization":
            n_ihd += 1
            no_msg += crate[1] is None
        got = tfs_out.get(c["path"], {})
        why = judge(c, got, crate)
        by_rule[got.get("rule")] = by_rule.get(got.get("rule"), 0) + 1
        if got.get("rule") in CLASS_RULES[c["faults"][1][0]] - CLASS_RULES[c["faults"][0][0]]:
            later += 1  # the fault later in the text is the one reported
        if why:
            bad.append((c, got, crate, why))
    if not args.keep:
        for p in paths:
            os.remove(p)
        os.rmdir(tmp)
    if no_msg:
        print("st_twofault: %s printed no message for %d of %d InvalidHeaderDeserialization errors, so rule ids "
              "cannot be compared (see --help for the oracle it needs): skipped" % (oracle, no_msg, n_ihd))
        return 77
    for c, got, crate, why in bad[:args.show]:
        print("DIFF %s: %s\n  header %r\n  tfs %s at %s; crate %s %s" % (
            c["id"], why, c["bytes"][8:8 + 300], got.get("rule"), got.get("offset"), crate[0], crate[1]))
    print("st_twofault: seed %d, %d cases (%d class pairs), %d agree (%.2f%%), %d differ" % (
        args.seed, n, len(pairs), n - len(bad), 100.0 * (n - len(bad)) / max(n, 1), len(bad)))
    print("  the fault later in the text reported first: %d cases" % later)
    print("  first rule reported: " + ", ".join("%s %d" % (r, k) for r, k in sorted(by_rule.items(), key=str)))
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
