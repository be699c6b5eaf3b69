#!/usr/bin/env python3
"""The model zoo (python/tests/zoo.py) through tensorplay.compile: per model,
the cold first call (capture + translation + compile) and the steady-state
time of an inference call and of a training step (forward, backward, SGD),
for the mlir backend, eager, and the frontend's own executor (a backend that
returns the graph), in f32 and under cpu bf16 autocast, side by side in one
run (medians of interleaved rounds). Where tensorplay 1.0 cannot trace a
model, its workaround (zoo.WORKAROUNDS) is measured.

  python zoo-bench.py [--rounds N] [--steps N] [--models a,b]
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

def plain(gm, example_inputs, **kwargs):
    return gm


def make(name, backend):
    tensorplay.manual_seed(0)
    model = zoo.model_class(name)()
    if backend is None:
        return model, model
    return model, tensorplay.compile(model, backend=backend,
                                     options={"fallback": False}
                                     if backend == "mlir" else None)


def infer(fn, args):
    with tensorplay.no_grad():
        fn(*args)


def train(name, model, fn, args, targets, opt):
    opt.zero_grad()
    zoo.loss_of(name, fn(*args), targets).backward()
    opt.step()


def measure(name, autocast, rounds, steps):
    args, targets = zoo.inputs(name)
    row = {}
    kinds = [("mlir", "mlir"), ("eager", None), ("executor", plain)]
    runners = {}
    for label, backend in kinds:
        for mode in ("infer", "train"):
            model, fn = make(name, backend)
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
    opts = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"tensorplay {tensorplay.__version__}, "
          f"{tensorplay.get_num_threads()} threads; ms per call "
          "(medians); first calls in s")
    print(f"{'model':<10} {'dtype':<5} {'mode':<6} {'mlir':>8} "
          f"{'eager':>8} {'executor':>8} {'eager/mlir':>10} "
          f"{'first mlir':>10} {'first exec':>10}")
    for name in opts.models.split(","):
        for autocast in (False, True):
            row = measure(name, autocast, opts.rounds, opts.steps)
            for mode in ("infer", "train"):
                def ms(label):
                    v = row.get((label, mode))
                    return f"{v * 1e3:8.2f}" if v is not None else f"{'-':>8}"

                def first(label):
                    v = row.get((label, mode, "first"))
                    return f"{v:10.2f}" if v is not None else f"{'-':>10}"
                mlir, eager = row.get(("mlir", mode)), row.get(("eager", mode))
                ratio = f"{eager / mlir:10.2f}" if mlir and eager else \
                    f"{'-':>10}"
                print(f"{name:<10} {'bf16' if autocast else 'f32':<5} "
                      f"{mode:<6} {ms('mlir')} {ms('eager')} "
                      f"{ms('executor')} {ratio} {first('mlir')} "
                      f"{first('executor')}", flush=True)


if __name__ == "__main__":
    main()
