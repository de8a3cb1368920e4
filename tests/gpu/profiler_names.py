# The flame workload's loop (flame_workload.py) under torch.profiler, every launch of the process
# inside the profile: prints its pid, then writes {kernel name: launches} as CUPTI saw them to
# the file argv[2] (tests/gpu/profiler-names.sh compares them with the monitor's nvidia.kernels).
import json
import os
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

from flame_workload import train_step


def main():
    steps, out = int(sys.argv[1]), sys.argv[2]
    print(os.getpid(), flush=True)
    time.sleep(1.0)  # the monitor sees the process before its first launch
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        x = torch.randn(512, 512, device="cuda")
        for _ in range(steps):
            train_step(x)
        torch.cuda.synchronize()
    counts = {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        if e.name.startswith(("Memcpy", "Memset")):
            continue
        counts[e.name] = counts.get(e.name, 0) + 1
    with open(out, "w") as f:
        json.dump(counts, f, indent=1, sort_keys=True)
    time.sleep(2.0)  # the monitor reads the last counts while the process lives


if __name__ == "__main__":
    main()
