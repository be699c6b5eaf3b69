"""PyTorch eager baseline for docs/benchmarks.md "CPU code generation".

The shapes of examples/mlp.mlir and examples/encoder_block.mlir in PyTorch
eager mode, f32 and under torch.autocast('cpu', dtype=torch.bfloat16),
timed like tp-cpu-bench (interleaved rounds, medians). A benchmark only,
never a test:

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    python3 bench/cpu/torch_autocast_bench.py [--rounds 21]
"""

import argparse
import statistics
import time

import torch
import torch.nn.functional as F


def mlp_inputs():
    torch.manual_seed(7)
    x = torch.rand(256, 1024) * 2 - 1
    labels = torch.randint(0, 10, (256,))
    layers = [torch.nn.Linear(1024, 1024) for _ in range(4)]
    layers.append(torch.nn.Linear(1024, 10))
    return x, labels, layers


def mlp(x, labels, layers):
    h = x
    for layer in layers[:4]:
        h = F.gelu(layer(h))
    logits = layers[4](h)
    return F.cross_entropy(logits, labels), logits


def encoder_inputs():
    torch.manual_seed(7)
    x = torch.rand(8, 128, 512) * 2 - 1
    q, k, v, o = (torch.nn.Linear(512, 512) for _ in range(4))
    ln1, ln2 = torch.nn.LayerNorm(512), torch.nn.LayerNorm(512)
    f1, f2 = torch.nn.Linear(512, 2048), torch.nn.Linear(2048, 512)
    return x, (q, k, v, o, ln1, f1, f2, ln2)


def encoder(x, mods):
    q, k, v, o, ln1, f1, f2, ln2 = mods
    heads = lambda t: t.reshape(8, 128, 8, 64).permute(0, 2, 1, 3)  # noqa: E731
    s = heads(q(x)) @ heads(k(x)).permute(0, 1, 3, 2)
    p = torch.softmax(s * 0.125, dim=-1)
    att = (p @ heads(v(x))).permute(0, 2, 1, 3).reshape(8, 128, 512)
    n1 = ln1(x + o(att))
    return ln2(n1 + f2(F.gelu(f1(n1))))


def timed(fn, rounds, warmup=3):
    f32, bf16 = [], []
    for r in range(warmup + rounds):
        for store, ctx in ((f32, None), (bf16, "bf16")):
            t0 = time.perf_counter()
            with torch.no_grad():
                if ctx:
                    with torch.autocast("cpu", dtype=torch.bfloat16):
                        fn()
                else:
                    fn()
            t1 = time.perf_counter()
            if r >= warmup:
                store.append((t1 - t0) * 1e3)
    return statistics.median(f32), statistics.median(bf16)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=21)
    a = p.parse_args()
    print("torch %s, %d threads" % (torch.__version__, torch.get_num_threads()))
    print("| example | eager f32 ms | eager autocast bf16 ms | speed-up |")
    print("|---|---:|---:|---:|")
    x, labels, layers = mlp_inputs()
    f, b = timed(lambda: mlp(x, labels, layers), a.rounds)
    print("| MLP | %.2f | %.2f | %.2fx |" % (f, b, f / b))
    x, mods = encoder_inputs()
    f, b = timed(lambda: encoder(x, mods), a.rounds)
    print("| encoder block | %.2f | %.2f | %.2fx |" % (f, b, f / b))


if __name__ == "__main__":
    main()
