#!/bin/sh
# test_lib.sh: lib.mjs's exits when the adapter, not the reader, fails
# (issue 17): a reader cache folder that cannot be created, a cached reader
# that cannot be imported, a fixture that cannot be opened: exit 3 (a crash
# for the runner; exit 1 would read as a rejection), one stderr line naming
# the folder and TFS_READER_CACHE.  No npm needed (exit 77 without node).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
command -v node > /dev/null || { echo "SKIP: no node on PATH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valid=$src/corpus/gguf/valid-kv-every-scalar-type.gguf
cat > "$tmp/npm.mjs" << JS
import { readFileSync } from "node:fs";
import { importReader, run } from "$here/lib.mjs";
await importReader("hyllama@0.2.2");
await run({ reader: "t", formats: ["gguf"], read: (p) => readFileSync(p) });
JS
cat > "$tmp/plain.mjs" << JS
import { readFileSync } from "node:fs";
import { run } from "$here/lib.mjs";
await run({ reader: "t", formats: ["gguf"], read: (p) => readFileSync(p) });
JS
st=0
check() { # check WANT GOT WHAT [STDERR-PATTERN]
    if [ "$1" != "$2" ]; then
        echo "FAIL: $3: exit $2, want $1"; cat "$tmp/err"; st=1
    elif [ -n "${4:-}" ] && ! grep -q -- "$4" "$tmp/err"; then
        echo "FAIL: $3: stderr lacks '$4'"; cat "$tmp/err"; st=1
    else
        echo "ok: $3 (exit $2)"
    fi
}
: > "$tmp/file"
TFS_READER_CACHE=$tmp/file/cache node "$tmp/npm.mjs" "$valid" > "$tmp/out" 2> "$tmp/err"
check 3 $? "reader cache folder not creatable" "TFS_READER_CACHE"
grep -q "$tmp/file/cache" "$tmp/err" || { echo "FAIL: the message names the folder"; st=1; }
[ -s "$tmp/out" ] && { echo "FAIL: stdout not empty"; st=1; }
mkdir -p "$tmp/cache/hyllama@0.2.2" && touch "$tmp/cache/hyllama@0.2.2/.installed"
TFS_READER_CACHE=$tmp/cache node "$tmp/npm.mjs" "$valid" > "$tmp/out" 2> "$tmp/err"
check 3 $? "a cached reader that cannot be imported" "cannot import it"
node "$tmp/plain.mjs" "$tmp/no-such-file.gguf" > "$tmp/out" 2> "$tmp/err"
check 3 $? "a missing fixture: not a rejection" "cannot read"
mkdir "$tmp/d.gguf"
node "$tmp/plain.mjs" "$tmp/d.gguf" > "$tmp/out" 2> "$tmp/err"
check 3 $? "a folder as the fixture (EISDIR on read): not a rejection" "EISDIR"
node "$tmp/plain.mjs" "$valid" > "$tmp/out" 2> "$tmp/err"
check 0 $? "a readable fixture: accepted"
exit $st
