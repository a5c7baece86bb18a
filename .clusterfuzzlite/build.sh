#!/bin/bash -eu
# ClusterFuzzLite build: the OSS-Fuzz build script of the repository.
exec "$SRC/tfs/ci/oss-fuzz/build.sh"
