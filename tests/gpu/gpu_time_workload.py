# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Known GPU work for tests/gpu/gpu-time.sh: after a warm-up of multiplies, waits for the file GATE
(when not "-"), then N adds of a 16-float tensor and S torch.cuda._sleep(CYCLES) spins, one kernel
each; then LAT rounds of two more spins and an exp queued behind them (its launch-to-start time: what
is left of the two spins when it is queued: their GPU time less the time its launch took after theirs
began, measured here); prints one JSON line: its pid, N, the spins, CYCLES, LAT and the wall time
of the first S spins; then waits for the file GATE.done (when GATE is not "-"), so that a monitor
still sees it."""
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
LAT = 10
gaps = []
for _ in range(LAT):  # the exp waits in the queue for both spins, less the time its launch came after theirs
    t = time.perf_counter()
    torch.cuda._sleep(cycles)
    torch.cuda._sleep(cycles)
    x.exp_()  # the first loads its module (CUDA's lazy loading): that round's launch comes late
    gaps.append(time.perf_counter() - t)
    torch.cuda.synchronize()
print(json.dumps({"pid": os.getpid(), "adds": n, "spins": s + 2 * LAT, "cycles": cycles, "lat_rounds": LAT,
                  "lat_launch_gaps_s": gaps, "spin_wall_s": spin_s, "first_spins": s}), flush=True)
while gate != "-" and not os.path.exists(gate + ".done"):
    time.sleep(0.01)
