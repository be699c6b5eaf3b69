"""Wall time of compiled calls from one thread and from two at once (the
codegen runtime's per-thread error status lets the backend run them
concurrently). Prints calls per second (medians of 3 rounds) for 1 thread, 2 threads,
and 2 threads taking turns under a lock (what the former process-wide lock
allowed), with the ratios to 1 thread; figures, never asserted.

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


def caller(exe, calls, lock=None):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 64), dtype=np.float32)
    w1 = rng.standard_normal((64, 64), dtype=np.float32)
    w2 = rng.standard_normal((64, 64), dtype=np.float32)
    out = np.zeros((8, 64), np.float32)
    buffers = (x, w1, w2, out)  # (alive as long as the calls use them)
    args = [(a.ctypes.data, "f32", list(a.shape)) for a in buffers[:3]]
    results = [(out.ctypes.data, "f32", [8, 64])]

    def run():
        assert buffers
        for _ in range(calls):
            if lock is None:
                exe.run("mlp", args, results)
            else:
                with lock:
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
        lock = threading.Lock()
        runs = {"1 thread": [caller(exe, 2 * calls)],
                "2 threads": [caller(exe, calls), caller(exe, calls)],
                "2 threads, one call at a time (the former process-wide "
                "lock)": [caller(exe, calls, lock), caller(exe, calls, lock)]}
        for what, jobs in runs.items():
            rates.setdefault(what, []).append(2 * calls / timed(jobs))
    base = sorted(rates["1 thread"])[1]
    for what, values in rates.items():
        rate = sorted(values)[1]
        print(f"{rate:9.0f} calls/s  {rate / base:.2f}x  {what}")


if __name__ == "__main__":
    main()
