#!/usr/bin/env python3
"""Compares the gradients of a mixed-precision run of @f_grad with the f32
run's (grad-precision.mlir):

  compare-grads.py ENTRY FIRST TOLERANCE F32_DIR OTHER_DIR [--other-dtype]

Results FIRST, FIRST+1, ... of ENTRY (the gradients; the ones before are
@f's own results) are read from <dir>/<ENTRY>.out<k>.npy. For each, the
norm-wise relative error |g - g32| / |g32| must be at most TOLERANCE. The
mixed-precision gradients must have the f32 ones' dtype (f32 master
weights get f32 gradients), unless --other-dtype (an f64 reference of the
same program). Prints the worst error.
"""
import os
import sys

import numpy as np


def main():
    entry, first, tolerance, ref_dir, other_dir = sys.argv[1:6]
    any_dtype = sys.argv[6:] == ["--other-dtype"]
    first, tolerance = int(first), float(tolerance)
    worst, count, k = 0.0, 0, first
    while True:
        name = f"{entry}.out{k}.npy"
        if not os.path.exists(os.path.join(ref_dir, name)):
            break
        ref = np.load(os.path.join(ref_dir, name))
        other = np.load(os.path.join(other_dir, name))
        if (ref.dtype != other.dtype and not any_dtype) or \
                ref.shape != other.shape:
            sys.exit(f"FAIL {name}: {other.dtype}{other.shape} vs the f32 "
                     f"run's {ref.dtype}{ref.shape}")
        ref64, other64 = ref.astype(np.float64), other.astype(np.float64)
        if not np.all(np.isfinite(other64)):
            sys.exit(f"FAIL {name}: non-finite gradient")
        error = np.linalg.norm(other64 - ref64) / max(np.linalg.norm(ref64),
                                                      1e-30)
        if error > tolerance:
            sys.exit(f"FAIL {name}: relative error {error:.3g} > {tolerance}")
        worst = max(worst, error)
        count += 1
        k += 1
    if count == 0:
        sys.exit("FAIL: no gradients found")
    print(f"{count} gradients within {tolerance}: worst relative error "
          f"{worst:.3g}")


if __name__ == "__main__":
    main()
