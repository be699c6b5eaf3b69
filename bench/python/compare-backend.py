#!/usr/bin/env python3
"""tensorplay.compile(backend="mlir") against tensorplay eager and the
built-in 'stax' backend, side by side in one run (medians of interleaved
rounds): the MLP of tensorplay-compile.md (4 x (Linear 1024 + GELU), batch
256, Linear 10 and cross entropy), forward and forward+backward+SGD step,
f32 and autocast bf16; the first call (capture + compile) and the backend's
per-call overhead (a tiny graph: guards, dispatch, output allocation).

  python compare-backend.py [--rounds N] [--steps N]
"""

import argparse
import statistics
import time
import warnings

import tensorplay
import tensorplay.nn as nn
import tensorplay.nn.functional as F


class MLP(nn.Module):
    def __init__(self, width=1024, layers=4, classes=10):
        super().__init__()
        self.layers = layers
        for i in range(layers):
            setattr(self, f"fc{i}", nn.Linear(width, width))
        self.act = nn.GELU()
        self.out = nn.Linear(width, classes)

    def forward(self, x, labels):
        for i in range(self.layers):
            x = self.act(getattr(self, f"fc{i}")(x))
        logits = self.out(x)
        return logits, F.cross_entropy(logits, labels)


def timed(fn, steps):
    fn()
    t0 = time.perf_counter()
    for _ in range(steps):
        fn()
    return (time.perf_counter() - t0) / steps * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=10)
    args = ap.parse_args()
    tensorplay.manual_seed(0)
    x = tensorplay.randn(256, 1024)
    labels = tensorplay.randint(0, 10, (256,))
    model = MLP()
    opt = tensorplay.optim.SGD(model.parameters(), lr=1e-3)
    # One compiled function per backend and autocast state: tensorplay 1.1
    # traces its AOT graphs with the autocast state of the first call (the
    # mlir backend refuses a call under another), so each state gets its own.
    runners = {("eager", False): model, ("eager", True): model}
    first_call = {}
    for name in ("mlir", "stax"):
        for autocast in (False, True):
            compiled = tensorplay.compile(model, backend=name)
            t0 = time.perf_counter()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    with tensorplay.no_grad(), tensorplay.autocast(
                            "cpu", enabled=autocast):
                        compiled(x, labels)
            except Exception as e:  # stax fails on tensorplay 1.1 / py3.10
                print(f"{name} ({'bf16' if autocast else 'f32'}): "
                      f"{type(e).__name__}: {str(e)[:100]}")
                continue
            first_call[(name, autocast)] = time.perf_counter() - t0
            runners[(name, autocast)] = compiled

    def forward(fn, autocast):
        def run():
            with tensorplay.no_grad(), tensorplay.autocast("cpu",
                                                           enabled=autocast):
                fn(x, labels)
        return run

    def train(fn, autocast):
        def run():
            opt.zero_grad()
            with tensorplay.autocast("cpu", enabled=autocast):
                _, loss = fn(x, labels)
            loss.backward()
            opt.step()
        return run

    results = {}
    for _ in range(args.rounds):
        for kind, make in (("forward", forward), ("train step", train)):
            for (name, autocast), fn in runners.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ms = timed(make(fn, autocast), args.steps)
                results.setdefault((kind, autocast, name), []).append(ms)

    print(f"tensorplay {tensorplay.__version__}: MLP 4 x (Linear 1024 + GELU), "
          f"batch 256, {args.rounds} rounds x {args.steps} steps, medians "
          f"(ms); ratio = eager / backend")
    print(f"{'':24}{'eager':>9}{'mlir':>9}{'stax':>9}{'eager/mlir':>12}")
    for kind in ("forward", "train step"):
        for autocast in (False, True):
            m = {n: statistics.median(results[(kind, autocast, n)])
                 if (kind, autocast, n) in results else float("nan")
                 for n in ("eager", "mlir", "stax")}
            label = f"{kind} {'bf16' if autocast else 'f32'}"
            print(f"{label:24}{m['eager']:9.2f}{m['mlir']:9.2f}"
                  f"{m['stax']:9.2f}{m['eager'] / m['mlir']:12.2f}")
    for (name, autocast), s in first_call.items():
        print(f"first call ({name}, {'bf16' if autocast else 'f32'}): "
              f"{s * 1e3:.0f} ms")

    # Per-call overhead: a 1-element graph, compiled vs the same compiled
    # code called through _core directly.
    tiny = tensorplay.compile(lambda a: a * 2.0, backend="mlir")
    a = tensorplay.randn(1)
    with tensorplay.no_grad():
        tiny(a)
        backend_us = timed(lambda: tiny(a), 20000) * 1e3
        eager_us = timed(lambda: a * 2.0, 20000) * 1e3
    print(f"per call, 1-element graph: backend {backend_us:.1f} us, "
          f"eager op {eager_us:.1f} us")


if __name__ == "__main__":
    main()
