# A PyTorch training loop, unmodified by any profiler (tests/gpu/flame-gpu-time.sh): a small
# transformer-like block (attention, then an MLP) on random data, AdamW, STEPS steps, then a sync.
import sys

import torch


class Block(torch.nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.up = torch.nn.Linear(d, 4 * d)
        self.down = torch.nn.Linear(4 * d, d)
        self.norm1 = torch.nn.LayerNorm(d)
        self.norm2 = torch.nn.LayerNorm(d)

    def attention(self, x):
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        w = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1)
        return self.proj(w @ v)

    def mlp(self, x):
        return self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))

    def forward(self, x):
        x = x + self.attention(x)
        return x + self.mlp(x)


def train(steps):
    model = torch.nn.Sequential(Block(512), Block(512)).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(steps):
        x = torch.randn(8, 256, 512, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.cuda.synchronize()


if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    train(steps)
    print(steps, flush=True)
