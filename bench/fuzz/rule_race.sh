#!/usr/bin/env bash
# bench/fuzz/rule_race.sh [SECONDS] [KIND] [MAX_LEN]: structure-aware versus plain.
# For each format, the plain libFuzzer form and the structure-aware one
# (+ tfs_mutator_libfuzzer) of target fuzz_<format>_KIND (default buffer)
# fuzz from an EMPTY corpus for SECONDS (default 120), side by side, with the
# same settings (dictionary, -max_len=MAX_LEN, default 131072: GG505 needs a
# key over 65,535 bytes); then the replay form runs over each
# grown corpus with --rules (every variant: default, strict, header-only,
# partial) and the rule ids the corpus triggers are counted.
# Prints a table (rules of the format, retired left out; rules triggered by
# plain, by structure-aware, only by one of them) and the ids neither reached.
# Needs the fuzz preset (built when build/fuzz is missing; TFS_FUZZ_BUILD and
# TFS_RACE_DIR move the binaries and the work folder; TFS_RACE_FORMATS, e.g.
# "safetensors", races one format only).  The issue's figure is SECONDS=600.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-120}
kind=${2:-buffer}
max_len=${3:-131072}
build=${TFS_FUZZ_BUILD:-$root/build/fuzz}
if [[ ! -d $build/fuzzers ]]; then
    (cd "$root" && cmake --preset fuzz > /dev/null && cmake --build --preset fuzz -j2 > /dev/null)
fi
work=${TFS_RACE_DIR:-$root/build/rule-race}
rm -rf "$work"
mkdir -p "$work"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1
rows=()
for fmt in ${TFS_RACE_FORMATS:-gguf safetensors}; do
    short=gguf prefix=GG
    [[ $fmt == safetensors ]] && short=st prefix=ST
    t=fuzz_${short}_$kind
    total=$(grep -cE "^TFS_RULE\($prefix[0-9]+, *[0-9]+, *$prefix, *(CANON|DATA|STRICT)," "$root/include/tfs/rules.def")
    # both forms at once, so they share the machine alike
    for form in plain sa; do
        bin=$build/fuzzers/${t}_fuzzer
        [[ $form == sa ]] && bin=$build/fuzzers/${t}_sa_fuzzer
        mkdir -p "$work/$t-$form"
        ("$bin" -max_total_time="$seconds" -max_len="$max_len" -dict="$root/fuzz/dict/$fmt.dict" -print_final_stats=1 \
            -artifact_prefix="$work/$t-$form-" "$work/$t-$form" > "$work/$t-$form.log" 2>&1 ||
            echo "rule_race: $t $form stopped early (see $work/$t-$form.log)") &
    done
    wait
    for form in plain sa; do
        "$build/fuzz/$t" --quiet --rules "$work/$t-$form" 2> /dev/null | awk '$3 > 0 {print $2}' | sort > "$work/$t-$form.rules"
    done
    p=$(wc -l < "$work/$t-plain.rules")
    s=$(wc -l < "$work/$t-sa.rules")
    sa_only=$(comm -13 "$work/$t-plain.rules" "$work/$t-sa.rules" | tr '\n' ' ')
    plain_only=$(comm -23 "$work/$t-plain.rules" "$work/$t-sa.rules" | tr '\n' ' ')
    grep -oE "^TFS_RULE\($prefix[0-9]+, *[0-9]+, *$prefix, *(CANON|DATA|STRICT)," "$root/include/tfs/rules.def" |
        sed -E 's/TFS_RULE\(([A-Z0-9]+),.*/\1/' | sort > "$work/$fmt.all"
    neither=$(sort -u "$work/$t-plain.rules" "$work/$t-sa.rules" | comm -23 "$work/$fmt.all" - | tr '\n' ' ')
    rows+=("$(printf '%-12s %-20s %6ss %6s %7s %6s' "$fmt" "$t" "$seconds" "$total" "$p" "$s")|sa only: ${sa_only:--}|plain only: ${plain_only:--}|neither: ${neither:--}")
done
printf '%-12s %-20s %7s %6s %7s %6s\n' format target time rules plain sa
for r in "${rows[@]}"; do
    IFS='|' read -r head a b c <<< "$r"
    echo "$head"
    echo "    $a"
    echo "    $b"
    echo "    $c"
done
