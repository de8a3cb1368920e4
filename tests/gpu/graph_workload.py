# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A CUDA graph for tests/gpu/gpu-time.sh: once the file GATE is there, K adds captured once (after a
warm-up of W adds on a side stream, as PyTorch asks), the graph replayed R times; then waits for
GATE.done. Prints one JSON line: its pid, the adds run outside the graph (the warm-up), K and R: the
graph's kernels run K * R times, and a monitor that sees them counts K * R + W adds."""
import json
import os
import sys
import time

import torch

gate, k, r = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w = 3
x = torch.zeros(16, device="cuda")
torch.cuda.synchronize()
print(json.dumps({"ready": os.getpid()}), flush=True)
while not os.path.exists(gate):  # the monitor's CUPTI on first: the warm-up's adds counted too
    time.sleep(0.01)
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(w):
        x.add_(1)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    for _ in range(k):
        x.add_(1)
for _ in range(r):
    g.replay()
torch.cuda.synchronize()
print(json.dumps({"pid": os.getpid(), "warmup_adds": w, "graph_adds": k, "replays": r}), flush=True)
while not os.path.exists(gate + ".done"):
    time.sleep(0.01)
