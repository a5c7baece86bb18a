#!/bin/sh
# test_cli_user.sh TFS_BINARY CLI_MKFILES SOURCE_DIR: the defects a new user
# found in `tfs` (issue 9, item 4), each checked here, plus `tfs help`, the
# not_a_model verdict (item 3) and `tfs dump` for people (item 1).  The model
# files come from the C writer (tests/cli/cli_mkfiles.c); the non-model files
# are written with printf (they are not model files).
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
mk=$2
src=$3
. "$(dirname "$0")/../lib.sh"
real=$src/corpus/real
run() { out=$("$tfs" "$@" 2>"$tmp/stderr"); rc=$?; }
expect_rc() { if [ "$rc" -eq "$1" ]; then ok; else ko "$2: exit $rc, want $1"; printf '%s\n' "$out" | head -8; fi; }
has() { if printf '%s\n' "$out" | grep -qF -- "$1"; then ok; else ko "$2: output lacks '$1'"; printf '%s\n' "$out" | head -20; fi; }
hasnt() { if printf '%s\n' "$out" | grep -qF -- "$1"; then ko "$2: output has '$1'"; else ok; fi; }
err_has() { if grep -qF -- "$1" "$tmp/stderr"; then ok; else ko "$2: stderr lacks '$1'"; cat "$tmp/stderr"; fi; }
# no raw byte of the given octal code in $out
no_byte() { if printf '%s' "$out" | od -An -v -to1 | tr -s ' ' '\n' | grep -qx "$1"; then ko "$2: raw byte \\$1 in output"; else ok; fi; }
# no UTF-8 sequence C2 xx (U+0080..U+009F) in $out
no_c1() { if printf '%s' "$out" | od -An -v -tx1 | tr -s ' \n' '  ' | grep -qE 'c2 (8|9)[0-9a-f]'; then ko "$1: a C1 control in output"; else ok; fi; }

"$mk" "$tmp" || { echo "FAIL: cli_mkfiles"; exit 1; }

# ---- 4.1 C1 controls in values (U+0085, U+009B, raw 0x9B) are escaped, in
# check, dump and dump --full, GGUF and __metadata__
for f in c1.gguf c1.safetensors; do
    for cmd in "check" "dump" "dump --full"; do
        run $cmd "$tmp/$f"; expect_rc 0 "$cmd $f"
        no_c1 "$cmd $f"; no_byte 233 "$cmd $f" # 0233 = 0x9B
    done
done
run dump "$tmp/c1.gguf"
has 'v.nel (string) = "a\u0085b"' "U+0085 escaped"
has 'v.csi (string) = "x\u009b31mRED"' "U+009B escaped"
has 'v.raw9b (string) = "y\x9b31mRED"' "raw 0x9B escaped"
has 'v.rlo (string) = "abc\u202efed"' "right-to-left override escaped"
has 'v.array (array) = [string x 3] ["a\u0085b", "x\u009b31mRED", "y\x9b31mRED"]' "string array escaped"
run dump "$tmp/c1.safetensors"
has 'nel (string) = "a\u0085b"' "__metadata__ U+0085"
has 'csi (string) = "x\u009b31mRED"' "__metadata__ U+009B"

# ---- 4.2 abbreviation: never inside a UTF-8 character; the marker stays whole
run check "$tmp/cut.gguf"; expect_rc 0 "cut check"
# 59 'a' then "é" (bytes 59-60): the cut at 60 bytes keeps 59 bytes, not half of é
a59=$(printf '%059d' 0 | tr 0 a)
has "v.utf8 = \"$a59\"... (100 bytes)" "cut before é (check)"
no_byte 303 "no lone lead byte of é" # 0303 = 0xC3
# 100 control bytes: 60 shown as \x01 (4 characters each), then the full marker
x60=$(printf '%060d' 0 | sed 's/0/\\x01/g')
has "v.controls = \"$x60\"... (100 bytes)" "marker whole after escapes (check)"
run dump "$tmp/cut.gguf"
has "v.utf8 (string) = \"$a59\"... (100 bytes)" "cut before é (dump)"
has "v.controls (string) = \"$x60\"... (100 bytes)" "marker whole after escapes (dump)"

# ---- 4.3 backslashes escaped: a name with a real newline and one with the four
# characters \x0a print differently
cp "$real/gguf/ratchet-test.gguf" "$tmp/$(printf 'a\nb.gguf')"
cp "$real/gguf/ratchet-test.gguf" "$tmp/a\\x0ab.gguf"
run check "$tmp/$(printf 'a\nb.gguf')"; l1=$(printf '%s\n' "$out" | head -1)
run check "$tmp/a\\x0ab.gguf"; l2=$(printf '%s\n' "$out" | head -1)
if [ "$l1" != "$l2" ]; then ok; else ko "newline name and backslash name print alike: $l1"; fi
has "a\\\\x0ab.gguf: valid" "backslash doubled in a name"
run dump "$tmp/c1.gguf"
has 'v.backslash (string) = "c:\\new"' "backslash in a value"

# ---- 4.4 help and rules to a full disk: exit 2 with a message
if [ -w /dev/full ]; then
    for args in "check --help" "rules --help" "rules" "dump --help" "help" "help check" "--version" "rules --json" "mutate --help" "mutate --list"; do
        "$tfs" $args > /dev/full 2> "$tmp/stderr"; rc=$?
        expect_rc 2 "tfs $args > /dev/full"
        err_has "cannot write output" "tfs $args > /dev/full"
    done
fi

# ---- 4.5 --header-only does not apply to safetensors
f=$real/safetensors/hf-samples-overall.safetensors
run check --header-only "$f"; expect_rc 0 "st --header-only"
has "$f: valid" "st --header-only"
hasnt "(header-only)" "st --header-only human"
has "--header-only applies to GGUF only" "st --header-only note"
run check --json --header-only "$f"
has '"profile":"default","verdict":"valid"' "st --header-only json profile"
run check --json --strict --header-only "$f"
has '"profile":"strict","verdict":"valid"' "st --strict --header-only json profile"
run check --json --header-only "$real/gguf/ratchet-test.gguf"
has '"profile":"header-only","verdict":"valid"' "gguf --header-only keeps its profile"

# ---- 4.6 a file that could not be opened has format unknown, also with --format
run check --json --format gguf "$tmp/missing.gguf"; expect_rc 2 "missing --format gguf"
has '"format":"unknown","profile":"default","verdict":"io_error"' "missing --format gguf"
run check --json --format safetensors "$tmp/missing.bin"
has '"format":"unknown"' "missing --format safetensors"

# ---- 4.7 unpadded last tensor: the tensors' extent and the padded size apart
# (f32 [4] = 16 bytes, padded to 32 by the alignment; the file ends after 16)
run check "$tmp/unpadded.gguf"; expect_rc 0 "unpadded"
size=$(wc -c < "$tmp/unpadded.gguf")
has "data 16 bytes at offset $((size - 16)) (32 padded); file $size bytes" "unpadded extent"
run check --json "$tmp/unpadded.gguf"
has "\"data_size\":32,\"file_size\":$size" "unpadded json data_size"
has '"data_extent":16' "unpadded json data_extent"
run dump "$tmp/unpadded.gguf"
has "data        16 bytes at file offset $((size - 16)) (32 with padding); file $size bytes" "unpadded dump"

# ---- 4.8 /proc files (size 0, content non-empty) are read, not "shorter than 8 bytes"
if [ -r /proc/self/status ]; then
    run check /proc/self/status; expect_rc 1 "/proc/self/status"
    has "/proc/self/status: not_a_model" "/proc verdict"; has "looks like  text" "/proc looks like"
    hasnt "shorter than 8" "/proc not too short"
    run check --json --format gguf /proc/self/status; expect_rc 1 "/proc --format gguf"
    has '"rule":"GG002","category":"BAD_MAGIC","offset":0' "/proc read as GGUF"
    run check --json --format safetensors /proc/self/status
    hasnt '"rule":"ST001"' "/proc read as safetensors"
fi
# ... and the summary says "1 error", not "1 errors"
run check "$real/gguf/ratchet-test.gguf" "$tmp/missing.gguf"; expect_rc 2 "one error"
has "2 files: 1 valid, 0 invalid, 1 error" "singular error"
run check "$real/gguf/ratchet-test.gguf" "$tmp/missing.gguf" "$tmp/missing2.gguf"
has "3 files: 1 valid, 0 invalid, 2 errors" "plural errors"

# ---- 5: tfs help [COMMAND] is COMMAND --help
for c in check dump rules; do
    run help $c; expect_rc 0 "help $c"
    a=$out
    run $c --help
    if [ "$a" = "$out" ]; then ok; else ko "tfs help $c differs from tfs $c --help"; fi
done
run help; expect_rc 0 "help"; has "help [COMMAND]" "help"
run help frobnicate; expect_rc 2 "help unknown command"; err_has "unknown command 'frobnicate'" "help unknown"
run help check extra; expect_rc 2 "help with two arguments"

# ---- 3: not a model file: what it looks like; exit 1; a model name or
# --format keeps the canonical verdict
printf 'PK\003\004\024\000\000\000\000\000archive/data.pkl' > "$tmp/pytorch_model.bin"
printf '\200\002}q\000X\005\000\000\000state' > "$tmp/legacy.pt"
printf '<!DOCTYPE html>\n<html><body>Sign in</body></html>\n' > "$tmp/download.html"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' > "$tmp/image.png"
printf '{\n  "metadata": {"total_size": 10},\n  "weight_map": {"a": "model-00001-of-00002.safetensors"}\n}\n' > "$tmp/model.safetensors.index.json"
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:0000\nsize 12\n' > "$tmp/lfs-pointer"
printf 'hello\n' > "$tmp/notes.txt"
: > "$tmp/empty"
printf 'lmgg\001\000\000\000' > "$tmp/old-ggml.bin"
printf 'gguf\003\000\000\000' > "$tmp/lower-magic.bin"
printf 'GGUX\003\000\000\000' > "$tmp/one-byte-magic.bin"
# Each: file, words of looks_like.
while read -r name words; do
    run check "$tmp/$name"; expect_rc 1 "not a model: $name"
    has "$tmp/$name: not_a_model" "$name verdict"
    has "looks like  $words" "$name looks like"
    hasnt "HeaderTooLarge" "$name not a safetensors rule"
    run check --json "$tmp/$name"
    has '"format":"unknown","profile":"default","verdict":"not_a_model","rule":null' "$name json"
    has "\"looks_like\":\"$words" "$name json looks_like"
done <<EOT
pytorch_model.bin a zip archive holding a pickle: a PyTorch checkpoint
legacy.pt a Python pickle
download.html an HTML page
image.png a PNG image
lfs-pointer a Git LFS pointer
notes.txt text
empty an empty file
old-ggml.bin a GGML / GGJT file
lower-magic.bin a GGUF file with a damaged magic
one-byte-magic.bin a GGUF file with a damaged magic
EOT
# issue 21: a sharded model's index is a model set, not not_a_model (its
# shard is missing here: SET002, exit 1)
run check "$tmp/model.safetensors.index.json"; expect_rc 1 "index: a set"
has "model.safetensors.index.json: invalid" "index verdict"; has "SET002 error" "index: missing shard"
hasnt "not_a_model" "index is no longer not_a_model"
run dump "$tmp/download.html"; expect_rc 1 "dump not a model"; has "not a model file: looks like an HTML page" "dump html"
run dump --json "$tmp/image.png"; expect_rc 1 "dump --json not a model"
has '"error":{"status":"not_a_model"' "dump --json not a model"
# model names: the canonical verdict, any case, through .part / .partial
cp "$tmp/image.png" "$tmp/x.safetensors"
run check --json "$tmp/x.safetensors"; expect_rc 1 "png named .safetensors"
has '"format":"safetensors","profile":"default","verdict":"parser_error","rule":"ST002"' "png named .safetensors"
cp "$tmp/image.png" "$tmp/X.SafeTensors.PART"
run check --json "$tmp/X.SafeTensors.PART"; has '"format":"safetensors"' "case-insensitive .part"
cp "$tmp/lower-magic.bin" "$tmp/M.GGUF"
run check --json "$tmp/M.GGUF"; has '"rule":"GG002","category":"BAD_MAGIC"' ".GGUF with a damaged magic"
cp "$tmp/lower-magic.bin" "$tmp/m.gguf.partial"
run check --json "$tmp/m.gguf.partial"; has '"rule":"GG002"' ".gguf.partial"
run check --json --format safetensors "$tmp/image.png"; has '"verdict":"parser_error","rule":"ST002"' "--format keeps canonical"
# plausible safetensors without a model name is parsed; a valid GGUF without one too
cp "$real/safetensors/hf-samples-overall.safetensors" "$tmp/weights.bin"
run check --json "$tmp/weights.bin"; expect_rc 0 "safetensors named .bin"
cp "$real/gguf/ratchet-test.gguf" "$tmp/weights2.bin"
run check --json "$tmp/weights2.bin"; expect_rc 0 "gguf named .bin"
# a pipe: the content decides (no name)
out=$(cat "$tmp/download.html" | "$tfs" check -); rc=$?
expect_rc 1 "pipe html"; has "looks like  an HTML page" "pipe html"
out=$(cat "$real/safetensors/hf-samples-overall.safetensors" | "$tfs" check -); rc=$?
expect_rc 0 "pipe safetensors without --format"

# ---- 1: tfs dump for people: tensors with element count, byte range, file
# offset; long strings and arrays cut, --full shows all
run dump "$real/gguf/ratchet-test.gguf"; expect_rc 0 "dump gguf"
# ratchet-test: one f16 tensor of 256 elements (512 bytes) at data offset 0, data section at 224
# (numbered columns: index, name, type, shape, elements, bytes, offset, file offset)
if printf '%s\n' "$out" | grep -qE '^ +0  tensor1 +f16 +\[1, 256\] +256 +512 +0 +224$'; then ok; else ko "dump tensor row: $out"; fi
run dump "$tmp/cut.gguf"
has "v.u32s (array) = [u32 x 20] [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, ... (+12 more)]" "array cut"
has '... (3000 bytes)' "long string cut"
hasnt 'Z"' "long string end not shown"
run dump --full "$tmp/cut.gguf"
has "1017, 1018, 1019]" "--full array"
hasnt "(+12 more)" "--full array not cut"
has 'ghiZ"' "--full string end shown"
big=$(printf '%s\n' "$out" | sed -n 's/^    v.big (string) = "\([a-zZ]*\)"$/\1/p')
if [ ${#big} -eq 3000 ]; then ok; else ko "--full string: ${#big} bytes shown, want 3000"; fi

# ---- 1: on an invalid file, dump marks where it failed
f=$src/corpus/gguf/GG111-duplicate-key.gguf
run dump "$f"; expect_rc 1 "dump invalid"
has "metadata    2 entries read before the violation" "dump invalid: what was read"
has "    [entry 2, not read whole]" "dump invalid: the failing record"
has "      ^^^ GG111 (DUPLICATE_KEY) at byte 74, kv 2: duplicate KV key" "dump invalid: the marker"
has "  read        kv           bytes 74..94 (20)" "dump invalid: failing fields"
# a data rule: every record read, the tensor concerned marked
head -c 2000 "$real/gguf/ratchet-dummy.gguf" > "$tmp/cut-data.gguf"
run dump "$tmp/cut-data.gguf"; expect_rc 1 "dump GG304"
line=$(printf '%s\n' "$out" | grep -n '\^\^\^ GG304' | cut -d: -f1)
prev=$(printf '%s\n' "$out" | sed -n "$((line - 1))p")
case $prev in
"    "*[0-9]" "*[0-9]) ok ;; # a tensor row: its numbers
*) ko "GG304 marker not under a tensor line: '$prev'" ;;
esac

# ---- issue 18 (2.4): a closed pipe (`tfs rules | head -1`): tfs ends quietly
# as cat or grep do, by SIGPIPE at its next write (141 to a shell with
# pipefail), no "cannot write output" message.  The reader end is closed
# before tfs starts (python: deterministic), SIGPIPE at its default.
closed_pipe() { # args of tfs: sets rc, stderr in $tmp/stderr
    /usr/bin/python3 -c '
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=open(os.environ["ERRF"], "wb"), restore_signals=True)
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)' "$tfs" "$@"
    rc=$?
}
if [ -x /usr/bin/python3 ]; then
    export ERRF="$tmp/stderr"
    for args in "rules" "rules --json" "help" "--version" "check --help" "check $real/gguf/ratchet-test.gguf" \
        "check -r $src/corpus/gguf" "check --json $tmp/image.png" "dump $real/gguf/ratchet-test.gguf" \
        "dump --json $real/gguf/ratchet-test.gguf" "mutate --list" "mutate --help" \
        "mutate --seed 1 $real/gguf/ratchet-test.gguf -"; do
        closed_pipe $args
        expect_rc 141 "tfs $args | (closed)"
        if [ -s "$tmp/stderr" ]; then ko "tfs $args | (closed): stderr not empty: $(head -c 200 "$tmp/stderr")"; else ok; fi
    done
fi

# ---- review 2: a file parsed for its model name that is really something
# else: the canonical verdict, plus what it looks like
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:0000\nsize 12\n' > "$tmp/lfs.safetensors"
run check "$tmp/lfs.safetensors"; expect_rc 1 "lfs .safetensors"
has "rule        ST002 (HeaderTooLarge)" "lfs .safetensors keeps its rule"
has "looks like  a Git LFS pointer" "lfs .safetensors hint"
run check --json "$tmp/lfs.safetensors"
has '"verdict":"parser_error","rule":"ST002"' "lfs json verdict"
has '"looks_like":"a Git LFS pointer' "lfs json looks_like"
cp "$tmp/image.png" "$tmp/img.gguf"
run check "$tmp/img.gguf"; expect_rc 1 "png .gguf"
has "rule        GG002" "png .gguf rule"; has "looks like  a PNG image" "png .gguf hint"
run check --json "$tmp/x.safetensors"; has '"looks_like":"a PNG image"' "png .safetensors json hint"
run check --json --format safetensors "$tmp/image.png"; has '"looks_like":"a PNG image"' "--format hint"
# no hint for a damaged model file (its rule says it) or a damaged GGUF magic
head -c 100 "$real/safetensors/hf-samples-overall.safetensors" > "$tmp/cut.safetensors"
run check --json "$tmp/cut.safetensors"; expect_rc 1 "cut safetensors"; has '"looks_like":null' "cut safetensors: no hint"
run check "$tmp/M.GGUF"; hasnt "looks like" "damaged GGUF magic: no hint"
run check --json "$real/gguf/ratchet-test.gguf"; has '"looks_like":null' "valid: no hint"
# dump: the header size field was rejected: no "header 0 bytes of JSON"
run dump "$tmp/lfs.safetensors"; expect_rc 1 "dump lfs"
hasnt "header 0 bytes" "dump lfs header"; has "header not read (its size field was rejected)" "dump lfs header"
has "looks like  a Git LFS pointer" "dump lfs hint"
run dump --json "$tmp/lfs.safetensors"; has '"looks_like":"a Git LFS pointer' "dump --json lfs hint"
run dump --json "$real/gguf/ratchet-test.gguf"; hasnt "looks_like" "dump --json valid: no hint"

# ---- review 3: tfs mutate on a directory or a device says so
mkdir -p "$tmp/adir"
run mutate --seed 1 "$tmp/adir" "$tmp/m.out"; expect_rc 2 "mutate a directory"
err_has "is a directory" "mutate a directory"
if grep -q "too large" "$tmp/stderr"; then ko "mutate a directory: 'too large'"; else ok; fi
run mutate --seed 1 --max-size 100 "$tmp/adir" "$tmp/m.out"; expect_rc 2 "mutate a directory --max-size"
err_has "is a directory" "mutate a directory --max-size"
run mutate --seed 1 /dev/null "$tmp/m.out"; expect_rc 2 "mutate /dev/null"
err_has "not a regular file" "mutate /dev/null"
run mutate --help; has "small valid skeleton" "mutate --help: skeleton"
has "tfs mutate --list" "mutate --help: --list"
run mutate --seed 1 "$tmp/lfs.safetensors" "$tmp/m.out"; expect_rc 0 "mutate an LFS pointer"
run check --format gguf "$tmp/m.out"; rc1=$rc; run check --format safetensors "$tmp/m.out"
if [ "$rc1" -le 1 ] && [ "$rc" -le 1 ]; then ok; else ko "mutant of an LFS pointer not checkable"; fi
run help; has "--max-size BYTES" "help: mutate --max-size"; has "--crossover IN2" "help: mutate --crossover"

# ---- review 4: a directory without -r: a hint
run check "$tmp/adir"; expect_rc 2 "check a directory"
has "Is a directory (use -r to walk a folder)" "check a directory hint"
run check -r "$tmp/adir"; expect_rc 1 "check -r an empty directory (issue 18: a walk that checks nothing exits 1)"

finish
