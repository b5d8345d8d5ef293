#!/bin/bash -eu
# OSS-Fuzz's build script for toolnorm. The list of targets lives in the
# repository, in .clusterfuzzlite/build.sh, which ClusterFuzzLite runs too:
# a new fuzz target needs no change in google/oss-fuzz.
bash "$SRC/toolnorm/.clusterfuzzlite/build.sh"
