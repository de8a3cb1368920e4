#!/usr/bin/env bash
# --stacks' cost per CUDA launch: bench/launch_loop (N calls of the stand-in libcuda's
# cuLaunchKernel, both built -O2 -fomit-frame-pointer) untraced, under the monitor, and under
# the monitor with --stacks (frame pointers + stack copies unwound with DWARF); ROUNDS rounds
# interleaved, the median ns per call of each, and the monitor's own CPU seconds per run; the
# last --stacks run's copies unwound and their CPU time.
#   bench/stacks-cost.sh MONITOR NOFP_DIR [N] [ROUNDS]   (root; NOFP_DIR: build/default/cuda-nofp)
set -eu
MON=$1 DIR=$2 N=${3:-200000} ROUNDS=${4:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O2 -fomit-frame-pointer -o "$T/launch_loop" "$(dirname "$0")/launch_loop.c" -L"$DIR" -l:libcuda.so.1
cp "$DIR/libcuda.so.1" "$T/"
one() { # one run: MODE (untraced, monitor, stacks) -> "ns_per_call monitor_cpu_s"
	local mode=$1 mpid ns cpu
	rm -f "$T/gate" "$T/mon"
	LD_LIBRARY_PATH=$T "$T/launch_loop" "$N" "$T/gate" >"$T/out" &
	local lpid=$!
	if [ "$mode" != untraced ]; then
		"$MON" -b -J -d 1 --libcuda "$T/libcuda.so.1" $([ "$mode" = stacks ] && echo --stacks "$T/s.folded") \
			>"$T/mon" 2>"$T/err" &
		mpid=$!
		for _ in $(seq 100); do [ -s "$T/mon" ] && break; sleep 0.1; done
	fi
	touch "$T/gate"
	wait $lpid
	ns=$(cat "$T/out")
	cpu=-
	if [ "$mode" != untraced ]; then
		sleep 1.2
		cpu=$(awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$mpid/stat")
		kill -INT $mpid
		wait $mpid || true
	fi
	echo "$ns $cpu"
}
for r in $(seq "$ROUNDS"); do
	for mode in untraced monitor stacks; do
		echo "$mode $(one $mode)" >>"$T/all"
	done
done
echo "launches per run: $N; rounds: $ROUNDS; median ns per call, median monitor CPU s per run"
for mode in untraced monitor stacks; do
	grep "^$mode " "$T/all" | awk '{ print $2 }' | sort -n | awk '{ a[NR] = $1 } END { printf "%-9s %8.1f ns", "'$mode'", a[int((NR + 1) / 2)] }'
	grep "^$mode " "$T/all" | awk '{ print $3 }' | sort -n | awk '{ a[NR] = $1 } END { printf "  %s s\n", a[int((NR + 1) / 2)] }'
done
[ -s "$T/s.folded" ] && echo "last --stacks file:" && sed 's/^/  /' "$T/s.folded"
# the monitor's own DWARF unwinding in that run (its end line)
grep -h 'copies unwound' "$T/err" 2>/dev/null | sed 's/^gputop-bpf: stacks [^:]*: /last --stacks run: /' || true
