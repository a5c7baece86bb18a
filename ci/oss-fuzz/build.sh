#!/bin/bash -eu
# ci/oss-fuzz/build.sh: builds the tfs fuzz targets under the OSS-Fuzz build
# contract (also used by .clusterfuzzlite/build.sh and, with the variables
# set by hand, by ci/oss-fuzz-emulate.sh).
#
# In:  $CC $CXX $CFLAGS $CXXFLAGS (sanitizer and coverage flags included),
#      $LIB_FUZZING_ENGINE (the engine's link flags or archive), $SRC (the
#      project is $SRC/tfs, or $TFS_SRC), $OUT, $WORK, optional
#      $FUZZING_ENGINE (libfuzzer, afl, honggfuzz, centipede; AFL++ gets no
#      structure-aware libFuzzer forms: it uses the tfs_afl_mutator library).
# Out: $OUT/fuzz_<format>_<kind> for every target of fuzz/ (libFuzzer
#      ABI, linked with $CXX), $OUT/fuzz_<format>_<kind>_sa (the same with
#      tfs's LLVMFuzzerCustomMutator), and beside each binary X:
#      X_seed_corpus.zip (fuzz/seed_corpus.sh: the format's fixtures and real
#      files up to 1 MiB), X.dict (fuzz/dict/), X.options (max_len).
#      With FUZZING_ENGINE=afl, $OUT/libtfs_afl_mutator.so: the AFL++ custom
#      mutator (AFL_CUSTOM_MUTATOR_LIBRARY), built without instrumentation.
src=${TFS_SRC:-$SRC/tfs}
build=$WORK/tfs-fuzz-build
engine=${FUZZING_ENGINE:-libfuzzer}
tfs_engine=ossfuzz
[[ $engine == afl ]] && tfs_engine=afl # no _sa forms
jobs=$(nproc 2> /dev/null || echo 2)

cmake -S "$src" -B "$build" \
    -DCMAKE_BUILD_TYPE= \
    -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
    -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_TOOLS=OFF -DTFS_BUILD_BENCH=OFF -DTFS_INSTALL=OFF \
    -DTFS_WERROR=OFF -DTFS_SANITIZE=OFF \
    -DTFS_FUZZ_ENGINE=$tfs_engine -DTFS_FUZZ_ENGINE_FLAGS="$LIB_FUZZING_ENGINE"
# TFS_FUZZ_TARGETS (not an OSS-Fuzz variable): build only these engine forms
# (e.g. "fuzz_gguf_buffer_fuzzer fuzz_st_buffer_fuzzer"); default every one
read -ra fuzz_targets <<< "${TFS_FUZZ_TARGETS:-tfs_fuzzers}"
cmake --build "$build" -j "$jobs" --target "${fuzz_targets[@]}"

# bytes: past the 64 KiB read window (TFS_WINDOW), so window edges are reached
# (corpus/gguf/GG130-bool-array-past-eof-window-strict, found at 262,144), and
# GG505 (a key over 65,535 bytes) can be; the mutator keeps most inputs small
max_len=131072
declare -A zipped=()
for bin in "$build"/fuzzers/*_fuzzer; do
    name=$(basename "$bin" _fuzzer) # fuzz_gguf_buffer, fuzz_gguf_buffer_sa
    case $name in
    fuzz_gguf_*) fmt=gguf ;;
    fuzz_st_*) fmt=safetensors ;;
    *) continue ;;
    esac
    cp "$bin" "$OUT/$name"
    cp "$src/fuzz/dict/$fmt.dict" "$OUT/$name.dict"
    printf '[libfuzzer]\nmax_len = %d\ndict = %s.dict\n' "$max_len" "$name" > "$OUT/$name.options"
    # one seed folder and one zip per format, copied beside each of its targets
    # (made anew on every run: $WORK may keep an older corpus's)
    seeds=$WORK/seeds-$fmt
    if [[ -z ${zipped[$fmt]:-} ]]; then
        rm -rf "$seeds" "$seeds.zip"
        TFS_SEED_COPY=1 "$src/fuzz/seed_corpus.sh" "$fmt" "$seeds" 1048576 > /dev/null
        (cd "$seeds" && zip -q -r "$seeds.zip" .)
        zipped[$fmt]=1
    fi
    cp "$seeds.zip" "$OUT/${name}_seed_corpus.zip"
done
# AFL++: the custom mutator is loaded by afl-fuzz itself (dlopen), a program
# without sanitizer runtimes, so it is built without the target's
# instrumentation or sanitizers (plain clang or cc).  CMake takes CFLAGS /
# LDFLAGS from the environment for a fresh build tree: OSS-Fuzz's
# (-fsanitize=address ...) would leave __asan_* symbols undefined in the .so
# and afl-fuzz would refuse it ("undefined symbol:
# __asan_option_detect_stack_use_after_return"), so they are cleared here.
if [[ $engine == afl ]]; then
    mcc=$(command -v clang || command -v cc)
    env -u CFLAGS -u CXXFLAGS -u LDFLAGS -u CPPFLAGS -u AFL_LLVM_CMPLOG \
        cmake -S "$src" -B "$WORK/tfs-mutator-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$mcc" \
        -DCMAKE_C_FLAGS= -DCMAKE_SHARED_LINKER_FLAGS= -DTFS_SANITIZE=OFF \
        -DTFS_BUILD_TESTS=OFF -DTFS_BUILD_TOOLS=OFF -DTFS_BUILD_BENCH=OFF -DTFS_BUILD_FUZZ=OFF -DTFS_INSTALL=OFF
    cmake --build "$WORK/tfs-mutator-build" -j "$jobs" --target tfs_afl_mutator
    so=$WORK/tfs-mutator-build/mutators/libtfs_afl_mutator.so
    # no sanitizer runtime symbol may be left for the loader
    if nm -D --undefined-only "$so" | grep -E '__(a|ub|m)san_|__sanitizer_'; then
        echo "build.sh: $so needs a sanitizer runtime afl-fuzz does not have" >&2
        exit 1
    fi
    cp "$so" "$OUT/"
fi
