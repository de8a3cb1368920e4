# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Known GPU work for tests/gpu/gpu-time.sh: after a warm-up of multiplies, waits for the file GATE
(when not "-"), then N adds of a 16-float tensor and S torch.cuda._sleep(CYCLES) spins, one kernel
each; prints one JSON line: its pid, N, S, CYCLES and the wall time of the spins; then waits for the
file GATE.done (when GATE is not "-"), so that a monitor still sees it."""
import json
import os
import sys
import time

import torch

gate, n, s, cycles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
x = torch.zeros(16, device="cuda")
for _ in range(200):
    x.mul_(1)
torch.cuda.synchronize()
print(json.dumps({"ready": os.getpid()}), flush=True)
while gate != "-" and not os.path.exists(gate):
    time.sleep(0.01)
for _ in range(n):
    x.add_(1)
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(s):
    torch.cuda._sleep(cycles)
torch.cuda.synchronize()
spin_s = time.perf_counter() - t0
print(json.dumps({"pid": os.getpid(), "adds": n, "spins": s, "cycles": cycles, "spin_wall_s": spin_s}), flush=True)
while gate != "-" and not os.path.exists(gate + ".done"):
    time.sleep(0.01)
