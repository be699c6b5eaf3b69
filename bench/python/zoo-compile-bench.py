#!/usr/bin/env python3
"""Compile times of the model zoo (python/tests/zoo.py) through
tensorplay.compile(backend="mlir"): for each model, f32 and cpu bf16
autocast, inference and a training step (forward, loss, backward, SGD), the
first call (capture, translation, compile, run) in a fresh process:

- "O3 cold": the code of each function generated at O3 before its first
  call (options tiered=False), empty compile cache;
- "tiered cold": the default (O0 code first, O3 in the background), empty
  compile cache;
- "cached": the default again, in a new process, with the cache the tiered
  run left (its process waits for its background compiles at exit).

  python zoo-compile-bench.py [--models a,b]

Each run is its own process, as a user's would be; seconds, one run each.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "..", "python", "tests")


def child(name, autocast, mode, tiered):
    import warnings
    warnings.simplefilter("ignore")
    sys.path.insert(0, TESTS)
    import tensorplay
    import zoo
    tensorplay.manual_seed(0)
    model = zoo.model_class(name)()
    model.train(mode == "train")
    started = time.perf_counter()
    fn = tensorplay.compile(model, backend="mlir",
                            options={"fallback": False, "tiered": tiered})
    args, targets = zoo.inputs(name)
    opt = tensorplay.optim.SGD(model.parameters(), lr=1e-3)
    with tensorplay.autocast("cpu", enabled=autocast):
        if mode == "infer":
            with tensorplay.no_grad():
                fn(*args)
        else:
            opt.zero_grad()
            zoo.loss_of(name, fn(*args), targets).backward()
            opt.step()
    print(json.dumps({"first": time.perf_counter() - started}))


def run(cache, name, autocast, mode, tiered):
    env = dict(os.environ, TENSORPLAY_MLIR_CACHE_DIR=cache)
    env.pop("TENSORPLAY_MLIR_CACHE", None)
    out = subprocess.run(
        [sys.executable, __file__, "--child", name, str(int(autocast)), mode,
         str(int(tiered))], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        return None  # e.g. 1.1's frontend cannot trace a bf16 CNN
    return json.loads(out.stdout.strip().splitlines()[-1])["first"]


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _, _, name, autocast, mode, tiered = sys.argv
        child(name, autocast == "1", mode, tiered == "1")
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models",
                        default="gpt,resnet,mobilenet,lstm,vit,encoder")
    opts = parser.parse_args()
    import tensorplay
    print(f"tensorplay {tensorplay.__version__}: first call in s")
    print(f"{'model':<10} {'dtype':<5} {'mode':<6} {'O3 cold':>8} "
          f"{'tiered cold':>11} {'cached':>8}")
    for name in opts.models.split(","):
        for autocast in (False, True):
            for mode in ("infer", "train"):
                with tempfile.TemporaryDirectory() as o3, \
                        tempfile.TemporaryDirectory() as tiered:
                    cold = run(o3, name, autocast, mode, False)
                    first = run(tiered, name, autocast, mode, True)
                    cached = run(tiered, name, autocast, mode, True)

                def s(v):
                    return f"{v:.2f}" if v is not None else "-"
                print(f"{name:<10} {'bf16' if autocast else 'f32':<5} "
                      f"{mode:<6} {s(cold):>8} {s(first):>11} "
                      f"{s(cached):>8}", flush=True)


if __name__ == "__main__":
    main()
