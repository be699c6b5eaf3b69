"""PyTorch baseline for docs/benchmarks.md "Train step": the train step of
examples/mlp.mlir (4 x (Linear(1024, 1024) + GELU), Linear(1024, 10), cross
entropy; batch 256) or of examples/encoder_block.mlir with
bench/train/encoder_loss.mlir (the same ops: post-norm block, 8 heads, GELU
FFN; mse_loss; batch 8 x 128 x 512), with fused SGD (momentum 0.9), in eager
f32, eager torch.autocast('cpu', bfloat16) and torch.compile (inductor)
under the same autocast. Prints the median ms per step after warm-up and,
for inductor, the first call. A benchmark only, never a test:

    python3 bench/train/torch_train_bench.py [--model mlp|encoder]
        [--steps 20] [--threads 2]
"""

import argparse
import statistics
import time

import torch
import torch.nn.functional as F


def model():
    torch.manual_seed(7)
    layers = [torch.nn.Linear(1024, 1024) for _ in range(4)]
    layers.append(torch.nn.Linear(1024, 10))
    return torch.nn.ModuleList(layers)


def loss_fn(layers, x, labels):
    h = x
    for layer in layers[:4]:
        h = F.gelu(layer(h))
    return F.cross_entropy(layers[4](h), labels)


def encoder():
    torch.manual_seed(7)
    layers = [torch.nn.Linear(512, 512) for _ in range(4)]
    layers += [torch.nn.LayerNorm(512), torch.nn.Linear(512, 2048),
               torch.nn.Linear(2048, 512), torch.nn.LayerNorm(512)]
    return torch.nn.ModuleList(layers)


def encoder_loss(layers, x, y):
    """examples/encoder_block.mlir op by op, then mse_loss."""
    wq, wk, wv, wo, n1, f1, f2, n2 = layers
    heads = lambda t: t.reshape(8, 128, 8, 64)
    q = heads(wq(x)).permute(0, 2, 1, 3)
    kt = heads(wk(x)).permute(0, 2, 3, 1)
    v = heads(wv(x)).permute(0, 2, 1, 3)
    p = torch.softmax(torch.matmul(q, kt) * 0.125, dim=-1)
    o = torch.matmul(p, v).permute(0, 2, 1, 3).reshape(8, 128, 512)
    r1 = n1(x + wo(o))
    return F.mse_loss(n2(r1 + f2(F.gelu(f1(r1)))), y)


def run(name, step, steps):
    first = time.perf_counter()
    step()
    first = (time.perf_counter() - first) * 1e3
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e3)
    print(f"torch {name}: first step {first:.1f} ms, then median "
          f"{statistics.median(times):.3f} ms/step", flush=True)


def product_roof(steps):
    """The MLP step's matrix products alone, in bf16 (oneDNN through
    torch.matmul): per Linear(1024, 1024) the forward X W^T, the input
    gradient dY W and the weight gradient dY^T X at batch 256, four layers:
    the roof the issue's >= 90% goal is measured against (docs/benchmarks.md).
    """
    bf16 = torch.bfloat16
    x = [torch.randn(256, 1024, dtype=bf16) for _ in range(4)]
    w = [torch.randn(1024, 1024, dtype=bf16) for _ in range(4)]
    dy = [torch.randn(256, 1024, dtype=bf16) for _ in range(4)]

    def products():
        for i in range(4):
            torch.matmul(x[i], w[i].t())
            torch.matmul(dy[i], w[i])
            torch.matmul(dy[i].t(), x[i])

    run("mlp product roof bf16 (12 products)", products, steps)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model", choices=["mlp", "encoder"], default="mlp")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.model == "mlp":
        product_roof(args.steps)
        make, loss_of = model, loss_fn
        x = torch.randn(256, 1024)
        labels = torch.randint(0, 10, (256,))
    else:
        make, loss_of = encoder, encoder_loss
        x = torch.randn(8, 128, 512)
        labels = torch.randn(8, 128, 512)

    for name, autocast, compiled in (("eager f32", False, False),
                                     ("eager autocast bf16", True, False),
                                     ("inductor autocast bf16", True, True)):
        layers = make()
        opt = torch.optim.SGD(layers.parameters(), lr=0.01, momentum=0.9,
                              fused=True)

        def train_step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cpu", dtype=torch.bfloat16,
                                enabled=autocast):
                loss = loss_of(layers, x, labels)
            loss.backward()
            opt.step()
            return loss

        run(args.model + " " + name, torch.compile(train_step) if compiled else train_step,
            args.steps)


if __name__ == "__main__":
    main()
