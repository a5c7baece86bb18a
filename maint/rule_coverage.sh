#!/usr/bin/env bash
# maint/rule_coverage.sh: the rule coverage of the fixtures (docs/rule-coverage.md).
#
# For every rule id of include/tfs/rules.def (retired rules skipped) it builds
# libtfs with that one rule switched off (cmake -DTFS_RULE_OFF=<id>) plus the
# manifest checker maint/rule_coverage_check.c, runs every fixture of
# corpus/*/MANIFEST.tsv in its profile, and lists the fixtures that then
# fail.  A rule is "killed" when at least one fixture fails without it.
#
#   maint/rule_coverage.sh [--rules LIST] [--quick] [--shard K/N] [--json] [--sanitize] [--build-dir DIR] [-j N] [-v]
#     --rules LIST   comma-separated rule ids (default: all live rules)
#     --quick        a handful of rules, one per way a rule is switched off (CI)
#     --shard K/N    of those rules the K-th, K+N-th, ... (default tree: DIR-KofN):
#                    N runs at once on a machine with cores to spare (each rule's
#                    rebuild and fixture run keep 2 cores busy on their own)
#     --json         one JSON document on stdout instead of the table
#     --sanitize     build with clang, ASan + UBSan (default tree build/rulecov-asan):
#                    a mutant that reads out of bounds shows as "crashed"
#     --build-dir D  the one build tree of the run (default build/rulecov); kept
#                    between runs, so only the objects of the parser whose rule
#                    changes are rebuilt (ccache is used when installed)
#     -j N           build jobs (default 2)
#     -v             list every killing fixture (default: the first 4)
# Before the rules, the unmutated library must pass every fixture (baseline).
# A fixture on which a mutant crashes or hangs counts as killing it, and is
# also reported as "crashed" (a switched-off rule must leave a safe parser).
# Prints one line per rule (killed/survived, killing fixture count), then
# "N/N rules killed" per format and in total, and the time taken.
# Exit: 0 every rule killed, 1 a survivor, 2 usage/build failure, 3 a defect
# of the switch: a leak (a place raising the rule that ignores it) or a
# collateral change (a fixture not about the rule changed; rule_coverage_check --off).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rules_def=$root/include/tfs/rules.def
build=""
sanitize=0
jobs=2
json=0
verbose=0
want=""
shard_k=1
shard_n=1
quick_rules="ST001,ST003,ST110,ST113,ST210,ST306,ST403,ST503,GG003,GG102,GG130,GG204,GG209,GG304,GG501"

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case $1 in
    --rules) want=${2:-}; shift 2 || usage ;;
    --rules=*) want=${1#*=}; shift ;;
    --quick) want=$quick_rules; shift ;;
    --shard)
        [[ ${2:-} =~ ^([0-9]+)/([0-9]+)$ ]] && ((BASH_REMATCH[1] >= 1 && BASH_REMATCH[1] <= BASH_REMATCH[2])) || {
            echo "rule_coverage.sh: --shard wants K/N with 1 <= K <= N, not '${2:-}'" >&2
            exit 2
        }
        shard_k=${BASH_REMATCH[1]} shard_n=${BASH_REMATCH[2]}
        shift 2 ;;
    --json) json=1; shift ;;
    --sanitize) sanitize=1; shift ;;
    --build-dir) build=${2:-}; shift 2 || usage ;;
    -j) jobs=${2:-}; shift 2 || usage ;;
    -v) verbose=1; shift ;;
    -h | --help) usage ;;
    *) echo "rule_coverage.sh: unknown argument $1" >&2; usage ;;
    esac
done

# live rules in table order (ST rows, then GG: one parser's objects at a time)
mapfile -t all_rules < <(sed -nE 's/^TFS_RULE\(([A-Z]{2}[0-9]{3}), [0-9]+, [A-Z]+, ([A-Z]+),.*/\1 \2/p' "$rules_def" |
    awk '$2 != "RETIRED" {print $1}')
mapfile -t retired < <(sed -nE 's/^TFS_RULE\(([A-Z]{2}[0-9]{3}), [0-9]+, [A-Z]+, RETIRED,.*/\1/p' "$rules_def")
rules=()
if [[ -n $want ]]; then
    IFS=, read -r -a asked <<< "$want"
    for r in "${all_rules[@]}"; do # keep table order
        for a in "${asked[@]}"; do [[ $a == "$r" ]] && rules+=("$r"); done
    done
    for a in "${asked[@]}"; do
        [[ " ${all_rules[*]} " == *" $a "* ]] || { echo "rule_coverage.sh: $a is not a live rule id of rules.def" >&2; exit 2; }
    done
else
    rules=("${all_rules[@]}")
fi
if ((shard_n > 1)); then
    mine=()
    for i in "${!rules[@]}"; do ((i % shard_n == shard_k - 1)) && mine+=("${rules[i]}"); done
    rules=("${mine[@]}")
fi

[[ -n $build ]] || build=$root/build/rulecov$( ((sanitize)) && echo -asan)$( ((shard_n > 1)) && echo "-${shard_k}of$shard_n")
manifests=("$root"/corpus/*/MANIFEST.tsv)
log=$build/rulecov.log
mkdir -p "$build"
: > "$log"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
((sanitize)) && launcher+=(-DCMAKE_C_COMPILER=clang -DTFS_SANITIZE=ON)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=98
say() { ((json)) || echo "$@"; }
start=$SECONDS

# build OFF: configure with TFS_RULE_OFF=OFF ("" = the normal library) and build the checker
build_with() {
    cmake -S "$root" -B "$build" -DTFS_RULE_OFF="$1" -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_BENCH=OFF \
        -DTFS_INSTALL=OFF -DTFS_WERROR=ON -DCMAKE_BUILD_TYPE=Debug "${launcher[@]}" >> "$log" 2>&1 &&
        cmake --build "$build" -j "$jobs" --target rule_coverage_check >> "$log" 2>&1
}

say "rule coverage: ${#rules[@]} rules, $(cat "${manifests[@]}" | grep -cv '^id	') fixtures (${manifests[*]#"$root"/}), build tree ${build#"$root"/}"
if ! build_with ""; then
    tail -30 "$log" >&2
    echo "rule_coverage.sh: the normal build failed (log: $log)" >&2
    exit 2
fi
if ! base=$("$build"/maint/rule_coverage_check "${manifests[@]}"); then
    echo "$base" | grep -v '^[0-9]* passed' >&2
    echo "rule_coverage.sh: the unmutated library fails fixtures: no score (fix those first)" >&2
    exit 2
fi

declare -A fmt_total fmt_killed
results=()      # id|status|count|fixtures (comma-separated)|crashed fixtures
n_killed=0
n_crash=0
n_collat=0
n_leak=0
for r in "${rules[@]}"; do
    t0=$SECONDS
    if ! build_with "$r"; then
        tail -30 "$log" >&2
        echo "rule_coverage.sh: build with TFS_RULE_OFF=$r failed (log: $log)" >&2
        exit 2
    fi
    out=$("$build"/maint/rule_coverage_check --off "$r" "${manifests[@]}")
    rc=$?
    fails=$(grep -E '^(FAIL|LEAK) ' <<< "$out" | cut -f1 | sed -E 's/^(FAIL|LEAK) //' | paste -sd, -)
    count=$(grep -cE '^(FAIL|LEAK) ' <<< "$out")
    crashed=$(grep -E '^FAIL .*	crash: ' <<< "$out" | cut -f1 | sed 's/^FAIL //' | paste -sd, -)
    [[ -n $crashed ]] && n_crash=$((n_crash + 1))
    collat=$(grep -E '^FAIL .*\[collateral\]$' <<< "$out" | cut -f1 | sed 's/^FAIL //' | paste -sd, -)
    [[ -n $collat ]] && n_collat=$((n_collat + 1))
    f=${r:0:2}
    fmt_total[$f]=$((${fmt_total[$f]:-0} + 1))
    if ((rc == 3)); then
        status=leak
        n_leak=$((n_leak + 1))
    elif ((count > 0)); then
        status=killed
        n_killed=$((n_killed + 1))
        fmt_killed[$f]=$((${fmt_killed[$f]:-0} + 1))
    else
        status=survived
    fi
    results+=("$r|$status|$count|$fails|$crashed|$collat")
    if ((!json)); then
        shown=$fails
        if ((!verbose)) && ((count > 4)); then shown="$(cut -d, -f1-4 <<< "$fails"),..."; fi
        printf '%-6s %-8s %3d fixture(s) %s  (%ds)\n' "$r" "$status" "$count" "$shown" $((SECONDS - t0))
        [[ -n $crashed ]] && echo "    crashed on: $crashed"
        [[ -n $collat ]] && echo "    COLLATERAL (fixtures not about $r changed): $collat"
        [[ $status == leak ]] && grep '^LEAK ' <<< "$out" | sed 's/^/    /'
    fi
done
secs=$((SECONDS - start))

if ((json)); then
    rlist=""
    ((${#retired[@]})) && rlist=$(printf '"%s",' "${retired[@]}" | sed 's/,$//')
    printf '{"schema": 1, "seconds": %d, "fixtures": %d, "retired_skipped": [%s], "rules": [' "$secs" \
        "$(cat "${manifests[@]}" | grep -cv '^id	')" "$rlist"
    sep=""
    for x in "${results[@]}"; do
        IFS='|' read -r id status count fails crashed collat <<< "$x"
        list="" clist="" olist=""
        [[ -n $collat ]] && olist=$(tr ',' '\n' <<< "$collat" | sed 's/.*/"&"/' | paste -sd, -)
        [[ -n $fails ]] && list=$(tr ',' '\n' <<< "$fails" | sed 's/.*/"&"/' | paste -sd, -)
        [[ -n $crashed ]] && clist=$(tr ',' '\n' <<< "$crashed" | sed 's/.*/"&"/' | paste -sd, -)
        printf '%s\n  {"id": "%s", "status": "%s", "killing_fixtures": [%s], "crashed": [%s], "collateral": [%s]}' \
            "$sep" "$id" "$status" "$list" "$clist" "$olist"
        sep=","
    done
    printf '\n], "summary": {'
    sep=""
    for f in ST GG; do
        [[ -n ${fmt_total[$f]:-} ]] || continue
        printf '%s"%s": {"killed": %d, "rules": %d}' "$sep" "$f" "${fmt_killed[$f]:-0}" "${fmt_total[$f]}"
        sep=", "
    done
    printf '%s"total": {"killed": %d, "rules": %d, "leaks": %d, "collateral": %d, "mutants_crashing": %d}}}\n' \
        "$sep" "$n_killed" "${#rules[@]}" "$n_leak" "$n_collat" "$n_crash"
else
    for f in ST GG; do
        [[ -n ${fmt_total[$f]:-} ]] || continue
        name=$([[ $f == ST ]] && echo safetensors || echo gguf)
        echo "$name: ${fmt_killed[$f]:-0}/${fmt_total[$f]} rules killed"
    done
    ((${#retired[@]})) && echo "(retired, not scored: ${retired[*]})"
    leaks=""
    ((n_leak)) && leaks=", $n_leak leak(s)"
    ((n_collat)) && leaks+=", $n_collat with collateral changes"
    ((n_crash)) && leaks+=", $n_crash mutant(s) crashed"
    echo "total: $n_killed/${#rules[@]} rules killed$leaks ($secs s)"
fi
((n_leak + n_collat)) && exit 3
((n_killed == ${#rules[@]})) || exit 1
exit 0
