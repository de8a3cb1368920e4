#!/usr/bin/env python3
# The recording of bench/replay-scale.sh: SNAPSHOTS snapshots of RINGS rings and PROCS processes with
# a row of each process in every table a derived table reads (gpu.processes; nvidia.process_gpus'
# joined columns), each row made from one of the example recordings'.
#   bench/replay-scale.py RINGS PROCS SNAPSHOTS OUT
import json
import sys

R, P, N, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
SOURCES = {  # the tables a derived table reads, and a recording with a row of each
    "examples/mockgpu-7.3.jsonl": ("drm_sched.rings", "drm_sched.processes", "drm_sched.process_rings",
                                   "memory.clients", "memory.processes", "calls.ioctls", "calls.fence_waits"),
    "examples/nvidia-h100x2.jsonl": ("nvidia.gpus", "nvidia.gpu_processes", "nvidia.processes",
                                     "nvidia.process_gpus"),
    "examples/sysfs-fixtures.jsonl": ("kfd.processes",),
}
first, rows = None, {}
for path, names in SOURCES.items():
    for line in open(path):  # the first snapshot with a row of each
        s = json.loads(line)
        if all(s["tables"].get(n) for n in names):
            rows.update({n: s["tables"][n][0] for n in names})
            first = first or s
            break
    else:
        sys.exit(f"replay-scale.py: {path} has no snapshot with a row of each of {names}")

G = max(1, (R + 99) // 100)  # the devices: each both a DRM card and an NVIDIA GPU, as NVIDIA's are


def bus(d):  # DRM's spelling; NVML's is its upper-case, eight-digit domain form
    return f"0000:{d:02x}:00.0"


def nvml_bus(d):
    return f"00000000:{d:02X}:00.0"


def comm(i):  # one in ten named by the calls collector alone
    return "?" if i % 10 == 9 else f"proc{i}"


t = dict(first["tables"])
t["drm_sched.rings"] = [dict(rows["drm_sched.rings"], name=f"ring{r}", dev=bus(r // 100)) for r in range(R)]
t["nvidia.gpus"] = [dict(rows["nvidia.gpus"], gpu=g, minor=g, bus_id=nvml_bus(g)) for g in range(G)]
for name in ("drm_sched.processes", "drm_sched.process_rings", "memory.clients", "memory.processes",
             "nvidia.gpu_processes", "nvidia.processes", "nvidia.process_gpus", "calls.ioctls",
             "calls.fence_waits", "kfd.processes"):
    t[name] = []
for i in range(P):
    pid, r, c = 1000 + i, i % R, comm(i)
    d, g = r // 100, i % G
    t["drm_sched.processes"].append(dict(rows["drm_sched.processes"], pid=pid, comm=c))
    t["drm_sched.process_rings"].append(dict(rows["drm_sched.process_rings"], pid=pid, name=f"ring{r}", dev=bus(d)))
    t["memory.clients"].append(dict(rows["memory.clients"], pid=pid, comm=c, client=i, dev=bus(d),
                                    resident_bytes=4096 * (i % 1000 + 1), busy_pct=float(i % 100)))
    t["memory.processes"].append(dict(rows["memory.processes"], pid=pid, comm=c, render_pct=float(i % 100)))
    t["nvidia.gpu_processes"].append(dict(rows["nvidia.gpu_processes"], gpu=g, pid=pid, comm=c))
    t["nvidia.processes"].append(dict(rows["nvidia.processes"], pid=pid, comm=c))
    t["nvidia.process_gpus"].append(dict(rows["nvidia.process_gpus"], pid=pid, comm=c, gpu=g,
                                         cuda_device=str(g), bus_id=nvml_bus(g)))
    t["calls.ioctls"].append(dict(rows["calls.ioctls"], pid=pid, comm=f"proc{i}", device=f"nvidia{g}",
                                  driver="nvidia"))
    t["calls.fence_waits"].append(dict(rows["calls.fence_waits"], pid=pid, comm=f"proc{i}"))
    t["kfd.processes"].append(dict(rows["kfd.processes"], pid=pid, comm=c, gpu_id=d, dev=bus(d)))
s = dict(first, tables=t, devices=[{"name": f"card{d}", "driver": "amdgpu", "bus_id": bus(d)} for d in range(G)])
s["seq"] = 0
head, _, tail = json.dumps(s, separators=(",", ":")).partition('"seq":0')  # written once, its seq set per line
with open(out, "w") as f:
    for k in range(N):
        f.write(f'{head}"seq":{k + 1}{tail}\n')
