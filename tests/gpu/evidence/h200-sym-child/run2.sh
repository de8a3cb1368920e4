#!/bin/bash
# Device run 2 (2026-11-28): tests/gpu/nvidia.sh with this build (the probe counted exactly, each
# round's monitor waited for up to 60 s; libcuda's symbols read by the symbolizing child).
B=build/dev/gputop-bpf
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
exec >"$OUT/run2.txt" 2>&1
timeout 560 tests/gpu/nvidia.sh "$B" "$OUT/nv" >"$OUT/nvidia-sh.txt" 2>&1
echo "nvidia.sh rc $?"
grep -E "FAIL|tests:|passed" "$OUT/nvidia-sh.txt" | tail -8
