#!/usr/bin/env python3
"""Compares tp-autodiff's gradients of the cases in cases.py with
PyTorch's (expected.json, made once by gen.py): each gradient element
of an f64 case within 1e-12 m + 1e-9 |expected|, of an f32 case within
1e-4 m + 1e-5 |expected| (PyTorch's f32 rounding and ours differ; the
products of attention cancel to 3e-5 of the largest gradient), with m
the largest |expected| of the array (at least 1), the loss too.

Usage: run.py --tp-opt PATH --tp-run PATH --tmp DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cases import CASES  # noqa: E402


NUMPY = {"f64": np.float64, "f32": np.float32}
# (absolute, relative) bound of each dtype.
BOUNDS = {"f64": (1e-12, 1e-9), "f32": (1e-4, 1e-5)}


def ty(shape, dtype):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-opt", required=True)
    parser.add_argument("--tp-run", required=True)
    parser.add_argument("--tmp", required=True)
    args = parser.parse_args()
    with open(os.path.join(HERE, "expected.json")) as f:
        expected = json.load(f)["cases"]
    if os.path.isdir(args.tmp):
        shutil.rmtree(args.tmp)
    os.makedirs(args.tmp)
    funcs = []
    for name, case_args, body, _, dtype in CASES:
        params = ", ".join("%%a%d: %s" % (i, ty(shape, dtype))
                           for i, (shape, _) in enumerate(case_args))
        lines = ["func.func @%s(%s) -> tensor<%s> {" % (name, params, dtype)]
        lines += ["  " + l for l in body]
        lines += ["  return %%loss : tensor<%s>" % dtype, "}"]
        funcs.append("\n".join(lines))
        for i, (shape, values) in enumerate(case_args):
            x = np.array(values, dtype=NUMPY[dtype]).reshape(shape)
            np.save(os.path.join(args.tmp, "%s_grad.arg%d.npy" % (name, i)), x)
    source = os.path.join(args.tmp, "cases.mlir")
    with open(source, "w") as f:
        f.write("\n\n".join(funcs) + "\n")
    grads = os.path.join(args.tmp, "grads.mlir")
    proc = subprocess.run([args.tp_opt, source, "--tp-autodiff", "-o", grads],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("tp-opt --tp-autodiff failed:\n" + proc.stderr)
        return 1
    proc = subprocess.run([args.tp_run, grads, "--npy-dir", args.tmp],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("tp-run failed (%d):\n%s%s" % (proc.returncode, proc.stdout,
                                             proc.stderr))
        return 1
    failures = 0
    for name, case_args, _, _, dtype in CASES:
        ref = expected[name]
        outs = [np.load(os.path.join(args.tmp, "%s_grad.out%d.npy" % (name, k)))
                for k in range(1 + len(case_args))]
        pairs = [(outs[0], np.array(ref["loss"]))] + [
            (outs[1 + i], np.array(g, dtype=np.float64))
            for i, g in enumerate(ref["grads"])]
        worst, ok = 0.0, True
        for got, want in pairs:
            got = got.reshape(want.shape)
            absolute, relative = BOUNDS[dtype]
            # Absolute: relative to the array's largest element (a gradient
            # that is zero in exact arithmetic, as attention's key bias,
            # is rounding noise of the others' size).
            scale = max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
            bound = absolute * scale + relative * np.abs(want)
            err = np.abs(got.astype(np.float64) - want)
            worst = max(worst, float(np.max(err / bound)))
            ok = ok and bool(np.all(err <= bound))
            if not np.all(err <= bound):
                print("  %s: got %s, PyTorch %s" % (name, got.tolist(),
                                                    want.tolist()))
        print("%s %s: worst error %.3g of the bound"
              % ("PASS" if ok else "FAIL", name, worst))
        failures += not ok
    print("torch-grads: %d cases, %d failed" % (len(CASES), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
