#!/usr/bin/env bash
# fuzz/seed_corpus.sh FORMAT OUTDIR [MAX_BYTES]
# Collects the seed corpus of FORMAT (gguf or safetensors) into OUTDIR: every
# regular file (not recursive, no MANIFEST.tsv) of the folders listed in
# fuzz/seeds/FORMAT.list, at most MAX_BYTES each (default 1048576), as
# symbolic links (or copies with TFS_SEED_COPY=1, for zipping), each named
# <folder with / as _>_<file name> so equal names in two folders do not
# collide.  The files are the fixtures and real files of corpus/; nothing is
# duplicated in the tree.  A few processes per folder, none per file (the
# corpus has ~1,500 seed files).  Prints the number of files collected.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fmt=${1:?usage: seed_corpus.sh FORMAT OUTDIR [MAX_BYTES]}
out=${2:?usage: seed_corpus.sh FORMAT OUTDIR [MAX_BYTES]}
max=${3:-1048576}
[[ $max =~ ^[0-9]+$ ]] || { echo "seed_corpus.sh: MAX_BYTES must be a number of bytes" >&2; exit 2; }
list=$root/fuzz/seeds/$fmt.list
[[ -f $list ]] || { echo "seed_corpus.sh: no $list" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
n=0
while IFS= read -r rel; do
    [[ -z $rel || $rel == \#* ]] && continue
    dir=$root/$rel
    [[ -d $dir ]] || continue
    prefix=${rel//\//_}_
    # the folder's regular files of at most max bytes (find -size -Nc: under N bytes)
    mapfile -d '' names < <(find "$dir" -mindepth 1 -maxdepth 1 -type f ! -name MANIFEST.tsv \
        -size -$((max + 1))c -printf '%f\0')
    ((${#names[@]} > 0)) || continue
    n=$((n + ${#names[@]}))
    if [[ ${TFS_SEED_COPY:-0} == 1 ]]; then
        # one tar pair renames and copies the whole folder (names may hold any byte but / and NUL)
        printf '%s\0' "${names[@]}" |
            tar -C "$dir" --null -T - --transform "s|^|$prefix|" -cf - | tar -C "$out" -xf -
    else
        # relative names in $out point to the files through absolute paths
        for name in "${names[@]}"; do
            ln -sfn "$dir/$name" "$out/$prefix$name"
        done
    fi
done < "$list"
echo "$n"
