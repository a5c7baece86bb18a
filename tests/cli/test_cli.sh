#!/bin/sh
# test_cli.sh TFS_BINARY SOURCE_DIR: the `tfs` command line on the real files
# of corpus/real (exit codes, human and JSON output, format detection,
# profiles, JSON escaping).  Expected numbers (tensor counts, parameter counts,
# KV counts) were read from the files independently of libtfs (Python's json
# and struct modules); see the comment at each check.
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
src=$2
. "$(dirname "$0")/../lib.sh"
real=$src/corpus/real


# run ARGS...: runs tfs, output in $out, exit status in $rc
run() {
    out=$("$tfs" "$@" 2>"$tmp/stderr")
    rc=$?
}
expect_rc() { # want description
    if [ "$rc" -eq "$1" ]; then ok; else ko "$2: exit $rc, want $1"; printf '%s\n' "$out" | head -5; fi
}
expect_out() { # fixed-string description
    if printf '%s\n' "$out" | grep -qF -- "$1"; then ok; else ko "$2: output lacks '$1'"; printf '%s\n' "$out" | head -12; fi
}
expect_err() { # fixed-string description (stderr)
    if grep -qF -- "$1" "$tmp/stderr"; then ok; else ko "$2: stderr lacks '$1'"; fi
}

# ---- usage, help, version
run --version; expect_rc 0 "--version"; expect_out "tfs " "--version"
run --help; expect_rc 0 "--help"; expect_out "check [--json] [--strict] [--header-only] [--format safetensors|gguf] [-r] [-q]" "--help"; expect_out "[--lint [--config PATH]] FILE|DIR..." "--help"
run check --help; expect_rc 0 "check --help"; expect_out "--header-only" "check --help"
run; expect_rc 2 "no command"
run frobnicate; expect_rc 2 "unknown command"
run check; expect_rc 2 "check without FILE"; expect_err "no FILE" "check without FILE"
run check --nope "$real/gguf/ratchet-test.gguf"; expect_rc 2 "unknown option"
run check --format xml "$real/gguf/ratchet-test.gguf"; expect_rc 2 "bad --format"
run check --format; expect_rc 2 "--format without value"

# ---- valid safetensors: hf-samples-overall (json.loads of the header: 9 tensors,
# 9 dtypes one each, 54 elements in all, header 526 bytes, __metadata__ {"test": "a"})
f=$real/safetensors/hf-samples-overall.safetensors
run check "$f"; expect_rc 0 "overall human"
expect_out "$f: valid" "overall human"
expect_out "format      safetensors" "overall human"
expect_out "header      526 bytes of JSON" "overall human"
expect_out "tensors     9: " "overall human"
expect_out "parameters  54" "overall human"
expect_out "__metadata__: 1 key" "overall human"
expect_out 'test = "a"' "overall human"
run check --json "$f"; expect_rc 0 "overall json"
expect_out '"verdict":"valid"' "overall json"
expect_out '"format":"safetensors"' "overall json"
expect_out '"rule":null' "overall json"
expect_out '"n_tensors":9,"n_kv":1,"header_size":526' "overall json"
expect_out '"params":54' "overall json"
expect_out '"F16":1' "overall json"

# julia with_metadata (torch writer): 36 tensors, 12 dtypes x 3, 1476 elements, 2 metadata keys
f=$real/safetensors/julia-non_sharded-model.with_metadata.safetensors
run check --json "$f"; expect_rc 0 "julia json"
expect_out '"n_tensors":36,"n_kv":2,"header_size":2576' "julia json"
expect_out '"params":1476' "julia json"
expect_out '"BF16":3' "julia json"
expect_out '"F8_E4M3":3' "julia json"
# MLX adapters: "__metadata__": null, 8 F32 tensors, 45056 elements
f=$real/safetensors/mlx-lm-dpo-adapters.safetensors
run check "$f"; expect_rc 0 "mlx human"
expect_out "tensors     8: F32 x8" "mlx human"
expect_out "parameters  45,056 (45.1 K)" "mlx human"
expect_out "no __metadata__" "mlx human"

# ---- valid GGUF: ratchet-dummy (struct.unpack: v3, 10 f32 tensors, 15 KV, 3870 elements)
f=$real/gguf/ratchet-dummy.gguf
run check --json "$f"; expect_rc 0 "ratchet json"
expect_out '"format":"gguf"' "ratchet json"
expect_out '"version":3,"n_tensors":10,"n_kv":15' "ratchet json"
expect_out '"params":3870' "ratchet json"
expect_out '"types":{"f32":10}' "ratchet json"
# ollama tiny llama: 12 tensors (9 f16, 3 f32), 18 KV, 513048 elements
f=$real/gguf/ollama-llama-2-tiny-random.gguf
run check "$f"; expect_rc 0 "ollama human"
expect_out "format      gguf v3, alignment 32" "ollama human"
expect_out "tensors     12: f32 x3, f16 x9" "ollama human"
expect_out "parameters  513,048 (513 K)" "ollama human"
expect_out "metadata    18 KV pairs" "ollama human"
expect_out 'general.architecture = "llama"' "ollama human"
expect_out 'general.name = "LLaMA v2"' "ollama human"
expect_out 'general.file_type = 1' "ollama human"
# zackshen le: general.alignment = 64 (u32)
run check "$real/gguf/zackshen-test-le-v3.gguf"; expect_rc 0 "zackshen le"
expect_out "alignment 64" "zackshen le"
# deepseek vocab: no tensors, 23 KV, token array
run check "$real/gguf/llamacpp-ggml-vocab-deepseek-llm.gguf"; expect_rc 0 "deepseek vocab"
expect_out "tensors     0" "deepseek vocab"
expect_out 'general.name = "deepseek-llm"' "deepseek vocab"

# ---- invalid real files: version 1 and big-endian (version field at byte 4)
f=$real/gguf/llamacpp-2023-08-v1-ggml-vocab-llama.gguf
run check "$f"; expect_rc 1 "v1 human"
expect_out "$f: parser_error" "v1 human"
expect_out "rule        GG012 (BAD_VERSION) at byte offset 4" "v1 human"
expect_out "message     GGUF version 1 is no longer supported" "v1 human"
run check --json "$f"; expect_rc 1 "v1 json"
expect_out '"verdict":"parser_error","rule":"GG012","category":"BAD_VERSION","offset":4' "v1 json"
run check --json "$real/gguf/zackshen-test-be-v3.gguf"; expect_rc 1 "be json"
expect_out '"rule":"GG011","category":"BAD_VERSION","offset":4' "be json"

# ---- every line of corpus/real/MANIFEST.tsv through the CLI: verdict and rule
if [ -f "$real/MANIFEST.tsv" ]; then
    tab=$(printf '\t')
    lines=$(tail -n +2 "$real/MANIFEST.tsv")
    while IFS="$tab" read -r id path sha size format expect rule category mode rest; do
        [ -n "$id" ] || continue
        case $mode in
        default) flag= ;;
        strict) flag=--strict ;;
        header-only) flag=--header-only ;;
        *) ko "$id: unknown mode $mode"; continue ;;
        esac
        run check --json $flag --format "$format" "$real/$path"
        if [ "$expect" = valid ]; then
            expect_rc 0 "$id"; expect_out '"verdict":"valid"' "$id"
        elif [ "$expect" = parser_error ]; then
            expect_rc 1 "$id"
            got=$(printf '%s\n' "$out" | sed -n 's/.*"rule":"\([A-Z0-9]*\)".*/\1/p')
            case "|$rule|" in
            *"|$got|"*) ok ;;
            *) ko "$id: rule '$got', manifest says $rule" ;;
            esac
        fi
    done <<EOT
$lines
EOT
else
    ko "corpus/real/MANIFEST.tsv missing"
fi

# ---- several files: exit status is the worst one
run check "$real/gguf/ratchet-test.gguf" "$real/safetensors/swift-data.safetensors"; expect_rc 0 "two valid"
expect_out "2 files: 2 valid, 0 invalid, 0 errors" "two valid"
run check "$real/gguf/ratchet-test.gguf" "$real/gguf/zackshen-test-be-v3.gguf"; expect_rc 1 "valid + invalid"
run check "$real/gguf/zackshen-test-be-v3.gguf" "$tmp/does-not-exist.gguf"; expect_rc 2 "invalid + missing"
expect_out "io_error" "invalid + missing"
run check --json "$tmp/does-not-exist.gguf"; expect_rc 2 "missing json"
expect_out '"verdict":"io_error"' "missing json"
mkdir -p "$tmp/nomodels"
run check "$tmp/nomodels"; expect_rc 2 "directory without model files"

# ---- every real writer passes --strict; GGUF passes --header-only
run check --strict "$real/safetensors/"*.safetensors; expect_rc 0 "strict safetensors"
run check --strict "$real/gguf/ratchet-dummy.gguf" "$real/gguf/ratchet-test.gguf" "$real/gguf/zackshen-test-le-v3.gguf" \
    "$real/gguf/ollama-llama-2-tiny-random.gguf" "$real/gguf/llamacpp-ggml-vocab-bert-bge.gguf"
expect_rc 0 "strict gguf"
expect_out "(strict)" "strict gguf"

# ---- format detection: magic first, then extension; --format forces
: > "$tmp/empty.gguf"
run check --json "$tmp/empty.gguf"; expect_rc 1 "empty .gguf"
expect_out '"format":"gguf","profile":"default","verdict":"parser_error","rule":"GG001","category":"TRUNCATED","offset":0' "empty .gguf"
printf 'GGUX\003\000\000\000' > "$tmp/badmagic.gguf"
run check --json "$tmp/badmagic.gguf"; expect_rc 1 "bad magic .gguf"
expect_out '"rule":"GG002","category":"BAD_MAGIC","offset":0' "bad magic .gguf"
printf 'abcd' > "$tmp/short.safetensors"
run check --json "$tmp/short.safetensors"; expect_rc 1 "4-byte .safetensors"
expect_out '"format":"safetensors","profile":"default","verdict":"parser_error","rule":"ST001","category":"HeaderTooSmall","offset":0' "4-byte .safetensors"
run check --json --format gguf "$tmp/short.safetensors"; expect_rc 1 "--format gguf"
expect_out '"rule":"GG002"' "--format gguf"
cp "$real/gguf/ratchet-test.gguf" "$tmp/no-extension"
run check --json "$tmp/no-extension"; expect_rc 0 "GGUF magic without extension"
expect_out '"format":"gguf"' "GGUF magic without extension"

# ---- profiles: a GGUF cut inside its tensor data (ratchet-dummy: infos end at
# byte 1157, data from 1184) fails the default profile and passes --header-only;
# a cut safetensors file is short of its data buffer.
head -c 2000 "$real/gguf/ratchet-dummy.gguf" > "$tmp/cut.gguf"
run check --json "$tmp/cut.gguf"; expect_rc 1 "cut gguf default"
expect_out '"rule":"GG304","category":"DATA_MISSING"' "cut gguf default"
run check --json --header-only "$tmp/cut.gguf"; expect_rc 0 "cut gguf header-only"
expect_out '"profile":"header-only","verdict":"valid"' "cut gguf header-only"
head -c 600 "$real/safetensors/hf-samples-overall.safetensors" > "$tmp/cut.safetensors"
run check --json "$tmp/cut.safetensors"; expect_rc 1 "cut safetensors"
expect_out '"rule":"ST308","category":"MetadataIncompleteBuffer"' "cut safetensors"

# ---- JSON string escaping of file names (quote, backslash, tab, a non-UTF-8 byte)
name=$(printf 'a"b\\c\td\377e.safetensors')
cp "$real/safetensors/hf-samples-B.safetensors" "$tmp/$name"
run check --json "$tmp/$name"; expect_rc 0 "escaped name"
expect_out '/a\"b\\c\td\ufffde.safetensors"' "escaped name"

# ---- every JSON line parses (Python's json module), for check and rules
if [ -x /usr/bin/python3 ]; then
    "$tfs" check --json "$real"/*/* "$tmp/$name" "$tmp/empty.gguf" "$tmp/none" > "$tmp/all.jsonl" 2>/dev/null
    "$tfs" rules --json >> "$tmp/all.jsonl"
    if /usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    json.loads(line)
' "$tmp/all.jsonl"; then ok; else ko "JSON output does not parse"; fi
fi

# ---- tfs rules: one row per TFS_RULE line of rules.def
want=$(grep -c '^TFS_RULE(' "$src/include/tfs/rules.def")
run rules --tsv; expect_rc 0 "rules --tsv"
n=$(printf '%s\n' "$out" | tail -n +2 | wc -l)
if [ "$n" -eq "$want" ]; then ok; else ko "rules --tsv: $n rows, rules.def has $want"; fi
run rules; expect_rc 0 "rules"
expect_out "GG204  CANON   BAD_N_DIMS" "rules"
run rules --json; expect_rc 0 "rules --json"
expect_out '{"id":"ST001","code":1001,"format":"safetensors","profile":"CANON","category":"HeaderTooSmall"' "rules --json"
run rules --bogus; expect_rc 2 "rules bad option"
run rules --json --tsv; expect_rc 2 "rules --json --tsv"
run --version extra; expect_rc 2 "--version with an argument"
if [ -w /dev/full ]; then
    "$tfs" --help > /dev/full 2>/dev/null; rc=$?; expect_rc 2 "--help to a full disk"
fi

# ---- files that are not regular: a FIFO and a device are read as a stream (a
# FIFO whose writer writes nothing is an empty stream), a directory is refused
mkfifo "$tmp/fifo"
: > "$tmp/fifo" &
run check "$tmp/fifo" /dev/null "$tmp/nomodels"; expect_rc 2 "fifo, device, directory"
wait
expect_out "$tmp/fifo: not_a_model" "fifo"
expect_out "/dev/null: not_a_model" "device"
expect_out "Is a directory" "directory"
if printf '%s' "$out" | grep -q "not a regular file"; then ko "fifo or device refused: $out"; else ok; fi

# ---- untrusted names are shown escaped: no terminal control bytes reach the screen
# (GGUF v3, 0 tensors, 1 KV: key "general.<ESC>[31mname<LF>FAKE", u8 value; written by printf)
esc="$tmp/esc.gguf"
printf 'GGUF\003\000\000\000\000\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\026\000\000\000\000\000\000\000general.\033[31mname\nFAKE\000\000\000\000\001' > "$esc"
run check "$esc"; expect_rc 0 "escaped key"
expect_out 'general.\x1b[31mname\x0aFAKE = 1' "escaped key"
if printf '%s' "$out" | grep -q "$(printf '\033')"; then ko "escaped key: raw ESC in output"; else ok; fi

finish
