# tests/lib.sh: the set-up the shell tests share (sourced, not run):
#   . "$(dirname "$0")/../lib.sh"
# gives $tmp (a private temporary folder, removed on exit), the counters
# $pass and $fail, ok (one check passed), ko MESSAGE (one check failed: prints
# "FAIL: MESSAGE"; bad is the same) and finish [NAME], the last command of a
# test: prints "[NAME: ]N passed, N failed" ("[NAME: ]ok" when no check was
# counted and none failed) and returns 1 when a check failed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}
bad() { ko "$@"; }
finish() {
    if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
        echo "${1:+$1: }ok" # a test that only reports failures (bad)
    else
        echo "${1:+$1: }$pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
}
