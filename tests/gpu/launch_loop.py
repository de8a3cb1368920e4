# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Launch-bound loop for tests/gpu/nvidia.sh: ROUNDS rounds of 20,000 tiny kernels in one
process. Before round K it waits for the file GATE.K; after it, prints one JSON line with
the round's launches per second (best of 3 passes). PROFILE_EVEN=1: even rounds under torch.profiler
(CUDA activity)."""
import json
import os
import sys
import time

import torch

gate, rounds = sys.argv[1], int(sys.argv[2])
profile_even = os.environ.get("PROFILE_EVEN") == "1"
x = torch.zeros(16, device="cuda")
for _ in range(2000):
    x.add_(1)
torch.cuda.synchronize()
for k in range(1, rounds + 1):
    while not os.path.exists(f"{gate}.{k}"):
        time.sleep(0.01)
    prof = None
    if profile_even and k % 2 == 0:
        prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])
        prof.__enter__()
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(20000):
            x.add_(1)
        torch.cuda.synchronize()
        best = max(best, 20000 / (time.perf_counter() - t0))
    if prof:
        prof.__exit__(None, None, None)
    print(json.dumps({"round": k, "launches_per_s": best}), flush=True)
