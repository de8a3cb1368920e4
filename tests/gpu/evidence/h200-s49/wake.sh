#!/bin/bash
# diag: a deep-queue matmul loop with the library, then the monitor: launches per snapshot, gpu_time rows
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
D=$(dirname "$0"); OUT=$1
CUDA_INJECTION64_PATH=$(realpath $D/libgputop-cupti.so) python3 - > $OUT/wl.out 2> $OUT/wl.err <<'PY' &
import torch, time, sys
a = torch.randn(8192, 8192, device="cuda"); b = torch.randn(8192, 8192, device="cuda")
end = time.time() + 45; n = 0; last = time.time()
while time.time() < end:
    t0 = time.time(); c = a @ b; n += 1; dt = time.time() - t0
    if dt > 0.5: print(f"{time.time():.3f} launch {n} blocked {dt:.3f}s", file=sys.stderr, flush=True)
torch.cuda.synchronize()
print(n)
PY
WL=$!
sleep 4
date +%s.%N > $OUT/mon.start
$D/gputop-bpf -b -J -d 1 -n 36 > $OUT/mon.jsonl 2> $OUT/mon.err
wait $WL
jq -c '{t: .timestamp, l: ([.tables["nvidia.processes"][]? | select(.comm=="python3") | .launches_per_s] | first), busy: [.tables["nvidia.gpu_busy"][]? | .busy_pct], kern: ([.tables["nvidia.gpu_time"][]? | .count_total] | add)}' $OUT/mon.jsonl
cat $OUT/wl.err; cat $OUT/mon.start
