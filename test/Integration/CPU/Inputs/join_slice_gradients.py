"""Inputs and checks of join-slice-gradients.mlir.

  join_slice_gradients.py inputs DIR   writes @gates' and @steps' inputs
                                       (with -0.0 and subnormals)
  join_slice_gradients.py check DIR    compares their results bitwise with
                                       the sum of the zero-padded pieces
"""
import os
import sys

import numpy as np


def values(r, shape, dtype):
    x = r.uniform(-1, 1, shape).astype(dtype)
    flat = x.reshape(-1)
    flat[0] = -0.0
    flat[1] = 0.0
    flat[2] = -np.finfo(dtype).tiny / 4  # subnormal
    flat[3::7] = -0.0
    return x


def arguments():
    r = np.random.default_rng(5)
    gates = [values(r, (4, 8), np.float32) for _ in range(4)]
    steps = [values(r, (1, 3, 5), np.float64) for _ in range(3)]
    return {"gates": gates, "steps": steps}


def padded(piece, full, dim, start):
    out = np.zeros(full, piece.dtype)
    index = [slice(None)] * len(full)
    index[dim] = slice(start, start + piece.shape[dim])
    out[tuple(index)] = piece
    return out


def expected(args):
    i, f, g, o = [padded(p, (4, 32), 1, 8 * k)
                  for k, p in enumerate(args["gates"])]
    x0, x2, x3 = [padded(p, (6, 3, 5), 0, s)
                  for p, s in zip(args["steps"], (0, 2, 3))]
    # The programs' order of the sums.
    return {"gates": ((o + g) + f) + i, "steps": (x3 + x2) + x0}


def main():
    mode, d = sys.argv[1], sys.argv[2]
    args = arguments()
    if mode == "inputs":
        for name, arrays in args.items():
            for k, a in enumerate(arrays):
                np.save(os.path.join(d, "%s.arg%d.npy" % (name, k)), a)
        return 0
    failed = 0
    for name, ref in expected(args).items():
        got = np.load(os.path.join(d, "%s.out0.npy" % name))
        same = got.dtype == ref.dtype and got.tobytes() == ref.tobytes()
        failed += not same
        print("%s: %s NumPy's sum" % (name, "bit-identical to" if same else
                                      "FAIL: different bits from"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
