#!/usr/bin/env bash
# fuzz/seed_corpus.sh FORMAT OUTDIR [MAX_BYTES]
# Collects the seed corpus of FORMAT (gguf or safetensors) into OUTDIR: every
# regular file (not recursive, no MANIFEST.tsv) of the folders listed in
# fuzz/seeds/FORMAT.list, at most MAX_BYTES each (default 1048576), as
# symbolic links (or copies with TFS_SEED_COPY=1, for zipping).  The files are
# the fixtures and real files of corpus/; nothing is duplicated in the tree.
# Prints the number of files collected.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fmt=${1:?usage: seed_corpus.sh FORMAT OUTDIR [MAX_BYTES]}
out=${2:?usage: seed_corpus.sh FORMAT OUTDIR [MAX_BYTES]}
max=${3:-1048576}
list=$root/fuzz/seeds/$fmt.list
[[ -f $list ]] || { echo "seed_corpus.sh: no $list" >&2; exit 2; }
mkdir -p "$out"
n=0
while IFS= read -r rel; do
    [[ -z $rel || $rel == \#* ]] && continue
    dir=$root/$rel
    [[ -d $dir ]] || continue
    for f in "$dir"/*; do
        [[ -f $f && $(basename "$f") != MANIFEST.tsv ]] || continue
        (($(stat -c %s "$f") <= max)) || continue
        # one name per source folder, so equal names in two folders do not collide
        dst=$out/$(tr / _ <<< "$rel")_$(basename "$f")
        if [[ ${TFS_SEED_COPY:-0} == 1 ]]; then cp -f "$f" "$dst"; else ln -sf "$f" "$dst"; fi
        n=$((n + 1))
    done
done < "$list"
echo "$n"
