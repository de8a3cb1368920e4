#!/usr/bin/env python3
"""The Stacks view's fixture recording: three snapshots of examples/mockgpu-7.3.jsonl
(its rings and processes) with nvidia.stacks and drm_sched.stacks tables of known
rows added, hostile ones among them. Run from the top: it writes stacks.jsonl here.
The sums the tests check (tests/tui/run.sh, "stacks") follow from ROWS."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
SUB = "_start;__libc_start_main;main"
ADD = "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, at::detail::Array<char*, 3>>"
MUL = "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, at::detail::Array<char*, 3>>"
LAUNCHES = [  # pid, comm, frames, leaf, count
    (4242, "trainer", "_start;main;train_step;forward", "ampere_sgemm_128x64_nn", 300),
    (4242, "trainer", "_start;main;train_step;forward", ADD, 120),
    (4242, "trainer", "_start;main;train_step;forward", MUL, 80),
    (4242, "trainer", "_start;main;train_step;backward", "ampere_sgemm_128x64_tn", 200),
    (4242, "trainer", "_start;main;eval", "reduce_kernel", 50),
    (4242, "trainer", "", "cudaMemsetAsync_kernel", 7),  # no frames: the leaf under the process
]
JOBS = [  # pid, comm, frames, leaf, count, gpu_time_ns, queue_wait_ns
    (206, "mockgpu-submit", SUB + ";phase_a;submit_a;ioctl", "mockgpu gfx_0.0.0", 40, 80000000, 4000000),
    (206, "mockgpu-submit", SUB + ";phase_b;submit_b;ioctl", "mockgpu gfx_0.0.0", 20, 30000000, 1000000),
    (206, "mockgpu-submit", SUB + ";phase_b;submit_b;ioctl", "mockgpu comp_1.0.0", 10, 5000000, 500000),
    (212, "mockgpu-submit", "[truncated];submit_c;ioctl", "mockgpu sdma0", 6, 1500000, 250000),
    # hostile: escapes in comm, frames and leaf; an empty frame; a frame longer than a cell keeps
    (6666, "evil\x1b[2Jx", "main;\x1b]0;pwned\x07;;" + "A" * 5000, "mockgpu gfx_0.0.0\x1b[31m", 3, 1000, 10),
    (6667, "deep", ";".join("f%d" % i for i in range(10000)), "mockgpu comp_1.0.0", 2, 2000, 20),
]


def rows():
    out = {"nvidia.stacks": [], "drm_sched.stacks": []}
    for pid, comm, frames, leaf, n in LAUNCHES:
        out["nvidia.stacks"].append({"pid": pid, "comm": comm, "source": "launch", "leaf": leaf, "frames": frames,
                                     "count": n, "gpu_time_ns": None, "queue_wait_ns": None,
                                     "sampled": "DWARF: 40 of 757 launches unwound"})
    for pid, comm, frames, leaf, n, gpu, wait in JOBS:
        out["drm_sched.stacks"].append({"pid": pid, "comm": comm, "source": "job", "leaf": leaf, "frames": frames,
                                        "count": n, "gpu_time_ns": gpu, "queue_wait_ns": wait, "sampled": ""})
    return out


lines = open(os.path.join(HERE, "../../../examples/mockgpu-7.3.jsonl")).readlines()[20:23]
with open(os.path.join(HERE, "stacks.jsonl"), "w") as f:
    for line in lines:
        snap = json.loads(line)
        snap["tables"].update(rows())
        f.write(json.dumps(snap, separators=(",", ":")) + "\n")
