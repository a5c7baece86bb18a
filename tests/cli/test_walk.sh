#!/bin/sh
# test_walk.sh TFS_BINARY SOURCE_DIR: `tfs check -r DIR`.
#  1. `tfs check -r --json corpus/` walks the corpus: one record per model
#     file (the corpus's model files all have a model extension) or model
#     set (corpus/lint/sets: its files under it, not again alone), each with
#     the verdict its MANIFEST.tsv gives the file in the default profile, then
#     a summary record whose counts are those of the records, the other files
#     counted as skipped.
#  2. A made-up tree: model extensions in any case and under .part/.partial,
#     a GGUF without extension found by content (issue 18), other files
#     skipped and counted, names in byte order, a link to a file followed
#     (one to a file already met: checked once), a link to a directory (a
#     loop) not entered, a FIFO refused unread; a walk
#     that checks nothing exits 1; a folder that cannot be entered is
#     reported and counted as a folder, not a file.
#  4. An Ollama model store (blobs/sha256-..., no extensions; manifests in
#     JSON): the GGUF blobs are found by content; a GGUF named model.bin too.
#  3. The progress line: on stderr only when it is a terminal (script(1)
#     gives one), never in the output.
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
src=$2
. "$(dirname "$0")/../lib.sh"

# ---- 1. the corpus
(cd "$src" && "$tfs" check -r --json corpus/ > "$tmp/corpus.jsonl" 2> "$tmp/stderr")
rc=$?
if [ "$rc" -eq 1 ]; then ok; else ko "check -r corpus/: exit $rc, want 1 (it holds invalid fixtures)"; fi
if [ -s "$tmp/stderr" ]; then ko "check -r corpus/: stderr not empty (no terminal)"; cat "$tmp/stderr"; else ok; fi
if /usr/bin/python3 - "$src" "$tmp/corpus.jsonl" <<'PY'; then ok; else ko "corpus walk records"; fi
import csv, json, os, sys
src, path = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(path, encoding="utf-8")]
records, summary = rows[:-1], rows[-1]
sets = [r for r in records if r.get("set")]
files = [r for r in records if not r.get("set")]
bad = []
want = sorted(os.path.relpath(os.path.join(d, f), src)
              for d, _, fs in os.walk(os.path.join(src, "corpus"))
              for f in fs if f.lower().endswith((".gguf", ".safetensors")))
# every model file once: alone, or under the set that holds it (corpus/lint/sets)
members = [os.path.normpath(f["file"]) for s in sets for f in s["files"] if f["verdict"] != "missing"]
got = [r["file"] for r in files]
if sorted(got + members) != want:
    bad.append("files: %d alone + %d in sets, %d on disk; e.g. %s" % (len(got), len(members), len(want),
               sorted(set(got + members) ^ set(want))[:3]))
if len(sets) < 15 or any(not s["file"].startswith("corpus/lint/sets/") for s in sets):
    bad.append("sets: %d found, %s" % (len(sets), [s["file"] for s in sets][:3]))
if got != sorted(got, key=lambda p: [c.encode() for c in p.split("/")]):  # depth first, names in byte order
    bad.append("not depth first in byte order")
expect = {}
for d, _, fs in os.walk(os.path.join(src, "corpus")):
    if "MANIFEST.tsv" in fs:
        with open(os.path.join(d, "MANIFEST.tsv"), encoding="utf-8") as f:
            for m in csv.DictReader(f, delimiter="\t"):
                if m["mode"] == "default":
                    expect[os.path.relpath(os.path.join(d, m["path"]), src)] = m["expect"]
checked = 0
for r in files:
    e = expect.get(r["file"])
    if e is None or e == "implementation_defined":
        continue
    checked += 1
    if r["verdict"] != e:
        bad.append("%s: %s, manifest %s" % (r["file"], r["verdict"], e))
if checked < 300:
    bad.append("only %d records matched a manifest row" % checked)
n = {v: sum(r["verdict"] == v for r in files) for v in ("valid", "parser_error", "not_a_model")}
n["valid"] += sum(s["verdict"] == "valid" for s in sets)
n["parser_error"] += sum(s["verdict"] == "invalid" for s in sets)
s = summary.get("summary")
on_disk = sum(len(fs) for _, _, fs in os.walk(os.path.join(src, "corpus")))
reported = set(got) | set(members) | {os.path.normpath(s["file"]) for s in sets if os.path.exists(os.path.join(src, s["file"]))}
want_s = {"files": len(records), "valid": n["valid"], "invalid": n["parser_error"], "not_a_model": n["not_a_model"],
          "errors": len(records) - sum(n.values()), "skipped": on_disk - len(reported), "unreadable_folders": 0}
if s != want_s:
    bad.append("summary %r, want %r" % (s, want_s))
for b in bad[:10]:
    print("  " + b)
print("  corpus walk: %d files, %d checked against manifests" % (len(files), checked))
sys.exit(1 if bad else 0)
PY

# ---- 2. a made-up tree
d=$tmp/tree
mkdir -p "$d/sub/deeper" "$d/empty-dir"
cp "$src/corpus/real/gguf/ratchet-test.gguf" "$d/b.gguf"
cp "$src/corpus/real/gguf/ratchet-test.gguf" "$d/A.GGUF"
cp "$src/corpus/real/safetensors/hf-samples-overall.safetensors" "$d/sub/m.SafeTensors"
head -c 100 "$src/corpus/real/safetensors/hf-samples-overall.safetensors" > "$d/sub/deeper/x.safetensors.part"
cp "$src/corpus/real/gguf/ratchet-test.gguf" "$d/sub/deeper/y.gguf.partial"
printf 'not a model\n' > "$d/readme.md"
printf 'not a model\n' > "$d/sub/config.json"
cp "$src/corpus/real/gguf/ratchet-test.gguf" "$d/no-extension"
ln -s ../b.gguf "$d/sub/link.gguf" # b.gguf again (same st_dev, st_ino): checked once, as b.gguf
ln -s .. "$d/sub/loop.gguf"   # a link to a directory: not entered
ln -s .. "$d/sub/loopdir"
mkfifo "$d/sub/fifo.gguf"
out=$("$tfs" check -r "$d" 2> "$tmp/stderr"); rc=$?
files=$(printf '%s\n' "$out" | sed -n 's/^\([^ ].*\): [a-z_]*\( (.*)\)\{0,1\}$/\1/p' | sed "s|^$d/||")
want="A.GGUF
b.gguf
no-extension
sub/deeper/x.safetensors.part
sub/deeper/y.gguf.partial
sub/fifo.gguf
sub/m.SafeTensors"
if [ "$files" = "$want" ]; then ok; else ko "tree walk: got
$files
want
$want"; fi
if [ "$rc" -eq 2 ]; then ok; else ko "tree walk exit $rc, want 2 (the FIFO is an I/O error)"; fi
if printf '%s\n' "$out" | grep -qx "7 files: 5 valid, 1 invalid, 1 error; 2 other files skipped (not model files)"; then ok; else ko "tree summary"; printf '%s\n' "$out" | tail -2; fi
out=$("$tfs" check -r --json "$d" 2> /dev/null)
last=$(printf '%s\n' "$out" | tail -1)
if [ "$last" = '{"summary":{"files":7,"valid":5,"invalid":1,"not_a_model":0,"errors":1,"skipped":2,"unreadable_folders":0}}' ]; then ok; else ko "json summary: $last"; fi
# without -r a directory is a model folder (issue 21): its own model files
# and sets, not its subfolders; a folder without any is an I/O error, as before
out=$("$tfs" check "$d" 2> /dev/null); rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "/b.gguf: valid" && printf '%s\n' "$out" | grep -q "/A.GGUF: valid" &&
    ! printf '%s\n' "$out" | grep -q "m.SafeTensors"; then ok; else ko "directory without -r: exit $rc"; printf '%s\n' "$out"; fi
"$tfs" check "$d/empty-dir" > /dev/null 2>&1; rc=$?
if [ "$rc" -eq 2 ]; then ok; else ko "folder without model files: exit $rc"; fi
# files given by name are checked whatever their name, beside walked folders
out=$("$tfs" check -r "$d/readme.md" "$d/sub/deeper" 2> /dev/null); rc=$?
if printf '%s\n' "$out" | grep -q "readme.md: not_a_model" && printf '%s\n' "$out" | grep -qx "3 files: 1 valid, 1 invalid, 1 not a model file, 0 errors"; then ok; else ko "named file + folder"; printf '%s\n' "$out"; fi
# an empty folder, or one without model files: nothing checked is no success (exit 1, said on stderr)
out=$("$tfs" check -r --json "$d/empty-dir" 2> "$tmp/stderr"); rc=$?
if [ "$rc" -eq 1 ] && [ "$out" = '{"summary":{"files":0,"valid":0,"invalid":0,"not_a_model":0,"errors":0,"skipped":0,"unreadable_folders":0}}' ]; then ok; else ko "empty folder: $rc $out"; fi
if grep -q "no model file found" "$tmp/stderr"; then ok; else ko "empty folder: no message"; fi
mkdir "$tmp/texts"; printf 'a\n' > "$tmp/texts/a.txt"; printf '{"x":1}\n' > "$tmp/texts/config.json"
out=$("$tfs" check -r "$tmp/texts" 2> "$tmp/stderr"); rc=$?
if [ "$rc" -eq 1 ] && [ "$out" = "0 files: 0 valid, 0 invalid, 0 errors; 2 other files skipped (not model files)" ] &&
    grep -q "no model file found (2 files skipped" "$tmp/stderr"; then ok; else ko "folder without models: $rc $out $(cat "$tmp/stderr")"; fi
# a folder that cannot be entered (here: deeper than the walk's 256 levels):
# reported, counted as a folder, not as a file
deep=$tmp/deep; p=$deep; i=0
while [ $i -lt 258 ]; do p=$p/d; i=$((i + 1)); done
mkdir -p "$p"; cp "$d/b.gguf" "$deep/top.gguf"
out=$("$tfs" check -r "$deep" 2> /dev/null); rc=$?
if [ "$rc" -eq 2 ] && printf '%s\n' "$out" | tail -1 | grep -qx "1 file: 1 valid, 0 invalid, 0 errors; 1 folder could not be read"; then ok
else ko "unreadable folder: exit $rc: $(printf '%s\n' "$out" | tail -1)"; fi
# dump takes no -r
"$tfs" dump -r "$d" > /dev/null 2>&1; rc=$?
if [ "$rc" -eq 2 ]; then ok; else ko "dump -r: exit $rc, want 2"; fi

# ---- 3. progress line on a terminal only (script(1) runs tfs with a pty)
rm "$d/sub/fifo.gguf"
i=0
while [ $i -lt 25 ]; do cp "$d/b.gguf" "$d/sub/many-$i.gguf"; i=$((i + 1)); done
if command -v script > /dev/null 2>&1; then
    script -qec "'$tfs' check -r '$d' > '$tmp/tty-out'" /dev/null > "$tmp/tty-err" 2>&1
    if grep -q '\[3/33\]' "$tmp/tty-err"; then ok; else ko "no progress line on a terminal"; head -c 300 "$tmp/tty-err"; echo; fi
    if grep -q '\[3/33\]' "$tmp/tty-out"; then ko "progress line in stdout"; else ok; fi
    if tail -1 "$tmp/tty-out" | grep -q "31 files: 30 valid, 1 invalid, 0 errors; 2 other files skipped"; then ok; else ko "tty run summary"; tail -1 "$tmp/tty-out"; fi
else
    echo "note: script(1) absent, progress line on a terminal not tested"
fi
"$tfs" check -r "$d" > /dev/null 2> "$tmp/stderr"
if [ -s "$tmp/stderr" ]; then ko "progress line without a terminal"; else ok; fi

# ---- 4. an Ollama model store: blobs named by digest, no extensions
o=$tmp/ollama/models
mkdir -p "$o/blobs" "$o/manifests/registry.ollama.ai/library/tiny"
cp "$src/corpus/real/gguf/ratchet-test.gguf" "$o/blobs/sha256-6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa"
printf '{{ .System }} {{ .Prompt }}' > "$o/blobs/sha256-8ab4849b038cf0abc5b1c9b8ee1443dca6b93a045c2272180d985126eb40bf6f"
printf '{"stop":["<|end|>"]}' > "$o/blobs/sha256-f02dd72bb2423204352eabc5637b44d79d17f109fdb510a7c51455892aa2d216"
printf '{"schemaVersion":2,"layers":[]}\n' > "$o/manifests/registry.ollama.ai/library/tiny/latest"
out=$("$tfs" check -r "$tmp/ollama" 2> "$tmp/stderr"); rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "blobs/sha256-6a0746a1.*: valid" &&
    printf '%s\n' "$out" | tail -1 | grep -qx "1 file: 1 valid, 0 invalid, 0 errors; 3 other files skipped (not model files)"; then ok
else ko "ollama store: exit $rc: $out"; fi
mkdir "$tmp/bin"; cp "$src/corpus/real/gguf/ratchet-test.gguf" "$tmp/bin/model.bin"
out=$("$tfs" check -r "$tmp/bin" 2> /dev/null); rc=$?
if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -q "model.bin: valid"; then ok; else ko "model.bin that is GGUF: exit $rc: $out"; fi

finish
