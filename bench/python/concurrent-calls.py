"""Wall time of compiled calls from one thread and from two at once (the
codegen runtime's per-thread error status lets the backend run them
concurrently). Prints calls per second for 1 and 2 threads and the ratio;
figures, never asserted.

    build/python-venv-1.1/bin/python bench/python/concurrent-calls.py
"""

import threading
import time

import numpy as np

import tensorplay_mlir

MODULE = """
func.func @mlp(%x: tensor<8x64xf32>, %w1: tensor<64x64xf32>,
               %w2: tensor<64x64xf32>) -> tensor<8x64xf32> {
  %h = tp.matmul %x, %w1 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  %r = tp.relu %h : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = tp.matmul %r, %w2 : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}
"""


def caller(exe, calls):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 64), dtype=np.float32)
    w1 = rng.standard_normal((64, 64), dtype=np.float32)
    w2 = rng.standard_normal((64, 64), dtype=np.float32)
    out = np.zeros((8, 64), np.float32)
    args = [(a.ctypes.data, "f32", list(a.shape)) for a in (x, w1, w2)]
    results = [(out.ctypes.data, "f32", [8, 64])]

    def run():
        for _ in range(calls):
            exe.run("mlp", args, results)
    return run


def timed(jobs):
    threads = [threading.Thread(target=j) for j in jobs]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def main():
    exe = tensorplay_mlir.Executable(MODULE)
    calls = 20000
    caller(exe, 100)()  # compile and warm up
    rates = {}
    for round_ in range(3):
        one = timed([caller(exe, 2 * calls)])
        two = timed([caller(exe, calls), caller(exe, calls)])
        rates.setdefault(1, []).append(2 * calls / one)
        rates.setdefault(2, []).append(2 * calls / two)
    med = {k: sorted(v)[1] for k, v in rates.items()}
    print(f"1 thread : {med[1]:9.0f} calls/s")
    print(f"2 threads: {med[2]:9.0f} calls/s  ({med[2] / med[1]:.2f}x)")


if __name__ == "__main__":
    main()
