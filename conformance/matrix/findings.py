#!/usr/bin/python3
"""findings.py [RESULTS_JSON] [OUT_MD]: docs/findings.md from the matrix
(docs/results.json): for each third-party reader, every class of defect,
crashes first; each with its fixtures (the smallest first: the minimal
repro), the fixture's description, the runner's detail, a repro command and
what the reader should do instead.  The advice per class is NOTES below
(hand-written); the cells themselves come from the matrix, so the page is
regenerated with it and never lists a cell the matrix does not have."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "results.json")
dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "findings.md")
doc = json.load(open(src))

CLASS_ORDER = ["crash", "timeout", "misread", "false_accept", "false_reject", "wrong_rule"]
INSTEAD = {
    "crash": "Check every count, length and offset against the bytes that remain before using it; never index a "
             "table with a file-declared value without a bound; report an error instead of asserting.",
    "timeout": "Bound the work by the file size: a declared count or size larger than what the file can hold is an "
               "error before any loop or allocation proportional to it.",
    "misread": "Return exactly what the file holds (every byte of a string, 64-bit values exact, keys in file order), "
               "or reject the file.",
    "false_accept": "Reject the file: the rule the fixture names (docs/rules of ../shared/spec) is a MUST of the "
                    "format; a reader that reads past it returns garbage or zero-filled values to its caller.",
    "false_reject": "Accept the file: it is valid for the canonical reader of the format (the Rust safetensors crate, "
                    "ggml's gguf.cpp).",
    "wrong_rule": "Rejected for another reason than the fixture's (by the reader's message and the category map): "
                  "the verdict is right; the message points a user at the wrong field.",
}
# reader-specific notes: what the reader's source shows (read here) or what
# issue 17 reported from its first hand run (marked so); the cells under each
# note are this matrix run's
NOTES = {
    "hf-gguf": "Issue 17 reported: bytes past the end of the file read as zeros, so a truncated file reads as "
               "plausible zero counts and lengths (false accepts), and a leading U+FEFF is stripped from strings "
               "(LLaMA token 30143 comes back empty). Its source keeps metadata in a plain object next to its own "
               "header fields (`version`, `tensor_count`, `kv_count`): a KV of that name is overwritten, and "
               "integer-like keys are reordered by JavaScript.",
    "hyllama": "Checks only the magic: any version, any count; reads KV types without checking them; reports no types "
               "(its content is compared partially: keys and values).",
    "hf-hub": "Validates only what its own parameter count needs: shapes and data_offsets of each entry; no check of "
              "dtype names, of offsets covering the data contiguously, of the header's start, or of `__metadata__` "
              "being strings.",
    "gguflib": "Its source checks only the magic and the 24-byte header size: every count, length and offset after "
               "that is trusted, so a malformed header is read out of bounds (ASan). Block sizes come from its own "
               "table (issue 17 reported four wrong ones: they show as misread offsets).",
    "gguf-tools-show": "The stock command over gguflib.c: the same defects, plus its own printing of values.",
    "safetensors-cpp": "Issue 17 reported: it rejects valid files whose JSON key order differs from the order of "
                       "the data offsets (two real MLX files among the fixtures), and its own example overflows its "
                       "stack on ST113-depth-100000.",
    "csafetensors": "Fixed 4 KiB buffers for names and metadata strings, a fixed limit on metadata entries; its own "
                    "JSON scanner.",
    "ggml-3.3.0-meta": "ggml at llama.cpp b4234 (December 2024): asserts (GGML_ASSERT, an abort) on a wrong-typed "
                       "general.alignment and on n_dims 0, divides by a zero alignment (SIGFPE), and lacks the checks "
                       "added since (among them GG303-G2, the padded-size overflow of CVE-2025-53630).",
    "ggml-3.3.0-data": "As in metadata mode; in data mode it also allocates the declared data size before checking it "
                       "against the file (timeouts on exabyte-sized declarations).",
}


def repro(r, f):
    cmd = r.get("conform_command") or ""
    if r.get("command"):
        return f"tfs conform --id {f['id']} --profile {r['profile']} --adapter '{r['command']}'"
    return f"tfs conform --id {f['id']} {cmd}"


fix = {f["id"]: f for f in doc["fixtures"]}
size = {}
for f in doc["fixtures"]:
    try:
        size[f["id"]] = os.path.getsize(os.path.join(ROOT, f["path"]))
    except OSError:
        size[f["id"]] = 0
out = ["# Findings: what the matrix found in each reader, for its authors", "",
       "Generated from docs/results.json by `conformance/matrix/findings.py` (matrix: "
       f"`{doc['command']}`, {doc['generated']}, tfs {doc['tfs_commit']}). For each reader: every class of",
       "defect, crashes first; the smallest fixture of a class first (the minimal repro); the fixture's",
       "description; what the runner saw; a command that repeats it; what to do instead. Fixtures are",
       "in corpus/ with their manifests (docs/fixtures.md); adapters and pins: docs/adapters.md.", ""]
for r in doc["readers"]:
    if r["id"].startswith("tfs-") or r["id"] not in doc["cells"]:
        continue
    cells = doc["cells"][r["id"]]
    bad = {k: sorted([i for i, c in cells.items() if c["result"] == k], key=lambda i: (size.get(i, 0), i)) for k in CLASS_ORDER}
    n_bad = sum(len(v) for v in bad.values())
    out += [f"## {r['label']}", "", f"Version: {r.get('version')}; profile {r['profile']}; "
            f"{len(cells)} cases, {n_bad} not passing. Command: `tfs {r.get('conform_command', '')}`.", ""]
    if r["id"] in NOTES:
        out += [NOTES[r["id"]], ""]
    for k in CLASS_ORDER:
        if not bad[k]:
            continue
        out += [f"### {k.replace('_', ' ')} ({len(bad[k])})", "", f"What to do instead: {INSTEAD[k]}", "",
                f"Minimal repro: `{repro(r, fix[bad[k][0]])}`", "", "| fixture | bytes | description | what the runner saw |",
                "|---|---|---|---|"]
        for i in bad[k]:
            d = (cells[i].get("detail") or "").replace("|", "\\|").replace("\n", " ")[:200]
            desc = (fix[i].get("description") or "").replace("|", "\\|")
            out.append(f"| [{i}](../{fix[i]['path']}) | {size.get(i, 0)} | {desc} | {d} |")
        out.append("")
skipped = [r for r in doc["readers"] if r["id"] not in doc["cells"]]
if skipped:
    out += ["## Readers not in this run", ""] + [f"- {r['label']}: {r.get('why')}" for r in skipped] + [""]
open(dst, "w").write("\n".join(out) + "\n")
print(f"findings: wrote {dst}", file=sys.stderr)
