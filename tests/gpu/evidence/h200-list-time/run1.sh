#!/bin/bash
# Device run 1 (2026-11-28): where --list's and a quit's time goes (-v), a trace of two launch loops at -d 1.
B=build/portable/gputop-bpf
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
exec >"$OUT/run1.txt" 2>&1
ms() { echo $(($(date +%s%N) / 1000000)); }
wait_kids() { local s=$(ms); for i in $(seq 160); do pgrep -x gputop-bpf-exit >/dev/null || break; sleep 0.25; done; echo "  (gputop-bpf-exit gone $(($(ms) - s)) ms after)"; }
uname -r; nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
echo "### --list -v, idle, three times"
for i in 1 2 3; do s=$(ms); $B --list -v 2>&1 >/dev/null | grep -v '^libbpf' | grep -E 'started in|stopping'; echo "--list: $(($(ms) - s)) ms"; wait_kids; done
echo "### --list -v beside a PyTorch loop"
python3 -c "
import torch,time
x=torch.zeros(16,device='cuda')
t=time.time()
while time.time()-t<40: x.add_(1)
" >/tmp/w.out 2>&1 & W=$!
sleep 8
for i in 1 2; do s=$(ms); $B --list -v 2>&1 >/dev/null | grep -v '^libbpf' | grep -E 'started in|stopping'; echo "--list: $(($(ms) - s)) ms"; wait_kids; done
s=$(ms); $B -b -J -d 0.5 -v >/tmp/m1.jsonl 2>/tmp/m1.err & M1=$!
for i in $(seq 400); do [ -s /tmp/m1.jsonl ] && break; sleep 0.05; done; echo "start to first snapshot: $(($(ms) - s)) ms"
sleep 2; s=$(ms); kill -INT $M1; wait $M1; echo "SIGINT to exit: $(($(ms) - s)) ms"
grep -v '^libbpf' /tmp/m1.err | grep -E 'collectors started|stopping'
kill $W; wait $W 2>/dev/null; wait_kids
echo "### trace at -d 1, two loops"
timeout 150 tests/gpu/trace-rate.sh $B /tmp/tr 1 2 >/dev/null 2>&1; echo "trace-rate.sh rc $?"; cat /tmp/tr/summary.txt
wait_kids
