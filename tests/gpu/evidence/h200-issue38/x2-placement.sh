#!/bin/bash
# Two H200s: a PyTorch program on both CUDA devices that never asks for a bus id; again with
# CUDA_VISIBLE_DEVICES=1,0. Each CUDA device's row placed on its GPU?
B=build/portable/gputop-bpf
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
export PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
exec > $OUT/v6.txt 2>&1
nvidia-smi --query-gpu=index,pci.bus_id,name --format=csv,noheader
cat > /tmp/two.py <<'PY'
import json, os, time, torch
n = {0: 3000, 1: 5000}
xs = {}
for d in (0, 1):
    x = torch.zeros(16, device=f"cuda:{d}")
    for _ in range(n[d]):
        x.add_(1)
    xs[d] = torch.empty(64 << 20 << d, dtype=torch.uint8, device=f"cuda:{d}")
    torch.cuda.synchronize(d)
time.sleep(5)
props = {d: getattr(torch.cuda.get_device_properties(d), "pci_device_id", None) for d in (0, 1)}
print(json.dumps({"pid": os.getpid(), "env": os.environ.get("CUDA_VISIBLE_DEVICES"), "bus": props,
                  "reserved": {d: torch.cuda.memory_reserved(d) for d in (0, 1)}}))
PY
$B -b -J -d 1 > /tmp/m.jsonl 2>/tmp/m.err & M=$!
for i in $(seq 200); do [ -s /tmp/m.jsonl ] && break; sleep 0.05; done
python3 /tmp/two.py > /tmp/a.json & A=$!
CUDA_VISIBLE_DEVICES=1,0 python3 /tmp/two.py > /tmp/b.json & Bp=$!
wait $A $Bp; sleep 1.5; kill -INT $M; wait $M
cat /tmp/a.json /tmp/b.json
python3 - <<'PY'
import json
snaps = [json.loads(l) for l in open("/tmp/m.jsonl")]
seen = {}
for s in snaps:
    for r in s["tables"].get("nvidia.process_gpus", []):
        seen[(r["pid"], r.get("cuda_device"))] = r
for (pid, dev), r in sorted(seen.items(), key=str):
    print(pid, r["comm"], "dev", dev, "gpu", r["gpu"], "bus", r["bus_id"], "from", r["gpu_from"], "launches", r["launches_total"], "mem", r["mem_bytes"], "nvml_mem", r.get("nvml_mem_bytes"), "ioctls", r.get("ioctls_total"))
PY
tail -2 /tmp/m.err
