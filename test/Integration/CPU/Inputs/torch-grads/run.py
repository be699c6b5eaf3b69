#!/usr/bin/env python3
"""Compares tp-autodiff's gradients of the cases in cases.py with
PyTorch's (expected.json, made once by gen.py): each gradient element
within 1e-12 + 1e-9 |expected|, the loss too.

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


def ty(shape):
    return "tensor<%sf64>" % "".join("%dx" % d for d in shape)


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
    for name, case_args, body, _ in CASES:
        params = ", ".join("%%a%d: %s" % (i, ty(shape))
                           for i, (shape, _) in enumerate(case_args))
        lines = ["func.func @%s(%s) -> tensor<f64> {" % (name, params)]
        lines += ["  " + l for l in body]
        lines += ["  return %loss : tensor<f64>", "}"]
        funcs.append("\n".join(lines))
        for i, (shape, values) in enumerate(case_args):
            x = np.array(values, dtype=np.float64).reshape(shape)
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
    for name, case_args, _, _ in CASES:
        ref = expected[name]
        outs = [np.load(os.path.join(args.tmp, "%s_grad.out%d.npy" % (name, k)))
                for k in range(1 + len(case_args))]
        pairs = [(outs[0], np.array(ref["loss"]))] + [
            (outs[1 + i], np.array(g, dtype=np.float64))
            for i, g in enumerate(ref["grads"])]
        worst, ok = 0.0, True
        for got, want in pairs:
            got = got.reshape(want.shape)
            bound = 1e-12 + 1e-9 * np.abs(want)
            err = np.abs(got - want)
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
