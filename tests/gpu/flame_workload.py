# A PyTorch loop of known call chains for the README's flame graph (tests/gpu/flame.sh):
# train_step -> mlp (matmul, relu, add) x10, then attention (matmul, softmax), then a sum.
import sys
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


if __name__ == "__main__":
    main()
