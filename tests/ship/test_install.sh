#!/bin/sh
# test_install.sh BUILD_DIR SOURCE_DIR CC POSIX(ON|OFF) TOOLS(ON|OFF) [CFLAGS...]
#
# libtfs as an outside project sees it:
#   1. `cmake --install BUILD_DIR --prefix TMP` (the build as it is);
#   2. the installed tree: headers, libtfs.a, libtfs.so.X.Y.Z with SONAME
#      libtfs.so.X, tfsConfig.cmake + tfsConfigVersion.cmake, tfs.pc, bin/tfs;
#   3. examples/consumer configured with find_package(tfs) against TMP only,
#      built (tfs::tfs and tfs::tfs_static) and run on fixtures: the verdicts
#      it prints are checked;
#   4. pkg-config (PKG_CONFIG_PATH=TMP/.../pkgconfig): --modversion, --cflags,
#      --libs, and a one-file program compiled with nothing else, then run;
#   5. the mutators: libtfs_mutator.a, tfs/tfs_mutator_libfuzzer.o,
#      tfs/libtfs_afl_mutator.so installed; examples/fuzz_target through
#      find_package(tfs): mutate_once (tfs::mutator) mutates a fixture, and
#      with clang + libFuzzer, toy_fuzzer (only LLVMFuzzerTestOneInput of its
#      own + tfs::mutator_libfuzzer) runs with the tfs mutator, whose code is
#      not coverage-instrumented; pkg-config tfs-mutator compiles mutate_once.c;
#   6. (tools, POSIX) the conformance suite from the package: the installed
#      share/tfs/conformance, tfs_add_conformance_tests() in examples/consumer
#      (its toy reader and toy.xfail): its ctests all pass, `ctest -L GG304`
#      selects the toy's expected failures, --output-junit has one testcase per
#      fixture, and without toy.xfail those fixtures fail.
# TFS_INSTALL_PART=lib (1-5 but the suite) or suite (1-3 and 6) runs a part,
# so that ctest runs the two at once (test_install_consumer_lib, _suite:
# the consumer's ctest is one test per GGUF fixture); default: all.
set -eu
part=${TFS_INSTALL_PART:-all}
build=$1 src=$2 cc=$3 posix=$4 tools=$5
shift 5
cflags="$*"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}

prefix=$tmp/prefix
if cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1; then ok "cmake --install"; else cat "$tmp/install.log"; ko "cmake --install"; finish; fi

# ---- the installed tree
version=$(sed -n 's/^#define TFS_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/tfs/version.h")
major=${version%%.*}
libdir=$(dirname "$(find "$prefix" -name "libtfs.so.$version" | head -1)")
for f in include/tfs/tfs.h include/tfs/export.h include/tfs/rules.h include/tfs/platform.h include/tfs/version.h \
         include/tfs/rules.def include/tfs/st_dtypes.def include/tfs/gg_types.def; do
    if [ -f "$prefix/$f" ]; then ok "installed $f"; else ko "missing $f"; fi
done
if [ -n "$version" ] && [ -f "$libdir/libtfs.so.$version" ] && [ -f "$libdir/libtfs.a" ] \
   && [ -L "$libdir/libtfs.so.$major" ] && [ -L "$libdir/libtfs.so" ]; then
    ok "libtfs.a, libtfs.so.$version, libtfs.so.$major, libtfs.so in ${libdir#$prefix/}"
else
    ko "libraries in ${libdir:-?}: $(ls "$libdir" 2> /dev/null | tr '\n' ' ')"
fi
soname=$(objdump -p "$libdir/libtfs.so.$version" 2> /dev/null | awk '$1 == "SONAME" {print $2}')
if [ "$soname" = "libtfs.so.$major" ]; then ok "SONAME $soname"; else ko "SONAME '$soname', want libtfs.so.$major"; fi
for f in tfsConfig.cmake tfsConfigVersion.cmake tfsTargets.cmake; do
    if [ -f "$libdir/cmake/tfs/$f" ]; then ok "installed cmake/tfs/$f"; else ko "missing $libdir/cmake/tfs/$f"; fi
done
if [ -f "$libdir/pkgconfig/tfs.pc" ]; then ok "installed tfs.pc"; else ko "missing tfs.pc"; fi
if [ "$tools" = ON ]; then
    if "$prefix/bin/tfs" --version > "$tmp/v" 2>&1 && grep -q "$version" "$tmp/v"; then ok "bin/tfs --version: $(cat "$tmp/v")"
    else ko "bin/tfs --version: $(cat "$tmp/v" 2> /dev/null)"; fi
    for f in share/man/man1/tfs.1 share/bash-completion/completions/tfs; do
        if [ -f "$prefix/$f" ]; then ok "installed $f"; else ko "missing $f"; fi
    done
fi

# ---- examples/consumer through find_package(tfs), against the prefix only
cb=$tmp/consumer
if cmake -S "$src/examples/consumer" -B "$cb" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags" \
        > "$tmp/cfg.log" 2>&1 \
   && cmake --build "$cb" > "$tmp/build.log" 2>&1; then
    ok "examples/consumer: find_package(tfs) + tfs::tfs, tfs::tfs_static"
    grep -q "tfs_DIR:PATH=$prefix" "$cb/CMakeCache.txt" && ok "found the installed package ($(sed -n 's/^tfs_DIR:PATH=//p' "$cb/CMakeCache.txt"))" \
        || ko "tfs_DIR is not under the prefix: $(grep '^tfs_DIR' "$cb/CMakeCache.txt")"
    # the shared one runs against the installed libtfs.so (RUNPATH from the imported target)
    if ldd "$cb/tfs_consumer" 2> /dev/null | grep -q "$libdir/libtfs.so.$major"; then ok "tfs_consumer loads $libdir/libtfs.so.$major"
    else ko "tfs_consumer does not load the installed libtfs: $(ldd "$cb/tfs_consumer" 2>&1 | grep tfs)"; fi
    for exe in tfs_consumer tfs_consumer_static; do
        set +e
        "$cb/$exe" "$src/corpus/gguf/valid-every-type.gguf" "$src/corpus/gguf/GG204-G1-n-dims-5.gguf" \
            "$src/corpus/safetensors/ST402-value-number.safetensors" > "$tmp/out" 2>&1
        rc=$?
        set -e
        cat "$tmp/out"
        if [ "$rc" -eq 1 ] && grep -q "^libtfs $version (headers $version)" "$tmp/out" \
           && grep -q "valid-every-type.gguf: valid gguf" "$tmp/out" \
           && grep -q "GG204-G1-n-dims-5.gguf: invalid gguf: GG204 BAD_N_DIMS at offset [0-9]* (index 0, counts tensor)" "$tmp/out" \
           && grep -q "ST402-value-number.safetensors: invalid safetensors: ST402 .*counts metadata" "$tmp/out"; then
            ok "$exe verdicts"
        else
            ko "$exe verdicts (exit $rc)"
        fi
    done
else
    cat "$tmp/cfg.log" "$tmp/build.log" 2> /dev/null | tail -40
    ko "examples/consumer configure/build"
fi

# ---- the conformance suite through the package (needs `tfs conform`: tools + POSIX)
if [ "$part" != lib ] && [ "$tools" = ON ] && [ "$posix" = ON ] && [ -f "$cb/CTestTestfile.cmake" ]; then
    cdir=$prefix/share/tfs/conformance
    if [ -f "$cdir/gguf/MANIFEST.tsv" ] && [ -f "$cdir/README.md" ] && [ -d "$cdir/gguf/expected" ] \
       && [ -f "$libdir/cmake/tfs/tfsConformance.cmake" ]; then ok "installed share/tfs/conformance and tfsConformance.cmake"
    else ko "conformance suite not installed"; fi
    n=$(ctest --test-dir "$cb" -N -R '^toy/' | sed -n 's/^Total Tests: //p')
    # the same selection as the runner's: its --list of the GGUF cases in the default profile
    want=$("$prefix/bin/tfs" conform --fixtures "$cdir" --format gguf --profile default --list | wc -l)
    if [ "${n:-0}" -gt 100 ] && [ "$n" -eq "$want" ]; then ok "tfs_add_conformance_tests: $n toy/ tests (the runner selects $want GGUF cases)"
    else ko "tfs_add_conformance_tests registered ${n:-0} tests, want $want"; fi
    if ctest --test-dir "$cb" -j2 --output-junit "$tmp/junit.xml" > "$tmp/ctest.log" 2>&1; then
        ok "consumer ctest: $(grep 'tests passed' "$tmp/ctest.log")"
    else
        grep -E 'Failed|\*\*\*' "$tmp/ctest.log" | head -20
        ko "consumer ctest"
    fi
    if /usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
cases = r.iter("testcase")
names = [c.get("name") for c in cases]
sys.exit(0 if len(names) == int(sys.argv[2]) and "toy/default/gguf/parser_error/GG304-no-data" in names else 1)' "$tmp/junit.xml" "$n"
    then ok "--output-junit: $n testcases, named by profile/format/expectation/id"; else ko "JUnit from the consumer's ctest"; fi
    l=$(ctest --test-dir "$cb" -N -L GG304 | sed -n 's/^Total Tests: //p')
    if [ "$l" = "$(grep -c '^GG304' "$src/examples/consumer/toy.xfail")" ]; then ok "ctest -L GG304: $l tests (the toy's gap)"; else ko "ctest -L GG304: $l tests"; fi
    # the gap is real: without toy.xfail the runner fails those fixtures
    if "$prefix/bin/tfs" conform --fixtures "$cdir" --id GG304-no-data --adapter "$cb/toy_adapter {file}" > "$tmp/x.log" 2>&1; then
        ko "the toy passes GG304-no-data without toy.xfail"
    elif grep -q false_accept "$tmp/x.log"; then ok "without toy.xfail GG304-no-data fails (false_accept)"
    else cat "$tmp/x.log"; ko "GG304-no-data without toy.xfail"; fi
fi

[ "$part" = suite ] && finish

# ---- the mutators and examples/fuzz_target
for f in "$libdir/libtfs_mutator.a" "$prefix/include/tfs/mutate.h" "$libdir/tfs/tfs_mutator_libfuzzer.o" \
         "$libdir/pkgconfig/tfs-mutator.pc"; do
    if [ -f "$f" ]; then ok "installed ${f#$prefix/}"; else ko "missing ${f#$prefix/}"; fi
done
if [ "$posix" = ON ]; then
    if [ -f "$libdir/tfs/libtfs_afl_mutator.so" ]; then ok "installed ${libdir#$prefix/}/tfs/libtfs_afl_mutator.so"
    else ko "missing libtfs_afl_mutator.so"; fi
fi
# the ready object exports the two entry points and nothing else
glob=$(nm -g --defined-only "$libdir/tfs/tfs_mutator_libfuzzer.o" 2> /dev/null | awk '{print $3}' | sort | tr '\n' ' ')
if [ "$glob" = "LLVMFuzzerCustomCrossOver LLVMFuzzerCustomMutator " ]; then ok "tfs_mutator_libfuzzer.o defines only: $glob"
else ko "tfs_mutator_libfuzzer.o defines: $glob"; fi
fb=$tmp/fuzz_target
fcc=$cc
command -v clang > /dev/null 2>&1 && fcc=clang
if cmake -S "$src/examples/fuzz_target" -B "$fb" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
        -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF -DCMAKE_C_COMPILER="$fcc" -DCMAKE_C_FLAGS="$cflags" \
        > "$tmp/fcfg.log" 2>&1 && cmake --build "$fb" > "$tmp/fbuild.log" 2>&1; then
    ok "examples/fuzz_target: find_package(tfs) + tfs::mutator ($fcc)"
    if "$fb/mutate_once" "$src/corpus/gguf/valid-every-type.gguf" "$tmp/m.gguf" 7 calc > "$tmp/m.out" 2>&1 \
       && grep -qE '^gguf [0-9]+ -> [0-9]+ bytes: calc\.[a-z_0-9]+' "$tmp/m.out" \
       && ! cmp -s "$src/corpus/gguf/valid-every-type.gguf" "$tmp/m.gguf"; then
        ok "mutate_once (family calc): $(cat "$tmp/m.out")"
    else
        cat "$tmp/m.out"; ko "mutate_once"
    fi
    if [ -x "$fb/toy_fuzzer" ]; then
        mkdir -p "$tmp/fz"
        cp "$src/corpus/gguf/valid-every-type.gguf" "$tmp/fz/"
        if (cd "$tmp" && TFS_MUTATOR_TRACE="$tmp/trace" "$fb/toy_fuzzer" -runs=3000 -seed=1 fz > "$tmp/fz.log" 2>&1); then
            edges=$(sed -nE 's/.*\(([0-9]+) inline 8-bit counters\).*/\1/p' "$tmp/fz.log" | head -1)
            last=$(head -1 "$tmp/trace" 2> /dev/null || true)
            # TFS_MUTATOR_TRACE is a POSIX build's (a TFS_POSIX=OFF mutator has no file I/O)
            [ "$posix" = OFF ] && [ -z "$last" ] && last="crossover (no trace: TFS_POSIX=OFF)"
            # the toy has a few dozen edges; an instrumented mutator would add thousands
            if [ -n "$edges" ] && [ "$edges" -lt 200 ] && echo "$last" | grep -qE '^([a-z]+\.[a-z_0-9A-Z]+|crossover)'; then
                ok "toy_fuzzer ran 3000 inputs with the tfs mutator ($edges instrumented edges: the toy's only; last chain $last)"
            else
                tail -5 "$tmp/fz.log"; ko "toy_fuzzer: edges '${edges:-?}', trace '$last'"
            fi
        else
            tail -20 "$tmp/fz.log"; ko "toy_fuzzer run"
        fi
    else
        echo "skip: toy_fuzzer not built (needs clang with -fsanitize=fuzzer)"
    fi
else
    cat "$tmp/fcfg.log" "$tmp/fbuild.log" 2> /dev/null | tail -30
    ko "examples/fuzz_target configure/build"
fi

# ---- pkg-config against the prefix
export PKG_CONFIG_PATH=$libdir/pkgconfig
unset PKG_CONFIG_LIBDIR 2> /dev/null || true
if command -v pkg-config > /dev/null; then
    mv=$(pkg-config --modversion tfs 2>&1 || true)
    if [ "$mv" = "$version" ]; then ok "pkg-config --modversion tfs: $mv"; else ko "pkg-config --modversion tfs: '$mv'"; fi
    pcflags=$(pkg-config --cflags --libs tfs 2>&1 || true)
    echo "pkg-config --cflags --libs tfs: $pcflags"
    # relocatable: the paths resolve to the prefix, not to the build's CMAKE_INSTALL_PREFIX
    inc=$(pkg-config --variable=includedir tfs)
    lib=$(pkg-config --variable=libdir tfs)
    if [ -f "$inc/tfs/tfs.h" ] && [ -f "$lib/libtfs.so.$version" ]; then ok "tfs.pc paths point into the prefix"
    else ko "tfs.pc: includedir=$inc libdir=$lib"; fi
    case " $pcflags " in *" -ltfs "*) ok "pkg-config --libs has -ltfs" ;; *) ko "pkg-config --libs: $pcflags" ;; esac
    extra=
    [ "$posix" = OFF ] && extra=$src/examples/consumer/seed.c
    # shellcheck disable=SC2086
    if "$cc" $cflags -std=c11 -o "$tmp/pc_main" "$src/examples/consumer/pc_main.c" $extra $pcflags -Wl,-rpath,"$lib" \
            > "$tmp/cc.log" 2>&1 && "$tmp/pc_main" > "$tmp/pc.out" 2>&1; then
        ok "cc pc_main.c \$(pkg-config --cflags --libs tfs): $(cat "$tmp/pc.out")"
    else
        cat "$tmp/cc.log" "$tmp/pc.out" 2> /dev/null
        ko "pkg-config compile and run"
    fi
    extra=
    [ "$posix" = OFF ] && extra=$src/examples/consumer/seed.c
    # shellcheck disable=SC2086
    if "$cc" $cflags -std=c11 -o "$tmp/mutate_once_pc" "$src/examples/fuzz_target/mutate_once.c" $extra \
            $(pkg-config --cflags --libs tfs-mutator) > "$tmp/mcc.log" 2>&1 \
       && "$tmp/mutate_once_pc" "$src/corpus/gguf/valid-every-type.gguf" "$tmp/m2.gguf" 7 calc > "$tmp/m2.out" 2>&1 \
       && cmp -s "$tmp/m.gguf" "$tmp/m2.gguf"; then
        ok "cc mutate_once.c \$(pkg-config --cflags --libs tfs-mutator): same bytes as the CMake build"
    else
        cat "$tmp/mcc.log" "$tmp/m2.out" 2> /dev/null
        ko "pkg-config tfs-mutator compile and run"
    fi
else
    ko "pkg-config not installed"
fi
finish
