#!/usr/bin/env bash
# `tfs mint --against ORIG --mutant MUT` (issue 38, item 2): an implementer's
# reader and a mutant of it with a planted slip (it accepts every file whose
# first violation is GG204, n_dims above 4), both adapters written here
# around `tfs check --json`; two corpus/real seeds, a fixed number of
# candidates:
#  - exit 0, at least one fixture; every manifest line names GG204; the
#    original rejects each file with GG204, the mutant accepts it; the
#    provenance names the mode; tfs conform passes the folder in process and
#    with the original, and fails the mutant on it;
#  - --oracle agreeing with us keeps the fixtures, one that accepts
#    everything drops them (said in the summary);
#  - the mutant equal to the original: no fixture; --mutant without
#    --against: usage error; kill_class on every kind of answer.
# usage: test_mint_mutant.sh TFS SOURCE_DIR
set -u
TFS=$1
SRC=$2
. "$(dirname "$0")/../lib.sh"
s1=$SRC/corpus/real/gguf/ratchet-test.gguf
s2=$SRC/corpus/real/gguf/zackshen-test-le-v3.gguf
[ -r "$s1" ] && [ -r "$s2" ] || { echo "corpus/real seeds missing"; exit 1; }
cat >"$tmp/orig.sh" <<EOF
#!/bin/sh
exec "$TFS" check --json "\$1"
EOF
cat >"$tmp/mut.sh" <<EOF
#!/bin/sh
# the planted slip: a file whose first violation is GG204 is accepted
out=\$("$TFS" check --json "\$1"); rc=\$?
case \$out in *'"rule":"GG204"'*) exit 0 ;; esac
printf '%s\n' "\$out"
exit \$rc
EOF
ORIG="sh $tmp/orig.sh {file}"
MUT="sh $tmp/mut.sh {file}"
mint() {
    "$TFS" mint --strategies 0 --format gguf --max-candidates 60 --byte-tests 200 --budget 600 --seed 1 \
        --against "$ORIG" "$@" "$s1" "$s2"
}

mint --mutant "$MUT" --oracle "$ORIG" --out "$tmp/a" >"$tmp/sum" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] && ok || ko "mint --mutant: exit $rc ($(tail -2 "$tmp/e"))"
grep -q "^tfs mint: 60 candidates from 2 seed files in [0-9]* s; [1-9][0-9]* fixtures written to $tmp/a" "$tmp/sum" &&
    ok || ko "summary: $(head -1 "$tmp/sum")"
grep -q "^oracle: 0 fixture(s) dropped" "$tmp/sum" && ok || ko "oracle line: $(grep oracle "$tmp/sum")"
n=0
while IFS=$'\t' read -r id path sha size fmt expect rule cat mode desc prov; do
    [ "$id" = id ] && continue
    n=$((n + 1))
    f=$tmp/a/$path
    [ "$rule" = GG204 ] && [ "$expect" = parser_error ] && ok || ko "$id: rule $rule ($expect), not the planted GG204"
    case $prov in *"mode --mutant: GG204-mutant-accepts"*"confirmed by the oracle"*) ok ;; *) ko "$id: provenance '$prov'" ;; esac
    out=$(sh "$tmp/orig.sh" "$f")
    rc=$?
    [ $rc -eq 1 ] && case $out in *'"rule":"GG204"'*) true ;; *) false ;; esac && ok || ko "$id: original exit $rc: $out"
    sh "$tmp/mut.sh" "$f" >/dev/null
    rc=$?
    [ $rc -eq 0 ] && ok || ko "$id: the mutant exits $rc, not 0 (accepted)"
done <"$tmp/a/MANIFEST.tsv"
[ $n -ge 1 ] && ok || ko "no fixture written ($(head -3 "$tmp/sum"))"
echo "mint --mutant: $n fixture(s), $(sed -n 3p "$tmp/sum")"
if [ -x "$(dirname "$TFS")/tfs-conform" ]; then
    "$TFS" conform -q --fixtures "$tmp/a" >"$tmp/c" 2>&1 && ok || ko "conform in process: $(tail -2 "$tmp/c")"
    "$TFS" conform -q --no-sanity-check --fixtures "$tmp/a" --adapter "$ORIG" >"$tmp/c" 2>&1 && ok ||
        ko "conform, the original: $(tail -2 "$tmp/c")"
    "$TFS" conform -q --no-sanity-check --fixtures "$tmp/a" --adapter "$MUT" >"$tmp/c" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -q "false_accept" "$tmp/c" && ok || ko "conform, the mutant: exit $rc: $(tail -2 "$tmp/c")"
else
    echo "note: tfs-conform not built: conform step skipped"
fi

# an oracle that accepts everything: every GG204 fixture dropped
mint --mutant "$MUT" --oracle "true {file}" --out "$tmp/o" >"$tmp/sum" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] && grep -q "; 0 fixtures written" "$tmp/sum" && grep -q "^oracle: [1-9][0-9]* fixture(s) dropped" "$tmp/sum" &&
    grep -q "the oracle says accept of a file we call GG204" "$tmp/e" && ok ||
    ko "--oracle accepting all: exit $rc: $(head -1 "$tmp/sum"); $(grep oracle "$tmp/sum" "$tmp/e" | head -2)"

# the mutant answering as the original: nothing kills it
mint --mutant "$ORIG" --out "$tmp/same" >"$tmp/sum" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] && grep -q "^tfs mint: 60 candidates .*; 0 fixtures written" "$tmp/sum" && [ ! -s "$tmp/same/MANIFEST.tsv" ] &&
    ok || ko "mutant = original: exit $rc: $(head -1 "$tmp/sum")"

# every class of kill_class, and the answers that are not a kill (conform would pass the mutant)
/usr/bin/python3 - "$SRC/generators" >"$tmp/k" 2>&1 <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from mint import kill_class as K
bad = {"default": ("parser_error", "GG204", "BAD_N_DIMS", 36)}
ok = {"default": ("valid", "-", "-", 0)}
R, N, A = ("reject", "GG204", "BAD_N_DIMS", None), (None, None, None), ("accept", None, None, "c1")
cases = [(bad, R, ("accept",) + N, "GG204-mutant-accepts"), (bad, R, R, None),
         (bad, R, ("reject", "GG201", "TRUNCATED", None), "GG204-mutant-other-rule"),
         (bad, R, ("reject",) + N, None),  # no rule said: conform passes it
         (bad, ("reject",) + N, ("reject", None, "TRUNCATED", None), "GG204-mutant-other-rule"),
         (bad, ("reject", "GG201", None, None), ("accept",) + N, None),  # the original's rule is not ours
         (bad, ("accept",) + N, ("reject",) + N, None),  # the original disagrees with us
         (bad, R, ("timeout",) + N, "GG204-mutant-timeout"), (ok, A, ("accept", None, None, "c2"), "valid-mutant-misreads"),
         (ok, A, ("accept",) + N, None), (ok, A, ("crash",) + N, "valid-mutant-crash"), (ok, A, ("skip",) + N, None),
         (ok, A, ("reject",) + N, "valid-mutant-rejects"), (ok, ("crash",) + N, ("reject",) + N, None)]
for ours, orig, mut, want in cases:
    got = K(ours, orig, mut, "default")
    if got != want:
        print("kill_class(%s, %s): %s, want %s" % (orig, mut, got, want))
EOF
[ ! -s "$tmp/k" ] && ok || ko "$(cat "$tmp/k")"

"$TFS" mint --mutant "$MUT" --out "$tmp/u" "$s1" >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] && grep -q -- "--mutant .*needs --against" "$tmp/e" && ok || ko "--mutant alone: exit $rc: $(tail -1 "$tmp/e")"

finish test_mint_mutant
