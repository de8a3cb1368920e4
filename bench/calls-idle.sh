#!/usr/bin/env bash
# What the monitor adds to an ioctl on a file that is no GPU device's (the rest of the machine's
# ioctls), on this CPU: the loop's time per ioctl untraced and with each monitor binary running,
# and the kernel's run time per event of every program on the ioctl tracepoints (self.programs).
#   bench/calls-idle.sh IOCTL_LOOP GPUTOP_BINARY...   (root; prints one JSON line per binary)
set -u
LOOP=$1
shift
N=${IOCTL_N:-2000000}
echo "{\"binary\":\"untraced\",\"ns_per_ioctl\":$("$LOOP" "$N" 5)}"
for BIN in "$@"; do
	OUTF=$(mktemp)
	"$BIN" -b -J --programs -d 1 > "$OUTF" 2>/dev/null &
	MON=$!
	for i in $(seq 300); do [ -s "$OUTF" ] && break; sleep 0.1; done
	sleep 12 # the calls collector's gate closes after two censuses 5 ticks apart
	per=$("$LOOP" "$N" 5)
	sleep 1.5
	kill -INT $MON
	wait $MON
	# the snapshot of the loop: the most events on the ioctl programs
	jq -c -s --arg b "$BIN" --argjson per "$per" 'max_by([.tables["self.programs"][]?
		| select(.tracepoint | test("ioctl")) | .events_per_s // 0] | add // 0) | {binary: $b, ns_per_ioctl: $per,
		calls: ([.collectors[] | select(.name == "calls") | .detail] | first),
		programs: [.tables["self.programs"][] | select(.tracepoint | test("ioctl"))
			| {collector, program, events_per_s, ns_per_event}]}' "$OUTF"
	rm -f "$OUTF"
done
