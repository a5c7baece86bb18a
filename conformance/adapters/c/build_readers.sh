#!/bin/sh
# build_readers.sh [--gguf-tools DIR] [--safetensors-cpp DIR] [--out DIR] [--cc CC] [--cxx CXX]
#
# Builds the adapters of the C/C++ readers that no registry ships, from
# source folders you pass (git clone + checkout lines: docs/adapters.md), with
# AddressSanitizer + UBSan, into --out (default build/readers):
#   --gguf-tools DIR       gguflib-adapter (gguflib.c + gguflib_adapter.c)
#                          and the stock gguf-tools command (its own main)
#   --safetensors-cpp DIR  safetensors-cpp-adapter (safetensors.hh) and
#                          csafetensors-adapter (csafetensors.c)
# Each adapter embeds the reader's commit (git -C DIR rev-parse HEAD, else
# the DIR/.tfs-commit file, else "unknown commit").  Nothing of the readers
# is copied into this repository.
# Sanitizer options these readers need (docs/adapters.md "Sanitizers"):
#   gguflib.c reads the file through packed structs at any offset (deliberate
#   unaligned loads, fine on x86-64): built with -fno-sanitize=alignment, else
#   UBSan reports every KV of every valid file;
#   the stock `gguf-tools show` never frees its context: run it with
#   ASAN_OPTIONS=detect_leaks=0 (the matrix does), else LeakSanitizer makes
#   every accepted file a crash.
#   safetensors.hh copies an empty data section with memcpy(NULL, src, 0)
#   (std::vector::data() of an empty vector): undefined behaviour that glibc
#   shrugs off, reported by UBSan's nonnull-attribute check on every file
#   without tensor data; built with -fno-sanitize=nonnull-attribute so that
#   the report does not hide what the reader does next.  csafetensors.c
#   needs nothing beyond the runner's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$root/build/readers gt= sc= cc=${CC:-cc} cxx=${CXX:-c++}
while [ $# -gt 0 ]; do
    case $1 in
    --gguf-tools) gt=$2; shift 2 ;;
    --safetensors-cpp) sc=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    --cxx) cxx=$2; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "build_readers.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
    esac
done
[ -n "$gt$sc" ] || { echo "build_readers.sh: give --gguf-tools DIR and/or --safetensors-cpp DIR (--help)" >&2; exit 2; }
mkdir -p "$out"
san="-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1"
commit_of() {
    git -C "$1" rev-parse HEAD 2> /dev/null || cat "$1/.tfs-commit" 2> /dev/null || echo "unknown commit"
}
if [ -n "$gt" ]; then
    c=$(commit_of "$gt")
    $cc $san -fno-sanitize=alignment -std=gnu11 -DTFS_READER_COMMIT="\"$c\"" -I"$gt" -I"$here" -I"$root/include" \
        "$here/gguflib_adapter.c" "$gt/gguflib.c" "$gt/fp16.c" -lm -o "$out/gguflib-adapter"
    $cc $san -fno-sanitize=alignment -std=gnu11 -I"$gt" "$gt/gguf-tools.c" "$gt/gguflib.c" "$gt/sds.c" "$gt/fp16.c" -lm -o "$out/gguf-tools"
    echo "$c" > "$out/gguf-tools.commit"
    echo "built $out/gguflib-adapter and $out/gguf-tools (gguf-tools $c)"
fi
if [ -n "$sc" ]; then
    c=$(commit_of "$sc")
    $cxx $san -fno-sanitize=nonnull-attribute -std=c++14 -DTFS_READER_COMMIT="\"$c\"" -I"$sc" -I"$here" "$here/safetensors_cpp_adapter.cc" \
        -o "$out/safetensors-cpp-adapter"
    $cc $san -std=gnu11 -DTFS_READER_COMMIT="\"$c\"" -I"$sc" -I"$here" "$here/csafetensors_adapter.c" "$sc/csafetensors.c" \
        -lm -o "$out/csafetensors-adapter"
    echo "$c" > "$out/safetensors-cpp.commit"
    echo "built $out/safetensors-cpp-adapter and $out/csafetensors-adapter (safetensors-cpp $c)"
fi
