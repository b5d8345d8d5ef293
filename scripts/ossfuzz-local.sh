#!/usr/bin/env bash
# Proves the OSS-Fuzz / ClusterFuzzLite build path on a machine without
# Docker: builds every fuzz target the way .clusterfuzzlite/build.sh does in
# base-builder-go (go-118-fuzz-build, then clang's libFuzzer), runs each
# binary for a few seconds on its seed corpus, and takes a crash file from a
# libFuzzer binary back into the corpus with `toolnorm corpus import
# --format libfuzzer`.
#
#   scripts/ossfuzz-local.sh              # FUZZ_SECONDS=5 per binary
#   KEEP=1 scripts/ossfuzz-local.sh       # keep the work directory
#
# It installs clang and clang's runtime (libFuzzer) with apt-get when they
# are missing (so it needs root, or sudo), and go-118-fuzz-build through the
# Go module proxy. It works in a temporary copy of the tree: build.sh edits
# the tree it builds. Not part of .ci/run, which does not install clang.
#
# The crash: a copy of FuzzDifferential with a planted failure (any input
# whose bound byte is 3 or more, which no seed has) is built and fuzzed until
# libFuzzer writes a crash file. The planted harness prints the input it got
# in the "go test fuzz v1" encoding too. Then:
#   - the real FuzzDifferential binary runs the crash file and passes;
#   - `toolnorm corpus import --format libfuzzer` adds it to a copy of the
#     corpus as a vector;
#   - `toolnorm corpus import --format gofuzz` of what the harness printed
#     finds that vector already there: both decoders read the same case;
#   - the reference replays the new vector, and `corpus lint` passes.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${FUZZ_SECONDS:-5}

say() { printf '\n== %s\n' "$*"; }
die() {
	echo "ossfuzz-local: $*" >&2
	exit 1
}

# --- what it needs -----------------------------------------------------------

apt_updated=
apt_install() {
	local sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || die "need root or sudo to apt-get install $*"
		sudo=sudo
	fi
	if [ -z "$apt_updated" ]; then
		$sudo apt-get update -qq
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# libfuzzer_links: can clang++ link a libFuzzer binary?
libfuzzer_links() {
	local d
	d=$(mktemp -d)
	printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' >"$d/t.cc"
	clang++ -fsanitize=fuzzer "$d/t.cc" -o "$d/t" >/dev/null 2>&1
	local rc=$?
	rm -rf "$d"
	return $rc
}

command -v go >/dev/null || die "needs Go (go.mod asks for 1.26)"
if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
	say "installing clang"
	apt_install clang
fi
if ! libfuzzer_links; then
	major=$(clang -dumpversion | cut -d. -f1)
	say "installing libclang-rt-$major-dev (libFuzzer)"
	apt_install "libclang-rt-$major-dev"
	libfuzzer_links || die "clang++ -fsanitize=fuzzer still does not link"
fi
command -v python3 >/dev/null || apt_install python3
echo "$(go version); $(clang --version | head -n 1)"

# --- a copy of the tree, laid out as in the image ---------------------------

tmp=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then
	echo "work directory: $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi
SRC=$tmp/src OUT=$tmp/out WORK=$tmp/work bin=$tmp/bin
mkdir -p "$SRC/toolnorm" "$OUT" "$WORK" "$bin"

# The files git would commit (tracked or not ignored), as they are now.
copy_tree() {
	local dest=$1
	if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$repo" && git ls-files -z --cached --others --exclude-standard) |
			while IFS= read -r -d '' f; do
				[ -f "$repo/$f" ] && printf '%s\0' "$f"
			done | (cd "$repo" && xargs -0 cp --parents -t "$dest")
	else
		cp -a "$repo/." "$dest"
		rm -rf "$dest/.git"
	fi
}
copy_tree "$SRC/toolnorm"
cp "$SRC/toolnorm/.clusterfuzzlite/build.sh" "$SRC/build.sh"
mkdir -p "$tmp/planted/toolnorm"
copy_tree "$tmp/planted/toolnorm"

# compile_native_go_fuzzer as base-builder-go has it (its non-coverage path:
# build_native_go_fuzzer_legacy in infra/base-images/base-builder).
cat >"$bin/compile_native_go_fuzzer" <<'EOF'
#!/bin/bash -eu
path=$1
function=$2
fuzzer=$3
tags="-tags gofuzz"
# shellcheck disable=SC2086 # $tags is two words, as there
abs_file_dir=$(go list $tags -f '{{.Dir}}' "$path")
fuzzer_filename=$(grep -r -l --include='*.go' -s "$function" "$abs_file_dir")
# shellcheck disable=SC2086 # one or more files, as there
if [ "$(grep -r "func $function" $fuzzer_filename | grep -c "testing.F")" -eq 1 ]; then
	# shellcheck disable=SC2086
	go-118-fuzz-build $tags -o "$fuzzer.a" -func "$function" "$abs_file_dir"
	# shellcheck disable=SC2086
	$CXX $CXXFLAGS $LIB_FUZZING_ENGINE "$fuzzer.a" -o "$OUT/$fuzzer"
else
	echo "Could not find the function: func ${function}(f *testing.F)"
fi
EOF
chmod +x "$bin/compile_native_go_fuzzer"

flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
# run_build DIR OUTDIR [TOOLNORM_ONLY]: build.sh in DIR, as `compile` runs it.
run_build() {
	(cd "$1" && env SRC="$(dirname "$1")" OUT="$2" WORK="$WORK" SANITIZER=address \
		CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
		GOBIN="$bin" PATH="$bin:$PATH" TOOLNORM_SRC="$1" TOOLNORM_ONLY="${3:-}" \
		bash "$1/.clusterfuzzlite/build.sh")
}

say "build.sh: every target"
start=$SECONDS
run_build "$SRC/toolnorm" "$OUT"
echo "built in $((SECONDS - start)) s:"
ls -l "$OUT"

# --- run each binary ----------------------------------------------------------

unzip_to() { python3 -m zipfile -e "$1" "$2"; }

declare -a report
failed=0
for b in "$OUT"/*; do
	if [ ! -f "$b" ] || [ ! -x "$b" ]; then continue; fi
	name=$(basename "$b")
	say "$name: $seconds s"
	dirs=("$WORK/corpus/$name")
	mkdir -p "$WORK/corpus/$name" "$WORK/artifacts/$name"
	seeds=0
	if [ -f "$OUT/${name}_seed_corpus.zip" ]; then
		unzip_to "$OUT/${name}_seed_corpus.zip" "$WORK/seeds/$name"
		dirs+=("$WORK/seeds/$name")
		seeds=$(find "$WORK/seeds/$name" -type f | wc -l)
	fi
	dict=()
	[ -f "$OUT/$name.dict" ] && dict=(-dict="$OUT/$name.dict")
	rc=0
	"$b" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$name/" \
		"${dict[@]}" "${dirs[@]}" >"$WORK/$name.log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$WORK/$name.log")
	cov=$(grep -o 'cov: [0-9]*' "$WORK/$name.log" | tail -n 1)
	if [ "$seeds" = 0 ]; then
		result="FAILED (no seed corpus)"
		failed=1
	elif [ "$rc" = 0 ]; then
		result=ok
	else
		result="FAILED (exit $rc)"
		failed=1
		tail -n 30 "$WORK/$name.log"
	fi
	line=$(printf '%-34s %6s seeds %9s runs  %-9s %s' "$name" "$seeds" "${execs:-?}" "$cov" "$result")
	echo "$line"
	report+=("$line")
done

# --- a crash file, back into the corpus ----------------------------------------

say "a crash file: FuzzDifferential with a planted failure"
planted=$tmp/planted/toolnorm
harness='	f.Fuzz(func(t *testing.T, schema, args []byte, attribute bool, bound uint8) {'
grep -qxF "$harness" "$planted/fuzz/differential_test.go" ||
	die "fuzz/differential_test.go has no line '$harness': update the planted failure"
python3 - "$planted/fuzz/differential_test.go" "$harness" <<'EOF'
import sys
path, harness = sys.argv[1], sys.argv[2]
plant = '''		if bound >= 3 { // planted by scripts/ossfuzz-local.sh
			t.Fatalf("planted failure; the input as go test fuzz v1:\\n<<<\\ngo test fuzz v1\\n[]byte(%q)\\n[]byte(%q)\\nbool(%v)\\nbyte(%q)\\n>>>", schema, args, attribute, bound)
		}
'''
text = open(path).read().replace(harness + "\n", harness + "\n" + plant, 1)
open(path, "w").write(text)
EOF
mkdir -p "$WORK/planted-out"
run_build "$planted" "$WORK/planted-out" FuzzDifferential >"$WORK/planted-build.log" 2>&1 ||
	{
		tail -n 30 "$WORK/planted-build.log"
		die "the planted build failed"
	}
mkdir -p "$WORK/planted-corpus" "$WORK/planted-artifacts"
rc=0
"$WORK/planted-out/FuzzDifferential" -max_total_time=120 -artifact_prefix="$WORK/planted-artifacts/" \
	"$WORK/planted-corpus" "$WORK/seeds/FuzzDifferential" >"$WORK/planted.log" 2>&1 || rc=$?
crash=$(find "$WORK/planted-artifacts" -name 'crash-*' | head -n 1)
[ -n "$crash" ] || {
	tail -n 20 "$WORK/planted.log"
	die "the planted failure wrote no crash file (exit $rc)"
}
echo "libFuzzer (exit $rc) wrote $(basename "$crash"), $(wc -c <"$crash") bytes:"
grep -m 1 -A 2 'planted failure' "$WORK/planted.log" | cut -c 1-200
awk '/^<<<$/ { on = 1; next } /^>>>$/ { exit } on' "$WORK/planted.log" >"$WORK/crash.gofuzz"
[ -s "$WORK/crash.gofuzz" ] || die "the planted harness printed no input"

say "the crash file, on the planted binary and on the real one"
rc=0
"$WORK/planted-out/FuzzDifferential" "$crash" >"$WORK/replay-planted.log" 2>&1 || rc=$?
[ "$rc" != 0 ] || die "the planted binary passes its own crash file"
echo "planted FuzzDifferential: fails again (exit $rc)"
"$OUT/FuzzDifferential" "$crash" >"$WORK/replay-real.log" 2>&1 ||
	{
		cat "$WORK/replay-real.log"
		die "the real FuzzDifferential fails on the crash file"
	}
echo "real FuzzDifferential: passes ($(grep -o 'Executed .*' "$WORK/replay-real.log"))"

say "toolnorm corpus import --format libfuzzer"
cp -r "$SRC/toolnorm/corpus" "$WORK/corpus-copy"
toolnorm() { (cd "$SRC/toolnorm" && CGO_ENABLED=0 go run ./cmd/toolnorm "$@"); }
toolnorm corpus import --format libfuzzer --from "$crash" "$WORK/corpus-copy" | tee "$WORK/import.log"
added=$(sed -n 's/^added //p' "$WORK/import.log")
if [ -z "$added" ] || [ ! -f "$added" ]; then die "the import added no vector"; fi
id=$(grep -o '"id": *"[0-9a-f]*"' "$added" | head -n 1 | grep -o '[0-9a-f]\{16\}')
echo "vector $id:"
head -c 600 "$added"
echo

say "the same input as go test fuzz v1 (what the planted harness printed)"
cat "$WORK/crash.gofuzz"
toolnorm corpus import --format gofuzz --from "$WORK/crash.gofuzz" "$WORK/corpus-copy" | tee "$WORK/import2.log"
grep -q '0 added, 1 already in the corpus' "$WORK/import2.log" ||
	die "the go test fuzz v1 encoding of the crash is another case than the libFuzzer file"
toolnorm corpus import --format libfuzzer --from "$crash" "$WORK/corpus-copy"

say "the new vector on the reference, and the corpus"
toolnorm corpus replay --only "$id" "$WORK/corpus-copy"
toolnorm corpus lint "$WORK/corpus-copy"

say "summary"
printf '%s\n' "${report[@]}"
echo "crash file $(basename "$crash") -> $(basename "$added") (id $id)"
if [ "$failed" != 0 ]; then
	die "some binaries failed"
fi
