#!/bin/sh
# rerun/build.sh --gguf-tools DIR --safetensors-cpp DIR [--out DIR]: builds the
# second ("rerun") C/C++ adapters from the same source folders as
# ../c/build_readers.sh, with the same sanitizers and flags (ASan + UBSan;
# gguflib without the alignment check, safetensors.hh without nonnull-attribute:
# the reasons are in build_readers.sh), into --out (default build/readers-rerun).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../../.." && pwd)/build/readers-rerun gt= sc=
while [ $# -gt 0 ]; do
    case $1 in
    --gguf-tools) gt=$2; shift 2 ;;
    --safetensors-cpp) sc=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
san="-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1"
commit() { git -C "$1" rev-parse HEAD 2> /dev/null || cat "$1/.tfs-commit" 2> /dev/null || echo unknown; }
if [ -n "$gt" ]; then
    ${CC:-cc} $san -fno-sanitize=alignment -std=gnu11 -DTFS_READER_COMMIT="\"$(commit "$gt")\"" -I"$gt" -I"$here" \
        "$here/gguflib_skip.c" "$gt/gguflib.c" "$gt/fp16.c" -lm -o "$out/gguflib-skip"
fi
if [ -n "$sc" ]; then
    c=$(commit "$sc")
    ${CXX:-c++} $san -fno-sanitize=nonnull-attribute -std=c++14 -DTFS_READER_COMMIT="\"$c\"" -I"$sc" -I"$here" \
        "$here/safetensors_cpp_mmap.cc" -o "$out/safetensors-cpp-mmap"
    ${CC:-cc} $san -std=gnu11 -DTFS_READER_COMMIT="\"$c\"" -I"$sc" -I"$here" "$here/csafetensors_mmap.c" "$sc/csafetensors.c" \
        -lm -o "$out/csafetensors-mmap"
fi
echo "built into $out"
