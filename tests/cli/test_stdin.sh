#!/bin/sh
# test_stdin.sh TFS_BINARY SOURCE_DIR: `tfs check -` reads a pipe forward
# only, in bounded memory, and must give every fixture and real file the
# same verdict, rule, offset and index as `tfs check FILE` (default,
# --header-only and --strict), with the format forced as the extension says
# (a pipe has no name to detect it by).
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
src=$2
pass=0
fail=0
for f in "$src"/corpus/gguf/*.gguf "$src"/corpus/safetensors/*.safetensors "$src"/corpus/real/*/*; do
    fmt=${f##*.}
    case $fmt in gguf | safetensors) ;; *) continue ;; esac
    for p in "" --header-only --strict; do
        # file_size differs on purpose: a valid stream with --header-only is not read to its end
        a=$("$tfs" check --json --format "$fmt" $p "$f" | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
        b=$(cat "$f" | "$tfs" check --json --format "$fmt" $p - | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//')
        if [ "$a" = "$b" ]; then pass=$((pass + 1)); else
            fail=$((fail + 1))
            echo "FAIL: $f $p"
            echo "  file:  $a"
            echo "  stdin: $b"
        fi
    done
done
# `tfs dump --json -` on a pipe: valid JSON (values that cannot be read again are null)
for f in "$src"/corpus/real/gguf/*.gguf "$src"/corpus/real/safetensors/*.safetensors; do
    fmt=${f##*.}
    if cat "$f" | "$tfs" dump --json --format "$fmt" - 2> /dev/null | /usr/bin/python3 -c 'import json, sys; json.load(sys.stdin)'; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: tfs dump --json - < $f: not JSON"
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
