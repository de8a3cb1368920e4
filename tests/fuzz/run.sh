#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS from its seed corpus (tests/fuzz/corpus/<name>, copied:
# what it finds stays out of the tree), then prints the executions and findings per target.
# A crash, leak, sanitizer report or timeout is a finding: its input is kept in build/fuzz/findings
# and the run fails.   Usage: tests/fuzz/run.sh DIR SECONDS TARGET...
set -u
SUITE="fuzz"
. "$(dirname "$0")/../lib.sh"
DIR=$1 SECONDS_EACH=$2
shift 2
CORPUS=$(cd "$(dirname "$0")" && pwd)/corpus
FINDINGS=$(realpath -m "$DIR/../findings")
mkdir -p "$FINDINGS"
for target in "$@"; do
	name=${target#fuzz_}
	work=$(mktemp -d)
	cp -r "$CORPUS/$name/." "$work/" 2>/dev/null
	log=$FINDINGS/$target.log
	# the recording's lines are large: up to 256 KiB of input; 2 GiB of memory at most
	"$DIR/$target" "$work" -max_total_time="$SECONDS_EACH" -max_len=262144 -rss_limit_mb=2048 \
		-timeout=20 -artifact_prefix="$FINDINGS/$target-" -print_final_stats=1 >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	corpus=$(ls "$work" | wc -l)
	found=$(ls "$FINDINGS" | grep -c "^$target-" || true)
	echo "       $target: ${execs:-?} executions in ${SECONDS_EACH}s, corpus $corpus inputs, findings $found (exit $rc)"
	check "$target: no crash, leak, sanitizer report or timeout" test "$rc" -eq 0 -a "$found" -eq 0
	[ "$rc" -ne 0 ] && grep -m3 -E "ERROR|runtime error|SUMMARY" "$log"
	rm -rf "$work"
done
finish
