# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""A deterministic training loop for tests/gpu/gpu-time.sh: kernels per name under torch.profiler
against nvidia.gpu_time's. MODE "profiler": the steps under torch.profiler (CUDA activity), prints
{"profiler": {kernel name: count}}. MODE "plain" (run with the CUPTI library and a monitor): waits
for the file GATE, runs the same steps, prints {"pid": ...}, waits for GATE.done. No warm-up and no
tensor made on the GPU outside the steps (copies only), so every kernel of the run is a step's."""
import collections
import json
import os
import sys
import time

import torch

mode, steps = sys.argv[1], int(sys.argv[2])
gate = sys.argv[3] if len(sys.argv) > 3 else "-"
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01, foreach=False)
x = torch.randn(64, 512).cuda()
y = torch.randint(0, 10, (64,)).cuda()
torch.cuda.synchronize()


def run():
    for _ in range(steps):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()


if mode == "profiler":
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        run()
    counts = collections.Counter(e.name for e in prof.events()
                                 if e.device_type == torch.autograd.DeviceType.CUDA and
                                 not e.name.startswith(("Memcpy", "Memset")))
    print(json.dumps({"profiler": counts}), flush=True)
else:
    print(json.dumps({"ready": os.getpid()}), flush=True)
    while gate != "-" and not os.path.exists(gate):
        time.sleep(0.01)
    run()
    print(json.dumps({"pid": os.getpid()}), flush=True)
    while gate != "-" and not os.path.exists(gate + ".done"):
        time.sleep(0.01)
