"""Checks result-buffers.mlir's results (tp-run's .npy files in argv[1])
against NumPy."""

import sys

import numpy as np

d = sys.argv[1]
x = np.load(f"{d}/f.arg0.npy").astype(np.float64)
w = np.load(f"{d}/f.arg1.npy").astype(np.float64)
h = x @ w.T
e = np.exp(h)
want = [h, e, e, e.reshape(128), np.tanh(x) * h, w, np.maximum(e, 0)]
for k, ref in enumerate(want):
    got = np.load(f"{d}/f.out{k}.npy")
    assert got.shape == ref.shape, (k, got.shape, ref.shape)
    np.testing.assert_allclose(got, ref, rtol=2e-5, atol=1e-6,
                               err_msg=f"result #{k}")
print(f"{len(want)} results match NumPy")
