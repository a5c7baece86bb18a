#!/bin/sh
# test_minimal_build.sh SOURCE_DIR CC [CFLAGS...]
# `cmake -S . -B b -DTFS_BUILD_TESTS=OFF` configures and builds where none of
# the test dependencies exist: pkg-config, cmocka, OpenSSL and Python are
# made unfindable (PKG_CONFIG_EXECUTABLE and TFS_PYTHON3 point nowhere,
# PKG_CONFIG_LIBDIR is empty, find_package(PkgConfig / OpenSSL / Python*)
# are disabled, so any attempt to use them fails the configure), with the
# dev preset's variables (none of them unused: no CMake warning).  The
# library, the tfs binary and the bench are built; the binary runs.
set -eu
src=$1 cc=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PKG_CONFIG_LIBDIR=/nonexistent PKG_CONFIG_PATH=/nonexistent
# Debug (-O0): what is checked is what the configure finds and what links;
# the optimised build is the README's first command (ci/setup-and-run.sh).
# web/ (tfs.wasm, one clang run of ~30 s that needs none of the test
# dependencies) is left out: the dev stage builds and tests it.
if ! cmake -S "$src" -B "$tmp/b" -DTFS_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$*" \
        -DPKG_CONFIG_EXECUTABLE=/nonexistent/pkg-config -DTFS_PYTHON3=/nonexistent/python3 -DTFS_FORMAT_CHECK=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON \
        -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON -DCMAKE_DISABLE_FIND_PACKAGE_Python=ON -DTFS_BUILD_WEB=OFF \
        > "$tmp/cfg.log" 2>&1; then
    cat "$tmp/cfg.log"
    echo "FAIL: configure with TFS_BUILD_TESTS=OFF and no test dependencies"
    echo "0 passed, 1 failed"
    exit 1
fi
# the dev preset's variables (TFS_FORMAT_CHECK among them) are all read with
# the tests off: no TFS_ variable in CMake's "Manually-specified variables
# were not used" warning (this script's own find-package switches may be)
if grep -A20 "not used by the project" "$tmp/cfg.log" | grep -q "^ *TFS_"; then
    cat "$tmp/cfg.log"
    echo "FAIL: configure with TFS_BUILD_TESTS=OFF warns of unused variables"
    echo "0 passed, 1 failed"
    exit 1
fi
if ! cmake --build "$tmp/b" -j2 > "$tmp/build.log" 2>&1; then
    tail -40 "$tmp/build.log"
    echo "FAIL: build with TFS_BUILD_TESTS=OFF"
    echo "0 passed, 1 failed"
    exit 1
fi
if ! "$tmp/b/tools/tfs" check "$src/corpus/gguf/valid-every-type.gguf" > "$tmp/out" 2>&1 || ! grep -q ": valid" "$tmp/out"; then
    cat "$tmp/out"
    echo "FAIL: tools/tfs of the minimal build"
    echo "0 passed, 1 failed"
    exit 1
fi
ls "$tmp/b/parsers/"libtfs.* | sed 's#.*/#built #'
echo "configured and built without pkg-config, cmocka, OpenSSL, Python"
echo "1 passed, 0 failed"
