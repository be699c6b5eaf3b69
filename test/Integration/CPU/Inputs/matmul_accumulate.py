"""Inputs and checks of matmul-accumulate.mlir.

  matmul_accumulate.py inputs DIR   writes @fused's and @separate's inputs
  matmul_accumulate.py check DIR    compares their results bitwise and with
                                    NumPy in float64
"""
import os
import sys

import numpy as np

T = 4


def arguments():
    r = np.random.default_rng(3)
    shapes = [(16, 96)] * (2 * T) + [(5, 40), (96, 40), (96,), (5, 96)]
    return [r.uniform(-1, 1, s).astype(np.float32) for s in shapes]


def main():
    mode, d = sys.argv[1], sys.argv[2]
    args = arguments()
    if mode == "inputs":
        for f in ("fused", "separate"):
            for i, a in enumerate(args):
                np.save(os.path.join(d, "%s.arg%d.npy" % (f, i)), a)
        return 0
    a = [x.astype(np.float64) for x in args]
    dg, h, (x, w, b, y) = a[:T], a[T:2 * T], a[2 * T:]
    refs = [sum(dg[t].T @ h[t] for t in range(T)), np.exp(y) + x @ w.T + b]
    failed = 0
    for k, (name, ref) in enumerate(zip(("recurrence", "linear"), refs)):
        fused = np.load(os.path.join(d, "fused.out%d.npy" % k))
        separate = np.load(os.path.join(d, "separate.out%d.npy" % k))
        err = np.max(np.abs(fused - ref)) / np.max(np.abs(ref))
        same = fused.tobytes() == separate.tobytes()
        ok = same and err < 1e-5
        failed += not ok
        print("%s: %s to the separate adds, error %.3g of the largest "
              "float64 element%s" % (name, "bit-identical" if same else
                                     "DIFFERENT", err, "" if ok else " FAIL"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
