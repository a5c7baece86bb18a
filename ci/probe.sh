# ci/probe.sh: sourced by ci/test.sh (bash).  What this machine can run, so a
# stage whose runtime is missing still configures and builds (compile errors
# are caught) and reports its tests as skipped instead of failed.
#
# tfs_probe_runtime NAME: returns 0 when this machine can execute a trivial
#   program built for the runtime NAME, 1 otherwise, with TFS_PROBE_WHY set to
#   one line saying why.  NAME and what is built (`int main(void){return 0;}`):
#     i386  $TFS_I386_CC (gcc) $TFS_I386_CFLAGS (-m32): the m32 stage.  A kernel
#           without 32-bit emulation (x86_64 Linux booted with
#           ia32_emulation=false, or built without CONFIG_IA32_EMULATION)
#           refuses it: "Exec format error", exit 126;
#     asan  clang -fsanitize=address,undefined: the asan-ubsan stage;
#     msan  clang -fsanitize=memory: the msan stage (MemorySanitizer cannot
#           start on some kernels' memory layouts).
#   TFS_FORCE_NO_<NAME>=1 (TFS_FORCE_NO_I386, TFS_FORCE_NO_ASAN,
#   TFS_FORCE_NO_MSAN) answers "cannot" without trying, to exercise the skip
#   path on a machine that can.  A trivial program that does not even build
#   also answers "cannot": the stage's own build then fails and is counted.
#
# tfs_ctest_count FILE: prints the number of tests in FILE, the output of
#   `ctest -N` ("Total Tests: N"); prints nothing when FILE has no count.

tfs_probe_runtime() {
    local name=$1 force cc cflags dir rc
    TFS_PROBE_WHY=
    force=TFS_FORCE_NO_${name^^}
    if [[ ${!force:-0} == 1 ]]; then
        TFS_PROBE_WHY="$force=1 is set"
        return 1
    fi
    case $name in
        i386) cc=${TFS_I386_CC:-gcc} cflags=${TFS_I386_CFLAGS--m32} ;;
        asan) cc=clang cflags="-fsanitize=address,undefined" ;;
        msan) cc=clang cflags="-fsanitize=memory" ;;
        *)
            TFS_PROBE_WHY="unknown runtime '$name'"
            return 1
            ;;
    esac
    dir=$(mktemp -d "${TMPDIR:-/tmp}/tfs-probe.XXXXXX") || {
        TFS_PROBE_WHY="cannot create a temporary folder for the $name probe"
        return 1
    }
    printf 'int main(void) { return 0; }\n' > "$dir/probe.c"
    # shellcheck disable=SC2086 # cflags is a word list on purpose
    if ! "$cc" $cflags -o "$dir/probe" "$dir/probe.c" > "$dir/cc.log" 2>&1; then
        TFS_PROBE_WHY="'$cc $cflags' cannot build a trivial program: $(head -1 "$dir/cc.log")"
        rm -rf "$dir"
        return 1
    fi
    "$dir/probe" > "$dir/run.log" 2>&1
    rc=$?
    if ((rc == 126)); then
        TFS_PROBE_WHY="this machine cannot execute $name programs (exit 126, Exec format error: for i386, a kernel without 32-bit emulation)"
    elif ((rc != 0)); then
        TFS_PROBE_WHY="a trivial $name program exits $rc instead of 0: $(head -1 "$dir/run.log")"
    fi
    rm -rf "$dir"
    ((rc == 0))
}

tfs_ctest_count() {
    sed -n -E 's/^Total Tests: ([0-9]+).*/\1/p' "$1" | tail -1
}
