#!/bin/bash
# stop 50 on the device: nvidia.sh cold (late symbolizer frames asked again), BUSY% of a busy loop,
# each snapshot's launches in three tables
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
D=$(cd "$(dirname "$0")" && pwd); OUT=$1
B=$D/gputop-bpf L=$D/libgputop-cupti.so
nvidia-smi -L > "$OUT/gpus.txt" 2>&1
t0=$(date +%s)
tests/gpu/nvidia.sh "$B" "$OUT/nvidia" > "$OUT/nvidia.log" 2>&1
echo "nvidia.sh: $(($(date +%s) - t0)) s" >> "$OUT/times"
t0=$(date +%s)
"$B" -b -J -d 1 -n 22 > "$OUT/busy.jsonl" 2> "$OUT/busy.err" &
M=$!
sleep 4
CUDA_INJECTION64_PATH=$L python3 - > "$OUT/busy-wl.out" 2> "$OUT/busy-wl.err" <<'PY'
import torch, time
a = torch.randn(4096, 4096, device="cuda"); b = torch.randn(4096, 4096, device="cuda")
end = time.time() + 15; n = 0
while time.time() < end:
    c = a @ b; n += 1
    if n % 8 == 0: torch.cuda.synchronize()
torch.cuda.synchronize()
print(n)
PY
wait $M
echo "busy: $(($(date +%s) - t0)) s" >> "$OUT/times"
