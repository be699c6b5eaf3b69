#!/usr/bin/env python3
"""The model zoo (python/tests/zoo.py) through tensorplay.compile: per model,
the cold first call (capture + translation + compile) and the steady-state
time of an inference call and of a training step (forward, backward, SGD),
for the mlir backend, eager, and the frontend's own executor (a backend that
returns the graph), in f32 and under cpu bf16 autocast, side by side in one
run (medians of interleaved rounds). Where tensorplay 1.0 cannot trace a
model, its workaround (zoo.WORKAROUNDS) is measured.

--size test (the default) runs the zoo's test models (batch 2, 16x16
images, widths 8-32: the per-call overheads weigh most). --size bench runs
the same classes at the sizes users train on a CPU (BENCH_SIZES: ResNet
width 32 and MobileNetV2 on 8 32x32 images, a 4-layer GPT of width 128 on
8 x 64 tokens, ...), f32 only, with the optimized code compiled before the
first call (the option tiered=False: timing the default would measure the
O0 tier while the background thread competes for the cores).

  python zoo-bench.py [--rounds N] [--steps N] [--models a,b]
                      [--size test|bench] [--dtypes f32,bf16]
"""

import argparse
import os
import statistics
import sys
import time
import warnings

import tensorplay

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "python", "tests"))
import zoo  # noqa: E402

# --size bench: (model keyword arguments, inputs, targets) per model, the
# inputs and targets built as zoo.inputs builds the test sizes'.
BENCH_SIZES = {
    "resnet": (dict(width=32),
               lambda: (tensorplay.randn(8, 3, 32, 32),),
               lambda: tensorplay.randint(0, 10, (8,))),
    "mobilenet": ({}, lambda: (tensorplay.randn(8, 3, 32, 32),),
                  lambda: tensorplay.randint(0, 10, (8,))),
    "gpt": (dict(vocab=256, d=128, heads=4, layers=4, block=64),
            lambda: (tensorplay.randint(0, 256, (8, 64)),
                     tensorplay.randint(0, 256, (8, 64))),
            lambda: None),
    "vit": (dict(d=128, heads=4, patch=4, size=32),
            lambda: (tensorplay.randn(8, 3, 32, 32),),
            lambda: tensorplay.randint(0, 10, (8,))),
    "lstm": (dict(vocab=256, d=64, hidden=128),
             lambda: (tensorplay.randint(0, 256, (32, 16)),),
             lambda: tensorplay.randint(0, 256, (32 * 16,))),
    "encoder": (dict(d=128, heads=4),
                lambda: (tensorplay.randint(1, 40, (8, 32)),
                         tensorplay.zeros(8, 32, dtype=tensorplay.bool)),
                lambda: tensorplay.randint(0, 3, (8,))),
}


def plain(gm, example_inputs, **kwargs):
    return gm


def make(name, backend, size):
    tensorplay.manual_seed(0)
    kwargs = BENCH_SIZES[name][0] if size == "bench" else {}
    model = zoo.model_class(name)(**kwargs)
    if backend is None:
        return model, model
    options = None
    if backend == "mlir":
        options = {"fallback": False}
        if size == "bench":
            options["tiered"] = False
    return model, tensorplay.compile(model, backend=backend, options=options)


def inputs(name, size):
    if size != "bench":
        return zoo.inputs(name)
    _, args, targets = BENCH_SIZES[name]
    tensorplay.manual_seed(1)
    return args(), targets()


def infer(fn, args):
    with tensorplay.no_grad():
        fn(*args)


def train(name, model, fn, args, targets, opt):
    opt.zero_grad()
    zoo.loss_of(name, fn(*args), targets).backward()
    opt.step()


def measure(name, autocast, rounds, steps, size):
    args, targets = inputs(name, size)
    row = {}
    kinds = [("mlir", "mlir"), ("eager", None), ("executor", plain)]
    runners = {}
    for label, backend in kinds:
        for mode in ("infer", "train"):
            model, fn = make(name, backend, size)
            model.train(mode == "train")
            opt = tensorplay.optim.SGD(model.parameters(), lr=1e-3)
            with tensorplay.autocast("cpu", enabled=autocast):
                started = time.perf_counter()
                try:
                    if mode == "infer":
                        infer(fn, args)
                    else:
                        train(name, model, fn, args, targets, opt)
                except NotImplementedError:
                    continue  # eager has no bf16 kernel for this model
                row[(label, mode, "first")] = time.perf_counter() - started
            runners[(label, mode)] = (
                (lambda fn=fn: infer(fn, args)) if mode == "infer" else
                (lambda model=model, fn=fn, opt=opt:
                 train(name, model, fn, args, targets, opt)))
    times = {key: [] for key in runners}
    for _ in range(rounds):
        for key, run in runners.items():
            with tensorplay.autocast("cpu", enabled=autocast):
                run()
                started = time.perf_counter()
                for _ in range(steps):
                    run()
                times[key].append((time.perf_counter() - started) / steps)
    for key, values in times.items():
        row[key] = statistics.median(values)
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--models", default=",".join(sorted(zoo.MODELS)))
    parser.add_argument("--size", choices=("test", "bench"), default="test")
    parser.add_argument("--dtypes", default=None,
                        help="f32,bf16 (default: both for --size test, "
                        "f32 for --size bench)")
    opts = parser.parse_args()
    dtypes = (opts.dtypes or ("f32" if opts.size == "bench" else
                              "f32,bf16")).split(",")
    unknown = set(dtypes) - {"f32", "bf16"}
    if unknown:
        parser.error(f"unknown --dtypes {sorted(unknown)} (f32, bf16)")
    models = opts.models.split(",")
    unknown = set(models) - set(zoo.MODELS)
    if unknown:
        parser.error(f"unknown --models {sorted(unknown)} "
                     f"({', '.join(sorted(zoo.MODELS))})")
    warnings.simplefilter("ignore")
    print(f"tensorplay {tensorplay.__version__}, "
          f"{tensorplay.get_num_threads()} threads; ms per call "
          "(medians); first calls in s")
    print(f"{'model':<10} {'dtype':<5} {'mode':<6} {'mlir':>8} "
          f"{'eager':>8} {'executor':>8} {'eager/mlir':>10} "
          f"{'first mlir':>10} {'first exec':>10}")
    ratios = {"infer": [], "train": []}
    for name in models:
        for autocast in [d == "bf16" for d in dtypes]:
            row = measure(name, autocast, opts.rounds, opts.steps, opts.size)
            for mode in ("infer", "train"):
                def ms(label):
                    v = row.get((label, mode))
                    return f"{v * 1e3:8.2f}" if v is not None else f"{'-':>8}"

                def first(label):
                    v = row.get((label, mode, "first"))
                    return f"{v:10.2f}" if v is not None else f"{'-':>10}"
                mlir, eager = row.get(("mlir", mode)), row.get(("eager", mode))
                if mlir and eager and not autocast:
                    ratios[mode].append(eager / mlir)
                ratio = f"{eager / mlir:10.2f}" if mlir and eager else \
                    f"{'-':>10}"
                print(f"{name:<10} {'bf16' if autocast else 'f32':<5} "
                      f"{mode:<6} {ms('mlir')} {ms('eager')} "
                      f"{ms('executor')} {ratio} {first('mlir')} "
                      f"{first('executor')}", flush=True)
    for mode, values in ratios.items():
        if values:
            print(f"f32 {mode}: eager/mlir geometric mean "
                  f"{statistics.geometric_mean(values):.2f}, lowest "
                  f"{min(values):.2f} ({len(values)} models)")


if __name__ == "__main__":
    main()
