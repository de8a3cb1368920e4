#!/usr/bin/env bash
# CUDA kernels on the trace's timeline on a real GPU: gputop-bpf --trace while an unmodified PyTorch
# training loop (tests/gpu/train_loop.py) and then a loop of single small launches on an idle GPU
# (tests/gpu/launch_gap.py) run with the CUPTI library. Checked here: the trace's kernels and copies
# written equal nvidia.gpu_time's records of both processes (none lost), and the end line's clock bound.
# The trace comes back in OUTDIR for tests/perfetto/kernels.sh (protoc): flows, launch -> start.
#   tests/gpu/trace-kernels.sh BINARY LIB OUTDIR [STEPS]   (root, an NVIDIA GPU, PyTorch)
set -u
BIN=$(readlink -f "$1")
OUT=$3
STEPS=${4:-40}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT" /usr/local/lib/gputop-bpf
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
LIB=/usr/local/lib/gputop-bpf/libgputop-cupti.so
cp "$2" "$LIB"
"$BIN" -b -J -d 0.5 --trace "$OUT/t.pftrace" --trace-max-mb 15 >"$OUT/mon.jsonl" 2>"$OUT/mon.err" &
MON=$!
for _ in $(seq 100); do [ -s "$OUT/mon.jsonl" ] && break; sleep 0.1; done
sleep 1
CUDA_INJECTION64_PATH=$LIB python3 "$HERE/train_loop.py" "$STEPS" >"$OUT/train.txt" 2>&1 &
TRAIN=$!
wait $TRAIN
CUDA_INJECTION64_PATH=$LIB python3 "$HERE/launch_gap.py" 500 >"$OUT/gap.txt" 2>&1 &
GAP=$!
wait $GAP
echo "workloads: $(cat "$OUT/train.txt" "$OUT/gap.txt" | tr '\n' ' ') (pids $TRAIN, $GAP)"
sleep 1.5
kill -INT $MON
wait $MON
echo "monitor: exit $?"
cat "$OUT/mon.err"
for pid in $TRAIN $GAP; do
	echo "nvidia.gpu_time of $pid, records: $(jq -s --argjson pid "$pid" '[.[] | [.tables["nvidia.gpu_time"][]? |
		select(.pid == $pid) | .count_total] | add // 0] | max' "$OUT/mon.jsonl")"
done
echo "gpu_time drops: $(jq -s -c '[.[] | .collectors[] | select(.name == "gpu_time") | .drops] | last' "$OUT/mon.jsonl")"
echo "nvidia join drops: $(jq -s -c '[.[] | .collectors[] | select(.name == "nvidia") | .drops |
	with_entries(select(.key | startswith("gpu_time") or startswith("capture")))] | last' "$OUT/mon.jsonl")"
