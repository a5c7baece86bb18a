#!/usr/bin/env bash
# The manifest's optional offset column (docs/conform.md "Offsets", issue 38 item 4):
#  - in process, a line whose offset is the byte where the fault is passes; one byte off is
#    wrong_rule ("GG204 at offset 33, want offset 34"); an empty offset is not compared;
#  - an adapter that reports "offset" (integer or decimal string) is compared the same way;
#    an adapter that reports none passes whatever the line says;
#  - an offset that is not a decimal number is refused (exit 2) with the line named;
#  - an adapter's "index" must fit the rule's index kind (rules.def INDEX): -1 for a rule of the
#    file as a whole, >= 0 for a rule of a record;
#  - the optional index column: the record the fault is in; compared like the offset (in process
#    and with an adapter that reports "index"), "-" or empty not compared, anything but -1 or a
#    decimal index refused (exit 2), as is an index on a valid line.
# The fixture: header(1 tensor, 0 KV) = 24 bytes, name "t" = 8 + 1, then n_dims = 5 at byte 33
# (written here, not taken from tfs).
# usage: test_conform_offset.sh TFS
set -u
TFS=$1
. "$(dirname "$0")/../lib.sh"
mk() { # folder offset: one GG204 fixture with that offset in the manifest
    mkdir -p "$tmp/$1"
    printf 'GGUF\003\000\000\000\001\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >"$tmp/$1/f.gguf"
    printf '\001\000\000\000\000\000\000\000t\005\000\000\000' >>"$tmp/$1/f.gguf"
    for _ in 1 2 3 4 5; do printf '\001\000\000\000\000\000\000\000' >>"$tmp/$1/f.gguf"; done
    printf '\000\000\000\000\000\000\000\000\000\000\000\000' >>"$tmp/$1/f.gguf"
    sha=$(sha256sum "$tmp/$1/f.gguf" | cut -d' ' -f1)
    size=$(stat -c %s "$tmp/$1/f.gguf")
    printf 'id\tpath\tsha256\tsize\tformat\texpect\trule\tcategory\tmode\tdescription\tprovenance\toffset\n' >"$tmp/$1/MANIFEST.tsv"
    printf 'GG204-t\tf.gguf\t%s\t%s\tgguf\tparser_error\tGG204\tBAD_N_DIMS\tdefault\tn_dims 5\thand-written\t%s\n' \
        "$sha" "$size" "$2" >>"$tmp/$1/MANIFEST.tsv"
}
run() { # folder [adapter]: exit status and output of one run
    if [ $# -gt 1 ]; then
        "$TFS" conform --fixtures "$tmp/$1" --no-sanity-check --adapter "$2" >"$tmp/out" 2>&1
    else
        "$TFS" conform --fixtures "$tmp/$1" >"$tmp/out" 2>&1
    fi
}
mk right 33
mk wrong 34
mk none ""
mk bad x
run right && ok || ko "in process, offset 33: exit $? ($(tail -1 "$tmp/out"))"
run wrong
[ $? -eq 1 ] && grep -q "wrong_rule: GG204 at offset 33, want offset 34" "$tmp/out" && ok ||
    ko "in process, offset 34: not wrong_rule at 33 ($(grep -m1 GG204-t "$tmp/out"))"
run none && ok || ko "in process, no offset: exit $?"
run bad
[ $? -eq 2 ] && grep -q "MANIFEST.tsv:2: offset is not a decimal number" "$tmp/out" && ok ||
    ko "offset x: not refused ($(head -1 "$tmp/out"))"
# adapters
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG204\\",\\"offset\\":%s}"\nexit 1\n' '\"33\"' >"$tmp/says33.sh"
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG204\\",\\"offset\\":33}"\nexit 1\n' >"$tmp/says33int.sh"
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG204\\"}"\nexit 1\n' >"$tmp/silent.sh"
chmod +x "$tmp"/*.sh
run right "$tmp/says33.sh {file}" && ok || ko "adapter offset \"33\", line 33: exit $? ($(grep -m1 GG204 "$tmp/out"))"
run right "$tmp/says33int.sh {file}" && ok || ko "adapter offset 33, line 33: exit $?"
run wrong "$tmp/says33.sh {file}"
[ $? -eq 1 ] && grep -q "want offset 34" "$tmp/out" && ok || ko "adapter offset 33, line 34: not wrong_rule"
run wrong "$tmp/silent.sh {file}" && ok || ko "adapter without an offset, line 34: exit $? (must not be compared)"
# the record index an adapter reports, checked against the rule's index kind (rules.def INDEX):
# GG204 is about a tensor (>= 0), GG013 about the file as a whole (-1)
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG204\\",\\"index\\":%s}"\nexit 1\n' 0 >"$tmp/idx0.sh"
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG204\\",\\"index\\":%s}"\nexit 1\n' -1 >"$tmp/idxm1.sh"
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG013\\",\\"index\\":%s}"\nexit 1\n' 0 >"$tmp/gg013idx0.sh"
printf '#!/bin/sh\necho "{\\"rule\\":\\"GG013\\",\\"index\\":%s}"\nexit 1\n' -1 >"$tmp/gg013idxm1.sh"
chmod +x "$tmp"/*.sh
run none "$tmp/idx0.sh {file}" && ok || ko "adapter GG204 index 0: exit $? ($(grep -m1 GG204-t "$tmp/out"))"
run none "$tmp/idxm1.sh {file}"
[ $? -eq 1 ] && grep -q "GG204 index -1, want a record (>= 0)" "$tmp/out" && ok ||
    ko "adapter GG204 index -1: not wrong_rule ($(grep -m1 GG204-t "$tmp/out"))"
mkdir -p "$tmp/v4" # the corpus's version-4 file (generators/gg_fixtures.py): GG013, a rule of the file as a whole
cp "$(dirname "$0")/../../corpus/gguf/GG013-version-4.gguf" "$tmp/v4/f.gguf"
printf 'id\tpath\tsha256\tsize\tformat\texpect\trule\tcategory\tmode\tdescription\tprovenance\n' >"$tmp/v4/MANIFEST.tsv"
printf 'GG013-t\tf.gguf\t%s\t24\tgguf\tparser_error\tGG013\tBAD_VERSION\tdefault\tversion 4\thand-written\n' \
    "$(sha256sum "$tmp/v4/f.gguf" | cut -d' ' -f1)" >>"$tmp/v4/MANIFEST.tsv"
run v4 && ok || ko "in process, GG013: exit $? ($(tail -1 "$tmp/out"))"
run v4 "$tmp/gg013idxm1.sh {file}" && ok || ko "adapter GG013 index -1: exit $?"
run v4 "$tmp/gg013idx0.sh {file}"
[ $? -eq 1 ] && grep -q "GG013 index 0, want -1 (the file as a whole)" "$tmp/out" && ok ||
    ko "adapter GG013 index 0: not wrong_rule ($(grep -m1 GG013-t "$tmp/out"))"
# the index column (the file's one tensor info is record 0)
mkix() { # folder index [expect]: the GG204 fixture with offset 33 and that index
    mk "$1" 33
    sed -i '1s/$/\tindex/; 2s/$/\t'"$2"'/' "$tmp/$1/MANIFEST.tsv"
    [ $# -gt 2 ] && sed -i '2s/\tparser_error\tGG204\tBAD_N_DIMS\t/\t'"$3"'\t-\t-\t/; 2s/\t33\t/\t\t/' "$tmp/$1/MANIFEST.tsv"
    true
}
mkix ix0 0
mkix ix1 1
mkix ixnone -
mkix ixbad x
mkix ixneg -2
mkix ixvalid 0 valid
run ix0 && ok || ko "in process, index 0: exit $? ($(tail -1 "$tmp/out"))"
run ix1
[ $? -eq 1 ] && grep -q "wrong_rule: GG204 index 0, want index 1" "$tmp/out" && ok ||
    ko "in process, index 1: not wrong_rule at 0 ($(grep -m1 GG204-t "$tmp/out"))"
run ixnone && ok || ko "in process, index -: exit $?"
run ix1 "$tmp/idx0.sh {file}"
[ $? -eq 1 ] && grep -q "GG204 index 0, want index 1" "$tmp/out" && ok || ko "adapter index 0, line 1: not wrong_rule"
run ix0 "$tmp/idx0.sh {file}" && ok || ko "adapter index 0, line 0: exit $?"
run ix1 "$tmp/silent.sh {file}" && ok || ko "adapter without an index, line 1: exit $? (must not be compared)"
run ixbad
[ $? -eq 2 ] && grep -q "MANIFEST.tsv:2: index is not -1 or a decimal record index" "$tmp/out" && ok ||
    ko "index x: not refused ($(head -1 "$tmp/out"))"
run ixneg
[ $? -eq 2 ] && grep -q "MANIFEST.tsv:2: index is not -1" "$tmp/out" && ok || ko "index -2: not refused ($(head -1 "$tmp/out"))"
run ixvalid
[ $? -eq 2 ] && grep -q "MANIFEST.tsv:2: index given on a valid line" "$tmp/out" && ok ||
    ko "index on a valid line: not refused ($(head -1 "$tmp/out"))"
finish test_conform_offset
