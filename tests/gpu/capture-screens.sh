#!/bin/bash
# The Overview, the NVIDIA pane and the GPU time pane at 80x24 and 160x40 while a PyTorch matrix loop
# runs (the README picture), the loop started with the CUPTI library (CUDA_INJECTION64_PATH).
# Usage: tests/gpu/capture-screens.sh OUTDIR BINARY [LIBRARY]   (root, a GPU, PyTorch and tmux; not a
# test; LIBRARY: libgputop-cupti.so, beside BINARY by default)
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
OUT=$1; BIN=$2
LIB=$(realpath "${3:-$(dirname "$BIN")/libgputop-cupti.so}")
mkdir -p "$OUT"
CUDA_INJECTION64_PATH=$LIB python3 - <<'PY' &
import torch, time
a = torch.randn(8192, 8192, device="cuda"); b = torch.randn(8192, 8192, device="cuda")
end = time.time() + 40
n = 0
while time.time() < end:
    c = a @ b
    n += 1
    if n % 8 == 0: # a shallow queue: CUPTI's enabling waits for the queue to drain (seconds at 1,000 deep)
        torch.cuda.synchronize()
torch.cuda.synchronize()
PY
WL=$!
sleep 4
# one monitor at a time: a second one's NVML ioctls would be a GPU client's row in the first's table
for size in 80x24 160x40; do
	T="tmux -S $OUT/tmux.$size"
	$T -f /dev/null new-session -d -s t -x ${size%x*} -y ${size#*x} "$BIN -d 1"
	sleep 8
	$T capture-pane -p -t t >"$OUT/overview-$size.txt"
	$T send-keys -t t 4; sleep 1.5
	$T capture-pane -p -t t >"$OUT/nvidia-$size.txt"
	$T send-keys -t t 8; sleep 1.5
	$T capture-pane -p -t t >"$OUT/gpu-time-$size.txt"
	$T send-keys -t t q; sleep 1
	$T kill-server 2>/dev/null
	rm -f "$OUT/tmux.$size"
done
wait $WL
cat "$OUT/overview-80x24.txt"
