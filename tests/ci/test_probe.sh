#!/usr/bin/env bash
# test_probe.sh ROOT: ci/probe.sh, the runtime probe that lets ci/test.sh skip
# (not fail) a stage whose programs this machine cannot execute.  Every case
# drives the probe's decision one way or the other by its variables, so the
# test means the same on a machine that runs i386 programs and on one that
# cannot.
set -u
root=${1:?usage: test_probe.sh ROOT}
source "$root/ci/probe.sh"
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # check NAME EXPECTED_RC ACTUAL_RC [WHY_PATTERN]
    if [[ $2 != "$3" ]]; then
        echo "FAIL $1: probe returned $3, expected $2 (TFS_PROBE_WHY='$TFS_PROBE_WHY')"
        fails=$((fails + 1))
    elif [[ -n ${4:-} ]] && ! grep -qE -- "$4" <<< "$TFS_PROBE_WHY"; then
        echo "FAIL $1: TFS_PROBE_WHY='$TFS_PROBE_WHY' does not match /$4/"
        fails=$((fails + 1))
    elif [[ $2 == 0 && -n $TFS_PROBE_WHY ]]; then
        echo "FAIL $1: probe said yes but left TFS_PROBE_WHY='$TFS_PROBE_WHY'"
        fails=$((fails + 1))
    else
        echo "ok $1"
    fi
}

# 1. the forcing variable answers "cannot" without building anything
TFS_FORCE_NO_I386=1 TFS_I386_CC=/nonexistent tfs_probe_runtime i386
check force-no-i386 1 $? 'TFS_FORCE_NO_I386=1'

# 2. a compiler that builds a program this machine runs: "can" (native gcc, no -m32)
TFS_I386_CC=gcc TFS_I386_CFLAGS= tfs_probe_runtime i386
check runnable 0 $?

# 3. the kernel's refusal, as seen by ci/test.sh: a compiler whose output is
#    an ELF-looking file the kernel will not execute (exit 126)
cat > "$tmp/fakecc" <<'CC'
#!/bin/sh
# fake compiler: writes a binary the kernel refuses to execute
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; esac; shift; done
printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000garbage' > "$out"
chmod +x "$out"
CC
chmod +x "$tmp/fakecc"
TFS_I386_CC=$tmp/fakecc TFS_I386_CFLAGS=-m32 tfs_probe_runtime i386
check exec-format-error 1 $? 'exit 126'

# 4. a trivial program that builds but exits non-zero (a runtime that aborts)
cat > "$tmp/failcc" <<'CC'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -o) out=$2; shift ;; esac; shift; done
printf '#!/bin/sh\necho "runtime: cannot map shadow memory" >&2\nexit 7\n' > "$out"
chmod +x "$out"
CC
chmod +x "$tmp/failcc"
TFS_I386_CC=$tmp/failcc tfs_probe_runtime i386
check runtime-fails 1 $? 'exits 7 instead of 0: runtime: cannot map shadow memory'

# 5. a compiler that cannot build the trivial program
TFS_I386_CC=false tfs_probe_runtime i386
check cannot-build 1 $? 'cannot build a trivial program'

# 6. the other runtimes honour their forcing variables; unknown names fail
TFS_FORCE_NO_MSAN=1 tfs_probe_runtime msan
check force-no-msan 1 $? 'TFS_FORCE_NO_MSAN=1'
TFS_FORCE_NO_ASAN=1 tfs_probe_runtime asan
check force-no-asan 1 $? 'TFS_FORCE_NO_ASAN=1'
tfs_probe_runtime sparc
check unknown-runtime 1 $? "unknown runtime 'sparc'"

# 7. the count ci/test.sh adds to "N skipped" comes from ctest -N's last line
printf 'Test project /x/build/m32\n  Test  #1: a\n  Test  #2: b\n\nTotal Tests: 71\n' > "$tmp/n.log"
n=$(tfs_ctest_count "$tmp/n.log")
if [[ $n == 71 ]]; then echo "ok ctest-count"; else echo "FAIL ctest-count: got '$n', expected 71"; fails=$((fails + 1)); fi
printf 'CMake Error: no such preset\n' > "$tmp/e.log"
n=$(tfs_ctest_count "$tmp/e.log")
if [[ -z $n ]]; then echo "ok ctest-count-none"; else echo "FAIL ctest-count-none: got '$n'"; fails=$((fails + 1)); fi

# 8. ci/test.sh wires the probe into the m32, asan-ubsan and msan stages
for want in 'probed_stage m32 i386' 'probed_stage asan-ubsan asan' 'probed_stage msan msan' 'source ci/probe.sh'; do
    if grep -qF "$want" "$root/ci/test.sh"; then echo "ok wired: $want"
    else echo "FAIL ci/test.sh lacks '$want'"; fails=$((fails + 1)); fi
done

((fails == 0)) || { echo "$fails failed"; exit 1; }
echo "all passed"
