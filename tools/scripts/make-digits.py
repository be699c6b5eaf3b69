#!/usr/bin/env python3
"""Writes scikit-learn's handwritten digits (1797 8x8 images, shipped with
the package: no download) as .npy files for tp-train:

  make-digits.py OUT_DIR   ->  OUT_DIR/{x,y}_{train,test}.npy

Images are flattened to 64 float32 features scaled to [0, 1] (pixels are
0..16), labels are int64. A fixed permutation (NumPy seed 0) puts 1437
samples in the training set and 360 in the test set.
"""
import os
import sys

import numpy as np


def load_digits():
    try:
        from sklearn.datasets import load_digits as sk_load
        d = sk_load()
        return d.data, d.target
    except ImportError:
        pass
    # Debian's python3-sklearn without its compiled parts: the CSV it ships.
    for root in sys.path + ["/usr/lib/python3/dist-packages"]:
        path = os.path.join(root, "sklearn", "datasets", "data", "digits.csv.gz")
        if os.path.exists(path):
            raw = np.loadtxt(path, delimiter=",")
            return raw[:, :-1], raw[:, -1]
    sys.exit("make-digits.py: scikit-learn is not installed "
             "(apt-get install python3-sklearn, or pip install scikit-learn)")


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    x, y = load_digits()
    x = (np.asarray(x, dtype=np.float64) / 16.0).astype(np.float32)
    y = np.asarray(y).astype(np.int64)
    assert x.shape == (1797, 64) and y.shape == (1797,), (x.shape, y.shape)
    order = np.random.RandomState(0).permutation(len(x))
    train, test = order[:1437], order[1437:]
    for name, array in (("x_train", x[train]), ("y_train", y[train]),
                        ("x_test", x[test]), ("y_test", y[test])):
        np.save(os.path.join(out, name + ".npy"), np.ascontiguousarray(array))
    print(f"make-digits.py: {len(train)} training and {len(test)} test "
          f"samples in {out}")


if __name__ == "__main__":
    main()
