#!/usr/bin/env python3
"""A GPU busy half the time (once the file GATE is there, when one is named): for SECONDS, matrix products for 0.25 s (synchronised), then 0.25 s idle.
Prints one JSON line: its pid, the wall-clock start and end (seconds since the epoch), the busy share
it measured (time inside its busy phases over the whole), the products run, and the mean GPU time of
one by CUDA events: each busy step queues two products, the events around the second, which the GPU
starts as the first ends (no launch gap between the events)."""
import json
import os
import sys
import time

import torch

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
gate = sys.argv[2] if len(sys.argv) > 2 else None  # when given: its start waits for this file
a = torch.randn(4096, 4096, device="cuda")
b = torch.randn(4096, 4096, device="cuda")
torch.cuda.synchronize()
while gate and not os.path.exists(gate):
    time.sleep(0.01)
start = time.time()
busy = 0.0
gpu_ms, timed = 0.0, 0
e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
while time.time() - start < seconds:
    t0 = time.time()
    while time.time() - t0 < 0.25:
        a @ b
        e0.record()
        a @ b
        e1.record()
        torch.cuda.synchronize()
        gpu_ms += e0.elapsed_time(e1)
        timed += 1
    busy += time.time() - t0
    time.sleep(0.25)
end = time.time()
print(json.dumps({"pid": os.getpid(), "start": start, "end": end, "busy_share": busy / (end - start),
                  "products": 2 * timed, "event_mean_ns": gpu_ms * 1e6 / timed if timed else None}))
