# Launches of a small kernel on an idle GPU, one at a time (tests/gpu/trace-kernels.sh): each
# iteration synchronizes, then launches one elementwise add on a small tensor, so that the kernel
# starts as soon as the launch reaches the GPU. N iterations (default 500), then prints "gap N".
import sys

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
x = torch.ones(1024, device="cuda")
torch.cuda.synchronize()
for _ in range(n):
    x.add_(1)
    torch.cuda.synchronize()
print("gap", n)
