#!/bin/bash
# Device run 3 (2026-11-28): the nvidia.ko probes in one kprobe_multi link: --list and a quit beside a
# PyTorch loop; then tests/gpu/nvidia.sh.
B=build/portable/gputop-bpf
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
exec >"$OUT/run3.txt" 2>&1
ms() { echo $(($(date +%s%N) / 1000000)); }
wait_kids() { local s=$(ms); for i in $(seq 160); do pgrep -x gputop-bpf-exit >/dev/null || break; sleep 0.25; done; echo "  (gputop-bpf-exit gone $(($(ms) - s)) ms after)"; }
lists() { for i in $(seq "$1"); do s=$(ms); $B --list -v 2>&1 >/dev/null | grep -v '^libbpf' | grep -E 'nvidia started|collectors started|stopping'; echo "--list: $(($(ms) - s)) ms"; wait_kids; done; }
$B --list | grep -E 'nvidia.ko' | head -3
echo "### --list -v, idle"; lists 2
echo "### beside a PyTorch loop"
python3 -c "
import torch,time
x=torch.zeros(16,device='cuda')
t=time.time()
while time.time()-t<80: x.add_(1)
" >/tmp/w.out 2>&1 & W=$!
sleep 8; lists 3
for r in 1 2; do
s=$(ms); $B -b -J -d 0.5 -v >/tmp/m1.jsonl 2>/tmp/m1.err & M1=$!
for i in $(seq 400); do [ -s /tmp/m1.jsonl ] && break; sleep 0.05; done; echo "start to first snapshot: $(($(ms) - s)) ms"
sleep 2; s=$(ms); kill -INT $M1; wait $M1; echo "SIGINT to exit: $(($(ms) - s)) ms (exit $?)"
grep -v '^libbpf' /tmp/m1.err | grep -E 'collectors started|stopping'
tail -1 /tmp/m1.jsonl | python3 -c 'import json,sys; t=json.load(sys.stdin)["tables"]; print([(r["function"], r["via"], r["calls_total"]) for r in t.get("nvidia.driver",[])][:6])'
wait_kids
done
kill $W; wait $W 2>/dev/null; wait_kids
echo "### tests/gpu/nvidia.sh"
timeout 330 tests/gpu/nvidia.sh $B /tmp/nv >"$OUT/nvidia-sh.txt" 2>&1; echo "nvidia.sh rc $?"; grep -E "FAIL|tests:|passed" "$OUT/nvidia-sh.txt" | tail -5
