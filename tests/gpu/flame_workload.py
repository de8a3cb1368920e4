# A PyTorch loop of known call chains for the README's flame graph (tests/gpu/flame.sh):
# train_step -> mlp (matmul, relu, add) x10, then attention (matmul, softmax), then a sum.
import sys
import time

import torch


def mlp(a):
    return torch.relu(a @ a) + a


def attention(a):
    return torch.softmax(a @ a.T, dim=-1)


def train_step(x):
    a = x
    for _ in range(10):
        a = mlp(a) * 0.001
    return attention(a).sum()


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    x = torch.randn(512, 512, device="cuda")
    for _ in range(steps):
        train_step(x)
    torch.cuda.synchronize()
    print(steps, flush=True)
    # argv[2]: seconds to live on after the last sync, for a monitor that sees a process's
    # first sync stack at its next interval (its mappings are read while it lives)
    if len(sys.argv) > 2:
        time.sleep(float(sys.argv[2]))


if __name__ == "__main__":
    main()
