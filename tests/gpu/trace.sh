#!/usr/bin/env bash
# A Perfetto trace of a PyTorch loop on the device machine: the monitor's --trace while
# tests/gpu/flame_workload.py runs (its launches by kernel name on the Python thread, its
# synchronisations), written as a .pftrace for protoc and the timeline drawer (not a test:
# tests/perfetto/calls.sh decodes it on a machine with protoc).
#   tests/gpu/trace.sh BINARY OUTDIR   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
"$BIN" -b -J -d 0.5 --trace "$OUT/torch.pftrace" --duration 8 -o "$OUT/monitor.jsonl" 2>"$OUT/monitor.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/monitor.jsonl" ] && break; sleep 0.1; done
sleep 1
python3 "$HERE/flame_workload.py" 200 >"$OUT/workload.txt" 2>&1 &
WL=$!
echo "workload pid $WL" >>"$OUT/workload.pid"
wait $WL
wait $MON
echo "monitor exit $?: $(cat "$OUT/monitor.err")"
ls -l "$OUT/torch.pftrace"
