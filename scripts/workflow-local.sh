#!/bin/bash
# Runs the workflow toolnorm init writes, locally, the way GitHub would:
# from an empty repository holding a first-try normalizer (schema-blind:
# it decodes every string that parses as JSON, and no character
# reference), toolnorm init; then the pull-request job's steps: the
# action's toolnorm built from the ref the workflow pins (a copy of that
# commit, stamped as action.yml's "Build toolnorm" step stamps it), and
# the action's check step with the workflow's inputs: one run of toolnorm
# writing the job summary, the JUnit report the test tab shows and the
# whole report kept as an artifact (toolnorm-report/).
#
#   1. with the empty baseline init writes: FAIL, every root cause new;
#   2. with the baseline written by the command init prints: PASS, and a
#      JUnit report with no failure, of the same run (the same seed) as the
#      summary;
#   3. with a bug planted beside the known ones (strings trimmed): FAIL,
#      the new root causes named.
#
#   scripts/workflow-local.sh [python|javascript|php ...]   # default: all three
#
# toolnorm init runs from this clone's HEAD, so the workflow pins HEAD:
# commit first (uncommitted changes are in neither). Needs Go, git, and
# python3, node or php for their languages. Each language takes about three
# minutes on two cores. Exit status 0 when every step of every language
# went as said.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(python javascript php)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head=$(git -C "$here" rev-parse HEAD)
if [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
	echo "workflow-local: the clone has uncommitted changes; the workflow pins $head, without them" >&2
fi
stamp="-X github.com/toolnorm/toolnorm/cmd/toolnorm/internal/cli.stamp"
mkdir -p "$tmp/user"
(cd "$here" && go build -ldflags "$stamp=$head" -o "$tmp/user/toolnorm" ./cmd/toolnorm) || exit 2

failed=0
fail() {
	echo "workflow-local: $lang: $*" >&2
	failed=1
}

# The normalizers, in each language: PLANT=trim trims every string too.
write_normalizer() {
	case $1 in
	python)
		mkdir -p mypkg && : >mypkg/__init__.py
		cat >mypkg/blind.py <<'EOF'
import json
import os


def _fix(value):
    if isinstance(value, str):
        if os.environ.get("PLANT") == "trim":
            value = value.strip()
        try:
            return json.loads(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return [_fix(v) for v in value]
    if isinstance(value, dict):
        return {k: _fix(v) for k, v in value.items()}
    return value


def normalize(schema, arguments):
    if not isinstance(arguments, dict):
        raise TypeError("arguments must be an object")
    return {k: _fix(v) for k, v in arguments.items()}
EOF
		echo mypkg.blind:normalize
		;;
	javascript)
		mkdir -p src
		cat >src/blind.mjs <<'EOF'
function fix(value) {
  if (typeof value === "string") {
    if (process.env.PLANT === "trim") value = value.trim();
    try { return JSON.parse(value); } catch { return value; }
  }
  if (Array.isArray(value)) return value.map(fix);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fix(v)]));
  }
  return value;
}

export function normalize(schema, args) {
  if (args === null || typeof args !== "object" || Array.isArray(args)) throw new TypeError("arguments must be an object");
  return fix(args);
}
EOF
		echo 'src/blind.mjs#normalize'
		;;
	php)
		mkdir -p src
		cat >src/blind.php <<'EOF'
<?php
function blind_fix($value) {
    if (is_string($value)) {
        if (getenv('PLANT') === 'trim') $value = trim($value);
        $d = json_decode($value, true);
        return json_last_error() === JSON_ERROR_NONE ? $d : $value;
    }
    if (is_array($value)) return array_map('blind_fix', $value);
    return $value;
}

function blind_normalize($schema, $args) {
    if (!is_array($args)) throw new TypeError('arguments must be an object');
    return blind_fix($args);
}
EOF
		echo 'src/blind.php:blind_normalize'
		;;
	esac
}

# The action's run step, as its composite step runs it (bash -e), with the
# workflow's inputs: `with:` of the step named "toolnorm check".
action_run() {
	local with
	with=$(awk '/- name: toolnorm check$/{on=1} on&&/^ +with:/{w=1;next} w&&/^ +[a-z-]+:/{print} w&&/^ +- /{exit}' .github/workflows/toolnorm.yml)
	input() { printf '%s\n' "$with" | sed -n "s/^ *$1: *//p" | sed 's/^"\(.*\)"$/\1/'; }
	mkdir -p runner
	rm -rf toolnorm-report
	# The action's default for an input the workflow does not give.
	max=$(awk '/^  summary-max-size:/{on=1} on&&/default:/{gsub(/"/,"",$2);print $2;exit}' "$tmp/action/src/action.yml")
	env TOOLNORM="$tmp/action/toolnorm" COMMAND=check IMPL="$(input impl)" BUDGET="$(input budget)" \
		CHECKS="$(input checks)" SEED="$(input seed)" FORMAT="$(input format)" CORPUS= DURATION= TIMEOUT= \
		ADD_CORPUS="$(input add-corpus)" BASELINE="$(input baseline)" REPORT= FAIL=true \
		JUNIT="$(input junit)" JSON="$(input json)" HTML="$(input html)" SUMMARY=true SUMMARY_MAX_SIZE="$max" \
		RUNNER_TEMP="$PWD/runner" GITHUB_STEP_SUMMARY="$PWD/runner/summary.md" GITHUB_OUTPUT="$PWD/runner/output" \
		bash -e -c "$(awk '/id: run$/{on=1} on&&/run: \|/{r=1;next} r&&/^        /{sub(/^        /,"");print;next} r&&!/^ *$/{exit} r{print}' "$tmp/action/src/action.yml")"
}

# The file the test tab shows: report_paths of the JUnit reporter's step.
junit_file() {
	sed -n 's/^ *report_paths: *//p' .github/workflows/toolnorm.yml
}

for lang in "${langs[@]}"; do
	echo "== $lang"
	repo="$tmp/repo-$lang"
	mkdir -p "$repo" && cd "$repo" && git init -q .
	func=$(write_normalizer "$lang")
	"$tmp/user/toolnorm" init --lang "$lang" --func "$func" >init.out 2>&1 || { cat init.out; fail "init failed"; continue; }
	ref=$(sed -n 's/^ *uses: toolnorm\/toolnorm@\([^ ]*\)$/\1/p' .github/workflows/toolnorm.yml | head -1)
	[ "$ref" = "$head" ] || fail "the workflow pins $ref, not the toolnorm that ran init ($head)"
	# The action, as GitHub fetches it at the pinned ref and builds it.
	if [ ! -x "$tmp/action/toolnorm" ]; then
		mkdir -p "$tmp/action/src"
		git -C "$here" archive "$ref" | tar -x -C "$tmp/action/src" || exit 2
		(cd "$tmp/action/src" && CGO_ENABLED=0 go build -ldflags "$stamp=$ref" -o "$tmp/action/toolnorm" ./cmd/toolnorm) || exit 2
	fi

	unset PLANT
	action_run >step1.log 2>&1 && code=0 || code=$?
	echo "1. empty baseline: exit $code; $(grep -m1 '^## toolnorm check' runner/summary.md)"
	[ "$code" = 1 ] || fail "with the empty baseline: exit $code, want 1"

	write=$(grep -- '--write-baseline' init.out)
	echo "   $write"
	PATH="$tmp/action:$PATH" bash -c "$write" >write.log 2>write.err || { cat write.err; fail "writing the baseline failed"; }
	: >runner/summary.md
	action_run >step2.log 2>&1 && code=0 || code=$?
	echo "2. with the baseline: exit $code; $(grep -m1 '^## toolnorm check' runner/summary.md)"
	[ "$code" = 0 ] || fail "with the baseline written: exit $code, want 0"
	junit=$(junit_file)
	[ -f "$junit" ] || fail "the check wrote no JUnit report into $junit"
	n=$(grep -c '<failure' "$junit")
	echo "   JUnit: $n failures"
	[ "$n" = 0 ] || fail "the JUnit report has $n failures, want none"
	seeds=$(sed -n 's/^Seed .\([0-9]*\)., .*/\1/p' runner/summary.md; sed -n 's/.*<property name="repeat" value="[^"]*--seed \([0-9]*\) .*/\1/p' "$junit")
	echo "   seeds of the summary and the JUnit report: ${seeds//$'\n'/ }"
	[ "$(printf '%s\n' "$seeds" | sort -u | wc -l)" = 1 ] || fail "the summary and the JUnit report have other seeds: $seeds"
	[ -f toolnorm-report/toolnorm.html ] || fail "no whole report (HTML) for the artifact"

	export PLANT=trim
	: >runner/summary.md
	action_run >step3.log 2>&1 && code=0 || code=$?
	echo "3. a new bug: exit $code; $(grep -m1 '^## toolnorm check' runner/summary.md)"
	[ "$code" = 1 ] || fail "with a new bug: exit $code, want 1"
	grep -q 'new root cause.*whitespace-trimmed' runner/summary.md || fail "the new root cause is not named whitespace-trimmed"
	unset PLANT
done
exit $failed
