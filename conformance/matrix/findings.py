#!/usr/bin/python3
"""findings.py [RESULTS_JSON] [OUT_MD]: the matrix part of docs/findings.md
(from docs/results.json), one page per reader in docs/findings/<reader>.md
and, without arguments, docs/results.md and .html again (their non-pass
cells link to their class on the reader's page).  The file is one page for the readers' authors:
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
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
doc, fix = None, {}  # the results document and its fixtures by id (load())
# rule id -> one-line title (include/tfs/rules.def), for the explanations below
# (none where the tree has no rules.def: a copy of conformance/matrix/ alone, test_run_exit.sh)
try:
    _RULES = open(os.path.join(ROOT, "include", "tfs", "rules.def")).read()
except OSError:
    _RULES = ""
TITLE = {m.group(1): m.group(2) for m in re.finditer(r'TFS_RULE\((\w+),[^"]*"[^"]*", "((?:[^"\\]|\\.)*)"', _RULES)}

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
    "hyllama": "Checks only the magic: any version, any count; refuses an unknown value type only when it reads one (an empty array's element type goes unchecked); reports no types "
               "(its content is compared partially: keys and values).",
    "hf-hub": "Validates only what its own parameter count needs: shapes and data_offsets of each entry; no check of "
              "dtype names, of offsets covering the data contiguously, of the header's start, or of `__metadata__` "
              "being strings.",
    "safetensors-js": "The npm package `safetensors` 0.0.1 (added by the newcomer run of docs/matrix.md): its "
                      "SafeTensor constructor reads the header length, JSON.parse's the header decoded by TextDecoder "
                      "(invalid UTF-8 replaced, a leading BOM dropped) and, for every top-level entry, copies dtype and "
                      "shape and maps data_offsets to absolute offsets. It checks nothing else, and it takes "
                      "`__metadata__` for a tensor: a file with metadata throws a TypeError.",
    "gguf-js": "Why: GGUF.js 1.0.7 (dist/gguf.cjs.development.js, readFileChunk) reads the file in 10 MiB chunks "
               "and returns \"unexpected bytes read\" when a read gives less than a whole chunk, so every file "
               "shorter than 10 MiB is refused (every fixture of the corpus). It should read what the file holds "
               "and fail only when a value it needs lies past the end.",
    "gguflib": "Its source checks only the magic and the 24-byte header size: every count, length and offset after "
               "that is trusted, so a malformed header is read out of bounds (ASan). Block sizes come from its own "
               "table (issue 17 reported four wrong ones: they show as misread offsets).",
    "gguf-tools-show": "The stock command over gguflib.c: the same defects, plus its own printing of values.",
    "safetensors-cpp": "It takes the last tensor in JSON key order as the one that ends the data, so it rejects "
                       "valid files whose key order differs from their offset order; its JSON parser recurses without "
                       "a depth limit (its own example overflows its stack on ST113-depth-100000, issue 17). It also "
                       "copies an empty data section with memcpy(NULL, src, 0) (safetensors.hh:4434 at the pinned "
                       "commit): undefined behaviour, harmless with glibc; UBSan reported it on 7 fixtures (3 valid), "
                       "so the matrix builds it with -fno-sanitize=nonnull-attribute (docs/adapters.md "
                       "\"Sanitizers\") to see what the reader does next. Its messages name the check that failed; "
                       "conformance/adapters/maps/safetensors-cpp.tsv maps each to that check's category.",
    "csafetensors": "Fixed 4 KiB buffers for names and metadata strings, a fixed limit on metadata entries; its own "
                    "JSON parser, which checks neither UTF-8 nor surrogate pairs; it checks each tensor alone "
                    "(start <= end, end within the data, size), never that the offsets are contiguous.",
    "gguf-py": "llama.cpp's Python reader (gguf_reader.py at 0b6d225; gguf_dump.py, the convert scripts and "
               "transformers' GGUF loading use it). It maps the file with numpy and reads every field through `_get` "
               "(gguf_reader.py:209-216): a slice of the map viewed as the field's type, whose length is never "
               "checked, so a read past the end of the file comes back short or empty instead of failing. It checks "
               "the magic (and takes \"FUGG\" for a big-endian file), the version (2 or 3; a version whose low 16 bits "
               "are 0 is re-read byte-swapped), value and ggml types (Python enums), duplicate keys and tensor names, "
               "general.alignment (u32, a power of two), and that each tensor's data reshapes to its shape; nothing "
               "else. Python exceptions are its rejections: the adapter reports any exception as a rejection, so a "
               "reader bug shows as a rejection, never a crash.",
    "gguf-py-meta": "The same reader and command as `gguf-py`, graded in the header-only profile (what a metadata "
                    "reader is held to): GGUFReader still maps each tensor's data, so it rejects files whose data "
                    "lies past the end, which a metadata reader may accept.",
    "node-llama-cpp-gguf": "node-llama-cpp's own JavaScript GGUF parser (dist/gguf/parser at 3.22.1): parseGguf.js:53-76 "
                           "checks the magic, refuses version 1 and reads any other unknown version as v3 (a warning); "
                           "GgufV2Parser.js:95-125 reads the KV count and every KV as declared (a later duplicate key "
                           "overwrites the earlier: `metadata[key] = value`) and :126-165 every tensor info with no "
                           "check of n_dims, dimensions, ggml type or offset. KVs come back nested by the dots of their "
                           "keys (flattened back by the adapter; partial content).",
    "llama-node": "@fugood/llama.node 1.7.15 bundles llama.cpp b10257 (22dc605c4). loadLlamaModelInfo "
                  "(src/LlamaContext.cpp:64-113) calls gguf_init_from_file (no_alloc = false, no context: header "
                  "and tensor infos only) and then gguf_get_version(ctx) without checking ctx: every file the bundled "
                  "ggml rejects ends the Node process with SIGSEGV instead of an exception the caller can catch. It "
                  "returns the version, alignment and data offset in the same object as the KVs, so a KV named "
                  "`version` replaces the file's version. Where ggml accepts, its checks are its bundled ggml's.",
    "ggml-3.12.0-meta": "ggml at llama.cpp b6122 (npm @node-llama-cpp/linux-x64 3.12.0), between the two other "
                        "releases: each class says whether the newer (0.25.1) or the older (b4234) fails alike.",
    "ggml-3.12.0-data": "ggml at llama.cpp b6122 in data mode (no_alloc = false: the tensor data is read).",
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
    ("ggml-3.3.0-*", "GG141-alignment-0", "b4234 never checks the alignment and divides by it (`offset % "
     "alignment`): SIGFPE for 0; later ggml rejects 0 and any alignment that is not a power of two"),
    ("ggml-3.3.0-data", "GG212-*", "as 0.25.1 (div:GG212-nbytes-wraps), then aborts allocating the wrapped size"),
    ("ggml-3.3.0-data", "GG303-G2-*", "the padded-size sum overflows (CVE-2025-53630, checked since): b4234 sizes its "
     "context from the wrapped sum and aborts allocating"),
    ("ggml-3.3.0-data", "GG304-*", "implementation difference shared with 0.25.1 (div:alloc-abort)"),
    ("ggml-3.3.0-data", "valid-n-dims-0", "b4234 asserts n_dims >= 1 when it creates the tensor (GGML_ASSERT, abort); "
     "0.25.1 accepts a 0-dimensional tensor"),
    ("ggml-3.3.0-*", "valid-type-39-*", "version difference: ggml type 39 is newer than b4234 (December 2024)"),
    ("ggml-3.3.0-*", "valid-type-4[0-9]-*", "version difference: the ggml type is newer than b4234"),
    ("ggml-3.3.0-*", "valid-every-type", "version difference: holds ggml types newer than b4234"),
    ("ggml-3.3.0-*", "valid-*zero-dim*", "version difference: b4234 rejects a dimension of 0 (\"invalid number of "
     "elements (0)\"); 0.25.1 accepts empty tensors"),
    ("ggml-3.3.0-*", "GG209-removed-type-3[78]", "version difference: b4234 reports the type as invalid (its type table "
     "predates the removed types' entries); 0.25.1 knows them and fails the block size"),
    ("ggml-3.3.0-*", "GG001-*", "b4234 does not check the short read of the magic and reports \"invalid magic "
     "characters\" for an empty or 3-byte file: the verdict is right, the reason is not"),
    ("ggml-3.3.0-*", "GG301-data-start-past-eof", "b4234 rejects the 0-element tensor first (\"invalid number of "
     "elements (0)\")"),
    ("ggml-3.3.0-*", "GG301-*", "b4234 skips the padding with an fseek whose result it does not check and never "
     "compares the data start with the file size; in metadata mode it reads no data, so a file cut inside the "
     "padding passes"),
    ("hf-gguf", "GG001-*", "its message says \"not starting with GGUF magic number\" for an empty or 3-byte file: "
     "it should say the file is too short"),
    ("hf-gguf", "GG304-*-header-only", "implementation limit of @huggingface/gguf: it refuses a dimension above 2^32 "
     "(\"exceeds the maximum allowed (4294967296)\"); the file is valid for ggml in metadata mode"),
    ("hf-gguf", "valid-gguf-ollama-llama-2-tiny-random-header-only", "it strips a leading U+FEFF from strings: "
     "LLaMA token 30143 (U+FEFF) comes back empty"),
    ("hyllama", "valid-*", "it decodes strings byte by byte as Latin-1, not UTF-8: \"\u2581a\" (SentencePiece's "
     "word mark) comes back as \"\u00e2\u0096\u0081a\"; every non-ASCII token of a vocabulary is misread"),
]

# Per (reader, result, fixture[, category the reader's message maps to]): why
# the cell is not a pass, for every non-pass cell of the matrix
# (`findings.py --check` fails on a cell nothing explains:
# test_findings_explained).  Tried in order after CELL_NOTES; each entry is
# (reader id glob, results, fixture id glob, got category or None, text); in
# the text {rule} is the fixture's rule id and {title} that rule's one-line
# title (include/tfs/rules.def).  What each says comes from the reader's source
# at the pinned version (read here), its own message (the adapters print it,
# conformance/adapters/maps/ names the check behind each), or
# docs/divergences.md.
FA, FR, WR, MR, CR, TO = "false_accept", "false_reject", "wrong_rule", "misread", "crash", "timeout"
KEY_ORDER = ("it takes the last tensor in key order as the one that ends the data: a file whose key order differs "
             "from its offset order is refused")
EMPTY = ("it rejects any tensor with a 0 dimension that has data_offsets, before it looks at the rest of the tensor "
         "(the crate requires [n, n] there)")
EXPLAIN = [
    # ggml b6122 (npm 3.12.0): what differs from both other releases (the rest: explain()'s fallback)
    ("ggml-3.12.0-*", (CR,), "valid-*zero-dim*", None, "b6122 divides by a dimension of 0 of a valid 0-element "
     "tensor (SIGFPE) while it reads the tensor infos; 0.25.1 accepts empty tensors"),
    ("ggml-3.12.0-*", (CR,), "GG110-*", None, "b6122 asserts that a key is not empty (GGML_ASSERT(!key.empty()) in "
     "gguf.cpp, an abort: the detail has the line) instead of rejecting the file; 0.25.1 rejects it (EMPTY_KEY)"),
    ("ggml-3.12.0-*", (CR,), "GG102-*", None, "b6122 allocates a string of the declared length before checking the "
     "bytes that remain (std::bad_alloc, an abort); 0.25.1 rejects the length first (STRING_TOO_LONG)"),
    ("ggml-3.12.0-*", (CR,), "GG101-*", None, "b6122 makes a std::string of the declared length before checking the "
     "bytes that remain: a length of 2^63 is above std::string's max_size, and the std::length_error it throws is not "
     "caught (an abort); 0.25.1 rejects the length first"),
    ("ggml-3.12.0-*", (WR,), "*", None, "b6122's message for this file names another check than the fixture's (the "
     "category its message maps to is in the detail; most often the short read that follows, TRUNCATED): the "
     "verdict is right; 0.25.1 names the fixture's check"),
    ("ggml-3.3.0-*", (FR,), "GG304-pos-*-header-only", None, "version difference: the tensors after the cut one hold "
     "0 elements (a dimension of 0), which b4234 rejects (\"invalid number of elements (0)\"); 0.25.1 accepts empty "
     "tensors"),
    # ggml b4234 shares these divergences with 0.25.1 (CELL_NOTES name them for 0.25.1)
    ("ggml-3.3.0-*", (FA,), "GG305-*", None, "implementation difference shared with 0.25.1, docs/divergences.md "
     "`div:GG305-padded-size-wraps` (buglog G3)"),
    ("ggml-3.3.0-meta", (FA,), "GG212-*", None, "implementation difference shared with 0.25.1, "
     "docs/divergences.md `div:GG212-nbytes-wraps`"),
    # @huggingface/gguf 0.4.6 (dist/index.js)
    ("hf-gguf", (FA,), "GG011-*", None, "it reads big-endian files (the byte order is taken from the version "
     "field); ggml rejects them"),
    ("hf-gguf", (FA,), "GG012-*", None, "it reads GGUF v1 (isVersion takes 1, 2 and 3); ggml rejects v1"),
] + [("hf-gguf", (FA,), glob, None, "it reads past the end of the file as zeros: no check for: {title} ({rule})")
     for glob in ("GG00[0-9]-*", "GG10[0-9]-*", "GG13[0-9]-*", "GG20[01]-*")] + [
    ("hf-gguf", (FA,), "GG121-*", None, "readMetadataValue recurses into arrays of arrays: no check for: {title}"),
    ("hf-gguf", (FA,), "GG*", None, "it checks the magic, the version and the value types, and reads the rest as "
     "declared: no check for: {title} ({rule})"),
    # hyllama 0.2.2
    ("hyllama", (FA,), "GG*", None, "hyllama checks only the magic and reads the rest as declared: no check for: "
     "{title} ({rule})"),
    # antirez/gguf-tools gguflib.c and its `show` command ("gguf?[!p]*": gguflib and gguf-tools-show, not gguf-py)
    ("gguf?[!p]*", (CR,), "GG204-G13-*", None, "gguf_get_tensor asserts ndim <= GGUF_TENSOR_MAX_DIM (an abort) instead "
     "of rejecting the file"),
    ("gguf?[!p]*", (CR,), "GG209-*removed-type-[45]", None, "its type table gives the removed types 4 and 5 a block size "
     "of 0, and gguflib.c divides by it (UBSan: division by zero)"),
    ("gguf?[!p]*", (CR,), "GG01[12]-*", None, "it reads a big-endian or v1 file as v3 little-endian (it checks neither): "
     "counts and lengths come out huge and it reads out of bounds"),
    ("gguf?[!p]*", (CR,), "GG*", None, "gguflib.c trusts every count, length and offset after the 24-byte header: no "
     "check for: {title} ({rule}), so it reads out of bounds (the sanitizer's report is in the detail)"),
    ("gguf-tools-show", (TO,), "GG130-*", None, "it prints 30 elements but still loops over the declared count "
     "(2^30), which the file cannot hold, without reading past the end: no check for: {title} ({rule})"),
    ("gguf?[!p]*", (FA,), "GG*", None, "gguflib.c checks only the magic and the 24-byte header size: no check for: "
     "{title} ({rule})"),
    ("gguflib", (MR,), "valid-type-*", None, "its type table has a wrong block or type size for this ggml type "
     "(issue 17): the data offsets it computes come out wrong"),
    ("gguflib", (FR,), "valid-*", None, "its type table predates this ggml type: it refuses a tensor of a type it "
     "does not know"),
    # numbers between the correctly rounded f64 overflow and serde_json's (generators/st_f64_range.py)
] + [("*", (FA,), glob, None, "a number that only serde_json's arithmetic puts out of range: its nearest double "
      "is f64::MAX (JSON.parse and strtod read it as a finite number), but serde_json (without float_roundtrip, "
      "as the crate builds it) rounds the significand to 53 bits and then multiplies by 10^e, and that product "
      "rounds to infinity; a reader that matches the crate must compute the same two roundings (this reader "
      "also accepts numbers that overflow f64 outright: ST117-1e400)")
     for glob in ("ST117-*e289-tie-plus-1", "ST117-number-e292-f64-max-plus-1")] + [
    # @huggingface/hub 2.17.5 parseSafetensorsMetadata (dist/index.js: parseSingleFile, validateTensorEntry)
    ("hf-hub", (FA,), "ST10[01]-*", None, "it decodes the header with replacement characters (Blob.text()): "
     "invalid UTF-8 is never an error"),
    ("hf-hub", (FA,), "ST110-bom-start", None, "Blob.text() drops a leading byte order mark before JSON.parse"),
    ("hf-hub", (FA,), "ST11[0-8]-*", None, "JSON.parse is not the crate's JSON (no depth limit, lone surrogates "
     "and out-of-range numbers accepted, a non-object header has no entries to check): no check for: {title} "
     "({rule})"),
    ("hf-hub", (FA,), "ST003-*", None, "it compares the tensors' ends with the file size, never the header length"),
    ("hf-hub", (FA,), "ST*", None, "validateTensorEntry checks only that shape and data_offsets are arrays of "
     "non-negative integers, end >= start and end within the file: no check for: {title} ({rule})"),
    ("hf-hub", (FR,), "valid-big-shape-zero-elements", None, "implementation limit: it refuses a dimension above "
     "its MAX_TENSOR_DIM, even in a tensor of 0 elements"),
    ("hf-hub", (WR,), "ST003-n-*-short", None, "its own header limit (25,000,000 bytes) comes first, before the "
     "file length (the crate's limit is 100,000,000)"),
    ("hf-hub", (WR,), "ST003-n-past-data", None, "it never compares the header length with the file: the short "
     "range it reads fails JSON.parse"),
    ("hf-hub", (WR,), "ST101-*", None, "it does not check UTF-8 (replacement characters): it reports the JSON "
     "error that follows"),
    ("hf-hub", (WR,), "ST306-*", None, "it never compares a tensor's byte size (shape x dtype) with its "
     "data_offsets: it reports the end past the file that follows (read as a double: 2^63 shows as "
     "9223372036854776000)"),
    ("hf-hub", (WR,), "ST222-offsets-*", None, "JSON.parse reads data_offsets as doubles and it checks only "
     "that they are non-negative numbers: an end above 2^64 - 1 (3 x 10^19) is taken as a number and reported as "
     "past the end of the file"),
    ("hf-hub", (WR,), "ST30[12]-*", None, "no walk of the offsets in their order (contiguous from 0, each end after "
     "its start): it reports the first tensor, in key order, that ends past the file"),
    # safetensors 0.0.1 (npm; dist/safetensors.es.js, class SafeTensor)
    ("safetensors-js", (FR,), "valid-*", None, "it takes `__metadata__` for a tensor entry: every file with "
     "`__metadata__` throws a TypeError (reading the dtype of a null one, mapping the data_offsets of an object)"),
    ("safetensors-js", (MR,), "valid-big-shape-zero-elements", None, "JSON.parse reads numbers as doubles: the "
     "dimension 2^64-1 comes back as 18446744073709552000"),
    ("safetensors-js", (FA,), "ST*", None, "its SafeTensor constructor checks nothing but that the header parses "
     "(JSON.parse over TextDecoder's replacement characters) and that each entry has data_offsets: no check for: "
     "{title} ({rule})"),
    # llama.cpp gguf-py GGUFReader (gguf_reader.py at 0b6d225)
    ("gguf-py*", (FA,), "GG002-*", None, "it takes the magic \"FUGG\" for a big-endian GGUF file and reads the rest "
     "byte-swapped (gguf_reader.py:138-147)"),
    ("gguf-py*", (FA,), "GG01[12]-*", None, "it reads big-endian files: the FUGG magic, or a version whose low 16 bits "
     "are 0, switches it to byte-swapped reads (gguf_reader.py:138-158); ggml rejects them"),
] + [("gguf-py*", (FA,), glob, None, "a read past the end of the file comes back short or empty (`_get`, "
        "gguf_reader.py:209-216), not an error: no check for: {title} ({rule})")
       for glob in ("GG00[0-9]-*", "GG10[0-9]-*", "GG13[0-9]-*", "GG20[01]-*")] + [
    ("gguf-py*", (FA,), "GG*", None, "GGUFReader checks the magic, version, value and ggml types, duplicate keys "
     "and names, general.alignment and that each tensor's data reshapes, nothing else: no check for: {title} "
     "({rule})"),
    ("gguf-py*", (TO,), "valid-*", None, "it builds one numpy view per array element (gguf_reader.py:259-266): "
     "this real file's vocabulary (tens of thousands of tokens) took longer than the matrix's 30 s limit on the "
     "2-core machine the column ran on at load average above 30: a cost linear in the elements, not a hang; "
     "reading an array as one numpy view would make it fast"),
    ("gguf-py*", (FR,), "valid-type-09-q8_1", None, "its table GGML_QUANT_SIZES gives Q8_1 a block of 4 + 4 + 32 = "
     "40 bytes (constants.py); ggml's block_q8_1 is 36 (two f16 and 32 int8): the tensor's data comes out 4 bytes "
     "per block too long and the reshape fails (\"cannot reshape array of size 224 into shape (3,80)\")"),
    ("gguf-py*", (FR,), "valid-*type*", None, "its GGMLQuantizationType enum (constants.py) lacks this ggml type: "
     "\"is not a valid GGMLQuantizationType\""),
    ("gguf-py*", (WR,), "GG209-*", None, "the removed ggml type is not in its GGMLQuantizationType enum: it reports "
     "an unknown type (BAD_TYPE) where ggml reports the block size"),
    ("gguf-py*", (WR,), "GG011-*", None, "it reads the big-endian file byte-swapped (gguf_reader.py:150-158) and "
     "fails later, on a duplicate key, instead of refusing the byte order"),
    ("gguf-py*", (TO,), "*", None, "it loops over a declared array count (`for idx in range(alen[0])`, "
     "gguf_reader.py:259) building one numpy view per element, with no bound by the file size: no check for: "
     "{title} ({rule})"),
    ("gguf-py*", (MR,), "valid-*", None, "it reads the file but returns other values than it holds (the detail "
     "names the first difference)"),
    ("gguf-py-meta", (FR,), "*-header-only", None, "GGUFReader maps every tensor's data while it opens the file "
     "(gguf_reader.py:379, a numpy view reshaped to the tensor's shape): data past the end of the file fails the "
     "reshape, so it refuses a file whose header is valid (the header-only profile accepts it)"),
    ("gguf-py*", (FR,), "valid-*", None, "it refuses a valid file (its message is in the detail): a check ggml does "
     "not make"),
    ("gguf-py*", (WR,), "*", None, "rejected, but its exception names another cause than the fixture's rule (the "
     "message and the category map are in the detail)"),
    ("gguf-py*", (CR,), "*", None, "the adapter process ended outside the protocol (the detail has the exit)"),
    # node-llama-cpp 3.22.1 readGgufFileInfo (dist/gguf/parser)
    ("node-llama-cpp-gguf", (FA,), "GG01[03]-*", None, "it reads any version but 1 as v3 (parseGguf.js:71-75, a "
     "warning only)"),
    ("node-llama-cpp-gguf", (FA,), "GG*", None, "it checks the magic, the version (not 1) and the value types, and "
     "reads the rest as declared (GgufV2Parser.js:95-165), past the end of the file as zeros (GgufFsFileReader.js:"
     "53-54 ignores how many bytes a read returned): no check for: {title} ({rule})"),
    ("node-llama-cpp-gguf", (TO,), "*", None, "no answer within 30 s: it loops over, or reads by, a declared count "
     "or size that the file cannot hold, with no bound by the file size (GgufV2Parser.js:76-87, 106-124, 130-165): "
     "no check for: {title} ({rule})"),
    ("node-llama-cpp-gguf", (CR,), "*", None, "Node ended outside the protocol (the detail has the exit): a declared "
     "count or length drives an allocation or recursion the file cannot back"),
    ("node-llama-cpp-gguf", (MR,), "valid-*", None, "its metadata is an object nested by the dots of the keys "
     "(convertMetadataKeyValueRecordToNestedObject): the file's KV order is lost (keys that share a prefix come back "
     "together), and a key that is also the prefix of another, or a JavaScript property name, is changed or lost "
     "(the detail names the first difference)"),
    ("node-llama-cpp-gguf", (FR,), "valid-*", None, "it refuses a valid file (its message is in the detail)"),
    ("node-llama-cpp-gguf", (WR,), "*", None, "rejected for another cause than the fixture's (its message is in "
     "the detail)"),
    # @fugood/llama.node 1.7.15 loadLlamaModelInfo
    ("llama-node", (CR,), "valid-*zero-dim*", None, "its bundled ggml divides by a dimension of 0 of a valid "
     "0-element tensor while it reads the tensor infos (SIGFPE), as ggml b6122 does (ggml-3.12.0 columns); ggml "
     "0.25.1 (ggml-3.22.1 columns) accepts it"),
    ("llama-node", (CR,), "GG140-*", None, "its bundled ggml asserts that general.alignment is a u32 (GGML_ASSERT in "
     "gguf.cpp, an abort: the detail has the line) instead of rejecting the file"),
    ("llama-node", (CR,), "*", None, "gguf_init_from_file rejects the file and returns NULL; loadLlamaModelInfo "
     "then calls gguf_get_version(NULL) (src/LlamaContext.cpp:81-85): SIGSEGV instead of an error"),
    ("llama-node", (MR,), "valid-key-js-properties", None, "it returns version, alignment and data_offset in the "
     "object that holds the KVs (src/LlamaContext.cpp:83-105): the KV `version` (\"7\") replaces the file's "
     "version (3)"),
    ("llama-node", (FA,), "GG202-*", None, "the package builds its ggml with GGML_MAX_NAME=80 (CMakeLists.txt:185), so "
     "a tensor name of 64 to 79 bytes passes ggml's length check: {title} ({rule})"),
    ("llama-node", (FA,), "GG140-*", None, "its bundled ggml reads general.alignment with gguf_get_val_u32 and no type "
     "check, so an array of one u32 passes: {title} ({rule})"),
    ("llama-node", (FA,), "*", None, "its bundled ggml accepts it: no check for: {title} ({rule})"),
    ("llama-node", (TO,), "*", None, "its bundled ggml loops or allocates by a declared size before checking it "
     "against the file"),
    ("llama-node", (MR,), "*", None, "it returns another version or alignment than the file holds"),
    ("llama-node", (FR,), "*", None, "its bundled ggml refuses a valid file (its message is in the detail)"),
    ("llama-node", (WR,), "*", None, "rejected for another cause than the fixture's"),
    # syoyo/safetensors-cpp: safetensors.hh and csafetensors.c
    ("*safetensors*", (WR,), "*", "EmptyTensorWithOffsets", EMPTY),
    ("*safetensors*", (WR,), "*", "TensorInvalidInfo", "it computes the byte size in wrapping size_t arithmetic from "
     "dimensions cast from doubles (a negative one becomes huge), with no overflow check: it reports the size "
     "mismatch that follows"),
    ("*safetensors*", (WR,), "ST306-*-2-64-minus-1", "InvalidOffset", "it reads data_offsets as doubles and casts "
     "them to size_t (csafetensors.c:798-799, safetensors.hh:3694): 2^64-1 rounds to 2^64, outside size_t's range "
     "(undefined behaviour; the end comes out 0 here), so it reports begin > end"),
    ("*safetensors*", (WR,), "*", "InvalidOffset", "it reads a negative offset as a huge size_t (a cast from "
     "double): it reports begin > end"),
    ("*safetensors*", (WR,), "ST002-*", "InvalidHeaderLength", "it checks the header length against the file "
     "before its own limit (100 MiB; the crate checks its limit first)"),
    ("*safetensors*", (WR,), "ST101-*", "InvalidHeaderDeserialization", "its JSON parser does not check UTF-8: it "
     "reports the JSON error that follows"),
    ("*safetensors*", (WR,), "ST3*", "InvalidHeaderDeserialization", "its dtype table lacks the sub-byte dtypes F4 "
     "and F6_*: it reports an unknown dtype first"),
    ("*safetensors*", (WR,), "ST301-*", "MetadataIncompleteBuffer", "no check that the offsets are contiguous from "
     "0: it reports the data end it checks next"),
    ("*safetensors*", (WR,), "ST303-*", "MetadataIncompleteBuffer", "it checks each tensor's end against the data "
     "before anything about its shape, and reads dimensions as doubles with no overflow check on the element "
     "count (its ST303 false accepts): this file's data section is shorter than the tensor's end, which it "
     "reports"),
    ("*safetensors*", (WR,), "ST306-*", "MetadataIncompleteBuffer", "it checks a tensor's end against the data "
     "before the tensor's size (the crate: size first)"),
    ("safetensors-cpp", (WR,), "ST222-before-trailing-data", "MetadataIncompleteBuffer", "it reads the shape value "
     "1.5 as 1 (no integer check) and reports the trailing bytes"),
    ("csafetensors", (FA,), "ST101-*", None, "its JSON parser does not check UTF-8"),
    ("safetensors-cpp", (FA,), "ST101-*", None, "its JSON parser stops after the object and never reads the bytes "
     "after it, where this fixture's bad UTF-8 is (it checks UTF-8 inside strings)"),
    ("csafetensors", (FA,), "ST116-*", None, "json_parse_unicode_escape checks that a high surrogate escape is "
     "followed by a low one, but encodes a lone low surrogate (\\uDC00-\\uDFFF) as if it were a code point"),
    ("csafetensors", (FA,), "ST40[12]-*", None, "it keeps the string entries of an object `__metadata__` and skips "
     "anything else without an error: no check for: {title}"),
    ("*safetensors*", (FA,), "ST301-*", None, "no check that the offsets are contiguous from 0 (each tensor is "
     "checked alone: start <= end, end within the data, size): {title}"),
    ("*safetensors*", (FA,), "ST303-*", None, "the element count is a wrapping size_t product: no check for: {title}"),
    ("safetensors-cpp", (FA,), "ST118-*", None, "when the header's top level is not an object it adds an error "
     "message but does not return false, so a file of 16 bytes or more (shorter ones stop at its size check) "
     "is accepted with no tensors"),
    ("*safetensors*", (FA,), "ST1*", None, "its own JSON parser is more lenient than serde_json: no check for: "
     "{title} ({rule})"),
    ("*safetensors*", (FA,), "ST*", None, "no check for: {title} ({rule})"),
    ("*safetensors*", (CR,), "ST113-depth-100000*", None, "its JSON parser recurses once per nesting level with no "
     "depth limit: 100,000 levels or more overflow the stack"),
    ("safetensors-cpp", (FR,), "valid-key-order-not-offsets", "MetadataIncompleteBuffer", KEY_ORDER),
    ("safetensors-cpp", (FR,), "valid-offsets-reverse-40", "MetadataIncompleteBuffer", KEY_ORDER),
    ("safetensors-cpp", (FR,), "valid-order-*", "MetadataIncompleteBuffer", KEY_ORDER),
    ("safetensors-cpp", (FR,), "valid-page-transformer-shard", "MetadataIncompleteBuffer", KEY_ORDER),
    ("safetensors-cpp", (FR,), "valid-safetensors-mlx-*", None, "`__metadata__` must be an object for it "
     "(\"`__metadata__` value must be JSON object\"): the MLX writer's file is refused"),
    ("safetensors-cpp", (FR,), "valid-metadata-null", None, "`__metadata__` must be an object for it: null is "
     "refused (the crate accepts it)"),
    ("*safetensors*", (FR,), "valid-mutant-3e576417", None, "its JSON parser refuses a key that comes twice in an "
     "object (safetensors.hh: \"duplicated key found\"; csafetensors.c: \"Duplicate key in object\"); serde_json "
     "keeps the last, so the crate reads this file (the same tensor entry twice) as one tensor (strict profile: "
     "ST501)"),
    ("*safetensors*", (FR,), "valid-*duplicate-*last-wins*", None, "its JSON parser refuses a key that comes "
     "twice in an object (safetensors.hh: \"duplicated key found\"; csafetensors.c: \"Duplicate key in object\"); "
     "serde_json keeps the last, so the crate reads the last tensor entry or `__metadata__` value (strict profile: "
     "ST501 / ST503)"),
    ("safetensors-cpp", (FR,), "valid-ignored-*", None, "its JSON parser refuses a value in a field the crate "
     "ignores (\"JSON parse error: invalid token\")"),
    ("safetensors-cpp", (FR,), "valid-number-exponent-*", None, "its JSON parser refuses the number "
     "1.25e-2147483647 (\"JSON parse error: invalid token\") in a field the crate ignores; serde_json reads it"),
    ("*safetensors*", (FR,), "valid-empty-unpadded", None, "it refuses any file under 16 bytes (its own minimum; "
     "the crate's is 8)"),
    ("*safetensors*", (FR,), "valid-dtype-*", None, "its dtype table lacks this dtype (the crate knows it)"),
    ("*safetensors*", (FR,), "valid-f[46]-*", None, "its dtype table lacks the sub-byte dtypes F4 and F6_*"),
    ("*safetensors*", (FR,), "valid-safetensors-julia-*", None, "the file holds F8_E4M3 tensors, not in its dtype "
     "table"),
    ("*safetensors*", (FR,), "valid-*", "EmptyTensorWithOffsets", EMPTY + ": a valid 0-element tensor is refused"),
    ("csafetensors", (MR,), "valid-*", None, "names, metadata keys and values are C strings copied with strncpy into "
     "fixed 4096-byte buffers (CSAFETENSORS_MAX_STRING_LEN): cut at the first \\u0000 or after 4095 bytes"),
]


# tried before CELL_NOTES: single fixtures inside the globs CELL_NOTES give a whole reader
FIRST = [
    ("hyllama", (MR,), "valid-key-js-properties", None, "it keeps the KVs in the object that holds its own header "
     "fields: the KV `version` (7) overwrites the file's version (3)"),
    ("hf-gguf", (MR,), "valid-key-js-properties", None, "its metadata object also holds its own header fields "
     "(`version`, `tensor_count`, `kv_count`): the KV `version` (7) overwrites the file's version (3)"),
    ("hf-gguf", (MR,), "valid-key-bom-led", None, "it strips a leading U+FEFF from strings: the key "
     "\"\\ufeffgeneral.name\" becomes \"general.name\" and replaces the KV of that name"),
    ("hf-gguf", (MR,), "valid-*-bom-led", None, "it strips a leading U+FEFF from strings"),
    ("hf-gguf", (MR, FR), "valid-alignment-first-key-*-nul-plain", None, "it takes the key "
     "\"general.alignment\\0x\" for general.alignment (the key read up to its NUL) and keeps the later of the two "
     "keys: alignment 3 or 64 where ggml's first match gives 64 or 32, and a rejection where the later one is a "
     "string"),
    ("hyllama", (MR,), "GG507-string-utf8-window-*-default", None, "it decodes strings byte by byte as Latin-1, "
     "not UTF-8: the long string value with a cut multi-byte sequence reads as other text"),
    ("*", (MR,), "GG507-string-utf8-window-*-default", None, "the value is not UTF-8 (GG507 is strict-only: the "
     "default profile accepts the file); it replaces a cut sequence with one U+FFFD (the WHATWG decoder's maximal "
     "subpart) where the expected content has one per byte: a difference in how invalid text is shown, not in what "
     "is read"),
]


def explain(rid, fid, c):
    """Why a non-pass cell is not a pass: FIRST, CELL_NOTES, EXPLAIN, then (ggml b4234) the newer ggml passing."""
    f = fix[fid]
    rule = (f.get("rule") or "").split("|")[0]
    for rg, results, fg, cat, why in FIRST:
        if fnmatch.fnmatch(rid, rg) and c["result"] in results and fnmatch.fnmatch(fid, fg):
            return why
    for rg, fg, why in CELL_NOTES:
        if fnmatch.fnmatch(rid, rg) and fnmatch.fnmatch(fid, fg):
            return why
    for rg, results, fg, cat, why in EXPLAIN:
        if (fnmatch.fnmatch(rid, rg) and c["result"] in results and fnmatch.fnmatch(fid, fg)
                and (cat is None or c.get("got_category") == cat)):
            return why.replace("{title}", TITLE.get(rule, rule)).replace("{rule}", f.get("rule") or "")
    if rid.startswith("ggml-3.3.0-"):
        newer = doc["cells"].get(rid.replace("3.3.0", "3.22.1"), {}).get(fid)
        if newer and newer["result"] == "pass":
            return "version difference: ggml 0.25.1 (npm 3.22.1) passes this fixture; the check came after b4234"
    if rid.startswith("ggml-3.12.0-"):  # b6122: as the newer or the older release where they fail alike
        for other, note in (("3.22.1", "as ggml 0.25.1 (npm 3.22.1)"), ("3.3.0", "as b4234 (npm 3.3.0)")):
            orid = rid.replace("3.12.0", other)
            oc = doc["cells"].get(orid, {}).get(fid)
            if oc and oc["result"] == c["result"]:
                why = explain(orid, fid, oc)
                if why:
                    return f"{note}: {why}"
        newer = doc["cells"].get(rid.replace("3.12.0", "3.22.1"), {}).get(fid)
        if newer and newer["result"] == "pass":
            return "version difference: ggml 0.25.1 (npm 3.22.1) passes this fixture; the check came after b6122"
    return ""

def repro(r, f):
    """The adapter-side repro: tfs conform on one fixture, as the matrix ran it."""
    cmd = r.get("conform_command") or ""
    if r.get("command"):
        m = re.search(r"--category-map (\S+)", cmd)  # the reasons are graded through it
        env = "ASAN_OPTIONS=detect_leaks=0 " if "gguf-tools show" in r["command"] else ""  # as matrix.py runs it
        ad = f"\"{r['command'].replace('~/', '$HOME/')}\"" if "~/" in r["command"] else f"'{r['command']}'"  # tfs splits it, no shell
        return (f"{env}tfs conform --id {f['id']} --profile {r['profile']} --adapter {ad}"
                + (f" --category-map {m.group(1)}" if m else ""))
    return f"tfs {cmd.replace(' -q', '')} --id {f['id']}"


# The stock reader, called as its users call it (its own CLI or API, not our
# adapter), one line, {file} the fixture.  Where the package must be installed
# first, the line says so.
GGML_PY = ("python3 -c 'import ctypes as c,sys;L=c.CDLL(sys.argv[1]);P=type(\"P\",(c.Structure,),{\"_fields_\":"
           "[(\"no_alloc\",c.c_bool),(\"ctx\",c.c_void_p)]});x=c.c_void_p();L.gguf_init_from_file.restype=c.c_void_p;"
           "L.gguf_init_from_file.argtypes=[c.c_char_p,P];print(\"accepted\" if L.gguf_init_from_file(sys.argv[2].encode(),"
           "P(%s,%s)) else \"rejected\")' node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so {file}")
STOCK = {
    "ggml-*-meta": ("`npm i @node-llama-cpp/linux-x64@{npm}`, then gguf_init_from_file(no_alloc=true) of its "
                    "libggml-base.so: `GGML_NO_BACKTRACE=1 " + GGML_PY % ("True", "None") + "`"),
    "ggml-*-data": ("`npm i @node-llama-cpp/linux-x64@{npm}`, then gguf_init_from_file(no_alloc=false): "
                    "`GGML_NO_BACKTRACE=1 " + GGML_PY % ("False", "c.addressof(x)") + "`"),
    "hf-gguf": ("`npm i @huggingface/gguf@0.4.6`, then `node --input-type=module -e \"import {gguf} from "
                "'@huggingface/gguf'; console.log(await gguf(process.argv[1], {allowLocalFile: true}))\" {file}`"),
    "hyllama": ("`npm i hyllama@0.2.2`, then `node --input-type=module -e \"import {ggufMetadata} from 'hyllama'; "
                "import {readFileSync} from 'fs'; console.log(ggufMetadata(readFileSync(process.argv[1]).buffer))\" {file}`"),
    "hf-hub": ("`npm i @huggingface/hub@2.17.5`; parseSafetensorsMetadata reads from a hub only: call it with "
               "`{repo, path, fetch}` where fetch answers HEAD and Range requests from {file} (as "
               "conformance/adapters/js/hf-hub-safetensors.mjs does)"),
    "safetensors-js": ("`npm i safetensors@0.0.1`, then `node --input-type=module -e \"import {SafeTensor} from "
                       "'safetensors/dist/safetensors.es.js'; import {readFileSync} from 'fs'; "
                       "new SafeTensor(readFileSync(process.argv[1]))\" {file}`"),
    "gguf-js": "`npm i gguf@1.0.7`, then `node -e \"require('gguf').parseRawMetadata(process.argv[1]).then(console.log)\" {file}`",
    "gguflib": "the stock command over gguflib.c, built with ASan: `gguf-tools show {file}`",
    "gguf-tools-show": "`gguf-tools show {file}` (built with -fsanitize=address,undefined)",
    "safetensors-cpp": ("its API as its README shows it: `safetensors::load_from_file(\"{file}\", &st, &warn, &err)` "
                        "then `safetensors::validate_data_offsets(st, err)`"),
    "csafetensors": "its API: `csafetensors_load_from_file(\"{file}\", &st)` then `csafetensors_validate(&st)`",
    "safetensors-crate": "`SafeTensors::deserialize(&std::fs::read(\"{file}\")?)` (the canonical reader)",
    "gguf-py*": ("in a llama.cpp checkout at the pinned commit: `python3 gguf-py/gguf/scripts/gguf_dump.py {file}` "
                 "(GGUFReader, then every field's contents; it imports the whole gguf package and its dependencies), "
                 "or the reader alone: `python3 -c \"import sys; sys.path.insert(0, 'gguf-py'); "
                 "from gguf.gguf_reader import GGUFReader; r = GGUFReader(sys.argv[1]); "
                 "[f.contents() for f in r.fields.values()]\" {file}`"),
    "node-llama-cpp-gguf": "`npx -y node-llama-cpp@3.22.1 inspect gguf {file}` (readGgufFileInfo)",
    "llama-node": ("`npm i @fugood/llama.node@1.7.15`, then `GGML_NO_BACKTRACE=1 node -e \"require('@fugood/llama.node')"
                   ".loadLlamaModelInfo(process.argv[1]).then(console.log)\" {file}`"),
}
# Where in the reader's source a class comes from, at the pinned version:
# (reader glob, results, fixture glob, "file:line: what").  A class without an
# entry says so ("not located").
SOURCE = [
    ("gguf-py*", (FA, MR), "GG002-*", "gguf_reader.py:138-147 (0b6d225): magic \"FUGG\" is taken as a big-endian file"),
    ("gguf-py*", (FA,), "GG01[12]-*", "gguf_reader.py:150-158 (0b6d225): a version whose low 16 bits are 0 is re-read "
     "byte-swapped (\"legacy\" big-endian files)"),
    ("gguf-py*", (FR,), "valid-type-09-q8_1", "constants.py GGML_QUANT_SIZES: `GGMLQuantizationType.Q8_1: (32, 4 + "
     "4 + 32)` (0b6d225); ggml's block_q8_1 is 2 + 2 + 32"),
    ("gguf-py*", (TO,), "*", "gguf_reader.py:259 (0b6d225): `for idx in range(alen[0])`, one view per element"),
    ("gguf-py*", (FA, MR, CR), "*", "gguf_reader.py:209-216 (0b6d225): _get slices the memmap and views it without "
     "checking the slice is as long as asked; a short read comes back short (or empty) instead of failing"),
    ("llama-node", (CR,), "valid-*", "the bundled ggml's tensor-info size check divides by a dimension that may be 0 "
     "(gguf.cpp of the bundled build; not located by line: the package ships the binary); ggml 0.25.1 accepts these "
     "files"),
    ("llama-node", (CR,), "GG140-*", "the bundled ggml's gguf.cpp:194 (GGML_ASSERT on the type of general.alignment)"),
    ("llama-node", (CR,), "*", "src/LlamaContext.cpp:81-85 (1.7.15): gguf_init_from_file's result is used "
     "(gguf_get_version(ctx)) without a NULL check"),
    ("llama-node", (MR,), "*", "src/LlamaContext.cpp:83-105 (1.7.15): version, alignment, data_offset and the KVs "
     "set on one object"),
    ("csafetensors", (WR,), "ST306-*-2-64-minus-1", "csafetensors.c:798-799 (af90b6c): `tensor->data_offset_end = "
     "(size_t)end->data.number;`, a double cast to size_t with no range check"),
    ("safetensors-cpp", (WR,), "ST306-*-2-64-minus-1", "safetensors.hh:3694 (af90b6c): `dst[cnt] = size_t(*pn);` in "
     "parse_data_offsets, a double cast to size_t with no range check"),
    ("safetensors-cpp", (CR,), "ST113-*", "safetensors.hh (af90b6c): the JSON parser recurses per nesting level"),
]
# ... and one file per reader, conformance/matrix/sources/<reader>.tsv (lines: reader glob, results
# (comma-separated result names), fixture glob, "file:line (commit or version): what"; '#' comments),
# read after the entries above: the first match wins.
SOURCES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sources")


def read_sources(folder=SOURCES_DIR):
    out = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".tsv"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                cols = line.rstrip("\n").split("\t")
                if len(cols) != 4 or not cols[3].strip():
                    raise SystemExit(f"findings.py: {name}:{n}: want 4 tab-separated columns (reader glob, results, "
                                     f"fixture glob, where)")
                results = tuple(r.strip() for r in cols[1].split(","))
                bad = [r for r in results if r not in (FA, FR, WR, MR, CR, TO)]
                if bad:
                    raise SystemExit(f"findings.py: {name}:{n}: not a result: {', '.join(bad)}")
                out.append((cols[0], results, cols[2], cols[3].strip()))
    return out


SOURCE += read_sources()
# A fix for one class where the class's INSTEAD text does not fit: (reader glob, results, fixture glob, text)
FIX = [
    ("gguf-py*", (TO,), "valid-*", "read a numeric or string array with one numpy view (or one pass over its bytes), not "
     "one view per element"),
    ("gguf-py*", (FR,), "valid-type-09-q8_1", "GGML_QUANT_SIZES[GGMLQuantizationType.Q8_1] = (32, 2 + 2 + 32), as "
     "ggml's block_q8_1"),
] + [("gguf-py*", (FA,), g, "refuse \"FUGG\" and byte-swapped versions as ggml does (or read them only behind an "
        "explicit option)") for g in ("GG002-*", "GG01[12]-*")] + [
       ("gguf-py*", (FA,), g, "in `_get`, raise when the slice holds fewer than count items (a read past the end)")
       for g in ("GG00[013-9]-*", "GG10[0-9]-*", "GG13[0-9]-*", "GG20[01]-*")] + [
    ("llama-node", (CR,), "GG*", "check gguf_init_from_file's result before using it: a NULL context is an error to "
     "throw to the caller (Napi::Error), not a context"),
    ("llama-node", (MR,), "*", "return version, alignment and data_offset apart from the KVs (another object, or names "
     "no GGUF key can take)"),
    ("node-llama-cpp-gguf", (MR,), "*", "keep the KVs as an ordered list of (key, type, value) beside the nested view"),
]


def fix_for(rid, result, fid):
    for rg, results, fg, text in FIX:
        if fnmatch.fnmatch(rid, rg) and result in results and fnmatch.fnmatch(fid, fg):
            return text
    return INSTEAD.get(result, "")


SEVERITY = {CR: "crash or memory error", TO: "hang or timeout (no answer within 30 s)", MR: "misread of a valid file", FA: "false accept of a malformed file",
            FR: "false reject of a valid file", WR: "wrong rule (verdict right, reason wrong)"}


def stock(rid, fpath, version=""):
    for g, line in STOCK.items():
        if fnmatch.fnmatch(rid, g):
            npm = re.search(r"linux-x64 ([0-9.]+)", version or "")
            return line.replace("{file}", fpath).replace("{npm}", npm.group(1) if npm else "VERSION")
    return "(no stock command recorded)"


def source(rid, result, fid):
    for rg, results, fg, where in SOURCE:
        if fnmatch.fnmatch(rid, rg) and result in results and fnmatch.fnmatch(fid, fg):
            return where
    return ""


OK = ("pass", "implementation_defined", "skip", "xfail")


def load(d):
    """Set the module's document (explain() reads it)."""
    global doc, fix
    doc, fix = d, {f["id"]: f for f in d["fixtures"]}


def sizes(d):
    out = {}
    for f in d["fixtures"]:
        try:
            out[f["id"]] = os.path.getsize(os.path.join(ROOT, f["path"]))
        except OSError:
            out[f["id"]] = 0
    return out


def classes(d, size=None):
    """Per third-party reader id: its defect classes, worst first: dicts with result, why, fixtures (smallest first),
    anchor.  A class is one result kind and one explanation."""
    load(d)
    size = size or sizes(d)
    out = {}
    for r in d["readers"]:
        if r["id"].startswith("tfs-") or r["id"] not in d["cells"]:
            continue
        cells = d["cells"][r["id"]]
        groups = {}
        for fid, c in cells.items():
            if c["result"] in OK:
                continue
            why = explain(r["id"], fid, c).split(": no check for")[0]  # one class per missing check kind, not per rule
            groups.setdefault((c["result"], why), []).append(fid)
        ks = sorted(groups, key=lambda k: (CLASS_ORDER.index(k[0]) if k[0] in CLASS_ORDER else 99, -len(groups[k]), k[1]))
        out[r["id"]] = [dict(result=k[0], why=k[1], anchor=f"c{n + 1}",
                             fixtures=sorted(groups[k], key=lambda i: (size.get(i, 0), i))) for n, k in enumerate(ks)]
    return out


def links(d):
    """{reader id: {fixture id: 'findings/<reader>.md#cN'}}: each non-pass cell to its class (render.py)."""
    return {rid: {fid: f"findings/{rid}.md#{c['anchor']}" for c in cls for fid in c["fixtures"]}
            for rid, cls in classes(d).items()}


def reader_page(d, r, cls, size):
    cells = d["cells"][r["id"]]
    n_bad = sum(len(c["fixtures"]) for c in cls)
    out = [f"# {r['label']}: findings of the tfs conformance matrix", "",
           f"Reader: {r['label']}; version {r.get('version')}; profile {r['profile']}. Matrix run {r.get('generated') or d['generated']} "
           f"(tfs {r.get('tfs_commit') or d['tfs_commit']}): {len(cells)} fixtures, {n_bad} not passing, in "
           f"{len(cls)} classes below, worst first. Cells: [docs/results.md](../results.md) (column `{r['id']}`); "
           "the fixtures are in corpus/ with their manifests (docs/fixtures.md).", "",
           f"Stock reader, one line: {stock(r['id'], 'FILE', r.get('version'))}.", "",
           f"Matrix adapter: `tfs {r.get('conform_command', '')}`.", ""]
    if r["id"] in NOTES:
        out += [NOTES[r["id"]], ""]
    if r.get("lacks"):
        out += [f"This column lacks {r['lacks']} fixtures of the current corpus (run before they were added): "
                "`conformance/matrix/run.sh --only-new` fills them.", ""]
    if not cls:
        out += ["Every fixture passes.", ""]
    for c in cls:
        f0 = fix[c["fixtures"][0]]
        title = c["why"] or c["result"].replace("_", " ")
        if len(title) > 100:
            title = title[:100].rsplit(" ", 1)[0] + " ..."
        out += [f"<a id=\"{c['anchor']}\"></a>", f"## {c['anchor'][1:]}. {SEVERITY.get(c['result'], c['result'])}: "
                f"{title}", "",
                f"- Severity: {SEVERITY.get(c['result'], c['result'])}; {len(c['fixtures'])} fixture(s).",
                f"- Smallest fixture: [{f0['id']}](../../{f0['path']}) ({size.get(f0['id'], 0)} bytes): {f0.get('description') or ''}",
                f"- Stock reader: {stock(r['id'], f0['path'], r.get('version'))}",
                f"- Matrix cell: `{repro(r, f0)}`",
                f"- Source: {source(r['id'], c['result'], f0['id']) or 'not located at the pinned version (the explanation is from the reader’s message and behaviour)'}",
                f"- Why: {c['why'] or '(see the class)'}",
                f"- Fix: {fix_for(r['id'], c['result'], f0['id'])}", "",
                "| fixture | bytes | rule | what the runner saw |", "|---|---|---|---|"]
        for i in c["fixtures"]:
            det = (cells[i].get("detail") or "").replace("|", "\\|").replace("\n", " ")[:160]
            rule = (fix[i].get("rule") or "").split("|")[0]
            rt = f"{rule}: {TITLE[rule]}" if rule in TITLE else (rule or "-")
            out.append(f"| [{i}](../../{fix[i]['path']}) | {size.get(i, 0)} | {rt.replace('|', '/')} | {det} |")
        out.append("")
    out += rerun_section(r["id"])
    return "\n".join(out).rstrip("\n") + "\n"


RERUN = os.path.join(ROOT, "docs", "rerun", "rerun.json")


def rerun_section(rid):
    """The column's "Independent rerun" section, from docs/rerun/rerun.json (conformance/matrix/rerun.py)."""
    try:
        doc = json.load(open(RERUN, encoding="utf-8"))
    except (OSError, ValueError):
        return []
    col = next((c for c in doc["columns"] if c["id"] == rid), None)
    if col is None:
        return []
    out = ["<a id=\"rerun\"></a>", "## Independent rerun", ""]
    if col.get("skipped"):
        return out + [f"Not compared: {col['skipped']}.", ""]
    out += [f"Second adapter: `{col.get('adapter') or '(none recorded)'}` (conformance/adapters/rerun/, written apart from the matrix adapter; "
            f"same reader version, {col.get('reader_version')}), run in the column's profile ({col['profile']}) and "
            f"category map over the whole corpus: `conformance/matrix/rerun.py --only {rid}` (rerun "
            f"{doc['generated']}, tfs {doc['tfs_commit']}; data: docs/rerun/rerun.json).", "",
            f"Cells compared: {col['compared']}; agreeing: {col['agreeing']}; differing: {len(col['differences'])}.", ""]
    if not col["differences"]:
        return out + ["Every cell agrees, class by class.", ""]
    groups = {}
    for x in col["differences"]:
        groups.setdefault((x["published"], x["rerun"], x["explained"] or "not explained"), []).append(x["fixture"])
    out += ["| published -> rerun | cells | example fixture | why |", "|---|---|---|---|"]
    for (p, g, why), fids in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        f0 = min(fids)
        path = fix[f0]["path"] if f0 in fix else ""
        ex = f"[{f0}](../../{path})" if path else f0
        out.append(f"| {p} -> {g} | {len(fids)} | {ex} | {why.replace('|', '/')} |")
    return out + [""]


MARK = "<!-- generated below by conformance/matrix/findings.py from docs/results.json: edit NOTES there, not here -->"


def index(d, cls, head):
    out = [MARK, "", "## Found by the conformance matrix (docs/results.md)", "",
           f"Generated from docs/results.json (tfs {d['tfs_commit']}, {d['generated']}) by "
           "`conformance/matrix/findings.py`. One page per reader, for its maintainers: every defect class, worst "
           "first, with its smallest fixture, a one-line reproduction with the stock reader, the source line where "
           "located, the severity and a suggested fix. Readers worst first.", "",
           "| reader | page | version | crash | hang | misread | false accept | false reject | wrong rule | classes |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    import render
    for r in render.by_severity(d):
        if r["id"] not in cls:
            continue
        s = r.get("summary") or {}
        out.append(f"| {r['label']} | [findings/{r['id']}.md](findings/{r['id']}.md) | {r.get('version')} | "
                   + " | ".join(str(s.get(k, 0)) for k in (CR, TO, MR, FA, FR, WR)) + f" | {len(cls[r['id']])} |")
    skipped = [r for r in d["readers"] if r["id"] not in d["cells"]]
    if skipped:
        out += ["", "### Readers not in this run", ""] + [f"- {r['label']}: {r.get('why')}" + (f" {NOTES[r['id']]}" if r["id"] in NOTES else "")
                                                         for r in skipped]
    return head + "\n".join(out) + "\n"


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__ + "\n\n  --check  list the non-pass cells nothing explains; exit 1 if any; write nothing")
        return 0
    unknown = [a for a in argv if a.startswith("-") and a != "--check"]
    if unknown:
        print(f"findings.py: unknown option {unknown[0]} (--help)", file=sys.stderr)
        return 2
    args = [a for a in argv if a != "--check"]
    check = "--check" in argv
    src = args[0] if args else os.path.join(ROOT, "docs", "results.json")
    dst = args[1] if len(args) > 1 else os.path.join(ROOT, "docs", "findings.md")
    d = json.load(open(src))
    load(d)
    unexplained = [(rid, fid, c["result"]) for rid, cells in d["cells"].items() for fid, c in sorted(cells.items())
                   if c["result"] not in OK and not explain(rid, fid, c)]
    if check:
        for u in unexplained:
            print("unexplained: %s %s %s" % u)
        n = sum(1 for cells in d["cells"].values() for c in cells.values() if c["result"] not in OK)
        print(f"findings: {n - len(unexplained)} of {n} non-pass cells explained ({src})", file=sys.stderr)
        return 1 if unexplained else 0
    if unexplained:
        print(f"findings: {len(unexplained)} non-pass cells without an explanation (findings.py --check lists them)",
              file=sys.stderr)
    size = sizes(d)
    cls = classes(d, size)
    try:
        old = open(dst).read()
    except OSError:
        old = "# Findings in other readers\n\n"
    head = old.split(MARK)[0].rstrip("\n") + "\n\n"
    open(dst, "w").write(index(d, cls, head))
    pages = os.path.join(os.path.dirname(dst), "findings")
    os.makedirs(pages, exist_ok=True)
    for r in d["readers"]:
        if r["id"] in cls:
            open(os.path.join(pages, r["id"] + ".md"), "w").write(reader_page(d, r, cls[r["id"]], size))
    if not args:  # the page's cells link to the classes: results.md and .html follow (render.py)
        import render
        lk = links(d)
        docs = os.path.dirname(src)
        open(os.path.join(docs, "results.md"), "w").write(render.markdown(d, lk))
        open(os.path.join(docs, "results.html"), "w").write(render.html(d, os.path.relpath(ROOT, docs), lk))
    print(f"findings: wrote {dst} and {len(cls)} pages in {pages}/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main(sys.argv[1:]))
