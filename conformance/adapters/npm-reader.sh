#!/bin/sh
# npm-reader.sh PKG@VERSION [WITH@VERSION...]: install an npm reader into the
# reader cache on first use (flock: adapters running in parallel install it
# once) and print its folder (the one holding node_modules/).  Offline after
# the first run.
#   cache: $TFS_READER_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/tfs/readers
#   PKG@VERSION: an exact version (the matrix pins every reader)
#   WITH@VERSION: installed beside it, and then optional dependencies are
#   left out (--omit=optional: a package whose optional dependencies are GPU
#   builds gets only the CPU one named here); the folder names every spec
# Exit 2 when npm is missing, the cache folder cannot be created or written,
# or the install fails (its log is printed).
set -eu
spec=${1:?usage: npm-reader.sh PKG@VERSION [WITH@VERSION...]}
cache=${TFS_READER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tfs/readers}
omit=
if [ $# -gt 1 ]; then spec="$*" omit=--omit=optional; fi
dir=$cache/$(printf '%s' "$spec" | tr '/ ' '+,')
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
command -v npm > /dev/null || { echo "npm-reader.sh: npm not found (needed once to install $spec)" >&2; exit 2; }
mkdir -p "$dir" 2> /dev/null && [ -w "$dir" ] || {
    echo "npm-reader.sh: cannot create or write the reader cache folder $dir (TFS_READER_CACHE sets the cache, now $cache)" >&2
    exit 2
}
(
    flock 9
    if [ ! -f "$dir/.installed" ]; then
        [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
        if npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --save-exact $omit $spec > "$dir/install.log" 2>&1; then
            touch "$dir/.installed"
        else
            cat "$dir/install.log" >&2
            exit 2
        fi
    fi
) 9> "$dir.lock"
echo "$dir"
