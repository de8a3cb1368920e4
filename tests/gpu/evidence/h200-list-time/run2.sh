#!/bin/bash
# Device run 2 (2026-11-28): --list with the module links destroyed side by side; traces at 140,000 launches/s
# (two loops paced at 70,000 each, the default 64 MiB limit) and at full speed (--trace-max-mb 256).
B=build/portable/gputop-bpf
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
exec >"$OUT/run2.txt" 2>&1
ms() { echo $(($(date +%s%N) / 1000000)); }
wait_kids() { local s=$(ms); for i in $(seq 160); do pgrep -x gputop-bpf-exit >/dev/null || break; sleep 0.25; done; echo "  (gputop-bpf-exit gone $(($(ms) - s)) ms after)"; }
lists() { for i in $(seq "$1"); do s=$(ms); $B --list -v 2>&1 >/dev/null | grep -v '^libbpf' | grep -E 'nvidia started|collectors started|stopping'; echo "--list: $(($(ms) - s)) ms"; wait_kids; done; }
echo "### --list -v, idle"; lists 2
echo "### --list -v beside a PyTorch loop"
python3 -c "
import torch,time
x=torch.zeros(16,device='cuda')
t=time.time()
while time.time()-t<70: x.add_(1)
" >/tmp/w.out 2>&1 & W=$!
sleep 8; lists 3
s=$(ms); $B -b -J -d 0.5 -v >/tmp/m1.jsonl 2>/tmp/m1.err & M1=$!
for i in $(seq 400); do [ -s /tmp/m1.jsonl ] && break; sleep 0.05; done; echo "start to first snapshot: $(($(ms) - s)) ms"
sleep 2; s=$(ms); kill -INT $M1; wait $M1; echo "SIGINT to exit: $(($(ms) - s)) ms"
grep -v '^libbpf' /tmp/m1.err | grep -E 'collectors started|stopping'
kill $W; wait $W 2>/dev/null; wait_kids
echo "### trace at -d 1, two loops paced at 70,000 launches/s each"
timeout 150 tests/gpu/trace-rate.sh $B /tmp/tr1 1 2 70000 >/dev/null 2>&1; echo "trace-rate.sh rc $?"; cat /tmp/tr1/summary.txt
wait_kids
echo "### trace at -d 1, two loops at full speed, --trace-max-mb 256"
TRACE_ARGS="--trace-max-mb 256" timeout 150 tests/gpu/trace-rate.sh $B /tmp/tr2 1 2 >/dev/null 2>&1; echo "trace-rate.sh rc $?"; cat /tmp/tr2/summary.txt
python3 - /tmp/tr1/monitor.jsonl /tmp/tr2/monitor.jsonl <<'PY'
import json, sys
for f in sys.argv[1:]:
    snaps = [json.loads(l) for l in open(f) if l.strip()]
    tot = sum(r.get("launches_total", 0) or 0 for r in snaps[-1]["tables"].get("nvidia.processes", []))
    print(f, len(snaps), "snapshots; launches_total of nvidia.processes at the last:", tot)
PY
