# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A PyTorch workload of known shape for tests/gpu/nvidia.sh.

Each step prints one JSON line of what it did, measured here, then waits for the
file GATE.<step> to exist so the monitor can take its snapshot in between:
ready (warmed up), launched (N one-kernel launches), allocated (16 x 64 MiB),
freed (the cache emptied), synced (SYNCS waits on a ~2 ms kernel, timed here).
Usage: python3 torch_workload.py GATE_PREFIX N SYNCS
"""
import json
import os
import sys
import time

import torch


def say(step, **kw):
    kw.update(step=step, pid=os.getpid(), reserved=torch.cuda.memory_reserved())
    print(json.dumps(kw), flush=True)
    while not os.path.exists(f"{sys.argv[1]}.{step}"):
        time.sleep(0.01)


def main():
    n, syncs = int(sys.argv[2]), int(sys.argv[3])
    x = torch.zeros(1024, device="cuda")
    for _ in range(100):
        x.add_(1)
    # cycles for ~2 ms at the GPU's clock: measured, not assumed, once the spin kernel is loaded
    # (its first launch loads it: timed with it, the waits came out ~50 us, where the probes' own
    # cost and Python's around each call are a large share, and the check below failed)
    torch.cuda._sleep(1000)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    torch.cuda._sleep(10_000_000)
    torch.cuda.synchronize()
    cycles = int(10_000_000 * 0.002 / max(time.perf_counter() - t0, 1e-4))
    say("ready")

    for _ in range(n):
        x.add_(1)  # one elementwise kernel each
    torch.cuda.synchronize()
    say("launched", n=n)

    bufs = [torch.empty(64 << 20, dtype=torch.uint8, device="cuda") for _ in range(16)]
    torch.cuda.synchronize()
    say("allocated", bytes=sum(b.numel() for b in bufs))

    del bufs
    torch.cuda.empty_cache()
    say("freed")

    waited = 0
    for _ in range(syncs):
        torch.cuda._sleep(cycles)
        t0 = time.perf_counter_ns()
        torch.cuda.synchronize()
        waited += time.perf_counter_ns() - t0
    say("synced", n=syncs, sync_ns=waited)


main()
