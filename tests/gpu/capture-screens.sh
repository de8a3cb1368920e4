#!/bin/bash
# The Overview and the NVIDIA pane at 80x24 and 160x40 while a PyTorch matrix loop runs (the README picture).
# Usage: tests/gpu/capture-screens.sh OUTDIR BINARY   (root, a GPU, PyTorch and tmux; not a test)
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
OUT=$1; BIN=$2
mkdir -p "$OUT"
python3 - <<'PY' &
import torch, time
a = torch.randn(8192, 8192, device="cuda"); b = torch.randn(8192, 8192, device="cuda")
end = time.time() + 40
while time.time() < end:
    c = a @ b
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
	$T send-keys -t t q; sleep 1
	$T kill-server 2>/dev/null
	rm -f "$OUT/tmux.$size"
done
wait $WL
cat "$OUT/overview-80x24.txt"
