#!/bin/sh
# test_tree.sh TFS_BINARY SOURCE_DIR: `tfs check DIR` and `tfs check -r DIR`
# over a tree of model folders (issue 36): every model set (an index, the
# first part of a GGUF split) is checked as a set once, its files reported
# under it and never again alone; a folder holding only model folders works
# without -r; a Hugging Face cache (blobs + snapshot links) is checked once
# per file; broken sets make the exit status 1.  Also (issue 36's smaller
# items): SET004 names the unnamed file of the series that holds a tensor,
# set summaries count missing files, `tfs dump` of a set entry shows the
# whole model, a GGUF damaged by a text-mode transfer gets a hint.
# The tree is made from corpus/lint/sets (each shard valid by itself):
#   models/st-broken    SET-st-three-errors (a shard missing, a tensor in the
#                       wrong shard, a wrong total_size: SET002, SET004, SET007)
#   models/st-dup       SET005-st-two-shards (SET005)
#   models/gg-count     SET101-gg-split-count (SET101)
#   models/gg-missing   SET002-gg-part-missing (SET002)
#   models/ok/          st-set-ok plus a lone valid GGUF and a lone valid
#                       safetensors file
#   models/deep/a/b/    gg-split-ok (a valid split two levels down)
#   hub/models--org--tiny/{blobs,refs,snapshots/abc123}: st-set-ok as the
#                       Hugging Face cache stores it (blobs named by digest,
#                       the snapshot's names links to them)
set -u
tfs=$1
src=$2
. "$(dirname "$0")/../lib.sh"
s=$src/corpus/lint/sets
m=$tmp/models
mkdir -p "$m/deep/a/b"
cp -r "$s/SET-st-three-errors" "$m/st-broken"
cp -r "$s/SET005-st-two-shards" "$m/st-dup"
cp -r "$s/SET101-gg-split-count" "$m/gg-count"
cp -r "$s/SET002-gg-part-missing" "$m/gg-missing"
cp -r "$s/st-set-ok" "$m/ok"
cp "$src/corpus/lint/files/gguf-q4_0.gguf" "$m/ok/lone.gguf"
cp "$src/corpus/lint/files/st-pt.safetensors" "$m/ok/lone.safetensors"
cp -r "$s/gg-split-ok/." "$m/deep/a/b/"

# the records of one run: "FILE VERDICT SET-IDS" per line (sets), "FILE VERDICT -" (files), summary last
records() {
    /usr/bin/python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if "summary" in d:
        print("summary", json.dumps(d["summary"], sort_keys=True))
        continue
    ids = sorted(f["id"] for f in d.get("findings", []))
    print(d["file"].replace(sys.argv[1] + "/", ""), d["verdict"], ",".join(ids) if d.get("set") else "-")
' "$1"
}
want_sets="gg-count/model-00001-of-00003.gguf invalid SET101
gg-missing/model-00001-of-00003.gguf invalid SET002
ok/model.safetensors.index.json valid 
st-broken/model.safetensors.index.json invalid SET002,SET004,SET007
st-dup/model.safetensors.index.json invalid SET005"
for r in "-r" ""; do
    # shellcheck disable=SC2086
    out=$("$tfs" check $r --json "$m" 2> "$tmp/err"); rc=$?
    [ "$rc" -eq 1 ] && ok || ko "check $r: exit $rc, want 1"
    got=$(printf '%s\n' "$out" | records "$m")
    # each set once, with its own findings; the deep split; the lone files; no shard alone
    sets=$(printf '%s\n' "$got" | grep -v "^summary" | grep -v " -$" | grep -v "^deep/" | sort)
    if [ "$sets" = "$want_sets" ]; then ok; else ko "check $r: sets
$sets
want
$want_sets"; fi
    printf '%s\n' "$got" | grep -qx "deep/a/b/model-00001-of-00003.gguf valid " && ok || ko "check $r: the split two levels down"
    lone=$(printf '%s\n' "$got" | grep " -$" | sort)
    if [ "$lone" = "ok/lone.gguf valid -
ok/lone.safetensors valid -" ]; then ok; else ko "check $r: files alone: $lone"; fi
    n=$(printf '%s\n' "$got" | grep -c -- "-of-0000[0-9]\.\(gguf\|safetensors\) .* -$")
    [ "$n" -eq 0 ] && ok || ko "check $r: $n shards reported alone"
done
# -r --json ends with a summary: 6 sets and 2 files, 4 invalid
out=$("$tfs" check -r --json "$m" | tail -1)
case $out in *'"files":8,"valid":4,"invalid":4,'*) ok ;; *) ko "summary: $out" ;; esac
# human output: each set's findings once (one SET004 line, one SET005 line)
out=$("$tfs" check -r "$m")
[ "$(printf '%s\n' "$out" | grep -c "^  SET004 ")" -eq 1 ] && ok || ko "SET004 not once"
[ "$(printf '%s\n' "$out" | grep -c "^  SET005 ")" -eq 1 ] && ok || ko "SET005 not once"
# the set's summary: the missing shard counted, "1 tensor" in the singular
case $out in *"safetensors index, 3 files (1 missing), 4 tensors, 128 bytes"*) ok ;; *) ko "summary of st-broken" ;; esac
printf '%s\n' "$out" | grep -q "st-broken/model-00002-of-00003.safetensors: valid, 1 tensor$" && ok || ko "1 tensor"
# a folder of model folders without -r (no file of its own): each model folder's sets
out=$("$tfs" check "$m/deep"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "folder of folders: exit $rc"
case $out in *"deep/a/b/model-00001-of-00003.gguf: valid"*"gguf split, 3 files"*) ok ;; *) ko "folder of folders: $out" ;; esac
# a folder with files of its own: not its subfolders (use -r)
mkdir "$tmp/own" && cp "$src/corpus/lint/files/gguf-q4_0.gguf" "$tmp/own/top.gguf" && cp -r "$s/SET101-gg-split-count" "$tmp/own/sub"
out=$("$tfs" check "$tmp/own"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "own files: exit $rc (the broken split in sub/ is for -r)"
out=$("$tfs" check -r "$tmp/own"); rc=$?
[ "$rc" -eq 1 ] && ok || ko "own files, -r: exit $rc"

# a tensor the index places in a shard that lacks it, stored in a file of the same series the index does not
# name: SET004 says where it is (e and f in shard 3, which the index no longer names)
mkdir "$tmp/series" && cp "$s"/st-set-ok/*.safetensors "$tmp/series/"
printf '%s' '{"metadata": {"total_size": 160}, "weight_map": {"a": "model-00001-of-00003.safetensors",
 "b": "model-00001-of-00003.safetensors", "c": "model-00002-of-00003.safetensors",
 "d": "model-00002-of-00003.safetensors", "e": "model-00002-of-00003.safetensors"}}' > "$tmp/series/model.safetensors.index.json"
out=$("$tfs" check "$tmp/series/model.safetensors.index.json"); rc=$?
[ "$rc" -eq 1 ] && ok || ko "series: exit $rc"
case $out in *"SET004 error   e: the index names $tmp/series/model-00002-of-00003.safetensors, found in $tmp/series/model-00003-of-00003.safetensors (a file of the same series the index does not name)"*) ok ;;
*) ko "series: SET004 does not say where e is: $out" ;; esac
# not of the series (another prefix): still "in no shard"
mv "$tmp/series/model-00003-of-00003.safetensors" "$tmp/series/other-00003-of-00003.safetensors"
case $("$tfs" check "$tmp/series/model.safetensors.index.json") in *"e: the index names "*"found in no shard"*) ok ;; *) ko "series: another prefix" ;; esac

# ---- a Hugging Face cache: blobs by digest, snapshot names as links
h=$tmp/hub/models--org--tiny
mkdir -p "$h/blobs" "$h/refs" "$h/snapshots/abc123"
printf 'abc123' > "$h/refs/main"
for f in "$s"/st-set-ok/*; do
    sum=$(sha256sum "$f" | cut -c1-40)
    cp "$f" "$h/blobs/$sum"
    ln -s "../../blobs/$sum" "$h/snapshots/abc123/$(basename "$f")"
done
# and a single-file model in the same cache: its blob and its link are one file
g=$tmp/hub/models--org--one
mkdir -p "$g/blobs" "$g/snapshots/def456"
cp "$src/corpus/lint/files/gguf-q4_0.gguf" "$g/blobs/0123abcd"
ln -s ../../blobs/0123abcd "$g/snapshots/def456/model.gguf"
for r in "-r" ""; do
    # shellcheck disable=SC2086
    got=$("$tfs" check $r --json "$tmp/hub" | records "$tmp/hub" | grep -v "^summary")
    want="models--org--one/snapshots/def456/model.gguf valid -
models--org--tiny/snapshots/abc123/model.safetensors.index.json valid "
    if [ "$got" = "$want" ]; then ok; else ko "cache, check $r:
$got
want
$want"; fi
done
out=$("$tfs" check -r "$tmp/hub" | tail -1)
[ "$out" = "2 files: 2 valid, 0 invalid, 0 errors; 2 other files skipped (not model files)" ] && ok || ko "cache summary: $out"
# ---- tfs dump of a set entry: the whole model (per file, totals); numbers from the fixtures' shapes:
# q8_0 [64, 6] 384 parameters in 408 bytes, q4_0 [64, 64] twice 8,192 in 4,608, f32 [64] 64 in 256
out=$("$tfs" dump "$s/gg-split-ok/model-00001-of-00003.gguf"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "dump split: exit $rc"
case $out in *"gguf split, 3 files"*"model-00002-of-00003.gguf  valid               2            8,192            4,608"*"totals      4 tensors, 8,640 parameters, 5,272 bytes"*"q4_0       2 tensors, 4,608 bytes"*"format      gguf v3"*) ok ;;
*) ko "dump split: $out" ;; esac
if "$tfs" dump --json "$s/st-set-ok/model.safetensors.index.json" | /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
ok = d["set"] and d["n_files"] == 3 and d["n_tensors"] == 6 and d["params"] == 96 and d["tensor_bytes"] == 192
ok = ok and d["types"] == {"F16": {"tensors": 6, "bytes": 192}} and [f["n_tensors"] for f in d["files"]] == [2, 2, 2]
sys.exit(0 if ok else 1)'; then ok; else ko "dump --json index"; fi
out=$("$tfs" dump "$s/SET-st-three-errors/model.safetensors.index.json"); rc=$?
[ "$rc" -eq 1 ] && ok || ko "dump of a set with a shard missing: exit $rc, want 1"
case $out in *"model-00001-of-00003.safetensors  missing"*"totals      4 tensors, 64 parameters, 128 bytes"*) ok ;; *) ko "dump three-errors: $out" ;; esac
# ---- a GGUF damaged by a text-mode transfer (EF BF BD where non-UTF-8 bytes stood) gets a hint; a valid
# GGUF whose strings hold U+FFFD gets none (a hint goes with an error verdict only)
dmg=$src/corpus/real/gguf-damaged/ushure-ggml-vocab-bert-bge.gguf
case $("$tfs" check "$dmg") in *"looks like  a GGUF damaged by a text-mode transfer: it holds EF BF BD"*) ok ;; *) ko "damaged GGUF: no hint" ;; esac
case $("$tfs" check --json "$dmg") in *'"looks_like":"a GGUF damaged by a text-mode transfer'*) ok ;; *) ko "damaged GGUF: no hint in --json" ;; esac
/usr/bin/python3 -c '
import struct, sys
k, v = b"general.name", "a\ufffdb".encode()
sys.stdout.buffer.write(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", len(k)) + k + struct.pack("<IQ", 8, len(v)) + v)' > "$tmp/fffd.gguf"
out=$("$tfs" check "$tmp/fffd.gguf"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "U+FFFD in a valid GGUF: exit $rc"
case $out in *"text-mode"*) ko "U+FFFD in a valid GGUF: hint shown" ;; *) ok ;; esac
# ---- MLX parameters count the values packed weights hold: mlx-q4-g32 is weight U32 [64, 8] (4 bits: 64 x 64 =
# 4,096 values), scales and biases F16 [64, 2] (128 each), norm [64]: 4,416 (not 832, the U32 words); with a
# config.json beside it saying 8 bits the weight holds 64 x 32 = 2,048 values: 2,368
mlx=$src/corpus/lint/files/mlx-q4-g32.safetensors
case $("$tfs" check "$mlx") in *"parameters  4,416 (4.42 K); MLX packed weights counted as the values they hold"*) ok ;; *) ko "MLX parameters" ;; esac
case $("$tfs" check --json "$mlx") in *'"params":4416,'*) ok ;; *) ko "MLX params in --json" ;; esac
mkdir "$tmp/mlx8" && cp "$mlx" "$tmp/mlx8/" && printf '{"quantization": {"group_size": 32, "bits": 8}}' > "$tmp/mlx8/config.json"
case $("$tfs" check --json "$tmp/mlx8/mlx-q4-g32.safetensors") in *'"params":2368,'*) ok ;; *) ko "MLX params, 8 bits from config.json" ;; esac
case $("$tfs" check --json "$src/corpus/lint/files/st-pt.safetensors") in *'"params":'*) ok ;; *) ko "params of a plain file" ;; esac
finish test_tree
