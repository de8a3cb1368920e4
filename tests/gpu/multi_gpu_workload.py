# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A PyTorch workload of known shape on two GPUs in one process, for tests/gpu/multi_gpu.sh.

Each step prints one JSON line of what it did, measured here, per CUDA device
("0", "1": the process's own ordinals, cuda:0 and cuda:1), then waits for the
file GATE.<step> to exist so that the monitor can take its snapshot in between:
ready (both warmed up; the bus id of each device asked of libcuda by
cuDeviceGetPCIBusId), launched (N0 one-kernel launches on cuda:0, then N1 on
cuda:1), allocated (16 x 64 MiB on cuda:0, 8 x 64 MiB on cuda:1), freed (the
caches emptied), synced (SYNCS waits on a ~2 ms kernel on each device, timed
here per device).
Usage: python3 multi_gpu_workload.py GATE_PREFIX N0 N1 SYNCS
"""
import ctypes
import json
import os
import sys
import time

import torch

DEVS = (0, 1)


def say(step, **kw):
    kw.update(step=step, pid=os.getpid(),
              reserved={str(d): torch.cuda.memory_reserved(d) for d in DEVS})
    print(json.dumps(kw), flush=True)
    while not os.path.exists(f"{sys.argv[1]}.{step}"):
        time.sleep(0.01)


def bus_ids():
    """Each device's PCI bus id from libcuda itself (the call the monitor reads), or None."""
    cuda = ctypes.CDLL("libcuda.so.1")
    out = {}
    for d in DEVS:
        dev = ctypes.c_int()
        buf = ctypes.create_string_buffer(32)
        ok = cuda.cuDeviceGet(ctypes.byref(dev), d) == 0 and \
            cuda.cuDeviceGetPCIBusId(buf, 32, dev) == 0
        out[str(d)] = buf.value.decode() if ok else None
    return out


def sleep_cycles(d):
    """Cycles of torch.cuda._sleep for ~2 ms on device d: measured, not assumed."""
    with torch.cuda.device(d):
        t0 = time.perf_counter()
        torch.cuda._sleep(1_000_000)
        torch.cuda.synchronize(d)
        return int(1_000_000 * 0.002 / max(time.perf_counter() - t0, 1e-4))


def main():
    n = {"0": int(sys.argv[2]), "1": int(sys.argv[3])}
    syncs = int(sys.argv[4])
    if torch.cuda.device_count() < 2:
        print(json.dumps({"error": "fewer than 2 CUDA devices"}), flush=True)
        sys.exit(1)
    x = {}
    for d in DEVS:
        x[d] = torch.zeros(1024, device=f"cuda:{d}")
        for _ in range(100):
            x[d].add_(1)
        torch.cuda.synchronize(d)
    cycles = {d: sleep_cycles(d) for d in DEVS}
    say("ready", bus=bus_ids())

    for d in DEVS:  # all of one device's launches, then the other's
        with torch.cuda.device(d):
            for _ in range(n[str(d)]):
                x[d].add_(1)  # one elementwise kernel each
            torch.cuda.synchronize(d)
    say("launched", n=n)

    blocks = {0: 16, 1: 8}
    bufs = [torch.empty(64 << 20, dtype=torch.uint8, device=f"cuda:{d}")
            for d in DEVS for _ in range(blocks[d])]
    for d in DEVS:
        torch.cuda.synchronize(d)
    say("allocated", bytes={str(d): blocks[d] * (64 << 20) for d in DEVS})

    del bufs
    torch.cuda.empty_cache()
    say("freed")

    waited = {}
    for d in DEVS:
        waited[str(d)] = 0
        with torch.cuda.device(d):
            for _ in range(syncs):
                torch.cuda._sleep(cycles[d])
                t0 = time.perf_counter_ns()
                torch.cuda.synchronize(d)
                waited[str(d)] += time.perf_counter_ns() - t0
    say("synced", n=syncs, sync_ns=waited)


main()
