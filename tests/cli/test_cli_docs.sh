#!/bin/bash
# test_cli_docs.sh TFS_BINARY SOURCE_DIR: the manual page and the bash
# completion of `tfs` stay true to the program.
#  1. tools/tfs/tfs.1 names every command of `tfs help` and every option of
#     every `tfs COMMAND --help`, and every exit status the README's table has;
#     groff (when present) formats it without a warning.
#  2. tools/tfs/tfs.bash completes commands, the options of each command (the
#     same set as its --help), --format values, and model files and folders.
# Prints one line per failure and "N passed, N failed"; exit 1 on any failure.
set -u
tfs=$1
src=$2
. "$(dirname "$0")/../lib.sh"
man=$src/tools/tfs/tfs.1

# options of a command, from its --help (long options and -r / -h)
# (the usage line and the lines that start with an option)
opts_of() { "$tfs" "$1" --help | grep -E '^usage:|^  -' | grep -oE '(^|[ [,|])--?[a-z][a-z-]*' | sed 's/^[ [,|]//' | sort -u; }

cmds=$("$tfs" help | sed -n 's/^  \(check\|dump\|rules\|help\|[a-z]*\) .*/\1/p' | grep -vx '' | sort -u)
[ -n "$cmds" ] || ko "no commands in tfs help"
for c in $cmds; do
    if grep -qE "^\.B(R)? (tfs )?$c\b|^\.TP\n\.B $c|^\.B $c$" "$man" || grep -qx ".B $c" "$man" || grep -q "^\.BR $c " "$man"; then ok; else ko "tfs.1 lacks command $c"; fi
    [ "$c" = help ] && continue
    for o in $(opts_of "$c"); do
        esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        if grep -q -- "$esc" "$man"; then ok; else ko "tfs.1 lacks option $o of tfs $c"; fi
    done
done
for w in not_a_model parser_error io_error internal_error "out of memory" "\.B 0" "\.B 1" "\.B 2"; do
    if grep -q -- "$w" "$man"; then ok; else ko "tfs.1 lacks '$w'"; fi
done
if command -v groff > /dev/null 2>&1; then
    warn=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
    if [ -z "$warn" ]; then ok; else ko "groff warnings: $warn"; fi
else
    echo "note: groff absent, tfs.1 not formatted"
fi

# ---- completion
# shellcheck source=/dev/null
source "$src/tools/tfs/tfs.bash"
complete_words() { # words...: the last one is completed
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _tfs
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
got=$(complete_words tfs "")
case $got in *check*dump*help*rules*) ok ;; *) ko "commands: $got" ;; esac
for c in $(printf '%s\n' $cmds | grep -vx help); do
    want=$(opts_of "$c" | grep -vx -- '-h' | tr '\n' ' ')
    got=$(complete_words tfs "$c" -)
    for o in $want; do
        case " $got " in *" $o "*) ok ;; *) ko "completion of tfs $c lacks $o (got: $got)" ;; esac
    done
done
got=$(complete_words tfs check --format "")
if [ "$got" = "gguf safetensors " ]; then ok; else ko "--format values: $got"; fi
mkdir "$tmp/dir"
: > "$tmp/a.gguf"; : > "$tmp/B.SAFETENSORS"; : > "$tmp/c.gguf.part"; : > "$tmp/notes.txt"
got=$(cd "$tmp" && complete_words tfs check "")
if [ "$got" = "B.SAFETENSORS a.gguf c.gguf.part dir " ]; then ok; else ko "files: '$got'"; fi
got=$(cd "$tmp" && complete_words tfs dump n)
if [ "$got" = "notes.txt " ]; then ok; else ko "any file when no model file matches: '$got'"; fi
got=$(complete_words tfs help "")
want=$(printf '%s\n' $cmds | grep -vx help | tr '\n' ' ')
if [ "$got" = "$want" ]; then ok; else ko "help: '$got' (want '$want')"; fi

finish
