#!/usr/bin/python3
"""findings.py [RESULTS_JSON] [OUT_MD]: the matrix part of docs/findings.md
(from docs/results.json).  The file is one page for the readers' authors:
the hand-written part above MARK (crashes and undefined behaviour found by
fuzzing, fuzz/ext/) is kept as it is; everything below MARK is regenerated: for each third-party reader, every class of defect,
crashes first; each with its fixtures (the smallest first: the minimal
repro), the fixture's description, the runner's detail, a repro command and
what the reader should do instead.  The advice per class is NOTES below
(hand-written); the cells themselves come from the matrix, so the page is
regenerated with it and never lists a cell the matrix does not have."""
import fnmatch
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

# Per cell: (reader id glob, fixture id glob, why): a cell that is a
# documented implementation difference rather than a defect, or what its
# reader's own message says.  Shown in the "why" column; a non-pass cell
# without an entry is explained by its class (INSTEAD) and the reader's NOTES.
CELL_NOTES = [
    ("ggml-3.22.1-*", "GG207-*", "implementation difference, docs/divergences.md `div:GG207-wrapped-ne`: ggml's "
     "INT64_MAX element-count check is skipped when the count wraps (data mode: it then aborts allocating)"),
    ("ggml-3.22.1-*", "GG212-*", "implementation difference, docs/divergences.md `div:GG212-nbytes-wraps`"),
    ("ggml-3.22.1-*", "GG305-*", "implementation difference, docs/divergences.md `div:GG305-padded-size-wraps` (buglog G3)"),
    ("ggml-3.22.1-data", "GG304-*", "implementation difference, docs/divergences.md `div:alloc-abort`: ggml allocates "
     "the declared data size before checking the file holds it, and aborts when the allocation fails"),
    ("ggml-3.3.0-*", "GG140-*", "b4234 asserts that general.alignment is a u32 (GGML_ASSERT, abort) instead of "
     "rejecting the file; fixed in later ggml (0.25.1 rejects: BAD_ALIGN_TYPE)"),
    ("ggml-3.3.0-*", "GG141-alignment-0", "b4234 divides by the alignment before checking it is not 0 (SIGFPE); "
     "fixed in later ggml"),
    ("ggml-3.3.0-data", "GG212-*", "as 0.25.1 (div:GG212-nbytes-wraps), then aborts allocating the wrapped size"),
    ("ggml-3.3.0-data", "GG303-G2-*", "the padded-size sum overflows (CVE-2025-53630, checked since): b4234 sizes its "
     "context from the wrapped sum and aborts allocating"),
    ("ggml-3.3.0-data", "GG304-*", "implementation difference shared with 0.25.1 (div:alloc-abort)"),
    ("ggml-3.3.0-data", "valid-n-dims-0", "b4234 asserts n_dims >= 1 when it creates the tensor (GGML_ASSERT, abort); "
     "0.25.1 accepts a 0-dimensional tensor"),
    ("ggml-3.3.0-*", "valid-type-39-*", "version difference: ggml type 39 is newer than b4234 (December 2024)"),
    ("ggml-3.3.0-*", "valid-type-4[0-9]-*", "version difference: the ggml type is newer than b4234"),
    ("ggml-3.3.0-*", "valid-every-type", "version difference: holds ggml types newer than b4234"),
    ("ggml-3.3.0-*", "valid-G7-zero-dim", "version difference: b4234 rejects a dimension of 0 (\"invalid number of "
     "elements (0)\"); 0.25.1 accepts empty tensors"),
    ("ggml-3.3.0-*", "GG209-removed-type-*", "version difference: b4234 reports the type as invalid (its type table "
     "predates the removed types' entries); 0.25.1 knows them and fails the block size"),
    ("ggml-3.3.0-*", "GG001-*", "b4234 does not check the short read of the magic and reports \"invalid magic "
     "characters\" for an empty or 3-byte file: the verdict is right, the reason is not"),
    ("ggml-3.3.0-*", "GG301-*", "b4234 rejects the 0-element tensor first (\"invalid number of elements (0)\")"),
    ("hf-gguf", "GG001-*", "its message says \"not starting with GGUF magic number\" for an empty or 3-byte file: "
     "it should say the file is too short"),
    ("hf-gguf", "GG304-*-header-only", "implementation limit of @huggingface/gguf: it refuses a dimension above 2^32 "
     "(\"exceeds the maximum allowed (4294967296)\"); the file is valid for ggml in metadata mode"),
    ("hf-gguf", "valid-gguf-ollama-llama-2-tiny-random-header-only", "it strips a leading U+FEFF from strings: "
     "LLaMA token 30143 (U+FEFF) comes back empty"),
    ("hyllama", "valid-*", "it decodes strings byte by byte as Latin-1, not UTF-8: \"\u2581a\" (SentencePiece's "
     "word mark) comes back as \"\u00e2\u0096\u0081a\"; every non-ASCII token of a vocabulary is misread"),
    ("gguf-tools-show", "*", "the stock command prints values with its own code over gguflib.c: see the gguflib "
     "cell of the same fixture"),
]


def cell_note(rid, fid):
    for rg, fg, why in CELL_NOTES:
        if fnmatch.fnmatch(rid, rg) and fnmatch.fnmatch(fid, fg):
            return why
    # the older ggml where the newer one (same mode) passes: a check added since
    if rid.startswith("ggml-3.3.0-"):
        newer = doc["cells"].get(rid.replace("3.3.0", "3.22.1"), {}).get(fid)
        if newer and newer["result"] == "pass":
            return "version difference: ggml 0.25.1 (npm 3.22.1) passes this fixture; the check came after b4234"
    return ""


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
MARK = "<!-- generated below by conformance/matrix/findings.py from docs/results.json: edit NOTES there, not here -->"
try:
    old = open(dst).read()
except OSError:
    old = "# Findings in other readers\n\n"
head = old.split(MARK)[0].rstrip("\n") + "\n\n"
out = [MARK, "", "## Found by the conformance matrix (docs/results.md)", "",
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
    out += [f"### {r['label']}", "", f"Version: {r.get('version')}; profile {r['profile']}; "
            f"{len(cells)} cases, {n_bad} not passing. Command: `tfs {r.get('conform_command', '')}`.", ""]
    if r["id"] in NOTES:
        out += [NOTES[r["id"]], ""]
    for k in CLASS_ORDER:
        if not bad[k]:
            continue
        out += [f"#### {k.replace('_', ' ')} ({len(bad[k])})", "", f"What to do instead: {INSTEAD[k]}", "",
                f"Minimal repro: `{repro(r, fix[bad[k][0]])}`", "", "| fixture | bytes | description | what the runner saw | why |",
                "|---|---|---|---|---|"]
        for i in bad[k]:
            d = (cells[i].get("detail") or "").replace("|", "\\|").replace("\n", " ")[:200]
            desc = (fix[i].get("description") or "").replace("|", "\\|")
            why = cell_note(r["id"], i).replace("|", "\\|")
            out.append(f"| [{i}](../{fix[i]['path']}) | {size.get(i, 0)} | {desc} | {d} | {why} |")
        out.append("")
skipped = [r for r in doc["readers"] if r["id"] not in doc["cells"]]
if skipped:
    out += ["### Readers not in this run", ""] + [f"- {r['label']}: {r.get('why')}" for r in skipped] + [""]
open(dst, "w").write(head + "\n".join(out) + "\n")
print(f"findings: wrote {dst}", file=sys.stderr)
