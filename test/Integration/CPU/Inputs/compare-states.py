#!/usr/bin/env python3
"""Compares two tp-train --save directories (train-skip.mlir):

  compare-states.py identical A B        every .npy of A equals B's, bit for bit
  compare-states.py skipped BEFORE AFTER AFTER is BEFORE after one skipped step:
      parameters and optimizer state bit-identical, the scale halved, the
      growth tracker reset to 0
"""
import os
import sys

import numpy as np


def load(directory):
    return {name: np.load(os.path.join(directory, name))
            for name in sorted(os.listdir(directory)) if name.endswith(".npy")}


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and \
        a.tobytes() == b.tobytes()


def main():
    mode, a_dir, b_dir = sys.argv[1:4]
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
