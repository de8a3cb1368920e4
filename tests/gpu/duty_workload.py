#!/usr/bin/env python3
"""A GPU busy half the time: for SECONDS, matrix products for 0.25 s (synchronised), then 0.25 s idle.
Prints one JSON line: its pid, the wall-clock start and end (seconds since the epoch), the busy share
it measured (time inside its busy phases over the whole)."""
import json
import sys
import time

import torch

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
a = torch.randn(4096, 4096, device="cuda")
b = torch.randn(4096, 4096, device="cuda")
torch.cuda.synchronize()
start = time.time()
busy = 0.0
while time.time() - start < seconds:
    t0 = time.time()
    while time.time() - t0 < 0.25:
        a @ b
        torch.cuda.synchronize()
    busy += time.time() - t0
    time.sleep(0.25)
end = time.time()
print(json.dumps({"pid": __import__("os").getpid(), "start": start, "end": end, "busy_share": busy / (end - start)}))
