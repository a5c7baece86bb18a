#!/usr/bin/env bash
# `tfs mint` (issue 19), on two small seeds of corpus/real and a fixed
# number of candidates (--max-candidates: a run is exactly reproducible):
#  - every MANIFEST.tsv line names a file of that sha256 and size, and
#    `tfs check` of that file in the line's mode gives the line's verdict
#    and rule; valid lines have expected/<id>.json;
#  - two runs with one --seed write the same bytes (deterministic);
#  - a third run into the same folder overwrites nothing, duplicates nothing;
#  - the folder runs beside corpus/real: tfs conform --fixtures corpus/real
#    --fixtures OUT passes (when tfs-conform was built);
#  - --rule keeps only that rule and the summary names an unreached one;
#  - --strategies: the per-rule strategies (tfsgen/breakers.py) as the only
#    candidates give a fixture of at most 1 KiB per rule asked, the same
#    bytes twice (when python3-hypothesis is installed);
#  - generators/contribute.py adds the folder to a corpus copy (sha256
#    checked) and refuses an id already there with other bytes.
# usage: test_mint.sh TFS SOURCE_DIR
set -u
TFS=$1
SRC=$2
. "$(dirname "$0")/../lib.sh"
gg=$SRC/corpus/real/gguf/ratchet-dummy.gguf
st=$SRC/corpus/real/safetensors/hf-samples-B.safetensors
[ -r "$gg" ] && [ -r "$st" ] || { echo "corpus/real seeds missing"; exit 1; }
mint() { "$TFS" mint --strategies 0 --max-candidates 24 --budget 600 --seed 7 "$@" "$gg" "$st"; }

mint --out "$tmp/a" >"$tmp/sum" 2>"$tmp/e" || bad "mint: exit $? ($(tail -2 "$tmp/e"))"
grep -q "^tfs mint: 24 candidates from 2 seed files" "$tmp/sum" || bad "summary: $(head -1 "$tmp/sum")"
n=$(tail -n +2 "$tmp/a/MANIFEST.tsv" | wc -l)
[ "$n" -ge 8 ] || bad "only $n manifest lines from 24 candidates"
checked=0
while IFS=$'\t' read -r id path sha size fmt expect rule cat mode desc prov; do
    [ "$id" = id ] && continue
    f=$tmp/a/$path
    [ -f "$f" ] || { bad "$id: no file $path"; continue; }
    [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$sha" ] || bad "$id: sha256 differs"
    [ "$(stat -c %s "$f")" = "$size" ] || bad "$id: size differs"
    flag=
    [ "$mode" = strict ] && flag=--strict
    [ "$mode" = header-only ] && flag=--header-only
    j=$("$TFS" check --json --format "$fmt" $flag "$f" 2>/dev/null | head -1)
    v=$(printf '%s' "$j" | grep -o '"verdict":"[a-z_]*"' | head -1 | cut -d'"' -f4)
    r=$(printf '%s' "$j" | grep -o '"rule":"[A-Z0-9]*"' | head -1 | cut -d'"' -f4)
    [ "$v" = "$expect" ] || bad "$id: tfs check says $v, the line $expect"
    [ "$expect" = valid ] || [ "$r" = "$rule" ] || bad "$id: tfs check says rule $r, the line $rule"
    [ "$expect" = parser_error ] || [ -s "$tmp/a/expected/$id.json" ] || bad "$id: valid but no expected/$id.json"
    case $desc in *"$rule"*"mutation "*|"minted valid file: mutation "*) ;; *) bad "$id: description '$desc'" ;; esac
    case $prov in "minted by tfs mint: seed "*", mutation "*", random seed "*) ;; *) bad "$id: provenance '$prov'" ;; esac
    checked=$((checked + 1))
done <"$tmp/a/MANIFEST.tsv"
[ $checked -eq "$n" ] || bad "checked $checked of $n lines"
big=$(find "$tmp/a" -name '*.gguf' -size +1k -o -name '*.safetensors' -size +1k | wc -l)
echo "mint: $n lines checked; files over 1 KiB: $big"

# deterministic
mint --out "$tmp/b" >/dev/null 2>&1 || bad "second mint: exit $?"
diff -r "$tmp/a" "$tmp/b" >/dev/null || bad "two runs with --seed 7 differ: $(diff -rq "$tmp/a" "$tmp/b" | head -3)"

# the same folder again: nothing overwritten, no duplicate lines
before=$(cd "$tmp/a" && sha256sum ./*.gguf ./*.safetensors | sort)
mint --out "$tmp/a" >/dev/null 2>&1 || bad "third mint: exit $?"
after=$(cd "$tmp/a" && sha256sum ./*.gguf ./*.safetensors | sort)
[ "$before" = "$after" ] || bad "a second run into the folder changed its files"
[ "$(tail -n +2 "$tmp/a/MANIFEST.tsv" | wc -l)" -eq "$n" ] || bad "a second run added lines for the same files"

# beside the corpus
if [ -x "$(dirname "$TFS")/tfs-conform" ]; then
    "$TFS" conform --fixtures "$SRC/corpus/real" --fixtures "$tmp/a" >"$tmp/c" 2>&1 || bad "conform: $(tail -3 "$tmp/c")"
    grep -q " 0 failed" "$tmp/c" || bad "conform: $(tail -1 "$tmp/c")"
else
    echo "note: tfs-conform not built: conform step skipped"
fi

# --rule
mint --out "$tmp/r" --rule GG002 --rule ST999 >"$tmp/sum" 2>/dev/null || bad "mint --rule: exit $?"
tail -n +2 "$tmp/r/MANIFEST.tsv" 2>/dev/null | cut -f7 | sort -u | grep -vx GG002 && bad "--rule GG002 kept another rule"
grep -q "ST999 .*not reached" "$tmp/sum" || bad "--rule: unreached rule not in the summary"

# the per-rule strategies as candidates, no seed file
if /usr/bin/python3 -c 'import hypothesis' 2>/dev/null; then
    for d in s1 s2; do
        TFS_PYTHON3=/usr/bin/python3 "$TFS" mint --strategies 2 --seed 3 --rule GG111 --rule ST301 --rule GG503 \
            --out "$tmp/$d" >"$tmp/sum" 2>"$tmp/e" || bad "mint --strategies: exit $? ($(tail -2 "$tmp/e"))"
    done
    diff -r "$tmp/s1" "$tmp/s2" >/dev/null || bad "--strategies: two runs differ"
    grep -q "every rule (fixtures in $tmp/s2, any profile): 3 of 3 with a fixture of at most 1 KiB" "$tmp/sum" ||
        bad "--strategies: $(grep -A3 'every rule' "$tmp/sum")"
    for r in GG111 ST301; do
        grep -q "^$r-minted-strategy-$r-[0-9a-f]*	.*	parser_error	$r	" "$tmp/s1/MANIFEST.tsv" || bad "--strategies: no $r line"
    done
    grep -q "	parser_error	GG503	BAD_OFFSET	strict	.*hypothesis strategy strategy.GG503" "$tmp/s1/MANIFEST.tsv" ||
        bad "--strategies: no strict GG503 line"
else
    echo "note: python3-hypothesis not installed: --strategies not tested"
fi

# contribute to a corpus copy
mkdir -p "$tmp/corpus"
/usr/bin/python3 "$SRC/generators/contribute.py" "$tmp/a" --to "$tmp/corpus/minted" --no-audit >"$tmp/o" 2>&1 ||
    bad "contribute: exit $? ($(tail -2 "$tmp/o"))"
[ "$(tail -n +2 "$tmp/corpus/minted/MANIFEST.tsv" | wc -l)" -eq "$n" ] || bad "contribute: lines not all added"
first=$(sed -n 2p "$tmp/a/MANIFEST.tsv" | cut -f2)
printf 'x' >>"$tmp/b/$first"
sed -i "2s/\t[0-9a-f]\{64\}\t/\t$(sha256sum <"$tmp/b/$first" | cut -d' ' -f1)\t/" "$tmp/b/MANIFEST.tsv"
/usr/bin/python3 "$SRC/generators/contribute.py" "$tmp/b" --to "$tmp/corpus/minted" --no-audit >"$tmp/o" 2>&1
[ $? -eq 1 ] || bad "contribute of an id with other bytes: not refused ($(tail -1 "$tmp/o"))"

finish test_mint
