# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The training loop of tests/gpu/train_loop.py (the same blocks, AdamW), timed in rounds for
tests/gpu/gpu-time-cost.sh: ROUNDS rounds of 3 passes of 40 steps in one process. Before round K it
waits for the file GATE.K; after it, prints one JSON line with the round's steps per second (best
pass). PROFILE_EVEN=1: even rounds under torch.profiler (CUDA activity)."""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_loop import Block  # noqa: E402

gate, rounds = sys.argv[1], int(sys.argv[2])
profile_even = os.environ.get("PROFILE_EVEN") == "1"
model = torch.nn.Sequential(Block(512), Block(512)).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(8, 256, 512, device="cuda")


def steps(n):
    for _ in range(n):
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.cuda.synchronize()


def passes():
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        steps(40)
        best = max(best, 40 / (time.perf_counter() - t0))
    return best


steps(10)
for k in range(1, rounds + 1):
    while not os.path.exists(f"{gate}.{k}"):
        time.sleep(0.01)
    if profile_even and k % 2 == 0:
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]):
            best = passes()
    else:
        best = passes()
    print(json.dumps({"round": k, "launches_per_s": best}), flush=True)
