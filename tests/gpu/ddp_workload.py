# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Two processes with NCCL (torchrun --nproc_per_node=2), for tests/gpu/multi_gpu.sh.

Rank r works on cuda:r (torch.cuda.set_device(r): the process's ordinal r) and
writes one JSON line per step to OUT_PREFIX.rank<r>.jsonl, then waits for the
file GATE.<step>: ready (NCCL up: a first all-reduce done), launched (N
one-kernel launches on its device, no collective in between), reduced (K
all-reduces of 64 MiB, each waited for: NCCL's synchronisation).
Usage: torchrun --nproc_per_node=2 ddp_workload.py GATE_PREFIX OUT_PREFIX N K
"""
import json
import os
import sys
import time

import torch
import torch.distributed as dist


def main():
    gate, out, n, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl")
    log = open(f"{out}.rank{rank}.jsonl", "w", buffering=1)

    def say(step, **kw):
        kw.update(step=step, pid=os.getpid(), rank=rank, device=rank,
                  reserved=torch.cuda.memory_reserved(rank))
        log.write(json.dumps(kw) + "\n")
        while not os.path.exists(f"{gate}.{step}"):  # no barrier: its kernel would count as a launch
            time.sleep(0.01)

    x = torch.zeros(1024, device=f"cuda:{rank}")
    big = torch.ones(16 << 20, device=f"cuda:{rank}")  # 64 MiB of float32
    dist.all_reduce(big)
    torch.cuda.synchronize()
    say("ready")

    for _ in range(n):
        x.add_(1)
    torch.cuda.synchronize()
    say("launched", n=n)

    waited = 0
    for _ in range(k):
        dist.all_reduce(big)
        t0 = time.perf_counter_ns()
        torch.cuda.synchronize()
        waited += time.perf_counter_ns() - t0
    say("reduced", k=k, sync_ns=waited)
    dist.destroy_process_group()


main()
