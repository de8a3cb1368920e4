# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What one probed call costs: 300,000 calls of libcuda's cuLaunchKernel with no context
(it returns CUDA_ERROR_NOT_INITIALIZED at once, launching nothing), best of 3 passes, in
ns per call (one JSON line). The difference with and without the monitor is the probe's."""
import ctypes
import json
import os
import time

lib = ctypes.CDLL("libcuda.so.1")
launch = lib.cuLaunchKernel
launch.restype = ctypes.c_int
args = (None, 1, 1, 1, 1, 1, 1, 0, None, None, None)
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter_ns()
    for _ in range(300000):
        launch(*args)
    best = min(best, (time.perf_counter_ns() - t0) / 300000)
print(json.dumps({"ns_per_call": best, "result": launch(*args), "pid": os.getpid(), "calls": 900001}))
