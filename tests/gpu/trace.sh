#!/usr/bin/env bash
# A Perfetto trace of a PyTorch loop on the device machine: the monitor's --trace while
# tests/gpu/flame_workload.py runs (its launches by kernel name on the Python thread, its
# synchronisations), written as a .pftrace for protoc and the timeline drawer (not a test:
# tests/perfetto/calls.sh decodes it on a machine with protoc). With "stacks", --stacks too
# (python -X perf: Python frames in the perf map): each launch instant carries its CPU stack as
# a callstack (tests/perfetto/stacks.sh prints them), the folded stacks in torch.folded.
#   tests/gpu/trace.sh BINARY OUTDIR [stacks]   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
STACKS=() PY=(python3)
[ "${3:-}" = stacks ] && STACKS=(--stacks "$OUT/torch.folded") PY=(python3 -X perf)
"$BIN" -b -J -d 0.5 --trace "$OUT/torch.pftrace" --duration 8 "${STACKS[@]}" -o "$OUT/monitor.jsonl" \
	2>"$OUT/monitor.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/monitor.jsonl" ] && break; sleep 0.1; done
sleep 1
"${PY[@]}" "$HERE/flame_workload.py" 200 >"$OUT/workload.txt" 2>&1 &
WL=$!
echo "workload pid $WL" >>"$OUT/workload.pid"
wait $WL
wait $MON
echo "monitor exit $?: $(cat "$OUT/monitor.err")"
ls -l "$OUT/torch.pftrace"
