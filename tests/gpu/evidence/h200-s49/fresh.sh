#!/bin/bash
# diag: the monitor first, then a 47-launch/s matmul loop with the library: when do its records come?
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
D=$(dirname "$0"); OUT=$1
$D/gputop-bpf -b -J -d 1 -n 24 > $OUT/fresh.jsonl 2> $OUT/fresh.err &
M=$!
sleep 3
date +%s.%N > $OUT/fresh.wl_start
CUDA_INJECTION64_PATH=$(realpath $D/libgputop-cupti.so) python3 - > $OUT/fwl.out 2> $OUT/fwl.err <<'PY' &
import torch, time
a = torch.randn(4096, 4096, device="cuda"); b = torch.randn(4096, 4096, device="cuda")
end = time.time() + 16
n = 0
while time.time() < end:
    c = a @ b; n += 1
    if n % 8 == 0: torch.cuda.synchronize()
torch.cuda.synchronize()
print(n)
PY
wait $M
jq -c '{t: .timestamp, l: ([.tables["nvidia.processes"][]? | select(.comm=="python3") | .launches_total] | first), kern: ([.tables["nvidia.gpu_time"][]? | select(.kind=="kernel") | .count_total] | add), busy: [.tables["nvidia.gpu_busy"][]? | .busy_pct], drops: (.collectors[]? | select(.name=="gpu_time") | .drops | {gpu_time_cupti_dropped, gpu_time_library_dropped, gpu_time_missed})}' $OUT/fresh.jsonl
cat $OUT/fwl.err $OUT/fwl.out $OUT/fresh.wl_start
