#!/usr/bin/env bash
# The README's flame graph: the monitor records the CPU call stacks of a PyTorch loop's CUDA
# launches (tests/gpu/flame_workload.py, Python frames through its perf map: python -X perf) as
# an SVG flame graph and as folded stacks, and prints how many launches each holds.
#   tests/gpu/flame.sh BINARY OUTDIR   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
run() { # run FILE: the workload under a monitor writing its stacks to FILE
	"$BIN" -b -J -d 0.5 --stacks "$1" >"$OUT/monitor.$2.jsonl" 2>"$OUT/monitor.$2.err" &
	local mon=$!
	for _ in $(seq 100); do [ -s "$OUT/monitor.$2.jsonl" ] && break; sleep 0.1; done
	python3 -X perf "$HERE/flame_workload.py" 300 >"$OUT/workload.$2.txt" 2>&1
	sleep 1.2
	kill -INT $mon
	wait $mon
	echo "$2: monitor exit $?, workload printed $(cat "$OUT/workload.$2.txt")"
}
run "$OUT/flame.svg" svg
run "$OUT/flame.folded" folded
echo "svg: $(grep -o '[a-z ]* ([0-9]* in all)' "$OUT/flame.svg")"
echo "folded: $(awk '{ s += $NF } END { print NR " lines, " s " launches" }' "$OUT/flame.folded")"
