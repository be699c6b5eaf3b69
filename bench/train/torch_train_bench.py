"""PyTorch baseline for docs/benchmarks.md "Train step": the train step of
examples/mlp.mlir (4 x (Linear(1024, 1024) + GELU), Linear(1024, 10), cross
entropy; batch 256) with fused SGD (momentum 0.9), in eager f32, eager
torch.autocast('cpu', bfloat16) and torch.compile (inductor) under the same
autocast. Prints the median ms per step after warm-up and, for inductor,
the first call. A benchmark only, never a test:

    python3 bench/train/torch_train_bench.py [--steps 20] [--threads 2]
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    x = torch.randn(256, 1024)
    labels = torch.randint(0, 10, (256,))

    for name, autocast, compiled in (("eager f32", False, False),
                                     ("eager autocast bf16", True, False),
                                     ("inductor autocast bf16", True, True)):
        layers = model()
        opt = torch.optim.SGD(layers.parameters(), lr=0.01, momentum=0.9,
                              fused=True)

        def train_step():
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cpu", dtype=torch.bfloat16,
                                enabled=autocast):
                loss = loss_fn(layers, x, labels)
            loss.backward()
            opt.step()
            return loss

        run(name, torch.compile(train_step) if compiled else train_step,
            args.steps)


if __name__ == "__main__":
    main()
