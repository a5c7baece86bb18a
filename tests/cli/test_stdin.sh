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
        # file_size and unowned_bytes (from it) differ on purpose: a valid stream with --header-only is not read to its end;
        # detail too: GG130's numbers are re-read from the file, a stream has no bytes left to read
        a=$("$tfs" check --json --format "$fmt" $p "$f" | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//; s/"unowned_bytes":[0-9a-z]*//; s/"detail":\("[^"]*"\|null\)//')
        b=$(cat "$f" | "$tfs" check --json --format "$fmt" $p - | sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//; s/"unowned_bytes":[0-9a-z]*//; s/"detail":\("[^"]*"\|null\)//')
        if [ "$a" = "$b" ]; then pass=$((pass + 1)); else
            fail=$((fail + 1))
            echo "FAIL: $f $p"
            echo "  file:  $a"
            echo "  stdin: $b"
        fi
    done
done
# The issue's own words: `cat f.gguf | tfs check --header-only -` (no --format)
# gives the file's verdict for every GGUF fixture and real file.  A pipe has
# no name, so where the file's verdict came from its .gguf name (its first
# bytes are not the GGUF magic: empty, cut, damaged) the pipe says
# not_a_model, naming GGUF in what it looks like, and with --format gguf
# again gives the file's verdict.
strip() { sed 's/"file":"[^"]*"//; s/"file_size":[0-9a-z]*//; s/"unowned_bytes":[0-9a-z]*//; s/"detail":\("[^"]*"\|null\)//'; }
for f in "$src"/corpus/gguf/*.gguf "$src"/corpus/real/*/*.gguf "$src"/../shared/real/gguf*/*.gguf; do
    [ -f "$f" ] || continue
    a=$("$tfs" check --json --header-only "$f" | strip)
    b=$(cat "$f" | "$tfs" check --json --header-only - | strip)
    if [ "$(head -c 4 "$f")" = GGUF ]; then
        if [ "$a" = "$b" ]; then pass=$((pass + 1)); else
            fail=$((fail + 1))
            echo "FAIL: cat $f | tfs check --header-only -"
            echo "  file:  $a"
            echo "  stdin: $b"
        fi
    else
        c=$(cat "$f" | "$tfs" check --json --header-only --format gguf - | strip)
        case $b in
        *'"verdict":"not_a_model"'*'"looks_like":"'*GGUF*|*'"verdict":"not_a_model"'*'"looks_like":"an empty file"'*) ok=1 ;;
        *) ok=0 ;;
        esac
        if [ $ok = 1 ] && [ "$a" = "$c" ]; then pass=$((pass + 1)); else
            fail=$((fail + 1))
            echo "FAIL: cat $f | tfs check --header-only - (no GGUF magic)"
            echo "  file:               $a"
            echo "  stdin:              $b"
            echo "  stdin --format gguf: $c"
        fi
    fi
done
# `tfs dump --json -` on a pipe: valid JSON (what a stream did not keep is counted in "left_out")
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
