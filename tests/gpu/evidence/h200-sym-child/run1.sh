#!/bin/bash
# Device run 1 (2026-11-28): the symbolizing child (issue 41) on a real PyTorch program. flame.sh with
# this build and with the build before the child (in-process unwinding, 9910de1), the unwinding's cost
# from each monitor's end line; the child's /proc status while it runs; stacks-tables.sh and
# profiler-names.sh with this build.
B=build/dev/gputop-bpf
OLD=build/dev/gputop-bpf-old
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
exec >"$OUT/run1.txt" 2>&1
nvidia-smi -L
for round in 1 2; do
	for b in "$B" "$OLD"; do
		name=$([ "$b" = "$B" ] && echo child || echo inproc)
		( sleep 8; c=$(pgrep -x gputop-bpf-sym | head -1); [ -n "$c" ] &&
			grep -E "^(Uid|CapEff|CapPrm|CapBnd|NoNewPrivs|Seccomp):" /proc/$c/status >"$OUT/status.$name.$round" ) &
		timeout 200 tests/gpu/flame.sh "$b" "$OUT/flame-$name-$round" 2>&1 | tail -3
		echo "### $name round $round: $(grep -h 'copies unwound\|symbolizing child\|CFI refused' "$OUT/flame-$name-$round"/monitor.*.err | tr '\n' ' ')"
		[ -s "$OUT/status.$name.$round" ] && echo "child status: $(tr '\n' ' ' <"$OUT/status.$name.$round")"
		wait
	done
done
echo "### stacks-tables.sh"
timeout 150 tests/gpu/stacks-tables.sh "$B" "$OUT/stacks-tables" 2>&1 | tail -8
echo "### profiler-names.sh"
timeout 150 tests/gpu/profiler-names.sh "$B" "$OUT/profiler-names" 2>&1 | tail -6
