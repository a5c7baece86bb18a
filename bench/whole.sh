#!/usr/bin/env bash
# whole.sh: whole-process figures of `tfs check` beside the canonical readers,
# measured side by side in one run (commands alternate: A B C A B C ...).
#
#   bench/whole.sh [--runs N] [--warmup W] [--tensors N] [--st FILE] [--gguf FILE]
#                  [--tfs PATH] [--bin DIR] [--st-oracle PATH | --no-oracle]
#                  [--crate-mode auto|deserialize|read-metadata] [--ggml-lib PATH | --no-ggml]
#
# Two groups, each timed by tfs_runstat (bench/runstat.c: fork+exec per run,
# wall from CLOCK_MONOTONIC, user/sys time, minor/major page faults and peak
# RSS from the child's rusage; mean, min and median over N runs):
#  1. safetensors: the synthetic 50,000-tensor file (tfs_bench --emit-synthetic,
#     5.4 MB of JSON, sparse) or --st FILE:
#       tfs_check  `tfs check FILE`
#       crate      `st-oracle --read-metadata FILE` (the Rust crate; see below)
#       floor_*    tfs_hdr_floor: process start + reading the header bytes (no parse)
#  2. GGUF: the largest real vocab file (../shared/real/gguf, else corpus/real/gguf)
#     or --gguf FILE:
#       tfs_check  `tfs check FILE`
#       ggml       tfs_ggml_load: gguf_init_from_file(no_alloc) from libggml-base.so
#       floor_*    as above
#       true       /bin/true: the cost of starting any process
# and prints the speedup of tfs over each, against the targets of issue 18
# (>= 12x over the crate and over ggml, whole process), and the floor:
# /bin/true (median) + the in-process parse time of the same file
# (`tfs_bench --parse FILE`, median), with tfs check's ratio to it (target
# <= 1.5x).
#
# The crate: SafeTensors::deserialize is read_metadata plus a slice of the buffer
# (safetensors/src/tensor.rs), and `st-oracle FILE` first reads the WHOLE file
# (std::fs::read): 2.7 TB for the sparse 50k file.  So for files above 1 GiB
# (--crate-mode auto) the crate runs as `st-oracle --read-metadata` (a read-only
# mapping of the file; the crate touches only the header pages), which is the
# same parse.  --crate-mode deserialize forces `st-oracle FILE`.
# The oracle: --st-oracle PATH, else $TFS_ST_ORACLE, else the path written in
# ../notes/st-oracle-path.txt (a colleague's build); absent (as in CI): the
# column is skipped.  Build it with ../shared/oracles/st-oracle/build.sh.
# ggml: --ggml-lib PATH, else $TFS_GGML_LIB, else the npm copy in
# build/release/npm or build/dev/npm; absent: the column is skipped.
# Defaults: --runs 20 --warmup 2; binaries from build/release (cmake --preset release).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=20 warmup=2 tensors=50000 st_file= gguf= crate_mode=auto
tfs=$root/build/release/tools/tfs
bin=$root/build/release/bench
oracle=${TFS_ST_ORACLE:-} no_oracle=0
ggml_lib=${TFS_GGML_LIB:-} no_ggml=0
while (($#)); do
    case $1 in
    --runs) runs=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --tensors) tensors=$2; shift ;;
    --st) st_file=$2; shift ;;
    --gguf) gguf=$2; shift ;;
    --tfs) tfs=$2; shift ;;
    --bin) bin=$2; shift ;;
    --st-oracle) oracle=$2; shift ;;
    --no-oracle) no_oracle=1 ;;
    --crate-mode) crate_mode=$2; shift ;;
    --ggml-lib) ggml_lib=$2; shift ;;
    --no-ggml) no_ggml=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "whole.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    esac
    shift
done
runstat=$bin/tfs_runstat floor=$bin/tfs_hdr_floor ggml_load=$bin/tfs_ggml_load tfs_bench=$bin/tfs_bench
for b in "$tfs" "$runstat" "$floor" "$tfs_bench"; do
    [[ -x $b ]] || { echo "whole.sh: $b not found (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
done

# the Rust crate's oracle (optional)
if ((no_oracle)); then oracle=
elif [[ -z $oracle && -r $root/../notes/st-oracle-path.txt ]]; then oracle=$(head -1 "$root/../notes/st-oracle-path.txt")
fi
if [[ -n $oracle && ! -x $oracle ]]; then echo "whole.sh: st-oracle $oracle is not executable: crate column skipped" >&2; oracle=; fi
# ggml (optional)
if ((no_ggml)); then ggml_lib=
elif [[ -z $ggml_lib ]]; then
    for d in release dev; do
        c=$root/build/$d/npm/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so
        if [[ -r $c ]]; then ggml_lib=$c; break; fi
    done
fi
if [[ -n $ggml_lib && ( ! -r $ggml_lib || ! -x $ggml_load ) ]]; then
    echo "whole.sh: $ggml_lib or $ggml_load missing: ggml column skipped" >&2; ggml_lib=
fi
# the largest real GGUF vocab file
if [[ -z $gguf ]]; then
    for d in "$root/../shared/real/gguf" "$root/corpus/real/gguf"; do
        [[ -d $d ]] || continue
        gguf=$(ls -S "$d"/*vocab*.gguf 2> /dev/null | head -1 || true)
        [[ -n $gguf ]] && break
    done
    [[ -n $gguf ]] || { echo "whole.sh: no GGUF vocab file found (--gguf FILE)" >&2; exit 2; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $st_file ]]; then
    st_file=$tmp/synth${tensors}.safetensors
    "$tfs_bench" --tensors "$tensors" --emit-synthetic "$st_file" > /dev/null
fi

echo "whole.sh: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tfs: $tfs ($("$tfs" --version 2> /dev/null || echo '?')); libraries: $(ldd "$tfs" 2> /dev/null | awk '$1 !~ /vdso/ {print $1}' | tr '\n' ' ')"
echo

# expect CMD...: the command must succeed (a valid file), else stop
expect_ok() {
    if ! "$@" > "$tmp/out.txt" 2>&1; then
        echo "whole.sh: $* failed:" >&2; cat "$tmp/out.txt" >&2; exit 1
    fi
}

# floor FILE: after a runstat table in $tmp/rs.txt (with @true), the floor
# /bin/true + in-process parse of FILE, and tfs check's ratio to it
floor_line() {
    local parse
    parse=$("$tfs_bench" --runs "$runs" --parse "$1" | awk '$1 == "parse_ms" { print $3 }')
    awk -F'\t' -v parse="$parse" '
        $1 == "#tsv" && $2 == "tfs_check" { t = $6 }
        $1 == "#tsv" && $2 == "true" { z = $6 }
        END { if (t > 0 && z > 0 && parse != "") printf "  floor: /bin/true %.3f ms + in-process parse %.3f ms = %.3f ms; tfs check %.3f ms = %.2fx the floor (target <= 1.5x): %s\n",
                  z, parse, z + parse, t, t / (z + parse), (t / (z + parse) <= 1.5 ? "MET" : "NOT MET") }' "$tmp/rs.txt"
}

# targets NAME TARGET: after a runstat table in $tmp/rs.txt, the speedup of
# tfs_check over NAME (median wall) against TARGET (x)
target() {
    awk -F'\t' -v other="$1" -v want="$2" '
        $1 == "#tsv" && $2 == "tfs_check" { t = $6 }
        $1 == "#tsv" && $2 == other { o = $6 }
        END { if (t > 0 && o > 0) printf "  target: tfs check >= %sx faster than %s (median wall): %.2fx  %s\n",
                  want, other, o / t, (o / t >= want ? "MET" : "NOT MET") }' "$tmp/rs.txt"
}

# perf_faults FILE...: one `perf stat` of tfs check as a cross-check of the
# fault counts (the rusage counts above are the same kernel counters)
perf_faults() {
    command -v perf > /dev/null || return 0
    perf stat -x, -e page-faults,minor-faults,major-faults -o "$tmp/perf.txt" "$tfs" check "$1" > /dev/null 2>&1 || return 0
    awk -F, '/faults/ { printf "%s%s=%s", sep, $3, $1; sep = ", " } END { if (sep) print "" }' "$tmp/perf.txt" |
        sed 's/^/  perf stat (one run of tfs check): /'
}

# --- safetensors ---
size=$(stat -c %s "$st_file")
hdr=$(( $(od -An -tu8 -N8 "$st_file") ))
echo "== safetensors: $st_file"
echo "   $((hdr)) bytes of JSON header, file $size bytes ($(du -k "$st_file" | cut -f1) kB on disk)"
expect_ok "$tfs" check "$st_file"
cmds=(@tfs_check "$tfs" check "$st_file")
if [[ -n $oracle ]]; then
    mode=$crate_mode
    if [[ $mode == auto ]]; then
        if ((size > 1 << 30)); then mode=read-metadata; else mode=deserialize; fi
    fi
    if [[ $mode == read-metadata ]]; then ocmd=("$oracle" --read-metadata "$st_file")
    else ocmd=("$oracle" "$st_file"); fi
    expect_ok "${ocmd[@]}"
    echo "   crate: ${ocmd[*]} ($mode; $("$oracle" --version 2> /dev/null || true))"
    cmds+=(@crate "${ocmd[@]}")
else
    echo "   crate: skipped (no st-oracle: --st-oracle PATH)"
fi
cmds+=(@floor_read "$floor" read "$st_file" @floor_populate "$floor" populate "$st_file" @startup "$floor" none "$st_file"
    @true /bin/true)
"$runstat" -n "$runs" -w "$warmup" "${cmds[@]}" | tee "$tmp/rs.txt"
[[ -n $oracle ]] && target crate 12
floor_line "$st_file"
perf_faults "$st_file"
echo

# --- GGUF ---
echo "== gguf: $gguf ($(stat -c %s "$gguf") bytes)"
expect_ok "$tfs" check "$gguf"
cmds=(@tfs_check "$tfs" check "$gguf")
if [[ -n $ggml_lib ]]; then
    expect_ok "$ggml_load" -L "$ggml_lib" "$gguf"
    echo "   ggml: $ggml_load -L $ggml_lib (gguf_init_from_file, no_alloc)"
    cmds+=(@ggml "$ggml_load" -L "$ggml_lib" "$gguf")
else
    echo "   ggml: skipped (no libggml-base.so: --ggml-lib PATH or TFS_GGML_LIB)"
fi
cmds+=(@floor_read "$floor" read "$gguf" @floor_chunk "$floor" chunk "$gguf" @startup "$floor" none "$gguf"
    @true /bin/true)
"$runstat" -n "$runs" -w "$warmup" "${cmds[@]}" | tee "$tmp/rs.txt"
[[ -n $ggml_lib ]] && target ggml 12
floor_line "$gguf"
perf_faults "$gguf"
exit 0
