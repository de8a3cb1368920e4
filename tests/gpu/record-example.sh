#!/bin/bash
# A recording of an NVIDIA GPU at work, for examples/ (not a test): an unmodified PyTorch training
# loop (an MLP on random data, Adam, 25 s) with nvidia-smi run once in its middle, recorded at
# 0.5 s, and the Overview at 80x24, 120x40 and 200x60 replayed from it.
# Usage: tests/gpu/record-example.sh OUTDIR BINARY   (root, a GPU, PyTorch and tmux)
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
OUT=$1 BIN=$2
mkdir -p "$OUT"
"$BIN" --record "$OUT/nvidia-h200.jsonl" -b -d 0.5 -n 60 >/dev/null 2>"$OUT/record.err" &
MON=$!
sleep 3 # attached
python3 - <<'PY' >"$OUT/train.txt" 2>&1 &
import time, torch
model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 4096),
                            torch.nn.ReLU(), torch.nn.Linear(4096, 10)).cuda()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = torch.nn.CrossEntropyLoss()
end, steps = time.time() + 22, 0
while time.time() < end:
    x = torch.randn(512, 1024, device="cuda"); y = torch.randint(0, 10, (512,), device="cuda")
    opt.zero_grad(); loss = loss_fn(model(x), y); loss.backward(); opt.step(); steps += 1
    if steps % 200 == 0:
        print(steps, float(loss), flush=True)
print("steps", steps)
PY
WL=$!
sleep 10
nvidia-smi >"$OUT/smi.txt" 2>&1
wait $WL
wait $MON
echo "record exit $?" >>"$OUT/record.err"
for size in 80x24 120x40 200x60; do
	T="tmux -S $OUT/tmux.$size"
	$T -f /dev/null new-session -d -s t -x ${size%x*} -y ${size#*x} "$BIN --replay $OUT/nvidia-h200.jsonl -d 60"
	sleep 1.5
	for _ in $(seq 2 40); do $T send-keys -t t n; sleep 0.05; done
	sleep 1
	$T capture-pane -p -t t >"$OUT/overview-$size.txt"
	$T kill-server 2>/dev/null
	rm -f "$OUT/tmux.$size"
done
