#!/bin/bash -eu
# Builds toolnorm's native Go fuzz targets as libFuzzer binaries, for
# ClusterFuzzLite (.clusterfuzzlite/Dockerfile) and OSS-Fuzz (ossfuzz/), in
# the base-builder-go image: $SRC, $OUT, $SANITIZER, $CXX, $CXXFLAGS and
# $LIB_FUZZING_ENGINE come from there, and so does compile_native_go_fuzzer,
# which runs go-118-fuzz-build and links the archive with libFuzzer.
# scripts/ossfuzz-local.sh runs this file the same way on a machine without
# Docker. It changes the tree it builds (go.mod, fuzz/fuzz_test.go, helper
# copies): run it only in a throwaway copy, as those do.
#
# The targets are the build_target lines below, one per native fuzz target
# (func FuzzX(f *testing.F) in a _test.go file), and the skip_target lines
# name those go-118-fuzz-build cannot run. fuzz/buildsh_test.go holds the
# two lists, together, equal to the fuzz targets in the code.
#
# Binary names: a target of package fuzz keeps its function's name, a target
# of another package is <package>_<function> (FuzzDecode and FuzzNormalize
# exist twice). `toolnorm corpus export --format ossfuzz` writes a seed
# corpus <binary>_seed_corpus.zip for every binary (corpus.SeedTargets), in
# the encoding its fuzz function's arguments are read in;
# fuzz/buildsh_test.go holds that list to the build_target lines.

set -eu -o pipefail # also when run as `bash build.sh`
cd "${TOOLNORM_SRC:-$SRC/toolnorm}"

# go.mod asks for Go 1.26: let an older go in the image fetch that toolchain
# through the module proxy.
export GOTOOLCHAIN=auto

# The go-118-fuzz-build that compile_native_go_fuzzer runs and the testing
# package it puts in place of "testing" must be one version: install both,
# pinned.
go118=github.com/AdamKorcz/go-118-fuzz-build@v0.0.0-20250520111509-a70c2aa677fa
go install "$go118"
go get "github.com/AdamKorcz/go-118-fuzz-build/testing@${go118#*@}"

# toolnorm itself, for the seed corpora (pure Go: no sanitizer flags).
WORK=${WORK:-$(mktemp -d)}
CGO_ENABLED=0 go build -o "$WORK/toolnorm" ./cmd/toolnorm

# go-118-fuzz-build calls the whole FuzzX function for every input, f.Add
# calls included (they do nothing there). skip_seed_loader makes a seed
# loader return at once: addCorpusSeeds decodes the ~5,000 vectors of the
# embedded corpus, which would cost a second per input. The seed corpus zips
# carry the same cases.
skip_seed_loader() {
	local file=$1 func=$2
	local line="func $func(f *testing.F) {"
	if ! grep -qxF "$line" "$file"; then
		echo "build.sh: no line '$line' in $file: update skip_seed_loader" >&2
		exit 1
	fi
	sed -i "s/^func $func(f \*testing\.F) {\$/&\n\treturn \/\/ build.sh: f.Add does nothing under libFuzzer/" "$file"
}

# go-118-fuzz-build compiles the package without its _test.go files, except
# the one that holds the target (rewritten to its own testing package).
# expose_test_files copies the package's other _test.go files (those of the
# package itself, not of package x_test) to *_libfuzzer.go with the same
# rewrite, so that the target finds the helpers it shares with them. Files
# with benchmarks are left out: go-118-fuzz-build's testing has no B.
expose_test_files() {
	local dir=$1 func=$2 f
	for f in "$dir"/*_test.go; do
		[ -e "$f" ] || continue
		grep -q "^func $func(" "$f" && continue
		grep -q '^package [A-Za-z0-9_]*_test$' "$f" && continue
		grep -Eq 'testing\.(B|TB|M|PB)\b' "$f" && continue
		sed -e 's#^\([[:space:]]*\)"testing"$#\1testing "github.com/AdamKorcz/go-118-fuzz-build/testing"#' \
			-e 's#^import "testing"$#import testing "github.com/AdamKorcz/go-118-fuzz-build/testing"#' \
			"$f" >"${f%_test.go}_libfuzzer.go"
	done
}

# build_target PACKAGE FUNCTION BINARY. TOOLNORM_ONLY, if set, is a list of
# the binaries to build (scripts/ossfuzz-local.sh uses it).
build_target() {
	local pkg=$1 func=$2 name=$3 dir
	if [[ -n ${TOOLNORM_ONLY:-} && " $TOOLNORM_ONLY " != *" $name "* ]]; then
		return 0
	fi
	dir=$(go list -tags gofuzz -f '{{.Dir}}' "$pkg")
	# The coverage build is `go test -c` on the package: no copies there.
	if [[ $SANITIZER != coverage ]]; then
		expose_test_files "$dir" "$func"
	fi
	compile_native_go_fuzzer "$pkg" "$func" "$name"
	rm -f "$dir"/*_libfuzzer.go
	# compile_native_go_fuzzer only prints a message when it finds no target.
	if [ ! -f "$OUT/$name" ]; then
		echo "build.sh: $pkg $func: no $OUT/$name" >&2
		exit 1
	fi
	cp .clusterfuzzlite/toolnorm.dict "$OUT/$name.dict"
}

# skip_target PACKAGE FUNCTION REASON: a target that is not built.
skip_target() {
	echo "build.sh: not building $1 $2: $3"
}

skip_seed_loader fuzz/fuzz_test.go addCorpusSeeds

m=github.com/toolnorm/toolnorm
build_target $m/fuzz FuzzNormalize FuzzNormalize
build_target $m/fuzz FuzzDifferential FuzzDifferential
build_target $m/fuzz FuzzDecode FuzzDecode
build_target $m/fuzz FuzzStructured FuzzStructured
skip_target $m/fuzz FuzzProperties "rapid.MakeFuzz hands f.Fuzz a func(*testing.T, []byte) of the standard testing package; go-118-fuzz-build's f.Fuzz calls it with its own *testing.T, and reflect panics on every input"
build_target $m/internal/entity FuzzDecode entity_FuzzDecode
build_target $m/internal/jsonraw FuzzScan jsonraw_FuzzScan
build_target $m/internal/jsonvalue FuzzSame jsonvalue_FuzzSame
build_target $m/internal/ecma FuzzPattern ecma_FuzzPattern
build_target $m/internal/ecma FuzzMatchLong ecma_FuzzMatchLong
build_target $m/oracle FuzzNormalize oracle_FuzzNormalize
build_target $m/oracle FuzzFixpoint oracle_FuzzFixpoint
build_target $m/oracle FuzzUnescapeAttributeSplit oracle_FuzzUnescapeAttributeSplit
build_target $m/corpus FuzzLoad corpus_FuzzLoad
build_target $m/normalize FuzzLiteralPrefix normalize_FuzzLiteralPrefix
build_target $m/harness FuzzCoverageMember harness_FuzzCoverageMember
skip_target $m/internal/gocover FuzzParse "its counter numbers are uint32s, which corpus.SeedTargets has no encoding for, and no corpus vector is Go counter data; go test -fuzz runs it"
skip_target $m/normalize FuzzHostile "it builds arguments of up to 1 MB from a size in a uint32, which corpus.EncodeLibFuzzerValues does not encode; go test -fuzz runs it"
skip_target $m/normalize FuzzCompileHostile "its size is a uint32, which corpus.SeedTargets has no encoding for; its inputs are shapes built from a few bytes, fuzzed nightly with go test -fuzz"

# Seed corpora, one per binary: every corpus vector the (schema, args,
# attribute, bound) targets can take, and for the others what those vectors
# give them (their texts with references, their JSON texts), as the
# libFuzzer inputs go-118-fuzz-build decodes.
"$WORK/toolnorm" corpus export --format ossfuzz --out "$OUT" corpus
chmod 644 "$OUT"/*_seed_corpus.zip
