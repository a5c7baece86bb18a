# ci/deps.sh: sourced by ci/setup-and-run.sh and ci/test.sh (bash).
# tfs_install_deps installs, with apt-get, the Debian 12 packages tfs needs
# that are missing; nothing is downloaded when all are present.

# Build and test tools.  clang + libclang-rt-14-dev: the asan-ubsan preset;
# libcmocka-dev + pkg-config: unit tests; libssl-dev: SHA-256 of fixtures;
# libjansson-dev: `tfs conform` (adapters' JSON, expected contents); perl:
# prove / TAP::Parser for the TAP report test; python3-hypothesis: generators;
# valgrind: memory checks; time: /usr/bin/time for bench/sparse.sh;
# clang-format: ci/format-check.sh (.clang-format).
TFS_DEB_PACKAGES=(make cmake gcc clang libclang-rt-14-dev libcmocka-dev libssl-dev libjansson-dev pkg-config
    perl valgrind python3 python3-hypothesis time ca-certificates clang-format)
# afl++ (afl-clang-fast, afl-fuzz): the AFL++ smoke run of mutators/ (tests/mutators/afl_smoke.sh)
TFS_DEB_PACKAGES+=(afl++)
# afl++ again (AFL++ builds of fuzz/), llvm (llvm-profdata, llvm-cov), zip, unzip:
# the fuzz stage (ci/oss-fuzz-emulate.sh: AFL++ builds, OSS-Fuzz seed zips)
# and fuzz/coverage.sh
TFS_DEB_PACKAGES+=(llvm zip unzip)

tfs_log() { printf '== %s\n' "$*"; }

tfs_install_deps() {
    local missing=() p
    for p in "${TFS_DEB_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}\n' "$p" 2> /dev/null | grep -q '^install ok installed' || missing+=("$p")
    done
    # Node.js and npm (the ggml differential test installs its parser from npm):
    # only when the commands are missing, so a Node.js from elsewhere is kept.
    command -v node > /dev/null || missing+=(nodejs)
    command -v npm > /dev/null || missing+=(npm)
    if ((${#missing[@]} == 0)); then
        tfs_log "Debian packages: all present"
        return 0
    fi
    tfs_log "Debian packages to install: ${missing[*]}"
    local sudo=()
    if ((EUID != 0)); then
        command -v sudo > /dev/null || { echo "ci/deps.sh: run as root (or install sudo) to install: ${missing[*]}" >&2; return 1; }
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# tfs_npm_ggml DIR: installs ggml's GGUF reader as shipped by npm
# (@node-llama-cpp/linux-x64 3.22.1: bins/linux-x64/libggml-base.so) into
# DIR/node_modules, and exports TFS_GGML_LIB for the differential tests.
# Returns non-zero when npm fails (the caller decides).
TFS_NPM_GGML=@node-llama-cpp/linux-x64@3.22.1
tfs_npm_ggml() {
    local dir=$1
    local pkg=$dir/node_modules/@node-llama-cpp/linux-x64
    local lib=$pkg/bins/linux-x64/libggml-base.so
    if ! [[ -f $lib ]] || ! grep -q '"version": *"3.22.1"' "$pkg/package.json" 2> /dev/null; then
        tfs_log "npm install $TFS_NPM_GGML into $dir"
        mkdir -p "$dir"
        npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "$TFS_NPM_GGML" || return 1
    fi
    [[ -f $lib ]] || { echo "ci/deps.sh: $lib missing after npm install" >&2; return 1; }
    export TFS_GGML_LIB=$(cd "$(dirname "$lib")" && pwd)/libggml-base.so
    tfs_log "TFS_GGML_LIB=$TFS_GGML_LIB"
}

# tfs_install_i386_deps: what the m32 preset needs on an amd64 Debian 12:
# gcc-multilib and the i386 development packages of cmocka, OpenSSL and jansson
# (dpkg --add-architecture i386).  Nothing is downloaded when all are present.
# A library that is Multi-Arch: same (libssl3, libssl-dev) must have one
# version in both architectures; when a mirror's i386 index lags behind the
# amd64 one, the plain install fails, and both architectures are then pinned
# to the i386 candidate version.  Returns non-zero when it cannot install.
TFS_I386_PACKAGES=(gcc-multilib libcmocka-dev:i386 libssl-dev:i386 libjansson-dev:i386)
tfs_install_i386_deps() {
    local missing=() p
    for p in "${TFS_I386_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}\n' "$p" 2> /dev/null | grep -q '^install ok installed' || missing+=("$p")
    done
    if ((${#missing[@]} == 0)); then
        tfs_log "i386 packages: all present"
        return 0
    fi
    tfs_log "i386 packages to install: ${missing[*]}"
    local sudo=()
    if ((EUID != 0)); then
        command -v sudo > /dev/null || { echo "ci/deps.sh: run as root (or install sudo) to install: ${missing[*]}" >&2; return 1; }
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! dpkg --print-foreign-architectures | grep -qx i386; then
        "${sudo[@]}" dpkg --add-architecture i386 || return 1
    fi
    # an index that fails to download is reported and ignored by apt; the install below decides
    "${sudo[@]}" apt-get update -q || true
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" && return 0
    local pins=() v
    for p in libssl3 libssl-dev; do
        v=$(apt-cache policy "$p:i386" | awk '/Candidate:/ {print $2}')
        [[ -n $v && $v != "(none)" ]] || return 1
        pins+=("$p=$v" "$p:i386=$v")
    done
    tfs_log "i386: pinning OpenSSL to one version in both architectures: ${pins[*]}"
    "${sudo[@]}" apt-get install -y -q --no-install-recommends --allow-downgrades gcc-multilib libcmocka-dev:i386 \
        libjansson-dev:i386 "${pins[@]}"
}
