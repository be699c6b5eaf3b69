#!/usr/bin/env python3
"""Compares tp-train --save directories (train-skip.mlir,
train-distributed.mlir):

  compare-states.py identical A B        every .npy of A equals B's, bit for bit
  compare-states.py skipped BEFORE AFTER AFTER is BEFORE after one skipped step:
      parameters and optimizer state bit-identical, the scale halved, the
      growth tracker reset to 0
  compare-states.py replicas DIR N       DIR/rank0 .. DIR/rank<N-1> (--save-all-
      ranks) and DIR itself hold the same bits, every file
  compare-states.py close-max A B TOL    every parameter (argK.npy) of A within
      TOL * max|B| of B's, element by element
  compare-states.py close-rms A B TOL    every parameter's RMS difference within
      TOL * its RMS in B
"""
import os
import re
import sys

import numpy as np


def load(directory):
    return {name: np.load(os.path.join(directory, name))
            for name in sorted(os.listdir(directory)) if name.endswith(".npy")}


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and \
        a.tobytes() == b.tobytes()


def replicas(directory, ranks):
    base = load(directory)
    if not base:
        sys.exit(f"FAIL: no .npy files in {directory}")
    bad = []
    for r in range(ranks):
        replica = load(os.path.join(directory, f"rank{r}"))
        if replica.keys() != base.keys():
            sys.exit(f"FAIL: rank{r} saved {sorted(replica)}, not {sorted(base)}")
        bad += [f"rank{r}/{name} differs" for name in base
                if not same_bits(base[name], replica[name])]
    for line in bad:
        print("FAIL:", line)
    if bad:
        sys.exit(1)
    print(f"replicas: {ranks} ranks x {len(base)} files bit-identical")


def close(mode, a_dir, b_dir, tol):
    a, b = load(a_dir), load(b_dir)
    params = [name for name in b if re.fullmatch(r"arg\d+\.npy", name)]
    if not params or any(name not in a for name in params):
        sys.exit(f"FAIL: parameters {params} missing in {a_dir}")
    worst = 0.0
    for name in params:
        x, y = a[name].astype(np.float64), b[name].astype(np.float64)
        if x.shape != y.shape or not np.all(np.isfinite(x)):
            sys.exit(f"FAIL: {name}: shape {x.shape} vs {y.shape} or non-finite")
        if mode == "close-max":
            d = np.max(np.abs(x - y)) / max(np.max(np.abs(y)), 1e-30)
        else:
            d = np.sqrt(np.mean((x - y) ** 2)) / max(
                np.sqrt(np.mean(y ** 2)), 1e-30)
        worst = max(worst, d)
    verdict = "within" if worst <= tol else "FAIL: beyond"
    print(f"{mode}: {len(params)} parameters, worst {worst:.2e}, {verdict} {tol}")
    if worst > tol:
        sys.exit(1)


def main():
    mode = sys.argv[1]
    if mode == "replicas":
        return replicas(sys.argv[2], int(sys.argv[3]))
    if mode in ("close-max", "close-rms"):
        return close(mode, sys.argv[2], sys.argv[3], float(sys.argv[4]))
    a_dir, b_dir = sys.argv[2:4]
    a, b = load(a_dir), load(b_dir)
    if a.keys() != b.keys() or not a:
        sys.exit(f"FAIL: the saved files differ: {sorted(a)} vs {sorted(b)}")
    bad = []
    for name in a:
        if mode == "skipped" and name == "scale.npy":
            if not b[name] == a[name] * 0.5:
                bad.append(f"scale {b[name]} is not half of {a[name]}")
        elif mode == "skipped" and name == "growth_tracker.npy":
            if not b[name] == 0:
                bad.append(f"growth tracker {b[name]} is not 0")
        elif not same_bits(a[name], b[name]):
            bad.append(f"{name} differs")
    for line in bad:
        print("FAIL:", line)
    if bad:
        sys.exit(1)
    print(f"{mode}: {len(a)} files checked")


if __name__ == "__main__":
    main()
