#!/bin/sh
# test_lint.sh TFS LINT_MKFILES SOURCE_DIR: lint rules (LTnnn) and model sets
# (SETnnn), docs/lint.md.
#  1. corpus/lint is what lint_mkfiles writes (maint/gen_lint_corpus.sh):
#     same files, same LINT.tsv;
#  2. every case of corpus/lint/LINT.tsv through `tfs check --lint --json`:
#     the ids found are the ids the manifest expects (written by hand in
#     lint_mkfiles.c), and a lint finding never changes a file's verdict;
#  3. the issue's done-when cases: the MLX file whose .scales has the wrong
#     shape names the tensor and the expected shape; the 3-shard set with a
#     shard missing, a tensor in the wrong shard and a wrong total_size gives
#     exactly three set errors; a GGUF split with a wrong split.count in one
#     part is caught; `tfs check` of a sharded model's folder or index is a
#     set, not not_a_model;
#  4. the real files (corpus/real, and ../shared/real when present): no lint
#     error, only the warnings docs/lint.md justifies (LT101, LT301, LT303).
set -u
tfs=$1 mk=$2 src=$3
. "$(dirname "$0")/../lib.sh"

# ---- 1. the committed corpus is the generator's
sh "$src/maint/gen_lint_corpus.sh" "$mk" "$tmp/gen" || ko "gen_lint_corpus.sh failed"
if diff -r "$tmp/gen" "$src/corpus/lint" > "$tmp/diff"; then ok; else ko "corpus/lint differs from lint_mkfiles (rerun maint/gen_lint_corpus.sh)"; head -20 "$tmp/diff"; fi

# ---- 2. every case: expected ids
ids() { # the sorted ids of the findings of one `tfs check --json` record set
    /usr/bin/python3 -c '
import json, sys
ids, verdicts = set(), []
for line in sys.stdin:
    d = json.loads(line)
    verdicts.append(d["verdict"])
    for f in d.get("findings") or (d.get("lint") or {}).get("findings") or []:
        ids.add(f["id"])
print((",".join(sorted(ids)) or "none") + " " + ",".join(verdicts))'
}
n=0
while IFS="$(printf '\t')" read -r id path sum size kind expect desc; do
    [ "$id" = id ] && continue
    [ "$kind" = part ] && continue
    n=$((n + 1))
    got=$("$tfs" check --lint --json "$src/corpus/lint/$path" | ids)
    gids=${got% *} verdict=${got#* }
    if [ "$gids" = "$expect" ]; then ok; else ko "$id: ids $gids, manifest $expect"; fi
    if [ "$kind" = file ] && [ "$verdict" != valid ]; then ko "$id: verdict $verdict (a lint fixture is a valid file)"; fi
done < "$src/corpus/lint/LINT.tsv"
if [ "$n" -ge 50 ]; then ok; else ko "only $n cases in LINT.tsv"; fi
# every rule of lint.def has a case that expects it
for r in $(sed -n 's/^TFS_LINT(\([A-Z]*[0-9]*\),.*/\1/p' "$src/include/tfs/lint.def"); do
    if cut -f6 "$src/corpus/lint/LINT.tsv" | tr ',' '\n' | grep -qx "$r"; then ok; else ko "rule $r has no fixture"; fi
done

# ---- 3. done-when
c=$src/corpus/lint
out=$("$tfs" check --lint "$c/files/LT205-mlx-scales-shape.safetensors"); rc=$?
[ "$rc" -eq 1 ] && ok || ko "LT205 file: exit $rc, want 1 (a lint error)"
case $out in
*"LT205  error   model.layers.0.mlp.up_proj.scales: shape [64, 3], expected [64, 2]"*) ok ;;
*) ko "LT205 does not name the tensor and the expected shape"; printf '%s\n' "$out" ;;
esac
case $out in *": valid"*) ok ;; *) ko "LT205 file: verdict changed" ;; esac
out=$("$tfs" check --json "$c/sets/SET-st-three-errors/model.safetensors.index.json"); rc=$?
[ "$rc" -eq 1 ] && ok || ko "three-errors set: exit $rc"
if printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
errs = [f["id"] for f in d["findings"] if f["severity"] == "error"]
sys.exit(0 if d["verdict"] == "invalid" and d["errors"] == 3 and sorted(errs) == ["SET002", "SET004", "SET007"] else 1)'
then ok; else ko "three-errors set: $out"; fi
out=$("$tfs" check "$c/sets/SET101-gg-split-count/model-00001-of-00003.gguf"); rc=$?
[ "$rc" -eq 1 ] && ok || ko "split.count set: exit $rc"
case $out in *"SET101 error"*"model-00002-of-00003.gguf: split.count = 4, expected 3"*) ok ;; *) ko "split.count not caught: $out" ;; esac
# a folder and an index are sets; a valid set exits 0
out=$("$tfs" check "$c/sets/st-set-ok"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "folder of a valid set: exit $rc"
case $out in *"model.safetensors.index.json: valid"*"safetensors index, 3 files"*) ok ;; *) ko "folder not checked as a set: $out" ;; esac
case $out in *not_a_model*) ko "folder: not_a_model" ;; *) ok ;; esac
out=$("$tfs" check "$c/sets/gg-split-ok"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "folder of a valid split: exit $rc"
case $out in *"model-00001-of-00003.gguf: valid"*"gguf split, 3 files"*) ok ;; *) ko "split folder: $out" ;; esac
# the MLX set: .scales in another shard than its weight is no orphan; --config
"$tfs" check --lint "$c/sets/mlx-set-q4/model.safetensors.index.json" > /dev/null && ok || ko "mlx set with --lint"
"$tfs" check --lint --config "$c/sets/mlx-set-q4/config.json" "$c/sets/mlx-set-q4/model-00001-of-00003.safetensors" > "$tmp/o"
case $(cat "$tmp/o") in *"LT202"*|*"LT208"*) ok ;; *) ko "one shard alone: its weight's scales are elsewhere (want LT202/LT208)" ;; esac
"$tfs" check --lint --config "$tmp/nope.json" "$c/files/mlx-q4-g32.safetensors" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || ko "--config missing: exit $rc, want 2"
"$tfs" check --config x.json "$c/files/mlx-q4-g32.safetensors" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || ko "--config without --lint: exit $rc, want 2"
# lint JSON names the tensor beside its index (a file; a set: the tensor of the shard the finding names)
case $("$tfs" check --lint --json "$c/files/LT205-mlx-scales-shape.safetensors") in
*'"tensor":1,"tensor_name":"model.layers.0.mlp.up_proj.scales",'*) ok ;; *) ko "LT205 JSON: no tensor_name" ;; esac
case $("$tfs" check --json "$c/sets/SET-st-three-errors/model.safetensors.index.json") in
*'"id":"SET004","severity":"error","file":"'*'/model-00003-of-00003.safetensors","tensor":2,"tensor_name":"c",'*) ok ;; *) ko "SET004 JSON: no tensor_name" ;; esac
case $("$tfs" check --json "$c/sets/SET-st-three-errors/model.safetensors.index.json") in
*'"id":"SET007"'*'"tensor":null,"tensor_name":null,'*) ok ;; *) ko "SET007 JSON: tensor_name not null" ;; esac
# bytes no tensor owns: a GGUF with 1 GiB after its data section (sparse), plain check, --json and --lint;
# a 16 GB one with a non-zero padding byte: only the padding is read, so the check takes well under a second
cp "$c/files/gguf-q4_0.gguf" "$tmp/big.gguf" && truncate -s +1G "$tmp/big.gguf"
out=$("$tfs" check "$tmp/big.gguf"); rc=$?
[ "$rc" -eq 0 ] && ok || ko "1 GiB tail: exit $rc, want 0 (valid; LT113 is a warning)"
case $out in *"unowned     1,073,741,824 bytes after the data section, from offset 6,208"*) ok ;; *) ko "1 GiB tail, human: $out" ;; esac
case $("$tfs" check --json "$tmp/big.gguf") in *'"unowned_bytes":1073741824,'*) ok ;; *) ko "1 GiB tail: no unowned_bytes in --json" ;; esac
case $("$tfs" check --json "$c/files/gguf-q4_0.gguf") in *'"unowned_bytes":0,'*) ok ;; *) ko "no tail: unowned_bytes not 0" ;; esac
if "$tfs" check --lint --json "$tmp/big.gguf" | /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
f = d["lint"]["findings"]
sys.exit(0 if [x["id"] for x in f] == ["LT113"] and f[0]["severity"] == "warning" and f[0]["message"].startswith("1073741824 bytes (1.0 GiB) after the data section, from offset 6208 to the end of the file at 1073748032") else 1)'
then ok; else ko "1 GiB tail: LT113 with --lint --json"; fi
cp "$c/files/gguf-q4_0.gguf" "$tmp/huge.gguf" && printf '\001' | dd of="$tmp/huge.gguf" bs=1 seek=920 conv=notrunc 2> /dev/null
truncate -s 16G "$tmp/huge.gguf"
t0=$(date +%s%N)
out=$("$tfs" check --lint "$tmp/huge.gguf")
t1=$(date +%s%N)
case $out in *"LT113  warning 17179862976 bytes (16.0 GiB)"*) ok ;; *) ko "16 GB: LT113: $out" ;; esac
case $out in *"LT114  warning padding bytes not zero: 1 of 30; the first at offset 920,"*) ok ;; *) ko "16 GB: LT114: $out" ;; esac
[ $(( (t1 - t0) / 1000000 )) -lt 2000 ] && ok || ko "16 GB sparse file: $(( (t1 - t0) / 1000000 )) ms (reads beyond the padding?)"
rm -f "$tmp/big.gguf" "$tmp/huge.gguf"

# ---- tfs conform --lint: in process, and through an adapter
if "$tfs" conform --lint --fixtures "$src/corpus/lint" --quiet > "$tmp/conform" 2>&1; then ok; else ko "conform --lint"; cat "$tmp/conform"; fi
case $(tail -1 "$tmp/conform") in *" 0 fail, 0 skip"*) ok ;; *) ko "conform --lint summary: $(tail -1 "$tmp/conform")" ;; esac
if "$tfs" conform --lint --fixtures "$src/corpus/lint" --quiet --adapter "sh $src/tests/lint/lint_adapter.sh $tfs {file}" > "$tmp/conform" 2>&1; then ok; else ko "conform --lint --adapter"; cat "$tmp/conform"; fi
# an adapter that finds nothing fails every case that expects a finding
"$tfs" conform --lint --fixtures "$src/corpus/lint" --quiet --adapter "echo '{\"lint\": []}' {file}" > "$tmp/conform" 2>&1; rc=$?
[ "$rc" -eq 1 ] && grep -q "FAIL  LT205-mlx-scales-shape  expected LT205, got none" "$tmp/conform" && ok || ko "conform --lint with a blind adapter: exit $rc"
# a changed fixture is refused before anything runs
cp -r "$src/corpus/lint" "$tmp/lintcopy" && printf 'x' >> "$tmp/lintcopy/files/st-pt.safetensors"
"$tfs" conform --lint --fixtures "$tmp/lintcopy" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || ko "conform --lint on a changed fixture: exit $rc, want 2"

# ---- 4. real files: no lint error; warnings only the justified ones
for dir in "$src/corpus/real" "$src/../shared/real"; do
    [ -d "$dir" ] || { echo "note: $dir absent, skipped"; continue; }
    files=$(find "$dir" -type f \( -name '*.gguf' -o -name '*.safetensors' \) | sort)
    # shellcheck disable=SC2086
    "$tfs" check --lint --json $files > "$tmp/real.jsonl"
    if /usr/bin/python3 - "$tmp/real.jsonl" <<'PY'; then ok; else ko "real files in $dir"; fi
import json, sys
bad, n, warn = [], 0, {}
for line in open(sys.argv[1], encoding="utf-8"):
    d = json.loads(line)
    if d["verdict"] != "valid":
        continue
    n += 1
    for f in d["lint"]["findings"]:
        if f["severity"] == "error" or f["id"] not in ("LT101", "LT301", "LT303"):
            bad.append("%s: %s %s" % (d["file"], f["id"], f["message"]))
        warn[f["id"]] = warn.get(f["id"], 0) + 1
for b in bad:
    print("  " + b)
print("  %d valid real files linted; warnings %s" % (n, warn))
sys.exit(1 if bad or n < 20 else 0)
PY
done

finish test_lint
