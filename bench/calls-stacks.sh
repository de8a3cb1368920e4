#!/usr/bin/env bash
# --stacks-weight calls' cost per watched ioctl, on this CPU: a test build watching /dev/null's
# major as a GPU device's (GPUTOP_TEST_CALLS_MAJOR=1), bench/ioctl_loop's FIONREAD on /dev/null
# untraced, under the monitor, and under the monitor with --stacks FILE --stacks-weight calls;
# the loop's ns per ioctl and the kernel's run time per event of the calls collector's ioctl
# programs (self.programs) in the loop's snapshot, and the ioctl_exit program's translated size.
#   bench/calls-stacks.sh IOCTL_LOOP TEST_BINARY   (root; prints one JSON line per mode)
set -u
LOOP=$1 BIN=$2
N=${IOCTL_N:-1000000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "{\"mode\":\"untraced\",\"ns_per_ioctl\":$("$LOOP" "$N" 5 /dev/null)}"
# the calls collector's ioctl_exit program of the monitor started last: new, and with a stack_sums map
xlated() {
	local id m
	for id in $(bpftool prog show name ioctl_exit -j | jq '.[]? // . | .id'); do
		grep -qx "$id" "$T/before" && continue
		for m in $(bpftool prog show id "$id" -j | jq '.map_ids[]'); do
			bpftool map show id "$m" -j | jq -e '.name == "stack_sums"' >/dev/null &&
				bpftool prog show id "$id" -j | jq .bytes_xlated && return
		done
	done
	echo null
}
for mode in off on; do
	bpftool prog show name ioctl_exit -j | jq '.[]? // . | .id' >"$T/before"
	GPUTOP_TEST_CALLS_MAJOR=1 "$BIN" -b -J --programs -d 1 \
		$([ $mode = on ] && echo --stacks "$T/s.folded" --stacks-weight calls) >"$T/mon" 2>/dev/null &
	MON=$!
	for _ in $(seq 300); do [ -s "$T/mon" ] && break; sleep 0.1; done
	sleep 2
	per=$("$LOOP" "$N" 5 /dev/null)
	xlated=$(xlated)
	sleep 1.5
	kill -INT $MON
	wait $MON
	jq -c -s --arg m $mode --argjson per "$per" --argjson x "$xlated" 'max_by([.tables["self.programs"][]?
		| select(.collector == "calls" and (.tracepoint | test("ioctl"))) | .events_per_s // 0] | add // 0) |
		{mode: ("stacks " + $m), ns_per_ioctl: $per, ioctl_exit_bytes_xlated: $x,
		programs: [.tables["self.programs"][] | select(.collector == "calls" and (.tracepoint | test("ioctl")))
			| {program, events_per_s, ns_per_event}]}' "$T/mon"
done
