#!/bin/bash
B=build/portable/gputop-bpf
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
export PYTHONUNBUFFERED=1
exec > $OUT/v4.txt 2>&1
ms() { echo $(($(date +%s%N) / 1000000)); }
wait_kids() { local s=$(ms); for i in $(seq 120); do pgrep -x gputop-bpf-exit > /dev/null || break; sleep 0.25; done; echo "  (its gputop-bpf-exit ended $(( $(ms) - s )) ms after)"; }
echo "### exit times"
s=$(ms); $B --list > /dev/null 2>&1; echo "--list: $(( $(ms) - s )) ms"; wait_kids
s=$(ms); $B -b -J -n 2 -d 0.5 > /dev/null 2>&1; echo "-b -n 2 -d 0.5: $(( $(ms) - s )) ms (0.5 s of it the interval)"; wait_kids
/lib64/ld-linux-x86-64.so.2 /opt/torch/.venv/bin/python3 -c "
import torch,time
x=torch.zeros(16,device='cuda')
t=time.time()
while time.time()-t<25: x.add_(1)
" > /tmp/w.out 2>&1 & W=$!
sleep 6
s=$(ms); $B -b -J -d 0.5 > /tmp/m1.jsonl 2>/tmp/m1.err & M1=$!
for i in $(seq 400); do [ -s /tmp/m1.jsonl ] && break; sleep 0.05; done; echo "start to first snapshot, a CUDA process running: $(( $(ms) - s )) ms"
sleep 3; s=$(ms); kill -INT $M1; wait $M1; echo "SIGINT to exit, a CUDA process running: $(( $(ms) - s )) ms"
python3 - $M1 $W <<'PY'
import json, sys
m1, w = map(int, sys.argv[1:])
snaps = [json.loads(l) for l in open("/tmp/m1.jsonl") if l.strip()]
t = snaps[-1]["tables"]
me = t["self.process"][0]["pid"]
print(len(snaps), "snapshots; self pid", me)
for k in ("calls.ioctls", "nvidia.processes", "gpu.processes", "nvidia.process_gpus", "nvidia.gpu_processes", "nvidia.kernels"):
    rows = t.get(k, [])
    print("  ", k, sorted({(r.get("pid"), r.get("comm")) for r in rows}, key=str), "self rows", sum(1 for r in rows if r.get("pid") == me))
for r in t.get("nvidia.process_gpus", []):
    print("   process_gpus", r.get("pid"), r.get("comm"), "dev", r.get("dev"), "gpu", r.get("gpu"), "bus", r.get("bus_id"), "from", r.get("gpu_from"), "launches", r.get("launches_total"), "nvml_mem", r.get("nvml_mem_bytes"))
for r in t.get("gpu.processes", []):
    print("   gpu.processes", r.get("pid"), r.get("comm"), "gpus", r.get("gpus"), "mem", r.get("mem_bytes"), "sources", r.get("sources"))
PY
cat /tmp/m1.err | tail -3
kill $W; wait $W 2>/dev/null; wait_kids
echo "### trace at -d 1"
timeout 120 tests/gpu/trace-rate.sh $B /tmp/tr 1 > /dev/null 2>&1; echo "trace-rate.sh rc $?"; cat /tmp/tr/summary.txt
wait_kids
echo "### tests/gpu/nvidia.sh"
timeout 400 tests/gpu/nvidia.sh $B /tmp/nv > $OUT/nvidia-sh.txt 2>&1; echo "nvidia.sh rc $?"; grep -E "FAIL|tests:" $OUT/nvidia-sh.txt
