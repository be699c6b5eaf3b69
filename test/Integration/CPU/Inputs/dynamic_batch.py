"""Dynamic batch sizes end to end: the examples with their batch dimension
written `?` run through tp-run (which specializes them to their inputs'
shapes, tp-specialize-shapes) at several batch sizes, against the same
example compiled with that batch written statically, on the same inputs.
The encoder block's reshapes name its batch (8): written so they are
refused with a clear error; with -1 for the batch they run.

Usage: dynamic_batch.py --tp-run PATH --tmp DIR"""

import argparse
import os
import re
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "..", "..", "examples")


def mlp(batch):
    text = open(os.path.join(EXAMPLES, "mlp.mlir")).read()
    return (text.replace("tensor<256x", f"tensor<{batch}x")
            .replace("tensor<256xi64>", f"tensor<{batch}xi64>"))


def encoder(batch, fixed_reshapes=False):
    text = open(os.path.join(EXAMPLES, "encoder_block.mlir")).read()
    if not fixed_reshapes:
        text = text.replace("shape = array<i64: 8, ", "shape = array<i64: -1, ")
    return text.replace("tensor<8x", f"tensor<{batch}x")


def arguments(text):
    m = re.search(r"func\.func @(\w+)\((.*?)\)\s*->", text, re.S)
    args = re.findall(r"%\w+: tensor<([0-9x]*?)x?(f32|i64)>", m.group(2))
    return m.group(1), [(tuple(int(d) for d in s.split("x") if d), t)
                        for s, t in args]


def run(tp_run, text, directory, inputs, flags=()):
    os.makedirs(directory)
    path = os.path.join(directory, "module.mlir")
    open(path, "w").write(text)
    name, _ = arguments(text)
    for i, a in enumerate(inputs):
        np.save(os.path.join(directory, f"{name}.arg{i}.npy"), a)
    proc = subprocess.run([tp_run, path, "--npy-dir", directory, *flags],
                          capture_output=True, text=True)
    if proc.returncode:
        return None, proc.stderr
    outs, k = [], 0
    while os.path.exists(os.path.join(directory, f"{name}.out{k}.npy")):
        outs.append(np.load(os.path.join(directory, f"{name}.out{k}.npy")))
        k += 1
    return outs, ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-run", required=True)
    parser.add_argument("--tmp", required=True)
    args = parser.parse_args()
    if os.path.isdir(args.tmp):
        shutil.rmtree(args.tmp)
    os.makedirs(args.tmp)
    rng = np.random.default_rng(5)
    failures = checked = 0
    for example, build, sizes, flags in (
            ("mlp", mlp, (1, 3, 17), ()),
            ("mlp_autocast", mlp, (5,), ("--autocast=cpu:bf16",)),
            ("encoder", encoder, (1, 3), ())):
        dynamic = build("?")
        for batch in sizes:
            static = build(batch)
            _, types = arguments(static)
            inputs = [rng.integers(0, 10, size=s).astype(np.int64)
                      if t == "i64" else
                      rng.uniform(-1, 1, size=s).astype(np.float32) /
                      (np.sqrt(s[-1]) if len(s) == 2 else 1)
                      for s, t in types]
            tag = f"{example}_b{batch}"
            want, err = run(args.tp_run, static,
                            os.path.join(args.tmp, tag + "_static"), inputs,
                            flags)
            got, err2 = run(args.tp_run, dynamic,
                            os.path.join(args.tmp, tag + "_dynamic"), inputs,
                            flags)
            checked += 1
            if want is None or got is None:
                print(f"FAIL {tag}: tp-run failed: {err}{err2}")
                failures += 1
                continue
            diffs = [float(np.max(np.abs(g.astype(np.float64) - w)))
                     if w.size else 0.0 for g, w in zip(got, want)]
            shapes_ok = [g.shape for g in got] == [w.shape for w in want]
            ok = shapes_ok and len(got) == len(want) and max(diffs) == 0.0
            print(f"{'PASS' if ok else 'FAIL'} {tag}: results "
                  f"{[tuple(w.shape) for w in want]}, max |dynamic - "
                  f"static| {max(diffs):.3g}")
            failures += not ok
    # The encoder with its batch written into the reshapes: refused.
    _, err = run(args.tp_run, encoder("?", fixed_reshapes=True),
                 os.path.join(args.tmp, "encoder_fixed"),
                 [rng.uniform(-1, 1, size=(3,) + s[1:]).astype(np.float32)
                  if i == 0 else rng.uniform(-1, 1, size=s).astype(np.float32)
                  for i, (s, t) in enumerate(arguments(encoder(8))[1])])
    refused = "tp-specialize-shapes: the op's shape rules refuse" in err
    print(f"{'PASS' if refused else 'FAIL'} encoder_fixed_reshape: "
          + (err.splitlines()[0] if err else "ran"))
    failures += not refused
    checked += 1
    if failures:
        print(f"{failures} of {checked} checks failed")
        return 1
    print(f"all {checked} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
