#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS from its seed corpus (tests/fuzz/corpus/<name>, copied:
# what it finds stays out of the tree), then prints the executions and findings per target.
# A crash, leak, sanitizer report or timeout is a finding: its input is kept in build/fuzz/findings
# and the run fails. Targets run FUZZ_JOBS at once (default: the CPUs).
#   Usage: tests/fuzz/run.sh DIR SECONDS TARGET...
set -u
SUITE="fuzz"
. "$(dirname "$0")/../lib.sh"
DIR=$1 SECONDS_EACH=$2
shift 2
CORPUS=$(cd "$(dirname "$0")" && pwd)/corpus
FINDINGS=$(realpath -m "$DIR/../findings")
mkdir -p "$FINDINGS"
# fuzz_one TARGET: one target's run into its log; its exit status in LOG.rc.
fuzz_one() {
	local target=$1 name=${1#fuzz_} work log
	work=$(mktemp -d)
	cp -r "$CORPUS/$name/." "$work/" 2>/dev/null
	log=$FINDINGS/$target.log
	# the recording's lines are large: up to 256 KiB of input; 2 GiB of memory at most
	"$DIR/$target" "$work" -max_total_time="$SECONDS_EACH" -max_len=262144 -rss_limit_mb=2048 \
		-timeout=20 -artifact_prefix="$FINDINGS/$target-" -print_final_stats=1 >"$log" 2>&1
	echo $? >"$log.rc"
	ls "$work" | wc -l >"$log.corpus"
	rm -rf "$work"
}
# As many targets at once as there are CPUs (FUZZ_JOBS): each still runs SECONDS, single-threaded.
JOBS=${FUZZ_JOBS:-$(nproc)}
running=0
for target in "$@"; do
	fuzz_one "$target" &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
for target in "$@"; do
	log=$FINDINGS/$target.log
	rc=$(cat "$log.rc" 2>/dev/null || echo 255)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	found=$(ls "$FINDINGS" | grep -c "^$target-" || true)
	echo "       $target: ${execs:-?} executions in ${SECONDS_EACH}s, corpus $(cat "$log.corpus") inputs, findings $found (exit $rc)"
	check "$target: no crash, leak, sanitizer report or timeout" test "$rc" -eq 0 -a "$found" -eq 0
	[ "$rc" -ne 0 ] && grep -m3 -E "ERROR|runtime error|SUMMARY" "$log"
done
finish
