#!/usr/bin/python3
"""test_conform_protocol.py TFS SOURCE_DIR: the adapter protocol's leniency
and checks in `tfs conform` (docs/conform.md), each through a scripted
adapter that answers from a table this test writes:

- content: a 64-bit integer as a number or a decimal string on either side;
  floats by bits when both give bits, else by value (a missing "bits" is not
  a misread); partial content (only what the adapter gives is compared, and
  the report says per case "content": full / partial / not_checked);
- adapter sanity before a run: rejects every valid fixture / answers every
  fixture the same way / --content promised but none printed -> exit 2;
- --category-map: a message-only reader's category from a regex;
- the report carries each fixture's description; the run says up front how
  many cases are content-checked, --list names them.
Each of these fails on the runner of tfs d28d48e (before issue 17).
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

TFS, SRC = sys.argv[1:3]
passed = failed = 0


def check(cond, what):
    global passed, failed
    passed += bool(cond)
    failed += not cond
    print("ok:" if cond else "FAIL:", what)


PICK = {"gguf": ["GG001-empty-file", "GG002-bad-magic-FUGG", "valid-kv-every-scalar-type", "valid-kv-array-every-type",
                 "valid-n-dims-4"],
        "safetensors": ["ST001-empty-file", "ST002-n-100000001", "valid-crate-empty", "valid-big-shape-zero-elements",
                        "valid-tensor-names-js-properties", "valid-metadata-keys-js-properties"]}
tmp = tempfile.mkdtemp(prefix="tfs-protocol-")
suite = os.path.join(tmp, "suite")
rows = {}
for folder, ids in PICK.items():
    with open(os.path.join(SRC, "corpus", folder, "MANIFEST.tsv")) as f:
        lines = f.read().splitlines()
    cols = lines[0].split("\t")
    os.makedirs(os.path.join(suite, folder, "expected"))
    with open(os.path.join(suite, folder, "MANIFEST.tsv"), "w") as out:
        out.write(lines[0] + "\n")
        for l in lines[1:]:
            r = dict(zip(cols, l.split("\t")))
            if r.get("id") not in ids:
                continue
            out.write(l + "\n")
            shutil.copy(os.path.join(SRC, "corpus", folder, r["path"]), os.path.join(suite, folder, r["path"]))
            exp = os.path.join(SRC, "corpus", folder, "expected", r["id"] + ".json")
            if os.path.exists(exp):
                shutil.copy(exp, os.path.join(suite, folder, "expected"))
                r["content"] = json.load(open(exp))
            rows[r["path"]] = r
check(len(rows) == sum(len(v) for v in PICK.values()), f"suite: {len(rows)} fixtures")

ADAPTER = os.path.join(tmp, "scripted.py")
with open(ADAPTER, "w") as f:
    f.write("import json, os, sys\n"
            "table = json.load(open(sys.argv[1]))\n"
            "code, line, err = table[os.path.basename(sys.argv[2])]\n"
            "if line is not None: print(line if isinstance(line, str) else json.dumps(line))\n"
            "if err: sys.stderr.write(err + '\\n')\n"
            "sys.exit(code)\n")


def run(table, *args):
    """Each fixture's answer: (exit, first-line object or None, stderr text)."""
    tp = os.path.join(tmp, "table.json")
    json.dump(table, open(tp, "w"))
    rep = os.path.join(tmp, "rep.json")
    if os.path.exists(rep):
        os.remove(rep)
    p = subprocess.run([TFS, "conform", "--fixtures", suite, "--json", rep, "--adapter",
                        f"{sys.executable} {ADAPTER} {tp} {{file}}", *args], capture_output=True, text=True, timeout=120)
    report = json.load(open(rep)) if os.path.exists(rep) else None
    by_id = {c["id"]: c for c in report["cases"]} if report else {}
    return p.returncode, by_id, p.stdout + p.stderr


def truth(content_of=lambda r: r.get("content"), message=None):
    t = {}
    for path, r in rows.items():
        if r["expect"] == "valid":
            c = content_of(r)
            t[path] = [0, {"content": c} if c is not None else None, ""]
        else:
            t[path] = [1, {"message": message} if message else None, ""]
    return t


def results(by_id):
    return {i: c["result"] for i, c in by_id.items()}


# the unchanged expected content: every case passes, content "full"
rc, cases, out = run(truth())
check(rc == 0 and all(c["result"] == "pass" for c in cases.values()), f"truth: every case passes (exit {rc}) {results(cases)}")
check(all(c.get("content") == "full" for c in cases.values() if c["expect"] == "valid"), "truth: content full on valid cases")
check(all(c.get("content") is None for c in cases.values() if c["expect"] != "valid"), "content null on invalid cases")


def with_kv(r, fn):
    c = copy.deepcopy(r.get("content"))
    if c and c.get("kv"):
        for kv in c["kv"]:
            fn(kv)
    return c


# 64-bit integers as JSON numbers where the expected content has strings
def u64_as_numbers(kv):
    if kv["type"] in ("u64", "i64"):
        kv["value"] = int(kv["value"])
    if kv.get("elem_type") in ("u64", "i64"):
        kv["value"] = [int(v) for v in kv["value"]]
rc, cases, out = run(truth(lambda r: with_kv(r, u64_as_numbers)))
check(rc == 0 and cases["valid-kv-every-scalar-type"]["result"] == "pass" and cases["valid-kv-array-every-type"]["result"] == "pass",
      f"u64 / i64 as JSON numbers (beyond 2^63 too) pass: {results(cases)}")


# every integer as a decimal string where the expected content has numbers
def ints_as_strings(kv):
    if kv["type"] in ("u8", "i8", "u16", "i16", "u32", "i32"):
        kv["value"] = str(kv["value"])
    if kv.get("elem_type") in ("u8", "i8", "u16", "i16", "u32", "i32"):
        kv["value"] = [str(v) for v in kv["value"]]
rc, cases, out = run(truth(lambda r: with_kv(r, ints_as_strings)))
check(rc == 0 and cases["valid-kv-every-scalar-type"]["result"] == "pass", f"integers as decimal strings pass: {results(cases)}")


# a wrong u64, as a number: misread
def u64_off_by_one(kv):
    if kv["type"] == "u64":
        kv["value"] = int(kv["value"]) + 1
rc, cases, out = run(truth(lambda r: with_kv(r, u64_off_by_one)))
c = cases["valid-kv-every-scalar-type"]
check(rc == 1 and c["result"] == "misread" and "scalar" in (c["detail"] or "") or "kv[" in (c["detail"] or ""),
      f"a u64 off by one (2^63 < v < 2^64) is a misread: {c['result']} {c['detail']}")


# floats without bits: compared by value, not a misread
def no_bits(kv):
    kv.pop("bits", None)
rc, cases, out = run(truth(lambda r: with_kv(r, no_bits)))
check(rc == 0 and cases["valid-kv-every-scalar-type"]["result"] == "pass" and cases["valid-kv-every-scalar-type"].get("content") == "full",
      f"floats without bits pass by value: {results(cases)}")


def wrong_value_no_bits(kv):
    kv.pop("bits", None)
    if kv["type"] == "f32":
        kv["value"] = 1.25
rc, cases, out = run(truth(lambda r: with_kv(r, wrong_value_no_bits)))
check(cases["valid-kv-every-scalar-type"]["result"] == "misread", "a wrong f32 value without bits: misread")


def wrong_bits(kv):
    if kv["type"] == "f64":
        kv["bits"] = "0xC002000000000001"
rc, cases, out = run(truth(lambda r: with_kv(r, wrong_bits)))
check(cases["valid-kv-every-scalar-type"]["result"] == "misread", "bits that differ (both sides give them): misread")


def upper_bits(kv):
    if isinstance(kv.get("bits"), str):
        kv["bits"] = kv["bits"].upper().replace("0X", "0x")
rc, cases, out = run(truth(lambda r: with_kv(r, upper_bits)))
check(cases["valid-kv-every-scalar-type"]["result"] == "pass", "bits in upper case: pass")


# partial content: KVs without types, tensors without offsets, no version
def partial(r):
    c = copy.deepcopy(r.get("content"))
    if not c:
        return c
    c.pop("version", None)
    c.pop("alignment", None)
    for kv in c.get("kv", []):
        kv.pop("type", None)
        kv.pop("elem_type", None)
    for t in c.get("tensors", []):
        t.pop("offsets", None)
    return c
rc, cases, out = run(truth(partial))
check(rc == 0 and all(c["result"] == "pass" for c in cases.values()), f"partial content passes: {results(cases)}")
check(all(c.get("content") == "partial" for c in cases.values() if c["expect"] == "valid"),
      f"partial content: reported per case {[c.get('content') for c in cases.values() if c['expect'] == 'valid']}")


def partial_wrong(r):
    c = partial(r)
    if c and c.get("tensors"):
        c["tensors"][0]["shape"] = [1]
    return c
rc, cases, out = run(truth(partial_wrong))
check(cases["valid-n-dims-4"]["result"] == "misread", "partial content with a wrong shape: misread")

# order: safetensors tensors and __metadata__ have none (the crate keeps hash maps; JavaScript
# enumerates the name "1" first), GGUF tensors and KVs are in file order
def reversed_lists(fmt):
    def f(r):
        c = copy.deepcopy(r.get("content"))
        if c and c["format"] == fmt:
            c["tensors"].reverse()
            c["kv"].reverse()
        return c
    return f
rc, cases, out = run(truth(reversed_lists("safetensors")))
st_multi = [i for i in ("valid-tensor-names-js-properties", "valid-metadata-keys-js-properties")]
check(rc == 0 and all(cases[i]["result"] == "pass" and cases[i]["content"] == "full" for i in st_multi),
      f"safetensors tensors and __metadata__ in another order: pass {results(cases)}")
rc, cases, out = run(truth(reversed_lists("gguf")))
check(cases["valid-kv-every-scalar-type"]["result"] == "misread", "GGUF KVs in another order: misread")
def st_renamed(r):
    c = reversed_lists("safetensors")(r)
    if c and c["format"] == "safetensors" and c["tensors"]:
        c["tensors"][0]["name"] = "other"
    return c
rc, cases, out = run(truth(st_renamed))
check(cases["valid-tensor-names-js-properties"]["result"] == "misread", "safetensors: a tensor name not expected: misread")

# no content at all: not checked, said per case
rc, cases, out = run(truth(lambda r: None))
check(rc == 0 and all(c.get("content") == "not_checked" for c in cases.values() if c["expect"] == "valid"),
      "no content printed: content not_checked on each valid case")

# descriptions in the report, up-front content count, --list column
check(cases["GG002-bad-magic-FUGG"].get("description") == rows["GG002-bad-magic-FUGG.gguf"]["description"],
      "the report carries the fixture's description")
n_content = sum(1 for r in rows.values() if r["expect"] == "valid" and "content" in r)
check(f"content to compare on {n_content} of the {len(rows)} selected cases" in out, f"said up front: content to compare on {n_content} cases")
check(f"content compared on 0 of the {n_content} valid cases with expected content" in out, "said after the run: compared on none")
rc, cases, out = run(truth())
check(f"content compared on {n_content} of the {n_content} valid cases with expected content ({n_content} full" in out,
      "said after the run: compared on every one")

# a debug line before the JSON line (issue 17): the JSON line is not read (the protocol reads
# stdout's first line), never silently: a warning per case and in the summary, content not_checked,
# the true count of compared cases (a misread in that line must not become a silent pass)
t = truth(lambda r: with_kv(r, lambda kv: kv.update(key=kv["key"] + "-misread")))
for k, v in t.items():
    if v[1] is not None:
        v[1] = "debug: reading " + k + "\n" + json.dumps(v[1])
rc, cases, out = run(t)
late = [c for c in cases.values() if c.get("warning")]
check(len(late) == sum(1 for v in t.values() if v[1] is not None) and all("line 2 is a JSON object" in c["warning"] for c in late),
      f"debug line first: a warning on each such case ({len(late)})")
check(all(c.get("content") == "not_checked" for c in late if c["expect"] == "valid"), "debug line first: content not_checked")
check(f"content compared on 0 of the {n_content}" in out and f"{len(late)} cases with a protocol warning" in out
      and "valid-kv-every-scalar-type [default] pass: stdout line 2" in out, "debug line first: said in the summary, per case")
check("adapter check: warning: " in out and rc == 0, f"debug line first: said before the run by the adapter check, which lets it run (exit {rc})")
p = subprocess.run([TFS, "conform", "--fixtures", suite, "--list"], capture_output=True, text=True)
listed = {l.split("\t")[0]: (l.split("\t") + [""] * 6)[5] for l in p.stdout.splitlines()}
check(sum(1 for v in listed.values() if v == "content") == n_content, "--list: column 6 names the content-checked cases")

# adapter sanity: stops the run, exit 2, a clear message
t = truth()
accept_all = {k: [0, None, ""] for k in t}
rc, cases, out = run(accept_all)
check(rc == 2 and "the same way" in out and not cases, f"accepts everything: exit {rc}, nothing run ({out.strip()[-200:]!r})")
reject_all = {k: [1, None, ""] for k in t}
rc, cases, out = run(reject_all)
check(rc == 2 and "rejects every valid fixture" in out, f"rejects everything: exit {rc}")
# the adapter's own stderr in the message (a reader that throws, a script not found: issue 17),
# and only valid fixtures listed as valid
throws = {k: [1, None, "Error: boom: my reader has a bug\n    at read (reader.mjs:2:7)"] for k in t}
rc, cases, out = run(throws)
said = out[out.find("rejects every valid fixture tried:"):].split("(invalid ones tried:")[0]
check(rc == 2 and "Error: boom: my reader has a bug" in out and "at read (reader.mjs:2:7)" in out,
      f"rejects everything: its stderr shown ({out.strip()[-300:]!r})")
check("valid-" in said and "GG001" not in said and "ST001" not in said, f"rejects everything: the valid list names valid fixtures only ({said!r})")
crash_all = {k: [3, None, "boom"] for k in t}
rc, cases, out = run(crash_all)
check(rc == 2 and "the same way" in out, f"crashes on everything: exit {rc}")
rc, cases, out = run(truth(lambda r: None), "--content")
check(rc == 2 and "printed no content" in out, f"--content promised, none printed: exit {rc}")
rc, cases, out = run(truth(), "--content")
check(rc == 0, f"--content promised and printed: exit {rc}")
rc, cases, out = run(accept_all, "--no-sanity-check")
check(rc == 1 and sum(1 for c in cases.values() if c["result"] == "false_accept") == 4, "--no-sanity-check: runs anyway, false accepts")

# category maps
cmap = os.path.join(tmp, "map.tsv")
with open(cmap, "w") as f:
    f.write("# reader messages -> categories\nTRUNCATED\tunexpected end|empty\nBAD_MAGIC\tnot a GGUF\n"
            "HeaderTooSmall\ttoo small\nHeaderTooLarge\ttoo large\n")
msgs = {"GG001-empty-file.gguf": "unexpected end of file", "GG002-bad-magic-FUGG.gguf": "not a GGUF file",
        "ST001-empty-file.safetensors": "file too small", "ST002-n-100000001.safetensors": "header too large"}
t = truth()
for k, m in msgs.items():
    t[k] = [1, None, "error: " + m]
rc, cases, out = run(t, "--category-map", cmap)
check(rc == 0 and all(cases[i]["got_category"] for i in ("GG001-empty-file", "GG002-bad-magic-FUGG")),
      f"category map on stderr: categories found, pass {[(c['id'], c['got_category']) for c in cases.values()]}")
t["GG002-bad-magic-FUGG.gguf"] = [1, {"message": "unexpected end of file"}, ""]
rc, cases, out = run(t, "--category-map", cmap)
check(rc == 1 and cases["GG002-bad-magic-FUGG"]["result"] == "wrong_rule",
      f"category map on the JSON message: a wrong category is wrong_rule ({cases['GG002-bad-magic-FUGG']['result']})")
with open(cmap, "w") as f:
    f.write("GG001\tunexpected end\n")
rc, cases, out = run(t, "--category-map", cmap)
check(cases["GG001-empty-file"]["got_rule"] == "GG001" and cases["GG002-bad-magic-FUGG"]["result"] == "wrong_rule",
      "category map: a rule id as the value")
with open(cmap, "w") as f:
    f.write("BAD\t(unclosed\n")
rc, cases, out = run(t, "--category-map", cmap)
check(rc == 2 and "bad regular expression" in out, f"category map: a bad regex is refused (exit {rc})")

shutil.rmtree(tmp, ignore_errors=True)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
